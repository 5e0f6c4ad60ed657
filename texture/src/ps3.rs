//! PlayStation 3 (RSX) swizzled surfaces, as `swizzleinator` tiles them: each level (each
//! slice of a 3-D one) in one Morton order over its texels (pixels, or compressed blocks),
//! x's bit first, the bits of x and y interleaved while both sides have bits left, then the
//! rest of the longer side's. Sides are powers of two: a level's texels are padded to the
//! next powers of two (what `swizzleinator` does for compressed formats with
//! `align_resolution`; swizzled RSX textures have power-of-two sides).
//!
//! A `w × h` Morton order with `s = min(w, h)` is `s × s` Morton squares side by side (or
//! stacked, when the level is taller than wide), one after the other: for `s` up to 64 a
//! level is one row (or column) of [`MortonSquare64`]-style tiles, the `layout!` items
//! below (side 8 is the PS4's [`MortonTiles`](super::ps4::MortonTiles)). A larger square is
//! itself a Morton order of 64 × 64 tiles: the tiles are copied with the 64 × 64 kernels,
//! each to the place the same Morton order ([`MortonSquare64::tile_coord`]) gives it
//! (squares of up to 64 × 64 tiles: levels whose shorter side is at most 4096 texels, the
//! RSX's largest texture).

use super::ps4::{DeswizzleMorton, SwizzleMorton};
use super::{
    Direction, Surface, TextureError, checked_product, copy_slices, copy_tiles, copy_tiles_framed,
    for_each_part, prepare_tiles, unsupported,
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
    /// 32 × 32 Morton squares.
    MortonSquare32, SwizzleSquare32, DeswizzleSquare32: 32, 1024;
    /// 64 × 64 Morton squares, and the tiles of larger squares.
    MortonSquare64, SwizzleSquare64, DeswizzleSquare64: 64, 4096;
}

/// Texel sizes the Morton kernels copy (bytes).
const TEXEL_BYTES: [usize; 5] = [1, 2, 4, 8, 16];

/// The largest shorter side of a level, in texels: squares of 64 × 64 tiles of 64 × 64.
const MAX_SQUARE: usize = 64 * 64;

/// The side of the largest tile a kernel copies whole.
const TILE_SIDE: usize = 64;

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
            64 => self.squares(kernels!(E, SwizzleSquare64, DeswizzleSquare64), src, dst),
            _ => self.large(kernels!(E, SwizzleSquare64, DeswizzleSquare64), src, dst),
        }
    }

    /// Squares of at most 64 × 64: one row or column of them, each a tile of the kernels'
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

    /// Squares larger than 64 × 64: each a Morton order of 64 × 64 tiles, copied one by one
    /// between a rectangle of the linear slice and its place among the tiled bytes, the
    /// destination's parts spread over threads (each tile of a swizzle, each row of tiles
    /// of a deswizzle). Every whole tile is the same copy, made ready once: the rectangle
    /// is a view at the start of the linear bytes from its corner on.
    fn large<E: Element>(
        &self,
        kernels: [(&Plan, GeneratedCode<E>); 2],
        src: &[u8],
        dst: &mut [u8],
    ) -> Result<(), TextureError> {
        let (options, direction) = (self.options, self.direction);
        let [height, width] = self.extents;
        let per_side = self.side / TILE_SIDE;
        let texel = size_of::<E>();
        let tile_bytes = MortonSquare64::TILE_SPACE * texel;
        let wide = width >= height;
        let squares = height.max(width).div_ceil(self.side);
        let strides = [width, 1];
        let frames = [
            Frame::Strided {
                strides: &strides,
                origin: 0,
            },
            Frame::Tiles {
                tiles: &[1, 1],
                tile_space: MortonSquare64::TILE_SPACE,
            },
        ];
        let whole = [TILE_SIDE; 2];
        let destination_len = dst.len() / texel;
        // Each part on one thread; the threads are the parts'.
        let one = options.threads(1);
        let tile = prepare_tiles(one, kernels, direction, &whole, frames, destination_len)?;
        // Copies the tile whose first texel is `[y, x]`, between `src` and `dst` (each the
        // tile's bytes on its side, the linear one from the tile's corner on).
        let copy = |[y, x]: [usize; 2], src: &[u8], dst: &mut [u8]| {
            let rect = [TILE_SIDE.min(height - y), TILE_SIDE.min(width - x)];
            match rect == whole {
                true => tile.run(src, dst),
                // A tile cut by the texels' edge.
                false => copy_tiles_framed(one, kernels, direction, &rect, frames, src, dst),
            }
        };
        // Where the tile at tile coordinates `[ty, tx]` of the slice lies among the tiled
        // bytes: its square, then its place in the square's Morton order.
        let tiled_at = |ty: usize, tx: usize| {
            let (square, ty, tx) = match wide {
                true => (tx / per_side, ty, tx % per_side),
                false => (ty / per_side, ty % per_side, tx),
            };
            (square * per_side * per_side + MortonSquare64::tile_offset(ty, tx)) * tile_bytes
        };
        match direction {
            // Each tile of the destination: padding tiles are left as they were.
            Direction::Swizzle => {
                let tiles = squares * per_side * per_side;
                for_each_part(options, dst, tile_bytes, tiles, |index, part| {
                    let per_square = per_side * per_side;
                    let (square, m) = (index / per_square, index % per_square);
                    let [ty, tx] = MortonSquare64::tile_coord(m);
                    let (sy, sx) = if wide { (0, square) } else { (square, 0) };
                    let y = (sy * per_side + ty) * TILE_SIDE;
                    let x = (sx * per_side + tx) * TILE_SIDE;
                    if y >= height || x >= width {
                        return Ok(()); // A tile of padding.
                    }
                    // Inside the slice: `y < height` and `x < width`.
                    let corner = (y * width + x) * texel;
                    copy([y, x], &src[corner..], part)
                })
            }
            // Each row of tiles of the linear destination, tile by tile.
            Direction::Deswizzle => {
                let row_bytes = TILE_SIDE * width * texel;
                let rows = height.div_ceil(TILE_SIDE);
                for_each_part(options, dst, row_bytes, rows, |ty, part| {
                    (0..width.div_ceil(TILE_SIDE)).try_for_each(|tx| {
                        let at = tiled_at(ty, tx);
                        let corner = tx * TILE_SIDE * texel;
                        let (y, x) = (ty * TILE_SIDE, tx * TILE_SIDE);
                        copy([y, x], &src[at..][..tile_bytes], &mut part[corner..])
                    })
                })
            }
        }
    }
}
