//! The reference layouts that several tests and benches use, defined once and included with
//! `#[path = "common/fixtures.rs"] mod fixtures;` (from benches/, `../tests/common/..`), so
//! that every file tests or times the same layout.

#![allow(dead_code)]

swizzle::layout! {
    /// CK Tile's Morton texture: 4 × 4 Morton tiles in a 2 × 2 grid (docs/semantics.md §3,
    /// CK Tile's Morton texture example).
    pub layout MortonTexture {
        memory [n: 64];
        unmerge n -> [ty: 2, tx: 2, m: 16];
        morton m -> [yi: 4, xi: 4];
        merge [ty, yi] -> y;
        merge [tx, xi] -> x;
        coords [y, x];
        inverse;
    }

    /// CK Tile universal-GEMM A tile in LDS, fp16, M=128, K=32, KPack=8 (docs/semantics.md
    /// §5, CK Tile's LDS XOR preshuffle).
    pub layout LdsA {
        const KPACK = 8; const L = 2; const K0 = 4;
        memory [k0l: K0 * L, mr: 64, k1: KPACK] strides [KPACK, 32 * L, 1];
        xor k0l by mr;
        unmerge k0l -> [l: L, k0: K0];
        merge [mr, l] -> m;
        merge [k0, k1] -> k;
        coords [m, k];
        inverse;
    }
}
