//! The cost model of the scalar GEMM's workgroup-memory traffic (`swizzle::gpu::ShareCost`,
//! `Gemm::share_cost`), without a GPU: its counts on the four A tiles the GEMM bench times
//! (the library's `GemmA` and `tests/common/gemm_tiles.rs`), each derived by hand below,
//! and the order it ranks them in. The bench measured `APadded` ≥ `GemmA` > `AColumns` >
//! `ARows` (BENCHMARKS.md, "GEMM"); the model puts `GemmA` first since its stores take their
//! constants as immediates, which gained `GemmA` 0.3 % where `APadded` stays about 1 %
//! ahead: what `GemmA` still pays is not in the model.

#[path = "common/gemm_tiles.rs"]
mod gemm_tiles;

use gemm_tiles::{AColumns, APadded, ARows};
use swizzle::gemm::{self, GemmA};
use swizzle::gpu::{Gemm, ShareCost};
use swizzle::ir::Descriptor;

/// The library's GEMM with `a_tile` as A's tile.
fn cost(a_tile: &Descriptor) -> ShareCost {
    Gemm {
        a_tile,
        ..gemm::config()
    }
    .share_cost()
    .expect("the model")
}

// Per subgroup (32 lanes) and step of k (BK = 16), with the library's other layouts:
//
// Stores. `GemmALoads` gives each thread two `vec4`s of k (one m), lane l of a subgroup
// m = l / 4 and k = 4 · (l % 4) + v. A k-major tile holds `vec4`s of m, so the copy stores
// the 8 values one by one: 8 scalar stores, one phase of 32 lanes, 8 m's × 4 groups of k.
// - `GemmA`: the XOR gives each group of k its own 8 banks: 1 wavefront each, 8 in all. Its
//   addresses are `(((kv << 9) + ms) ^ (kv << 3)) + C` for the 8 constants C, multiples of
//   64 above the key's bits 3–4 (`Sym::constants_outside_xor`): one base, `kv << 9`, `+ ms`,
//   `kv << 3` and the XOR (4 ops), the constants fold.
// - `APadded`: word 132 · k + m, bank 4 · k + m: groups of k two apart (16 banks apart · 2)
//   meet, 2-way: 16 wavefronts. Addresses `kv * 528 + ms + C`: one base (2 ops), the
//   constants fold.
// - `AColumns`: word 128 · k + m, every group of k in the same 8 banks, 4-way: 32
//   wavefronts; `(kv << 9) + ms + C`: 2 ops.
// - `ARows`: row-major `vec4`s of k, so two `vec4` stores, entries `thread` and
//   `thread + 256`: 4 quarter-warp phases of 8 whole `vec4`s (two rows, 32 consecutive
//   words), conflict-free: 2 · 4 = 8 wavefronts, 0 ops.
// B's copy (`GemmB`, row-major) is two `vec4` stores of consecutive entries: 8 wavefronts,
// 0 ops, for every A tile.
//
// Reads. `GemmFragments`: a thread's 8 rows are two runs of 4 consecutive m, its 8 columns
// two runs of 4 consecutive n. Per k:
// - k-major A tiles: two `vec4` reads; a quarter-warp phase is one lane row (the same 4 m):
//   one `vec4`, broadcast, 1 wavefront a phase, 4 a read: 16 · 2 · 4 = 128.
// - `ARows`: 8 scalar reads, 16 words between consecutive m; a subgroup's 4 rows of lanes
//   read m = 4 · lr + c, words 64 · lr + 16 · c + k apart by multiples of 64: 4 distinct
//   words in one bank, 4 wavefronts a read: 16 · 8 · 4 = 512.
// - B (`GemmB`): two `vec4` reads; a phase is 8 lanes of one row, 8 consecutive `vec4`s:
//   4 wavefronts a read, 16 · 2 · 4 = 128.
// FMAs: 16 k · 64 values = 1024 a subgroup, 4 a cycle: 256 cycles.
// Read bases: `GemmA`'s XOR keyed by k / 4 gives a read 4; its second read (rows 64 further,
// above the XOR's bits) lies 64 words past the first at every step and shares them (4). A
// padded, plain or row-major tile has one for all its reads (`ARows`' 8 scalar reads lie 16
// words apart); B's second read lies 16 `vec4`s past its first (1).

#[test]
fn the_model_counts_the_library_tile() {
    let cost = cost(&GemmA::DESCRIPTOR);
    assert_eq!(cost.store_wavefronts, [8, 8]);
    assert_eq!(cost.store_address_ops, [4, 0]);
    assert_eq!(cost.read_wavefronts, [128, 128]);
    assert_eq!(cost.read_bases, [4, 1]);
    assert_eq!(cost.fma_cycles, 256);
    // Exposed 8 + 8 + 4; the reads (256) hide under the FMAs (256).
    assert_eq!(
        (cost.exposed(), cost.unhidden_reads(), cost.cycles()),
        (20, 0, 20)
    );
}

#[test]
fn the_model_counts_the_padded_tile() {
    let cost = cost(&APadded::DESCRIPTOR);
    assert_eq!(cost.store_wavefronts, [16, 8]);
    assert_eq!(cost.store_address_ops, [2, 0]);
    assert_eq!(cost.read_wavefronts, [128, 128]);
    assert_eq!(cost.read_bases, [1, 1]);
    assert_eq!(
        (cost.exposed(), cost.unhidden_reads(), cost.cycles()),
        (26, 0, 26)
    );
}

#[test]
fn the_model_counts_the_plain_k_major_tile() {
    let cost = cost(&AColumns::DESCRIPTOR);
    assert_eq!(cost.store_wavefronts, [32, 8]);
    assert_eq!(cost.store_address_ops, [2, 0]);
    assert_eq!(cost.read_wavefronts, [128, 128]);
    assert_eq!(cost.read_bases, [1, 1]);
    assert_eq!(cost.cycles(), 42);
}

#[test]
fn the_model_counts_the_row_major_tile() {
    let cost = cost(&ARows::DESCRIPTOR);
    assert_eq!(cost.store_wavefronts, [8, 8]);
    assert_eq!(cost.store_address_ops, [0, 0]);
    assert_eq!(cost.read_wavefronts, [512, 128]);
    assert_eq!(cost.read_bases, [1, 1]);
    // Exposed 16; the reads, 640 wavefronts, pass the FMAs' 256 cycles by 384.
    assert_eq!(
        (cost.exposed(), cost.unhidden_reads(), cost.cycles()),
        (16, 384, 400)
    );
}

/// The model's order: swizzled, padded, plain, row-major (the GEMM bench times the same
/// tiles beside the model's cycles).
#[test]
fn the_model_ranks_the_tiles_by_their_cycles() {
    let tiles = [
        &GemmA::DESCRIPTOR,
        &APadded::DESCRIPTOR,
        &AColumns::DESCRIPTOR,
        &ARows::DESCRIPTOR,
    ];
    let mut ranked: Vec<(usize, &str)> = tiles
        .iter()
        .map(|tile| (cost(tile).cycles(), tile.name.as_ref()))
        .collect();
    ranked.sort();
    let names: Vec<&str> = ranked.iter().map(|&(_, name)| name).collect();
    assert_eq!(names, ["GemmA", "APadded", "AColumns", "ARows"]);
}
