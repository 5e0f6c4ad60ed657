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
//! The reversals are a pass over the copied texels or blocks, not a layout: a layout moves
//! whole elements, and the byte order inside a 3-byte texel is no permutation of elements.

use crate::kernel::{Frame, Options};
use crate::platform::{Direction, Tiling};
use crate::{Format, Level, Surface, TextureError, checked_product, copy_tiles, ps4, unsupported};

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
        if !self.etc1 {
            return ps4::copy_level(options, direction, level.blocks, self.bytes, true, src, dst);
        }
        let [_, height, width] = level.blocks;
        let tiles = [height / 2, width / 2];
        let frame = Frame::Tiles {
            tiles: &tiles,
            tile_space: Etc1Tiles::TILE_SPACE,
        };
        let extents = [height, width];
        with_kernels!(
            self.bytes,
            |kernels| copy_tiles(options, kernels, direction, &extents, frame, src, dst)?,
            { 8 => 8: SwizzleEtc1, DeswizzleEtc1, _ => 16: SwizzleEtc1, DeswizzleEtc1 }
        );
        // The ETC1 word of each block (an ETC1A4 block's second half), reversed: from
        // big-endian to little-endian, or back.
        let colour = self.bytes - 8;
        for block in dst.chunks_exact_mut(self.bytes) {
            block[colour..].reverse();
        }
        Ok(())
    }
}

/// The ETC1 formats' block sizes are the 3DS's: 8 (ETC1) and 16 (ETC1A4) bytes.
const _: () =
    assert!(Format::Etc1.bytes_per_block() == 8 && Format::Etc1A4.bytes_per_block() == 16);
