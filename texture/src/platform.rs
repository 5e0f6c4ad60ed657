//! Platforms: the public names of the tilings, and the one trait each platform's file
//! implements.

use crate::kernel::Options;
use crate::{Level, Surface, TextureError};
use crate::{d3d12, n3ds, ps3, ps4, switch, wiiu, xbox360};
use std::fmt;

/// A platform's tiling of texture surfaces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Platform {
    /// Nintendo Switch (Tegra X1 block linear): GOBs stacked `block_height` high (1, 2, 4,
    /// 8, 16 or 32) for mip 0, smaller for small mips; `None` infers it from the height as
    /// `tegra_swizzle` does. 3-D surfaces stack GOBs in depth instead ([`switch`](crate::switch)).
    Switch { block_height: Option<usize> },
    /// Nintendo 3DS (PICA200): 8×8 Morton tiles, the bytes of each texel reversed; ETC1
    /// and ETC1A4 in 8×8-texel tiles of four blocks in Z order.
    N3ds,
    /// PlayStation 4, as `swizzleinator` tiles it: 8×8 Morton tiles of texels.
    Ps4,
    /// PlayStation 3 (RSX), as `swizzleinator` tiles it: each level in one Morton order,
    /// padded to power-of-two sides.
    Ps3,
    /// Xbox 360 (Xenos), as `swizzleinator` tiles it: 32 × 32 macro tiles of texels of 4, 8
    /// or 16 bytes.
    Xbox360,
    /// D3D12 `D3D12_TEXTURE_LAYOUT_64KB_STANDARD_SWIZZLE`, 2-D: 64 KB tiles, Microsoft's
    /// interleave inside each.
    D3d12,
    /// Wii U (GX2): every tiled mode of GX2 (`tile_mode`): 8×8 (×4) micro tiles, macro
    /// tiles over pipes and banks, GX2's `swizzle` (bits 8 to 10: the pipe and bank)
    /// ([`wiiu`](crate::wiiu)).
    WiiU {
        tile_mode: crate::wiiu::TileMode,
        swizzle: u32,
    },
}

impl Platform {
    /// The Switch with the block height inferred per surface.
    pub const SWITCH: Platform = Platform::Switch { block_height: None };

    /// The Wii U's usual texture tiling: 2-D macro tiles (`Tiled2DThin1`), no swizzle.
    pub const WIIU: Platform = Platform::WiiU {
        tile_mode: crate::wiiu::TileMode::Tiled2DThin1,
        swizzle: 0,
    };

    /// Every platform by its command-line name.
    pub const NAMES: [(&'static str, Platform); 7] = [
        ("switch", Platform::SWITCH),
        ("3ds", Platform::N3ds),
        ("ps3", Platform::Ps3),
        ("ps4", Platform::Ps4),
        ("xbox360", Platform::Xbox360),
        ("d3d12", Platform::D3d12),
        ("wiiu", Platform::WIIU),
    ];

    /// A platform by its name (`switch`, `3ds`, `ps3`, `ps4`, `xbox360`, `d3d12`, `wiiu`).
    pub fn parse(name: &str) -> Option<Platform> {
        let name = name.to_ascii_lowercase();
        Platform::NAMES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, p)| *p)
    }

    /// The platform's command-line name (`switch`, `3ds`, …, `wiiu`), whatever its
    /// parameters.
    pub fn name(&self) -> &'static str {
        let same_kind =
            |(_, p): &&(&str, Platform)| std::mem::discriminant(p) == std::mem::discriminant(self);
        Platform::NAMES
            .iter()
            .find(same_kind)
            .map_or("unknown", |(name, _)| *name)
    }

    /// The platform's tiling of `surface`, once its rules accept the surface: the registry
    /// of platforms, one line each.
    pub(crate) fn tiling(&self, surface: &Surface) -> Result<Box<dyn Tiling>, TextureError> {
        if surface.format.is_etc1() && *self != Platform::N3ds {
            let reason = "ETC1 textures, a 3DS format (whose tiles are the 3DS's own)";
            return Err(crate::unsupported(*self, reason));
        }
        Ok(match *self {
            Platform::Switch { block_height } => {
                Box::new(switch::Switch::new(surface, block_height)?)
            }
            Platform::N3ds => Box::new(n3ds::N3ds::new(surface)?),
            Platform::Ps4 => Box::new(ps4::Ps4::new(surface)?),
            Platform::Ps3 => Box::new(ps3::Ps3::new(surface)?),
            Platform::Xbox360 => Box::new(xbox360::Xbox360::new(surface)?),
            Platform::D3d12 => Box::new(d3d12::D3d12::new(surface)?),
            Platform::WiiU { tile_mode, swizzle } => {
                Box::new(wiiu::WiiU::new(surface, tile_mode, swizzle)?)
            }
        })
    }
}

impl fmt::Display for Platform {
    /// The platform's name, with the parameters that are not its defaults.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Platform::Switch {
                block_height: Some(gobs),
            } => write!(f, "switch (blocks {gobs} GOBs high)"),
            Platform::WiiU { tile_mode, swizzle } => {
                write!(f, "wiiu ({tile_mode:?}, swizzle {swizzle:#x})")
            }
            platform => f.write_str(platform.name()),
        }
    }
}

/// Which way a copy goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Direction {
    /// Linear to tiled.
    Swizzle,
    /// Tiled to linear.
    Deswizzle,
}

/// One platform's tiling of one surface, its rules already checked: what each platform's
/// file implements, and all that [`Surface`] asks of a platform. Sizes are per level of
/// one layer; the surface lays the levels out, and may copy several levels at once.
pub(crate) trait Tiling: Send + Sync {
    /// Mip `mip`'s tiled size in bytes (padding included), for a level of `blocks`
    /// (`[depth, rows, columns]`).
    fn level_size(&self, mip: usize, blocks: [usize; 3]) -> Result<usize, TextureError>;

    /// Copies one level: `src` and `dst` are its bytes on either side (the tiled side its
    /// whole [`Level::swizzled`] range).
    fn copy_level(
        &self,
        options: Options,
        direction: Direction,
        level: &Level,
        src: &[u8],
        dst: &mut [u8],
    ) -> Result<(), TextureError>;

    /// Where each layer starts on the tiled side: a multiple of this many bytes.
    fn layer_alignment(&self) -> usize {
        1
    }

    /// For platforms that store each mip's layers together (mip by mip, not layer by
    /// layer: GX2): how many level slots mip `mip` takes. `None`: layer by layer.
    fn mip_slots(&self, _mip: usize) -> Option<Result<usize, TextureError>> {
        None
    }
}
