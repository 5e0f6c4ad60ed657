use super::*;
use crate::ir::transform::{Transform, Xor};
use crate::ir::{Dim, Memory};
use crate::plans::threads::fixtures::rows_of_four;
use std::borrow::Cow;

/// The 4 × 8 tile in workgroup memory with `x ^= y` on its words: `memory [y: 4, x: 8];
/// xor x by y; coords [y, x];`.
fn xor_tile() -> Descriptor {
    let dim = |name: &'static str, len| Dim {
        name: Cow::Borrowed(name),
        len,
    };
    Descriptor {
        name: Cow::Borrowed("XorTile"),
        dims: Cow::Owned(vec![dim("y", 4), dim("x", 8), dim("x", 8)]),
        memory: Memory {
            dims: Cow::Owned(vec![0, 1]),
            strides: Cow::Owned(vec![8, 1]),
        },
        stages: Cow::Owned(vec![Transform::Xor(Xor {
            lower: 1,
            upper: 2,
            key: 0,
        })]),
        coords: Cow::Owned(vec![0, 2]),
        grid: Cow::Borrowed(&[]),
    }
}

fn copy<'d>(threads: &'d Descriptor, source: Side<'d>, destination: Side<'d>) -> TiledCopy<'d> {
    TiledCopy {
        threads: ThreadValues::new(threads, 1),
        source,
        destination,
        element_bytes: 4,
        subgroup: 8,
    }
}

/// What a tiled copy of the tile at `tile` means, slot by slot, from the interpreter.
fn expected(copy: &TiledCopy<'_>, thread: usize, tile: &[usize], extents: &[usize]) -> Vec<Copied> {
    let shape = copy.threads.tile();
    let offset = |side: Side<'_>, element: &[usize]| -> u64 {
        match side {
            Side::Image => {
                let mut index = 0;
                for (i, &c) in element.iter().enumerate() {
                    index = index * extents[i] + tile[i] * shape[i] + c;
                }
                index as u64
            }
            Side::Tile(layout) => layout.offset(element).unwrap() as u64,
        }
    };
    (0..copy.threads.value_count())
        .filter_map(|value| copy.threads.element(Slot { thread, value }))
        .filter(|element| {
            // Only an image has extents; a copy between tiles moves the whole tile.
            let image =
                matches!(copy.source, Side::Image) || matches!(copy.destination, Side::Image);
            !image || (0..element.len()).all(|i| tile[i] * shape[i] + element[i] < extents[i])
        })
        .map(|element| Copied {
            source: offset(copy.source, &element),
            destination: offset(copy.destination, &element),
        })
        .collect()
}

/// The same tile row-major: every aligned run of four is one `vec4` entry.
fn plain_tile() -> Descriptor {
    let tile = xor_tile();
    Descriptor {
        name: Cow::Borrowed("PlainTile"),
        dims: Cow::Owned(tile.dims[..2].to_vec()),
        stages: Cow::Owned(Vec::new()),
        coords: Cow::Owned(vec![0, 1]),
        ..tile
    }
}

#[test]
fn entries_are_the_widest_aligned_runs() {
    assert_eq!(entry_words(&xor_tile(), 4), 1);
    assert_eq!(entry_words(&plain_tile(), 4), 4);
    // Wider elements: 16 bytes hold two of 8 bytes.
    assert_eq!(entry_words(&plain_tile(), 8), 2);
    // The transposed view of the same memory declares it the same way, and takes its
    // vectors (now along the tile's rows) element by element.
    let plain = plain_tile();
    let transposed = Descriptor {
        coords: Cow::Owned(vec![1, 0]),
        ..plain.clone()
    };
    assert_eq!(entry_words(&transposed, 4), 4);
    let threads = rows_of_four();
    let store = copy(&threads, Side::Tile(&transposed), Side::Image);
    assert_eq!(store.piece(Side::Tile(&transposed), 4), 1);
}

#[test]
fn vectors_are_as_wide_as_both_sides_allow() {
    let (threads, tile) = (rows_of_four(), xor_tile());
    // Row-major image → XOR tile: the XOR moves whole words across the row, so each run
    // of four stays a run only where the key keeps it aligned: it does not.
    let load = copy(&threads, Side::Image, Side::Tile(&tile));
    let error = load.fits(4).unwrap_err();
    assert_eq!(error.part, Part::Destination);
    assert!(
        error.why.contains("`xor x by y` breaks the run"),
        "{}",
        error.why
    );
    assert_eq!(load.widest_whole(), 1);
    // Left to the copy, the image keeps its vectors of four and the tile takes them
    // element by element.
    assert_eq!(load.widest(), 4);
    assert_eq!(load.piece(Side::Tile(&tile), 4), 1);
    assert_eq!(entry_words(&tile, 4), 1);
    // Image → image: vectors of four.
    let plain = copy(&threads, Side::Image, Side::Image);
    assert_eq!(plain.widest(), 4);
}

#[test]
fn programs_copy_what_the_interpreter_says() {
    let (threads, tile, plain) = (rows_of_four(), xor_tile(), plain_tile());
    for (source, destination) in [
        (Side::Image, Side::Tile(&tile)),
        (Side::Tile(&tile), Side::Image),
        (Side::Image, Side::Image),
        (Side::Image, Side::Tile(&plain)),
        (Side::Tile(&plain), Side::Tile(&tile)),
        (Side::Tile(&tile), Side::Tile(&plain)),
    ] {
        let copy = copy(&threads, source, destination);
        let width = copy.widest();
        let program = copy.program(width).expect("folds");
        // Interior and edge tiles of a 10 × 20 image (the vector variant needs the row
        // length to be a multiple of its width).
        let extents = [10, if width > 1 { 20 } else { 19 }];
        for tile in [[0, 0], [2, 2], [1, 2], [2, 0]] {
            for thread in 0..copy.threads.thread_count() {
                let ran = program
                    .run(
                        thread as u64,
                        &tile.map(|t| t as u64),
                        &extents.map(|e| e as u64),
                    )
                    .unwrap();
                assert_eq!(
                    ran,
                    expected(&copy, thread, &tile, &extents),
                    "{tile:?} {thread}"
                );
            }
        }
    }
}

#[test]
fn instructions_count_conflicts_and_transactions() {
    let (threads, tile) = (rows_of_four(), xor_tile());
    let load = copy(&threads, Side::Image, Side::Tile(&tile));
    let instructions = load.instructions(1);
    assert_eq!(instructions.len(), 4);
    for instruction in &instructions {
        // 8 lanes: rows 0..4, two threads per row, 4 apart: one 4-byte word each, in 4
        // rows of the image (one sector each), and the XOR tile spreads them over banks.
        let Cost::Memory(memory) = &instruction.source else {
            panic!("the image is global memory")
        };
        assert_eq!(memory.transactions, 4);
        let Cost::Banks(banks) = &instruction.destination else {
            panic!("the tile is workgroup memory")
        };
        assert_eq!(banks.degree, 1);
    }
}
