//! Thread-value layouts and tiled copies, compiled: their functions against the
//! interpreter and the core's checks.

#[path = "common/valid_wgsl.rs"]
mod valid_wgsl;

use swizzle::threads::{Slot, ThreadValues};

swizzle::layout! {
    /// 256 threads load a 32 × 32 tile, four consecutive elements of a row each.
    threads RowsOfFour {
        tile [y: 32, x: 32];
        unmerge x -> [tx: 8, v: 4];
        merge [y, tx] -> thread;
        threads [thread];
        values [v];
    }

    /// A warp-split layout: 8 subgroups of 32 lanes; lane `l` of subgroup `s` holds column
    /// `l` of rows `4s..4s + 4`.
    threads Columns {
        tile [y: 32, x: 32];
        unmerge y -> [s: 8, v: 4];
        threads [s, x];
        values [v];
    }
}

#[test]
fn counts_and_tile() {
    assert_eq!((RowsOfFour::THREADS, RowsOfFour::VALUES), (256, 4));
    assert_eq!(RowsOfFour::TILE, [32, 32]);
    assert_eq!(Columns::THREADS, 256);
}

#[test]
fn elements_agree_with_the_interpreter() {
    let layouts: [(&swizzle::ir::Descriptor, usize); 2] =
        [(&RowsOfFour::DESCRIPTOR, 1), (&Columns::DESCRIPTOR, 2)];
    for (descriptor, thread_coords) in layouts {
        let threads = ThreadValues::new(descriptor, thread_coords);
        assert_eq!(threads.coverage(false), Ok(()));
        for thread in 0..256 {
            for value in 0..4 {
                let slot = Slot { thread, value };
                let element = threads.element(slot).unwrap();
                let generated = match thread_coords {
                    1 => RowsOfFour::element(thread, value),
                    _ => Columns::element(thread / 32, thread % 32, value),
                };
                assert_eq!(element, generated, "{slot}");
            }
        }
    }
    assert_eq!(RowsOfFour::element(9, 2), [1, 6]);
    assert_eq!(Columns::element(1, 5, 3), [7, 5]);
}

swizzle::layout! {
    /// The workgroup's 32 × 32 tile, XOR-swizzled so that rows and columns are both
    /// conflict-free.
    layout XorTile {
        memory [y: 32, x: 32];
        xor x by y;
        coords [y, x];
    }
    /// The same tile read transposed: its coordinates swapped.
    layout XorTileT {
        over XorTile [r, c];
        coords [c, r];
    }
    /// Loads: each thread one element per row step (a warp reads one row: coalesced).
    threads Rows {
        tile [y: 32, x: 32];
        unmerge y -> [ty: 4, v: 8];
        merge [ty, x] -> thread;
        threads [thread];
        values [v];
    }
    kernel LoadTile = tiled_copy(image -> XorTile, threads Rows, buffers(input, tile),
        assert conflict_free, assert transactions(<= 4));
    kernel StoreTile = tiled_copy(XorTileT -> image, threads Rows, buffers(tile, output),
        assert conflict_free);
    /// Row-major image tiles copied in vectors of four.
    kernel CopyRows = tiled_copy(image -> Plain, threads Fours);
    /// The same vectors of four from the image, written element by element into the XOR
    /// tile, which breaks their runs.
    kernel SplitRows = tiled_copy(image -> XorTile, threads Fours);
    threads Fours {
        tile [y: 32, x: 32];
        unmerge x -> [tx: 8, v: 4];
        merge [y, tx] -> thread;
        threads [thread];
        values [v];
    }
    layout Plain {
        memory [y: 32, x: 32];
        coords [y, x];
    }
}

/// A transpose on the CPU from the two tiled copies, at sizes with partial tiles.
#[test]
fn transpose_from_tiled_copies() {
    for (height, width) in [(64, 96), (40, 70), (1, 33), (32, 32)] {
        let input: Vec<u32> = (0..height * width).map(|i| i as u32).collect();
        let mut output = vec![u32::MAX; height * width];
        let mut tile = vec![0u32; XorTile::SPACE];
        for ty in 0..height.div_ceil(32) {
            for tx in 0..width.div_ceil(32) {
                LoadTile::run([ty, tx], [height, width], &input, &mut tile).unwrap();
                StoreTile::run([tx, ty], [width, height], &tile, &mut output).unwrap();
            }
        }
        for y in 0..height {
            for x in 0..width {
                assert_eq!(
                    output[x * height + y],
                    input[y * width + x],
                    "{height}×{width}"
                );
            }
        }
    }
}

#[test]
fn vectors_are_inferred() {
    // The XOR tile breaks runs along x; the plain tile keeps the threads' fours.
    assert_eq!((LoadTile::VECTOR, StoreTile::VECTOR), (1, 1));
    assert_eq!((CopyRows::VECTOR, SplitRows::VECTOR), (4, 4));
    println!("{}\n{}", CopyRows::WGSL, SplitRows::WGSL);
    // Whole `vec4` entries on both sides: one assignment per move.
    assert!(CopyRows::WGSL.contains("destination[thread] = source["));
    // One `vec4` load, four single-element stores.
    assert!(SplitRows::WGSL.contains("let v0 = source["));
    assert_eq!(SplitRows::WGSL.matches("destination[").count(), 2 * 4);
}

/// Vectors split on one side move the same elements as the interpreter says.
#[test]
fn split_vectors_move_the_right_elements() {
    for (height, width) in [(64, 32), (40, 68)] {
        let input: Vec<u32> = (0..height * width).map(|i| i as u32).collect();
        let mut tile = vec![u32::MAX; XorTile::SPACE];
        SplitRows::run([1, 0], [height, width], &input, &mut tile).unwrap();
        for y in 0..32 {
            for x in 0..32 {
                let (row, column) = (32 + y, x);
                let expected = match row < height && column < width {
                    true => input[row * width + column],
                    false => u32::MAX,
                };
                assert_eq!(tile[XorTile::offset(y, x)], expected, "({y}, {x})");
            }
        }
    }
}

#[test]
fn bad_runs_are_errors() {
    use swizzle::tiled_copy::CopyError;
    let (input, mut tile) = (vec![0u32; 64 * 64], vec![0u32; XorTile::SPACE]);
    let outside = LoadTile::run([2, 0], [64, 64], &input, &mut tile).unwrap_err();
    assert!(matches!(outside, CopyError::Tile { .. }), "{outside}");
    let short = LoadTile::run([0, 0], [64, 64], &input[1..], &mut tile).unwrap_err();
    assert_eq!(
        short.to_string(),
        "the source has 4095 elements but needs 4096: give a buffer of 4096"
    );
    let unaligned = CopyRows::run([0, 0], [33, 33], &vec![0u32; 33 * 33], &mut tile).unwrap_err();
    assert!(matches!(
        unaligned,
        CopyError::Unaligned {
            extent: 33,
            width: 4
        }
    ));
    let thread = LoadTile::run_thread(128, [0, 0], [64, 64], &input, &mut tile).unwrap_err();
    assert!(matches!(
        thread,
        CopyError::Thread {
            thread: 128,
            threads: 128
        }
    ));
}

/// The WGSL of a tiled copy, in a module with its arrays, passes naga's validation.
#[test]
fn wgsl_validates() {
    let module = format!(
        "@group(0) @binding(0) var<storage, read> input: array<u32>;\n\
         @group(0) @binding(1) var<storage, read_write> output: array<u32>;\n\
         var<workgroup> tile: array<u32, {}>;\n{}\n{}\n\
         @compute @workgroup_size(128)\n\
         fn main(@builtin(local_invocation_index) thread: u32, @builtin(workgroup_id) group: vec3<u32>) {{\n\
             load_tile(thread, group.y, group.x, 100u, 70u);\n\
             workgroupBarrier();\n\
             store_tile(thread, group.x, group.y, 70u, 100u);\n\
         }}\n",
        XorTile::SPACE,
        LoadTile::WGSL,
        StoreTile::WGSL
    );
    valid_wgsl::validate(&module);
}
