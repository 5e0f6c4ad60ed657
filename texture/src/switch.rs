//! Nintendo Switch surfaces: Tegra X1 block linear (the GOBs of `tegra.rs`), with the rules
//! that pick each level's block height and depth, and the alignment of array layers, as
//! `tegra_swizzle`'s surface functions apply them.
//!
//! - **Block height of mip 0** (2-D surfaces), unless given: from the height in blocks `h`,
//!   the largest of 16, 8, 4, 2 GOBs with `h + h / 2` at least 8 times it, else 1.
//! - **Each mip's block height**: mip 0's, halved while the mip's height in blocks fits in
//!   half of it (`h ≤ block_height / 2 · 8`), down to 1.
//! - **3-D surfaces** stack GOBs in depth, not height (block height 1): mip 0's block depth
//!   from the depth `d` as above (the largest of 16, 8, 4, 2 with `d + d / 2` at least it),
//!   each mip's halved while the mip's depth fits in half of it. A level's tiled size counts
//!   its depth rounded up to that rule applied to the level's own depth.
//! - **Array layers** (more than one) start at multiples of mip 0's block (`block_height`
//!   GOBs of 512 bytes), the block height first halved while the surface's height *in
//!   pixels* fits in half of it (the rule of Ryujinx and `tegra_swizzle`).
//!
//! 2-D levels go through `tegra.rs`'s GOB kernels stacked `block_height` high; 3-D
//! levels through the layouts below, GOBs stacked `block_depth` deep
//! ([`crate::kernel::Frame::Stacked`] along the first coordinate, depth).

use crate::kernel::{Frame, GeneratedCode, Options, Plan, stacked_space};
use crate::platform::{Direction, Tiling};
use crate::tegra::{Deswizzle32, DeswizzleBytes, Gob32, GobBytes, Swizzle32, SwizzleBytes};
use crate::{Level, Surface, TextureError, copy_tiles, unsupported};

crate::layout! {
    /// 3-D GOBs of bytes: one slice deep, 8 rows × 64 bytes, row-major over the grid of
    /// GOBs (depth, rows, columns); stacked in depth, they form Tegra's 3-D blocks.
    layout Gob3Bytes {
        memory [z: dyn, gy: dyn, gx: dyn, xh: 2, yq: 4, xq: 2, y1: 2, x16: 16];
        merge [gy, yq, y1] -> y;
        merge [gx, xh, xq, x16] -> x;
        coords [z, y, x];
    }
    /// Row-major bytes into 3-D GOBs.
    kernel Swizzle3Bytes = pack(Gob3Bytes);
    /// 3-D GOBs into row-major bytes.
    kernel Deswizzle3Bytes = unpack(Gob3Bytes);

    /// 3-D GOBs of 4-byte words.
    layout Gob3Words {
        memory [z: dyn, gy: dyn, gx: dyn, xh: 2, yq: 4, xq: 2, y1: 2, x4: 4];
        merge [gy, yq, y1] -> y;
        merge [gx, xh, xq, x4] -> x;
        coords [z, y, x];
    }
    /// Row-major words into 3-D GOBs.
    kernel Swizzle3Words = pack(Gob3Words);
    /// 3-D GOBs into row-major words.
    kernel Deswizzle3Words = unpack(Gob3Words);
}

pub use crate::tegra::{deswizzle, deswizzle_with, swizzle, swizzle_with, swizzled_size};

const GOB_BYTES: usize = 512;

/// Block heights (in GOBs) of Tegra's block linear.
pub const BLOCK_HEIGHTS: [usize; 6] = [1, 2, 4, 8, 16, 32];

/// The block height of mip 0 for a surface `height` blocks high (`tegra_swizzle` infers the
/// same).
pub fn block_height_mip0(height: usize) -> usize {
    one_and_a_half(height, 8)
}

/// The block height of a mip `height` blocks high, from mip 0's.
pub fn mip_block_height(height: usize, block_height_mip0: usize) -> usize {
    let mut gobs = block_height_mip0;
    while gobs > 1 && height <= gobs / 2 * 8 {
        gobs /= 2;
    }
    gobs
}

/// The block depth (GOBs stacked in depth) of a 3-D surface `depth` slices deep.
pub fn block_depth(depth: usize) -> usize {
    one_and_a_half(depth, 1)
}

/// The block depth of a mip `depth` slices deep, from mip 0's.
pub fn mip_block_depth(depth: usize, block_depth_mip0: usize) -> usize {
    let mut gobs = block_depth_mip0;
    while gobs > 1 && depth <= gobs / 2 {
        gobs /= 2;
    }
    gobs
}

/// The largest of 16, 8, 4, 2 with `n + n / 2 ≥ it · unit`, else 1.
fn one_and_a_half(n: usize, unit: usize) -> usize {
    let n = n.saturating_add(n / 2);
    [16, 8, 4, 2]
        .into_iter()
        .find(|g| n >= g * unit)
        .unwrap_or(1)
}

/// The Switch's tiling of a surface: its block height or depth at mip 0, and the
/// alignment of its layers.
pub(crate) struct Switch {
    block_height_mip0: usize,
    block_depth_mip0: usize,
    three_d: bool,
    layer_alignment: usize,
    bytes: usize,
}

impl Switch {
    pub(crate) fn new(
        surface: &Surface,
        block_height: Option<usize>,
    ) -> Result<Switch, TextureError> {
        if let Some(gobs) = block_height
            && !BLOCK_HEIGHTS.contains(&gobs)
        {
            return Err(unsupported(
                surface.platform,
                format!("a block height of {gobs} GOBs (Tegra's are 1, 2, 4, 8, 16, 32)"),
            ));
        }
        // 3-D surfaces stack in depth: their block height is 1, whatever was asked.
        let three_d = surface.depth != 1;
        let block_height_mip0 = match three_d {
            true => 1,
            false => block_height.unwrap_or_else(|| {
                block_height_mip0(surface.height.div_ceil(surface.format.block().height))
            }),
        };
        let layer_alignment = match surface.layers {
            1 => 1,
            _ => {
                // The height in pixels, not blocks: the rule as the driver code has it.
                let mut gobs = block_height_mip0;
                while gobs > 1 && surface.height <= gobs / 2 * 8 {
                    gobs /= 2;
                }
                gobs * GOB_BYTES
            }
        };
        Ok(Switch {
            block_height_mip0,
            block_depth_mip0: block_depth(surface.depth),
            three_d,
            layer_alignment,
            bytes: surface.format.bytes_per_block(),
        })
    }

    /// How many GOBs a level of `[depth, height, _]` blocks stacks: in depth (3-D) or in
    /// height.
    fn stack(&self, [depth, height, _]: [usize; 3]) -> usize {
        match self.three_d {
            true => mip_block_depth(depth, self.block_depth_mip0),
            false => mip_block_height(height, self.block_height_mip0),
        }
    }
}

impl Tiling for Switch {
    fn level_size(&self, _mip: usize, blocks: [usize; 3]) -> Result<usize, TextureError> {
        let [depth, height, width] = blocks;
        let overflow = || TextureError::Overflow;
        let gobs_x = width
            .checked_mul(self.bytes)
            .ok_or_else(overflow)?
            .div_ceil(64);
        let block_height = mip_block_height(height, self.block_height_mip0);
        let rows = height.div_ceil(8 * block_height) * block_height;
        let slices = depth
            .checked_next_multiple_of(block_depth(depth))
            .ok_or_else(overflow)?;
        [gobs_x, rows, slices]
            .into_iter()
            .try_fold(GOB_BYTES, |acc, n| acc.checked_mul(n))
            .ok_or_else(overflow)
    }

    fn copy_level(
        &self,
        options: Options,
        direction: Direction,
        level: &Level,
        src: &[u8],
        dst: &mut [u8],
    ) -> Result<(), TextureError> {
        let stack = self.stack(level.blocks);
        let (blocks, bytes, three_d) = (level.blocks, self.bytes, self.three_d);
        copy_level(options, direction, blocks, bytes, stack, three_d, src, dst)
    }

    fn layer_alignment(&self) -> usize {
        self.layer_alignment
    }
}

/// Copies one level between its linear bytes and its GOBs: `blocks` is `[depth, rows,
/// columns]` of `bytes`-byte blocks; `dst` or `src` (the tiled side) is the level's whole
/// tiled range, of which the GOBs take the start.
#[allow(clippy::too_many_arguments)]
fn copy_level(
    options: Options,
    direction: Direction,
    [depth, height, width]: [usize; 3],
    bytes: usize,
    stack: usize,
    three_d: bool,
    src: &[u8],
    dst: &mut [u8],
) -> Result<(), TextureError> {
    let row = width.checked_mul(bytes).ok_or(TextureError::Overflow)?;
    let gobs = [depth, height.div_ceil(8), row.div_ceil(64)];
    let (extents, tiles) = match three_d {
        true => (vec![depth, height, row], gobs.to_vec()),
        false => (vec![height, row], gobs[1..].to_vec()),
    };
    let space = stacked_space(&tiles, GOB_BYTES, stack).ok_or(TextureError::Overflow)?;
    let (src, dst) = match direction {
        Direction::Swizzle => (src, tiled_part(dst, space)?),
        Direction::Deswizzle => (tiled_part_ref(src, space)?, dst),
    };
    let frame = |tile_space| Frame::Stacked {
        tiles: &tiles,
        tile_space,
        stack,
    };
    match (row % 4, three_d) {
        (0, false) => {
            let kernels: [(&Plan, GeneratedCode<[u8; 4]>); 2] = [
                (Swizzle32::plan(), Swizzle32::code()),
                (Deswizzle32::plan(), Deswizzle32::code()),
            ];
            let extents = [height, row / 4];
            copy_tiles(
                options,
                kernels,
                direction,
                &extents,
                frame(Gob32::TILE_SPACE),
                src,
                dst,
            )
        }
        (_, false) => {
            let kernels: [(&Plan, GeneratedCode<u8>); 2] = [
                (SwizzleBytes::plan(), SwizzleBytes::code()),
                (DeswizzleBytes::plan(), DeswizzleBytes::code()),
            ];
            copy_tiles(
                options,
                kernels,
                direction,
                &extents,
                frame(GobBytes::TILE_SPACE),
                src,
                dst,
            )
        }
        (0, true) => {
            let kernels: [(&Plan, GeneratedCode<[u8; 4]>); 2] = [
                (Swizzle3Words::plan(), Swizzle3Words::code()),
                (Deswizzle3Words::plan(), Deswizzle3Words::code()),
            ];
            let extents = [depth, height, row / 4];
            let frame = frame(Gob3Words::TILE_SPACE);
            copy_tiles(options, kernels, direction, &extents, frame, src, dst)
        }
        (_, true) => {
            let kernels: [(&Plan, GeneratedCode<u8>); 2] = [
                (Swizzle3Bytes::plan(), Swizzle3Bytes::code()),
                (Deswizzle3Bytes::plan(), Deswizzle3Bytes::code()),
            ];
            let frame = frame(Gob3Bytes::TILE_SPACE);
            copy_tiles(options, kernels, direction, &extents, frame, src, dst)
        }
    }
}

/// The first `space` bytes of a level's tiled range: the GOBs the kernel addresses.
fn tiled_part(tiled: &mut [u8], space: usize) -> Result<&mut [u8], TextureError> {
    let len = tiled.len();
    tiled.get_mut(..space).ok_or(TextureError::Length {
        side: "level",
        expected: space,
        found: len,
    })
}

fn tiled_part_ref(tiled: &[u8], space: usize) -> Result<&[u8], TextureError> {
    tiled.get(..space).ok_or(TextureError::Length {
        side: "level",
        expected: space,
        found: tiled.len(),
    })
}
