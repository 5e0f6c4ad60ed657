//! Traversals compiled: the generated `index`, `INDICES`, steps, extents and `for_each`
//! against the reference curve (`swizzle::sfc::Sfc`, CK's algorithm) and the walked layouts.

use swizzle::Traversal;
use swizzle::sfc::Visit;

swizzle::layout! {
    /// CK's test: lengths [3,2,2], order [2,0,1], scalar, snake off.
    traversal CkScalar = sfc(lengths [3, 2, 2], order [2, 0, 1], snake = false);
    /// CK's test: lengths [16,10,9], order [2,0,1], vector [4,2,3], snake.
    traversal CkSnake = sfc(lengths [16, 10, 9], order [2, 0, 1], vector [4, 2, 3]);
    /// CK Tile's non-divisible `SpaceFillingCurve`: 5×7 in 2×3 accesses.
    traversal Ragged = sfc(lengths [5, 7], vector [2, 3], snake = false);
    /// Longer than the unroll limit: `for_each` loops.
    traversal Long = sfc(lengths [64, 40], order [1, 0]);

    /// The texture of CK Tile's Morton texture example.
    layout MortonTexture {
        memory [n: 64];
        unmerge n -> [ty: 2, tx: 2, m: 16];
        morton m -> [yi: 4, xi: 4];
        merge [ty, yi] -> y;
        merge [tx, xi] -> x;
        coords [y, x];
    }
    /// Pairs along x are contiguous in the texture; the walk goes down the columns.
    traversal Pairs = sfc(over MortonTexture, order [x, y], vector [1, 2]);

    /// 8×8 Morton tiles of a run-time image.
    layout MortonTiles {
        memory [ty: dyn, tx: dyn, m: 64];
        morton m -> [yi: 8, xi: 8];
        merge [ty, yi] -> y;
        merge [tx, xi] -> x;
        coords [y, x];
    }
    /// One tile of it, in 2×2 Morton quads (each 4 consecutive elements).
    traversal Quads = sfc(over MortonTiles, vector [2, 2], snake = false);

    /// Coordinates named like the generated functions' parameters.
    layout Shadowing { memory [i: 3, a: 2, b: 4]; coords [i, a, b]; }
    traversal Shadowed = sfc(over Shadowing, order [b, a, i], vector [1, 1, 2]);
}

/// Everything a traversal generates, against the curve as data.
fn check<T: Traversal<N>, const N: usize>(
    index: fn(usize) -> [usize; N],
    extent: fn(usize) -> [usize; N],
    step: fn(usize, usize) -> [isize; N],
    count: usize,
    offset: impl Fn(&[usize]) -> usize,
    for_each: fn(&mut dyn FnMut(Visit<N>)),
) {
    let sfc = T::SFC;
    assert_eq!(sfc.num_access(), count);
    let mut visits = Vec::new();
    for_each(&mut |visit| visits.push(visit));
    assert_eq!(visits.len(), count);
    for (i, visit) in visits.into_iter().enumerate() {
        assert_eq!(index(i).to_vec(), sfc.index(i), "index {i}");
        assert_eq!(T::index(i), index(i));
        assert_eq!(extent(i).to_vec(), sfc.extent(i), "extent {i}");
        assert_eq!(T::extent(i), extent(i));
        let j = (i * 5 + 3) % count;
        assert_eq!(
            step(i, j).to_vec(),
            sfc.step_between(i, j),
            "step {i} → {j}"
        );
        assert_eq!(visit.access, i);
        assert_eq!(visit.index, index(i));
        assert_eq!(visit.extent, extent(i));
        assert_eq!(visit.offset, offset(&visit.index), "offset of access {i}");
    }
}

fn row_major(lengths: &'static [usize]) -> impl Fn(&[usize]) -> usize {
    move |index| {
        index
            .iter()
            .zip(lengths)
            .fold(0, |acc, (i, len)| acc * len + i)
    }
}

#[test]
fn ck_vectors() {
    check::<CkScalar, 3>(
        CkScalar::index,
        CkScalar::extent,
        CkScalar::step_between,
        12,
        row_major(&[3, 2, 2]),
        |f| CkScalar::for_each(f),
    );
    check::<CkSnake, 3>(
        CkSnake::index,
        CkSnake::extent,
        CkSnake::step_between,
        60,
        row_major(&[16, 10, 9]),
        |f| CkSnake::for_each(f),
    );
    assert_eq!(CkSnake::INDICES[5], [4, 8, 0]);
    assert_eq!(CkSnake::INDICES[59], [12, 0, 6]);
    assert_eq!(CkSnake::forward_step(4), [4, 0, 0]);
    assert_eq!(CkSnake::backward_step(20), [0, 0, -3]);
    assert_eq!(CkSnake::ACCESS_LENGTHS, [4, 5, 3]);
}

#[test]
fn partial_accesses() {
    check::<Ragged, 2>(
        Ragged::index,
        Ragged::extent,
        Ragged::step_between,
        9,
        row_major(&[5, 7]),
        |f| Ragged::for_each(f),
    );
    assert_eq!(Ragged::extent(8), [1, 1]);
    assert_eq!(Ragged::extent(2), [2, 1]);
}

#[test]
fn long_traversals_loop() {
    check::<Long, 2>(
        Long::index,
        Long::extent,
        Long::step_between,
        2560,
        row_major(&[64, 40]),
        |f| Long::for_each(f),
    );
}

#[test]
fn offsets_in_the_walked_layout() {
    check::<Pairs, 2>(
        Pairs::index,
        Pairs::extent,
        Pairs::step_between,
        32,
        |i| MortonTexture::offset(i[0], i[1]),
        |f| Pairs::for_each(f),
    );
    // Down column pair 0 first: (0,0) → 0, (1,0) → 2, (2,0) → 8, …
    let offsets: Vec<usize> = (0..4)
        .map(|i| {
            let [y, x] = Pairs::index(i);
            MortonTexture::offset(y, x)
        })
        .collect();
    assert_eq!(offsets, [0, 2, 8, 10]);
    check::<Quads, 2>(
        Quads::index,
        Quads::extent,
        Quads::step_between,
        16,
        |i| MortonTiles::tile_offset(i[0], i[1]),
        |f| Quads::for_each(f),
    );
    let mut offsets = Vec::new();
    Quads::for_each(|visit| offsets.push(visit.offset));
    assert_eq!(
        offsets,
        [0, 4, 16, 20, 8, 12, 24, 28, 32, 36, 48, 52, 40, 44, 56, 60]
    );
}

#[test]
fn coordinates_may_shadow_parameters() {
    check::<Shadowed, 3>(
        Shadowed::index,
        Shadowed::extent,
        Shadowed::step_between,
        12,
        row_major(&[3, 2, 4]),
        |f| Shadowed::for_each(f),
    );
}

#[test]
fn index_is_const() {
    const START: [usize; 3] = CkSnake::index(25);
    const STEP: [isize; 3] = CkSnake::forward_step(19);
    assert_eq!(START, [8, 8, 3]);
    assert_eq!(STEP, [0, 0, 3]);
}
