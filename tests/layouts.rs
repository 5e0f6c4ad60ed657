//! Layouts compiled by rustc: the generated `offset`, `coord` and `is_valid` against the
//! reference interpreter on every coordinate, in const context, and through the traits.

use swizzle::ir::coordinates;
use swizzle::{Bijective, CoordError, Layout};

/// Constants named like dims of `Unusual`: the generated locals must not be read as
/// patterns on them.
#[allow(dead_code)]
const I: usize = 7;
#[allow(dead_code)]
const K0: usize = 8;

#[path = "common/fixtures.rs"]
mod fixtures;

use fixtures::MortonTexture;

swizzle::layout! {
    /// `fixtures::LdsA` again: `OverLds` below starts `over` it, which needs it in this
    /// invocation.
    /// CK Tile universal-GEMM A tile in LDS, fp16, M=128, K=32, KPack=8 (CK Tile's LDS XOR
    /// preshuffle).
    pub layout LdsA {
        const KPACK = 8; const L = 2; const K0 = 4;
        memory [k0l: K0 * L, mr: 64, k1: KPACK] strides [KPACK, 32 * L, 1];
        xor k0l by mr;
        unmerge k0l -> [l: L, k0: K0];
        merge [mr, l] -> m;
        merge [k0, k1] -> k;
        coords [m, k];
        inverse;
    }

    /// CK's pad test inside a 3-row tile.
    layout Padded {
        memory [r: 3, c: 10];
        pad c -> x (2, 3);
        coords [r, x];
    }

    /// Non-power-of-two digits, column-major storage, viewed through another split.
    layout Mixed {
        memory [c: 6, r: 5];
        merge [r, c] -> i;
        unmerge i -> [a: 3, b: 10];
        coords [a, b];
        inverse;
    }

    /// CuTe's Swizzle<3,3,3> over 8 rows of 64 halves (a 128-byte-row shared-memory tile).
    layout CuteSwizzled {
        memory [row: 8, col: 64];
        merge [row, col] -> i;
        swizzle i -> s (3, 3, 3);
        unmerge s -> [y: 8, x: 64];
        coords [y, x];
        inverse;
    }

    /// A full 256×256 Morton layout: its offset and inverse are shift networks.
    layout Morton256 {
        memory [m: 65536];
        morton m -> [y: 256, x: 256];
        coords [y, x];
        inverse;
    }

    /// No coordinates at all: one frozen element.
    layout Point {
        memory [a: 4, b: 3];
        freeze a = 1;
        freeze b = 2;
        coords [];
    }

    /// A coordinate called `offset`, and a padded dim that shadows the name it pads.
    layout Named {
        memory [offset: 4, x: 8];
        merge [offset, x] -> i;
        unmerge i -> [x: 8, offset: 4];
        coords [x, offset];
        inverse;
    }

    /// A raw identifier and upper-case dim names, next to constants of the same names.
    layout Unusual {
        memory [I: 3, K0: 4];
        merge [I, K0] -> r#type;
        unmerge r#type -> [a: 4, b: 3];
        coords [a, b];
        inverse;
    }

    /// Every remaining transform at once.
    layout Assorted {
        memory [a: 4, b: 10, c: 64];
        slice b -> s (2..7);
        offset a -> o (+1);
        freeze c = 5;
        replicate -> [r: 3];
        embed o -> [e: 3] strides [1];
        coords [e, s, r];
    }

    /// A GF(2) map: AMD-style texture tiling of a 32×64 surface, pipe bit 1 = y[4] ^ x[5] ^
    /// x[4]. Its matrix is invertible, so it has `coord`.
    layout TextureTiled {
        memory [a: 2048];
        bits a -> [y: 32, x: 64] (
            x[0], y[0], x[1], y[1], x[2], y[2], x[3], y[3],
            x[4], y[4] ^ x[5] ^ x[4], x[5]
        );
        coords [y, x];
        inverse;
    }

    /// CK's cyclic shift: each row of a 6×5 tile rotated by its row index, and a column
    /// index that wraps (`modulo`) onto a row of 5.
    layout Rotated {
        memory [r: 6, c: 5];
        cyclic_shift c by r;
        coords [r, c];
        inverse;
    }

    /// CK Tile's LDS tile as 16×8 tiles and places in them (`over`): the tile's own
    /// pipeline computes `LdsA`'s coordinates, then `LdsA`'s gives the offset.
    layout LdsTiles {
        over LdsA [m, k];
        unmerge m -> [tm: 8, im: 16];
        unmerge k -> [tk: 4, ik: 8];
        coords [tm, tk, im, ik];
        inverse;
    }

    /// A periodic boundary: 12 columns wrap onto a row of 5.
    layout Periodic {
        memory [r: 6, c: 5];
        modulo c -> w (12);
        coords [r, w];
    }
}

/// Generated code == interpreter, on every coordinate, through the `Layout` trait.
fn assert_matches_interpreter<L: Layout<N>, const N: usize>() {
    let mut checked = 0;
    for index in 0..L::SIZE {
        let mut coord = [0; N];
        let mut rest = index;
        for (c, &len) in coord.iter_mut().zip(&L::SHAPE).rev() {
            *c = rest % len;
            rest /= len;
        }
        let expected = L::DESCRIPTOR.offset(&coord);
        assert_eq!(L::is_valid(coord), expected.is_ok(), "{coord:?}");
        assert_eq!(L::try_offset(coord), expected, "{coord:?}");
        if let Ok(offset) = expected {
            assert_eq!(L::offset(coord), offset, "{coord:?}");
            assert!(offset < L::SPACE);
            checked += 1;
        }
    }
    assert!(checked > 0);
}

fn assert_inverts<L: Bijective<N>, const N: usize>() {
    assert_eq!(L::SIZE, L::SPACE);
    for offset in 0..L::SPACE {
        assert_eq!(L::offset(L::coord(offset)), offset);
    }
    assert_eq!(
        L::try_coord(L::SPACE),
        Err(CoordError::OffsetOutOfRange {
            offset: L::SPACE,
            space: L::SPACE
        })
    );
}

/// The facts the macro states as constants, against what evaluation shows: distinct offsets
/// for distinct valid coordinates, padding, and an inverse exactly when `INVERSE`.
fn assert_facts<L: Layout<N>, const N: usize>(inverse: bool) {
    let mut offsets = std::collections::HashSet::new();
    let mut distinct = true;
    for coord in coordinates(&L::SHAPE) {
        let coord: [usize; N] = coord.try_into().expect("rank");
        if L::is_valid(coord) {
            distinct &= offsets.insert(L::offset(coord));
        }
    }
    assert_eq!(
        L::INJECTIVE,
        distinct,
        "INJECTIVE of {}",
        L::DESCRIPTOR.name
    );
    assert_eq!(
        L::PADDED,
        L::DESCRIPTOR.is_padded(),
        "PADDED of {}",
        L::DESCRIPTOR.name
    );
    assert_eq!(L::INVERSE, inverse, "INVERSE of {}", L::DESCRIPTOR.name);
}

#[test]
fn the_stated_facts_hold() {
    assert_facts::<MortonTexture, 2>(true);
    assert_facts::<LdsA, 2>(true);
    assert_facts::<Padded, 2>(false);
    assert_facts::<Mixed, 2>(true);
    assert_facts::<Assorted, 3>(false);
    assert_facts::<Periodic, 2>(false);
    assert_facts::<TextureTiled, 2>(true);
}

#[test]
fn a_composed_layout_is_its_base_at_the_coordinates_it_computes() {
    assert_matches_interpreter::<LdsTiles, 4>();
    assert_inverts::<LdsTiles, 4>();
    for coord in coordinates(&LdsTiles::SHAPE) {
        let [tm, tk, im, ik] = coord.try_into().expect("rank 4");
        let base = LdsA::offset(tm * 16 + im, tk * 8 + ik);
        assert_eq!(LdsTiles::offset(tm, tk, im, ik), base);
    }
}

#[test]
fn generated_code_matches_the_interpreter() {
    assert_matches_interpreter::<MortonTexture, 2>();
    assert_matches_interpreter::<LdsA, 2>();
    assert_matches_interpreter::<Padded, 2>();
    assert_matches_interpreter::<Mixed, 2>();
    assert_matches_interpreter::<CuteSwizzled, 2>();
    assert_matches_interpreter::<Assorted, 3>();
    assert_matches_interpreter::<Morton256, 2>();
    assert_matches_interpreter::<Point, 0>();
    assert_matches_interpreter::<Named, 2>();
    assert_matches_interpreter::<Unusual, 2>();
    assert_matches_interpreter::<TextureTiled, 2>();
    assert_matches_interpreter::<Rotated, 2>();
    assert_matches_interpreter::<Periodic, 2>();
}

#[test]
fn bijections_invert() {
    assert_inverts::<MortonTexture, 2>();
    assert_inverts::<LdsA, 2>();
    assert_inverts::<Mixed, 2>();
    assert_inverts::<CuteSwizzled, 2>();
    assert_inverts::<Morton256, 2>();
    assert_inverts::<Named, 2>();
    assert_inverts::<Unusual, 2>();
    assert_inverts::<TextureTiled, 2>();
    assert_inverts::<Rotated, 2>();
}

#[test]
fn offsets_are_const() {
    const MORTON: usize = MortonTexture::offset(3, 5);
    const LDS: usize = LdsA::offset(127, 31);
    const BACK: [usize; 2] = LdsA::coord(2057);
    assert_eq!((MORTON, LDS, BACK), (27, 4039, [64, 9]));
}

#[test]
fn constants_describe_the_layout() {
    assert_eq!(MortonTexture::SHAPE, [8, 8]);
    assert_eq!((LdsA::SIZE, LdsA::SPACE), (4096, 4096));
    assert_eq!(
        (Padded::SHAPE, Padded::SIZE, Padded::SPACE),
        ([3, 15], 45, 30)
    );
    assert_eq!(Assorted::SHAPE, [3, 5, 3]);
    assert_eq!(Assorted::DESCRIPTOR.name, "Assorted");
    assert_eq!((Point::offset(), Point::SIZE, Point::SPACE), (5, 1, 12));
}

#[test]
fn bad_coordinates_are_errors() {
    assert_eq!(
        <LdsA as Layout<2>>::try_offset([128, 0]),
        Err(CoordError::OutOfBounds {
            dim: "m".into(),
            value: 128,
            len: 128
        })
    );
    assert_eq!(
        <Padded as Layout<2>>::try_offset([0, 1]),
        Err(CoordError::Padding {
            dim: "x".into(),
            value: 1
        })
    );
    assert!(!Padded::is_valid(0, 12) && Padded::is_valid(2, 11));
}

#[test]
#[cfg(debug_assertions)]
#[should_panic(expected = "coordinate out of bounds")]
fn out_of_bounds_offsets_panic_in_debug_builds() {
    let _ = MortonTexture::offset(8, 0);
}

mod batch {
    use super::*;
    use proptest::prelude::*;
    use swizzle::batch::{BatchError, offsets_columns_with, offsets_u32_with, offsets_with};
    use swizzle::kernel::Level;

    /// Every available SIMD level computes, for a batch, what `offset` computes per element,
    /// and flags the first invalid coordinate: with `usize` coordinates, and with `u32` and
    /// `u16` ones, as rows and as columns, into `u32` offsets.
    fn agrees<L: Layout<N>, const N: usize>(coords: &[[usize; N]]) {
        agrees_wide::<L, N>(coords);
        let narrow = |expected: Result<Vec<usize>, BatchError>| {
            expected.map(|offsets| offsets.iter().map(|&o| o as u32).collect::<Vec<u32>>())
        };
        let expected = narrow(expected::<L, N>(coords));
        let rows32: Vec<[u32; N]> = coords.iter().map(|c| c.map(|v| v as u32)).collect();
        let rows16: Vec<[u16; N]> = coords.iter().map(|c| c.map(|v| v as u16)).collect();
        let columns32: Vec<Vec<u32>> = (0..N)
            .map(|d| rows32.iter().map(|c| c[d]).collect())
            .collect();
        let columns16: Vec<Vec<u16>> = (0..N)
            .map(|d| rows16.iter().map(|c| c[d]).collect())
            .collect();
        for level in Level::ALL {
            type Run<'a> = &'a dyn Fn(&mut [u32]) -> Result<(), BatchError>;
            let results: [(&str, Run); 4] = [
                ("u32 rows", &|out| {
                    offsets_u32_with::<L, u32, N>(level, &rows32, out)
                }),
                ("u16 rows", &|out| {
                    offsets_u32_with::<L, u16, N>(level, &rows16, out)
                }),
                ("u32 columns", &|out| {
                    let columns: [&[u32]; N] = std::array::from_fn(|d| columns32[d].as_slice());
                    offsets_columns_with::<L, u32, N>(level, columns, out)
                }),
                ("u16 columns", &|out| {
                    let columns: [&[u16]; N] = std::array::from_fn(|d| columns16[d].as_slice());
                    offsets_columns_with::<L, u16, N>(level, columns, out)
                }),
            ];
            for (form, run) in results {
                let mut out = vec![u32::MAX; coords.len()];
                let result = run(&mut out);
                if !level.is_available() {
                    assert_eq!(result, Err(BatchError::Unsupported(level)), "{form}");
                    continue;
                }
                match &expected {
                    Ok(offsets) => {
                        assert_eq!(result, Ok(()), "{level:?} {form}");
                        assert_eq!(&out, offsets, "{level:?} {form}");
                    }
                    Err(error) => assert_eq!(result.as_ref(), Err(error), "{level:?} {form}"),
                }
            }
        }
    }

    /// What a batch of `coords` must give: every offset, or the first invalid coordinate.
    fn expected<L: Layout<N>, const N: usize>(
        coords: &[[usize; N]],
    ) -> Result<Vec<usize>, BatchError> {
        coords
            .iter()
            .enumerate()
            .map(|(index, &c)| L::try_offset(c).map_err(|error| BatchError::Coord { index, error }))
            .collect()
    }

    /// [`agrees`] for `usize` coordinates and offsets.
    fn agrees_wide<L: Layout<N>, const N: usize>(coords: &[[usize; N]]) {
        let expected = expected::<L, N>(coords);
        for level in Level::ALL {
            let mut out = vec![usize::MAX; coords.len()];
            let result = offsets_with::<L, N>(level, coords, &mut out);
            if !level.is_available() {
                assert_eq!(result, Err(BatchError::Unsupported(level)));
                continue;
            }
            match &expected {
                Ok(offsets) => {
                    assert_eq!(result, Ok(()), "{level:?}");
                    assert_eq!(&out, offsets, "{level:?}");
                }
                Err(error) => assert_eq!(result.as_ref(), Err(error), "{level:?}"),
            }
        }
    }

    /// Coordinates mostly in range, with a few out of range to exercise the checks.
    fn coords<const N: usize>(shape: [usize; N]) -> impl Strategy<Value = Vec<[usize; N]>> {
        let coord = shape.map(|len| 0..len + len / 64 + 1);
        prop::collection::vec(coord, 0..300)
    }

    proptest! {
        #[test]
        fn morton256(c in coords(Morton256::SHAPE)) { agrees::<Morton256, 2>(&c); }
        #[test]
        fn lds(c in coords(LdsA::SHAPE)) { agrees::<LdsA, 2>(&c); }
        #[test]
        fn padded(c in coords(Padded::SHAPE)) { agrees::<Padded, 2>(&c); }
        #[test]
        fn mixed(c in coords(Mixed::SHAPE)) { agrees::<Mixed, 2>(&c); }
        #[test]
        fn assorted(c in coords(Assorted::SHAPE)) { agrees::<Assorted, 3>(&c); }
    }

    #[test]
    fn in_range_batches_succeed_on_every_level() {
        let all: Vec<[usize; 2]> = (0..256)
            .flat_map(|y| (0..256).map(move |x| [y, x]))
            .collect();
        agrees::<Morton256, 2>(&all);
    }

    #[test]
    fn bad_input_is_an_error() {
        let mut out = [0; 2];
        assert_eq!(
            swizzle::offsets::<LdsA, 2>(&[[0, 0]], &mut out),
            Err(BatchError::Length { coords: 1, out: 2 })
        );
        assert_eq!(
            swizzle::offsets::<LdsA, 2>(&[[0, 0], [128, 3]], &mut out),
            Err(BatchError::Coord {
                index: 1,
                error: CoordError::OutOfBounds {
                    dim: "m".into(),
                    value: 128,
                    len: 128
                }
            })
        );
        assert_eq!(
            swizzle::offsets::<Padded, 2>(&[[2, 15], [0, 5]], &mut out),
            Err(BatchError::Coord {
                index: 0,
                error: CoordError::OutOfBounds {
                    dim: "x".into(),
                    value: 15,
                    len: 15
                }
            })
        );
        assert_eq!(
            swizzle::offsets::<Padded, 2>(&[[2, 11], [0, 13]], &mut out),
            Err(BatchError::Coord {
                index: 1,
                error: CoordError::Padding {
                    dim: "x".into(),
                    value: 13
                }
            })
        );
        let mut narrow = [0u32; 2];
        let short: [u32; 1] = [0];
        assert_eq!(
            swizzle::batch::offsets_columns::<LdsA, u32, 2>([&[0, 1], &short], &mut narrow),
            Err(BatchError::Length { coords: 1, out: 2 })
        );
    }
}

swizzle::layout! {
    /// 24 transforms whose folded form would grow past the symbolic budget: the macro
    /// lowers them in stages (one named local per large intermediate value).
    layout StagedRotation {
        memory [d0: 3, d1: 5, d2: 7];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 5, d1: 7, d2: 3];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 7, d1: 3, d2: 5];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 3, d1: 5, d2: 7];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 5, d1: 7, d2: 3];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 7, d1: 3, d2: 5];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 3, d1: 5, d2: 7];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 5, d1: 7, d2: 3];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 7, d1: 3, d2: 5];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 3, d1: 5, d2: 7];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 5, d1: 7, d2: 3];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 7, d1: 3, d2: 5];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 3, d1: 5, d2: 7];
        coords [d0, d1, d2];
        inverse;
    }

    /// 40 `xor`s: F2-affine, lowered on bit vectors to mask-and-shift code and its inverse.
    layout XorChain {
        memory [a: 64, b: 64];
        xor a by b;
        xor b by a;
        xor a by b;
        xor b by a;
        xor a by b;
        xor b by a;
        xor a by b;
        xor b by a;
        xor a by b;
        xor b by a;
        xor a by b;
        xor b by a;
        xor a by b;
        xor b by a;
        xor a by b;
        xor b by a;
        xor a by b;
        xor b by a;
        xor a by b;
        xor b by a;
        xor a by b;
        xor b by a;
        xor a by b;
        xor b by a;
        xor a by b;
        xor b by a;
        xor a by b;
        xor b by a;
        xor a by b;
        xor b by a;
        xor a by b;
        xor b by a;
        xor a by b;
        xor b by a;
        xor a by b;
        xor b by a;
        xor a by b;
        xor b by a;
        xor a by b;
        xor b by a;
        coords [a, b];
        inverse;
    }

    /// 16 cyclic shifts: a bijection whose inverse does not fold into one expression per
    /// coordinate, so it is staged as its offset is (once refused "`inverse` needs a
    /// bijection, but :").
    layout ShiftChain {
        memory [r: 6, c: 5];
        cyclic_shift c by r;
        cyclic_shift r by c;
        cyclic_shift c by r;
        cyclic_shift r by c;
        cyclic_shift c by r;
        cyclic_shift r by c;
        cyclic_shift c by r;
        cyclic_shift r by c;
        cyclic_shift c by r;
        cyclic_shift r by c;
        cyclic_shift c by r;
        cyclic_shift r by c;
        cyclic_shift c by r;
        cyclic_shift r by c;
        cyclic_shift c by r;
        cyclic_shift r by c;
        coords [r, c];
        inverse;
    }
}

/// Staged and F2-lowered long pipelines compile, and compute what the interpreter computes,
/// both ways.
#[test]
fn long_pipelines_compile_and_agree() {
    for coord in coordinates(&StagedRotation::SHAPE) {
        let offset = StagedRotation::DESCRIPTOR
            .offset(&coord)
            .expect("in bounds");
        assert_eq!(StagedRotation::offset(coord[0], coord[1], coord[2]), offset);
        assert_eq!(StagedRotation::coord(offset).to_vec(), coord);
    }
    for coord in coordinates(&XorChain::SHAPE) {
        let offset = XorChain::DESCRIPTOR.offset(&coord).expect("in bounds");
        assert_eq!(XorChain::offset(coord[0], coord[1]), offset);
        assert_eq!(XorChain::coord(offset).to_vec(), coord);
    }
    assert_inverts::<ShiftChain, 2>();
}

swizzle::layout! {
    /// A staged chain whose padding lies near memory: `is_valid` computes the locals its
    /// padding reads, on every coordinate, padded or not.
    layout StagedPadded {
        memory [d0: 3, d1: 5, d2: 7];
        pad d0 -> d0 (1, 1);
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 5, d1: 7, d2: 5];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 7, d1: 5, d2: 5];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 5, d1: 5, d2: 7];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 5, d1: 7, d2: 5];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 7, d1: 5, d2: 5];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 5, d1: 5, d2: 7];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 5, d1: 7, d2: 5];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 7, d1: 5, d2: 5];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 5, d1: 5, d2: 7];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 5, d1: 7, d2: 5];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 7, d1: 5, d2: 5];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 5, d1: 5, d2: 7];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 5, d1: 7, d2: 5];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 7, d1: 5, d2: 5];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 5, d1: 5, d2: 7];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 5, d1: 7, d2: 5];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 7, d1: 5, d2: 5];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 5, d1: 5, d2: 7];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 5, d1: 7, d2: 5];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 7, d1: 5, d2: 5];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 5, d1: 5, d2: 7];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 5, d1: 7, d2: 5];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 7, d1: 5, d2: 5];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 5, d1: 5, d2: 7];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 5, d1: 7, d2: 5];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 7, d1: 5, d2: 5];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 5, d1: 5, d2: 7];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 5, d1: 7, d2: 5];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 7, d1: 5, d2: 5];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 5, d1: 5, d2: 7];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 5, d1: 7, d2: 5];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 7, d1: 5, d2: 5];
        coords [d0, d1, d2];
    }
}

/// A staged layout's `is_valid` answers on every coordinate (never overflowing on padded
/// ones), and its `offset` equals the interpreter's on the valid ones.
fn answers_everywhere<L: Layout<3>>() {
    for coord in coordinates(&L::SHAPE) {
        let valid = L::DESCRIPTOR.is_valid(&coord);
        let coord: [usize; 3] = coord.try_into().expect("three coordinates");
        assert_eq!(<L as Layout<3>>::is_valid(coord), valid, "{coord:?}");
        if valid {
            let offset = L::DESCRIPTOR.offset(&coord).expect("valid");
            assert_eq!(<L as Layout<3>>::offset(coord), offset, "{coord:?}");
        }
    }
}

#[test]
fn staged_padded_layouts_answer_everywhere() {
    answers_everywhere::<StagedPadded>();
    answers_everywhere::<StagedTwicePadded>();
}

swizzle::layout! {
    /// Two paddings, one in the middle of a staged chain: the locals that the outer
    /// padding reads subtract the inner one's left padding.
    layout StagedTwicePadded {
        memory [d0: 3, d1: 5, d2: 7];
        pad d0 -> d0 (1, 1);
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 5, d1: 7, d2: 5];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 7, d1: 5, d2: 5];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 5, d1: 5, d2: 7];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 5, d1: 7, d2: 5];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 7, d1: 5, d2: 5];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 5, d1: 5, d2: 7];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 5, d1: 7, d2: 5];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 7, d1: 5, d2: 5];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 5, d1: 5, d2: 7];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 5, d1: 7, d2: 5];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 7, d1: 5, d2: 5];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 5, d1: 5, d2: 7];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 5, d1: 7, d2: 5];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 7, d1: 5, d2: 5];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 5, d1: 5, d2: 7];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 5, d1: 7, d2: 5];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 7, d1: 5, d2: 5];
        pad d1 -> d1 (2, 1);
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 8, d1: 5, d2: 7];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 5, d1: 7, d2: 8];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 7, d1: 8, d2: 5];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 8, d1: 5, d2: 7];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 5, d1: 7, d2: 8];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 7, d1: 8, d2: 5];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 8, d1: 5, d2: 7];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 5, d1: 7, d2: 8];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 7, d1: 8, d2: 5];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 8, d1: 5, d2: 7];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 5, d1: 7, d2: 8];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 7, d1: 8, d2: 5];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 8, d1: 5, d2: 7];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 5, d1: 7, d2: 8];
        merge [d0, d1, d2] -> m;
        unmerge m -> [d0: 7, d1: 8, d2: 5];
        coords [d0, d1, d2];
    }
}

swizzle::layout! {
    /// A staged chain of cyclic shifts: its offset does not fold, so the layouts `over` it
    /// call its functions instead of repeating its stages.
    layout ShiftBase {
        memory [r: 6, c: 5];
        cyclic_shift c by r; cyclic_shift r by c; cyclic_shift c by r; cyclic_shift r by c;
        cyclic_shift c by r; cyclic_shift r by c; cyclic_shift c by r; cyclic_shift r by c;
        cyclic_shift c by r; cyclic_shift r by c; cyclic_shift c by r; cyclic_shift r by c;
        cyclic_shift c by r; cyclic_shift r by c; cyclic_shift c by r; cyclic_shift r by c;
        cyclic_shift c by r; cyclic_shift r by c; cyclic_shift c by r; cyclic_shift r by c;
        coords [r, c];
        inverse;
    }
    /// Over a staged layout: calls `ShiftBase::offset` and `ShiftBase::coord`.
    layout ShiftOver { over ShiftBase; cyclic_shift c by r; coords [r, c]; inverse; }
    /// Over a layout over a staged one, renaming and transposing its coordinates.
    layout ShiftOverTwice {
        over ShiftOver [a, b];
        merge [b, a] -> m;
        unmerge m -> [y: 3, x: 10];
        coords [y, x];
        inverse;
    }
    /// Over a staged layout with padding of its own: `is_valid` is its own test alone.
    layout ShiftOverPadded { over ShiftBase; pad c -> c (1, 2); coords [r, c]; }
    /// A wrapping `modulo` that a `slice` keeps within one period: undone on those values.
    layout WrappedSlice { memory [l: 6]; modulo l -> u (10); slice u -> v (3..9); coords [v]; inverse; }
}

/// Layouts whose functions call their base's (issue "Never hang, round two", item 5), and a
/// `coord` undone on a restricted `modulo` (item 1): `offset`, `is_valid` and `coord` equal
/// the interpreter on every coordinate and offset.
#[test]
fn layouts_over_staged_bases_and_restricted_modulos_agree_with_the_interpreter() {
    fn agrees<L: Layout<N>, const N: usize>() {
        for coord in coordinates(&L::SHAPE) {
            let valid = L::DESCRIPTOR.is_valid(&coord);
            let coord: [usize; N] = coord.try_into().expect("rank");
            assert_eq!(L::is_valid(coord), valid, "{coord:?}");
            if valid {
                let offset = L::DESCRIPTOR.offset(&coord).expect("valid");
                assert_eq!(L::offset(coord), offset, "{coord:?}");
            }
        }
    }
    fn inverts<L: Bijective<N>, const N: usize>() {
        agrees::<L, N>();
        for offset in 0..L::SPACE {
            assert_eq!(L::offset(L::coord(offset)), offset, "{offset}");
        }
    }
    inverts::<ShiftBase, 2>();
    inverts::<ShiftOver, 2>();
    inverts::<ShiftOverTwice, 2>();
    agrees::<ShiftOverPadded, 2>();
    inverts::<WrappedSlice, 1>();
}
