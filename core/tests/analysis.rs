//! The analyses of `swizzle_core::analysis` against cases computed by hand from the seeds.

mod common;

use common::{LDS_A, layout};
use swizzle_core::analysis::{
    Access, AccessError, BankConflict, Banks, LaneExpr, Touch, bank_conflicts, bank_of,
};

fn lane() -> LaneExpr {
    LaneExpr::lane()
}

// ---------------------------------------------------------------------------------------
// Bank conflicts
// ---------------------------------------------------------------------------------------

/// The seeds' analyser (000 and 003): every lane's offset counts once in its bank, with no
/// phases and no broadcast.
fn seed_count_analyser(layout: &swizzle_core::ir::Descriptor, access: &Access) -> usize {
    let mut per_bank = [0usize; 32];
    for touch in access.touches(layout).unwrap() {
        per_bank[bank_of(touch.offset, access.element_bytes, Banks::default())] += 1;
    }
    per_bank.into_iter().max().unwrap()
}

fn degree(layout: &swizzle_core::ir::Descriptor, access: &Access) -> usize {
    bank_conflicts(layout, access, Banks::default())
        .unwrap()
        .degree
}

/// Seed 000's `morton_decode_2d<2>(tid % 16)`: y takes the odd bits, x the even bits.
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

/// Seed 000, "Bank Conflict Analysis for 4x4 Tile Access", 32 lanes of 4-byte floats.
/// Row-major: lane t reads offset (t/4)·4 + t%4 = t, banks 0..31: 1-way. Morton: lane t
/// reads the row-major offset of `morton_decode(t % 16)`, a permutation of 0..16 for lanes
/// 0..16 that lanes 16..32 repeat, so the seed counts 2 accesses in banks 0..16: "2-way".
/// The second read of each word is a broadcast, so our degree is 1.
#[test]
fn seed_000_row_major_and_morton_4x4() {
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
    assert_eq!(seed_count_analyser(&tiles, &row_major), 1);
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
    // The inverse of seed 000's table: Morton index t sits at row-major offset …
    assert_eq!(offsets, [0, 1, 4, 5, 2, 3, 6, 7]);
    assert_eq!(seed_count_analyser(&tile, &morton), 2);
    let report = bank_conflicts(&tile, &morton, Banks::default()).unwrap();
    assert_eq!((report.degree, report.phases, report.worst), (1, 1, None));

    // The layout itself in Morton order, read by 16 lanes row by row: a permutation again.
    let morton_tile =
        layout("layout M { memory [m: 16]; morton m -> [y: 4, x: 4]; coords [y, x]; }");
    let rows = Access::new("rows", 16, 4)
        .coord("y", lane() / 4)
        .coord("x", lane() % 4);
    assert_eq!(seed_count_analyser(&morton_tile, &rows), 1);
    assert_eq!(degree(&morton_tile, &rows), 1);
}

/// With distinct words per lane, the degree equals the seeds' per-bank count. Lane t reads
/// float t·s: bank (t·s) % 32, so the degree is gcd(s, 32) (s = 0 is the broadcast below).
#[test]
fn distinct_addresses_agree_with_the_seed_analyser() {
    let line = layout("layout L { memory [i: 1024]; coords [i]; }");
    for stride in 1..=32i128 {
        let access = Access::new("strided", 32, 4).coord("i", lane() * stride);
        let expected = (1..=32).filter(|d| 32 % d == 0 && stride % d == 0).max();
        assert_eq!(Some(degree(&line, &access)), expected.map(|d| d as usize));
        assert_eq!(degree(&line, &access), seed_count_analyser(&line, &access));
    }
}

#[test]
fn broadcast_is_conflict_free() {
    let line = layout("layout L { memory [i: 1024]; coords [i]; }");
    let same_word = Access::new("broadcast", 32, 4).coord("i", LaneExpr::from(7));
    let report = bank_conflicts(&line, &same_word, Banks::default()).unwrap();
    assert_eq!((report.degree, report.worst), (1, None));
    assert_eq!(seed_count_analyser(&line, &same_word), 32);
    // fp16: lanes 2j and 2j+1 share a word; 64 halves are 32 distinct words.
    let halves = Access::new("halves", 64, 2).coord("i", lane());
    assert_eq!(degree(&line, &halves), 1);
    // Two lanes on two words of one bank are a conflict, however many lanes share them.
    let two_words = Access::new("two", 32, 4).coord("i", lane() / 16 * 32);
    assert_eq!(degree(&line, &two_words), 2);
}

/// Seed 003 / DESIGN §2.5: the LdsA tile (fp16, M=128, K=32, KPack=8) read as an MFMA A
/// operand: 64 lanes, lane l reads the 8×fp16 KPack vector at m = l % 32, k = l / 32 · 8.
/// A 16-byte read per lane means phases of 128 / 16 = 8 lanes: 8 consecutive rows, one k.
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

    let row_major = layout("layout R { memory [m: 128, k: 32]; coords [m, k]; }");
    let report = bank_conflicts(&row_major, &read, Banks::default()).unwrap();
    assert_eq!((report.degree, report.phases), (4, 8));
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
