//! Wii U surfaces (GX2, the R600 family's tiling), as AMD's addrlib and `wiiu_swizzle` tile
//! them: 1-D micro tiling and 2-D macro tiling over 2 pipes and 4 banks, one sample.
//!
//! - **Micro tiles** are 8×8 texels. The texel's index inside one (6 bits) takes the bits of
//!   x and y in an order that depends on the texel size (the displayable order):
//!
//!   | bytes per texel | index bits 0 … 5 |
//!   |---:|---|
//!   | 1 | `x0 x1 x2 y1 y0 y2` |
//!   | 2 | `x0 x1 x2 y0 y1 y2` |
//!   | 4 | `x0 x1 y0 x2 y1 y2` |
//!   | 8 | `x0 y0 x1 x2 y1 y2` |
//!   | 16 | `y0 x0 x1 x2 y1 y2` |
//!
//! - **1-D thin** ([`TileMode::Tiled1DThin1`]): micro tiles row-major, `pitch / 8` to a row.
//! - **2-D thin** ([`TileMode::Tiled2DThin1`]): macro tiles of 4 × 2 micro tiles (32 × 16
//!   texels), row-major, `pitch / 32` to a row. Memory comes in 256-byte groups, eight to a
//!   2 KB row: the group's 3 bits are the pipe (`x3 ^ y3`) and the bank (`x3 ^ y5`,
//!   `x4 ^ y4`), XORed with the surface's swizzle (bits 8 to 10 of GX2's `swizzle`: pipe,
//!   then bank). A micro tile's bytes fill its group; texels of 1 and 2 bytes put 4 and 2
//!   macro tiles side by side in a group, texels of 8 and 16 bytes spread one micro tile over
//!   2 and 4 2-KB rows.
//!
//! Both are `bits` layouts below, over texels. One macro-tile row (16 texel rows) has
//! constant `y4` and `y5`, so their part of the bank, and the swizzle's, is one XOR of the
//! group index per row: an *affine* map, which no GF(2) matrix is; it is applied as that
//! permutation of the eight groups of every 2 KB row.
//!
//! **Sizes** (addrlib's `ComputeSurfaceInfo` for one sample, thin modes):
//! - Mips past 0 round their width and height up to powers of two before padding.
//! - A 2-D surface's mip falls back to 1-D when its (power-of-two) width is under
//!   `32 · max(1, 4 / bytes)` or its height under 16; mip 0 never does.
//! - 1-D pitches are multiples of `max(8, 32 / bytes)` texels, heights of 8.
//! - 2-D pitches are multiples of `32 · max(1, 4 / bytes)`, heights of 16. (addrlib also
//!   widens some mip-0 pitches by a macro tile, its "dual pitch alignment"; GX2 texture
//!   files do not: a 1024² BC1 texture has a pitch of 256 blocks, not 288, and
//!   `wiiu_swizzle` clamps its computed pitch to the header's. Ours is the files'.)
//! - A level's tiled size is `pitch × padded height × bytes`; levels follow one another.
//!
//! GX2 files keep their own mip offsets (`mipOffset`, which may leave gaps between levels):
//! [`Level::swizzled`](super::Level::swizzled) says where ours are. Linear, thick (1-D and
//! 2-D), thin-2/thin-4, bank-swapped and 3-D tile modes, array layers and depth, and texel
//! sizes other than 1, 2, 4, 8 and 16 bytes are [`TextureError::Unsupported`].

use super::{Direction, Platform, Surface, TextureError, Tiling, copy_tiles, unsupported};
use crate::__private::GeneratedCode;
use crate::kernel::{Frame, Options, Plan};

crate::layout! {
    /// 1-D thin, bytes: a row of 8×8 micro tiles.
    pub layout Micro8 {
        memory [tx: dyn, p: 64];
        bits p -> [yi: 8, xi: 8] (xi[0], xi[1], xi[2], yi[1], yi[0], yi[2]);
        merge [tx, xi] -> x;
        coords [yi, x];
    }
    pub kernel SwizzleMicro8 = pack(Micro8);
    pub kernel DeswizzleMicro8 = unpack(Micro8);

    /// 1-D thin, 2-byte texels.
    pub layout Micro16 {
        memory [tx: dyn, p: 64];
        bits p -> [yi: 8, xi: 8] (xi[0], xi[1], xi[2], yi[0], yi[1], yi[2]);
        merge [tx, xi] -> x;
        coords [yi, x];
    }
    pub kernel SwizzleMicro16 = pack(Micro16);
    pub kernel DeswizzleMicro16 = unpack(Micro16);

    /// 1-D thin, 4-byte texels.
    pub layout Micro32 {
        memory [tx: dyn, p: 64];
        bits p -> [yi: 8, xi: 8] (xi[0], xi[1], yi[0], xi[2], yi[1], yi[2]);
        merge [tx, xi] -> x;
        coords [yi, x];
    }
    pub kernel SwizzleMicro32 = pack(Micro32);
    pub kernel DeswizzleMicro32 = unpack(Micro32);

    /// 1-D thin, 8-byte texels (BC1, BC4).
    pub layout Micro64 {
        memory [tx: dyn, p: 64];
        bits p -> [yi: 8, xi: 8] (xi[0], yi[0], xi[1], xi[2], yi[1], yi[2]);
        merge [tx, xi] -> x;
        coords [yi, x];
    }
    pub kernel SwizzleMicro64 = pack(Micro64);
    pub kernel DeswizzleMicro64 = unpack(Micro64);

    /// 1-D thin, 16-byte texels (BC2, BC3, BC5, BC7).
    pub layout Micro128 {
        memory [tx: dyn, p: 64];
        bits p -> [yi: 8, xi: 8] (yi[0], xi[0], xi[1], xi[2], yi[1], yi[2]);
        merge [tx, xi] -> x;
        coords [yi, x];
    }
    pub kernel SwizzleMicro128 = pack(Micro128);
    pub kernel DeswizzleMicro128 = unpack(Micro128);

    /// 2-D thin, bytes: one macro-tile row, four macro tiles to a 256-byte group; `g` is
    /// the group (pipe, then bank) before the row's XOR.
    pub layout Macro8 {
        memory [mq: dyn, g: 8, mr: 4, p: 64];
        bits g -> [y3: 2, x4: 2, x3: 2] (x3[0] ^ y3[0], x3[0], x4[0]);
        bits p -> [yi: 8, xi: 8] (xi[0], xi[1], xi[2], yi[1], yi[0], yi[2]);
        merge [y3, yi] -> y;
        merge [mq, mr, x4, x3, xi] -> x;
        coords [y, x];
    }
    pub kernel SwizzleMacro8 = pack(Macro8);
    pub kernel DeswizzleMacro8 = unpack(Macro8);

    /// 2-D thin, 2-byte texels: two macro tiles to a group.
    pub layout Macro16 {
        memory [mh: dyn, g: 8, mr: 2, p: 64];
        bits g -> [y3: 2, x4: 2, x3: 2] (x3[0] ^ y3[0], x3[0], x4[0]);
        bits p -> [yi: 8, xi: 8] (xi[0], xi[1], xi[2], yi[0], yi[1], yi[2]);
        merge [y3, yi] -> y;
        merge [mh, mr, x4, x3, xi] -> x;
        coords [y, x];
    }
    pub kernel SwizzleMacro16 = pack(Macro16);
    pub kernel DeswizzleMacro16 = unpack(Macro16);

    /// 2-D thin, 4-byte texels: a micro tile is a group.
    pub layout Macro32 {
        memory [mx: dyn, g: 8, p: 64];
        bits g -> [y3: 2, x4: 2, x3: 2] (x3[0] ^ y3[0], x3[0], x4[0]);
        bits p -> [yi: 8, xi: 8] (xi[0], xi[1], yi[0], xi[2], yi[1], yi[2]);
        merge [y3, yi] -> y;
        merge [mx, x4, x3, xi] -> x;
        coords [y, x];
    }
    pub kernel SwizzleMacro32 = pack(Macro32);
    pub kernel DeswizzleMacro32 = unpack(Macro32);

    /// 2-D thin, 8-byte texels: a micro tile over two 2 KB rows (its index's top bit, `y2`).
    pub layout Macro64 {
        memory [mx: dyn, ph: 2, g: 8, pl: 32];
        bits g -> [y3: 2, x4: 2, x3: 2] (x3[0] ^ y3[0], x3[0], x4[0]);
        bits pl -> [yl: 4, xi: 8] (xi[0], yl[0], xi[1], xi[2], yl[1]);
        merge [y3, ph, yl] -> y;
        merge [mx, x4, x3, xi] -> x;
        coords [y, x];
    }
    pub kernel SwizzleMacro64 = pack(Macro64);
    pub kernel DeswizzleMacro64 = unpack(Macro64);

    /// 2-D thin, 16-byte texels: a micro tile over four 2 KB rows (`y1`, `y2`).
    pub layout Macro128 {
        memory [mx: dyn, ph: 4, g: 8, pl: 16];
        bits g -> [y3: 2, x4: 2, x3: 2] (x3[0] ^ y3[0], x3[0], x4[0]);
        bits pl -> [y0: 2, xi: 8] (y0[0], xi[0], xi[1], xi[2]);
        merge [y3, ph, y0] -> y;
        merge [mx, x4, x3, xi] -> x;
        coords [y, x];
    }
    pub kernel SwizzleMacro128 = pack(Macro128);
    pub kernel DeswizzleMacro128 = unpack(Macro128);
}

/// GX2's tile modes (`GX2TileMode`, addrlib's `AddrTileMode`), by their values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TileMode {
    LinearGeneral = 0,
    LinearAligned = 1,
    Tiled1DThin1 = 2,
    Tiled1DThick = 3,
    Tiled2DThin1 = 4,
    Tiled2DThin2 = 5,
    Tiled2DThin4 = 6,
    Tiled2DThick = 7,
    Tiled2BThin1 = 8,
    Tiled2BThin2 = 9,
    Tiled2BThin4 = 10,
    Tiled2BThick = 11,
    Tiled3DThin1 = 12,
    Tiled3DThick = 13,
    Tiled3BThin1 = 14,
    Tiled3BThick = 15,
}

impl TileMode {
    /// Every mode, in GX2's order.
    pub const ALL: [TileMode; 16] = [
        TileMode::LinearGeneral,
        TileMode::LinearAligned,
        TileMode::Tiled1DThin1,
        TileMode::Tiled1DThick,
        TileMode::Tiled2DThin1,
        TileMode::Tiled2DThin2,
        TileMode::Tiled2DThin4,
        TileMode::Tiled2DThick,
        TileMode::Tiled2BThin1,
        TileMode::Tiled2BThin2,
        TileMode::Tiled2BThin4,
        TileMode::Tiled2BThick,
        TileMode::Tiled3DThin1,
        TileMode::Tiled3DThick,
        TileMode::Tiled3BThin1,
        TileMode::Tiled3BThick,
    ];

    /// The mode of a GX2 value (as texture files store it).
    pub fn from_gx2(value: u32) -> Option<TileMode> {
        TileMode::ALL.get(usize::try_from(value).ok()?).copied()
    }

    /// Whether [`Surface`] tiles this mode.
    pub fn is_supported(self) -> bool {
        matches!(self, TileMode::Tiled1DThin1 | TileMode::Tiled2DThin1)
    }
}

/// Bytes of a pipe-interleave group; eight groups (2 pipes × 4 banks) make a 2 KB row.
const GROUP_BYTES: usize = 256;
const GROUPS: usize = 8;

/// A Wii U surface's rules.
#[derive(Clone, Copy, Debug)]
pub(super) struct Rules {
    macro_tiled: bool,
    /// The swizzle's pipe and bank, as one group index (pipe lowest).
    group_swizzle: usize,
}

pub(super) fn rules(
    surface: &Surface,
    tile_mode: TileMode,
    swizzle: u32,
) -> Result<Rules, TextureError> {
    let platform = surface.platform;
    if !tile_mode.is_supported() {
        return Err(unsupported(
            platform,
            format!("tile mode {tile_mode:?} (tiled: Tiled1DThin1 and Tiled2DThin1)"),
        ));
    }
    let bytes = surface.format.bytes_per_block;
    if !bytes.is_power_of_two() || bytes > 16 {
        return Err(unsupported(
            platform,
            format!("texels of {bytes} bytes (tiled: 1, 2, 4, 8 and 16)"),
        ));
    }
    if surface.depth != 1 || surface.layers != 1 {
        return Err(unsupported(platform, "array layers and depth"));
    }
    Ok(Rules {
        macro_tiled: tile_mode == TileMode::Tiled2DThin1,
        group_swizzle: (swizzle >> 8) as usize % GROUPS,
    })
}

/// How one level is tiled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct LevelTiling {
    macro_tiled: bool,
    /// Texels per row of tiles.
    pitch: usize,
    group_swizzle: usize,
}

impl Rules {
    /// Mip `mip`'s tiled size and tiling, for `[_, height, width]` blocks of `bytes` bytes.
    pub(super) fn level(
        &self,
        mip: usize,
        [_, height, width]: [usize; 3],
        bytes: usize,
    ) -> Result<(usize, Tiling), TextureError> {
        let overflow = || TextureError::Overflow;
        let (mut pitch, mut rows) = match mip {
            0 => (width, height),
            _ => (
                width.checked_next_power_of_two().ok_or_else(overflow)?,
                height.checked_next_power_of_two().ok_or_else(overflow)?,
            ),
        };
        // Macro tiles side by side in one group.
        let per_group = (4 / bytes).max(1);
        let macro_tiled = self.macro_tiled && (mip == 0 || (pitch >= 32 * per_group && rows >= 16));
        let (pitch_align, row_align) = match macro_tiled {
            true => (32 * per_group, 16),
            false => ((32 / bytes).max(8), 8),
        };
        pitch = pitch
            .checked_next_multiple_of(pitch_align)
            .ok_or_else(overflow)?;
        rows = rows
            .checked_next_multiple_of(row_align)
            .ok_or_else(overflow)?;
        let size = [pitch, rows]
            .into_iter()
            .try_fold(bytes, |acc, n| acc.checked_mul(n))
            .ok_or_else(overflow)?;
        let tiling = LevelTiling {
            macro_tiled,
            pitch,
            group_swizzle: self.group_swizzle,
        };
        Ok((size, Tiling::Gx2(tiling)))
    }
}

/// Copies one level, one row of tiles (8 texel rows for micro tiling, 16 for macro) at a
/// time: the tiles of a row take the start of its `pitch`-wide stretch.
pub(super) fn copy_level(
    options: Options,
    direction: Direction,
    [_, height, width]: [usize; 3],
    bytes: usize,
    tiling: LevelTiling,
    src: &[u8],
    dst: &mut [u8],
) -> Result<(), TextureError> {
    let rows_per_band = if tiling.macro_tiled { 16 } else { 8 };
    let band_bytes = tiling.pitch * rows_per_band * bytes;
    let linear_band = rows_per_band * width * bytes;
    // The tiles' width in texels (a group's macro tiles, for small texels).
    let tile_width = match tiling.macro_tiled {
        true => 32 * (4 / bytes).max(1),
        false => 8,
    };
    let tiles = [1, width.div_ceil(tile_width)];
    let tile_space = rows_per_band * tile_width;
    let used = tiles[1] * tile_space * bytes;
    let mut scratch = Vec::new();
    for band in 0..height.div_ceil(rows_per_band) {
        let rows = rows_per_band.min(height - band * rows_per_band);
        let extents = [rows, width];
        let frame = Frame::Tiles {
            tiles: &tiles,
            tile_space,
        };
        let linear = band * linear_band..band * linear_band + rows * width * bytes;
        let tiled = band * band_bytes..(band + 1) * band_bytes;
        // The row's XOR of the group: the swizzle's, and y5 and y4 (the band's low bits) on
        // the bank's bits.
        let xor = match tiling.macro_tiled {
            true => tiling.group_swizzle ^ (band & 2) ^ ((band & 1) << 2),
            false => 0,
        };
        let copy = |src: &[u8], dst: &mut [u8]| {
            copy_band(
                options,
                direction,
                tiling.macro_tiled,
                bytes,
                &extents,
                frame,
                src,
                dst,
            )
        };
        match (direction, xor) {
            (Direction::Swizzle, 0) => copy(&src[linear], &mut dst[tiled][..used])?,
            (Direction::Deswizzle, 0) => copy(&src[tiled][..used], &mut dst[linear])?,
            (Direction::Swizzle, _) => {
                // Into the row's groups as the matrix places them, then XORed into place
                // (the padding kept as it was).
                scratch.resize(band_bytes, 0);
                xor_groups(&dst[tiled.clone()], &mut scratch, xor);
                copy(&src[linear], &mut scratch[..used])?;
                xor_groups(&scratch, &mut dst[tiled], xor);
            }
            (Direction::Deswizzle, _) => {
                scratch.resize(band_bytes, 0);
                xor_groups(&src[tiled], &mut scratch, xor);
                copy(&scratch[..used], &mut dst[linear])?;
            }
        }
    }
    Ok(())
}

/// Copies `from` into `to`, group `g` of each 2 KB row into group `g ^ xor`.
fn xor_groups(from: &[u8], to: &mut [u8], xor: usize) {
    let row = GROUP_BYTES * GROUPS;
    for (from, to) in from.chunks_exact(row).zip(to.chunks_exact_mut(row)) {
        for (g, group) in from.chunks_exact(GROUP_BYTES).enumerate() {
            to[(g ^ xor) * GROUP_BYTES..][..GROUP_BYTES].copy_from_slice(group);
        }
    }
}

/// One row of tiles through the kernels of the texel size and mode.
#[allow(clippy::too_many_arguments)]
fn copy_band(
    options: Options,
    direction: Direction,
    macro_tiled: bool,
    bytes: usize,
    extents: &[usize],
    frame: Frame,
    src: &[u8],
    dst: &mut [u8],
) -> Result<(), TextureError> {
    macro_rules! copy {
        ($n:literal, $swizzle:ident, $deswizzle:ident) => {{
            let kernels: [(&Plan, GeneratedCode<[u8; $n]>); 2] = [
                ($swizzle::plan(), $swizzle::code()),
                ($deswizzle::plan(), $deswizzle::code()),
            ];
            copy_tiles(options, kernels, direction, extents, frame, src, dst)
        }};
    }
    match (macro_tiled, bytes) {
        (false, 1) => copy!(1, SwizzleMicro8, DeswizzleMicro8),
        (false, 2) => copy!(2, SwizzleMicro16, DeswizzleMicro16),
        (false, 4) => copy!(4, SwizzleMicro32, DeswizzleMicro32),
        (false, 8) => copy!(8, SwizzleMicro64, DeswizzleMicro64),
        (false, _) => copy!(16, SwizzleMicro128, DeswizzleMicro128),
        (true, 1) => copy!(1, SwizzleMacro8, DeswizzleMacro8),
        (true, 2) => copy!(2, SwizzleMacro16, DeswizzleMacro16),
        (true, 4) => copy!(4, SwizzleMacro32, DeswizzleMacro32),
        (true, 8) => copy!(8, SwizzleMacro64, DeswizzleMacro64),
        (true, _) => copy!(16, SwizzleMacro128, DeswizzleMacro128),
    }
}

/// Mip `mip`'s tile mode (mips of 2-D surfaces may fall back to 1-D) and pitch in blocks, as
/// a GX2 surface's header records them.
pub fn level_mode(surface: &Surface, mip: usize) -> Result<(TileMode, usize), TextureError> {
    let Platform::WiiU { tile_mode, swizzle } = surface.platform else {
        return Err(unsupported(
            surface.platform,
            "GX2 tile modes (not a Wii U surface)",
        ));
    };
    if mip >= surface.mips {
        return Err(TextureError::Level { layer: 0, mip });
    }
    let (_, blocks) = surface.mip_size(mip);
    let rules = rules(surface, tile_mode, swizzle)?;
    let (_, Tiling::Gx2(level)) = rules.level(mip, blocks, surface.format.bytes_per_block)? else {
        unreachable!("Wii U rules give GX2 tilings")
    };
    let mode = match level.macro_tiled {
        true => TileMode::Tiled2DThin1,
        false => TileMode::Tiled1DThin1,
    };
    Ok((mode, level.pitch))
}
