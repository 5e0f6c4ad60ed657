//! PlayStation 3 (RSX) swizzled surfaces, as `swizzleinator` tiles them: each level (each
//! slice of a 3-D one) in one Morton order over its texels (pixels, or compressed blocks),
//! x's bit first, the bits of x and y interleaved while both sides have bits left, then the
//! rest of the longer side's. Sides are powers of two: a level's texels are padded to the
//! next powers of two (what `swizzleinator` does for compressed formats with
//! `align_resolution`; swizzled RSX textures have power-of-two sides).
//!
//! A `w × h` Morton order with `s = min(w, h)` is `s × s` Morton squares side by side (or
//! stacked, when the level is taller than wide), one after the other. Up to 32 × 32 a
//! level is one row (or column) of such squares, each a tile of a `layout!` item below
//! (side 8 is the PS4's [`MortonTiles`](super::ps4::MortonTiles)). A larger square is a
//! Morton order of 16 × 16 (or 32 × 32) sub-tiles, and so is every aligned power-of-two block
//! of it: the sub-tiles are copied by [`MortonSquare16`]'s (or [`MortonSquare32`]'s, or by
//! halves, [`MortonHalf32`]'s or [`MortonHalf16`]'s) kernels and placed by table
//! ([`crate::kernel::Frame::Placed`]), a block of up to 256 × 256 texels at a time.

use super::ps4::{DeswizzleMorton, SwizzleMorton};
use super::{
    Direction, Surface, TextureError, checked_product, copy_slices, copy_tiles, copy_tiles_framed,
    for_each_part, largest_divisor, part_bytes, part_options, prepare_tiles, spread, unspread,
    unsupported,
};
use crate::kernel::GeneratedCode;
use crate::kernel::{Element, Frame, Options, Plan};

/// One `layout!` of `side × side` Morton tiles (x's bit first), row-major over the grid of
/// tiles, and its two kernels.
macro_rules! morton_squares {
    ($($(#[$doc:meta])* $layout:ident, $swizzle:ident, $deswizzle:ident: $side:literal, $space:literal;)*) => {
        $(crate::layout! {
            $(#[$doc])*
            layout $layout {
                memory [ty: dyn, tx: dyn, m: $space];
                morton m -> [yi: $side, xi: $side];
                merge [ty, yi] -> y;
                merge [tx, xi] -> x;
                coords [y, x];
            }
            /// Row-major texels into the Morton squares.
            kernel $swizzle = pack($layout);
            /// The Morton squares into row-major texels.
            kernel $deswizzle = unpack($layout);
        })*
    };
}

morton_squares! {
    /// 2 × 2 Morton squares.
    MortonSquare2, SwizzleSquare2, DeswizzleSquare2: 2, 4;
    /// 4 × 4 Morton squares.
    MortonSquare4, SwizzleSquare4, DeswizzleSquare4: 4, 16;
    /// 16 × 16 Morton squares.
    MortonSquare16, SwizzleSquare16, DeswizzleSquare16: 16, 256;
    /// 32 × 32 Morton squares; these and 16 × 16 ones are the sub-tiles of larger ones.
    MortonSquare32, SwizzleSquare32, DeswizzleSquare32: 32, 1024;
}

crate::layout! {
    /// The upper or lower half of a 16 × 16 Morton square (y's bit 3 is the order's
    /// highest): 8 × 16 texels in 128, whose SIMD rows fit the registers for texels of up
    /// to 16 bytes, where a half of a 32 × 32 square's would spill.
    layout MortonHalf16 {
        memory [ty: dyn, tx: dyn, m: 128];
        bits m -> [yi: 8, xi: 16] (xi[0], yi[0], xi[1], yi[1], xi[2], yi[2], xi[3]);
        merge [ty, yi] -> y;
        merge [tx, xi] -> x;
        coords [y, x];
    }
    /// Row-major texels into the halves.
    kernel SwizzleHalf16 = pack(MortonHalf16);
    /// The halves into row-major texels.
    kernel DeswizzleHalf16 = unpack(MortonHalf16);
}

crate::layout! {
    /// The upper or lower half of a 32 × 32 Morton square (y's bit 4 is the order's
    /// highest): 16 × 32 texels in 512, whose SIMD rows fit the registers for texels of
    /// up to 4 bytes, where a whole square's would spill.
    layout MortonHalf32 {
        memory [ty: dyn, tx: dyn, m: 512];
        bits m -> [yi: 16, xi: 32] (xi[0], yi[0], xi[1], yi[1], xi[2], yi[2], xi[3], yi[3],
            xi[4]);
        merge [ty, yi] -> y;
        merge [tx, xi] -> x;
        coords [y, x];
    }
    /// Row-major texels into the halves.
    kernel SwizzleHalf32 = pack(MortonHalf32);
    /// The halves into row-major texels.
    kernel DeswizzleHalf32 = unpack(MortonHalf32);
}

/// Texel sizes the Morton kernels copy (bytes).
const TEXEL_BYTES: [usize; 5] = [1, 2, 4, 8, 16];

/// The largest shorter side of a level, in texels: the RSX's largest texture.
const MAX_SQUARE: usize = 4096;

/// The side of the largest block of a square copied at once: 256 × 256 texels, contiguous
/// in the tiled bytes (a swizzle's thread writes whole blocks, smaller where they would
/// hold more than a part of a level spread over threads, `part_bytes`).
const BLOCK_SIDE: usize = 256;

/// Image rows of a block a deswizzle's thread writes at once, at most: more bands than
/// blocks, for levels of few blocks (a 1024² BC3 level has four rows of them); fewer where
/// a level spread over threads holds fewer rows in a part's bytes (`part_bytes`).
const DESWIZZLE_ROWS: usize = 64;

/// Units of `unit` texels (`[rows, columns]`) in a grid `tiles`, placed by table: `starts`
/// down and along it.
fn units_placed<'a>(
    [rows, columns]: [usize; 2],
    tiles: &'a [usize; 2],
    starts: &'a [&'a [usize]; 2],
) -> Frame<'a> {
    Frame::Placed {
        tiles,
        tile_space: rows * columns,
        starts,
    }
}

texel_tiling!(
    /// The PS3's tiling of a surface of texels of `bytes` bytes.
    Ps3
);

fn check(surface: &Surface) -> Result<(), TextureError> {
    let bytes = surface.format.bytes_per_block();
    if !TEXEL_BYTES.contains(&bytes) {
        return Err(unsupported(
            surface.platform,
            format!("texels of {bytes} bytes (the Morton kernels copy {TEXEL_BYTES:?})"),
        ));
    }
    let (_, [_, rows, columns]) = surface.mip_size(0);
    if rows.min(columns) > MAX_SQUARE {
        return Err(unsupported(
            surface.platform,
            format!("levels whose shorter side passes {MAX_SQUARE} texels"),
        ));
    }
    Ok(())
}

/// A level's texels padded to powers of two: `[rows, columns]`.
fn padded([_, height, width]: [usize; 3]) -> Result<[usize; 2], TextureError> {
    let pow2 = |n: usize| n.checked_next_power_of_two().ok_or(TextureError::Overflow);
    Ok([pow2(height)?, pow2(width)?])
}

/// A level's tiled size: its padded texels, each slice of the depth.
fn level_size(blocks: [usize; 3], bytes: usize) -> Result<usize, TextureError> {
    let [rows, columns] = padded(blocks)?;
    checked_product([bytes, blocks[0], rows, columns])
}

/// Copies one level, slice by slice.
fn copy_level(
    options: Options,
    direction: Direction,
    blocks: [usize; 3],
    bytes: usize,
    src: &[u8],
    dst: &mut [u8],
) -> Result<(), TextureError> {
    let [depth, height, width] = blocks;
    let [rows, columns] = padded(blocks)?;
    let side = rows.min(columns);
    let slice = Slice {
        options,
        direction,
        extents: [height, width],
        side,
    };
    copy_slices(depth, src, dst, |src, dst| match bytes {
        1 => slice.copy::<[u8; 1]>(src, dst),
        2 => slice.copy::<[u8; 2]>(src, dst),
        4 => slice.copy::<[u8; 4]>(src, dst),
        8 => slice.copy::<[u8; 8]>(src, dst),
        16 => slice.copy::<[u8; 16]>(src, dst),
        _ => unreachable!("checked by `check`"),
    })
}

/// One slice of a level: its texels (`[rows, columns]`) and the side of its Morton squares.
struct Slice {
    options: Options,
    direction: Direction,
    extents: [usize; 2],
    side: usize,
}

impl Slice {
    fn copy<E: Element>(&self, src: &[u8], dst: &mut [u8]) -> Result<(), TextureError> {
        match self.side {
            // One row or one column: the Morton order is the row-major one.
            1 => {
                let len = src.len().min(dst.len());
                dst[..len].copy_from_slice(&src[..len]);
                Ok(())
            }
            2 => self.squares(kernels!(E, SwizzleSquare2, DeswizzleSquare2), src, dst),
            4 => self.squares(kernels!(E, SwizzleSquare4, DeswizzleSquare4), src, dst),
            8 => self.squares(kernels!(E, SwizzleMorton, DeswizzleMorton), src, dst),
            16 => self.squares(kernels!(E, SwizzleSquare16, DeswizzleSquare16), src, dst),
            32 => self.squares(kernels!(E, SwizzleSquare32, DeswizzleSquare32), src, dst),
            // Swizzles read image rows and write 16 × 16 sub-tiles (8 × 16 halves of them
            // where only the halves' SIMD rows fit the registers: 16-byte texels);
            // deswizzles write image rows from the largest units whose SIMD rows fit the
            // registers: halves of 32 × 32 sub-tiles (two cache lines a row), else halves of
            // 16 × 16 ones, else whole 32 × 32 ones by their straight-line tile (16 × 16
            // ones write one line a row, all a tile's lines in one L1 set where the image's
            // pitch is a multiple of 4 KiB): each the fastest
            // (BENCHMARKS.md#texture-surfaces).
            _ => {
                let halves32 = kernels!(E, SwizzleHalf32, DeswizzleHalf32);
                let halves16 = kernels!(E, SwizzleHalf16, DeswizzleHalf16);
                let squares16 = kernels!(E, SwizzleSquare16, DeswizzleSquare16);
                match self.direction {
                    Direction::Swizzle
                        if !takes_rows(&squares16, Direction::Swizzle, self.options)
                            && takes_rows(&halves16, Direction::Swizzle, self.options) =>
                    {
                        self.placed([8, 16], halves16, src, dst)
                    }
                    Direction::Swizzle => self.placed([16, 16], squares16, src, dst),
                    Direction::Deswizzle
                        if takes_rows(&halves32, Direction::Deswizzle, self.options) =>
                    {
                        self.placed([16, 32], halves32, src, dst)
                    }
                    Direction::Deswizzle
                        if takes_rows(&halves16, Direction::Deswizzle, self.options) =>
                    {
                        self.placed([8, 16], halves16, src, dst)
                    }
                    Direction::Deswizzle => self.placed(
                        [32, 32],
                        kernels!(E, SwizzleSquare32, DeswizzleSquare32),
                        src,
                        dst,
                    ),
                }
            }
        }
    }

    /// Squares of at most 32 × 32: one row or column of them, each a tile of the kernels'
    /// layout.
    fn squares<E: Element>(
        &self,
        kernels: [(&Plan, GeneratedCode<E>); 2],
        src: &[u8],
        dst: &mut [u8],
    ) -> Result<(), TextureError> {
        let (side, [height, width]) = (self.side, self.extents);
        let tiles = [height.div_ceil(side), width.div_ceil(side)];
        // Whole squares past the texels are padding.
        let used = tiles[0] * tiles[1] * side * side * size_of::<E>();
        let (src, dst) = match self.direction {
            Direction::Swizzle => (src, &mut dst[..used]),
            Direction::Deswizzle => (&src[..used], dst),
        };
        let frame = Frame::Tiles {
            tiles: &tiles,
            tile_space: side * side,
        };
        let (options, direction) = (self.options, self.direction);
        copy_tiles(options, kernels, direction, &self.extents, frame, src, dst)
    }

    /// Squares larger than 32 × 32: aligned blocks of up to 256 × 256 texels, each
    /// contiguous in the tiled bytes and a Morton order of square sub-tiles, copied in
    /// units of `unit` texels (`[rows, columns]`: whole sub-tiles, or halves of them, the
    /// sub-tile's columns wide) placed by table. A swizzle's threads each write blocks, a
    /// deswizzle's each a band of image rows, a block's band at a time; every whole band of
    /// a block is one copy, made ready once.
    fn placed<E: Element>(
        &self,
        unit: [usize; 2],
        kernels: [(&Plan, GeneratedCode<E>); 2],
        src: &[u8],
        dst: &mut [u8],
    ) -> Result<(), TextureError> {
        let (options, direction) = (self.options, self.direction);
        let ([height, width], side) = (self.extents, self.side);
        let texel = size_of::<E>();
        // Whether a part of a level spread over threads holds `bytes`.
        let most = part_bytes(options, dst.len());
        let fits_part = |bytes: usize| most.is_none_or(|most| bytes <= most);
        // A swizzle spread over threads writes blocks of at most a part's bytes (of 16-byte
        // texels, 128 × 128), where a 1024² level's sixteen of 256 × 256 were one a thread;
        // sides are powers of two, so their divisors are their halvings.
        let block = match direction {
            Direction::Swizzle => largest_divisor(BLOCK_SIDE.min(side), |block| {
                fits_part(block * block * texel)
            })
            .max(unit[0].max(unit[1])),
            Direction::Deswizzle => BLOCK_SIDE.min(side),
        };
        let block_bytes = block * block * texel;
        let sub = unit[1];
        // Where a block's units start down and along it: their sub-tile's place in the
        // block's Morton order, then a half's in its sub-tile (y's top bit is the highest).
        let down: Vec<usize> = (0..block / unit[0])
            .map(|i| {
                // The unit's first row in the block, and the rows above it in its sub-tile.
                let y = i * unit[0];
                spread(y / sub, 1) * sub * sub + y % sub * sub
            })
            .collect();
        let along: Vec<usize> = (0..block / sub).map(|i| spread(i, 0) * sub * sub).collect();
        let strides = [width, 1];
        let linear = Frame::Strided {
            strides: &strides,
            origin: 0,
        };
        let destination_len = dst.len() / texel;
        // Each block a band of `band_rows` image rows at a time: a swizzle's whole block
        // (its own part of the tiled bytes), a deswizzle's fewer rows, for more threads:
        // rows of at most a part's bytes where the level is spread over threads.
        let band_rows = match direction {
            Direction::Swizzle => block,
            Direction::Deswizzle => largest_divisor(DESWIZZLE_ROWS.min(block), |rows| {
                fits_part(rows * width * texel)
            })
            .max(unit[0]),
        };
        // The parts: a swizzle's blocks of the tiled bytes, a deswizzle's bands of image
        // rows. Each part on one thread; the threads are the parts'.
        let parts = match direction {
            Direction::Swizzle => dst.len() / block_bytes,
            Direction::Deswizzle => height.div_ceil(band_rows),
        };
        let one = part_options(options, dst.len(), parts);
        let per_band = band_rows / unit[0];
        let whole = [band_rows, block];
        let grid = [per_band, block / sub];
        // Every band of a block is the first band's units moved by where its own first unit
        // starts: a unit's start down the block is the sum of its band's first unit's and its
        // own within the band (their rows' bits are disjoint, and `spread` adds over disjoint
        // bits), so one copy made ready serves every whole band.
        let prepared = (height >= band_rows && width >= block)
            .then(|| {
                let starts = [&down[..per_band], &along[..]];
                let frames = [linear, units_placed(unit, &grid, &starts)];
                prepare_tiles(one, kernels, direction, &whole, frames, destination_len)
            })
            .transpose()?;
        // Copies the band of a block whose first texel is `[y, x]` (inside the texels)
        // between `src` and `dst`: the block's tiled bytes (from the band's first unit on),
        // and the image from `[y, x]` on.
        let copy = |[y, x]: [usize; 2], src: &[u8], dst: &mut [u8]| {
            let first = down[y % block / unit[0]] * texel;
            let (src, dst) = match direction {
                Direction::Swizzle => (src, &mut dst[first..]),
                Direction::Deswizzle => (&src[first..], dst),
            };
            let extents = [band_rows.min(height - y), block.min(width - x)];
            if let (Some(prepared), true) = (&prepared, extents == whole) {
                return prepared.run(src, dst);
            }
            let grid = [extents[0].div_ceil(unit[0]), extents[1].div_ceil(sub)];
            let starts = [&down[..grid[0]], &along[..grid[1]]];
            let frames = [linear, units_placed(unit, &grid, &starts)];
            copy_tiles_framed(one, kernels, direction, &extents, frames, src, dst)
        };
        // The blocks of a square, and of the slice, in the tiled order: each square's in
        // its Morton order, the squares along the longer side.
        let per_square = (side / block).pow(2);
        let corner = |index: usize| {
            let (square, m) = (index / per_square, index % per_square);
            let [y, x] = [1, 0].map(|place| unspread(m, place) * block);
            match width >= height {
                true => [y, x + square * side],
                false => [y + square * side, x],
            }
        };
        let index = |[y, x]: [usize; 2]| {
            let (square, [y, x]) = match width >= height {
                true => (x / side, [y, x % side]),
                false => (y / side, [y % side, x]),
            };
            square * per_square + spread(y / block, 1) + spread(x / block, 0)
        };
        match direction {
            // Each block of the tiled bytes; blocks wholly past the texels are padding,
            // left as they were.
            Direction::Swizzle => for_each_part(options, dst, block_bytes, parts, |i, part| {
                let [y, x] = corner(i);
                match y < height && x < width {
                    true => copy([y, x], &src[(y * width + x) * texel..], part),
                    false => Ok(()),
                }
            }),
            // Each band of image rows, block by block.
            Direction::Deswizzle => for_each_part(
                options,
                dst,
                band_rows * width * texel,
                parts,
                |band, part| {
                    (0..width.div_ceil(block)).try_for_each(|column| {
                        let at = [band * band_rows, column * block];
                        let tiled = &src[index(at) * block_bytes..][..block_bytes];
                        copy(at, tiled, &mut part[at[1] * texel..])
                    })
                },
            ),
        }
    }
}

/// Whether the copy of `kernels` in `direction` moves texels of `E` by its generated SIMD
/// rows with `options` (where a unit's registers fit the register file): there a unit beats
/// a larger one's straight-line tile.
fn takes_rows<E: Element>(
    kernels: &[(&Plan, GeneratedCode<E>); 2],
    direction: Direction,
    options: Options,
) -> bool {
    let (plan, code) = match direction {
        Direction::Swizzle => &kernels[0],
        Direction::Deswizzle => &kernels[1],
    };
    code.route(plan, options)
        .is_ok_and(|route| route.tiles == crate::kernel::TileCopy::GeneratedRows)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On x86-64, a deswizzle's unit takes the generated rows where they fit the
    /// registers: halves of 32 × 32 squares for bytes on AVX2 (a row of 32 is one
    /// register; AVX-512's are wider than it) and 2- and 4-byte texels on AVX-512, halves
    /// of 16 × 16 ones for 8- and 16-byte texels on AVX-512 (16 and 32 registers, where
    /// halves of 32 × 32 squares need 64 and 128). Swizzles of 16-byte texels take the
    /// 16 × 16 halves where the whole 16 × 16 sub-tiles (64 registers) spill.
    #[test]
    fn units_take_rows_where_they_fit() {
        fn rows<E: Element>(options: Options) -> [bool; 4] {
            let halves32 = kernels!(E, SwizzleHalf32, DeswizzleHalf32);
            let halves16 = kernels!(E, SwizzleHalf16, DeswizzleHalf16);
            let squares16 = kernels!(E, SwizzleSquare16, DeswizzleSquare16);
            [
                takes_rows(&halves32, Direction::Deswizzle, options),
                takes_rows(&halves16, Direction::Deswizzle, options),
                takes_rows(&squares16, Direction::Swizzle, options),
                takes_rows(&halves16, Direction::Swizzle, options),
            ]
        }
        let options = Options::default();
        #[cfg(target_arch = "x86_64")]
        {
            use crate::kernel::Level;
            let [avx2, avx512] = [Level::Avx2, Level::Avx512].map(Level::is_available);
            assert_eq!(rows::<[u8; 1]>(options)[0], avx2);
            assert_eq!(rows::<[u8; 2]>(options)[0], avx512);
            assert_eq!(rows::<[u8; 4]>(options)[0], avx512);
            assert_eq!(rows::<[u8; 8]>(options), [false, avx512, avx512, avx512]);
            assert_eq!(rows::<[u8; 16]>(options), [false, avx512, false, avx512]);
        }
        assert!(!rows::<[u8; 8]>(options)[0]);
        assert!(!rows::<[u8; 16]>(options)[0]);
    }
}
