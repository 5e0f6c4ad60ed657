//! Xbox 360 (Xenos) tiled surfaces, as `swizzleinator` tiles them (`XGAddress2DTiledX/Y`,
//! after ReverseBox and Xenia): each level (each slice of a 3-D one) padded to whole 32 × 32
//! macro tiles of texels (pixels, or compressed blocks), the tiles row-major; inside a
//! tile, the 10 bits of a texel's index take the bits of x and y in an order that depends
//! on the texel size (bits 0 … 9):
//!
//! | bytes per texel | index bits 0 … 9 |
//! |---:|---|
//! | 4 | `x0 x1 y0 x2 x3 x4^y3 y1 y2 y3 y4` |
//! | 8 | `x0 y0 x1 x3 x4^y3 x2 y1 y2 y4 y3` |
//! | 16 | `y0 x0 x3 x4^y3 x1 x2 y1 y4 y2 y3` |
//!
//! Each row is a `bits` layout below. Texels of 1 and 2 bytes are
//! [`TextureError::Unsupported`]: `swizzleinator`'s addresses for them are no grid of tiles
//! (which bits of the offset hold the tile's column and which hold y's bit 4 changes with
//! the pitch: for 1-byte texels, the offset's bits 9 and up are `x5 y5 y4` at a pitch of 64
//! texels, `x5 x6 y4` at 128, `x5 x6 y4 x7` at 256; for 2-byte texels `x5 y4` at 64, `x5 y4
//! x6` at 128, `x5 y4 x6 x7` at 256), and for 1-byte texels at a pitch of an odd number of 32-texel tiles
//! two texels share an address. The 16-bit byte swap of the Xenos's
//! big-endian formats (`swizzleinator`'s `x360_swap`) is a conversion of the texels, not of
//! their places, and is left to the caller. Mip chains are our levels one after another
//! (`swizzleinator` tiles one level; the console's packed mip tails are not modelled).

use super::{
    Direction, Surface, TextureError, checked_product, copy_slices, copy_tiles, unsupported,
};
use crate::kernel::{Frame, Options};

crate::layout! {
    /// 32 × 32 macro tiles of 4-byte texels (RGBA8).
    layout Macro32 {
        memory [ty: dyn, tx: dyn, t: 1024];
        bits t -> [yi: 32, xi: 32] (xi[0], xi[1], yi[0], xi[2], xi[3], xi[4] ^ yi[3], yi[1],
            yi[2], yi[3], yi[4]);
        merge [ty, yi] -> y;
        merge [tx, xi] -> x;
        coords [y, x];
    }
    kernel SwizzleMacro32 = pack(Macro32);
    kernel DeswizzleMacro32 = unpack(Macro32);

    /// 32 × 32 macro tiles of 8-byte texels (DXT1, DXT5A, RGBA16).
    layout Macro64 {
        memory [ty: dyn, tx: dyn, t: 1024];
        bits t -> [yi: 32, xi: 32] (xi[0], yi[0], xi[1], xi[3], xi[4] ^ yi[3], xi[2], yi[1],
            yi[2], yi[4], yi[3]);
        merge [ty, yi] -> y;
        merge [tx, xi] -> x;
        coords [y, x];
    }
    kernel SwizzleMacro64 = pack(Macro64);
    kernel DeswizzleMacro64 = unpack(Macro64);

    /// 32 × 32 macro tiles of 16-byte texels (DXT2/3, DXT4/5, DXN, RGBA32).
    layout Macro128 {
        memory [ty: dyn, tx: dyn, t: 1024];
        bits t -> [yi: 32, xi: 32] (yi[0], xi[0], xi[3], xi[4] ^ yi[3], xi[1], xi[2], yi[1],
            yi[4], yi[2], yi[3]);
        merge [ty, yi] -> y;
        merge [tx, xi] -> x;
        coords [y, x];
    }
    kernel SwizzleMacro128 = pack(Macro128);
    kernel DeswizzleMacro128 = unpack(Macro128);
}

/// Texel sizes the macro tiles hold (bytes).
const TEXEL_BYTES: [usize; 3] = [4, 8, 16];

/// A macro tile's side, in texels.
const TILE_SIDE: usize = 32;

texel_tiling!(
    /// The Xbox 360's tiling of a surface of texels of `bytes` bytes.
    Xbox360
);

fn check(surface: &Surface) -> Result<(), TextureError> {
    let bytes = surface.format.bytes_per_block();
    match TEXEL_BYTES.contains(&bytes) {
        true => Ok(()),
        false => Err(unsupported(
            surface.platform,
            format!(
                "texels of {bytes} bytes (the macro tiles hold {TEXEL_BYTES:?}; \
                 swizzleinator's 1- and 2-byte addresses are no grid of tiles)"
            ),
        )),
    }
}

/// A level's tiles: `[rows, columns]` of 32 × 32 texels.
fn tiles([_, height, width]: [usize; 3]) -> [usize; 2] {
    [height.div_ceil(TILE_SIDE), width.div_ceil(TILE_SIDE)]
}

/// A level's tiled size: whole macro tiles, each slice of the depth.
fn level_size(blocks: [usize; 3], bytes: usize) -> Result<usize, TextureError> {
    let [rows, columns] = tiles(blocks);
    checked_product([bytes, blocks[0], rows, columns, TILE_SIDE * TILE_SIDE])
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
    let tiles = tiles(blocks);
    let extents = [height, width];
    let frame = Frame::Tiles {
        tiles: &tiles,
        tile_space: TILE_SIDE * TILE_SIDE,
    };
    copy_slices(depth, src, dst, |src, dst| {
        with_kernels!(
            bytes,
            |kernels| copy_tiles(options, kernels, direction, &extents, frame, src, dst),
            {
                4 => 4: SwizzleMacro32, DeswizzleMacro32,
                8 => 8: SwizzleMacro64, DeswizzleMacro64,
                _ => 16: SwizzleMacro128, DeswizzleMacro128,
            }
        )
    })
}
