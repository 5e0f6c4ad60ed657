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
//! time, or a part of one on each thread where the level is spread over threads (rows of
//! sub-tiles for a deswizzle, runs of tiles for a swizzle).

use super::{Direction, Surface, TextureError, checked_product, unsupported};
use super::{
    PreparedTiles, for_each_part, largest_divisor, part_bytes, part_options, prepare_tiles, spread,
};
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

/// Where a level's half sub-tiles lie, for the copies of its parts.
struct Halves {
    /// A half's texels, `[rows, columns]`.
    shape: [usize; 2],
    /// Elements of a half.
    space: usize,
    /// Where each column of halves starts along a row of tiles, and each row of them down
    /// a tile.
    along: Vec<usize>,
    down: [usize; SUB_TILES],
}

impl Level {
    /// Copies the level in parts spread over threads, each the half sub-tiles of a part of
    /// a row of tiles, placed by table, and the image rows they cover: a deswizzle's part
    /// is rows of sub-tiles (its image rows lie together), a swizzle's a run of tiles (its
    /// tiles do). Alone on a thread, a part is a whole row of tiles. Parts of the same
    /// shape are the same copy, made ready once.
    fn copy<E: Element>(
        &self,
        kernels: [(&Plan, GeneratedCode<E>); 2],
        src: &[u8],
        dst: &mut [u8],
    ) -> Result<(), TextureError> {
        let (bytes, [height, width]) = (self.bytes, self.extents);
        let [rows, columns] = tile_shape(bytes).ok_or(TextureError::Overflow)?;
        let shape = [rows / SUB_TILES, columns / SUB_TILES / 2];
        let [space, sub_space, tile_space] =
            [HALF_BYTES, SUB_TILE_BYTES, TILE_BYTES].map(|b| b / bytes);
        // The tile, the sub-tile's place in the tile's Morton order (y's bit first), then
        // the half.
        let along = (0..width.div_ceil(shape[1]))
            .map(|x| {
                let sub_x = x / 2;
                sub_x / SUB_TILES * tile_space
                    + spread(sub_x % SUB_TILES, 1) * sub_space
                    + x % 2 * space
            })
            .collect();
        let down = std::array::from_fn(|y| spread(y, 0) * sub_space);
        let halves = Halves {
            shape,
            space,
            along,
            down,
        };
        let most = part_bytes(self.options, dst.len());
        let tile_rows = height.div_ceil(rows);
        let (tiled_row, linear_row) = (width.div_ceil(columns) * TILE_BYTES, rows * width * bytes);
        // Each part's copy (`[first row of halves, image rows, texels across]`) and bytes of
        // the source, the parts' count and their length in the destination.
        let (parts, part_len, key, source): (usize, usize, PartKey, PartSource) =
            match self.direction {
                Direction::Deswizzle => {
                    // Rows of sub-tiles a part: as many as its bytes hold, at least one.
                    let sub_row = shape[0] * width * bytes;
                    let per_part = match most {
                        Some(most) => largest_divisor(SUB_TILES, |n| n * sub_row <= most),
                        None => SUB_TILES,
                    };
                    let (part_rows, per_row) = (per_part * shape[0], SUB_TILES / per_part);
                    let parts = height.div_ceil(part_rows);
                    (
                        parts,
                        part_rows * width * bytes,
                        Box::new(move |p| {
                            let band_rows = part_rows.min(height - p * part_rows);
                            [p % per_row * per_part, band_rows, width]
                        }),
                        Box::new(move |p| p / per_row * tiled_row..(p / per_row + 1) * tiled_row),
                    )
                }
                Direction::Swizzle => {
                    // Tiles a part: the most its bytes hold that divide a row's, at least one.
                    let across = width.div_ceil(columns);
                    let per_part = match most {
                        Some(most) => largest_divisor(across, |n| n * TILE_BYTES <= most),
                        None => across,
                    };
                    let (part_columns, per_row) = (per_part * columns, across / per_part);
                    (
                        tile_rows * per_row,
                        per_part * TILE_BYTES,
                        Box::new(move |p| {
                            let (ty, x) = (p / per_row, p % per_row);
                            let band_rows = rows.min(height - ty * rows);
                            [0, band_rows, part_columns.min(width - x * part_columns)]
                        }),
                        Box::new(move |p| {
                            let (ty, x) = (p / per_row, p % per_row);
                            ty * linear_row + x * part_columns * bytes..src.len()
                        }),
                    )
                }
            };
        let one = part_options(self.options, dst.len(), parts);
        let (copies, which) = part_copies(parts, &key, |key| {
            self.prepare(one, kernels, &halves, key, dst.len())
        })?;
        for_each_part(self.options, dst, part_len, parts, |p, part| {
            copies[which[p]].run(&src[source(p)], part)
        })
    }

    /// The copy of a part of a row of tiles: from its row of half sub-tiles `first` down,
    /// `band_rows` image rows of `band_columns` texels from its start, into a destination of
    /// `destination_bytes` in all.
    fn prepare<'p, E: Element>(
        &self,
        options: Options,
        kernels: [(&'p Plan, GeneratedCode<E>); 2],
        halves: &Halves,
        [first, band_rows, band_columns]: [usize; 3],
        destination_bytes: usize,
    ) -> Result<PreparedTiles<'p, E>, TextureError> {
        let grid = [
            band_rows.div_ceil(halves.shape[0]),
            band_columns.div_ceil(halves.shape[1]),
        ];
        let starts = [&halves.down[first..][..grid[0]], &halves.along[..grid[1]]];
        let strides = [self.extents[1], 1];
        let frames = [
            Frame::Strided {
                strides: &strides,
                origin: 0,
            },
            Frame::Placed {
                tiles: &grid,
                tile_space: halves.space,
                starts: &starts,
            },
        ];
        let extents = [band_rows, band_columns];
        let destination_len = destination_bytes / self.bytes;
        prepare_tiles(
            options,
            kernels,
            self.direction,
            &extents,
            frames,
            destination_len,
        )
    }
}

/// Which copy a part takes (`[first row of halves, image rows, texels across]`).
type PartKey<'a> = Box<dyn Fn(usize) -> [usize; 3] + Sync + 'a>;

/// The source bytes a part reads.
type PartSource<'a> = Box<dyn Fn(usize) -> std::ops::Range<usize> + Sync + 'a>;

/// The copies of `parts` parts, one made ready by `prepare` for each distinct `key` among
/// them, and which of them each part takes.
fn part_copies<K: Copy + PartialEq, C>(
    parts: usize,
    key: impl Fn(usize) -> K,
    prepare: impl Fn(K) -> Result<C, TextureError>,
) -> Result<(Vec<C>, Vec<usize>), TextureError> {
    let mut keys = Vec::new();
    let which = (0..parts)
        .map(|p| {
            let key = key(p);
            keys.iter()
                .position(|&seen| seen == key)
                .unwrap_or_else(|| {
                    keys.push(key);
                    keys.len() - 1
                })
        })
        .collect();
    let copies = keys.into_iter().map(prepare).collect::<Result<_, _>>()?;
    Ok((copies, which))
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
