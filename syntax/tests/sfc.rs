//! Space-filling curves against CK's own test vectors (docs/semantics.md §4) and every traversal
//! printed in CK Tile's `SpaceFillingCurve` documentation.

use swizzle_core::ir::list;
use swizzle_core::plans::sfc::Sfc;

fn sfc(
    lengths: &'static [usize],
    order: &'static [usize],
    vector: &'static [usize],
    snake: bool,
) -> Sfc {
    Sfc {
        lengths: list(lengths),
        order: list(order),
        vector: list(vector),
        snake,
    }
}

fn indices(curve: &Sfc) -> Vec<Vec<usize>> {
    curve.indices().collect()
}

/// Checks the indices and, from them, every forward, backward and arbitrary step.
fn assert_walk(curve: &Sfc, expected: &[[usize; 3]]) {
    assert_eq!(curve.num_access(), expected.len());
    let expected: Vec<Vec<usize>> = expected.iter().map(|i| i.to_vec()).collect();
    assert_eq!(indices(curve), expected);
    let diff = |a: usize, b: usize| -> Vec<isize> {
        (0..3)
            .map(|d| expected[b][d] as isize - expected[a][d] as isize)
            .collect()
    };
    for i in 0..expected.len() {
        if i + 1 < expected.len() {
            assert_eq!(curve.forward_step(i), diff(i, i + 1), "forward step {i}");
        }
        if i > 0 {
            assert_eq!(curve.backward_step(i), diff(i, i - 1), "backward step {i}");
        }
        let j = (i * 7 + 3) % expected.len();
        assert_eq!(curve.step_between(i, j), diff(i, j), "step {i} → {j}");
    }
}

/// CK `test/space_filling_curve`: lengths [3,2,2], order [2,0,1], scalar, snake off.
#[test]
fn ck_scalar_without_snake() {
    let curve = sfc(&[3, 2, 2], &[2, 0, 1], &[1, 1, 1], false);
    assert_walk(
        &curve,
        &[
            [0, 0, 0],
            [0, 1, 0],
            [1, 0, 0],
            [1, 1, 0],
            [2, 0, 0],
            [2, 1, 0],
            [0, 0, 1],
            [0, 1, 1],
            [1, 0, 1],
            [1, 1, 1],
            [2, 0, 1],
            [2, 1, 1],
        ],
    );
}

/// CK `test/space_filling_curve`: lengths [16,10,9], order [2,0,1], vector [4,2,3], snake.
#[test]
fn ck_vector_snake() {
    let curve = sfc(&[16, 10, 9], &[2, 0, 1], &[4, 2, 3], true);
    #[rustfmt::skip]
    let expected = [
        [0,0,0], [0,2,0], [0,4,0], [0,6,0], [0,8,0], [4,8,0], [4,6,0], [4,4,0], [4,2,0], [4,0,0],
        [8,0,0], [8,2,0], [8,4,0], [8,6,0], [8,8,0], [12,8,0], [12,6,0], [12,4,0], [12,2,0], [12,0,0],
        [12,0,3], [12,2,3], [12,4,3], [12,6,3], [12,8,3], [8,8,3], [8,6,3], [8,4,3], [8,2,3], [8,0,3],
        [4,0,3], [4,2,3], [4,4,3], [4,6,3], [4,8,3], [0,8,3], [0,6,3], [0,4,3], [0,2,3], [0,0,3],
        [0,0,6], [0,2,6], [0,4,6], [0,6,6], [0,8,6], [4,8,6], [4,6,6], [4,4,6], [4,2,6], [4,0,6],
        [8,0,6], [8,2,6], [8,4,6], [8,6,6], [8,8,6], [12,8,6], [12,6,6], [12,4,6], [12,2,6], [12,0,6],
    ];
    assert_walk(&curve, &expected);
    assert_eq!(curve.access_lengths(), [4, 5, 3]);
    // Every access is full: the vectors divide the lengths.
    assert!((0..60).all(|i| curve.extent(i) == [4, 2, 3]));
}

/// CK Tile's "Row-major traversal of 4x6 matrix": 24 accesses, the first ten as printed.
#[test]
fn ck_tile_row_major() {
    let curve = sfc(&[4, 6], &[0, 1], &[1, 1], false);
    assert_eq!(curve.num_access(), 24);
    let first: Vec<Vec<usize>> = curve.indices().take(10).collect();
    assert_eq!(
        first,
        [
            [0, 0],
            [0, 1],
            [0, 2],
            [0, 3],
            [0, 4],
            [0, 5],
            [1, 0],
            [1, 1],
            [1, 2],
            [1, 3]
        ]
    );
}

/// CK Tile's "Vector-4 on dimension 1" of a 4×8 tile: row 0 cols [0:3], row 0 cols [4:7],
/// row 1 cols [0:3], …
#[test]
fn ck_tile_vector_four() {
    let curve = sfc(&[4, 8], &[0, 1], &[1, 4], false);
    assert_eq!(curve.num_access(), 8);
    let expected: Vec<Vec<usize>> = (0..4)
        .flat_map(|row| [vec![row, 0], vec![row, 4]])
        .collect();
    assert_eq!(indices(&curve), expected);
    assert!((0..8).all(|i| curve.extent(i) == [1, 4]));
}

/// CK Tile's "Column-Major vs Row-Major": [0,0], [1,0], [2,0], … down the columns.
#[test]
fn ck_tile_column_major() {
    let curve = sfc(&[4, 6], &[1, 0], &[1, 1], false);
    let expected: Vec<Vec<usize>> = (0..6)
        .flat_map(|col| (0..4).map(move |row| vec![row, col]))
        .collect();
    assert_eq!(indices(&curve), expected);
}

/// CK Tile's "Snake Pattern": rows 1 and 3 run from column 7 down to 0.
#[test]
fn ck_tile_snake() {
    let curve = sfc(&[4, 8], &[0, 1], &[1, 1], true);
    let expected: Vec<Vec<usize>> = (0..4)
        .flat_map(|row| {
            (0..8).map(move |i| {
                let col = if row % 2 == 1 { 7 - i } else { i };
                vec![row, col]
            })
        })
        .collect();
    assert_eq!(indices(&curve), expected);
}

/// CK Tile's "GEMM tile": 16×32, column-major, vector-8 loads: 64 accesses of 8 elements
/// proceeding down the columns.
#[test]
fn ck_tile_gemm_tile() {
    let curve = sfc(&[16, 32], &[1, 0], &[1, 8], false);
    assert_eq!(curve.num_access(), 16 * (32 / 8));
    let expected: Vec<Vec<usize>> = (0..4)
        .flat_map(|chunk| (0..16).map(move |row| vec![row, chunk * 8]))
        .collect();
    assert_eq!(indices(&curve), expected);
    assert!((0..64).all(|i| curve.extent(i) == [1, 8]));
}

/// CK Tile's "3D Tensor Patterns": 4×8×16 with vectors [1, 2, 4]: 4 · 4 · 4 = 64 accesses.
#[test]
fn ck_tile_three_dimensional() {
    let curve = sfc(&[4, 8, 16], &[0, 1, 2], &[1, 2, 4], false);
    assert_eq!(curve.num_access(), 64);
    assert_eq!(curve.access_lengths(), [4, 4, 4]);
    let expected: Vec<Vec<usize>> = (0..4)
        .flat_map(|a| (0..4).flat_map(move |b| (0..4).map(move |c| vec![a, 2 * b, 4 * c])))
        .collect();
    assert_eq!(indices(&curve), expected);
}

/// CK Tile's "Non-Divisible Dimensions": 5×7 with 2×3 accesses is ceil(5/2) × ceil(7/3) =
/// 3×3 accesses; the last row and column of accesses are partial (its `safe_access`).
#[test]
fn ck_tile_non_divisible() {
    let curve = sfc(&[5, 7], &[0, 1], &[2, 3], false);
    assert_eq!(curve.access_lengths(), [3, 3]);
    assert_eq!(curve.num_access(), 9);
    let extents: Vec<Vec<usize>> = (0..9).map(|i| curve.extent(i)).collect();
    assert_eq!(
        extents,
        [
            [2, 3],
            [2, 3],
            [2, 1],
            [2, 3],
            [2, 3],
            [2, 1],
            [1, 3],
            [1, 3],
            [1, 1]
        ]
    );
    // The partial accesses cover exactly the tensor, once each.
    let mut covered = [0; 35];
    for i in 0..9 {
        let (start, extent) = (curve.index(i), curve.extent(i));
        for y in start[0]..start[0] + extent[0] {
            for x in start[1]..start[1] + extent[1] {
                covered[y * 7 + x] += 1;
            }
        }
    }
    assert!(covered.iter().all(|&n| n == 1));
}
