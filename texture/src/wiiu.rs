//! Wii U surfaces (GX2, the R600 family's tiling), as AMD's addrlib and `wiiu_swizzle` tile
//! them: every GX2 mode — the two linear ones and every tiled one (1-D, 2-D and 3-D; thin-1,
//! thin-2, thin-4 and thick; bank-swapped or not) over 2 pipes and 4 banks — one sample;
//! array layers, cube maps and depth.
//!
//! - **Linear** ([`TileMode::LinearGeneral`], [`TileMode::LinearAligned`]): rows of
//!   `pitch` texels, row-major, no tiles (a pitched copy of each level).
//! - **Micro tiles** are 8×8 texels (8×8×4 in the thick modes). The texel's index inside
//!   one (6 bits, then `z0 z1` for thick tiles) takes the bits of x and y in an order that
//!   depends on the texel size (the displayable order):
//!
//!   | bytes per texel | index bits 0 … 5 |
//!   |---:|---|
//!   | 1 | `x0 x1 x2 y1 y0 y2` |
//!   | 2 | `x0 x1 x2 y0 y1 y2` |
//!   | 4 | `x0 x1 y0 x2 y1 y2` |
//!   | 8 | `x0 y0 x1 x2 y1 y2` |
//!   | 16 | `y0 x0 x1 x2 y1 y2` |
//!
//! - **1-D** ([`TileMode::Tiled1DThin1`], [`TileMode::Tiled1DThick`]): micro tiles
//!   row-major, `pitch / 8` to a row.
//! - **2-D** ([`TileMode::Tiled2DThin1`] and the others): macro tiles of 32 × 16 texels
//!   (thin-1 and thick), 16 × 32 (thin-2) or 8 × 64 (thin-4), row-major, `pitch / width` to
//!   a row. Memory comes in 256-byte groups, eight to a 2 KB row: the group's 3 bits are the
//!   pipe (`x3 ^ y3`) and the bank (`x3 ^ y5`, `x4 ^ y4`), XORed with the surface's swizzle
//!   (bits 8 to 10 of GX2's `swizzle`: pipe, then bank) plus the slice times the mode's
//!   rotation (2 for 2-D modes, 1 for 3-D ones; a thick tile's 4 slices count as one). A
//!   micro tile's bytes fill its group; small texels put several macro tiles side by side
//!   in a group, large ones spread one micro tile over several 2 KB rows.
//! - **Bank swapping** (the `2B` and `3B` modes): every `bank_swap_width` texels of x, the
//!   bank is XORed with the next of 0, 1, 3, 2.
//!
//! Each mode and texel size is a `bits` layout below, over texels: the tiles that make
//! whole 2 KB rows and hold every bit of x the pipe and bank take. Along one row of macro
//! tiles, the bits of y above the tile (`y4`, `y5`), the swizzle, the slice's rotation and
//! the bank swap of a column are constant, so their part of the group is one XOR of the
//! group index per 2 KB row: an *affine* map, which no GF(2) matrix is; it is applied as
//! that permutation of the eight groups of every 2 KB row.
//!
//! A thin unit of 8- or 16-byte texels (4 or 8 KB) is more source than the registers hold
//! as one tile, and its copy would fall back to runs of a texel. A whole band copies such
//! units by their 256-byte groups instead: 2 KB tiles of groups down the band
//! (`Macro64Groups`, `Macro128Groups`, which take the SIMD rows) into a scratch, from which
//! the same permutation places every group in its unit's rows.
//!
//! **Sizes and modes** (addrlib's `ComputeSurfaceInfo` and `ComputeSurfaceMipLevelTileMode`
//! for one sample):
//! - Thick macro modes of 16-byte texels are thin-1 (their tiles would split).
//! - Mips past 0 round their width, height and slice count up to powers of two before
//!   padding; they drop bank swapping; a macro-tiled mip falls back to 1-D when it is
//!   narrower or lower than a macro tile (a width of `max(1, 256 / micro tile bytes)` macro
//!   tiles) and a thick one to thin under 4 slices.
//! - Linear heights are not padded (past mip 0, rounded up to a power of two);
//!   `LinearGeneral` pitches neither, `LinearAligned` pitches are multiples of
//!   `max(64, 256 / bytes)` texels (whole 256-byte groups).
//! - 1-D pitches are multiples of `max(8, 32 / bytes / thickness)` texels, heights of 8.
//! - 2-D pitches are multiples of the macro tile's width times
//!   `max(1, 32 / bytes / (8 · thickness))` and of the bank-swap width, heights of the
//!   macro tile's. (addrlib also widens some mip-0 pitches by a macro tile, its "dual pitch
//!   alignment"; GX2 texture files do not: a 1024² BC1 texture has a pitch of 256 blocks,
//!   not 288, and `wiiu_swizzle` clamps its computed pitch to the header's. Ours is the
//!   files'.)
//! - A later level keeps its own pitch even where it is wider than mip 0's: a 1-D thick
//!   surface of one slice turns thin at mip 1, whose pitch alignment is 4 times the thick
//!   one's (a 2 × 18 R8 surface: pitch 8 at mip 0, 32 at mip 1), as addrlib and GX2's
//!   `GX2GetSurfaceMipPitch` give it. `wiiu_swizzle`'s `Gx2Surface::deswizzle` reads such a
//!   level at the header's pitch (the clamp above); its `deswizzle_mipmap`, given the
//!   level's pitch, agrees with ours.
//! - A slice is `pitch × padded height × bytes`; thick slices are padded to multiples of
//!   4, and past mip 0 to powers of two.
//! - **Mip by mip**: the tiled surface holds each mip's slices together (all its array
//!   layers, as slices in layer order, or its depth), the mips one after another. The
//!   linear side is, as for every platform, layer by layer.
//!
//! GX2 files keep their own mip offsets (`mipOffset`, which may leave gaps between levels):
//! [`Level::swizzled`](super::Level::swizzled) says where ours are. 3-D
//! arrays, array layers in thick modes, and texel sizes other than 1, 2, 4, 8 and 16 bytes
//! are [`TextureError::Unsupported`].

use super::{
    Level, Platform, RunTiles, Surface, TextureError, checked_product, for_each_part,
    prepare_tiles, unsupported, with_scratch,
};
use crate::kernel::{self, Frame, Options, View, copy_views_with};
use crate::platform::{Direction, Tiling};

crate::layout! {
    /// 1-D thin, bytes: a row of 8×8 micro tiles.
    layout Micro8 {
        memory [tx: dyn, p: 64];
        bits p -> [yi: 8, xi: 8] (xi[0], xi[1], xi[2], yi[1], yi[0], yi[2]);
        merge [tx, xi] -> x;
        coords [yi, x];
    }
    kernel SwizzleMicro8 = pack(Micro8);
    kernel DeswizzleMicro8 = unpack(Micro8);

    /// 1-D thin, 2-byte texels.
    layout Micro16 {
        memory [tx: dyn, p: 64];
        bits p -> [yi: 8, xi: 8] (xi[0], xi[1], xi[2], yi[0], yi[1], yi[2]);
        merge [tx, xi] -> x;
        coords [yi, x];
    }
    kernel SwizzleMicro16 = pack(Micro16);
    kernel DeswizzleMicro16 = unpack(Micro16);

    /// 1-D thin, 4-byte texels.
    layout Micro32 {
        memory [tx: dyn, p: 64];
        bits p -> [yi: 8, xi: 8] (xi[0], xi[1], yi[0], xi[2], yi[1], yi[2]);
        merge [tx, xi] -> x;
        coords [yi, x];
    }
    kernel SwizzleMicro32 = pack(Micro32);
    kernel DeswizzleMicro32 = unpack(Micro32);

    /// 1-D thin, 8-byte texels (BC1, BC4).
    layout Micro64 {
        memory [tx: dyn, p: 64];
        bits p -> [yi: 8, xi: 8] (xi[0], yi[0], xi[1], xi[2], yi[1], yi[2]);
        merge [tx, xi] -> x;
        coords [yi, x];
    }
    kernel SwizzleMicro64 = pack(Micro64);
    kernel DeswizzleMicro64 = unpack(Micro64);

    /// 1-D thin, 16-byte texels (BC2, BC3, BC5, BC7).
    layout Micro128 {
        memory [tx: dyn, p: 64];
        bits p -> [yi: 8, xi: 8] (yi[0], xi[0], xi[1], xi[2], yi[1], yi[2]);
        merge [tx, xi] -> x;
        coords [yi, x];
    }
    kernel SwizzleMicro128 = pack(Micro128);
    kernel DeswizzleMicro128 = unpack(Micro128);

    /// 2-D thin, bytes: one macro-tile row, four macro tiles to a 256-byte group; `g` is
    /// the group (pipe, then bank) before the row's XOR.
    layout Macro8 {
        memory [mq: dyn, g: 8, mr: 4, p: 64];
        bits g -> [y3: 2, x4: 2, x3: 2] (x3[0] ^ y3[0], x3[0], x4[0]);
        bits p -> [yi: 8, xi: 8] (xi[0], xi[1], xi[2], yi[1], yi[0], yi[2]);
        merge [y3, yi] -> y;
        merge [mq, mr, x4, x3, xi] -> x;
        coords [y, x];
    }
    kernel SwizzleMacro8 = pack(Macro8);
    kernel DeswizzleMacro8 = unpack(Macro8);

    /// 2-D thin, 2-byte texels: two macro tiles to a group.
    layout Macro16 {
        memory [mh: dyn, g: 8, mr: 2, p: 64];
        bits g -> [y3: 2, x4: 2, x3: 2] (x3[0] ^ y3[0], x3[0], x4[0]);
        bits p -> [yi: 8, xi: 8] (xi[0], xi[1], xi[2], yi[0], yi[1], yi[2]);
        merge [y3, yi] -> y;
        merge [mh, mr, x4, x3, xi] -> x;
        coords [y, x];
    }
    kernel SwizzleMacro16 = pack(Macro16);
    kernel DeswizzleMacro16 = unpack(Macro16);

    /// 2-D thin, 4-byte texels: a micro tile is a group.
    layout Macro32 {
        memory [mx: dyn, g: 8, p: 64];
        bits g -> [y3: 2, x4: 2, x3: 2] (x3[0] ^ y3[0], x3[0], x4[0]);
        bits p -> [yi: 8, xi: 8] (xi[0], xi[1], yi[0], xi[2], yi[1], yi[2]);
        merge [y3, yi] -> y;
        merge [mx, x4, x3, xi] -> x;
        coords [y, x];
    }
    kernel SwizzleMacro32 = pack(Macro32);
    kernel DeswizzleMacro32 = unpack(Macro32);

    /// 2-D thin, 8-byte texels: a micro tile over two 2 KB rows (its index's top bit, `y2`).
    layout Macro64 {
        memory [mx: dyn, ph: 2, g: 8, pl: 32];
        bits g -> [y3: 2, x4: 2, x3: 2] (x3[0] ^ y3[0], x3[0], x4[0]);
        bits pl -> [yl: 4, xi: 8] (xi[0], yl[0], xi[1], xi[2], yl[1]);
        merge [y3, ph, yl] -> y;
        merge [mx, x4, x3, xi] -> x;
        coords [y, x];
    }
    kernel SwizzleMacro64 = pack(Macro64);
    kernel DeswizzleMacro64 = unpack(Macro64);

    /// 2-D thin, 16-byte texels: a micro tile over four 2 KB rows (`y1`, `y2`).
    layout Macro128 {
        memory [mx: dyn, ph: 4, g: 8, pl: 16];
        bits g -> [y3: 2, x4: 2, x3: 2] (x3[0] ^ y3[0], x3[0], x4[0]);
        bits pl -> [y0: 2, xi: 8] (y0[0], xi[0], xi[1], xi[2]);
        merge [y3, ph, y0] -> y;
        merge [mx, x4, x3, xi] -> x;
        coords [y, x];
    }
    kernel SwizzleMacro128 = pack(Macro128);
    kernel DeswizzleMacro128 = unpack(Macro128);

    /// `Macro64`'s groups (4 × 8 texels each) in the scratch, in 16 × 16 tiles of two
    /// columns of four groups down the band, `h` the group's `[y3, ph]`: a tile's source
    /// fits the registers where a whole 4 KB unit's would not.
    layout Macro64Groups {
        memory [tx: dyn, c: 2, h: 4, pl: 32];
        bits pl -> [yl: 4, xi: 8] (xi[0], yl[0], xi[1], xi[2], yl[1]);
        merge [h, yl] -> y;
        merge [tx, c, xi] -> x;
        coords [y, x];
    }
    kernel SwizzleMacro64Groups = pack(Macro64Groups);
    kernel DeswizzleMacro64Groups = unpack(Macro64Groups);

    /// `Macro128`'s groups (2 × 8 texels each) in the scratch, in 16 × 8 tiles of eight
    /// groups down the band, `h` the group's `[y3, ph]`.
    layout Macro128Groups {
        memory [tx: dyn, h: 8, pl: 16];
        bits pl -> [y0: 2, xi: 8] (y0[0], xi[0], xi[1], xi[2]);
        merge [h, y0] -> y;
        merge [tx, xi] -> x;
        coords [y, x];
    }
    kernel SwizzleMacro128Groups = pack(Macro128Groups);
    kernel DeswizzleMacro128Groups = unpack(Macro128Groups);

    /// 2-D thin-2 (16 × 32 macro tiles), bytes: 64 texels wide.
    layout Thin2Macro8 {
        memory [q: dyn, u: 2048];
        bits u -> [y: 32, x: 64] (x[0], x[1], x[2], y[1], y[0], y[2], x[4], x[5], x[3] ^ y[3], x[3], x[4] ^ y[4]);
        merge [q, x] -> column;
        coords [y, column];
    }
    kernel SwizzleThin2Macro8 = pack(Thin2Macro8);
    kernel DeswizzleThin2Macro8 = unpack(Thin2Macro8);

    /// 2-D thin-2 (16 × 32 macro tiles), 2-byte texels: 32 texels wide.
    layout Thin2Macro16 {
        memory [q: dyn, u: 1024];
        bits u -> [y: 32, x: 32] (x[0], x[1], x[2], y[0], y[1], y[2], x[4], x[3] ^ y[3], x[3], x[4] ^ y[4]);
        merge [q, x] -> column;
        coords [y, column];
    }
    kernel SwizzleThin2Macro16 = pack(Thin2Macro16);
    kernel DeswizzleThin2Macro16 = unpack(Thin2Macro16);

    /// 2-D thin-2 (16 × 32 macro tiles), 4-byte texels: 32 texels wide.
    layout Thin2Macro32 {
        memory [q: dyn, u: 1024];
        bits u -> [y: 32, x: 32] (x[0], x[1], y[0], x[2], y[1], y[2], x[3] ^ y[3], x[3], x[4] ^ y[4], x[4]);
        merge [q, x] -> column;
        coords [y, column];
    }
    kernel SwizzleThin2Macro32 = pack(Thin2Macro32);
    kernel DeswizzleThin2Macro32 = unpack(Thin2Macro32);

    /// 2-D thin-2 (16 × 32 macro tiles), 8-byte texels (BC1, BC4): 32 texels wide.
    layout Thin2Macro64 {
        memory [q: dyn, u: 1024];
        bits u -> [y: 32, x: 32] (x[0], y[0], x[1], x[2], y[1], x[3] ^ y[3], x[3], x[4] ^ y[4], y[2], x[4]);
        merge [q, x] -> column;
        coords [y, column];
    }
    kernel SwizzleThin2Macro64 = pack(Thin2Macro64);
    kernel DeswizzleThin2Macro64 = unpack(Thin2Macro64);

    /// 2-D thin-2 (16 × 32 macro tiles), 16-byte texels (BC2, BC3, BC5, BC7): 32 texels wide.
    layout Thin2Macro128 {
        memory [q: dyn, u: 1024];
        bits u -> [y: 32, x: 32] (y[0], x[0], x[1], x[2], x[3] ^ y[3], x[3], x[4] ^ y[4], y[1], y[2], x[4]);
        merge [q, x] -> column;
        coords [y, column];
    }
    kernel SwizzleThin2Macro128 = pack(Thin2Macro128);
    kernel DeswizzleThin2Macro128 = unpack(Thin2Macro128);

    /// 2-D thin-4 (8 × 64 macro tiles), bytes: 32 texels wide.
    layout Thin4Macro8 {
        memory [q: dyn, u: 2048];
        bits u -> [y: 64, x: 32] (x[0], x[1], x[2], y[1], y[0], y[2], x[3], x[4], x[3] ^ y[3], x[3] ^ y[5], x[4] ^ y[4]);
        merge [q, x] -> column;
        coords [y, column];
    }
    kernel SwizzleThin4Macro8 = pack(Thin4Macro8);
    kernel DeswizzleThin4Macro8 = unpack(Thin4Macro8);

    /// 2-D thin-4 (8 × 64 macro tiles), 2-byte texels: 32 texels wide.
    layout Thin4Macro16 {
        memory [q: dyn, u: 2048];
        bits u -> [y: 64, x: 32] (x[0], x[1], x[2], y[0], y[1], y[2], x[3], x[3] ^ y[3], x[3] ^ y[5], x[4] ^ y[4], x[4]);
        merge [q, x] -> column;
        coords [y, column];
    }
    kernel SwizzleThin4Macro16 = pack(Thin4Macro16);
    kernel DeswizzleThin4Macro16 = unpack(Thin4Macro16);

    /// 2-D thin-4 (8 × 64 macro tiles), 4-byte texels: 32 texels wide.
    layout Thin4Macro32 {
        memory [q: dyn, u: 2048];
        bits u -> [y: 64, x: 32] (x[0], x[1], y[0], x[2], y[1], y[2], x[3] ^ y[3], x[3] ^ y[5], x[4] ^ y[4], x[3], x[4]);
        merge [q, x] -> column;
        coords [y, column];
    }
    kernel SwizzleThin4Macro32 = pack(Thin4Macro32);
    kernel DeswizzleThin4Macro32 = unpack(Thin4Macro32);

    /// 2-D thin-4 (8 × 64 macro tiles), 8-byte texels (BC1, BC4): 32 texels wide.
    layout Thin4Macro64 {
        memory [q: dyn, u: 2048];
        bits u -> [y: 64, x: 32] (x[0], y[0], x[1], x[2], y[1], x[3] ^ y[3], x[3] ^ y[5], x[4] ^ y[4], y[2], x[3], x[4]);
        merge [q, x] -> column;
        coords [y, column];
    }
    kernel SwizzleThin4Macro64 = pack(Thin4Macro64);
    kernel DeswizzleThin4Macro64 = unpack(Thin4Macro64);

    /// 2-D thin-4 (8 × 64 macro tiles), 16-byte texels (BC2, BC3, BC5, BC7): 32 texels wide.
    layout Thin4Macro128 {
        memory [q: dyn, u: 2048];
        bits u -> [y: 64, x: 32] (y[0], x[0], x[1], x[2], x[3] ^ y[3], x[3] ^ y[5], x[4] ^ y[4], y[1], y[2], x[3], x[4]);
        merge [q, x] -> column;
        coords [y, column];
    }
    kernel SwizzleThin4Macro128 = pack(Thin4Macro128);
    kernel DeswizzleThin4Macro128 = unpack(Thin4Macro128);

    /// 2-D thin-4 bank-swapped, 16-byte texels, when the bank swaps every 16 texels of x
    /// (inside the unit): the swap's `x4` on the bank's low bit.
    layout Thin4SwapMacro128 {
        memory [q: dyn, u: 2048];
        bits u -> [y: 64, x: 32] (y[0], x[0], x[1], x[2], x[3] ^ y[3], x[3] ^ y[5] ^ x[4], x[4] ^ y[4], y[1], y[2], x[3], x[4]);
        merge [q, x] -> column;
        coords [y, column];
    }
    kernel SwizzleThin4SwapMacro128 = pack(Thin4SwapMacro128);
    kernel DeswizzleThin4SwapMacro128 = unpack(Thin4SwapMacro128);

    /// 2-D thick (32 × 16 × 4 macro tiles), bytes.
    layout ThickMacro8 {
        memory [q: dyn, u: 2048];
        bits u -> [z: 4, y: 16, x: 32] (x[0], x[1], x[2], y[1], y[0], y[2], z[0], z[1], x[3] ^ y[3], x[3], x[4]);
        merge [q, x] -> column;
        coords [z, y, column];
    }
    kernel SwizzleThickMacro8 = pack(ThickMacro8);
    kernel DeswizzleThickMacro8 = unpack(ThickMacro8);

    /// 2-D thick (32 × 16 × 4 macro tiles), 2-byte texels.
    layout ThickMacro16 {
        memory [q: dyn, u: 2048];
        bits u -> [z: 4, y: 16, x: 32] (x[0], x[1], x[2], y[0], y[1], y[2], z[0], x[3] ^ y[3], x[3], x[4], z[1]);
        merge [q, x] -> column;
        coords [z, y, column];
    }
    kernel SwizzleThickMacro16 = pack(ThickMacro16);
    kernel DeswizzleThickMacro16 = unpack(ThickMacro16);

    /// 2-D thick (32 × 16 × 4 macro tiles), 4-byte texels.
    layout ThickMacro32 {
        memory [q: dyn, u: 2048];
        bits u -> [z: 4, y: 16, x: 32] (x[0], x[1], y[0], x[2], y[1], y[2], x[3] ^ y[3], x[3], x[4], z[0], z[1]);
        merge [q, x] -> column;
        coords [z, y, column];
    }
    kernel SwizzleThickMacro32 = pack(ThickMacro32);
    kernel DeswizzleThickMacro32 = unpack(ThickMacro32);

    /// 2-D thick (32 × 16 × 4 macro tiles), 8-byte texels (BC1, BC4).
    layout ThickMacro64 {
        memory [q: dyn, u: 2048];
        bits u -> [z: 4, y: 16, x: 32] (x[0], y[0], x[1], x[2], y[1], x[3] ^ y[3], x[3], x[4], y[2], z[0], z[1]);
        merge [q, x] -> column;
        coords [z, y, column];
    }
    kernel SwizzleThickMacro64 = pack(ThickMacro64);
    kernel DeswizzleThickMacro64 = unpack(ThickMacro64);

    /// 1-D thick: 8 × 8 × 4 micro tiles, bytes.
    layout ThickMicro8 {
        memory [q: dyn, u: 256];
        bits u -> [z: 4, y: 8, x: 8] (x[0], x[1], x[2], y[1], y[0], y[2], z[0], z[1]);
        merge [q, x] -> column;
        coords [z, y, column];
    }
    kernel SwizzleThickMicro8 = pack(ThickMicro8);
    kernel DeswizzleThickMicro8 = unpack(ThickMicro8);

    /// 1-D thick: 8 × 8 × 4 micro tiles, 2-byte texels.
    layout ThickMicro16 {
        memory [q: dyn, u: 256];
        bits u -> [z: 4, y: 8, x: 8] (x[0], x[1], x[2], y[0], y[1], y[2], z[0], z[1]);
        merge [q, x] -> column;
        coords [z, y, column];
    }
    kernel SwizzleThickMicro16 = pack(ThickMicro16);
    kernel DeswizzleThickMicro16 = unpack(ThickMicro16);

    /// 1-D thick: 8 × 8 × 4 micro tiles, 4-byte texels.
    layout ThickMicro32 {
        memory [q: dyn, u: 256];
        bits u -> [z: 4, y: 8, x: 8] (x[0], x[1], y[0], x[2], y[1], y[2], z[0], z[1]);
        merge [q, x] -> column;
        coords [z, y, column];
    }
    kernel SwizzleThickMicro32 = pack(ThickMicro32);
    kernel DeswizzleThickMicro32 = unpack(ThickMicro32);

    /// 1-D thick: 8 × 8 × 4 micro tiles, 8-byte texels (BC1, BC4).
    layout ThickMicro64 {
        memory [q: dyn, u: 256];
        bits u -> [z: 4, y: 8, x: 8] (x[0], y[0], x[1], x[2], y[1], y[2], z[0], z[1]);
        merge [q, x] -> column;
        coords [z, y, column];
    }
    kernel SwizzleThickMicro64 = pack(ThickMicro64);
    kernel DeswizzleThickMicro64 = unpack(ThickMicro64);

    /// 1-D thick: 8 × 8 × 4 micro tiles, 16-byte texels (BC2, BC3, BC5, BC7).
    layout ThickMicro128 {
        memory [q: dyn, u: 256];
        bits u -> [z: 4, y: 8, x: 8] (y[0], x[0], x[1], x[2], y[1], y[2], z[0], z[1]);
        merge [q, x] -> column;
        coords [z, y, column];
    }
    kernel SwizzleThickMicro128 = pack(ThickMicro128);
    kernel DeswizzleThickMicro128 = unpack(ThickMicro128);
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

    /// Whether [`Surface`] lays out this mode: every GX2 mode, the linear ones included.
    #[deprecated(note = "every GX2 mode is supported, the linear ones included")]
    pub fn is_supported(self) -> bool {
        true
    }

    /// Rows of texels one after another (`LinearGeneral`, `LinearAligned`), no tiles.
    pub fn is_linear(self) -> bool {
        matches!(self, TileMode::LinearGeneral | TileMode::LinearAligned)
    }

    /// Micro tiles of 4 slices (thick) instead of 1.
    pub fn is_thick(self) -> bool {
        self.thickness() == 4
    }

    fn thickness(self) -> usize {
        use TileMode::*;
        match self {
            Tiled1DThick | Tiled2DThick | Tiled2BThick | Tiled3DThick | Tiled3BThick => 4,
            _ => 1,
        }
    }

    /// Macro tiles over pipes and banks (the 2-D and 3-D modes), not micro tiles alone.
    fn is_macro(self) -> bool {
        self as u32 >= TileMode::Tiled2DThin1 as u32
    }

    fn is_thick_macro(self) -> bool {
        self.is_macro() && self.is_thick()
    }

    fn is_bank_swapped(self) -> bool {
        use TileMode::*;
        matches!(
            self,
            Tiled2BThin1 | Tiled2BThin2 | Tiled2BThin4 | Tiled2BThick | Tiled3BThin1 | Tiled3BThick
        )
    }

    /// The macro tile's aspect: 1 (32 × 16 texels), 2 (16 × 32) or 4 (8 × 64).
    fn aspect(self) -> usize {
        use TileMode::*;
        match self {
            Tiled2DThin2 | Tiled2BThin2 => 2,
            Tiled2DThin4 | Tiled2BThin4 => 4,
            _ => 1,
        }
    }

    /// How far each slice turns the pipe and bank (addrlib's rotation): 2 for the 2-D
    /// modes, 1 for the 3-D ones.
    fn rotation(self) -> usize {
        use TileMode::*;
        match self {
            Tiled3DThin1 | Tiled3DThick | Tiled3BThin1 | Tiled3BThick => 1,
            _ if self.is_macro() => 2,
            _ => 0,
        }
    }

    /// The mode without bank swapping.
    fn unswapped(self) -> TileMode {
        use TileMode::*;
        match self {
            Tiled2BThin1 => Tiled2DThin1,
            Tiled2BThin2 => Tiled2DThin2,
            Tiled2BThin4 => Tiled2DThin4,
            Tiled2BThick => Tiled2DThick,
            Tiled3BThin1 => Tiled3DThin1,
            Tiled3BThick => Tiled3DThick,
            mode => mode,
        }
    }

    /// The thin mode of a thick one (1-D thick to 1-D thin, 2-D thick to 2-D thin-1, …).
    fn thin(self) -> TileMode {
        use TileMode::*;
        match self {
            Tiled1DThick => Tiled1DThin1,
            Tiled2DThick => Tiled2DThin1,
            Tiled2BThick => Tiled2BThin1,
            Tiled3DThick => Tiled3DThin1,
            Tiled3BThick => Tiled3BThin1,
            mode => mode,
        }
    }
}

/// Bytes of a pipe-interleave group; eight groups (2 pipes × 4 banks) make a 2 KB row.
const GROUP_BYTES: usize = 256;
const GROUPS: usize = 8;
const ROW_BYTES: usize = GROUP_BYTES * GROUPS;
/// Bytes of units a macro-tiled band copies through the scratch at a time: the copy's
/// stores and the permutation's loads stay in a 32 KiB L1 data cache.
const CHUNK_BYTES: usize = 16 << 10;

/// The Wii U's tiling of a surface: its mode and swizzle, and what its slices are.
#[derive(Clone, Copy, Debug)]
pub(crate) struct WiiU {
    mode: TileMode,
    /// The swizzle's pipe and bank, as one group index (pipe lowest).
    group_swizzle: usize,
    /// Depth slices are the level's (a 3-D surface); otherwise each layer is one slice.
    three_d: bool,
    layers: usize,
    bytes: usize,
}

impl WiiU {
    pub(crate) fn new(
        surface: &Surface,
        tile_mode: TileMode,
        swizzle: u32,
    ) -> Result<WiiU, TextureError> {
        let platform = surface.platform;
        let bytes = surface.format.bytes_per_block();
        if !bytes.is_power_of_two() || bytes > 16 {
            return Err(unsupported(
                platform,
                format!("texels of {bytes} bytes (GX2's are 1, 2, 4, 8 and 16)"),
            ));
        }
        if surface.depth != 1 && surface.layers != 1 {
            return Err(unsupported(
                platform,
                "3-D arrays (GX2 tiles depth or layers as slices, not both)",
            ));
        }
        if surface.layers != 1 && tile_mode.is_thick() {
            return Err(unsupported(
                platform,
                format!("array layers in {tile_mode:?} (its tiles interleave 4 slices)"),
            ));
        }
        Ok(WiiU {
            mode: tile_mode,
            group_swizzle: (swizzle >> 8) as usize % GROUPS,
            three_d: surface.depth != 1,
            layers: surface.layers,
            bytes,
        })
    }
}

/// How one level (of one layer) is tiled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct LevelTiling {
    /// The level's mode (small mips fall back to simpler ones).
    mode: TileMode,
    /// Texels per row of tiles.
    pitch: usize,
    /// Rows of texels per slice, padded to whole tiles.
    rows: usize,
    /// The slice index of the level's first slice (its layer, for arrays).
    first_slice: usize,
    group_swizzle: usize,
    /// Texels of x per bank-swap step (0: no bank swapping).
    bank_swap_width: usize,
}

impl WiiU {
    /// Mip `mip`'s tiled size (one layer's slot) and tiling, for `[depth, height, width]`
    /// blocks; `layer` is the slice of an array layer.
    fn level(
        &self,
        layer: usize,
        mip: usize,
        [depth, height, width]: [usize; 3],
    ) -> Result<(usize, LevelTiling), TextureError> {
        let bytes = self.bytes;
        let overflow = || TextureError::Overflow;
        let slices = if self.three_d { depth } else { self.layers };
        let pow2 = |n: usize| n.checked_next_power_of_two().ok_or_else(overflow);
        let (mut pitch, mut rows, mut slices) = match mip {
            0 => (width, height, slices),
            _ => (pow2(width)?, pow2(height)?, pow2(slices)?),
        };
        let mode = level_mode_of(self.mode, bytes, mip, pitch, rows, slices);
        let thickness = mode.thickness();
        let (pitch_align, row_align) = match mode.is_macro() {
            // addrlib's linear alignments: none, or rows of whole 256-byte groups (at least
            // 64 texels); any height.
            false if mode == TileMode::LinearGeneral => (1, 1),
            false if mode == TileMode::LinearAligned => ((GROUP_BYTES / bytes).max(64), 1),
            false => ((GROUP_BYTES / (8 * bytes) / thickness).max(8), 8),
            true => {
                let aspect = mode.aspect();
                let (tile_width, tile_height) = (32 / aspect, 16 * aspect);
                let per_group = GROUP_BYTES / (8 * bytes) / (8 * thickness);
                let align = (tile_width * per_group).max(tile_width);
                (align.max(bank_swap_width(mode, bytes, pitch)), tile_height)
            }
        };
        pitch = pitch
            .checked_next_multiple_of(pitch_align)
            .ok_or_else(overflow)?;
        rows = rows
            .checked_next_multiple_of(row_align)
            .ok_or_else(overflow)?;
        slices = slices
            .checked_next_multiple_of(thickness)
            .ok_or_else(overflow)?;
        // A 3-D level holds its slices; an array layer is one slice of its mip (a 2-D
        // surface in a thick mode: one slice of the 4 its tiles hold).
        let slot_slices = if self.three_d { slices } else { thickness };
        let size = checked_product([bytes, pitch, rows, slot_slices])?;
        let tiling = LevelTiling {
            mode,
            pitch,
            rows,
            first_slice: if self.three_d { 0 } else { layer },
            group_swizzle: self.group_swizzle,
            bank_swap_width: match mode.is_bank_swapped() {
                true => bank_swap_width(mode, bytes, pitch),
                false => 0,
            },
        };
        Ok((size, tiling))
    }
}

impl Tiling for WiiU {
    fn level_size(&self, mip: usize, blocks: [usize; 3]) -> Result<usize, TextureError> {
        self.level(0, mip, blocks).map(|(size, _)| size)
    }

    fn copy_level(
        &self,
        options: Options,
        direction: Direction,
        level: &Level,
        src: &[u8],
        dst: &mut [u8],
    ) -> Result<(), TextureError> {
        let (_, tiling) = self.level(level.layer, level.mip, level.blocks)?;
        copy_level(
            options,
            direction,
            level.blocks,
            self.bytes,
            tiling,
            src,
            dst,
        )
    }

    /// Slots of one layer's size that mip `mip` holds: its layers (a power of two past mip
    /// 0, as addrlib pads them), or 1 for a 3-D level.
    fn mip_slots(&self, mip: usize) -> Option<Result<usize, TextureError>> {
        Some(match (self.three_d, mip) {
            (true, _) => Ok(1),
            (false, 0) => Ok(self.layers),
            (false, _) => self
                .layers
                .checked_next_power_of_two()
                .ok_or(TextureError::Overflow),
        })
    }
}

/// Mip `mip`'s mode for a surface of `base` mode, as addrlib picks it
/// (`ComputeSurfaceMipLevelTileMode` and the macro-tiled surface info): thick modes of
/// 16-byte texels are thin; past mip 0, bank swapping is dropped, a level narrower or lower
/// than a macro tile (or, from a thick mode, than its pitch alignment) is micro-tiled, and
/// one of fewer than 4 slices is thin. `pitch`, `rows` and `slices` are the level's, rounded
/// up to powers of two past mip 0.
fn level_mode_of(
    base: TileMode,
    bytes: usize,
    mip: usize,
    pitch: usize,
    rows: usize,
    slices: usize,
) -> TileMode {
    // Thick micro tiles of 16-byte texels would split (addrlib's tile slices).
    let degraded = match base.is_thick_macro() && bytes == 16 {
        true => base.thin(),
        false => base,
    };
    if mip == 0 {
        return degraded;
    }
    let mut mode = degraded.unswapped();
    let thickness = mode.thickness();
    let micro_tile_bytes = 64 * bytes * thickness;
    let width_factor = (GROUP_BYTES / micro_tile_bytes).max(1);
    let aspect = mode.aspect();
    if mode.is_macro() && (pitch < width_factor * 32 / aspect || rows < 16 * aspect) {
        mode = match mode.is_thick() {
            true => TileMode::Tiled1DThick,
            false => TileMode::Tiled1DThin1,
        };
    }
    if mode.is_thick() && slices < 4 {
        mode = mode.thin();
    }
    // From a thick base, a thin macro level needs the base's pitch alignment.
    let base_align = 32 * (GROUP_BYTES / (8 * bytes) / 32).max(1);
    let factor = (32 / (8 * bytes)).max(1);
    if base.is_thick_macro()
        && mode.is_macro()
        && !mode.is_thick()
        && mode != base
        && (pitch < base_align * factor || rows < 16)
    {
        mode = TileMode::Tiled1DThin1;
    }
    mode
}

/// addrlib's bank-swap width of a bank-swapped `mode` (texels of x per step of the swap
/// order), for a level of `pitch` texels.
fn bank_swap_width(mode: TileMode, bytes: usize, pitch: usize) -> usize {
    if !mode.is_bank_swapped() {
        return 0;
    }
    let bits = 8 * bytes;
    let samples = match mode.is_thick() {
        true => 4,
        false => 1,
    };
    let bytes_per_tile_slice = samples * 64 * bytes;
    let swap_width = (128 / bits).max(1) * 8 * 4;
    let height_bytes = samples * mode.aspect() * 2 * bits;
    let swap_max = 2 * 4 * 2048 / height_bytes;
    let swap_min = GROUP_BYTES * 8 * 4 / bytes_per_tile_slice;
    let mut width = swap_max.min(swap_min.max(swap_width));
    while width >= 2 * pitch {
        width >>= 1;
    }
    width
}

/// A macro-tiled level's unit of copy: the tiles that one `layout!` item covers (whole
/// 2 KB rows, every x bit the pipe and bank take): its texels, width and height.
struct Unit {
    texels: usize,
    width: usize,
}

/// Copies one level: slice by slice (4 at a time for thick modes), one row of tiles at a
/// time. Macro-tiled rows go through a scratch row: the `layout!` item places each texel
/// at its group before the XOR of the row's constant part (the swizzle, the slice's
/// rotation, the tile row's bits of y and the bank swap of its columns), which permutes the
/// eight groups of every 2 KB row.
fn copy_level(
    options: Options,
    direction: Direction,
    [depth, height, width]: [usize; 3],
    bytes: usize,
    tiling: LevelTiling,
    src: &[u8],
    dst: &mut [u8],
) -> Result<(), TextureError> {
    let mode = tiling.mode;
    if mode.is_linear() {
        return copy_linear(
            options,
            direction,
            [depth, height, width],
            bytes,
            tiling,
            src,
            dst,
        );
    }
    let thickness = mode.thickness();
    let aspect = mode.aspect();
    let band_rows = match mode.is_macro() {
        true => 16 * aspect,
        false => 8,
    };
    let group_bytes = tiling.pitch * tiling.rows * thickness * bytes;
    let band_bytes = tiling.pitch * band_rows * thickness * bytes;
    let unit = unit(mode, bytes);
    // The bank swap's steps inside a unit (thin-4 of 16-byte texels, 16 texels a step):
    // its low bit in the layout, its others in the XOR.
    let swap_in_unit =
        (1..unit.width).contains(&tiling.bank_swap_width) && tiling.pitch > tiling.bank_swap_width;
    if swap_in_unit && (mode.aspect(), bytes, tiling.bank_swap_width) != (4, 16, 16) {
        return Err(unsupported(
            Platform::WiiU {
                tile_mode: mode,
                swizzle: 0,
            },
            format!("a bank swap every {} texels", tiling.bank_swap_width),
        ));
    }
    let units = width.div_ceil(unit.width);
    let used = units * unit.texels * bytes;
    let bands = height.div_ceil(band_rows);
    let groups = depth.div_ceil(thickness);
    // Each part of the destination on one thread; the threads are the parts'.
    let one = options.threads(1);
    let level_texels = depth * height * width;
    // Whether stores stream is the level's choice where the band is a part of the level's
    // linear bytes, the band's where it is tiled bytes (or a scratch row).
    let destination_texels = match direction {
        Direction::Swizzle => used / bytes,
        Direction::Deswizzle => level_texels,
    };
    // Whether the permuted groups of a swizzle go out around the caches (the copies into
    // the scratch never do).
    let stream = direction == Direction::Swizzle
        && kernel::stores_stream(options, groups * bands * band_bytes, bands);
    let strides = [height * width, width, 1];
    let rank = match thickness {
        4 => 3,
        _ => 2,
    };
    // A macro-tiled swizzle goes through the scratch in chunks of units that stay in the L1
    // cache between the copy and the permutation of their groups, which then stream out
    // whole; other bands are one chunk: a deswizzle's copy out of the scratch writes the
    // linear rows, which chunks would cut off their lines.
    let unit_bytes = unit.texels * bytes;
    // A whole band of thin units of 8- and 16-byte texels (4 and 8 KB, whose source would
    // spill the registers as one tile) goes through the scratch as the 2 KB tiles of the
    // unit's groups (`Macro64Groups`, `Macro128Groups`), which the permutation of groups
    // then places in the units' rows as it places them in a row.
    let unit_rows = unit_bytes / ROW_BYTES;
    // A group tile's columns (a whole band high) and texels.
    let group_tile = [ROW_BYTES / (band_rows * bytes), ROW_BYTES / bytes];
    let grouped = |rows: usize| {
        mode.is_macro() && (thickness, aspect) == (1, 1) && unit_rows > 1 && rows == band_rows
    };
    let chunk_columns = match (mode.is_macro(), direction) {
        (true, Direction::Swizzle) => (CHUNK_BYTES / unit_bytes).max(1) * unit.width,
        _ => width,
    };
    // The copy of a chunk of `slices × rows × columns` texels: its tiles, and a view of the
    // linear bytes from the chunk's first texel on.
    let prepare = |slices: usize, rows: usize, columns: usize| {
        let extents = [slices, rows, columns];
        let group_tiles = grouped(rows);
        let [tile_width, tile_texels] = match group_tiles {
            true => group_tile,
            false => [unit.width, unit.texels],
        };
        let tiles = [1, 1, columns.div_ceil(tile_width)];
        let frames = [
            Frame::Strided {
                strides: &strides[3 - rank..],
                origin: 0,
            },
            Frame::Tiles {
                tiles: &tiles[3 - rank..],
                tile_space: tile_texels,
            },
        ];
        let sizes = (&extents[3 - rank..], destination_texels);
        match group_tiles {
            true => prepare_groups(one, direction, bytes, sizes, frames),
            false => prepare_unit(one, direction, (mode, bytes, swap_in_unit), sizes, frames),
        }
    };
    // The copies of a band's chunks: the whole ones, and the last where it is narrower.
    let prepare_band = |slices: usize, rows: usize| -> Result<ChunkCopies, TextureError> {
        let rest = width % chunk_columns;
        Ok(ChunkCopies {
            columns: chunk_columns,
            whole: match width >= chunk_columns {
                true => Some(prepare(slices, rows, chunk_columns)?),
                false => None,
            },
            rest: match rest {
                0 => None,
                _ => Some(prepare(slices, rows, rest)?),
            },
        })
    };
    // Every whole band is the same copies, made ready once.
    let whole = match height >= band_rows && depth >= thickness {
        true => Some(prepare_band(thickness, band_rows)?),
        false => None,
    };
    // Copies band `band` of group `group` (its tiled bytes `tiled`, whole or, for the
    // padding, kept as they were); the linear side's bytes start at the band's first texel.
    let band_copy =
        |group: usize, band: usize, direction_bytes: BandBytes<'_>| -> Result<(), TextureError> {
            let slices = thickness.min(depth - group * thickness);
            let rows = band_rows.min(height - band * band_rows);
            let cut;
            let copies = match &whole {
                Some(whole) if (slices, rows) == (thickness, band_rows) => whole,
                // A band cut by the level's edge.
                _ => {
                    cut = prepare_band(slices, rows)?;
                    &cut
                }
            };
            if !mode.is_macro() {
                let copy = copies.of(width);
                return match direction_bytes {
                    BandBytes::Swizzle { linear, tiled } => copy.run(linear, &mut tiled[..used]),
                    BandBytes::Deswizzle { tiled, linear } => copy.run(&tiled[..used], linear),
                };
            }
            let slice_xor =
                (tiling.group_swizzle + (tiling.first_slice + group) * mode.rotation()) % GROUPS;
            // The tile row's bits of y above the macro tile, on the bank's bits.
            let band_xor = match aspect {
                1 => ((band & 1) << 2) | (band & 2),
                2 => (band & 1) << 1,
                _ => 0,
            };
            let group_tiles = grouped(rows);
            // Whether the copies write every byte of the units they span.
            let covers = (slices, rows) == (thickness, band_rows) && width % unit.width == 0;
            let mut direction_bytes = direction_bytes;
            (0..width.div_ceil(chunk_columns)).try_for_each(|chunk| {
                let first_column = chunk * chunk_columns;
                let columns = chunk_columns.min(width - first_column);
                let copy = copies.of(columns);
                let first_unit = first_column / unit.width;
                let chunk_bytes = columns.div_ceil(unit.width) * unit_bytes;
                // The chunk's units in the band's tiled bytes; a unit may be wider than a
                // narrow level's pitch (two thin-2 macro tiles side by side), past the band.
                let tiled_range = |band_len: usize| {
                    let start = first_unit * unit_bytes;
                    start.min(band_len)..(start + chunk_bytes).min(band_len)
                };
                let first_row = first_unit * unit_rows;
                // The scratch's groups that tiled 2 KB row `row` of the chunk holds: each
                // group's index XORed with the row's constant part, of the same row of
                // the scratch, or, for group tiles, its place among them (tile `[x4, x3]`
                // of the unit, group `[y3, ph]` down the tile, `ph` the row's in its unit).
                let sources = |row: usize| -> [usize; GROUPS] {
                    let column = (first_row + row) / unit_rows * unit.width;
                    let swap = match tiling.bank_swap_width {
                        0 => 0,
                        step => (column / step) & 3,
                    };
                    // The swap order 0, 1, 3, 2 (a Gray code) on the bank.
                    let xor = slice_xor ^ band_xor ^ ((swap ^ (swap >> 1)) << 1);
                    let (unit, ph) = (row / unit_rows, row % unit_rows);
                    std::array::from_fn(|g| match group_tiles {
                        false => row * GROUPS + (g ^ xor),
                        true => {
                            let g = g ^ xor;
                            let [x3, x4] = [(g >> 1) & 1, g >> 2];
                            let tile_group = (x4 * 2 + x3) * 2 + ((g & 1) ^ x3);
                            (unit * GROUPS + tile_group) * unit_rows + ph
                        }
                    })
                };
                let linear_at = first_column * bytes;
                // The scratch's bytes the copy spans: group tiles up to the chunk's last
                // column, or its units.
                let copied = match group_tiles {
                    true => columns.div_ceil(group_tile[0]) * ROW_BYTES,
                    false => chunk_bytes,
                };
                // The permuted groups' own buffer only where they stream out.
                let permuted_bytes = if stream { chunk_bytes } else { 0 };
                with_scratch(chunk_bytes + permuted_bytes, |scratch| {
                    let (scratch, permuted) = scratch.split_at_mut(chunk_bytes);
                    match &mut direction_bytes {
                        BandBytes::Swizzle { linear, tiled } => {
                            let range = tiled_range(tiled.len());
                            let tiled = &mut tiled[range];
                            // The padding inside the units kept as it was, where the copy
                            // leaves some.
                            if !covers {
                                take_groups(tiled, scratch, sources);
                            }
                            copy.run(&linear[linear_at..], &mut scratch[..copied])?;
                            match stream {
                                true => {
                                    place_groups(scratch, permuted, sources);
                                    let len = tiled.len();
                                    kernel::copy_streaming(tiled, &permuted[..len]);
                                }
                                false => place_groups(scratch, tiled, sources),
                            }
                        }
                        BandBytes::Deswizzle { tiled, linear } => {
                            take_groups(&tiled[tiled_range(tiled.len())], scratch, sources);
                            copy.run(&scratch[..copied], &mut linear[linear_at..])?;
                        }
                    }
                    Ok(())
                })
            })
        };
    let slice_texels = height * width;
    match (direction, thickness) {
        // Each band of the tiled destination.
        (Direction::Swizzle, _) => (0..groups).try_for_each(|group| {
            let tiled = &mut dst[group * group_bytes..][..bands * band_bytes];
            for_each_part(options, tiled, band_bytes, bands, |band, tiled| {
                let origin = (group * thickness * height + band * band_rows) * width;
                let linear = &src[origin * bytes..];
                band_copy(group, band, BandBytes::Swizzle { linear, tiled })
            })
        }),
        // Each band's rows of the linear destination (a slice's rows lie together).
        (Direction::Deswizzle, 1) => (0..groups).try_for_each(|group| {
            let linear = &mut dst[group * slice_texels * bytes..][..slice_texels * bytes];
            let band_len = band_rows * width * bytes;
            for_each_part(options, linear, band_len, bands, |band, linear| {
                let tiled = &src[group * group_bytes + band * band_bytes..][..band_bytes];
                band_copy(group, band, BandBytes::Deswizzle { tiled, linear })
            })
        }),
        // Each group of slices of the linear destination (a thick band's rows lie in four
        // slices), band by band.
        (Direction::Deswizzle, _) => {
            let group_len = thickness * slice_texels * bytes;
            for_each_part(options, dst, group_len, groups, |group, linear| {
                (0..bands).try_for_each(|band| {
                    let tiled = &src[group * group_bytes + band * band_bytes..][..band_bytes];
                    let linear = &mut linear[band * band_rows * width * bytes..];
                    band_copy(group, band, BandBytes::Deswizzle { tiled, linear })
                })
            })
        }
    }
}

/// One band's bytes: the tiled ones the band's, the linear ones from the band's first texel
/// on.
enum BandBytes<'b> {
    /// The linear bytes into the band's tiled bytes.
    Swizzle {
        linear: &'b [u8],
        tiled: &'b mut [u8],
    },
    /// The band's tiled bytes into the linear bytes from the band's part on.
    Deswizzle {
        tiled: &'b [u8],
        linear: &'b mut [u8],
    },
}

/// The copies of a band's chunks of `columns` texels: the whole chunks' (where the band has
/// one) and the last chunk's where it is narrower.
struct ChunkCopies {
    columns: usize,
    whole: Option<Box<dyn RunTiles>>,
    rest: Option<Box<dyn RunTiles>>,
}

impl ChunkCopies {
    /// The copy of a chunk `columns` wide.
    fn of(&self, columns: usize) -> &dyn RunTiles {
        let copy = match columns == self.columns {
            true => &self.whole,
            false => &self.rest,
        };
        copy.as_deref()
            .expect("a band's chunks are whole or its last, each made ready")
    }
}

/// Copies a level of a linear mode: rows of `pitch` texels, slices of `pitch × rows`
/// (addrlib's linear address, `(slice · rows + y) · pitch + x` texels), a pitched view of
/// the level's bytes.
fn copy_linear(
    options: Options,
    direction: Direction,
    [depth, height, width]: [usize; 3],
    bytes: usize,
    tiling: LevelTiling,
    src: &[u8],
    dst: &mut [u8],
) -> Result<(), TextureError> {
    let extents = [depth, height, width * bytes];
    let row = tiling.pitch * bytes;
    let linear = View::row_major(&extents)?;
    let tiled = View::strided(&extents, &[tiling.rows * row, row, 1], 0)?;
    let (from, to) = match direction {
        Direction::Swizzle => (&linear, &tiled),
        Direction::Deswizzle => (&tiled, &linear),
    };
    Ok(copy_views_with(options, from, to, src, dst)?)
}

/// Writes `tiled`'s groups from the scratch: group `g` of 2 KB row `r` is the scratch's
/// group `sources(r)[g]`, over the rows `tiled` holds.
fn place_groups(scratch: &[u8], tiled: &mut [u8], sources: impl Fn(usize) -> [usize; GROUPS]) {
    for (r, row) in tiled.chunks_exact_mut(ROW_BYTES).enumerate() {
        for (group, source) in row.chunks_exact_mut(GROUP_BYTES).zip(sources(r)) {
            if let Some(from) = scratch.get(source * GROUP_BYTES..(source + 1) * GROUP_BYTES) {
                group.copy_from_slice(from);
            }
        }
    }
}

/// [`place_groups`]' inverse: the scratch's groups from `tiled`'s.
fn take_groups(tiled: &[u8], scratch: &mut [u8], sources: impl Fn(usize) -> [usize; GROUPS]) {
    for (r, row) in tiled.chunks_exact(ROW_BYTES).enumerate() {
        for (group, source) in row.chunks_exact(GROUP_BYTES).zip(sources(r)) {
            if let Some(to) = scratch.get_mut(source * GROUP_BYTES..(source + 1) * GROUP_BYTES) {
                to.copy_from_slice(group);
            }
        }
    }
}

/// The unit of the `layout!` item of `mode` and `bytes`-byte texels.
fn unit(mode: TileMode, bytes: usize) -> Unit {
    let thickness = mode.thickness();
    let (width, height) = match (mode.is_macro(), mode.aspect()) {
        (false, _) => (8, 8),
        // Four macro tiles to a group for bytes, two for 2-byte texels.
        (true, 1) if thickness == 1 => (32 * (4 / bytes).max(1), 16),
        (true, 1) => (32, 16),
        (true, 2) if bytes == 1 => (64, 32),
        (true, 2) => (32, 32),
        (true, _) => (32, 64),
    };
    Unit {
        texels: width * height * thickness,
        width,
    }
}

/// The copy of one row of tiles (`extents`, between the frames `[linear, tiled]`) through
/// the kernels of the mode and texel size (and whether the bank swaps inside a unit), into
/// destinations of `destination_texels` in all (whether its stores stream depends on it),
/// made ready to run on every band of that shape.
fn prepare_unit(
    options: Options,
    direction: Direction,
    (mode, bytes, swap_in_unit): (TileMode, usize, bool),
    (extents, destination_texels): (&[usize], usize),
    frames: [Frame; 2],
) -> Result<Box<dyn RunTiles>, TextureError> {
    with_kernels!(
        (mode.is_macro(), mode.is_thick(), mode.aspect(), bytes),
        |kernels| prepare_tiles(options, kernels, direction, extents, frames, destination_texels)
            .map(|copy| Box::new(copy) as Box<dyn RunTiles>),
        {
            _ if swap_in_unit => 16: SwizzleThin4SwapMacro128, DeswizzleThin4SwapMacro128,
            (false, false, _, 1) => 1: SwizzleMicro8, DeswizzleMicro8,
            (false, false, _, 2) => 2: SwizzleMicro16, DeswizzleMicro16,
            (false, false, _, 4) => 4: SwizzleMicro32, DeswizzleMicro32,
            (false, false, _, 8) => 8: SwizzleMicro64, DeswizzleMicro64,
            (false, false, _, _) => 16: SwizzleMicro128, DeswizzleMicro128,
            (false, true, _, 1) => 1: SwizzleThickMicro8, DeswizzleThickMicro8,
            (false, true, _, 2) => 2: SwizzleThickMicro16, DeswizzleThickMicro16,
            (false, true, _, 4) => 4: SwizzleThickMicro32, DeswizzleThickMicro32,
            (false, true, _, 8) => 8: SwizzleThickMicro64, DeswizzleThickMicro64,
            (false, true, _, _) => 16: SwizzleThickMicro128, DeswizzleThickMicro128,
            (true, true, _, 1) => 1: SwizzleThickMacro8, DeswizzleThickMacro8,
            (true, true, _, 2) => 2: SwizzleThickMacro16, DeswizzleThickMacro16,
            (true, true, _, 4) => 4: SwizzleThickMacro32, DeswizzleThickMacro32,
            // Thick macro modes of 16-byte texels are thin (`level_mode_of`).
            (true, true, _, _) => 8: SwizzleThickMacro64, DeswizzleThickMacro64,
            (true, false, 1, 1) => 1: SwizzleMacro8, DeswizzleMacro8,
            (true, false, 1, 2) => 2: SwizzleMacro16, DeswizzleMacro16,
            (true, false, 1, 4) => 4: SwizzleMacro32, DeswizzleMacro32,
            (true, false, 1, 8) => 8: SwizzleMacro64, DeswizzleMacro64,
            (true, false, 1, _) => 16: SwizzleMacro128, DeswizzleMacro128,
            (true, false, 2, 1) => 1: SwizzleThin2Macro8, DeswizzleThin2Macro8,
            (true, false, 2, 2) => 2: SwizzleThin2Macro16, DeswizzleThin2Macro16,
            (true, false, 2, 4) => 4: SwizzleThin2Macro32, DeswizzleThin2Macro32,
            (true, false, 2, 8) => 8: SwizzleThin2Macro64, DeswizzleThin2Macro64,
            (true, false, 2, _) => 16: SwizzleThin2Macro128, DeswizzleThin2Macro128,
            (true, false, _, 1) => 1: SwizzleThin4Macro8, DeswizzleThin4Macro8,
            (true, false, _, 2) => 2: SwizzleThin4Macro16, DeswizzleThin4Macro16,
            (true, false, _, 4) => 4: SwizzleThin4Macro32, DeswizzleThin4Macro32,
            (true, false, _, 8) => 8: SwizzleThin4Macro64, DeswizzleThin4Macro64,
            (true, false, _, _) => 16: SwizzleThin4Macro128, DeswizzleThin4Macro128,
        }
    )
}

/// The copy of a whole band's group tiles of thin units (`Macro64Groups`,
/// `Macro128Groups`) for `bytes`-byte texels, made ready as [`prepare_unit`]'s.
fn prepare_groups(
    options: Options,
    direction: Direction,
    bytes: usize,
    (extents, destination_texels): (&[usize], usize),
    frames: [Frame; 2],
) -> Result<Box<dyn RunTiles>, TextureError> {
    with_kernels!(
        bytes,
        |kernels| prepare_tiles(options, kernels, direction, extents, frames, destination_texels)
            .map(|copy| Box::new(copy) as Box<dyn RunTiles>),
        {
            8 => 8: SwizzleMacro64Groups, DeswizzleMacro64Groups,
            16 => 16: SwizzleMacro128Groups, DeswizzleMacro128Groups,
        }
        else unreachable!("thin units of more than 2 KB hold texels of 8 or 16 bytes")
    )
}

/// One mip level of a Wii U surface as GX2 sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelInfo {
    /// The level's tile mode (mips may fall back to simpler modes than the surface's).
    pub mode: TileMode,
    /// Its pitch in blocks (what a GX2 header records for mip 0).
    pub pitch: usize,
    /// Its height in blocks, padded to whole tiles: one slice is `pitch × rows` blocks.
    pub rows: usize,
}

/// Mip `mip`'s mode, pitch and padded height.
pub fn level_info(surface: &Surface, mip: usize) -> Result<LevelInfo, TextureError> {
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
    let (_, level) = WiiU::new(surface, tile_mode, swizzle)?.level(0, mip, blocks)?;
    Ok(LevelInfo {
        mode: level.mode,
        pitch: level.pitch,
        rows: level.rows,
    })
}

/// Mip `mip`'s tile mode and pitch in blocks, as a GX2 surface's header records them
/// ([`level_info`] without the height).
pub fn level_mode(surface: &Surface, mip: usize) -> Result<(TileMode, usize), TextureError> {
    level_info(surface, mip).map(|level| (level.mode, level.pitch))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::{Level, TileCopy};

    /// The group tiles of thin units of 8- and 16-byte texels take AVX-512's generated rows
    /// where it runs; the whole units (kept for bands cut by the level's edge) would spill,
    /// and take the runs.
    #[test]
    fn group_tiles_take_the_generated_rows() {
        let options = Options::default();
        let groups = [
            SwizzleMacro64Groups::route::<[u8; 8]>(options),
            DeswizzleMacro64Groups::route::<[u8; 8]>(options),
            SwizzleMacro128Groups::route::<[u8; 16]>(options),
            DeswizzleMacro128Groups::route::<[u8; 16]>(options),
        ];
        let units = [
            SwizzleMacro64::route::<[u8; 8]>(options),
            SwizzleMacro128::route::<[u8; 16]>(options),
        ];
        let avx512 = Level::Avx512.is_available();
        let expect = "default options pick a level this CPU runs";
        for route in groups.map(|route| route.expect(expect)) {
            assert_eq!(route.tiles == TileCopy::GeneratedRows, avx512, "{route}");
        }
        for route in units.map(|route| route.expect(expect)) {
            assert_ne!(route.tiles, TileCopy::GeneratedRows, "{route}");
        }
    }
}
