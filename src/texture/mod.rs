//! Whole texture surfaces (mip chains, array layers, depth, compressed blocks) tiled as
//! consoles and GPUs store them, behind one API.
//!
//! A [`Surface`] is a platform's tiling ([`Platform`]), a size in pixels (width, height,
//! depth), a number of array layers and mip levels, and a [`Format`]: blocks of `block_width ×
//! block_height × block_depth` pixels of `bytes_per_block` bytes (plain pixels are 1×1×1
//! blocks; BC1–7 are 4×4; ASTC n×m). The linear side is what DDS files and graphics APIs
//! hold: every level tightly packed, layer by layer, mip by mip within a layer. The tiled side
//! is what the platform's texture files and GPU memory hold, in the platform's order (the
//! same, except on the Wii U: mip by mip, each mip's layers together).
//!
//! Each platform's addressing is a set of `layout!` items in its module ([`switch`], [`n3ds`],
//! [`ps4`], [`ps3`], [`xbox360`], [`d3d12`], [`wiiu`]): GOBs stacked into blocks, Morton
//! tiles and squares, the 64 KB standard swizzle, the Xenos's and GX2's micro and macro
//! tiles as `bits` matrices. This module adds the bookkeeping: the size of every level, each platform's
//! block-height, block-depth and alignment rules, and the copies of each level with the
//! layouts' kernels.
//!
//! ```
//! use swizzle::texture::{Format, Platform, Surface};
//! // A 256² BC7 texture with its full mip chain, as the Switch stores it.
//! let surface = Surface::new(Platform::SWITCH, 256, 256, Format::BC7).mips(9);
//! let linear = vec![7u8; surface.linear_size()?];
//! let tiled = surface.swizzle_to_vec(&linear)?;
//! assert_eq!(tiled.len(), surface.swizzled_size()?);
//! assert_eq!(surface.deswizzle_to_vec(&tiled)?, linear);
//! // Where mip 3 of layer 0 lies on each side.
//! let level = surface.level(0, 3)?;
//! assert_eq!((level.width, level.height, level.linear.len()), (32, 32, 1024));
//! # Ok::<(), swizzle::texture::TextureError>(())
//! ```
//!
//! Every platform is tested byte for byte against the crate its users reach for
//! (`tests/texture.rs`): `tegra_swizzle` (Switch), `swizzle_3ds` (3DS), `swizzleinator` (PS3,
//! PS4, Xbox 360), `wiiu_swizzle` (Wii U) and, for D3D12, a `pdep` formula over Microsoft's interleave masks.

/// A `layout!` item's kernel pair over elements of `$element`, as [`copy_tiles`] takes it:
/// `[tile, untile]`, each its plan and code.
macro_rules! kernels {
    ($element:ty, $swizzle:ident, $deswizzle:ident) => {
        [
            ($swizzle::plan(), $swizzle::code::<$element>()),
            ($deswizzle::plan(), $deswizzle::code::<$element>()),
        ]
    };
}

/// Copies with the kernel pair that `$on` picks: each arm `pattern => n: Swizzle,
/// Deswizzle` is that pair over texels of `[u8; n]`, bound to `$kernels` in `$copy` (the
/// copy, as an expression); `else` is the value when no arm matches. The form `[n m …] =>
/// Swizzle, Deswizzle` gives one pair to each texel size `n`, `m`, … (others are checked
/// out before copying).
macro_rules! with_kernels {
    ($on:expr, |$kernels:ident| $copy:expr, {
        $($pattern:pat $(if $guard:expr)? => $n:literal: $swizzle:ident, $deswizzle:ident),* $(,)?
    } $(else $otherwise:expr)?) => {
        match $on {
            $($pattern $(if $guard)? => {
                let $kernels = kernels!([u8; $n], $swizzle, $deswizzle);
                $copy
            })*
            $(_ => $otherwise,)?
        }
    };
    ($bytes:expr, |$kernels:ident| $copy:expr, [$($n:literal)*] => $swizzle:ident, $deswizzle:ident) => {
        with_kernels!($bytes, |$kernels| $copy, { $($n => $n: $swizzle, $deswizzle),* }
            else unreachable!("texel sizes are checked before copying"))
    };
}

pub mod d3d12;
pub mod n3ds;
pub mod ps3;
pub mod ps4;
pub mod switch;
pub mod wiiu;
pub mod xbox360;

use crate::__private::{GeneratedCode, PreparedCopy, zeroed_output};
use crate::kernel::{Element, Frame, KernelError, Options, Plan, Side, Stores};
use crate::picture::{Cells, PictureError};
use std::fmt;
use std::ops::Range;

/// Texels as stored: blocks of `block_width × block_height × block_depth` pixels of
/// `bytes_per_block` bytes each (1×1×1 for plain pixels).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Format {
    pub block_width: usize,
    pub block_height: usize,
    pub block_depth: usize,
    pub bytes_per_block: usize,
}

impl Format {
    /// Plain pixels of `bytes` bytes.
    pub const fn pixels(bytes: usize) -> Format {
        Format::blocks(1, 1, bytes)
    }

    /// Compressed blocks of `width × height` pixels and `bytes` bytes.
    pub const fn blocks(width: usize, height: usize, bytes: usize) -> Format {
        Format {
            block_width: width,
            block_height: height,
            block_depth: 1,
            bytes_per_block: bytes,
        }
    }

    /// ASTC with blocks of `width × height` pixels (16 bytes each).
    pub const fn astc(width: usize, height: usize) -> Format {
        Format::blocks(width, height, 16)
    }

    pub const R8: Format = Format::pixels(1);
    pub const RG8: Format = Format::pixels(2);
    pub const RGB8: Format = Format::pixels(3);
    pub const RGBA8: Format = Format::pixels(4);
    pub const RGBA16: Format = Format::pixels(8);
    pub const RGBA32: Format = Format::pixels(16);
    pub const BC1: Format = Format::blocks(4, 4, 8);
    pub const BC2: Format = Format::blocks(4, 4, 16);
    pub const BC3: Format = Format::blocks(4, 4, 16);
    pub const BC4: Format = Format::blocks(4, 4, 8);
    pub const BC5: Format = Format::blocks(4, 4, 16);
    pub const BC6H: Format = Format::blocks(4, 4, 16);
    pub const BC7: Format = Format::blocks(4, 4, 16);

    /// The named formats [`Format::parse`] knows, besides `astcWxH`.
    pub const NAMES: [(&'static str, Format); 18] = [
        ("r8", Format::R8),
        ("rg8", Format::RG8),
        ("rgb8", Format::RGB8),
        ("rgba8", Format::RGBA8),
        ("bgra8", Format::RGBA8),
        ("r16", Format::RG8),
        ("r32", Format::RGBA8),
        ("rgba16", Format::RGBA16),
        ("rg32", Format::RGBA16),
        ("rgba32", Format::RGBA32),
        ("bc1", Format::BC1),
        ("bc2", Format::BC2),
        ("bc3", Format::BC3),
        ("bc4", Format::BC4),
        ("bc5", Format::BC5),
        ("bc6h", Format::BC6H),
        ("bc7", Format::BC7),
        ("etc1", Format::BC1),
    ];

    /// A format by name: those of [`Format::NAMES`] (`rgba8`, `bc7`, …) and `astc4x4` to
    /// `astc12x12`; any case.
    pub fn parse(name: &str) -> Option<Format> {
        let name = name.to_ascii_lowercase();
        if let Some((_, format)) = Format::NAMES.iter().find(|(n, _)| *n == name) {
            return Some(*format);
        }
        let (w, h) = name.strip_prefix("astc")?.split_once('x')?;
        let (w, h) = (w.parse().ok()?, h.parse().ok()?);
        ((4..=12).contains(&w) && (4..=12).contains(&h)).then(|| Format::astc(w, h))
    }
}

/// A platform's tiling of texture surfaces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Platform {
    /// Nintendo Switch (Tegra X1 block linear): GOBs stacked `block_height` high (1, 2, 4,
    /// 8, 16 or 32) for mip 0, smaller for small mips; `None` infers it from the height as
    /// `tegra_swizzle` does. 3-D surfaces stack GOBs in depth instead ([`switch`]).
    Switch { block_height: Option<usize> },
    /// Nintendo 3DS (PICA200): 8×8 Morton tiles, the bytes of each texel reversed
    /// ([`n3ds`]).
    N3ds,
    /// PlayStation 4, as `swizzleinator` tiles it: 8×8 Morton tiles of texels ([`ps4`]).
    Ps4,
    /// PlayStation 3 (RSX), as `swizzleinator` tiles it: each level in one Morton order,
    /// padded to power-of-two sides ([`ps3`]).
    Ps3,
    /// Xbox 360 (Xenos), as `swizzleinator` tiles it: 32 × 32 macro tiles of texels of 4, 8
    /// or 16 bytes ([`xbox360`]).
    Xbox360,
    /// D3D12 `D3D12_TEXTURE_LAYOUT_64KB_STANDARD_SWIZZLE`, 2-D: 64 KB tiles, Microsoft's
    /// interleave inside each ([`d3d12`]).
    D3d12,
    /// Wii U (GX2): every tiled mode of GX2 (`tile_mode`): 8×8 (×4) micro tiles, macro
    /// tiles over pipes and banks, GX2's `swizzle` (bits 8 to 10: the pipe and bank)
    /// ([`wiiu`]).
    WiiU {
        tile_mode: wiiu::TileMode,
        swizzle: u32,
    },
}

impl Platform {
    /// The Switch with the block height inferred per surface.
    pub const SWITCH: Platform = Platform::Switch { block_height: None };

    /// The Wii U's usual texture tiling: 2-D macro tiles (`Tiled2DThin1`), no swizzle.
    pub const WIIU: Platform = Platform::WiiU {
        tile_mode: wiiu::TileMode::Tiled2DThin1,
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
}

/// Why a surface cannot be tiled, or a buffer does not fit it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TextureError {
    /// A block of 0 pixels or 0 bytes.
    Format(Format),
    /// A size past `usize::MAX`.
    Overflow,
    /// The platform does not tile this surface: the reason.
    Unsupported { platform: Platform, reason: String },
    /// A buffer of the wrong length (in bytes).
    Length {
        side: &'static str,
        expected: usize,
        found: usize,
    },
    /// No such layer or mip.
    Level { layer: usize, mip: usize },
    /// The kernel refused a level (not expected: sizes are checked before).
    Kernel(KernelError),
    /// A picture of a level could not be drawn (too many blocks).
    Picture(PictureError),
}

impl fmt::Display for TextureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TextureError::Format(format) => write!(f, "format {format:?} has an empty block"),
            TextureError::Overflow => write!(f, "the surface's size overflows usize"),
            TextureError::Unsupported { platform, reason } => {
                write!(f, "{platform:?} does not tile this surface: {reason}")
            }
            TextureError::Length {
                side,
                expected,
                found,
            } => write!(f, "the {side} holds {found} bytes, the surface {expected}"),
            TextureError::Level { layer, mip } => {
                write!(f, "the surface has no layer {layer}, mip {mip}")
            }
            TextureError::Kernel(error) => write!(f, "{error}"),
            TextureError::Picture(error) => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for TextureError {}

impl From<KernelError> for TextureError {
    fn from(error: KernelError) -> Self {
        TextureError::Kernel(error)
    }
}

/// A texture surface: a platform's tiling of `layers` images of `mips` levels each, mip 0
/// `width × height × depth` pixels of `format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Surface {
    pub platform: Platform,
    pub width: usize,
    pub height: usize,
    pub depth: usize,
    pub layers: usize,
    pub mips: usize,
    pub format: Format,
}

/// One level of one layer: its size and where it lies on each side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Level {
    pub layer: usize,
    pub mip: usize,
    /// The level's size in pixels (at least 1 each).
    pub width: usize,
    pub height: usize,
    pub depth: usize,
    /// Its size in blocks: `[depth, rows, columns]`.
    pub blocks: [usize; 3],
    /// Its bytes in the linear buffer.
    pub linear: Range<usize>,
    /// Its bytes in the tiled buffer, padding included.
    pub swizzled: Range<usize>,
    tiling: Tiling,
}

/// How one level is tiled: which platform module copies it, with what parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tiling {
    /// Tegra GOBs stacked `block_height` high (2-D) or `block_depth` deep (3-D).
    Gobs { stack: usize, three_d: bool },
    /// 8×8 Morton tiles; texel bytes reversed for the 3DS.
    Morton { reversed: bool },
    /// Power-of-two Morton squares (the PS3).
    MortonSquares,
    /// 32 × 32 Xenos macro tiles.
    XenosMacro,
    /// 64 KB standard swizzle tiles.
    Standard64K,
    /// GX2 micro or macro tiles, row of tiles by row.
    Gx2(wiiu::LevelTiling),
}

/// Which way a copy goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Direction {
    Swizzle,
    Deswizzle,
}

impl Surface {
    /// One image, one level, of `width × height` pixels.
    pub fn new(platform: Platform, width: usize, height: usize, format: Format) -> Surface {
        Surface {
            platform,
            width,
            height,
            depth: 1,
            layers: 1,
            mips: 1,
            format,
        }
    }

    /// This surface with `depth` slices (a 3-D texture).
    pub fn depth(self, depth: usize) -> Surface {
        Surface { depth, ..self }
    }

    /// This surface with `layers` array layers (6 for a cube map).
    pub fn layers(self, layers: usize) -> Surface {
        Surface { layers, ..self }
    }

    /// This surface with `mips` mip levels.
    pub fn mips(self, mips: usize) -> Surface {
        Surface { mips, ..self }
    }

    /// Whether the surface holds no pixel (a zero size, layer count or mip count).
    pub fn is_empty(&self) -> bool {
        [self.width, self.height, self.depth, self.layers, self.mips].contains(&0)
    }

    /// Mip `mip`'s size in pixels and in blocks (`[depth, rows, columns]`): each halving,
    /// rounded down, at least 1; blocks rounded up.
    pub fn mip_size(&self, mip: usize) -> ([usize; 3], [usize; 3]) {
        let f = self.format;
        let half = |n: usize| n.checked_shr(mip as u32).unwrap_or(0).max(1);
        let pixels = [half(self.depth), half(self.height), half(self.width)];
        let blocks = [
            pixels[0].div_ceil(f.block_depth.max(1)),
            pixels[1].div_ceil(f.block_height.max(1)),
            pixels[2].div_ceil(f.block_width.max(1)),
        ];
        (pixels, blocks)
    }

    /// Bytes of the linear surface: every level tightly packed.
    pub fn linear_size(&self) -> Result<usize, TextureError> {
        self.walk(|_| Ok(())).map(|(linear, _)| linear)
    }

    /// Bytes of the tiled surface, padding and alignment included.
    pub fn swizzled_size(&self) -> Result<usize, TextureError> {
        self.walk(|_| Ok(())).map(|(_, swizzled)| swizzled)
    }

    /// Every level, layer by layer and mip by mip within a layer (the linear buffer's
    /// order; [`Level::swizzled`] says where each lies on the tiled side).
    pub fn levels(&self) -> Result<Vec<Level>, TextureError> {
        let mut levels = Vec::new();
        self.walk(|level| {
            levels.push(level.clone());
            Ok(())
        })?;
        Ok(levels)
    }

    /// Mip `mip` of layer `layer`.
    pub fn level(&self, layer: usize, mip: usize) -> Result<Level, TextureError> {
        let mut found = None;
        self.walk(|level| {
            if (level.layer, level.mip) == (layer, mip) {
                found = Some(level.clone());
            }
            Ok(())
        })?;
        found.ok_or(TextureError::Level { layer, mip })
    }

    /// Tiles the linear surface `src` ([`linear_size`](Self::linear_size) bytes) into `dst`
    /// ([`swizzled_size`](Self::swizzled_size) bytes). Padding bytes of `dst` are left as
    /// they were.
    pub fn swizzle(&self, src: &[u8], dst: &mut [u8]) -> Result<(), TextureError> {
        self.swizzle_with(Options::default(), src, dst)
    }

    /// [`swizzle`](Self::swizzle) with options (threads, SIMD level).
    pub fn swizzle_with(
        &self,
        options: Options,
        src: &[u8],
        dst: &mut [u8],
    ) -> Result<(), TextureError> {
        self.copy(options, Direction::Swizzle, src, dst)
    }

    /// The inverse of [`swizzle`](Self::swizzle): the tiled `src` into the linear `dst`.
    pub fn deswizzle(&self, src: &[u8], dst: &mut [u8]) -> Result<(), TextureError> {
        self.deswizzle_with(Options::default(), src, dst)
    }

    /// [`deswizzle`](Self::deswizzle) with options (threads, SIMD level).
    pub fn deswizzle_with(
        &self,
        options: Options,
        src: &[u8],
        dst: &mut [u8],
    ) -> Result<(), TextureError> {
        self.copy(options, Direction::Deswizzle, src, dst)
    }

    /// [`swizzle`](Self::swizzle) into a new zeroed buffer.
    pub fn swizzle_to_vec(&self, src: &[u8]) -> Result<Vec<u8>, TextureError> {
        self.swizzle_to_vec_with(Options::default(), src)
    }

    /// [`swizzle_to_vec`](Self::swizzle_to_vec) with options (threads, SIMD level). A large
    /// buffer is advised to use huge pages (Linux), which saves most of its first-touch
    /// page faults. The new buffer is written through the cache unless `options` say how
    /// ([`Stores::Cached`]: its zeroing just brought it there).
    pub fn swizzle_to_vec_with(
        &self,
        options: Options,
        src: &[u8],
    ) -> Result<Vec<u8>, TextureError> {
        self.copy_to_vec(options, Direction::Swizzle, src)
    }

    /// [`deswizzle`](Self::deswizzle) into a new buffer.
    pub fn deswizzle_to_vec(&self, src: &[u8]) -> Result<Vec<u8>, TextureError> {
        self.deswizzle_to_vec_with(Options::default(), src)
    }

    /// [`deswizzle_to_vec`](Self::deswizzle_to_vec) with options (threads, SIMD level), its
    /// buffer as [`swizzle_to_vec_with`](Self::swizzle_to_vec_with)'s.
    pub fn deswizzle_to_vec_with(
        &self,
        options: Options,
        src: &[u8],
    ) -> Result<Vec<u8>, TextureError> {
        self.copy_to_vec(options, Direction::Deswizzle, src)
    }

    /// [`copy`](Self::copy) into a new zeroed buffer of the destination's size, through the
    /// cache where `options` leave the choice to the runtime: the zeroing wrote the
    /// buffer's lines into the cache, and streaming stores over them would write each line
    /// to memory twice (on a 16-core Xeon host, one thread's allocating Switch deswizzles
    /// ran 13–17 % faster through the cache).
    fn copy_to_vec(
        &self,
        options: Options,
        direction: Direction,
        src: &[u8],
    ) -> Result<Vec<u8>, TextureError> {
        let mut dst = zeroed_output(match direction {
            Direction::Swizzle => self.swizzled_size()?,
            Direction::Deswizzle => self.linear_size()?,
        });
        let options = match options.stores {
            Stores::Auto => options.stores(Stores::Cached),
            _ => options,
        };
        self.copy(options, direction, src, &mut dst)?;
        Ok(dst)
    }

    fn copy(
        &self,
        options: Options,
        direction: Direction,
        src: &[u8],
        dst: &mut [u8],
    ) -> Result<(), TextureError> {
        let (linear, swizzled) = self.walk(|_| Ok(()))?;
        let (src_len, dst_len) = match direction {
            Direction::Swizzle => (linear, swizzled),
            Direction::Deswizzle => (swizzled, linear),
        };
        let check = |side, expected, found| match expected == found {
            true => Ok(()),
            false => Err(TextureError::Length {
                side,
                expected,
                found,
            }),
        };
        check("source", src_len, src.len())?;
        check("destination", dst_len, dst.len())?;
        self.walk(|level| {
            let (from, to) = match direction {
                Direction::Swizzle => (level.linear.clone(), level.swizzled.clone()),
                Direction::Deswizzle => (level.swizzled.clone(), level.linear.clone()),
            };
            self.copy_level(options, direction, level, &src[from], &mut dst[to])
        })?;
        Ok(())
    }

    /// Copies one level: `src` and `dst` are its bytes on either side.
    fn copy_level(
        &self,
        options: Options,
        direction: Direction,
        level: &Level,
        src: &[u8],
        dst: &mut [u8],
    ) -> Result<(), TextureError> {
        let bytes = self.format.bytes_per_block;
        match level.tiling {
            Tiling::Gobs { stack, three_d } => switch::copy_level(
                options,
                direction,
                level.blocks,
                bytes,
                stack,
                three_d,
                src,
                dst,
            ),
            Tiling::Morton { reversed } => {
                ps4::copy_level(options, direction, level.blocks, bytes, reversed, src, dst)
            }
            Tiling::MortonSquares => {
                ps3::copy_level(options, direction, level.blocks, bytes, src, dst)
            }
            Tiling::XenosMacro => {
                xbox360::copy_level(options, direction, level.blocks, bytes, src, dst)
            }
            Tiling::Standard64K => {
                d3d12::copy_level(options, direction, level.blocks, bytes, src, dst)
            }
            Tiling::Gx2(tiling) => {
                wiiu::copy_level(options, direction, level.blocks, bytes, tiling, src, dst)
            }
        }
    }

    /// Where each block of mip `mip` of layer `layer` starts among the level's tiled bytes
    /// (from the level's start), `[depth, rows, columns]` row-major, as cells for the
    /// pictures ([`picture::cells_map`](crate::picture::cells_map),
    /// [`picture::tile_svg`](crate::picture::tile_svg)). Computed by tiling the level with
    /// the surface's own kernels: once with each block's byte positions, then once per
    /// base-256 digit of each block's index, and reading them back where they landed.
    pub fn level_cells(&self, layer: usize, mip: usize) -> Result<Cells, TextureError> {
        let level = self.level(layer, mip)?;
        let bytes = self.format.bytes_per_block;
        if bytes >= u8::MAX as usize {
            return Err(unsupported(
                self.platform,
                "pictures of blocks past 254 bytes",
            ));
        }
        let blocks = level.blocks.iter().product::<usize>();
        let tile = |mark: &dyn Fn(usize, usize) -> u8| -> Result<Vec<u8>, TextureError> {
            let linear: Vec<u8> = (0..level.linear.len())
                .map(|i| mark(i / bytes, i % bytes))
                .collect();
            let mut tiled = vec![0; level.swizzled.len()];
            let one = Options::default().threads(1);
            self.copy_level(one, Direction::Swizzle, &level, &linear, &mut tiled)?;
            Ok(tiled)
        };
        // Byte j of every block marked j + 1: a block starts where a 1 landed.
        let starts = tile(&|_, byte| byte as u8 + 1)?;
        let mut index = vec![0usize; starts.len()];
        let mut shift = 0;
        while shift < usize::BITS && blocks.checked_shr(shift).unwrap_or(0) > 0 {
            let digits = tile(&|block, _| (block >> shift) as u8)?;
            for (index, digit) in index.iter_mut().zip(digits) {
                *index |= usize::from(digit) << shift;
            }
            shift += 8;
        }
        let mut offsets = vec![None; blocks];
        for (at, _) in starts.iter().enumerate().filter(|(_, mark)| **mark == 1) {
            offsets[index[at]] = Some(at);
        }
        let [depth, rows, columns] = level.blocks;
        let (names, shape): (&[&str], Vec<usize>) = match depth {
            1 => (&["y", "x"], vec![rows, columns]),
            _ => (&["z", "y", "x"], vec![depth, rows, columns]),
        };
        let row_major = |coord: &[usize]| coord.iter().zip(&shape).fold(0, |i, (c, n)| i * n + c);
        Cells::from_fn(names, &shape, |coord| offsets[row_major(coord)])
            .map_err(TextureError::Picture)
    }

    /// A text grid of mip `mip` of layer `layer`: each block's first tiled byte
    /// ([`level_cells`](Self::level_cells)), rows of blocks down, columns across.
    pub fn offset_map(&self, layer: usize, mip: usize) -> Result<String, TextureError> {
        Ok(crate::picture::cells_map(&self.level_cells(layer, mip)?))
    }

    /// An SVG picture of mip `mip` of layer `layer`: each block numbered with its first
    /// tiled byte and coloured by the `tile_bytes`-byte tile that holds it (512: the
    /// Switch's GOBs; 256: the Wii U's pipe groups).
    pub fn svg(&self, layer: usize, mip: usize, tile_bytes: usize) -> Result<String, TextureError> {
        let cells = self.level_cells(layer, mip)?;
        let [_, h, w] = self.level(layer, mip)?.blocks;
        let title = format!(
            "{:?}, layer {layer}, mip {mip}: {w} × {h} blocks of {} bytes",
            self.platform, self.format.bytes_per_block
        );
        Ok(crate::picture::tile_svg(&cells, &title, tile_bytes))
    }

    /// Visits every level in buffer order; returns the linear and tiled sizes.
    fn walk(
        &self,
        mut visit: impl FnMut(&Level) -> Result<(), TextureError>,
    ) -> Result<(usize, usize), TextureError> {
        let f = self.format;
        if [
            f.block_width,
            f.block_height,
            f.block_depth,
            f.bytes_per_block,
        ]
        .contains(&0)
        {
            return Err(TextureError::Format(f));
        }
        if self.is_empty() {
            return Ok((0, 0));
        }
        let rules = Rules::of(self)?;
        let bytes = f.bytes_per_block;
        let add = |a: usize, b: usize| a.checked_add(b).ok_or(TextureError::Overflow);
        let mul = |a: usize, b: usize| a.checked_mul(b).ok_or(TextureError::Overflow);
        // Where each mip's layers start on the tiled side, when the platform stores a mip's
        // layers together (GX2's slices): after the slots of the mips before.
        let mut mip_starts = Vec::new();
        if let Some(slots) = rules.mip_slots() {
            let mut start = 0;
            for mip in 0..self.mips {
                mip_starts.push(start);
                let (slot, _) = rules.level(0, mip, self.mip_size(mip).1, bytes)?;
                start = add(start, mul(slot, slots(mip))?)?;
            }
            mip_starts.push(start);
        }
        let (mut linear, mut swizzled) = (0usize, 0usize);
        for layer in 0..self.layers {
            for mip in 0..self.mips {
                let (pixels, blocks) = self.mip_size(mip);
                let linear_len = checked_product([bytes, blocks[0], blocks[1], blocks[2]])?;
                let (swizzled_len, tiling) = rules.level(layer, mip, blocks, bytes)?;
                let start = match mip_starts.get(mip) {
                    Some(&start) => add(start, mul(layer, swizzled_len)?)?,
                    None => swizzled,
                };
                let level = Level {
                    layer,
                    mip,
                    width: pixels[2],
                    height: pixels[1],
                    depth: pixels[0],
                    blocks,
                    linear: linear..add(linear, linear_len)?,
                    swizzled: start..add(start, swizzled_len)?,
                    tiling,
                };
                visit(&level)?;
                (linear, swizzled) = (level.linear.end, level.swizzled.end);
            }
            swizzled = swizzled
                .checked_next_multiple_of(rules.layer_alignment())
                .ok_or(TextureError::Overflow)?;
        }
        Ok((linear, mip_starts.last().copied().unwrap_or(swizzled)))
    }
}

/// A platform's rules for one surface: each mip's tiled size and tiling, and the alignment
/// of each layer's start.
#[derive(Clone, Copy, Debug)]
enum Rules {
    Switch(switch::Rules),
    Morton { reversed: bool },
    MortonSquares,
    XenosMacro,
    Standard64K,
    WiiU(wiiu::Rules),
}

impl Rules {
    fn of(surface: &Surface) -> Result<Rules, TextureError> {
        Ok(match surface.platform {
            Platform::Switch { block_height } => {
                Rules::Switch(switch::rules(surface, block_height)?)
            }
            Platform::N3ds => n3ds::check(surface).map(|()| Rules::Morton { reversed: true })?,
            Platform::Ps4 => ps4::check(surface).map(|()| Rules::Morton { reversed: false })?,
            Platform::Ps3 => ps3::check(surface).map(|()| Rules::MortonSquares)?,
            Platform::Xbox360 => xbox360::check(surface).map(|()| Rules::XenosMacro)?,
            Platform::D3d12 => d3d12::check(surface).map(|()| Rules::Standard64K)?,
            Platform::WiiU { tile_mode, swizzle } => {
                Rules::WiiU(wiiu::rules(surface, tile_mode, swizzle)?)
            }
        })
    }

    /// Mip `mip` of layer `layer`: its tiled size and tiling, for a level of `blocks`
    /// (`[depth, rows, columns]`) of `bytes`-byte blocks.
    fn level(
        &self,
        layer: usize,
        mip: usize,
        blocks: [usize; 3],
        bytes: usize,
    ) -> Result<(usize, Tiling), TextureError> {
        match self {
            Rules::Switch(rules) => rules.level(mip, blocks, bytes),
            Rules::Morton { reversed } => ps4::level_size(blocks, bytes).map(|size| {
                (
                    size,
                    Tiling::Morton {
                        reversed: *reversed,
                    },
                )
            }),
            Rules::MortonSquares => {
                ps3::level_size(blocks, bytes).map(|size| (size, Tiling::MortonSquares))
            }
            Rules::XenosMacro => {
                xbox360::level_size(blocks, bytes).map(|size| (size, Tiling::XenosMacro))
            }
            Rules::Standard64K => {
                d3d12::level_size(blocks, bytes).map(|size| (size, Tiling::Standard64K))
            }
            Rules::WiiU(rules) => rules.level(layer, mip, blocks, bytes),
        }
    }

    /// For platforms that store each mip's layers together (the Wii U): how many slots of
    /// one layer's size each mip takes. `None`: layers one after another, each with its mips.
    fn mip_slots(&self) -> Option<impl Fn(usize) -> usize + '_> {
        match self {
            Rules::WiiU(rules) => Some(|mip| rules.mip_slots(mip)),
            _ => None,
        }
    }

    fn layer_alignment(&self) -> usize {
        match self {
            Rules::Switch(rules) => rules.layer_alignment,
            _ => 1,
        }
    }
}

/// Copies a level of `depth` slices that lie one after the other on both sides, slice by
/// slice with `copy` (each slice's bytes on either side).
fn copy_slices(
    depth: usize,
    src: &[u8],
    dst: &mut [u8],
    mut copy: impl FnMut(&[u8], &mut [u8]) -> Result<(), TextureError>,
) -> Result<(), TextureError> {
    let (src_slice, dst_slice) = (src.len() / depth, dst.len() / depth);
    src.chunks_exact(src_slice)
        .zip(dst.chunks_exact_mut(dst_slice))
        .try_for_each(|(src, dst)| copy(src, dst))
}

/// Copies one level between its linear bytes and a tiled frame, with the kernel pair of a
/// layout over elements of `E` (`kernels[0]` tiles, `kernels[1]` untiles).
fn copy_tiles<E: Element>(
    options: Options,
    kernels: [(&Plan, GeneratedCode<E>); 2],
    direction: Direction,
    extents: &[usize],
    tiled: Frame,
    src: &[u8],
    dst: &mut [u8],
) -> Result<(), TextureError> {
    let frames = [Frame::RowMajor, tiled];
    copy_tiles_framed(options, kernels, direction, extents, frames, src, dst)
}

/// [`copy_tiles`] between any two frames: `[linear, tiled]` (a part of a level: a view of
/// its linear bytes, and the tiles of that part).
fn copy_tiles_framed<E: Element>(
    options: Options,
    kernels: [(&Plan, GeneratedCode<E>); 2],
    direction: Direction,
    extents: &[usize],
    frames: [Frame; 2],
    src: &[u8],
    dst: &mut [u8],
) -> Result<(), TextureError> {
    let len = dst.len() / size_of::<E>();
    prepare_tiles(options, kernels, direction, extents, frames, len)?.run(src, dst)
}

/// [`copy_tiles_framed`] made ready once (the kernel's plan checked, its grid and network
/// laid out), to run on many parts of a level of the same shape; its destinations hold
/// `destination_len` texels together.
fn prepare_tiles<'p, E: Element>(
    options: Options,
    kernels: [(&'p Plan, GeneratedCode<E>); 2],
    direction: Direction,
    extents: &[usize],
    [linear, tiled]: [Frame; 2],
    destination_len: usize,
) -> Result<PreparedTiles<'p, E>, TextureError> {
    let linear = Side {
        extents,
        frame: linear,
    };
    let tiled = Side {
        extents,
        frame: tiled,
    };
    let ((plan, code), from, to) = match direction {
        Direction::Swizzle => (kernels[0], linear, tiled),
        Direction::Deswizzle => (kernels[1], tiled, linear),
    };
    PreparedCopy::new(options, plan, code, from, to, destination_len)
        .map(PreparedTiles)
        .map_err(kernel_error::<E>)
}

/// A copy between a part of a level's linear bytes and its tiles, ready to run on bytes.
struct PreparedTiles<'p, E>(PreparedCopy<'p, E>);

impl<E: Element> PreparedTiles<'_, E> {
    fn run(&self, src: &[u8], dst: &mut [u8]) -> Result<(), TextureError> {
        let (src, dst) = (bytemuck::cast_slice(src), bytemuck::cast_slice_mut(dst));
        self.0.run(src, dst).map_err(kernel_error::<E>)
    }
}

/// A kernel's error over texels of `E`, in bytes.
fn kernel_error<E>(error: KernelError) -> TextureError {
    TextureError::Kernel(error.in_bytes(size_of::<E>()))
}

/// The product of `factors` (a level's size: its bytes per block times its padded
/// extents), or [`TextureError::Overflow`].
fn checked_product(factors: impl IntoIterator<Item = usize>) -> Result<usize, TextureError> {
    factors
        .into_iter()
        .try_fold(1usize, |acc, n| acc.checked_mul(n))
        .ok_or(TextureError::Overflow)
}

/// The error for a surface a platform does not tile.
fn unsupported(platform: Platform, reason: impl Into<String>) -> TextureError {
    TextureError::Unsupported {
        platform,
        reason: reason.into(),
    }
}
