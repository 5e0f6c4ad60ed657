//! Tiled copies of random thread-value layouts over random tiles, between the image and
//! random workgroup layouts, against the reference interpreter: every thread's program
//! (interior and partial tiles, whole and split vectors) moves exactly the elements that the
//! interpreter says its slots hold, from and to the offsets the interpreter gives. The
//! register transposes of tiles whose entries run across the vectors are found where they
//! apply, and a transpose built from them runs on the CPU evaluator of its own WGSL.

use proptest::prelude::*;
use swizzle_core::emit::wgsl;
use swizzle_core::ir::Descriptor;
use swizzle_core::plans::threads::Slot;
use swizzle_core::plans::tiled_copy::{self, Copied, Cost, Direction, Part, Side, TiledCopy};

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

/// A workgroup layout over the tile: row-major, padded, XOR on words, XOR on pairs,
/// column-major or column-major padded by a `vec4` (whose entries run down the columns,
/// across a thread's vectors).
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
        4 => format!("memory [x: {columns}, y: {rows}];"),
        5 => format!(
            "memory [x: {columns}, y: {rows}] strides [{}, 1];",
            rows + 4
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

prop_compose! {
    /// Threads that each hold squares of 4 × 4 values, one or more (rows first, so that a
    /// thread's vectors of four lie on four consecutive rows): what a register transpose
    /// takes.
    fn squares()(
        rows in prop::sample::select(vec![4usize, 8, 16]),
        columns in prop::sample::select(vec![4usize, 8, 16, 32]),
        merged in any::<bool>(),
        transposed in any::<bool>(),
        xor in any::<bool>(),
    )(
        row_values in prop::sample::select(
            [4usize, 8, 16].into_iter().filter(|v| rows.is_multiple_of(*v)).collect::<Vec<_>>()
        ),
        rows in Just(rows),
        columns in Just(columns),
        merged in Just(merged),
        transposed in Just(transposed),
        xor in Just(xor),
    ) -> Threads {
        Threads {
            rows,
            columns,
            row_values,
            column_values: 4,
            merged,
            transposed,
            values_transposed: false,
            xor,
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn tiled_copies_move_what_the_interpreter_says(
        threads in threads(),
        kind in 0usize..6,
        direction in 0usize..3,
        extra in (0usize..40, 0usize..40),
        declared in any::<bool>(),
    ) {
        check_copy(&threads, kind, direction, extra, declared)?;
    }

    /// The same for squares of values and tiles whose entries run down the columns: the
    /// copies into them cross the tile (`TiledCopy::crossing`), on interior tiles in
    /// squares transposed in registers.
    #[test]
    fn register_transposes_move_what_the_interpreter_says(
        threads in squares(),
        kind in 4usize..6,
        direction in 0usize..3,
        extra in (0usize..40, 0usize..40),
    ) {
        check_copy(&threads, kind, direction, extra, false)?;
    }
}

/// Checks every thread's program of a tiled copy of `threads` between the image and the
/// workgroup layout `kind` in `direction` against the interpreter, on whole and partial
/// tiles of an image `extra` elements larger than the tile.
fn check_copy(
    threads: &Threads,
    kind: usize,
    direction: usize,
    extra: (usize, usize),
    declared: bool,
) -> Result<(), TestCaseError> {
    {
        let text = format!(
            "{}{}",
            threads.text(),
            tile_text(kind, threads.rows, threads.columns)
        );
        let checked = swizzle_syntax::layouts(&text)
            .map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        let values = checked[0].thread_values().expect("a thread-value layout");
        let work: &Descriptor = &checked[1].descriptor;
        let (source, destination) = match direction {
            0 => (Side::Image, Side::Tile(work)),
            1 => (Side::Tile(work), Side::Image),
            _ => (Side::Tile(work), Side::Tile(work)),
        };
        let copy = TiledCopy {
            threads: values,
            source,
            destination,
            element_bytes: 4,
            subgroup: 32,
        };
        // The inferred width, or (half the time) the widest whole vector, as a declared
        // `vector` would ask.
        let width = match declared {
            true => copy.widest_whole(),
            false => copy.widest(),
        };
        let program = copy
            .program(width)
            .ok_or_else(|| TestCaseError::fail(format!("no program\n{text}")))?;
        // The squares the program runs are the ones the analysis and the docs describe.
        prop_assert_eq!(
            program.squares.as_ref().map(|s| s.crossing),
            copy.crossing(width),
            "{}",
            text
        );
        // An image of whole and partial tiles, its rows a multiple of the vectors.
        let rows = threads.rows + extra.0;
        let columns = (threads.columns + extra.1).div_ceil(width) * width;
        let extents = [rows, columns];
        let grid = [
            rows.div_ceil(threads.rows),
            columns.div_ceil(threads.columns),
        ];
        for tile in [[0, 0], [grid[0] - 1, grid[1] - 1], [grid[0] - 1, 0]] {
            for thread in 0..copy.threads.thread_count() {
                let ran = program
                    .run(
                        thread as u64,
                        &tile.map(|t| t as u64),
                        &extents.map(|e| e as u64),
                    )
                    .ok_or_else(|| TestCaseError::fail("the program does not compute"))?;
                prop_assert_eq!(
                    ran,
                    expected(&copy, thread, &tile, &extents),
                    "thread {} tile {:?} extents {:?} width {}\n{}",
                    thread,
                    tile,
                    extents,
                    width,
                    text
                );
            }
        }
    }
    Ok(())
}

/// A 16 × 16 transpose tile of 16 threads, each a square of 4 × 4 values (four `vec4`s of
/// four consecutive rows), and two tiles whose entries of four words run down the columns
/// of the stored transpose: XOR on groups of four (CUDA's `float4` transpose) and
/// column-major.
const SQUARES: &str = "
threads Squares {
    tile [r: 16, c: 16];
    unmerge c -> [tc: 4, v: 4];
    unmerge r -> [tr: 4, k: 4];
    merge [tr, tc] -> thread;
    threads [thread];
    values [k, v];
}
layout Xor4 {
    memory [yo: 4, yi: 4, xo: 4, xi: 4];
    xor xo by yo;
    merge [yo, yi] -> y;
    merge [xo, xi] -> x;
    coords [y, x];
}
layout ColumnMajor { memory [x: 16, y: 16]; coords [y, x]; }
";

/// `tile` read through its transpose: the same memory, its coordinates swapped.
fn transposed(tile: &Descriptor) -> Descriptor {
    Descriptor {
        coords: tile.coords.iter().rev().copied().collect::<Vec<_>>().into(),
        ..tile.clone()
    }
}

#[test]
fn register_transposes_cross_tiles_whose_entries_run_across_the_vectors() {
    let checked = swizzle_syntax::layouts(SQUARES).expect("checks");
    let threads = checked[0].thread_values().expect("threads");
    let (xor4, columns) = (&checked[1].descriptor, &checked[2].descriptor);
    let views = [transposed(xor4), transposed(columns)];
    let copy = |source, destination| TiledCopy {
        threads,
        source,
        destination,
        element_bytes: 4,
        subgroup: 8,
    };
    // Each tile's entries run along one side's vectors and across the other's: the XOR
    // tile's along the loaded rows (so the store, through the transposed view, crosses),
    // the column-major tile's down the columns (so the load crosses).
    let cases = [
        (copy(Side::Image, Side::Tile(xor4)), None),
        (copy(Side::Tile(&views[0]), Side::Image), Some(Part::Source)),
        (
            copy(Side::Image, Side::Tile(columns)),
            Some(Part::Destination),
        ),
        (copy(Side::Tile(&views[1]), Side::Image), None),
    ];
    let mut degrees = Vec::new();
    for (copy, crossed) in cases {
        let width = copy.widest();
        assert_eq!(width, 4);
        let crossing = copy.crossing(width);
        assert_eq!(
            crossing.map(|c| (c.part, c.rows, c.axis)),
            crossed.map(|part| (part, 4, 0))
        );
        // Two values per thread along a row make no square.
        assert_eq!(copy.crossing(2), None);
        let program = copy.program(width).expect("folds");
        assert_eq!(program.squares.as_ref().map(|s| s.crossing), crossing);
        if let Some(part) = crossed {
            let squares = &program.squares.as_ref().expect("squares").moves;
            assert_eq!(squares.len(), 1);
            let square = &squares[0];
            assert_eq!(square.rows, 4);
            let (across, along) = match part {
                Part::Source => (&square.source, &square.destination),
                _ => (&square.destination, &square.source),
            };
            assert_eq!(
                (across.direction, across.accesses.len()),
                (Direction::Across, 4)
            );
            assert_eq!(
                (along.direction, along.accesses.len()),
                (Direction::Along, 4)
            );
            // Whole 16-byte entries across the square: the worst instruction's conflicts.
            let worst = copy
                .instructions(width)
                .iter()
                .map(
                    |instruction| match (part, &instruction.source, &instruction.destination) {
                        (Part::Source, Cost::Banks(banks), _) | (_, _, Cost::Banks(banks)) => {
                            banks.degree
                        }
                        _ => panic!("the crossed side is workgroup memory"),
                    },
                )
                .max();
            degrees.push(worst);
        }
        // Interior and partial tiles of a 36 × 20 image move what the interpreter says.
        let extents = [36, 20];
        for at in [[0, 0], [1, 0], [2, 1], [0, 1]] {
            for thread in 0..16 {
                let ran = program
                    .run(thread, &at.map(|t| t as u64), &extents.map(|e| e as u64))
                    .expect("computes");
                assert_eq!(ran, expected(&copy, thread as usize, &at, &extents));
            }
        }
    }
    // The XOR keeps a subgroup's entries across the squares on more banks than the
    // column-major tile does (four groups of four words: 2 ways against 4).
    assert_eq!(degrees, [Some(2), Some(4)]);
}

/// The WGSL of a transpose of a `height × width` image of words through `tile`, the
/// copies' own functions under an entry point: one workgroup per tile of the input.
fn transpose_module(
    tile: &Descriptor,
    threads: swizzle_core::plans::threads::ThreadValues<'_>,
    [height, width]: [usize; 2],
) -> String {
    let view = transposed(tile);
    let copy = |source, destination| TiledCopy {
        threads,
        source,
        destination,
        element_bytes: 4,
        subgroup: 32,
    };
    let (load, store) = (
        copy(Side::Image, Side::Tile(tile)),
        copy(Side::Tile(&view), Side::Image),
    );
    let print = |name, copy: &TiledCopy<'_>, buffers| {
        let program = copy.program(copy.widest()).expect("folds");
        wgsl::tiled_copy(name, "", &program, buffers, wgsl::Writes::default())
    };
    let words = tiled_copy::entry_words(tile, 4);
    let vec = |n: usize| match n {
        1 => "u32".to_owned(),
        n => format!("vec{n}<u32>"),
    };
    format!(
        "@group(0) @binding(0) var<storage, read> input: array<{}>;
@group(0) @binding(1) var<storage, read_write> output: array<{}>;
var<workgroup> tile: array<{}, {}>;
{}
{}
@compute @workgroup_size({})
fn main(@builtin(local_invocation_index) thread: u32, @builtin(workgroup_id) group: vec3<u32>) {{
    load_tile(thread, group.y, group.x, {height}u, {width}u);
    workgroupBarrier();
    store_tile(thread, group.x, group.y, {width}u, {height}u);
}}
",
        vec(load.widest()),
        vec(store.widest()),
        vec(words),
        tile.space().unwrap() / words,
        print("load_tile", &load, ("input", "tile")),
        print("store_tile", &store, ("tile", "output")),
        threads.thread_count(),
    )
}

#[test]
fn register_transposes_run_as_their_wgsl_says() {
    let checked = swizzle_syntax::layouts(SQUARES).expect("checks");
    let threads = checked[0].thread_values().expect("threads");
    // Whole and partial tiles; rows of 36 and 20 words split into vec4s both ways.
    let [height, width] = [36, 20];
    let input: Vec<u32> = (0..height * width).map(|i| i as u32 + 1).collect();
    for tile in [&checked[1].descriptor, &checked[2].descriptor] {
        let text = transpose_module(tile, threads, [height, width]);
        // One side's square, transposed in registers.
        assert!(text.contains(", v0_3.w);"), "a square:\n{text}");
        let module = naga::front::wgsl::parse_str(&text)
            .unwrap_or_else(|e| panic!("{}", e.emit_to_string(&text)));
        naga::valid::Validator::new(
            naga::valid::ValidationFlags::all(),
            naga::valid::Capabilities::default(),
        )
        .validate(&module)
        .unwrap_or_else(|e| panic!("{}", e.emit_to_string(&text)));
        let mut buffers = wgsl_eval::Buffers::new();
        let bytes = |words: &[u32]| words.iter().flat_map(|w| w.to_le_bytes()).collect();
        buffers.bind(0, 0, bytes(&input));
        buffers.bind(0, 1, bytes(&vec![0; height * width]));
        let grid = [width.div_ceil(16) as u32, height.div_ceil(16) as u32, 1];
        wgsl_eval::dispatch(&module, "main", grid, &mut buffers)
            .unwrap_or_else(|e| panic!("{e}\n{text}"));
        let output: Vec<u32> = buffers
            .get(0, 1)
            .expect("output")
            .chunks_exact(4)
            .map(|b| u32::from_le_bytes(b.try_into().unwrap()))
            .collect();
        for y in 0..height {
            for x in 0..width {
                assert_eq!(
                    output[x * height + y],
                    input[y * width + x],
                    "({y}, {x}) through {}",
                    tile.name
                );
            }
        }
    }
}
