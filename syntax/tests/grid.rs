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
