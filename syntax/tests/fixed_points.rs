//! The reference interpreter against every fixed point of docs/semantics.md §3 and §5.

mod common;
use common::{LDS_A, layout};
use swizzle_core::CoordError;
use swizzle_core::ir::coordinates;

/// The 4×4 Morton table of CK Tile's Morton texture example, row y, column x.
const MORTON_4X4: [[usize; 4]; 4] = [[0, 1, 4, 5], [2, 3, 6, 7], [8, 9, 12, 13], [10, 11, 14, 15]];

fn assert_morton_4x4(source: &str) {
    let descriptor = layout(source);
    for (y, row) in MORTON_4X4.iter().enumerate() {
        for (x, &expected) in row.iter().enumerate() {
            assert_eq!(
                descriptor.offset(&[y, x]),
                Ok(expected),
                "({y}, {x}) in {source}"
            );
        }
    }
}

#[test]
fn morton_matches_ck_tiles_table() {
    assert_morton_4x4("layout M { memory [m: 16]; morton m -> [y: 4, x: 4]; coords [y, x]; }");
}

#[test]
fn morton_equals_ck_unmerge_merge_chain() {
    assert_morton_4x4(
        "layout M {
            memory [m: 16];
            unmerge m -> [y1: 2, x1: 2, y0: 2, x0: 2];
            merge [y1, y0] -> y;
            merge [x1, x0] -> x;
            coords [y, x];
        }",
    );
}

#[test]
fn morton_equals_cute_hierarchical_layout() {
    // CuTe ((2,2),(2,2)):((2,8),(1,4)): each mode's first sub-mode is its fastest digit.
    assert_morton_4x4(
        "layout M {
            memory [m: 16];
            embed m -> [y1: 2, y0: 2, x1: 2, x0: 2] strides [8, 2, 4, 1];
            merge [y1, y0] -> y;
            merge [x1, x0] -> x;
            coords [y, x];
        }",
    );
}

#[test]
fn morton_deals_bits_from_the_last_dim_and_skips_exhausted_dims() {
    // 3-D: z gets bit 2, y bit 1, x bit 0, then x and y alternate once z (length 2) is spent.
    let descriptor =
        layout("layout M { memory [m: 32]; morton m -> [z: 2, y: 4, x: 4]; coords [z, y, x]; }");
    assert_eq!(descriptor.offset(&[1, 0, 0]), Ok(0b100));
    assert_eq!(descriptor.offset(&[0, 1, 0]), Ok(0b010));
    assert_eq!(descriptor.offset(&[0, 0, 2]), Ok(0b01000));
    assert_eq!(descriptor.offset(&[0, 2, 0]), Ok(0b10000));
}

#[test]
fn merge_matches_ck_division_mod() {
    // Strides 100 and 10 make the merged digits readable in the offset.
    let two =
        layout("layout M { memory [a: 4, b: 5] strides [100, 1]; merge [a, b] -> u; coords [u]; }");
    assert_eq!(two.offset(&[0]), Ok(0));
    assert_eq!(two.offset(&[7]), Ok(102));
    assert_eq!(two.offset(&[19]), Ok(304));
    let three = layout(
        "layout M { memory [a: 2, b: 3, c: 4] strides [100, 10, 1]; merge [a, b, c] -> u; coords [u]; }",
    );
    assert_eq!(three.offset(&[23]), Ok(123));
    assert_eq!(three.offset(&[6]), Ok(12));
}

#[test]
fn pad_matches_ck() {
    let descriptor = layout("layout P { memory [l: 10]; pad l -> u (2, 3); coords [u]; }");
    assert_eq!(descriptor.shape(), vec![15]);
    assert_eq!(descriptor.offset(&[2]), Ok(0));
    assert_eq!(descriptor.offset(&[5]), Ok(3));
    assert_eq!(descriptor.offset(&[11]), Ok(9));
    let valid: Vec<usize> = (0..15).filter(|&u| descriptor.is_valid(&[u])).collect();
    assert_eq!(valid, (2..=11).collect::<Vec<_>>());
    assert!(matches!(
        descriptor.offset(&[1]),
        Err(CoordError::Padding { .. })
    ));
}

#[test]
fn left_padding_is_reported_as_padding_whatever_follows() {
    // The padded index wraps below zero; the row stride then overflows `usize` unless the
    // interpreter reports the padding first.
    let descriptor = layout("layout P { memory [r: 3, c: 10]; pad c -> x (2, 3); coords [r, x]; }");
    for r in 0..3 {
        assert_eq!(
            descriptor.offset(&[r, 1]),
            Err(CoordError::Padding {
                dim: "x".into(),
                value: 1
            })
        );
    }
    let split = layout(
        "layout P { memory [n: 12]; unmerge n -> [y: 3, xi: 4]; pad xi -> x (1, 2); coords [y, x]; }",
    );
    assert_eq!(
        split.offset(&[2, 0]),
        Err(CoordError::Padding {
            dim: "x".into(),
            value: 0
        })
    );
    assert_eq!(split.offset(&[2, 1]), Ok(8));
}

#[test]
fn embed_matches_ck() {
    let descriptor = layout(
        "layout E { memory [l: 19]; embed l -> [a: 4, b: 5] strides [2, 3]; coords [a, b]; }",
    );
    assert_eq!(descriptor.offset(&[1, 0]), Ok(2));
    assert_eq!(descriptor.offset(&[0, 1]), Ok(3));
    assert_eq!(descriptor.offset(&[2, 1]), Ok(7));
    assert_eq!(descriptor.offset(&[2, 2]), Ok(10));
    // The strided memory base is the same transform.
    let base = layout("layout E { memory [a: 4, b: 5] strides [2, 3]; coords [a, b]; }");
    assert_eq!(base.space(), Some(19));
    for coord in coordinates(&[4, 5]) {
        assert_eq!(base.offset(&coord), descriptor.offset(&coord));
    }
}

/// docs/semantics.md §5's closed form of ck_tile's LDS XOR preshuffle.
fn lds_closed_form(m: usize, k: usize) -> usize {
    let (l, kk, kpack) = (2, 32, 8);
    let k0 = kk / kpack;
    (m / l) * kk * l + ((((m % l) * k0 + k / kpack) ^ ((m / l) % (k0 * l))) * kpack) + k % kpack
}

#[test]
fn lds_xor_matches_the_closed_form_everywhere() {
    let descriptor = layout(LDS_A);
    for (m, k, expected) in [
        (0, 0, 0),
        (1, 0, 32),
        (2, 0, 72),
        (3, 5, 109),
        (64, 9, 2057),
        (127, 31, 4039),
    ] {
        assert_eq!(descriptor.offset(&[m, k]), Ok(expected), "({m}, {k})");
    }
    for coord in coordinates(&[128, 32]) {
        assert_eq!(
            descriptor.offset(&coord),
            Ok(lds_closed_form(coord[0], coord[1]))
        );
    }
}

#[test]
fn cute_swizzle_matches_its_formula() {
    // Swizzle<3,0,3> on 64 elements: bits 3..6 xor into bits 0..3.
    let descriptor = layout("layout S { memory [l: 64]; swizzle l -> u (3, 0, 3); coords [u]; }");
    for u in 0..64 {
        assert_eq!(descriptor.offset(&[u]), Ok(u ^ ((u & 0b111000) >> 3)));
    }
    // A negative shift moves the bits left instead.
    let left = layout("layout S { memory [l: 64]; swizzle l -> u (2, 1, -3); coords [u]; }");
    for u in 0..64 {
        assert_eq!(left.offset(&[u]), Ok(u ^ ((u & 0b110) << 3)));
    }
}

#[test]
fn bits_rows_worked_by_hand() {
    // Bit 0 = x ^ y, bit 1 = y: (0,0) → 0, (0,1) → 1, (1,0) → 0b11, (1,1) → 0b10.
    let gray = layout(
        "layout G { memory [n: 4]; bits n -> [y: 2, x: 2] (x[0] ^ y[0], y[0]); coords [y, x]; }",
    );
    let offsets: Vec<_> = coordinates(&[2, 2]).map(|c| gray.offset(&c)).collect();
    assert_eq!(offsets, [Ok(0), Ok(1), Ok(3), Ok(2)]);
    // A row may be 0, and a bit named twice cancels.
    let sparse = layout(
        "layout S { memory [n: 8]; bits n -> [x: 4] (x[1], 0, x[0] ^ x[1] ^ x[1]); replicate -> [r: 1]; coords [r, x]; }",
    );
    let offsets: Vec<_> = (0..4).map(|x| sparse.offset(&[0, x])).collect();
    assert_eq!(offsets, [Ok(0), Ok(4), Ok(1), Ok(5)]);
}

#[test]
fn bits_with_one_bit_per_row_is_ck_tiles_morton_table() {
    assert_morton_4x4(
        "layout M { memory [m: 16]; bits m -> [y: 4, x: 4] (x[0], y[0], x[1], y[1]); coords [y, x]; }",
    );
}

#[test]
fn bits_reproduces_the_lds_xor_closed_form() {
    // CK Tile's LDS XOR preshuffle, `xor k0l by mr`, as rows over (k0l, the low bits of
    // mr): the 6-bit index `z` holding mr's low bits below k0l's.
    let source = "layout LdsBits {
        memory [x: 8, mrh: 8, y: 8, k1: 8] strides [8, 512, 64, 1];
        merge [x, y] -> z;
        bits z -> [k0l: 8, mrl: 8] (
            mrl[0], mrl[1], mrl[2], k0l[0] ^ mrl[0], k0l[1] ^ mrl[1], k0l[2] ^ mrl[2]
        );
        unmerge k0l -> [l: 2, k0: 4];
        merge [mrh, mrl] -> mr;
        merge [mr, l] -> m;
        merge [k0, k1] -> k;
        coords [m, k];
    }";
    let descriptor = layout(source);
    for coord in coordinates(&[128, 32]) {
        assert_eq!(
            descriptor.offset(&coord),
            Ok(lds_closed_form(coord[0], coord[1])),
            "{coord:?}"
        );
    }
}

/// AMD-style texture tiling on a 32×64 surface: pipe bit 1 = y[4] ^ x[5] ^ x[4] (the
/// issue's example), the other bits interleaved, checked against the same formula written
/// with shifts and masks.
#[test]
fn bits_matches_a_texture_tiling_formula() {
    let descriptor = layout(
        "layout Tiled {
            memory [a: 2048];
            bits a -> [y: 32, x: 64] (
                x[0], y[0], x[1], y[1], x[2], y[2], x[3], y[3],
                x[4], y[4] ^ x[5] ^ x[4], x[5]
            );
            coords [y, x];
        }",
    );
    let bit = |v: usize, b: usize| (v >> b) & 1;
    for coord in coordinates(&[32, 64]) {
        let (y, x) = (coord[0], coord[1]);
        let mut expected = 0;
        for b in 0..4 {
            expected |= bit(x, b) << (2 * b) | bit(y, b) << (2 * b + 1);
        }
        expected |= bit(x, 4) << 8;
        expected |= (bit(y, 4) ^ bit(x, 5) ^ bit(x, 4)) << 9;
        expected |= bit(x, 5) << 10;
        assert_eq!(descriptor.offset(&coord), Ok(expected), "{coord:?}");
    }
}

#[test]
fn cyclic_shift_rotates_by_the_key() {
    // CK's cyclic shift, l1 = (u1 + u0) mod L1, worked by hand for L1 = 5.
    let shifted =
        layout("layout R { memory [u0: 8, l1: 5]; cyclic_shift l1 by u0; coords [u0, l1]; }");
    for (u0, u1, l1) in [
        (0, 0, 0),
        (1, 4, 0),
        (3, 4, 2),
        (7, 2, 4),
        (5, 0, 0),
        (6, 3, 4),
    ] {
        assert_eq!(shifted.offset(&[u0, u1]), Ok(u0 * 5 + l1), "({u0}, {u1})");
    }
    for coord in coordinates(&[8, 5]) {
        let (u0, u1) = (coord[0], coord[1]);
        assert_eq!(shifted.offset(&coord), Ok(u0 * 5 + (u1 + u0) % 5));
    }
}

#[test]
fn modulo_wraps_onto_its_dim() {
    // CK's modulo: l = u mod len(l); 10 indices onto 4.
    let wrapped = layout("layout W { memory [l: 4]; modulo l -> u (10); coords [u]; }");
    let offsets: Vec<_> = (0..10).map(|u| wrapped.offset(&[u])).collect();
    let expected: Vec<_> = [0, 1, 2, 3, 0, 1, 2, 3, 0, 1].into_iter().map(Ok).collect();
    assert_eq!(offsets, expected);
}

/// The last of several layouts given together (a composed one names those before it).
fn last_layout(source: &str) -> swizzle_core::ir::Descriptor {
    let mut checked = swizzle_syntax::layouts(source).unwrap_or_else(|e| panic!("{e}\n{source}"));
    checked.pop().expect("a layout").descriptor
}

#[test]
fn over_composes_as_cute_does() {
    // CuTe's layout algebra: (6,2):(8,2) ∘ (4,3):(3,1) = ((2,2),3):((24,2),8). `A` takes a
    // colexicographic index i = a0 + 6·a1 to 8·a0 + 2·a1; `B` sends (b0, b1) to i = 3·b0 + b1.
    let composed = last_layout(
        "layout A { memory [n: 43]; embed n -> [a1: 2, a0: 6] strides [2, 8];
                    merge [a1, a0] -> i; coords [i]; }
         layout B { over A; unmerge i -> [b0: 4, b1: 3]; coords [b0, b1]; }",
    );
    for coord in coordinates(&[4, 3]) {
        let (b0, b1) = (coord[0], coord[1]);
        let expected = 24 * (b0 % 2) + 2 * (b0 / 2) + 8 * b1;
        assert_eq!(composed.offset(&coord), Ok(expected), "{coord:?}");
    }
}

#[test]
fn over_tiles_a_layout_into_tiles_and_places_in_them() {
    // CK Tile's LDS tile split into 16×8 tiles (CuTe's zipped divide): the offset of
    // (tile, place) is the base's offset of the coordinate they make.
    let tiles = last_layout(&format!(
        "{LDS_A}
         layout Tiles {{
             over LdsA [m, k];
             unmerge m -> [tm: 8, im: 16];
             unmerge k -> [tk: 4, ik: 8];
             coords [tm, tk, im, ik];
         }}"
    ));
    for coord in coordinates(&[8, 4, 16, 8]) {
        let (m, k) = (coord[0] * 16 + coord[2], coord[1] * 8 + coord[3]);
        assert_eq!(tiles.offset(&coord), Ok(lds_closed_form(m, k)), "{coord:?}");
    }
}

#[test]
fn slice_offset_freeze_and_replicate() {
    let descriptor = layout(
        "layout T {
            memory [a: 4, b: 10, c: 3];
            slice b -> s (2..7);
            offset a -> o (+1);
            freeze c = 2;
            replicate -> [r: 5];
            coords [o, s, r];
        }",
    );
    assert_eq!(descriptor.shape(), vec![3, 5, 5]);
    // offset = (o + 1)·30 + (s + 2)·3 + 2, whatever r.
    for coord in coordinates(&[3, 5, 5]) {
        assert_eq!(
            descriptor.offset(&coord),
            Ok((coord[0] + 1) * 30 + (coord[1] + 2) * 3 + 2)
        );
    }
}

#[test]
fn the_interpreter_reports_bad_coordinates() {
    let descriptor = layout(LDS_A);
    assert_eq!(
        descriptor.offset(&[1]),
        Err(CoordError::Rank {
            expected: 2,
            found: 1
        })
    );
    assert_eq!(
        descriptor.offset(&[128, 0]),
        Err(CoordError::OutOfBounds {
            dim: "m".into(),
            value: 128,
            len: 128
        })
    );
}
