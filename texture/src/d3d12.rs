//! D3D12 `D3D12_TEXTURE_LAYOUT_64KB_STANDARD_SWIZZLE` for 2-D textures: the texture in 64 KB
//! tiles, row-major; inside a tile, the 16 bits of the byte offset interleave the bits of
//! the byte's x (in bytes) and y as Microsoft's standard swizzle masks say (bits from the
//! most significant, `X` for x, `Y` for y):
//!
//! | bytes per texel | tile (texels) | bits 15 … 0 |
//! |---:|---|---|
//! | 1 | 256 × 256 | `X Y X Y X Y X Y Y Y Y Y X X X X` |
//! | 2 | 256 × 128 | `X Y X Y X Y X Y X Y Y Y X X X X` |
//! | 4 | 128 × 128 | `X Y X Y X Y X Y X Y Y Y X X X X` |
//! | 8 | 128 × 64 | `X Y X Y X Y X Y X X Y Y X X X X` |
//! | 16 | 64 × 64 | `X Y X Y X Y X Y X X Y Y X X X X` |
//!
//! The 4-byte row is the one the D3D11.3 documentation of `D3D11_TEXTURE_LAYOUT` spells
//! out (`xBytesMask = 1010 1010 1000 1111`, `yMask = 0101 0101 0111 0000`, offsets by
//! `_pdep_u32`); the others are the same standard swizzle family for the other texel sizes
//! (Intel's TileYs, which implements it). Each row is a `bits` layout below, over texels (the
//! lowest x bits, inside a texel, drop out). A surface's levels each take whole tiles, one
//! after the other, layer by layer: the packed small mips of a reserved resource are not
//! modelled, nor 3-D or MSAA textures.

use super::{Direction, Surface, TextureError, checked_product, copy_tiles, unsupported};
use crate::kernel::{Frame, Options};

crate::layout! {
    /// 64 KB tiles of bytes (R8): 256 × 256 texels.
    layout Standard8 {
        memory [ty: dyn, tx: dyn, o: 65536];
        bits o -> [yi: 256, xi: 256] (xi[0], xi[1], xi[2], xi[3], yi[0], yi[1], yi[2], yi[3],
            yi[4], xi[4], yi[5], xi[5], yi[6], xi[6], yi[7], xi[7]);
        merge [ty, yi] -> y;
        merge [tx, xi] -> x;
        coords [y, x];
    }
    kernel Swizzle8 = pack(Standard8);
    kernel Deswizzle8 = unpack(Standard8);

    /// 64 KB tiles of 2-byte texels: 256 × 128.
    layout Standard16 {
        memory [ty: dyn, tx: dyn, o: 32768];
        bits o -> [yi: 128, xi: 256] (xi[0], xi[1], xi[2], yi[0], yi[1], yi[2], xi[3], yi[3],
            xi[4], yi[4], xi[5], yi[5], xi[6], yi[6], xi[7]);
        merge [ty, yi] -> y;
        merge [tx, xi] -> x;
        coords [y, x];
    }
    kernel Swizzle16 = pack(Standard16);
    kernel Deswizzle16 = unpack(Standard16);

    /// 64 KB tiles of 4-byte texels: 128 × 128.
    layout Standard32 {
        memory [ty: dyn, tx: dyn, o: 16384];
        bits o -> [yi: 128, xi: 128] (xi[0], xi[1], yi[0], yi[1], yi[2], xi[2], yi[3], xi[3],
            yi[4], xi[4], yi[5], xi[5], yi[6], xi[6]);
        merge [ty, yi] -> y;
        merge [tx, xi] -> x;
        coords [y, x];
    }
    kernel Swizzle32 = pack(Standard32);
    kernel Deswizzle32 = unpack(Standard32);

    /// 64 KB tiles of 8-byte texels (BC1, BC4, RGBA16): 128 × 64.
    layout Standard64 {
        memory [ty: dyn, tx: dyn, o: 8192];
        bits o -> [yi: 64, xi: 128] (xi[0], yi[0], yi[1], xi[1], xi[2], yi[2], xi[3], yi[3],
            xi[4], yi[4], xi[5], yi[5], xi[6]);
        merge [ty, yi] -> y;
        merge [tx, xi] -> x;
        coords [y, x];
    }
    kernel Swizzle64 = pack(Standard64);
    kernel Deswizzle64 = unpack(Standard64);

    /// 64 KB tiles of 16-byte texels (BC2, BC3, BC5–7, RGBA32): 64 × 64.
    layout Standard128 {
        memory [ty: dyn, tx: dyn, o: 4096];
        bits o -> [yi: 64, xi: 64] (yi[0], yi[1], xi[0], xi[1], yi[2], xi[2], yi[3], xi[3],
            yi[4], xi[4], yi[5], xi[5]);
        merge [ty, yi] -> y;
        merge [tx, xi] -> x;
        coords [y, x];
    }
    kernel Swizzle128 = pack(Standard128);
    kernel Deswizzle128 = unpack(Standard128);
}

const TILE_BYTES: usize = 65536;

/// A tile's size in texels (`[rows, columns]`) for texels of `bytes` bytes.
fn tile_shape(bytes: usize) -> Option<[usize; 2]> {
    Some(match bytes {
        1 => [256, 256],
        2 => [128, 256],
        4 => [128, 128],
        8 => [64, 128],
        16 => [64, 64],
        _ => return None,
    })
}

texel_tiling!(
    /// D3D12's 64 KB standard swizzle of a surface of texels of `bytes` bytes.
    D3d12
);

fn check(surface: &Surface) -> Result<(), TextureError> {
    if tile_shape(surface.format.bytes_per_block()).is_none() {
        let bytes = surface.format.bytes_per_block();
        return Err(unsupported(
            surface.platform,
            format!("texels of {bytes} bytes (standard swizzle has 1, 2, 4, 8 and 16)"),
        ));
    }
    match surface.depth {
        1 => Ok(()),
        _ => Err(unsupported(
            surface.platform,
            "3-D textures (their patterns differ)",
        )),
    }
}

fn level_size([_, height, width]: [usize; 3], bytes: usize) -> Result<usize, TextureError> {
    let [rows, columns] = tile_shape(bytes).ok_or(TextureError::Overflow)?;
    checked_product([height.div_ceil(rows), width.div_ceil(columns), TILE_BYTES])
}

fn copy_level(
    options: Options,
    direction: Direction,
    [_, height, width]: [usize; 3],
    bytes: usize,
    src: &[u8],
    dst: &mut [u8],
) -> Result<(), TextureError> {
    let [rows, columns] = tile_shape(bytes).ok_or(TextureError::Overflow)?;
    let tiles = [height.div_ceil(rows), width.div_ceil(columns)];
    let extents = [height, width];
    let frame = Frame::Tiles {
        tiles: &tiles,
        tile_space: TILE_BYTES / bytes,
    };
    with_kernels!(
        bytes,
        |kernels| copy_tiles(options, kernels, direction, &extents, frame, src, dst),
        {
            1 => 1: Swizzle8, Deswizzle8,
            2 => 2: Swizzle16, Deswizzle16,
            4 => 4: Swizzle32, Deswizzle32,
            8 => 8: Swizzle64, Deswizzle64,
            _ => 16: Swizzle128, Deswizzle128,
        }
    )
}
