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
