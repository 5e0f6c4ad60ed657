//! The analyses of `swizzle_core::analysis` against cases computed by hand from their sources
//! (docs/semantics.md, "Sources").

mod common;

use common::{LDS_A, MORTON_TEXTURE, layout};
use std::collections::BTreeMap;
use std::time::Duration;
use swizzle_core::analysis::{
    Access, AccessError, BankConflict, Banks, Coalescing, LaneExpr, Locality, Touch, Transactions,
    bank_conflicts, bank_of, locality, transactions, vector_width,
};
use swizzle_core::ir::Descriptor;

fn lane() -> LaneExpr {
    LaneExpr::lane()
}

// ---------------------------------------------------------------------------------------
// Bank conflicts
// ---------------------------------------------------------------------------------------

/// CK Tile's analyser (its Morton texture example and LDS index swapping): every lane's offset
/// counts once in its bank, with no phases and no broadcast.
fn ck_tile_count(layout: &Descriptor, access: &Access) -> usize {
    let mut per_bank = [0usize; 32];
    for touch in access.touches(layout).unwrap() {
        per_bank[bank_of(touch.offset, access.element_bytes, Banks::default())] += 1;
    }
    per_bank.into_iter().max().unwrap()
}

fn degree(layout: &Descriptor, access: &Access) -> usize {
    bank_conflicts(layout, access, Banks::default())
        .unwrap()
        .degree
}

/// The `morton_decode_2d<2>(tid % 16)` of CK Tile's Morton texture example: y takes the odd
/// bits, x the even bits.
fn morton_decode(t: LaneExpr) -> (LaneExpr, LaneExpr) {
    let y = (t.clone() >> 1 & 1) | (t.clone() >> 3 & 1) << 1;
    let x = (t.clone() & 1) | (t >> 2 & 1) << 1;
    (y, x)
}

#[test]
fn bank_of_is_the_words_bank() {
    let banks = Banks::default();
    assert_eq!(bank_of(0, 4, banks), 0);
    assert_eq!(bank_of(31, 4, banks), 31);
    assert_eq!(bank_of(32, 4, banks), 0);
    // fp16: two elements per 4-byte word.
    assert_eq!(bank_of(3, 2, banks), 1);
    assert_eq!(bank_of(64, 2, banks), 0);
    // 8 banks of 8 bytes.
    let wide = Banks {
        count: 8,
        width_bytes: 8,
    };
    assert_eq!(bank_of(9, 4, wide), 4);
    // Degenerate configurations do not panic.
    let zero = Banks {
        count: 0,
        width_bytes: 0,
    };
    assert_eq!(bank_of(usize::MAX, usize::MAX, zero), 0);
}

/// CK Tile's Morton texture example, "Bank Conflict Analysis for 4x4 Tile Access", 32 lanes of
/// 4-byte floats. Row-major: lane t reads offset (t/4)·4 + t%4 = t, banks 0..31: 1-way.
/// Morton: lane t reads the row-major offset of `morton_decode(t % 16)`, a permutation of
/// 0..16 for lanes 0..16 that lanes 16..32 repeat, so CK Tile counts 2 accesses in banks
/// 0..16: "2-way". The second read of each word is a broadcast, so our degree is 1.
#[test]
fn ck_tile_morton_row_major_and_morton_4x4() {
    let tiles = layout("layout T { memory [t: 2, y: 4, x: 4]; coords [t, y, x]; }");
    let row_major = Access::new("row_major", 32, 4)
        .coord("t", lane() / 16)
        .coord("y", lane() % 16 / 4)
        .coord("x", lane() % 4);
    let offsets: Vec<usize> = row_major
        .touches(&tiles)
        .unwrap()
        .iter()
        .map(|t| t.offset)
        .collect();
    assert_eq!(offsets, (0..32).collect::<Vec<_>>());
    assert_eq!(ck_tile_count(&tiles, &row_major), 1);
    assert_eq!(degree(&tiles, &row_major), 1);

    let tile = layout("layout T { memory [y: 4, x: 4]; coords [y, x]; }");
    let (y, x) = morton_decode(lane() % 16);
    let morton = Access::new("morton", 32, 4).coord("y", y).coord("x", x);
    let offsets: Vec<usize> = morton
        .touches(&tile)
        .unwrap()
        .iter()
        .map(|t| t.offset)
        .take(8)
        .collect();
    // The inverse of CK Tile's Morton table: Morton index t sits at row-major offset …
    assert_eq!(offsets, [0, 1, 4, 5, 2, 3, 6, 7]);
    assert_eq!(ck_tile_count(&tile, &morton), 2);
    let report = bank_conflicts(&tile, &morton, Banks::default()).unwrap();
    assert_eq!((report.degree, report.phases, report.worst), (1, 1, None));
    // One phase, conflict-free: one pass of the banks.
    assert_eq!(report.wavefronts, 1);

    // The layout itself in Morton order, read by 16 lanes row by row: a permutation again.
    let morton_tile =
        layout("layout M { memory [m: 16]; morton m -> [y: 4, x: 4]; coords [y, x]; }");
    let rows = Access::new("rows", 16, 4)
        .coord("y", lane() / 4)
        .coord("x", lane() % 4);
    assert_eq!(ck_tile_count(&morton_tile, &rows), 1);
    assert_eq!(degree(&morton_tile, &rows), 1);
}

/// With distinct words per lane, the degree equals CK Tile's per-bank count. Lane t reads
/// float t·s: bank (t·s) % 32, so the degree is gcd(s, 32) (s = 0 is the broadcast below).
#[test]
fn distinct_addresses_agree_with_ck_tiles_analyser() {
    let line = layout("layout L { memory [i: 1024]; coords [i]; }");
    for stride in 1..=32i128 {
        let access = Access::new("strided", 32, 4).coord("i", lane() * stride);
        let expected = (1..=32).filter(|d| 32 % d == 0 && stride % d == 0).max();
        assert_eq!(Some(degree(&line, &access)), expected.map(|d| d as usize));
        assert_eq!(degree(&line, &access), ck_tile_count(&line, &access));
    }
}

#[test]
fn broadcast_is_conflict_free() {
    let line = layout("layout L { memory [i: 1024]; coords [i]; }");
    let same_word = Access::new("broadcast", 32, 4).coord("i", LaneExpr::from(7));
    let report = bank_conflicts(&line, &same_word, Banks::default()).unwrap();
    assert_eq!((report.degree, report.worst), (1, None));
    assert_eq!(ck_tile_count(&line, &same_word), 32);
    // fp16: lanes 2j and 2j+1 share a word; 64 halves are 32 distinct words.
    let halves = Access::new("halves", 64, 2).coord("i", lane());
    assert_eq!(degree(&line, &halves), 1);
    // Two lanes on two words of one bank are a conflict, however many lanes share them.
    let two_words = Access::new("two", 32, 4).coord("i", lane() / 16 * 32);
    assert_eq!(degree(&line, &two_words), 2);
}

/// CK Tile's LDS XOR preshuffle (docs/semantics.md §5): the LdsA tile (fp16, M=128, K=32,
/// KPack=8) read as an MFMA A operand: 64 lanes, lane l reads the 8×fp16 KPack vector at
/// m = l % 32, k = l / 32 · 8. A 16-byte read per lane means phases of 128 / 16 = 8 lanes:
/// 8 consecutive rows, one k.
///
/// Row-major `[m: 128, k: 32]`: a row is 64 bytes = 16 banks, so row m starts at bank
/// 16·(m % 2): rows 0, 2, 4, 6 all read banks 0..4 (4 distinct words each) → 4-way.
///
/// LdsA: offset = (m/2)·64 + ((m%2·4 + k/8) ^ (m/2 % 8))·8 + k%8; (m/2)·64 halves are
/// 128 bytes, a whole bank cycle, so the 4-bank group of row m is (m%2·4 + k/8) ^ (m/2 % 8)
/// mod 8. For k = 0 and m = 0..8 that is 0, 4, 1, 5, 2, 6, 3, 7: all 8 groups, each once.
#[test]
fn lds_xor_is_conflict_free_for_its_mfma_read() {
    let read = Access::new("mfma_a", 64, 2)
        .vector(8, Some("k"))
        .coord("m", lane() % 32)
        .coord("k", lane() / 32 * 8);
    let lds = layout(LDS_A);
    let report = bank_conflicts(&lds, &read, Banks::default()).unwrap();
    assert_eq!((report.degree, report.phases, report.worst), (1, 8, None));
    // 8 phases of 8 lanes (16 bytes each), each conflict-free: 8 passes.
    assert_eq!(report.wavefronts, 8);

    let row_major = layout("layout R { memory [m: 128, k: 32]; coords [m, k]; }");
    let report = bank_conflicts(&row_major, &read, Banks::default()).unwrap();
    assert_eq!((report.degree, report.phases), (4, 8));
    // Rows are 64 bytes (16 words) apart, so in each phase's 8 rows the even ones share
    // banks 0–3 and the odd ones 16–19: 4 words a bank, 4 passes a phase, 32 in all.
    assert_eq!(report.wavefronts, 32);
    let touch = |m: usize| Touch {
        lane: m,
        coord: vec![m, 0],
        offset: m * 32,
    };
    assert_eq!(
        report.worst,
        Some(BankConflict {
            phase: 0,
            bank: 0,
            touches: vec![touch(0), touch(2), touch(4), touch(6)],
        })
    );
}

/// CuTe `Swizzle<3,0,3>` on an 8×8 tile: offset = r·8 + (c ^ r). Column j read by 8 lanes
/// (lane r reads (r, j)).
/// - 4-byte elements, 32 banks: a row is 8 banks, row r starts at bank 8·(r % 4), so rows r
///   and r+4 collide: 2-way plain; swizzled, rows r and r+4 differ in bit 2 of c ^ r: 1-way.
/// - 16-byte elements (8×fp16 vectors, the unit CuTe swizzles in), or 8 banks of 4 bytes:
///   a row spans all banks, so the whole column sits in one bank: 8-way plain; swizzled, the
///   column visits every bank once: 1-way.
#[test]
fn cute_swizzle_3_0_3_on_8x8() {
    let plain = layout("layout P { memory [n: 64]; unmerge n -> [r: 8, c: 8]; coords [r, c]; }");
    let swizzled = layout(
        "layout S { memory [n: 64]; swizzle n -> s (3, 0, 3); unmerge s -> [r: 8, c: 8]; coords [r, c]; }",
    );
    let eight_banks = Banks {
        count: 8,
        width_bytes: 4,
    };
    for j in 0..8i128 {
        let column = |bytes| {
            Access::new("column", 8, bytes)
                .coord("r", lane())
                .coord("c", LaneExpr::from(j))
        };
        let conflicts = |layout, bytes, banks| {
            bank_conflicts(layout, &column(bytes), banks)
                .unwrap()
                .degree
        };
        assert_eq!(conflicts(&plain, 4, Banks::default()), 2);
        assert_eq!(conflicts(&swizzled, 4, Banks::default()), 1);
        assert_eq!(conflicts(&plain, 16, Banks::default()), 8);
        assert_eq!(conflicts(&swizzled, 16, Banks::default()), 1);
        assert_eq!(conflicts(&plain, 4, eight_banks), 8);
        assert_eq!(conflicts(&swizzled, 4, eight_banks), 1);
    }
}

/// 64-bit accesses are split into half-warp phases (32 banks × 4 B = 128 B = 16 lanes × 8 B):
/// lanes 0 and 16 reading words 0 and 32 (both bank 0) do not conflict.
#[test]
fn wide_accesses_are_split_into_phases() {
    let line = layout("layout L { memory [i: 1024]; coords [i]; }");
    let doubles = Access::new("f64", 32, 8).coord("i", lane());
    let report = bank_conflicts(&line, &doubles, Banks::default()).unwrap();
    assert_eq!((report.degree, report.phases), (1, 2));
    let pairs = Access::new("f32x2", 32, 4)
        .vector(2, None)
        .coord("i", lane() * 2);
    assert_eq!(
        bank_conflicts(&line, &pairs, Banks::default())
            .unwrap()
            .phases,
        2
    );
    // Lanes 0..16 each read a different double of bank 0 (and 1): 16-way in phase 0.
    let strided = Access::new("f64", 32, 8).coord("i", lane() % 16 * 16);
    let report = bank_conflicts(&line, &strided, Banks::default()).unwrap();
    assert_eq!(report.degree, 16);
    let worst = report.worst.unwrap();
    assert_eq!((worst.phase, worst.bank), (0, 0));
    assert_eq!(worst.touches.len(), 16);
}

#[test]
fn bad_accesses_are_errors_not_panics() {
    let line = layout("layout L { memory [i: 16]; coords [i]; }");
    let outside = Access::new("outside", 32, 4).coord("i", lane());
    assert!(matches!(
        bank_conflicts(&line, &outside, Banks::default()),
        Err(AccessError::Outside { lane: 16, .. })
    ));
    let missing = Access::new("missing", 32, 4);
    assert_eq!(
        bank_conflicts(&line, &missing, Banks::default()),
        Err(AccessError::MissingCoord("i".into()))
    );
    let divide =
        Access::new("divide", 4, 4).coord("i", (lane() + 1) / (LaneExpr::from(2) - lane()));
    assert!(matches!(
        bank_conflicts(&line, &divide, Banks::default()),
        Err(AccessError::Eval { lane: 2, .. })
    ));
    let overflow = Access::new("overflow", 1, 4)
        .vector(2, None)
        .coord("i", LaneExpr::from(u64::MAX as i128));
    assert!(bank_conflicts(&line, &overflow, Banks::default()).is_err());
    let nothing = Access::new("nothing", 0, 4).coord("i", lane());
    let report = bank_conflicts(&line, &nothing, Banks::default()).unwrap();
    assert_eq!((report.degree, report.phases), (0, 0));
}

// ---------------------------------------------------------------------------------------
// Global-memory transactions
// ---------------------------------------------------------------------------------------

const LINE: &str = "layout L { memory [i: 4096]; coords [i]; }";

/// (transactions, transferred bytes) of `access` under each model: 1.1, 1.3, sectors.
fn costs(layout: &Descriptor, access: &Access) -> [(usize, usize); 3] {
    [Coalescing::Cc11, Coalescing::Cc13, Coalescing::Sectors32].map(|model| {
        let t = transactions(layout, access, model).unwrap();
        (t.transactions, t.transferred_bytes)
    })
}

/// A warp of 32 lanes reading 32 consecutive aligned floats (128 B). The paper's rules are
/// per half-warp: on 1.1 each half-warp is coalesced into one 64-byte transaction (2 per
/// warp); on 1.3 each half-warp's 128-byte segment is only half used and shrinks to 64 B (2
/// per warp, 128 B); current GPUs move 4 sectors of 32 B.
#[test]
fn a_coalesced_warp() {
    let line = layout(LINE);
    let access = Access::new("warp", 32, 4).coord("i", lane());
    assert_eq!(costs(&line, &access), [(2, 128), (2, 128), (4, 128)]);
    let t = transactions(&line, &access, Coalescing::Cc13).unwrap();
    assert_eq!(
        t,
        Transactions {
            requested_bytes: 128,
            transactions: 2,
            transferred_bytes: 128
        }
    );
    assert_eq!(t.efficiency(), 1.0);
    // Half a warp: absent lanes do not break 1.1 coalescing.
    let half = Access::new("half", 8, 4).coord("i", lane());
    assert_eq!(costs(&line, &half), [(1, 64), (1, 32), (1, 32)]);
}

/// Lane i reads float i + 1: bytes 4..132.
/// - 1.1: the half-warps' segments would start at bytes 4 and 68, not 64-byte aligned:
///   16 transactions of 32 B each, 32 per warp.
/// - 1.3: half-warp 0 uses bytes 4..68 of segment 0..128 (both halves): 128 B; half-warp 1
///   uses 68..128 (upper half: 64 B) and 128..132 (lower quarter: 32 B). 3 transactions.
/// - sectors: 32-byte sectors 0..5: 5.
#[test]
fn a_misaligned_warp() {
    let line = layout(LINE);
    let access = Access::new("shifted", 32, 4).coord("i", lane() + 1);
    assert_eq!(
        costs(&line, &access),
        [(32, 1024), (3, 128 + 64 + 32), (5, 160)]
    );
}

/// Lane i reads float s·i.
/// - s = 2: 1.1 uncoalesced (32 × 32 B); 1.3: each half-warp spans 124 bytes of one segment,
///   128 B each; sectors: 256 bytes = 8 sectors.
/// - s = 32 (128 B apart): every lane its own segment, reduced to 32 B on 1.3: 32 × 32 B in
///   all models.
#[test]
fn strided_warps() {
    let line = layout(LINE);
    let stride = |s: i128| Access::new("strided", 32, 4).coord("i", lane() * s);
    assert_eq!(costs(&line, &stride(2)), [(32, 1024), (2, 256), (8, 256)]);
    assert_eq!(costs(&line, &stride(32)), [(32, 1024); 3]);
}

/// 1.1 needs lane k on word k; 1.3 takes any order within the segment: swapping two lanes,
/// or every lane reading the same word, costs 16 transactions per half-warp on 1.1 and one
/// (reduced to 64 B, and to 32 B for the broadcast) on 1.3.
#[test]
fn order_matters_on_1_1_only() {
    let line = layout(LINE);
    let swapped = Access::new("swapped", 16, 4).coord("i", lane() ^ 1);
    assert_eq!(costs(&line, &swapped), [(16, 512), (1, 64), (2, 64)]);
    let broadcast = Access::new("broadcast", 16, 4).coord("i", LaneExpr::from(5));
    assert_eq!(costs(&line, &broadcast), [(16, 512), (1, 32), (1, 32)]);
}

/// The 1.3 segment size depends on the word size: 16 lanes reading consecutive 2-byte
/// words use 32 bytes of a 64-byte segment (reduced to 32 B); 1-byte words, 16 bytes of a
/// 32-byte segment. The paper's 1.1 rule: a segment of 16 words, at least 32 B moved.
#[test]
fn word_sizes() {
    let line = layout(LINE);
    for bytes in [1, 2] {
        let access = Access::new("narrow", 16, bytes).coord("i", lane());
        assert_eq!(costs(&line, &access), [(1, 32); 3]);
    }
    // Lanes 32 bytes apart with 2-byte words: 16 lanes over 512 bytes = 8 segments of 64 B
    // on 1.3, each with 2 lanes 32 B apart (both halves): 8 × 64 B.
    let spread = Access::new("spread", 16, 2).coord("i", lane() * 16);
    assert_eq!(costs(&line, &spread)[1], (8, 512));
}

/// Lane i reads floats 4i..4i+4 as one 16-byte word (a float4 load). 1.1: each half-warp's
/// 256-byte segment in two 128-byte transactions (the CUDA guide's rule for 16-byte words);
/// 1.3: two 128-byte segments per half-warp; sectors: 512 B = 16.
#[test]
fn vector_loads_are_one_word_per_lane() {
    let line = layout(LINE);
    let float4 = Access::new("float4", 32, 4)
        .vector(4, None)
        .coord("i", lane() * 4);
    assert_eq!(costs(&line, &float4), [(4, 512), (4, 512), (16, 512)]);
}

/// A vector that is not contiguous in memory is one instruction per element: a column-major
/// tile read with 4-wide vectors along x is 4 loads of 32 consecutive floats.
#[test]
fn scattered_vectors_are_split_into_elements() {
    let column_major = layout("layout C { memory [x: 4, y: 32]; coords [y, x]; }");
    let access = Access::new("rows", 32, 4)
        .vector(4, Some("x"))
        .coord("y", lane())
        .coord("x", LaneExpr::from(0));
    assert_eq!(
        costs(&column_major, &access),
        [(8, 512), (8, 512), (16, 512)]
    );
    assert_eq!(
        transactions(&column_major, &access, Coalescing::Cc11)
            .unwrap()
            .requested_bytes,
        512
    );
    let outside = Access::new("outside", 32, 4).coord("y", lane());
    assert_eq!(
        transactions(&column_major, &outside, Coalescing::Cc13),
        Err(AccessError::MissingCoord("x".into()))
    );
}

/// The volume of Nocentino and Rhodes' paper, one 4×4 thread block (16 threads, one half-warp)
/// per slice. Linear: 4 rows of 16 B, 256 floats apart: uncoalesced on 1.1 (16 × 32 B), 4
/// segments of 32 B on 1.3. Morton: the block is 16 contiguous floats: one 64-byte transaction
/// on both.
#[test]
fn paper_block_4x4() {
    let linear = layout("layout V { memory [z: 2, y: 256, x: 256]; coords [z, y, x]; }");
    let morton = layout(
        "layout V { memory [n: 131072]; unmerge n -> [z: 2, m: 65536]; morton m -> [y: 256, x: 256]; coords [z, y, x]; }",
    );
    let (dy, dx) = morton_decode(lane());
    let block = |dy: LaneExpr, dx: LaneExpr| {
        Access::new("block", 16, 4)
            .coord("z", LaneExpr::from(1))
            .coord("y", dy + 8)
            .coord("x", dx + 12)
    };
    let rows = block(lane() / 4, lane() % 4);
    assert_eq!(costs(&linear, &rows)[..2], [(16, 512), (4, 128)]);
    assert_eq!(costs(&morton, &block(dy, dx))[..2], [(1, 64), (1, 64)]);
}

// ---------------------------------------------------------------------------------------
// Locality and contiguity
// ---------------------------------------------------------------------------------------

fn histogram(pairs: &[(usize, usize)]) -> BTreeMap<usize, usize> {
    pairs.iter().copied().collect()
}

/// The "Morton Order Spatial Locality Analysis" of a 4×4 tile in CK Tile's Morton texture
/// example: the 15 steps between consecutive Morton indices are 8 of distance 1, 6 of distance
/// 2 and one of distance 4 (7 → 8, (1,3) → (2,0)). Row-major: 12 steps of 1 and 3 row jumps of
/// 1 + 3 = 4. Both 64-byte float tiles lie in one 128-byte line (CK Tile counts row-major as 4
/// lines because it counts one line per row, however short).
#[test]
fn ck_tile_morton_locality_4x4() {
    let morton = layout("layout M { memory [m: 16]; morton m -> [y: 4, x: 4]; coords [y, x]; }");
    let row_major = layout("layout R { memory [y: 4, x: 4]; coords [y, x]; }");
    assert_eq!(
        locality(&morton, 4, 128),
        Locality {
            distances: histogram(&[(1, 8), (2, 6), (4, 1)]),
            cache_lines: 1
        }
    );
    assert_eq!(
        locality(&row_major, 4, 128),
        Locality {
            distances: histogram(&[(1, 12), (4, 3)]),
            cache_lines: 1
        }
    );
    // 16-byte lines hold 4 floats: 4 lines either way, a row of row-major or a 2×2 quad
    // pair of Morton.
    assert_eq!(locality(&morton, 4, 16).cache_lines, 4);
}

/// CK Tile's Morton texture example, an 8×8 texture of 4×4 Morton tiles: four tiles of
/// (8, 6, 1) steps of 1, 2, 4, and the tile changes 15 → 16 ((3,3) → (0,4): 4), 31 → 32
/// ((3,7) → (4,0): 8) and 47 → 48 ((7,3) → (4,4): 4).
#[test]
fn ck_tile_locality_of_the_tiled_texture() {
    let texture = layout(MORTON_TEXTURE);
    assert_eq!(
        locality(&texture, 4, 128).distances,
        histogram(&[(1, 32), (2, 24), (4, 6), (8, 1)])
    );
}

/// Cache lines count the lines the elements lie in, not the span: rows of 4 floats 256 B
/// apart touch 4 lines of 128 B, the dense tile 1.
#[test]
fn sparse_layouts_touch_more_lines() {
    let sparse = layout("layout S { memory [y: 4, x: 4] strides [64, 1]; coords [y, x]; }");
    assert_eq!(locality(&sparse, 4, 128).cache_lines, 4);
    // Padding is skipped: the 10 valid coordinates of 15 are 40 bytes, 3 lines of 16 B (a
    // line size of 0 is read as 1 byte: one line per element's first byte).
    let padded = layout("layout P { memory [l: 10]; pad l -> u (2, 3); coords [u]; }");
    let expected = |cache_lines| Locality {
        distances: histogram(&[(1, 9)]),
        cache_lines,
    };
    assert_eq!(locality(&padded, 4, 16), expected(3));
    assert_eq!(locality(&padded, 4, 0), expected(10));
}

/// Row-major: the whole row when its length is a power of two, else the largest power of
/// two whose aligned runs stay inside the row (len 6: run 4..8 leaves it, runs of 2 do not).
/// Morton 4×4: (y, 0) and (y, 1) are adjacent, (y, 2) is 4 further on: 2. LdsA: one KPack
/// vector of 8 fp16 is contiguous, the next one is XOR-shuffled: 8. Swizzle<3,0,3>: row 1
/// is stored as 9, 8, 11, 10, …: out of order, 1. Padding breaks runs: 1.
#[test]
fn vector_widths() {
    let width = |source: &str| vector_width(&layout(source));
    assert_eq!(width("layout R { memory [y: 4, x: 8]; coords [y, x]; }"), 8);
    assert_eq!(width("layout R { memory [y: 4, x: 6]; coords [y, x]; }"), 2);
    assert_eq!(
        width("layout M { memory [m: 16]; morton m -> [y: 4, x: 4]; coords [y, x]; }"),
        2
    );
    assert_eq!(width(LDS_A), 8);
    assert_eq!(
        width(
            "layout S { memory [n: 64]; swizzle n -> s (3, 0, 3); unmerge s -> [r: 8, c: 8]; coords [r, c]; }"
        ),
        1
    );
    assert_eq!(
        width("layout C { memory [x: 4, y: 32]; coords [y, x]; }"),
        1
    );
    assert_eq!(
        width("layout P { memory [y: 4, p: 8]; pad p -> x (1, 1); coords [y, x]; }"),
        1
    );
    assert_eq!(
        width("layout P { memory [y: 4, p: 8]; pad p -> x (0, 0); coords [y, x]; }"),
        8
    );
}

// ---------------------------------------------------------------------------------------
// Budgets: no access or layout makes an analysis run away
// ---------------------------------------------------------------------------------------

/// An access built at run time past the budgets is an error, at once: before the budgets a
/// 1 GiB element took minutes and gigabytes.
#[test]
fn accesses_past_the_budgets_are_refused() {
    let tile = layout("layout T { memory [m: 64, k: 64]; coords [m, k]; }");
    let huge_elements = Access::new("Huge", 32, 1 << 30)
        .coord("m", lane())
        .coord("k", 0);
    let error = common::within(Duration::from_secs(10), "1 GiB elements", move || {
        bank_conflicts(&tile, &huge_elements, Banks::default())
    });
    assert!(
        matches!(
            error,
            Err(AccessError::OverBudget {
                what: "bank words",
                ..
            })
        ),
        "{error:?}"
    );
    let tile = layout("layout T { memory [m: 64, k: 64]; coords [m, k]; }");
    let many_lanes = Access::new("Wide", 1 << 20, 4)
        .coord("m", lane() % 64)
        .coord("k", 0);
    assert!(matches!(
        many_lanes.touches(&tile),
        Err(AccessError::OverBudget {
            what: "elements",
            ..
        })
    ));
}

/// A row longer than the analysis budget is evaluated up to the budget, and the width it
/// claims still divides the row: 10^8 = 2^8 · 5^8.
#[test]
fn vector_width_of_a_row_past_the_budget() {
    let wide = layout("layout W { memory [a: 1, b: 100000000]; coords [a, b]; }");
    let width = common::within(Duration::from_secs(20), "a row of 10^8", move || {
        vector_width(&wide)
    });
    assert_eq!(width, 256);
}
