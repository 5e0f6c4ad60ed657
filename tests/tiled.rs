//! Layouts with run-time outer dims (`dyn`), compiled: every generated offset, validity and
//! inverse against the reference interpreter (`Descriptor::offset_in`) at many extents,
//! partial tiles included.

use swizzle::Indexing;
use swizzle::ir::coordinates;

swizzle::layout! {
    /// An image of any size stored as 8×8 tiles, Morton order inside each tile.
    pub layout MortonTiles {
        memory [ty: dyn, tx: dyn, m: 64];
        morton m -> [yi: 8, xi: 8];
        merge [ty, yi] -> y;
        merge [tx, xi] -> x;
        coords [y, x];
        inverse;
    }

    /// A batch of 3-channel images in tiles of 2 rows × 6 columns (not powers of two); the
    /// batch coordinate only counts tiles and the channel is a constant coordinate.
    layout Batched {
        memory [b: dyn, ty: dyn, tx: dyn, r: 2, c: 6, ch: 3];
        merge [ty, r] -> y;
        merge [tx, c] -> x;
        coords [b, y, x, ch];
        inverse;
    }

    /// A one-dimensional strip of 8-element blocks, each stored in reverse bit order
    /// (`bits`): the tile's inverse returns a coordinate of one index.
    layout Strip {
        memory [t: dyn, b: 8];
        bits b -> [i: 8] (i[2], i[1], i[0]);
        merge [t, i] -> x;
        coords [x];
        inverse;
    }

    /// `MortonTiles` cut into blocks of 4 × 2 pixels (CuTe's zipped divide, the block counts
    /// known at run time): which block, and where in it.
    layout MortonBlocks {
        over MortonTiles;
        unmerge y -> [by: dyn, iy: 4];
        unmerge x -> [bx: dyn, ix: 2];
        coords [by, bx, iy, ix];
        inverse;
    }

    /// `Batched` with its rows in pairs swapped by a fixed transform of the block: a
    /// divided coordinate's inner part is an ordinary dim.
    layout BatchedPairs {
        over Batched [image, y, x, channel];
        unmerge y -> [pair: dyn, row: 2];
        xor row by channel;
        coords [image, pair, x, row, channel];
        inverse;
    }

    /// Tiles whose rows are padded: 4 valid columns of 6.
    layout PaddedTiles {
        memory [ty: dyn, r: 4, c: 4];
        pad c -> x (1, 1);
        merge [ty, r] -> y;
        coords [y, x];
    }
}

/// Every coordinate of `extents` (plus one past each extent) through the generated code and
/// the interpreter.
fn check<const N: usize>(layout: &impl Indexing<N>, descriptor: &swizzle::ir::Descriptor) {
    let extents = layout.extents();
    let beyond: Vec<usize> = extents.iter().map(|e| e + 1).collect();
    for coord in coordinates(&beyond) {
        let coord: [usize; N] = coord.try_into().expect("rank N");
        let expected = descriptor.offset_in(&extents, &coord);
        assert_eq!(
            layout.is_valid_at(coord),
            expected.is_ok(),
            "{coord:?} at {extents:?}"
        );
        if let Ok(offset) = expected {
            assert_eq!(layout.offset_of(coord), offset, "{coord:?} at {extents:?}");
            assert!(offset < layout.space());
        }
    }
}

#[test]
fn morton_tiles_at_many_extents() {
    for (y, x) in [(8, 8), (16, 24), (1, 1), (13, 5), (0, 7), (17, 33)] {
        let layout = MortonTiles::new(y, x).expect("fits");
        assert_eq!(layout.tiles(), [y.div_ceil(8), x.div_ceil(8)]);
        assert_eq!(layout.space(), y.div_ceil(8) * x.div_ceil(8) * 64);
        check(&layout, &MortonTiles::DESCRIPTOR);
        // The inverse of every offset, partial tiles' cells outside the image included.
        for offset in 0..layout.space() {
            let [y, x] = layout.coord(offset);
            let tile = [y / 8, x / 8];
            assert!(tile[0] < layout.tiles()[0] && tile[1] < layout.tiles()[1]);
            assert_eq!(
                (tile[0] * layout.tiles()[1] + tile[1]) * 64
                    + MortonTiles::tile_offset(y % 8, x % 8),
                offset
            );
        }
    }
}

#[test]
fn batched_non_power_of_two_tiles() {
    assert_eq!(Batched::TILE, [1, 2, 6, 3]);
    assert_eq!(Batched::TILE_SPACE, 36);
    for (b, y, x) in [(1, 2, 6), (2, 3, 7), (3, 5, 13)] {
        let layout = Batched::new(b, y, x).expect("fits");
        assert_eq!(layout.extents(), [b, y, x, 3]);
        check(&layout, &Batched::DESCRIPTOR);
        for offset in 0..layout.space() {
            let coord = layout.coord(offset);
            let inside: Vec<usize> = coord
                .iter()
                .zip(Batched::TILE)
                .map(|(c, t)| c % t)
                .collect();
            let tiles = layout.tiles();
            let place = (coord[0] * tiles[1] + coord[1] / 2) * tiles[2] + coord[2] / 6;
            assert_eq!(
                place * 36 + Batched::DESCRIPTOR.offset(&inside).expect("valid"),
                offset
            );
        }
    }
}

#[test]
fn a_strip_of_rank_one_inverts() {
    for len in [1, 8, 21, 64] {
        let layout = Strip::new(len).expect("fits");
        check(&layout, &Strip::DESCRIPTOR);
        for offset in 0..layout.space() {
            let [x] = layout.coord(offset);
            if x < len {
                assert_eq!(layout.offset(x), offset, "{x} in {len}");
            }
        }
    }
}

#[test]
fn divided_layouts_are_their_base_at_the_block_coordinates() {
    for (y, x) in [(8, 8), (16, 24), (4, 2), (12, 6), (20, 34)] {
        let base = MortonTiles::new(y, x).expect("fits");
        let (blocks_y, blocks_x) = (y.div_ceil(4), x.div_ceil(2));
        let blocks = MortonBlocks::new(blocks_y, blocks_x).expect("fits");
        assert_eq!(blocks.extents(), [blocks_y, blocks_x, 4, 2]);
        assert_eq!(
            blocks.tiles(),
            [blocks_y.div_ceil(2), blocks_x.div_ceil(4), 1, 1]
        );
        check(&blocks, &MortonBlocks::DESCRIPTOR);
        for coord in coordinates(&blocks.extents()) {
            let [by, bx, iy, ix] = coord[..] else {
                unreachable!()
            };
            let (py, px) = (by * 4 + iy, bx * 2 + ix);
            if py < y && px < x {
                assert_eq!(blocks.offset(by, bx, iy, ix), base.offset(py, px));
            }
        }
        for offset in 0..blocks.space() {
            let [by, bx, iy, ix] = blocks.coord(offset);
            assert_eq!(base.coord(offset), [by * 4 + iy, bx * 2 + ix]);
        }
    }
    for (b, pairs, x) in [(1, 1, 6), (2, 3, 7), (3, 5, 13)] {
        let base = Batched::new(b, pairs * 2, x).expect("fits");
        let layout = BatchedPairs::new(b, pairs, x).expect("fits");
        check(&layout, &BatchedPairs::DESCRIPTOR);
        for coord in coordinates(&layout.extents()) {
            let [image, pair, x, row, channel] = coord[..] else {
                unreachable!()
            };
            let y = pair * 2 + (row ^ (channel % 2));
            assert_eq!(
                layout.offset(image, pair, x, row, channel),
                base.offset(image, y, x, channel)
            );
        }
    }
}

#[test]
fn padded_tiles() {
    let layout = PaddedTiles::new(9).expect("fits");
    assert_eq!(layout.extents(), [9, 6]);
    check(&layout, &PaddedTiles::DESCRIPTOR);
    assert!(!layout.is_valid(0, 0) && layout.is_valid(8, 4) && !layout.is_valid(8, 5));
}

#[test]
fn overflowing_extents_are_an_error() {
    let error = MortonTiles::new(usize::MAX, usize::MAX).unwrap_err();
    assert_eq!(
        error.to_string(),
        format!(
            "`MortonTiles` of extents {} × {} needs more than `usize::MAX` elements",
            usize::MAX,
            usize::MAX
        )
    );
}
