//! Property tests of the copy kernels: random tile layouts (Morton, XOR, CuTe swizzles,
//! padding, odd row-major and column-major tiles, fixed-size or with a run-time grid), random
//! walks, extents and element sizes. At every SIMD level this CPU runs, pack, unpack and
//! layout → layout copies must equal the reference interpreter, write nothing else, and
//! unpack must undo pack.

use proptest::prelude::*;
use swizzle_core::ir::{Descriptor, coordinates};
use swizzle_core::plans::kernel::{self, Storage, common_vector};
use swizzle_core::plans::sfc::Sfc;
use swizzle_runtime::kernel::{
    Element, Frame, KernelError, Level, Options, Plan, Side, View, copy_views_with, copy_with,
    stacked_space,
};

/// A tile layout with coordinates `[r, c]` of `rows × cols`, as statements of the language.
fn tile_statements(kind: usize, rows: usize, cols: usize, salt: usize) -> (Vec<String>, usize) {
    let bits = (rows * cols).ilog2() as usize;
    match kind {
        0 => (vec![format!("memory [r: {rows}, c: {cols}];")], cols),
        1 => (vec![format!("memory [c: {cols}, r: {rows}];")], cols),
        2 => (
            vec![
                format!("memory [m: {}];", rows * cols),
                format!("morton m -> [r: {rows}, c: {cols}];"),
            ],
            cols,
        ),
        3 => (
            vec![
                format!("memory [r: {rows}, c: {cols}];"),
                "xor c by r;".to_owned(),
            ],
            cols,
        ),
        4 if bits >= 2 => {
            // CuTe Swizzle<B, M, S> with every bit inside the tile.
            let b = 1 + salt % (bits / 2);
            let s = b + salt / 7 % (bits - 2 * b + 1);
            let m = salt / 3 % (bits - b - s + 1);
            (
                vec![
                    format!("memory [m: {}];", rows * cols),
                    format!("swizzle m -> s ({b}, {m}, {s});"),
                    format!("unmerge s -> [r: {rows}, c: {cols}];"),
                ],
                cols,
            )
        }
        4 | 5 => (
            vec![
                format!("memory [r: {rows}, c0: {cols}];"),
                format!("pad c0 -> c ({}, {});", salt % 3, salt / 3 % 3),
            ],
            cols + salt % 3 + salt / 3 % 3,
        ),
        _ => {
            // Odd lengths, row-major.
            let (rows, cols) = (1 + salt % 7, 1 + salt / 7 % 7);
            (vec![format!("memory [r: {rows}, c: {cols}];")], cols)
        }
    }
}

/// A layout in text: the tile, fixed-size or in a run-time grid of tiles.
fn layout_text(
    name: &str,
    kind: usize,
    rows: usize,
    cols: usize,
    salt: usize,
    tiled: bool,
) -> String {
    let (mut statements, _) = tile_statements(kind, rows, cols, salt);
    if tiled {
        let memory = statements[0].replacen("memory [", "memory [ty: dyn, tx: dyn, ", 1);
        statements[0] = memory;
        statements.push("merge [ty, r] -> y; merge [tx, c] -> x; coords [y, x];".to_owned());
    } else {
        statements.push("coords [r, c];".to_owned());
    }
    format!("layout {name} {{ {} }}", statements.join(" "))
}

fn descriptor(text: &str) -> Descriptor {
    let mut layouts = swizzle_syntax::layouts(text).expect("generated layouts are valid");
    layouts.remove(0).descriptor
}

/// A walk over `tile` with `vector` along the last dim, in a random order, maybe a snake.
fn walk(tile: &[usize], vector: usize, salt: usize) -> Sfc {
    let mut vectors = vec![1; tile.len()];
    vectors[tile.len() - 1] = vector;
    let order = if salt.is_multiple_of(2) {
        vec![0, 1]
    } else {
        vec![1, 0]
    };
    Sfc {
        lengths: tile.to_vec().into(),
        order: order.into(),
        vector: vectors.into(),
        snake: salt.is_multiple_of(3),
    }
}

/// The side of a layout at `extents`: its grid and tile space, or the whole (fixed-size)
/// layout as one tile.
fn frame(layout: &Descriptor, extents: &[usize], tiles: &[usize]) -> (Vec<usize>, usize) {
    let tile_space = layout.space().expect("fits");
    match layout.is_tiled() {
        true => (tiles.to_vec(), tile_space),
        false => (vec![1; extents.len()], tile_space),
    }
}

/// The side of `extents` in tiles: `grid` tiles of `tile_space` elements ([`frame`]).
fn in_tiles<'a>(extents: &'a [usize], grid: &'a [usize], tile_space: usize) -> Side<'a> {
    Side {
        extents,
        frame: Frame::Tiles {
            tiles: grid,
            tile_space,
        },
    }
}

/// `layout`'s pack and unpack plans, its tile walked `vector(common)` elements at a time
/// (`common`: the most that both sides allow), and how many tiles `extents` take along
/// each coordinate.
fn pack_and_unpack(
    layout: &Descriptor,
    extents: &[usize],
    salt: usize,
    vector: impl FnOnce(usize) -> usize,
) -> (Plan, Plan, Vec<usize>) {
    let tile = layout.shape();
    let common = common_vector(Storage::RowMajor, Storage::Layout(layout), &tile);
    let sfc = walk(&tile, vector(common), salt);
    let pack = kernel::plan(Storage::RowMajor, Storage::Layout(layout), &tile, &sfc);
    let unpack = kernel::plan(Storage::Layout(layout), Storage::RowMajor, &tile, &sfc);
    let tiles = extents
        .iter()
        .zip(&tile)
        .map(|(e, t)| e.div_ceil(*t))
        .collect();
    (pack, unpack, tiles)
}

/// Every coordinate's offset in `layout` at `extents` (the interpreter), `None` for padding.
fn offsets(layout: &Descriptor, extents: &[usize]) -> Vec<Option<usize>> {
    coordinates(extents)
        .map(|coord| layout.offset_in(extents, &coord).ok())
        .collect()
}

trait Value: Element + PartialEq + std::fmt::Debug {
    const POISON: Self;
    fn nth(i: usize) -> Self;
}

macro_rules! value {
    ($($ty:ty),*) => {$(
        impl Value for $ty {
            const POISON: Self = <$ty>::MAX;
            fn nth(i: usize) -> Self {
                (i % <$ty>::MAX as usize) as $ty
            }
        }
    )*};
}
value!(u8, u16, u32, u64);

/// Pack, unpack and (when `other` is given) copy into `other`, at every level, against the
/// interpreter.
fn check<T: Value>(
    layout: &Descriptor,
    other: Option<&Descriptor>,
    extents: &[usize],
    salt: usize,
) {
    let tile = layout.shape();
    let (pack, unpack, tiles) = pack_and_unpack(layout, extents, salt, |vector| {
        let divisors: Vec<usize> = (1..=vector).filter(|d| vector.is_multiple_of(*d)).collect();
        divisors[salt % divisors.len()]
    });
    let (grid, tile_space) = frame(layout, extents, &tiles);
    let row_major = Side {
        extents,
        frame: Frame::RowMajor,
    };
    let tiled = in_tiles(extents, &grid, tile_space);
    let space = grid.iter().product::<usize>() * tile_space;
    let image: Vec<T> = (0..extents.iter().product()).map(T::nth).collect();
    let reference = offsets(layout, extents);
    let mut expected = vec![T::POISON; space];
    for (i, offset) in reference.iter().enumerate() {
        if let Some(offset) = offset {
            expected[*offset] = image[i];
        }
    }
    let run = |plan: &Plan, from: Side, to: Side, src: &[T], len: usize, level: Level| {
        let mut dst = vec![T::POISON; len];
        copy_with(level, plan, from, to, src, &mut dst).expect("buffers fit");
        dst
    };
    for level in Level::ALL.into_iter().filter(|l| l.is_available()) {
        let packed = run(&pack, row_major, tiled, &image, space, level);
        assert_same(&packed, &expected, level, "pack");
        let unpacked = run(&unpack, tiled, row_major, &packed, image.len(), level);
        let expected_back: Vec<T> = image
            .iter()
            .zip(&reference)
            .map(|(&v, offset)| if offset.is_some() { v } else { T::POISON })
            .collect();
        assert_same(&unpacked, &expected_back, level, "unpack");
        if let Some(other) = other {
            let copy = kernel::plan(
                Storage::Layout(layout),
                Storage::Layout(other),
                &tile,
                &walk(&tile, 1, salt),
            );
            let (other_grid, other_space) = frame(other, extents, &tiles);
            let to = in_tiles(extents, &other_grid, other_space);
            let len = other_grid.iter().product::<usize>() * other_space;
            let copied = run(&copy, tiled, to, &packed, len, level);
            let mut expected = vec![T::POISON; len];
            for ((i, offset), mine) in offsets(other, extents).iter().enumerate().zip(&reference) {
                if let (Some(offset), Some(_)) = (offset, mine) {
                    expected[*offset] = image[i];
                }
            }
            assert_same(&copied, &expected, level, "copy");
        }
    }
}

/// The image side as a view other than a dense row-major array, chosen by `salt`: rows with
/// a pitch, column-major, or a rectangle of a larger row-major image.
fn image_view(extents: &[usize], salt: usize) -> View {
    let view = match salt % 3 {
        0 => View::pitched(extents, extents[1] + salt % 5),
        1 => View::column_major(extents),
        _ => {
            let margin = [salt / 3 % 3, salt / 9 % 4];
            let image = [extents[0] + margin[0] + 1, extents[1] + margin[1]];
            View::row_major(&image).and_then(|image| image.sub_view(&margin, extents))
        }
    };
    view.expect("a valid view")
}

/// Pack from and unpack into a view of the image (`image_view`), at every level, against
/// the interpreter: the view's elements are read and written, nothing else of its buffer.
fn check_view<T: Value>(layout: &Descriptor, extents: &[usize], salt: usize) {
    let (pack, unpack, tiles) = pack_and_unpack(layout, extents, salt, |vector| vector);
    let (grid, tile_space) = frame(layout, extents, &tiles);
    let tiled = in_tiles(extents, &grid, tile_space);
    let view = image_view(extents, salt);
    let buffer_len = view.reach().expect("fits") + salt % 2;
    let image: Vec<T> = (0..buffer_len).map(T::nth).collect();
    let space = grid.iter().product::<usize>() * tile_space;
    let mut packed = vec![T::POISON; space];
    let mut unpacked = vec![T::POISON; buffer_len];
    for (coord, offset) in coordinates(extents).zip(offsets(layout, extents)) {
        if let Some(offset) = offset {
            let at = view.offset(&coord).expect("inside");
            packed[offset] = image[at];
            unpacked[at] = image[at];
        }
    }
    for level in Level::ALL.into_iter().filter(|l| l.is_available()) {
        let mut dst = vec![T::POISON; space];
        copy_with(level, &pack, view.side(), tiled, &image, &mut dst).expect("buffers fit");
        assert_same(&dst, &packed, level, &format!("pack from {view:?}"));
        let mut back = vec![T::POISON; buffer_len];
        copy_with(level, &unpack, tiled, view.side(), &dst, &mut back).expect("buffers fit");
        assert_same(&back, &unpacked, level, &format!("unpack into {view:?}"));
    }
}

/// A view of `extents` chosen by `kind`: row-major, column-major, pitched, or a
/// rectangle of a larger image in either order.
fn any_view(extents: &[usize], kind: usize, salt: usize) -> View {
    let view = match kind % 5 {
        0 => View::row_major(extents),
        1 => View::column_major(extents),
        2 => View::pitched(extents, extents[extents.len() - 1] + salt % 9),
        order => {
            let margin: Vec<usize> = (0..extents.len()).map(|i| salt >> (2 * i) & 3).collect();
            let image: Vec<usize> = extents
                .iter()
                .zip(&margin)
                .map(|(e, m)| e + m + 1)
                .collect();
            let whole = match order {
                3 => View::row_major(&image),
                _ => View::column_major(&image),
            };
            whole.and_then(|whole| whole.sub_view(&margin, extents))
        }
    };
    view.expect("a valid view")
}

/// `copy_views` between two views at every level, against element-by-element copies: the
/// destination view's elements hold the source's, the rest of its buffer is untouched.
fn check_views<T: Value>(extents: &[usize], kinds: [usize; 2], salt: usize) {
    let (from, to) = (
        any_view(extents, kinds[0], salt),
        any_view(extents, kinds[1], salt / 7),
    );
    let src: Vec<T> = (0..from.reach().expect("fits") + salt % 3)
        .map(T::nth)
        .collect();
    let len = to.reach().expect("fits") + salt % 2;
    let mut expected = vec![T::POISON; len];
    for coord in coordinates(extents) {
        let (at, to_at) = (from.offset(&coord), to.offset(&coord));
        expected[to_at.expect("inside")] = src[at.expect("inside")];
    }
    for level in Level::ALL.into_iter().filter(|l| l.is_available()) {
        let mut dst = vec![T::POISON; len];
        // Bands split among 0 (the calling thread) to 3 threads; under Miri on one, as
        // rayon's work-stealing deque (crossbeam-epoch) trips Miri's Stacked Borrows
        // model, which says nothing of the copies checked here.
        let threads = if cfg!(miri) { 1 } else { salt % 4 };
        let options = Options::from(level).threads(threads);
        copy_views_with(options, &from, &to, &src, &mut dst).expect("views fit");
        assert_same(&dst, &expected, level, &format!("{from:?} → {to:?}"));
    }
}

/// Pack into and unpack from stacked tiles (`Frame::Stacked`, `stack` tiles high), at every
/// level, against the interpreter's row-major tiles re-stacked.
fn check_stacked<T: Value>(layout: &Descriptor, extents: &[usize], stack: usize, salt: usize) {
    let (pack, unpack, tiles) = pack_and_unpack(layout, extents, salt, |vector| vector);
    let tile_space = layout.space().expect("fits");
    let space = stacked_space(&tiles, tile_space, stack).expect("fits");
    let stacked = Side {
        extents,
        frame: Frame::Stacked {
            tiles: &tiles,
            tile_space,
            stack,
        },
    };
    let stack_len = space / tiles[0].div_ceil(stack);
    check_tiled::<T>(
        layout,
        (&pack, &unpack),
        (stacked, space),
        |[ty, tx]| ty / stack * stack_len + ty % stack * tile_space + tx * stack * tile_space,
        |level| level.into(),
        &format!("stacks of {stack}"),
    );
}

/// Packs into the tiled side `tiled` (a buffer of `space` elements), unpacks from it into a
/// row-major and a column-major image, at every level with `options(level)`, against the
/// interpreter: each tile's offsets from its start `start([ty, tx])`, the elements that no
/// coordinate holds as they were. What the checks of stacked and placed tiles share.
fn check_tiled<T: Value>(
    layout: &Descriptor,
    (pack, unpack): (&Plan, &Plan),
    (tiled, space): (Side, usize),
    start: impl Fn([usize; 2]) -> usize,
    options: impl Fn(Level) -> Options,
    what: &str,
) {
    let (extents, tile) = (tiled.extents, layout.shape());
    let tile_space = layout.space().expect("fits");
    let row_major = Side {
        extents,
        frame: Frame::RowMajor,
    };
    let image: Vec<T> = (0..extents.iter().product()).map(T::nth).collect();
    let mut expected = vec![T::POISON; space];
    let mut back = vec![T::POISON; image.len()];
    for (i, coord) in coordinates(extents).enumerate() {
        let Ok(offset) = layout.offset_in(extents, &coord) else {
            continue;
        };
        let at = start([coord[0] / tile[0], coord[1] / tile[1]]);
        expected[at + offset % tile_space] = image[i];
        back[i] = image[i];
    }
    for level in Level::ALL.into_iter().filter(|l| l.is_available()) {
        let options = options(level);
        let mut dst = vec![T::POISON; space];
        copy_with(options, pack, row_major, tiled, &image, &mut dst).expect("buffers fit");
        assert_same(&dst, &expected, level, &format!("pack into {what}"));
        let mut unpacked = vec![T::POISON; image.len()];
        copy_with(options, unpack, tiled, row_major, &dst, &mut unpacked).expect("buffers fit");
        assert_same(&unpacked, &back, level, &format!("unpack from {what}"));
        // Into a column-major image: rows of tiles then run down the first coordinate
        // (across the stacks of stacked tiles).
        let columns = View::column_major(extents).expect("a valid view");
        let mut transposed = vec![T::POISON; image.len()];
        copy_with(
            options,
            unpack,
            tiled,
            columns.side(),
            &dst,
            &mut transposed,
        )
        .expect("buffers fit");
        for (i, coord) in coordinates(extents).enumerate() {
            let at = columns.offset(&coord).expect("inside");
            assert_eq!(transposed[at], back[i], "{coord:?} into columns, {what}");
        }
    }
}

/// Tile starts for a grid `tiles` (`[rows, columns]` of tiles of `tile_space` elements),
/// one table per coordinate as `Frame::Placed` takes them, in the order `salt` picks: a
/// Morton order over the grid rounded up to powers of two (the row's or the column's bit
/// first, so with gaps past the grid), or the columns reversed and the rows spread a tile
/// apart (starts that fall along a row, and holes between rows).
fn placements(tiles: &[usize], tile_space: usize, salt: usize) -> [Vec<usize>; 2] {
    let [rows, columns] = [tiles[0], tiles[1]];
    // Bit `b` of `i` at bit `2b + low` (0: first, 1: second).
    let spread = |i: usize, low: usize| -> usize {
        (0..usize::BITS as usize / 2)
            .filter(|b| i >> b & 1 == 1)
            .map(|b| 1 << (2 * b + low))
            .sum()
    };
    match salt % 3 {
        order @ (0 | 1) => [
            (0..rows)
                .map(|y| spread(y, 1 - order) * tile_space)
                .collect(),
            (0..columns)
                .map(|x| spread(x, order) * tile_space)
                .collect(),
        ],
        _ => [
            (0..rows).map(|y| y * (columns + 1) * tile_space).collect(),
            (0..columns)
                .map(|x| (columns - 1 - x) * tile_space)
                .collect(),
        ],
    }
}

/// Pack into and unpack from tiles placed by table (`Frame::Placed`), at every level,
/// against the interpreter's tiles moved to their places; the buffer's elements that no
/// tile holds stay as they were.
fn check_placed<T: Value>(layout: &Descriptor, extents: &[usize], salt: usize) {
    let (pack, unpack, tiles) = pack_and_unpack(layout, extents, salt, |vector| vector);
    let tile_space = layout.space().expect("fits");
    let [rows, columns] = placements(&tiles, tile_space, salt);
    let starts = [rows.as_slice(), columns.as_slice()];
    let placed = Side {
        extents,
        frame: Frame::Placed {
            tiles: &tiles,
            tile_space,
            starts: &starts,
        },
    };
    let furthest: usize = starts.iter().map(|s| s.iter().max().expect("a tile")).sum();
    let space = furthest + tile_space + salt % 3;
    let threads = if cfg!(miri) { 1 } else { salt % 4 };
    check_tiled::<T>(
        layout,
        (&pack, &unpack),
        (placed, space),
        |[ty, tx]| rows[ty] + columns[tx],
        |level| Options::from(level).threads(threads),
        "placed tiles",
    );
    // Tables that are not one start per tile are an error, as is a buffer short of the
    // furthest tile.
    let row_major = Side {
        extents,
        frame: Frame::RowMajor,
    };
    let image: Vec<T> = (0..extents.iter().product()).map(T::nth).collect();
    let short = [&rows[1..], columns.as_slice()];
    let wrong = Side {
        frame: Frame::Placed {
            tiles: &tiles,
            tile_space,
            starts: &short,
        },
        ..placed
    };
    let mut dst = vec![T::POISON; space];
    assert!(matches!(
        copy_with(Level::Scalar, &pack, row_major, wrong, &image, &mut dst),
        Err(KernelError::Starts { .. })
    ));
    let mut dst = vec![T::POISON; furthest + tile_space - 1];
    assert!(matches!(
        copy_with(Level::Scalar, &pack, row_major, placed, &image, &mut dst),
        Err(KernelError::Reach { .. })
    ));
}

/// Runs `check::<T>(args)` for the element type `size` picks: `u8`, `u16`, `u32` or `u64`.
macro_rules! for_size {
    ($size:expr, $check:ident($($arg:expr),*)) => {
        match $size {
            0 => $check::<u8>($($arg),*),
            1 => $check::<u16>($($arg),*),
            2 => $check::<u32>($($arg),*),
            _ => $check::<u64>($($arg),*),
        }
    };
}

/// A random tile layout (`tile_statements`' `kind`, `rows × cols`), fixed-size or in a
/// grid, and extents for it: its tile, or the tile plus `extra` in a grid.
fn random_layout(
    [kind, rows, cols, salt]: [usize; 4],
    tiled: bool,
    extra: (usize, usize),
) -> (Descriptor, Vec<usize>) {
    let layout = descriptor(&layout_text("A", kind, rows, cols, salt, tiled));
    let tile = layout.shape();
    let extents = match tiled {
        true => vec![extra.0 + tile[0], extra.1 + tile[1]],
        false => tile,
    };
    (layout, extents)
}

/// Tiles of `2^rows × 2^cols` with `extra` elements around them; under Miri at most 64
/// elements (4 × 16, which still fills AVX2's registers with rows of words, or a tall
/// 16 × 4) with 7 around: Miri runs the parser, the planner and the interpreter (the
/// oracle) as slowly as the copies it checks, and a 8 × 64 tile's plan alone took minutes
/// there.
fn sized(rows: u32, cols: u32, extra: (usize, usize)) -> (usize, usize, (usize, usize)) {
    let (rows, cols, extra) = match cfg!(miri) {
        true => {
            let rows = rows.min(4);
            (rows, cols.min(6 - rows).min(4), (extra.0 % 8, extra.1 % 8))
        }
        false => (rows, cols, extra),
    };
    (1 << rows, 1 << cols, extra)
}

/// A [`random_layout`] as a property test draws it, with what it was drawn from.
#[derive(Debug)]
struct Drawn {
    kind: usize,
    rows: usize,
    cols: usize,
    salt: usize,
    tiled: bool,
    layout: Descriptor,
    extents: Vec<usize>,
}

prop_compose! {
    /// A [`random_layout`] of every kind, 1 to 16 rows × 1 to 64 columns (powers of two),
    /// fixed-size or in a grid (always where `grid`) of up to `extra` more elements per
    /// coordinate; under Miri as [`sized`] caps them.
    fn drawn(grid: bool, extra: (usize, usize))(
        kind in 0usize..7,
        rows in 0u32..5,
        cols in 0u32..7,
        salt in 0usize..1000,
        tiled in any::<bool>().prop_map(move |tiled| tiled || grid),
        extra in (0..extra.0, 0..extra.1),
    ) -> Drawn {
        let (rows, cols, extra) = sized(rows, cols, extra);
        let (layout, extents) = random_layout([kind, rows, cols, salt], tiled, extra);
        Drawn { kind, rows, cols, salt, tiled, layout, extents }
    }
}

fn assert_same<T: Value>(found: &[T], expected: &[T], level: Level, what: &str) {
    assert_eq!(found, expected, "{what} at {level:?}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 4 } else { 256 }))]

    #[test]
    fn kernels_match_the_interpreter(
        drawn in drawn(false, (20, 20)),
        other_kind in 0usize..5,
        size in 0usize..4,
    ) {
        let Drawn { kind, rows, cols, salt, tiled, layout, extents } = drawn;
        // A second layout of the same tile for layout → layout copies (no padding).
        let other = descriptor(&layout_text("B", other_kind, rows, cols, salt / 5, tiled));
        let other = (kind < 4 && layout.shape() == other.shape()).then_some(&other);
        for_size!(size, check(&layout, other, &extents, salt));
    }

    #[test]
    fn copies_between_views_match_element_copies(
        rank in 1usize..4,
        extents in (1usize..80, 1usize..80, 1usize..6),
        kinds in (0usize..5, 0usize..5),
        salt in 0usize..1000,
        size in 0usize..4,
    ) {
        // Under Miri, images of at most 24 × 24 (see `sized`).
        let extents = match cfg!(miri) {
            true => (extents.0 % 24 + 1, extents.1 % 24 + 1, extents.2),
            false => extents,
        };
        // Three coordinates: a small batch of planes, the batch coordinate anywhere.
        let extents = match rank {
            1 => vec![extents.0],
            2 => vec![extents.0, extents.1],
            _ => {
                let mut batch = vec![extents.0 % 20 + 1, extents.1 % 20 + 1];
                batch.insert(salt % 3, extents.2);
                batch
            }
        };
        let kinds = [kinds.0, kinds.1];
        for_size!(size, check_views(&extents, kinds, salt));
    }

    #[test]
    fn stacked_tiles_match_the_interpreter(
        drawn in drawn(true, (40, 20)),
        stack in 1usize..6,
        size in 0usize..4,
    ) {
        for_size!(size, check_stacked(&drawn.layout, &drawn.extents, stack, drawn.salt));
    }

    #[test]
    fn placed_tiles_match_the_interpreter(drawn in drawn(true, (40, 40)), size in 0usize..4) {
        for_size!(size, check_placed(&drawn.layout, &drawn.extents, drawn.salt));
    }

    #[test]
    fn kernels_on_views_match_the_interpreter(drawn in drawn(false, (20, 20)), size in 0usize..4) {
        for_size!(size, check_view(&drawn.layout, &drawn.extents, drawn.salt));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// Transposes larger than one staged tile (64 destination rows × 256 bytes) and one
    /// band: several tiles, partial tiles and squares at the edges, pitches and rectangles
    /// of larger images on either side, 4- and 8-byte elements (the sizes with squares in
    /// registers) and 1-byte ones (scalar), across threads.
    #[test]
    #[cfg_attr(miri, ignore = "large images: too slow under Miri")]
    fn transposes_of_several_tiles_match_element_copies(
        extents in (1usize..300, 1usize..300),
        kinds in (0usize..3, 0usize..2),
        rows_first in any::<bool>(),
        salt in 0usize..1000,
        size in 0usize..3,
    ) {
        // A view in row order (row-major, pitched, a rectangle of a row-major image) and
        // one in column order (column-major, a rectangle of a column-major image).
        let (rows, columns) = ([0, 2, 3][kinds.0], [1, 4][kinds.1]);
        let kinds = if rows_first { [rows, columns] } else { [columns, rows] };
        let extents = [extents.0, extents.1];
        match size {
            0 => check_views::<u32>(&extents, kinds, salt),
            1 => check_views::<u64>(&extents, kinds, salt),
            _ => check_views::<u8>(&extents, kinds, salt),
        }
    }
}

#[test]
fn copies_between_views_reject_what_does_not_fit() {
    let rows = View::row_major(&[4, 6]).expect("valid");
    let columns = View::column_major(&[4, 6]).expect("valid");
    let src = vec![0u32; 24];
    let mut short = vec![0u32; 23];
    assert_eq!(
        copy_views_with(Level::Scalar.into(), &rows, &columns, &src, &mut short),
        Err(KernelError::Reach {
            side: "destination",
            needed: 24,
            found: 23
        })
    );
    let other = View::row_major(&[6, 4]).expect("valid");
    let mut dst = vec![0u32; 24];
    assert!(matches!(
        copy_views_with(Level::Scalar.into(), &rows, &other, &src, &mut dst),
        Err(KernelError::Extents { .. })
    ));
    // No coordinates: one element.
    let point = View::strided(&[], &[], 5).expect("valid");
    let mut one = vec![0u32; 7];
    copy_views_with(Level::Scalar.into(), &point, &point, &[9u32; 6], &mut one).expect("fits");
    assert_eq!(one, [0, 0, 0, 0, 0, 9, 0]);
}
