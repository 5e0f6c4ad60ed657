//! The grid of a tiled layout in its two forms: the functions the printers print
//! (`Grid::offset`, run here with `Function::eval`) against the interpreter's arithmetic
//! (`Descriptor::offset_in`), at extents with partial tiles.

mod common;
use common::layout;
use std::collections::HashMap;
use swizzle_core::emit::code::Code;
use swizzle_core::emit::function::{Kind, Outcome};
use swizzle_core::emit::grid::{self, Grid};
use swizzle_core::ir::coordinates;

#[test]
fn the_printed_grid_functions_agree_with_the_interpreter() {
    let tiled = layout(
        "layout Batched {
            memory [b: dyn, ty: dyn, tx: dyn, r: 2, c: 6, ch: 3];
            merge [ty, r] -> y;
            merge [tx, c] -> x;
            coords [b, y, x, ch];
        }",
    );
    let names: Vec<String> = ["b", "y", "x", "ch"].map(String::from).to_vec();
    for extents in [[1, 2, 6, 3], [2, 3, 7, 3], [3, 5, 13, 3]] {
        let tiles = grid::tile_counts(&tiled, &extents).expect("tile counts");
        let counts = (0..4).map(|j| Code::var(&format!("tiles{j}"))).collect();
        let env: HashMap<String, u64> = (0..4)
            .map(|j| (format!("tiles{j}"), tiles[j] as u64))
            .collect();
        let function = Grid::new(&tiled, &names, counts, Vec::new()).offset();
        for coord in coordinates(&extents) {
            let args: Vec<u64> = coord.iter().map(|&c| c as u64).collect();
            let printed = function.eval(&args, &env, |kind, inside| {
                assert_eq!(kind, Kind::Offset);
                let inside: Vec<usize> = inside.iter().map(|&c| c as usize).collect();
                Some(Outcome::Index(tiled.offset(&inside).ok()? as u64))
            });
            let interpreted = tiled.offset_in(&extents, &coord).expect("in the extents");
            assert_eq!(
                printed,
                Some(Outcome::Index(interpreted as u64)),
                "{coord:?} at {extents:?}"
            );
        }
    }
}

/// A grid of tiles written with fixed lengths is found to be one (`Descriptor::as_tiles`):
/// the tile it returns has the layout's offsets at the layout's shape, at every coordinate,
/// with its grid in memory order; layouts that are no such grid are not.
#[test]
fn fixed_grids_of_tiles_are_found_as_tiles() {
    let grids = [
        "layout Rows { memory [ty: 3, tx: 4, m: 16]; morton m -> [yi: 4, xi: 4];
            merge [ty, yi] -> y; merge [tx, xi] -> x; coords [y, x]; }",
        "layout Columns { memory [tx: 4, ty: 3, yi: 8, xi: 8]; xor xi by yi;
            merge [ty, yi] -> y; merge [tx, xi] -> x; coords [y, x]; }",
        "layout Batched { memory [b: 2, ty: 3, r: 2, c: 6]; merge [ty, r] -> y;
            coords [b, y, c]; }",
    ];
    let orders = [vec![0, 1], vec![1, 0], vec![0, 1]];
    for (text, order) in grids.iter().zip(orders) {
        let fixed = layout(text);
        let tiles = fixed
            .as_tiles()
            .unwrap_or_else(|| panic!("no tiles: {text}"));
        let coords: Vec<usize> = tiles.grid.iter().map(|g| g.coord).collect();
        assert_eq!(coords, order, "{text}");
        let shape = fixed.shape();
        for coord in coordinates(&shape) {
            assert_eq!(
                fixed.offset(&coord).ok(),
                tiles.offset_in(&shape, &coord).ok(),
                "{text} at {coord:?}"
            );
        }
    }
    let not_grids = [
        // The outer dim is swizzled, not merged.
        "layout Swizzled { memory [ty: 4, yi: 4, xi: 4]; xor xi by ty; merge [ty, yi] -> y;
            coords [y, xi]; }",
        // The outer dim is a merge's fast digit.
        "layout Fast { memory [ty: 4, yi: 4]; merge [yi, ty] -> y; coords [y]; }",
        // A plain array: its dims are coordinates, no tile inside.
        "layout Plain { memory [y: 4, x: 8]; coords [y, x]; }",
        // One Morton square, no grid.
        "layout Square { memory [m: 64]; morton m -> [y: 8, x: 8]; coords [y, x]; }",
        // The merged coordinate is read again.
        "layout Again { memory [ty: 4, yi: 4]; merge [ty, yi] -> y; unmerge y -> [a: 2, b: 8];
            coords [a, b]; }",
    ];
    for text in not_grids {
        assert!(layout(text).as_tiles().is_none(), "{text}");
    }
}
