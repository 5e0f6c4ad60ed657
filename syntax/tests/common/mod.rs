//! Helpers shared by the core test suites: parsing a layout from text and walking its
//! coordinates.

#![allow(dead_code)]

pub mod generator;

use swizzle_core::ir::Descriptor;

/// CK Tile's Morton texture example: an 8×8 texture stored as 4×4 tiles, Morton order inside
/// each tile.
pub const MORTON_TEXTURE: &str = "
/// CK Tile's Morton texture example: 8×8 stored as 4×4 tiles, Morton order inside each tile.
pub layout MortonTexture {
    memory [n: 64];
    unmerge n -> [ty: 2, tx: 2, m: 16];
    morton m -> [yi: 4, xi: 4];
    merge [ty, yi] -> y;
    merge [tx, xi] -> x;
    coords [y, x];
}";

/// CK Tile's LDS XOR preshuffle: ck_tile's universal-GEMM A tile in LDS (fp16, M=128, K=32,
/// KPack=8).
pub const LDS_A: &str = "
/// CK Tile universal-GEMM A tile in LDS, fp16, M=128, K=32, KPack=8, XOR-preshuffled.
pub layout LdsA {
    const KPACK = 8; const L = 2; const K0 = 4;
    memory [k0l: K0 * L, mr: 64, k1: KPACK] strides [KPACK, 32 * L, 1];
    xor k0l by mr;
    unmerge k0l -> [l: L, k0: K0];
    merge [mr, l] -> m;
    merge [k0, k1] -> k;
    coords [m, k];
}";

/// A mixed-radix reshape: a 5×6 column-major tile viewed as 3 × 10 (the WGSL and
/// expansion tests' `Mixed`).
pub const MIXED: &str = "
/// A 5×6 tile stored column-major, then viewed as 30 rows of a flat index.
layout Mixed {
    memory [c: 6, r: 5];
    merge [r, c] -> i;
    unmerge i -> [a: 3, b: 10];
    coords [a, b];
    inverse;
}";

/// The single layout described by `source`, which must check.
pub fn layout(source: &str) -> Descriptor {
    let mut checked = swizzle_syntax::layouts(source).unwrap_or_else(|e| panic!("{e}\n{source}"));
    assert_eq!(checked.len(), 1, "expected one layout in {source}");
    checked.remove(0).descriptor
}

/// Runs `work` on a thread of its own and returns its result, failing the test if it takes
/// longer than `limit`: a hang becomes a failure that names `what`, not a run that never ends.
pub fn within<T: Send + 'static>(
    limit: std::time::Duration,
    what: &str,
    work: impl FnOnce() -> T + Send + 'static,
) -> T {
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        // The receiver is gone only if the deadline passed, which already fails the test.
        let _ = sender.send(work());
    });
    receiver
        .recv_timeout(limit)
        .unwrap_or_else(|error| panic!("{what}: no result within {limit:?} ({error})"))
}
