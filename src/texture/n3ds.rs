//! Nintendo 3DS surfaces (PICA200), as `swizzle_3ds` tiles them: texels in 8×8 tiles in
//! Morton order ([`super::ps4::MortonTiles`], the same tiles), the bytes of each texel
//! reversed (the GPU reads RGBA8 as ABGR); each level on its own, one after the other.
//!
//! The reversal is a pass over the copied texels, not a layout: a layout moves whole
//! elements, and the byte order inside a 3-byte texel is no permutation of elements.
//! Levels must be whole tiles (8×8 texels), as the GPU requires; the 3DS has no 3-D
//! textures.

use super::{Surface, TextureError, unsupported};

pub(super) fn check(surface: &Surface) -> Result<(), TextureError> {
    super::ps4::check(surface)?;
    if surface.depth != 1 {
        return Err(unsupported(surface.platform, "3-D textures"));
    }
    for mip in 0..surface.mips {
        let (_, [_, height, width]) = surface.mip_size(mip);
        if !(width.is_multiple_of(8) && height.is_multiple_of(8)) {
            return Err(unsupported(
                surface.platform,
                format!("mip {mip} of {width}×{height} blocks: levels are whole 8×8 tiles"),
            ));
        }
    }
    Ok(())
}
