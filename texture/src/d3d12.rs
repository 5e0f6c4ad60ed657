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
//! (Intel's TileYs, which implements it). A surface's levels each take whole tiles, one
//! after the other, layer by layer: the packed small mips of a reserved resource are not
//! modelled, nor 3-D or MSAA textures.
//!
//! Every row's top four bits are `X Y X Y`: a tile is 4 × 4 sub-tiles of 4 KB (its low 12
//! bits), in a Morton order with y's bit first, and every row's bit 11 is an `X`: a sub-tile
//! is two halves of 2 KB side by side. Each half is a `bits` layout below, over texels (the
//! lowest x bits, inside a texel, drop out), whose source fits the AVX-512 register file, so
//! that texels of 2 to 16 bytes copy by its kernels' SIMD rows where a whole sub-tile's
//! would spill (bytes, whose rows are narrower than a register, by its straight-line tile);
//! the halves are placed by table ([`crate::kernel::Frame::Placed`]), a row of tiles at a
//! time.

use super::{Direction, Surface, TextureError, checked_product, unsupported};
use super::{for_each_part, part_options, prepare_tiles, spread};
use crate::kernel::{Element, Frame, GeneratedCode, Options, Plan};

crate::layout! {
    /// Half sub-tiles of bytes (R8): 64 × 32 texels, the low 11 bits of
    /// `X Y X Y X Y X Y Y Y Y Y X X X X`.
    layout Standard8 {
        memory [ty: dyn, tx: dyn, o: 2048];
        bits o -> [yi: 64, xi: 32] (xi[0], xi[1], xi[2], xi[3], yi[0], yi[1], yi[2], yi[3],
            yi[4], xi[4], yi[5]);
        merge [ty, yi] -> y;
        merge [tx, xi] -> x;
        coords [y, x];
    }
    kernel Swizzle8 = pack(Standard8);
    kernel Deswizzle8 = unpack(Standard8);

    /// Half sub-tiles of 2-byte texels: 32 × 32.
    layout Standard16 {
        memory [ty: dyn, tx: dyn, o: 1024];
        bits o -> [yi: 32, xi: 32] (xi[0], xi[1], xi[2], yi[0], yi[1], yi[2], xi[3], yi[3],
            xi[4], yi[4]);
        merge [ty, yi] -> y;
        merge [tx, xi] -> x;
        coords [y, x];
    }
    kernel Swizzle16 = pack(Standard16);
    kernel Deswizzle16 = unpack(Standard16);

    /// Half sub-tiles of 4-byte texels: 32 × 16.
    layout Standard32 {
        memory [ty: dyn, tx: dyn, o: 512];
        bits o -> [yi: 32, xi: 16] (xi[0], xi[1], yi[0], yi[1], yi[2], xi[2], yi[3], xi[3],
            yi[4]);
        merge [ty, yi] -> y;
        merge [tx, xi] -> x;
        coords [y, x];
    }
    kernel Swizzle32 = pack(Standard32);
    kernel Deswizzle32 = unpack(Standard32);

    /// Half sub-tiles of 8-byte texels (BC1, BC4, RGBA16): 16 × 16.
    layout Standard64 {
        memory [ty: dyn, tx: dyn, o: 256];
        bits o -> [yi: 16, xi: 16] (xi[0], yi[0], yi[1], xi[1], xi[2], yi[2], xi[3], yi[3]);
        merge [ty, yi] -> y;
        merge [tx, xi] -> x;
        coords [y, x];
    }
    kernel Swizzle64 = pack(Standard64);
    kernel Deswizzle64 = unpack(Standard64);

    /// Half sub-tiles of 16-byte texels (BC2, BC3, BC5–7, RGBA32): 16 × 8.
    layout Standard128 {
        memory [ty: dyn, tx: dyn, o: 128];
        bits o -> [yi: 16, xi: 8] (yi[0], yi[1], xi[0], xi[1], yi[2], xi[2], yi[3]);
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

/// Bytes of a sub-tile.
const SUB_TILE_BYTES: usize = 4096;

/// Sub-tiles of a tile along each side.
const SUB_TILES: usize = 4;

/// Bytes of a half sub-tile, the unit a level copies: a sub-tile's top bit is an x bit for
/// every texel size, so it is two halves side by side, each whole in 2 KB.
const HALF_BYTES: usize = SUB_TILE_BYTES / 2;

fn copy_level(
    options: Options,
    direction: Direction,
    [_, height, width]: [usize; 3],
    bytes: usize,
    src: &[u8],
    dst: &mut [u8],
) -> Result<(), TextureError> {
    let level = Level {
        options,
        direction,
        extents: [height, width],
        bytes,
    };
    with_kernels!(
        bytes,
        |kernels| level.copy(kernels, src, dst),
        {
            1 => 1: Swizzle8, Deswizzle8,
            2 => 2: Swizzle16, Deswizzle16,
            4 => 4: Swizzle32, Deswizzle32,
            8 => 8: Swizzle64, Deswizzle64,
            _ => 16: Swizzle128, Deswizzle128,
        }
    )
}

/// One level: its texels (`[rows, columns]`), of `bytes` bytes.
struct Level {
    options: Options,
    direction: Direction,
    extents: [usize; 2],
    bytes: usize,
}

impl Level {
    /// Copies the level a row of tiles at a time, the destination's rows spread over
    /// threads: each the sub-tiles of one row of tiles, placed by table, and the image rows
    /// they cover. Every whole row of tiles is the same copy, made ready once.
    fn copy<E: Element>(
        &self,
        kernels: [(&Plan, GeneratedCode<E>); 2],
        src: &[u8],
        dst: &mut [u8],
    ) -> Result<(), TextureError> {
        let (bytes, [height, width]) = (self.bytes, self.extents);
        let [rows, columns] = tile_shape(bytes).ok_or(TextureError::Overflow)?;
        let half = [rows / SUB_TILES, columns / SUB_TILES / 2];
        let [half_space, sub_space, tile_space] =
            [HALF_BYTES, SUB_TILE_BYTES, TILE_BYTES].map(|b| b / bytes);
        // Where each column of half sub-tiles starts along a row of tiles, and each row of
        // them down it: the tile, the sub-tile's place in the tile's Morton order (y's bit
        // first), then the half.
        let along: Vec<usize> = (0..width.div_ceil(half[1]))
            .map(|x| {
                let sub_x = x / 2;
                sub_x / SUB_TILES * tile_space
                    + spread(sub_x % SUB_TILES, 1) * sub_space
                    + x % 2 * half_space
            })
            .collect();
        let down: [usize; SUB_TILES] = std::array::from_fn(|y| spread(y, 0) * sub_space);
        let strides = [width, 1];
        let (options, direction) = (self.options, self.direction);
        let tile_rows = height.div_ceil(rows);
        // Each part (a row of tiles) on one thread; the threads are the parts'.
        let one = part_options(options, dst.len(), tile_rows);
        let destination_len = dst.len() / bytes;
        // The copy of a row of tiles whose texels are `band_rows` image rows.
        let prepare = |band_rows: usize| {
            let grid = [band_rows.div_ceil(half[0]), along.len()];
            let starts = [&down[..grid[0]], &along[..]];
            let frames = [
                Frame::Strided {
                    strides: &strides,
                    origin: 0,
                },
                Frame::Placed {
                    tiles: &grid,
                    tile_space: half_space,
                    starts: &starts,
                },
            ];
            let extents = [band_rows, width];
            prepare_tiles(one, kernels, direction, &extents, frames, destination_len)
        };
        // The last row of tiles, whole or cut at the texels, and the whole ones before it
        // where they differ from it.
        let last_rows = height - (tile_rows - 1) * rows;
        let last = prepare(last_rows)?;
        let whole = (tile_rows > 1 && last_rows != rows)
            .then(|| prepare(rows))
            .transpose()?;
        let copy = |ty: usize, src: &[u8], dst: &mut [u8]| match (&whole, ty + 1 < tile_rows) {
            (Some(whole), true) => whole.run(src, dst),
            _ => last.run(src, dst),
        };
        // A row of tiles' bytes, and its image rows'.
        let tiled_row = width.div_ceil(columns) * TILE_BYTES;
        let linear_row = rows * width * bytes;
        match direction {
            Direction::Swizzle => for_each_part(options, dst, tiled_row, tile_rows, |ty, part| {
                copy(ty, &src[ty * linear_row..], part)
            }),
            Direction::Deswizzle => {
                for_each_part(options, dst, linear_row, tile_rows, |ty, part| {
                    copy(ty, &src[ty * tiled_row..][..tiled_row], part)
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::{Level, TileCopy};

    /// A half sub-tile's source fits the AVX-512 register file, so texels of 2, 4, 8 and
    /// 16 bytes (4 × 4 transposes of 16-byte lanes) copy by the generated rows where
    /// AVX-512 runs; a whole sub-tile's would spill, and took its straight-line tile.
    /// Bytes (rows of 32, narrower than a register) have no network, and keep the
    /// straight-line tile.
    #[test]
    fn half_sub_tiles_take_the_generated_rows() {
        let options = Options::default();
        let rows = [
            Swizzle16::route::<[u8; 2]>(options),
            Deswizzle16::route::<[u8; 2]>(options),
            Swizzle32::route::<[u8; 4]>(options),
            Deswizzle32::route::<[u8; 4]>(options),
            Swizzle64::route::<[u8; 8]>(options),
            Deswizzle64::route::<[u8; 8]>(options),
            Swizzle128::route::<[u8; 16]>(options),
            Deswizzle128::route::<[u8; 16]>(options),
        ];
        let straight = [
            Swizzle8::route::<[u8; 1]>(options),
            Deswizzle8::route::<[u8; 1]>(options),
        ];
        let avx512 = Level::Avx512.is_available();
        let expect = "default options pick a level this CPU runs";
        for route in rows.map(|route| route.expect(expect)) {
            assert_eq!(route.tiles == TileCopy::GeneratedRows, avx512, "{route}");
            assert_eq!(route.level == Level::Avx512, avx512, "{route}");
        }
        for route in straight.map(|route| route.expect(expect)) {
            assert_eq!(route.tiles, TileCopy::StraightLineTile, "{route}");
        }
    }
}
