//! Property tests of the copy kernels: random tile layouts (Morton, XOR, CuTe swizzles,
//! padding, odd row-major and column-major tiles, fixed-size or with a run-time grid), random
//! walks, extents and element sizes. At every SIMD level this CPU runs, pack, unpack and
//! layout → layout copies must equal the reference interpreter, write nothing else, and
//! unpack must undo pack.

use proptest::prelude::*;
use swizzle_core::ir::{Descriptor, coordinates};
use swizzle_core::kernel::{self, Storage, common_vector};
use swizzle_core::sfc::Sfc;
use swizzle_runtime::kernel::{Element, Frame, Level, Plan, Side, copy_with};

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
    let vector = common_vector(Storage::RowMajor, Storage::Layout(layout), &tile);
    let divisors: Vec<usize> = (1..=vector).filter(|d| vector.is_multiple_of(*d)).collect();
    let sfc = walk(&tile, divisors[salt % divisors.len()], salt);
    let pack = kernel::plan(Storage::RowMajor, Storage::Layout(layout), &tile, &sfc);
    let unpack = kernel::plan(Storage::Layout(layout), Storage::RowMajor, &tile, &sfc);
    let tiles: Vec<usize> = extents
        .iter()
        .zip(&tile)
        .map(|(e, t)| e.div_ceil(*t))
        .collect();
    let (grid, tile_space) = frame(layout, extents, &tiles);
    let row_major = Side {
        extents,
        frame: Frame::RowMajor,
    };
    let tiled = Side {
        extents,
        frame: Frame::Tiles {
            tiles: &grid,
            tile_space,
        },
    };
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
            let to = Side {
                extents,
                frame: Frame::Tiles {
                    tiles: &other_grid,
                    tile_space: other_space,
                },
            };
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

fn assert_same<T: Value>(found: &[T], expected: &[T], level: Level, what: &str) {
    assert_eq!(found, expected, "{what} at {level:?}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 4 } else { 256 }))]

    #[test]
    fn kernels_match_the_interpreter(
        kind in 0usize..7,
        other_kind in 0usize..5,
        rows in 0u32..4,
        cols in 0u32..7,
        salt in 0usize..1000,
        tiled in any::<bool>(),
        extra in (0usize..20, 0usize..20),
        size in 0usize..4,
    ) {
        let (rows, cols) = (1 << rows, 1 << cols);
        let layout = descriptor(&layout_text("A", kind, rows, cols, salt, tiled));
        // A second layout of the same tile for layout → layout copies (no padding).
        let other = descriptor(&layout_text("B", other_kind, rows, cols, salt / 5, tiled));
        let other = (kind < 4 && layout.shape() == other.shape()).then_some(&other);
        let tile = layout.shape();
        let extents: Vec<usize> = match tiled {
            true => vec![extra.0 + tile[0], extra.1 + tile[1]],
            false => tile.clone(),
        };
        match size {
            0 => check::<u8>(&layout, other, &extents, salt),
            1 => check::<u16>(&layout, other, &extents, salt),
            2 => check::<u32>(&layout, other, &extents, salt),
            _ => check::<u64>(&layout, other, &extents, salt),
        }
    }
}
