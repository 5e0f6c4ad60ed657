//! PlayStation 4 surfaces as `swizzleinator` tiles them: texels (pixels, or compressed blocks)
//! in 8×8 tiles, Morton order inside a tile (x's bit first), tiles row-major; the edges
//! padded to whole tiles; depth slices one after the other; each level on its own.
//!
//! The Nintendo 3DS ([`super::n3ds`]) stores the same tiles.

use crate::kernel::{Frame, Options};
use crate::platform::Direction;
use crate::{Surface, TextureError, checked_product, copy_slices, copy_tiles, unsupported};

crate::layout! {
    /// 8×8 Morton tiles of texels, row-major over the grid of tiles.
    pub(crate) layout MortonTiles {
        memory [ty: dyn, tx: dyn, m: 64];
        morton m -> [yi: 8, xi: 8];
        merge [ty, yi] -> y;
        merge [tx, xi] -> x;
        coords [y, x];
    }
    /// Row-major texels into Morton tiles.
    pub(crate) kernel SwizzleMorton = pack(MortonTiles);
    /// Morton tiles into row-major texels.
    pub(crate) kernel DeswizzleMorton = unpack(MortonTiles);
}

/// Texel sizes the Morton kernels copy (bytes).
const TEXEL_BYTES: [usize; 8] = [1, 2, 3, 4, 6, 8, 12, 16];

texel_tiling!(
    /// The PS4's tiling of a surface of texels of `bytes` bytes.
    Ps4
);

/// Whether the Morton kernels copy the surface's texels (the 3DS's too).
pub(crate) fn check(surface: &Surface) -> Result<(), TextureError> {
    let bytes = surface.format.bytes_per_block();
    match TEXEL_BYTES.contains(&bytes) {
        true => Ok(()),
        false => Err(unsupported(
            surface.platform,
            format!("texels of {bytes} bytes (the Morton kernels copy {TEXEL_BYTES:?})"),
        )),
    }
}

/// A level's tiled size: whole 8×8 tiles, each slice of the depth.
pub(crate) fn level_size(
    [depth, height, width]: [usize; 3],
    bytes: usize,
) -> Result<usize, TextureError> {
    checked_product([bytes, depth, height.div_ceil(8), width.div_ceil(8), 64])
}

/// Copies one level, slice by slice.
pub(crate) fn copy_level(
    options: Options,
    direction: Direction,
    [depth, height, width]: [usize; 3],
    bytes: usize,
    src: &[u8],
    dst: &mut [u8],
) -> Result<(), TextureError> {
    let tiles = [height.div_ceil(8), width.div_ceil(8)];
    let extents = [height, width];
    let frame = Frame::Tiles {
        tiles: &tiles,
        tile_space: MortonTiles::TILE_SPACE,
    };
    copy_slices(depth, src, dst, |src, dst| {
        with_kernels!(
            bytes,
            |kernels| copy_tiles(options, kernels, direction, &extents, frame, src, dst),
            [1 2 3 4 6 8 12 16] => SwizzleMorton, DeswizzleMorton
        )
    })
}
