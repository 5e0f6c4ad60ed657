//! Tiled copies of random thread-value layouts over random tiles, between the image and
//! random workgroup layouts, against the reference interpreter: every thread's program
//! (interior and partial tiles, whole and split vectors) moves exactly the elements that the
//! interpreter says its slots hold, from and to the offsets the interpreter gives.

use proptest::prelude::*;
use swizzle_core::ir::Descriptor;
use swizzle_core::plans::threads::Slot;
use swizzle_core::plans::tiled_copy::{Copied, Side, TiledCopy};

/// A random thread-value layout over a `rows × columns` tile: each coordinate split into a
/// thread part and a value part, the parts ordered and merged at random, the value parts
/// optionally first in the tile's order (so that vectors break).
#[derive(Clone, Debug)]
struct Threads {
    rows: usize,
    columns: usize,
    /// Value lengths of the rows and of the columns (divisors).
    row_values: usize,
    column_values: usize,
    /// The thread coordinates merged into one (`thread`), or kept as two.
    merged: bool,
    /// Thread coordinates in the order columns-then-rows.
    transposed: bool,
    /// Value coordinates columns-first.
    values_transposed: bool,
    /// A thread index XOR-swizzled over a power-of-two count (a permutation of threads).
    xor: bool,
}

impl Threads {
    fn text(&self) -> String {
        let (rt, ct) = (
            self.rows / self.row_values,
            self.columns / self.column_values,
        );
        let mut body = format!(
            "tile [y: {}, x: {}];\nunmerge y -> [yt: {rt}, yv: {}];\nunmerge x -> [xt: {ct}, xv: {}];\n",
            self.rows, self.columns, self.row_values, self.column_values
        );
        let threads = match self.transposed {
            true => ["xt", "yt"],
            false => ["yt", "xt"],
        };
        let values = match self.values_transposed {
            true => "[xv, yv]",
            false => "[yv, xv]",
        };
        let coords = match self.merged {
            true => {
                body.push_str(&format!(
                    "merge [{}, {}] -> thread;\n",
                    threads[0], threads[1]
                ));
                let count = rt * ct;
                if self.xor && count.is_power_of_two() && count >= 4 {
                    body.push_str(&format!(
                        "unmerge thread -> [hi: 2, lo: {}];\nxor lo by hi;\nmerge [hi, lo] -> t;\n",
                        count / 2
                    ));
                    "[t]".to_owned()
                } else {
                    "[thread]".to_owned()
                }
            }
            false => format!("[{}, {}]", threads[0], threads[1]),
        };
        format!("threads Random {{\n{body}threads {coords};\nvalues {values};\n}}\n")
    }
}

fn divisors(n: usize) -> Vec<usize> {
    (1..=n).filter(|d| n.is_multiple_of(*d)).collect()
}

prop_compose! {
    /// A grid of `rows` × `columns` threads, each holding a block of values whose sides
    /// divide the grid's, in every arrangement [`Threads::text`] writes.
    fn threads()(
        rows in prop::sample::select(vec![1usize, 2, 3, 4, 8, 16]),
        columns in prop::sample::select(vec![1usize, 2, 4, 6, 8, 16, 32]),
    )(
        rows in Just(rows),
        columns in Just(columns),
        row_values in prop::sample::select(divisors(rows)),
        column_values in prop::sample::select(divisors(columns)),
        merged in any::<bool>(),
        transposed in any::<bool>(),
        values_transposed in any::<bool>(),
        xor in any::<bool>(),
    ) -> Threads {
        Threads { rows, columns, row_values, column_values, merged, transposed, values_transposed, xor }
    }
}

/// A workgroup layout over the tile: row-major, padded, XOR on words, or XOR on pairs.
fn tile_text(kind: usize, rows: usize, columns: usize) -> String {
    let body = match kind {
        0 => format!("memory [y: {rows}, x: {columns}];"),
        1 => format!(
            "memory [y: {rows}, x: {columns}] strides [{}, 1];",
            columns + 1
        ),
        2 if columns.is_power_of_two() && rows <= columns => {
            format!("memory [y: {rows}, x: {columns}]; xor x by y;")
        }
        3 if columns >= 4 && (columns / 2).is_power_of_two() && rows <= columns / 2 => format!(
            "memory [y: {rows}, xo: {}, xi: 2]; xor xo by y; merge [xo, xi] -> x;",
            columns / 2
        ),
        _ => format!("memory [y: {rows}, x: {columns}];"),
    };
    format!("layout Work {{ {body} coords [y, x]; }}\n")
}

/// What one thread should copy, from the interpreter: each element its slots hold that lies
/// in the image (at tile `tile` of `extents`), at its offsets on both sides.
fn expected(copy: &TiledCopy<'_>, thread: usize, tile: &[usize], extents: &[usize]) -> Vec<Copied> {
    let shape = copy.threads.tile();
    let image = matches!(copy.source, Side::Image) || matches!(copy.destination, Side::Image);
    let offset = |side: Side<'_>, element: &[usize]| -> u64 {
        match side {
            Side::Image => element.iter().enumerate().fold(0, |index, (i, &c)| {
                index * extents[i] + tile[i] * shape[i] + c
            }) as u64,
            Side::Tile(layout) => layout.offset(element).unwrap() as u64,
        }
    };
    (0..copy.threads.value_count())
        .filter_map(|value| copy.threads.element(Slot { thread, value }))
        .filter(|element| {
            !image || (0..element.len()).all(|i| tile[i] * shape[i] + element[i] < extents[i])
        })
        .map(|element| Copied {
            source: offset(copy.source, &element),
            destination: offset(copy.destination, &element),
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn tiled_copies_move_what_the_interpreter_says(
        threads in threads(),
        kind in 0usize..4,
        direction in 0usize..3,
        extra in (0usize..40, 0usize..40),
        declared in any::<bool>(),
    ) {
        let text = format!("{}{}", threads.text(), tile_text(kind, threads.rows, threads.columns));
        let checked = swizzle_syntax::layouts(&text)
            .map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        let values = checked[0].thread_values().expect("a thread-value layout");
        let work: &Descriptor = &checked[1].descriptor;
        let (source, destination) = match direction {
            0 => (Side::Image, Side::Tile(work)),
            1 => (Side::Tile(work), Side::Image),
            _ => (Side::Tile(work), Side::Tile(work)),
        };
        let copy = TiledCopy { threads: values, source, destination, element_bytes: 4, subgroup: 32 };
        // The inferred width, or (half the time) the widest whole vector, as a declared
        // `vector` would ask.
        let width = match declared { true => copy.widest_whole(), false => copy.widest() };
        let program = copy.program(width).ok_or_else(|| TestCaseError::fail(format!("no program\n{text}")))?;
        // An image of whole and partial tiles, its rows a multiple of the vectors.
        let rows = threads.rows + extra.0;
        let columns = (threads.columns + extra.1).div_ceil(width) * width;
        let extents = [rows, columns];
        let grid = [rows.div_ceil(threads.rows), columns.div_ceil(threads.columns)];
        for tile in [[0, 0], [grid[0] - 1, grid[1] - 1], [grid[0] - 1, 0]] {
            for thread in 0..copy.threads.thread_count() {
                let ran = program
                    .run(thread as u64, &tile.map(|t| t as u64), &extents.map(|e| e as u64))
                    .ok_or_else(|| TestCaseError::fail("the program does not compute"))?;
                prop_assert_eq!(
                    ran,
                    expected(&copy, thread, &tile, &extents),
                    "thread {} tile {:?} extents {:?} width {}\n{}",
                    thread, tile, extents, width, text
                );
            }
        }
    }
}
