//! What a surface's texels are: a named format (RGBA8 in sRGB, BC7, ASTC 8×8, the 3DS's
//! ETC1, …) with its block geometry and its DXGI format, or a custom block geometry.

use std::fmt;

/// The geometry of a format's blocks: `width × height × depth` pixels stored in `bytes`
/// bytes (1×1×1 for plain pixels; 4×4×1 for BC and ETC; ASTC's footprints).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Block {
    pub width: usize,
    pub height: usize,
    pub depth: usize,
    pub bytes: usize,
}

impl Block {
    /// Plain pixels of `bytes` bytes.
    pub const fn pixels(bytes: usize) -> Block {
        Block::of(1, 1, bytes)
    }

    /// Compressed blocks of `width × height` pixels and `bytes` bytes.
    pub const fn of(width: usize, height: usize, bytes: usize) -> Block {
        Block {
            width,
            height,
            depth: 1,
            bytes,
        }
    }

    /// Whether a side or the size is 0 (no surface can be made of such blocks).
    pub const fn is_empty(&self) -> bool {
        self.width == 0 || self.height == 0 || self.depth == 0 || self.bytes == 0
    }
}

/// What a surface's texels are. Named formats carry their identity (channels, encoding,
/// colour space): the DDS and PNG containers need it, and a tool that reads a file back
/// must know what it wrote. [`Format::Custom`] keeps any other block geometry possible;
/// the tiling depends on the geometry alone ([`Format::block`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Format {
    /// One 8-bit channel.
    R8Unorm,
    /// Two 8-bit channels.
    Rg8Unorm,
    /// Three 8-bit channels (the 3DS has them; DDS has no such DXGI format).
    Rgb8Unorm,
    /// Four 8-bit channels, red first.
    Rgba8Unorm,
    /// [`Format::Rgba8Unorm`] in sRGB.
    Rgba8UnormSrgb,
    /// Four 8-bit channels, blue first.
    Bgra8Unorm,
    /// [`Format::Bgra8Unorm`] in sRGB.
    Bgra8UnormSrgb,
    /// Four 16-bit floats.
    Rgba16Float,
    /// Four 32-bit floats.
    Rgba32Float,
    Bc1Unorm,
    Bc1UnormSrgb,
    Bc2Unorm,
    Bc2UnormSrgb,
    Bc3Unorm,
    Bc3UnormSrgb,
    Bc4Unorm,
    Bc4Snorm,
    Bc5Unorm,
    Bc5Snorm,
    /// BC6H, unsigned half floats.
    Bc6hUfloat,
    /// BC6H, signed half floats.
    Bc6hSfloat,
    Bc7Unorm,
    Bc7UnormSrgb,
    /// ETC1 (RGB, 4×4 blocks of 8 bytes), as the 3DS stores it: the linear side holds
    /// standard (big-endian) blocks, as KTX files do; the 3DS's tiles hold each block's
    /// 64-bit word little-endian ([`Platform::N3ds`](crate::Platform::N3ds)).
    Etc1,
    /// The 3DS's ETC1 with 4-bit alpha: 16 bytes a 4×4 block, 8 bytes of alpha (as the
    /// 3DS stores them) then an ETC1 block.
    Etc1A4,
    /// ASTC, LDR, with blocks of `width × height` pixels (16 bytes each): one of the 14
    /// footprints of the standard, from 4×4 to 12×12.
    Astc {
        width: u8,
        height: u8,
        srgb: bool,
    },
    /// Blocks of any other geometry, named by it alone.
    Custom(Block),
}

/// ASTC's 2-D block footprints (width, height), as DXGI numbers them.
const ASTC_FOOTPRINTS: [(u8, u8); 14] = [
    (4, 4),
    (5, 4),
    (5, 5),
    (6, 5),
    (6, 6),
    (8, 5),
    (8, 6),
    (8, 8),
    (10, 5),
    (10, 6),
    (10, 8),
    (10, 10),
    (12, 10),
    (12, 12),
];

/// DXGI's number of `DXGI_FORMAT_ASTC_4X4_UNORM`; each footprint after it is 4 further
/// (typeless, UNORM, sRGB, and a gap).
const DXGI_ASTC_4X4_UNORM: u32 = 134;

/// The named formats with their command-line names and DXGI formats (`None`: DDS has no
/// DXGI format for it). ASTC's are generated from [`ASTC_FOOTPRINTS`].
const NAMED: [(Format, &str, Option<u32>); 25] = [
    (Format::R8Unorm, "r8", Some(61)),
    (Format::Rg8Unorm, "rg8", Some(49)),
    (Format::Rgb8Unorm, "rgb8", None),
    (Format::Rgba8Unorm, "rgba8", Some(28)),
    (Format::Rgba8UnormSrgb, "rgba8-srgb", Some(29)),
    (Format::Bgra8Unorm, "bgra8", Some(87)),
    (Format::Bgra8UnormSrgb, "bgra8-srgb", Some(91)),
    (Format::Rgba16Float, "rgba16f", Some(10)),
    (Format::Rgba32Float, "rgba32f", Some(2)),
    (Format::Bc1Unorm, "bc1", Some(71)),
    (Format::Bc1UnormSrgb, "bc1-srgb", Some(72)),
    (Format::Bc2Unorm, "bc2", Some(74)),
    (Format::Bc2UnormSrgb, "bc2-srgb", Some(75)),
    (Format::Bc3Unorm, "bc3", Some(77)),
    (Format::Bc3UnormSrgb, "bc3-srgb", Some(78)),
    (Format::Bc4Unorm, "bc4", Some(80)),
    (Format::Bc4Snorm, "bc4-snorm", Some(81)),
    (Format::Bc5Unorm, "bc5", Some(83)),
    (Format::Bc5Snorm, "bc5-snorm", Some(84)),
    (Format::Bc6hUfloat, "bc6h-uf16", Some(95)),
    (Format::Bc6hSfloat, "bc6h-sf16", Some(96)),
    (Format::Bc7Unorm, "bc7", Some(98)),
    (Format::Bc7UnormSrgb, "bc7-srgb", Some(99)),
    (Format::Etc1, "etc1", None),
    (Format::Etc1A4, "etc1a4", None),
];

impl Format {
    /// Plain pixels of `bytes` bytes, of no named format.
    pub const fn pixels(bytes: usize) -> Format {
        Format::Custom(Block::pixels(bytes))
    }

    /// Compressed blocks of `width × height` pixels and `bytes` bytes, of no named format.
    pub const fn blocks(width: usize, height: usize, bytes: usize) -> Format {
        Format::Custom(Block::of(width, height, bytes))
    }

    /// ASTC (UNORM) with blocks of `width × height` pixels; surfaces refuse footprints
    /// the standard does not have.
    pub const fn astc(width: u8, height: u8) -> Format {
        Format::Astc {
            width,
            height,
            srgb: false,
        }
    }

    /// The block geometry, which is all the tiling reads.
    pub const fn block(&self) -> Block {
        match *self {
            Format::R8Unorm => Block::pixels(1),
            Format::Rg8Unorm => Block::pixels(2),
            Format::Rgb8Unorm => Block::pixels(3),
            Format::Rgba8Unorm
            | Format::Rgba8UnormSrgb
            | Format::Bgra8Unorm
            | Format::Bgra8UnormSrgb => Block::pixels(4),
            Format::Rgba16Float => Block::pixels(8),
            Format::Rgba32Float => Block::pixels(16),
            Format::Bc1Unorm
            | Format::Bc1UnormSrgb
            | Format::Bc4Unorm
            | Format::Bc4Snorm
            | Format::Etc1 => Block::of(4, 4, 8),
            Format::Bc2Unorm
            | Format::Bc2UnormSrgb
            | Format::Bc3Unorm
            | Format::Bc3UnormSrgb
            | Format::Bc5Unorm
            | Format::Bc5Snorm
            | Format::Bc6hUfloat
            | Format::Bc6hSfloat
            | Format::Bc7Unorm
            | Format::Bc7UnormSrgb
            | Format::Etc1A4 => Block::of(4, 4, 16),
            Format::Astc { width, height, .. } => Block::of(width as usize, height as usize, 16),
            Format::Custom(block) => block,
        }
    }

    /// Bytes per block (per pixel for uncompressed formats).
    pub const fn bytes_per_block(&self) -> usize {
        self.block().bytes
    }

    /// Whether this format is the 3DS's ETC1 or ETC1A4, whose tiling is the 3DS's own.
    pub const fn is_etc1(&self) -> bool {
        matches!(self, Format::Etc1 | Format::Etc1A4)
    }

    /// Why this format cannot make a surface: an empty block, or an ASTC footprint the
    /// standard does not have.
    pub(crate) fn defect(&self) -> Option<&'static str> {
        match *self {
            Format::Astc { width, height, .. } if !ASTC_FOOTPRINTS.contains(&(width, height)) => {
                Some(
                    "no such ASTC footprint (4x4, 5x4, 5x5, 6x5, 6x6, 8x5, 8x6, 8x8, 10x5, 10x6, 10x8, 10x10, 12x10, 12x12)",
                )
            }
            _ if self.block().is_empty() => Some("a block of 0 pixels or 0 bytes"),
            _ => None,
        }
    }

    /// The DXGI format (`DXGI_FORMAT`'s number) that DDS files name this format by, or
    /// `None` where DXGI has none (RGB8, ETC1, custom blocks).
    pub fn dxgi(&self) -> Option<u32> {
        match *self {
            Format::Astc {
                width,
                height,
                srgb,
            } => {
                let index = ASTC_FOOTPRINTS.iter().position(|&f| f == (width, height))?;
                Some(DXGI_ASTC_4X4_UNORM + 4 * index as u32 + u32::from(srgb))
            }
            _ => NAMED.iter().find(|(f, ..)| f == self)?.2,
        }
    }

    /// The named format of DXGI format `dxgi`, if this library knows it.
    pub fn from_dxgi(dxgi: u32) -> Option<Format> {
        Format::all().find(|format| format.dxgi() == Some(dxgi))
    }

    /// Every named format: the uncompressed, BC, ETC and ASTC formats (UNORM, then sRGB).
    pub fn all() -> impl Iterator<Item = Format> {
        let astc = [false, true].into_iter().flat_map(|srgb| {
            ASTC_FOOTPRINTS
                .into_iter()
                .map(move |(width, height)| Format::Astc {
                    width,
                    height,
                    srgb,
                })
        });
        NAMED.into_iter().map(|(format, ..)| format).chain(astc)
    }

    /// A format by its name ([`Format`]'s `Display`: `rgba8`, `rgba8-srgb`, `bc7`,
    /// `bc6h-uf16`, `etc1`, `astc8x8`, `astc8x8-srgb`, …; any case), or a custom geometry
    /// `WxH:BYTES` (`4x4:16`, `1x1:3`) or `WxHxD:BYTES`.
    pub fn parse(name: &str) -> Option<Format> {
        let name = name.to_ascii_lowercase();
        if let Some(format) = Format::all().find(|format| format.to_string() == name) {
            return Some(format);
        }
        let (geometry, bytes) = name.split_once(':')?;
        let sides: Vec<usize> = geometry
            .split('x')
            .map(|side| side.parse().ok())
            .collect::<Option<_>>()?;
        let (width, height, depth) = match sides[..] {
            [width, height] => (width, height, 1),
            [width, height, depth] => (width, height, depth),
            _ => return None,
        };
        let block = Block {
            width,
            height,
            depth,
            bytes: bytes.parse().ok()?,
        };
        (!block.is_empty()).then_some(Format::Custom(block))
    }

    #[deprecated(since = "0.2.0", note = "use `Format::R8Unorm`")]
    pub const R8: Format = Format::R8Unorm;
    #[deprecated(since = "0.2.0", note = "use `Format::Rg8Unorm`")]
    pub const RG8: Format = Format::Rg8Unorm;
    #[deprecated(since = "0.2.0", note = "use `Format::Rgb8Unorm`")]
    pub const RGB8: Format = Format::Rgb8Unorm;
    #[deprecated(
        since = "0.2.0",
        note = "use `Format::Rgba8Unorm` (or its sRGB or BGRA kin)"
    )]
    pub const RGBA8: Format = Format::Rgba8Unorm;
    #[deprecated(
        since = "0.2.0",
        note = "name the texels: `Format::Rgba16Float`, or `Format::pixels(8)`"
    )]
    pub const RGBA16: Format = Format::pixels(8);
    #[deprecated(
        since = "0.2.0",
        note = "name the texels: `Format::Rgba32Float`, or `Format::pixels(16)`"
    )]
    pub const RGBA32: Format = Format::pixels(16);
    #[deprecated(
        since = "0.2.0",
        note = "use `Format::Bc1Unorm` or `Format::Bc1UnormSrgb`"
    )]
    pub const BC1: Format = Format::Bc1Unorm;
    #[deprecated(
        since = "0.2.0",
        note = "use `Format::Bc2Unorm` or `Format::Bc2UnormSrgb`"
    )]
    pub const BC2: Format = Format::Bc2Unorm;
    #[deprecated(
        since = "0.2.0",
        note = "use `Format::Bc3Unorm` or `Format::Bc3UnormSrgb`"
    )]
    pub const BC3: Format = Format::Bc3Unorm;
    #[deprecated(since = "0.2.0", note = "use `Format::Bc4Unorm` or `Format::Bc4Snorm`")]
    pub const BC4: Format = Format::Bc4Unorm;
    #[deprecated(since = "0.2.0", note = "use `Format::Bc5Unorm` or `Format::Bc5Snorm`")]
    pub const BC5: Format = Format::Bc5Unorm;
    #[deprecated(
        since = "0.2.0",
        note = "use `Format::Bc6hUfloat` or `Format::Bc6hSfloat`"
    )]
    pub const BC6H: Format = Format::Bc6hUfloat;
    #[deprecated(
        since = "0.2.0",
        note = "use `Format::Bc7Unorm` or `Format::Bc7UnormSrgb`"
    )]
    pub const BC7: Format = Format::Bc7Unorm;
}

impl fmt::Display for Format {
    /// The format's name, as [`Format::parse`] reads it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Format::Astc {
                width,
                height,
                srgb,
            } => {
                let srgb = if srgb { "-srgb" } else { "" };
                write!(f, "astc{width}x{height}{srgb}")
            }
            Format::Custom(Block {
                width,
                height,
                depth,
                bytes,
            }) => {
                write!(f, "{width}x{height}")?;
                if depth != 1 {
                    write!(f, "x{depth}")?;
                }
                write!(f, ":{bytes}")
            }
            format => {
                let (_, name, _) = NAMED
                    .iter()
                    .find(|(named, ..)| *named == format)
                    .expect("every other format is named");
                f.write_str(name)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_back_and_are_unique() {
        let formats: Vec<Format> = Format::all().collect();
        for format in &formats {
            assert_eq!(
                Format::parse(&format.to_string()),
                Some(*format),
                "{format}"
            );
            assert_eq!(format.defect(), None, "{format}");
        }
        let mut names: Vec<String> = formats.iter().map(Format::to_string).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), formats.len(), "two formats share a name");
    }

    #[test]
    fn dxgi_numbers_are_unique_and_round_trip() {
        let mut numbers = Vec::new();
        for format in Format::all() {
            if let Some(dxgi) = format.dxgi() {
                assert_eq!(Format::from_dxgi(dxgi), Some(format));
                numbers.push(dxgi);
            }
        }
        let count = numbers.len();
        numbers.sort_unstable();
        numbers.dedup();
        assert_eq!(numbers.len(), count);
        // DXGI's own numbers, from dxgiformat.h.
        assert_eq!(Format::Bc7UnormSrgb.dxgi(), Some(99));
        assert_eq!(Format::astc(8, 8).dxgi(), Some(162));
        assert_eq!(
            Format::Astc {
                width: 12,
                height: 12,
                srgb: true
            }
            .dxgi(),
            Some(187)
        );
    }

    #[test]
    fn custom_geometries_parse() {
        assert_eq!(Format::parse("4x4:16"), Some(Format::blocks(4, 4, 16)));
        assert_eq!(
            Format::parse("1x1x2:4").map(|f| f.block()),
            Some(Block {
                width: 1,
                height: 1,
                depth: 2,
                bytes: 4
            })
        );
        for bad in [
            "4x4:0", "0x4:8", "4:8", "4x4", "bc6h", "bgra", "astc7x7", "",
        ] {
            assert_eq!(Format::parse(bad), None, "{bad}");
        }
        assert!(Format::astc(7, 7).defect().is_some());
    }
}
