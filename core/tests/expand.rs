//! Snapshots of the expansion of the seed layouts (DESIGN.md §4), formatted as `cargo expand`
//! would show them.

fn expand(source: &str) -> String {
    let tokens: proc_macro2::TokenStream = source.parse().expect("valid tokens");
    let output = swizzle_core::expand(tokens);
    let file = syn::parse2::<syn::File>(output.clone()).unwrap_or_else(|e| panic!("{e}: {output}"));
    prettyplease::unparse(&file)
}

#[test]
fn morton_texture() {
    insta::assert_snapshot!(expand(
        r"
        /// 8×8 texture stored as 4×4 tiles, Morton order inside each tile (seed 000).
        pub layout MortonTexture {
            memory [n: 64];
            unmerge n -> [ty: 2, tx: 2, m: 16];
            morton m -> [yi: 4, xi: 4];
            merge [ty, yi] -> y;
            merge [tx, xi] -> x;
            coords [y, x];
        }
        "
    ));
}

#[test]
fn lds_xor() {
    insta::assert_snapshot!(expand(
        r"
        /// CK Tile universal-GEMM A tile in LDS, fp16, M=128, K=32, KPack=8 (seed 003).
        pub layout LdsA {
            const KPACK = 8; const L = 2; const K0 = 4;
            memory [k0l: K0 * L, mr: 64, k1: KPACK] strides [KPACK, 32 * L, 1];
            xor k0l by mr;
            unmerge k0l -> [l: L, k0: K0];
            merge [mr, l] -> m;
            merge [k0, k1] -> k;
            coords [m, k];
        }
        "
    ));
}

#[test]
fn padded_tile() {
    insta::assert_snapshot!(expand(
        r"
        /// A 10-wide row padded to 15 (CK's pad test), stored in a 3-row tile of stride 10.
        pub(crate) layout Padded {
            memory [r: 3, c: 10];
            pad c -> x (2, 3);
            coords [r, x];
        }
        "
    ));
}

#[test]
fn mixed_radix() {
    insta::assert_snapshot!(expand(
        r"
        /// A 5×6 tile stored column-major, then viewed as 30 rows of a flat index.
        layout Mixed {
            memory [c: 6, r: 5];
            merge [r, c] -> i;
            unmerge i -> [a: 3, b: 10];
            coords [a, b];
            inverse;
        }
        "
    ));
}

#[test]
fn full_morton_uses_shift_networks() {
    insta::assert_snapshot!(expand(
        r"
        /// A full 256×256 Morton (Z-order) layout.
        pub layout Morton256 {
            memory [m: 65536];
            morton m -> [y: 256, x: 256];
            coords [y, x];
        }
        "
    ));
}
