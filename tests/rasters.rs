//! Workgroup orders, compiled: their Rust functions against the core's programs, and their
//! WGSL through naga's validation.

#[path = "common/valid_wgsl.rs"]
mod valid_wgsl;

swizzle::layout! {
    /// Tiles along rows.
    raster Rows = row_major;
    /// Every other row backwards.
    raster Boustrophedon = snake;
    /// Bands of 8 rows of tiles, walked column by column (Triton's `GROUP_SIZE_M = 8`).
    pub raster Bands = grouped(8);
    /// Bands of 4 rows, each in 4 × 4 Morton squares.
    pub raster Squares = morton(4);
}

type Tile = fn(usize, [usize; 2]) -> Option<[usize; 2]>;

/// Each order's Rust function, core order, WGSL and WGSL function name.
const ORDERS: [(Tile, swizzle::raster::Raster, &str, &str); 4] = [
    (Rows::tile, Rows::ORDER, Rows::WGSL, "rows"),
    (
        Boustrophedon::tile,
        Boustrophedon::ORDER,
        Boustrophedon::WGSL,
        "boustrophedon",
    ),
    (Bands::tile, Bands::ORDER, Bands::WGSL, "bands"),
    (Squares::tile, Squares::ORDER, Squares::WGSL, "squares"),
];

#[test]
fn generated_orders_are_the_cores() {
    for (tile, order, _, _) in ORDERS {
        for grid in [[1, 1], [3, 17], [8, 8], [13, 9], [33, 2]] {
            for group in 0..grid[0] * grid[1] + 2 {
                let expected = order
                    .tile(group as u64, grid.map(|g| g as u64))
                    .map(|t| t.map(|v| v as usize));
                assert_eq!(tile(group, grid), expected, "{order} {grid:?} {group}");
            }
        }
    }
    assert_eq!(Squares::tile(0b1011, [8, 8]), Some([3, 1]));
    assert_eq!(Bands::tile(9, [16, 4]), Some([1, 1]));
    // Grids whose tile count overflows are no grid.
    assert_eq!(Rows::tile(0, [usize::MAX, 2]), None);
}

/// Grids whose bands or squares hold more tiles than an index counts still have every tile
/// (issue "Never hang, round two", item 6: `grouped(n)` and `morton(n)` multiplied the band
/// size out, which panicked in debug builds and wrapped in release ones).
#[test]
fn the_largest_grids_compute_without_overflow() {
    let max = usize::MAX;
    for (tile, order, _, _) in ORDERS {
        for grid in [[1, max], [max, 1], [2, max / 2], [max / 3, 3], [max / 8, 8]] {
            let tiles = grid[0] * grid[1];
            for group in [0, 1, 7, 8, 9, tiles / 2, tiles - 9, tiles - 1] {
                let expected = order
                    .tile(group as u64, grid.map(|g| g as u64))
                    .map(|t| t.map(|v| v as usize));
                let found = tile(group, grid);
                assert!(found.is_some(), "{order} {grid:?} {group}");
                assert_eq!(found, expected, "{order} {grid:?} {group}");
            }
        }
    }
    assert_eq!(Bands::tile(0, [1, max]), Some([0, 0]));
    assert_eq!(Squares::tile(max - 1, [1, max]), Some([0, max - 1]));
}

#[test]
fn wgsl_validates() {
    for (_, order, wgsl, function) in ORDERS {
        let module = format!(
            "{wgsl}\n@compute @workgroup_size(1)\n\
             fn main(@builtin(workgroup_id) g: vec3<u32>) {{\n    let t = {function}(g.x, 7u, 9u);\n}}\n"
        );
        println!("{order}");
        valid_wgsl::validate(&module);
    }
}
