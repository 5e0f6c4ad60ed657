use super::*;

const ORDERS: [Raster; 8] = [
    Raster::RowMajor,
    Raster::Snake,
    Raster::Grouped(1),
    Raster::Grouped(3),
    Raster::Grouped(8),
    Raster::Morton(1),
    Raster::Morton(2),
    Raster::Morton(4),
];

/// Every order visits every tile of every grid exactly once, partial bands and squares
/// included.
#[test]
fn every_order_is_a_bijection_onto_the_grid() {
    for order in ORDERS {
        for rows in 1..=13u64 {
            for columns in 1..=13u64 {
                let mut seen = vec![false; (rows * columns) as usize];
                for group in 0..rows * columns {
                    let [y, x] = order.tile(group, [rows, columns]).unwrap();
                    assert!(y < rows && x < columns, "{order} {rows}×{columns} {group}");
                    let cell = &mut seen[(y * columns + x) as usize];
                    assert!(
                        !*cell,
                        "{order} visits ({y}, {x}) twice in {rows}×{columns}"
                    );
                    *cell = true;
                }
                assert_eq!(order.tile(rows * columns, [rows, columns]), None);
            }
        }
    }
}

/// Triton's grouped ordering (its matmul tutorial), written out independently.
fn triton(group: u64, [rows, columns]: [u64; 2], size: u64) -> [u64; 2] {
    let in_group = size * columns;
    let first = group / in_group * size;
    let height = (rows - first).min(size);
    [first + group % in_group % height, group % in_group / height]
}

#[test]
fn grouped_is_tritons_group_size_m() {
    for size in [1, 2, 3, 8] {
        for grid in [[7, 5], [16, 16], [9, 30]] {
            for group in 0..grid[0] * grid[1] {
                let expected = triton(group, grid, size);
                assert_eq!(
                    Raster::Grouped(size as usize).tile(group, grid),
                    Some(expected)
                );
            }
        }
    }
}

#[test]
fn fixed_points() {
    // Row-major and snake on a 3 × 4 grid.
    assert_eq!(Raster::RowMajor.tile(5, [3, 4]), Some([1, 1]));
    assert_eq!(Raster::Snake.tile(4, [3, 4]), Some([1, 3]));
    assert_eq!(Raster::Snake.tile(7, [3, 4]), Some([1, 0]));
    // Morton squares of 4 × 4 tiles, x in the even bits: workgroup 0b1011 has x = 0b01
    // (bits 0 and 2) and y = 0b11 (bits 1 and 3).
    assert_eq!(Raster::Morton(4).tile(0b1011, [8, 8]), Some([3, 1]));
    // The second square of the first band starts at column 4.
    assert_eq!(Raster::Morton(4).tile(16, [8, 8]), Some([0, 4]));
    // 4 × 6: the second square is cut to 2 columns and walked column by column.
    assert_eq!(Raster::Morton(4).tile(16 + 5, [4, 6]), Some([1, 5]));
}

#[test]
fn bad_groups_are_refused() {
    assert!(Raster::Grouped(0).check().is_err());
    assert!(Raster::Grouped(MAX_GROUP + 1).check().is_err());
    let error = Raster::Morton(6).check().unwrap_err();
    assert!(error.contains("power-of-two"), "{error}");
    assert_eq!(Raster::Morton(6).tile(0, [4, 4]), None);
}

/// Grids whose bands or squares hold more tiles than a `u64` counts: every order still
/// sends each workgroup to its tile, which the extreme corners of the grid check (the band
/// size `n · columns` was multiplied out and overflowed).
#[test]
fn no_value_passes_the_grid() {
    let max = u64::MAX;
    for order in ORDERS {
        for grid in [[1, max], [max, 1], [2, max / 2], [max / 3, 3], [max / 8, 8]] {
            let tiles = grid[0] * grid[1];
            for group in [0, 1, tiles / 2, tiles - 1] {
                let [y, x] = order
                    .tile(group, grid)
                    .unwrap_or_else(|| panic!("{order} {grid:?} {group}"));
                assert!(y < grid[0] && x < grid[1], "{order} {grid:?} {group}");
            }
            // The last workgroup takes the last tile of the last band's last column, or of
            // the last row.
            let last = order.tile(tiles - 1, grid);
            assert!(
                last.is_some_and(|[y, _]| y == grid[0] - 1),
                "{order} {grid:?}"
            );
        }
    }
    assert_eq!(
        Raster::Grouped(8).tile(max - 1, [1, max]),
        Some([0, max - 1])
    );
}
