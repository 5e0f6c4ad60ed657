//! Tiles that are sub-tiles stacked along their first coordinate (`Descriptor::as_stacked`,
//! a block of Tegra GOBs), which kernels copy as the sub-tiles stacked: which layouts are
//! such tiles, the sub-tile's offsets against the whole tile's on the interpreter, and
//! which kernels take the sub-tile (`plans::kernel::stacked` and the macro's rule).

mod common;
use common::layout;
use swizzle_core::ir::coordinates;
use swizzle_core::plans::kernel::{self, Storage};
use swizzle_core::plans::sfc::Sfc;

/// A block-linear block of `gobs` GOBs of 8 rows × 16 words.
fn block(gobs: usize) -> String {
    format!(
        "layout Block {{
            memory [by: dyn, bx: dyn, gy: {gobs}, xh: 2, yq: 4, xq: 2, y1: 2, x4: 4];
            merge [by, gy, yq, y1] -> y;
            merge [bx, xh, xq, x4] -> x;
            coords [y, x];
        }}"
    )
}

#[test]
fn a_block_of_gobs_is_its_gob_stacked() {
    let gob = layout(
        "layout Gob {
            memory [gy: dyn, gx: dyn, xh: 2, yq: 4, xq: 2, y1: 2, x4: 4];
            merge [gy, yq, y1] -> y;
            merge [gx, xh, xq, x4] -> x;
            coords [y, x];
        }",
    );
    for gobs in [2, 4, 16] {
        let tile = layout(&block(gobs));
        let (sub, stack) = tile.as_stacked().expect("a stack of GOBs");
        assert_eq!(stack, gobs);
        assert_eq!(sub.shape(), [8, 16]);
        assert_eq!(sub.space(), Some(128));
        // The sub-tile is the GOB, offset for offset.
        for coord in coordinates(&[8, 16]) {
            assert_eq!(
                sub.offset(&coord).ok(),
                gob.offset(&coord).ok(),
                "{coord:?}"
            );
        }
        // Each coordinate of the block lies in its GOB, GOBs one after another.
        for coord in coordinates(&tile.shape()) {
            let within = [coord[0] % 8, coord[1]];
            let stacked = coord[0] / 8 * 128 + gob.offset(&within).expect("in the GOB");
            assert_eq!(tile.offset(&coord).ok(), Some(stacked), "{coord:?}");
        }
    }
    // A GOB itself stacks nothing: its outermost digit inside the tile is `x`'s.
    assert!(gob.as_stacked().is_none());
}

#[test]
fn other_tiles_are_no_stack() {
    for source in [
        // The digit below the grid dim is the second coordinate's.
        "layout Wide {
            memory [by: dyn, bx: dyn, gx: 4, yq: 8, x4: 4];
            merge [by, yq] -> y;
            merge [bx, gx, x4] -> x;
            coords [y, x];
        }",
        // The digit is read by a swizzle too.
        "layout Swizzled {
            memory [by: dyn, bx: dyn, gy: 4, yq: 4, x4: 4];
            xor x4 by gy;
            merge [by, gy, yq] -> y;
            merge [bx, x4] -> x;
            coords [y, x];
        }",
        // The digit is not the one right below the grid dim.
        "layout Inner {
            memory [by: dyn, bx: dyn, gy: 4, yq: 4, x4: 4];
            merge [by, yq, gy] -> y;
            merge [bx, x4] -> x;
            coords [y, x];
        }",
        // Morton tiles: no digit of a coordinate of their own.
        "layout Morton {
            memory [ty: dyn, tx: dyn, m: 64];
            morton m -> [yi: 8, xi: 8];
            merge [ty, yi] -> y;
            merge [tx, xi] -> x;
            coords [y, x];
        }",
        // One coordinate: nothing to stack beside.
        "layout Line {
            memory [t: dyn, g: 4, i: 16];
            merge [t, g, i] -> x;
            coords [x];
        }",
        // A fixed-size layout.
        "layout Fixed {
            memory [gy: 4, yq: 8, x4: 4];
            merge [gy, yq] -> y;
            coords [y, x4];
        }",
    ] {
        assert!(layout(source).as_stacked().is_none(), "{source}");
    }
}

/// The default walk of a tile: row-major, runs of `vector` along the last coordinate.
fn row_major_walk(tile: &[usize], vector: usize) -> Sfc {
    let mut vectors = vec![1; tile.len()];
    vectors[tile.len() - 1] = vector;
    Sfc {
        lengths: tile.to_vec().into(),
        order: (0..tile.len()).collect(),
        vector: vectors.into(),
        snake: false,
    }
}

#[test]
fn pack_and_unpack_plan_the_sub_tile_with_the_walk_cut_to_it() {
    let tile = layout(&block(16));
    let walk = row_major_walk(&[128, 16], 4);
    let layout = Storage::Layout(&tile);
    for (from, to) in [(Storage::RowMajor, layout), (layout, Storage::RowMajor)] {
        let stacked = kernel::stacked(from, to, &walk).expect("a stack of GOBs");
        assert_eq!(stacked.stack, 16);
        assert_eq!(stacked.plan.tile[..], [8, 16]);
        assert_eq!(stacked.plan.vector, 4);
        // The whole tile's runs are the sub-tile's, 16 times.
        let whole = kernel::plan(from, to, &[128, 16], &walk);
        assert_eq!(stacked.plan.runs.len() * 16, whole.runs.len());
    }
    // A copy between two layouts, and another walk, keep the whole tile.
    assert!(kernel::stacked(layout, layout, &walk).is_none());
    let columns = Sfc {
        order: vec![1, 0].into(),
        ..walk.clone()
    };
    assert!(kernel::stacked(Storage::RowMajor, layout, &columns).is_none());
}

/// The kernels of `layout!` take the sub-tile where its generated rows fit the registers and
/// the whole tile's do not: their rustdoc says so.
#[test]
fn kernels_copy_the_sub_tiles_where_only_their_rows_fit() {
    let documented = |source: &str, sub: &str| {
        let tokens: proc_macro2::TokenStream = source.parse().expect("valid tokens");
        swizzle_syntax::expand(tokens)
            .to_string()
            .contains(&format!("sub-tiles of {sub} stacked along `y`"))
    };
    let kernels = "kernel PackBlock = pack(Block); kernel UnpackBlock = unpack(Block);";
    // Even two GOBs of words load more registers than AVX2 has.
    for gobs in [2, 4, 16] {
        let source = format!("{} {kernels}", block(gobs));
        assert!(documented(&source, "8 × 16"), "{gobs} GOBs");
    }
    // Two sub-tiles of 2 × 4: the whole tile's rows fit wherever the sub-tile's do.
    let small = "layout Block {
        memory [by: dyn, bx: dyn, gy: 2, yi: 2, xi: 4];
        merge [by, gy, yi] -> y;
        merge [bx, xi] -> x;
        coords [y, x];
    }";
    assert!(layout(small).as_stacked().is_some());
    assert!(!documented(&format!("{small} {kernels}"), "2 × 4"));
}
