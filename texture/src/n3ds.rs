//! Nintendo 3DS surfaces (PICA200): each level on its own, one after the other; the 3DS
//! has no 3-D textures.
//!
//! - **Texels** (RGBA8, RGB8, LA8, …), as `swizzle_3ds` tiles them: 8×8 tiles in Morton
//!   order (the PS4's tiles, [`crate::ps4`]), the bytes of each texel reversed (the GPU
//!   reads RGBA8 as ABGR). Levels are whole tiles, as the GPU requires.
//! - **ETC1 and ETC1A4** ([`Format::Etc1`], [`Format::Etc1A4`]): 8×8-texel tiles,
//!   row-major, each holding its four 4×4 blocks in Z order (`(0, 0)`, `(1, 0)`, `(0, 1)`,
//!   `(1, 1)`); each ETC1 block's 64-bit word little-endian, where the linear side (as
//!   KTX files and the ETC1 specification have it) holds it big-endian: its 8 bytes
//!   reversed. An ETC1A4 block is 8 bytes of alpha, kept as the 3DS stores them, then an
//!   ETC1 block. That is how Citra (`video_core/texture/texture_decode.cpp`: `GetTileOffset`
//!   of 8×8 tiles, the subtile index `x / 4 + (y / 4) · 2`, blocks read as little-endian
//!   `u64`) and Panda3DS (`renderer_gl/etc1.cpp`) decode them and devkitPro's `tex3ds`
//!   encodes them ("rg_etc1 outputs in big-endian; convert to little-endian"; "alpha block
//!   precedes etc1 block"). Levels are whole 8×8-texel tiles.
//!
//! The reversals are not a layout (a layout moves whole elements, and the byte order inside
//! a 3-byte texel is no permutation of elements): each part of a level's source, a few rows
//! of tiles, is reversed into a scratch buffer the cache holds, and copied from there. The
//! reversal of 2-, 4-, 8- and 16-byte texels and of ETC1 words takes the widest byte
//! shuffles the CPU runs ([`crate::kernel::reverse_element_bytes`]).

use crate::kernel::{Element, Frame, GeneratedCode, Options, Plan, reverse_element_bytes};
use crate::platform::{Direction, Tiling};
use crate::ps4::{self, DeswizzleMorton, SwizzleMorton};
use crate::{
    Format, Level, Surface, TextureError, checked_product, for_each_part, part_options,
    prepare_tiles, unsupported, with_scratch,
};

crate::layout! {
    /// ETC1 blocks in 8×8-texel tiles: 2×2 blocks in Z order, x first, tiles row-major.
    pub(crate) layout Etc1Tiles {
        memory [ty: dyn, tx: dyn, m: 4];
        morton m -> [yi: 2, xi: 2];
        merge [ty, yi] -> y;
        merge [tx, xi] -> x;
        coords [y, x];
    }
    /// Row-major blocks into the 3DS's ETC1 tiles.
    kernel SwizzleEtc1 = pack(Etc1Tiles);
    /// The 3DS's ETC1 tiles into row-major blocks.
    kernel DeswizzleEtc1 = unpack(Etc1Tiles);
}

/// The 3DS's tiling of a surface: of texels of `bytes` bytes, or of ETC1 blocks.
pub(crate) struct N3ds {
    bytes: usize,
    etc1: bool,
}

impl N3ds {
    pub(crate) fn new(surface: &Surface) -> Result<N3ds, TextureError> {
        let etc1 = surface.format.is_etc1();
        if !etc1 {
            ps4::check(surface)?;
        }
        if surface.depth != 1 {
            return Err(unsupported(surface.platform, "3-D textures"));
        }
        // A tile is 8×8 blocks of texels, or 2×2 ETC1 blocks.
        let tile = if etc1 { 2 } else { 8 };
        for mip in 0..surface.mips {
            let (pixels, [_, height, width]) = surface.mip_size(mip);
            if !(width.is_multiple_of(tile) && height.is_multiple_of(tile)) {
                let [_, height, width] = pixels;
                return Err(unsupported(
                    surface.platform,
                    format!(
                        "mip {mip} of {width}×{height} pixels: levels are whole 8×8-texel tiles"
                    ),
                ));
            }
        }
        Ok(N3ds {
            bytes: surface.format.bytes_per_block(),
            etc1,
        })
    }
}

impl Tiling for N3ds {
    fn level_size(&self, _mip: usize, blocks: [usize; 3]) -> Result<usize, TextureError> {
        match self.etc1 {
            false => ps4::level_size(blocks, self.bytes),
            // Levels are whole tiles: no padding.
            true => checked_product([self.bytes, blocks[1], blocks[2]]),
        }
    }

    fn copy_level(
        &self,
        options: Options,
        direction: Direction,
        level: &Level,
        src: &[u8],
        dst: &mut [u8],
    ) -> Result<(), TextureError> {
        let [_, height, width] = level.blocks;
        let bytes = self.bytes;
        let copy = LevelCopy {
            options,
            direction,
            blocks: [height, width],
            bytes,
        };
        match self.etc1 {
            false => with_kernels!(
                bytes,
                |kernels| copy.tile_rows(kernels, 8, |from, to| reverse_element_bytes(bytes, from, to), src, dst),
                [1 2 3 4 6 8 12 16] => SwizzleMorton, DeswizzleMorton
            ),
            // The ETC1 word of each block (an ETC1A4 block's second half), reversed: from
            // big-endian to little-endian, or back.
            true => with_kernels!(
                bytes,
                |kernels| copy.tile_rows(kernels, 2, |from, to| reverse_etc1_words(bytes, from, to), src, dst),
                { 8 => 8: SwizzleEtc1, DeswizzleEtc1, _ => 16: SwizzleEtc1, DeswizzleEtc1 }
            ),
        }
    }
}

/// Bytes of a part of a level, reversed into a scratch buffer that the cache holds while
/// it is copied: a row of 8×8 tiles of a 4096-texel RGBA8 level, or several rows of a
/// narrower one.
const SCRATCH_BYTES: usize = 1 << 17;

/// One level's copy: its size in blocks (`[rows, columns]`, whole tiles) and texel bytes.
struct LevelCopy {
    options: Options,
    direction: Direction,
    blocks: [usize; 2],
    bytes: usize,
}

impl LevelCopy {
    /// Copies the level with `kernels` (of square tiles of `side` blocks, row-major), a
    /// few rows of tiles at a time: each part of the source reversed (`reverse(from, to)`)
    /// into a scratch buffer, which the cache holds, then copied from there; one pass over
    /// memory, whose stores may stream, the parts spread over threads.
    fn tile_rows<E: Element>(
        &self,
        kernels: [(&Plan, GeneratedCode<E>); 2],
        side: usize,
        reverse: impl Fn(&[u8], &mut [u8]) + Sync,
        src: &[u8],
        dst: &mut [u8],
    ) -> Result<(), TextureError> {
        let [rows, columns] = self.blocks;
        // A row of tiles: the same bytes on both sides (the level is whole tiles).
        let row_bytes = side * columns * self.bytes;
        if row_bytes == 0 {
            return Ok(());
        }
        let tile_rows = rows / side;
        let per_part = (SCRATCH_BYTES / row_bytes).clamp(1, tile_rows.max(1));
        let part_bytes = per_part * row_bytes;
        let parts = tile_rows.div_ceil(per_part);
        // Each part on one thread (the threads are the parts').
        let one = part_options(self.options, dst.len(), parts);
        let level_texels = dst.len() / self.bytes;
        let prepare = |tile_rows: usize| {
            let tiles = [tile_rows, columns / side];
            let frames = [
                Frame::RowMajor,
                Frame::Tiles {
                    tiles: &tiles,
                    tile_space: side * side,
                },
            ];
            let extents = [tile_rows * side, columns];
            prepare_tiles(one, kernels, self.direction, &extents, frames, level_texels)
        };
        let whole = prepare(per_part)?;
        let last = match tile_rows % per_part {
            0 => None,
            rest => Some(prepare(rest)?),
        };
        for_each_part(self.options, dst, part_bytes, parts, |index, dst| {
            let src = &src[index * part_bytes..][..dst.len()];
            with_scratch(src.len(), |scratch| {
                reverse(src, scratch);
                match (&last, dst.len() == part_bytes) {
                    (Some(last), false) => last.run(scratch, dst),
                    _ => whole.run(scratch, dst),
                }
            })
        })
    }
}

/// `to`: the ETC1 or ETC1A4 blocks (of `bytes` bytes) of `from`, the ETC1 word (the last
/// 8 bytes) of each reversed: an ETC1 block is its word; an ETC1A4 block's first 8 bytes,
/// its alpha, are kept.
fn reverse_etc1_words(bytes: usize, from: &[u8], to: &mut [u8]) {
    if bytes == 8 {
        return reverse_element_bytes(8, from, to);
    }
    to.copy_from_slice(from);
    for block in to.chunks_exact_mut(bytes) {
        if let Some(word) = block.last_chunk_mut::<8>() {
            *word = u64::from_ne_bytes(*word).swap_bytes().to_ne_bytes();
        }
    }
}

/// The ETC1 formats' block sizes are the 3DS's: 8 (ETC1) and 16 (ETC1A4) bytes.
const _: () =
    assert!(Format::Etc1.bytes_per_block() == 8 && Format::Etc1A4.bytes_per_block() == 16);
