//! Snapshots of the expansion of the reference layouts (docs/semantics.md, "Sources"),
//! formatted as `cargo expand` would show them.

mod common;
use common::{LDS_A, MIXED, MORTON_TEXTURE};

fn expand(source: &str) -> String {
    let tokens: proc_macro2::TokenStream = source.parse().expect("valid tokens");
    let output = swizzle_syntax::expand(tokens);
    let file = syn::parse2::<syn::File>(output.clone()).unwrap_or_else(|e| panic!("{e}: {output}"));
    prettyplease::unparse(&file)
}

#[test]
fn morton_texture() {
    insta::assert_snapshot!(expand(MORTON_TEXTURE));
}

#[test]
fn lds_xor() {
    insta::assert_snapshot!(expand(LDS_A));
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
    insta::assert_snapshot!(expand(MIXED));
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

#[test]
fn automatic_swizzle() {
    insta::assert_snapshot!(expand(
        r"
        /// 8 lanes read one row, or one column, of an 8×8 tile of 4-byte words.
        access Row { lanes 8; bytes 4; y = 5; x = lane; }
        access Column { lanes 8; bytes 4; y = lane; x = 3; }

        /// The macro picks the swizzle.
        pub layout Tile {
            memory [m: 64];
            swizzle m -> s (auto for Row, Column);
            unmerge s -> [y: 8, x: 8];
            coords [y, x];
            assert conflict_free(for Column);
        }
        "
    ));
}

#[test]
fn merged_digits_fold_back() {
    // `(offset / 35) * 5 + (offset / 7) % 5` is `offset / 7`.
    insta::assert_snapshot!(expand(
        r"
        layout Folded {
            memory [a: 3, b: 5, c: 7];
            merge [a, b] -> ab;
            coords [ab, c];
            inverse;
        }
        "
    ));
}

#[test]
fn tiled_morton() {
    insta::assert_snapshot!(expand(
        r"
        /// An image of any size stored as 8×8 tiles, Morton order inside each tile.
        pub layout MortonTiles {
            memory [ty: dyn, tx: dyn, m: 64];
            morton m -> [yi: 8, xi: 8];
            merge [ty, yi] -> y;
            merge [tx, xi] -> x;
            coords [y, x];
            inverse;
        }
        "
    ));
}

#[test]
fn snake_traversal() {
    insta::assert_snapshot!(expand(
        r"
        /// CK Tile's `SpaceFillingCurve` snake: a 4×8 tile, 4-wide vectors along x.
        pub traversal TileWalk = sfc(lengths [4, 8], order [0, 1], vector [1, 4], snake);
        "
    ));
}

#[test]
fn pack_kernel() {
    insta::assert_snapshot!(expand(
        r"
        /// 4×4 Morton, the table of CK Tile's Morton texture example.
        pub layout Morton4 { memory [m: 16]; morton m -> [y: 4, x: 4]; coords [y, x]; }
        /// Row-major → Morton: runs of 2, and a network for registers of 4 lanes.
        pub kernel PackMorton4 = pack(Morton4);
        "
    ));
}

#[test]
fn simd_rows() {
    // An 8×8 tile whose columns are XOR-swizzled by the row: every AVX2 store is one
    // permute of one image row; NEON's four-word registers need two.
    insta::assert_snapshot!(expand(
        r"
        /// 8×8 tiles, columns XOR-swizzled by the row.
        pub layout Xor8 {
            memory [ty: dyn, tx: dyn, r: 8, c: 8];
            xor c by r;
            merge [ty, r] -> y;
            merge [tx, c] -> x;
            coords [y, x];
        }
        pub kernel PackXor8 = pack(Xor8);
        "
    ));
}

#[test]
fn stacked_gobs() {
    // Four Tegra X1 GOBs of words stacked into one tile (32 rows): its generated rows would
    // hold more source registers than AVX2 has, a GOB's fit, so `run` copies GOBs stacked.
    insta::assert_snapshot!(expand(
        r"
        /// Blocks of 4 GOBs of 8 rows × 16 words.
        pub layout Block4 {
            memory [by: dyn, bx: dyn, gy: 4, xh: 2, yq: 4, xq: 2, y1: 2, x4: 4];
            merge [by, gy, yq, y1] -> y;
            merge [bx, xh, xq, x4] -> x;
            coords [y, x];
        }
        pub kernel UnpackBlock4 = unpack(Block4);
        "
    ));
}

#[test]
fn tiled_copy_and_raster() {
    insta::assert_snapshot!(expand(
        r"
        /// The workgroup's tile, XOR-swizzled on groups of four words.
        layout Tile {
            memory [yo: 8, yi: 4, xo: 8, xi: 4];
            xor xo by yo;
            merge [yo, yi] -> y;
            merge [xo, xi] -> x;
            coords [y, x];
        }
        /// 64 threads, four rows of one vector each.
        threads Loads {
            tile [r: 32, c: 32];
            unmerge c -> [tc: 8, v: 4];
            unmerge r -> [k: 4, tr: 8];
            merge [tr, tc] -> thread;
            threads [thread];
            values [k, v];
        }
        /// Loads a tile of the image into the workgroup's tile.
        kernel LoadTile = tiled_copy(image -> Tile, threads Loads, buffers(input, tile),
            assert conflict_free);
        /// Bands of 4 rows of tiles, each walked in 4 × 4 Morton squares.
        raster Order = morton(4);
        "
    ));
}

#[test]
fn register_transpose() {
    // The store of a transpose: the XOR tile read through its transpose, whose entries of
    // four words run down the columns; each thread's square of four rows of four moves as
    // four whole entries, transposed in registers, at interior tiles.
    insta::assert_snapshot!(expand(
        r"
        /// The workgroup's tile read through its transpose: `[x, y]` of the loaded tile.
        layout Transposed {
            memory [yo: 8, yi: 4, xo: 8, xi: 4];
            xor xo by yo;
            merge [yo, yi] -> y;
            merge [xo, xi] -> x;
            coords [x, y];
        }
        /// 64 threads, each a square of four consecutive rows of four.
        threads Squares {
            tile [r: 32, c: 32];
            unmerge c -> [tc: 8, v: 4];
            unmerge r -> [tr: 8, k: 4];
            merge [tr, tc] -> thread;
            threads [thread];
            values [k, v];
        }
        /// Stores the transposed tile into the output image.
        kernel StoreTile = tiled_copy(Transposed -> image, threads Squares,
            buffers(tile, output), assert conflict_free);
        "
    ));
}
