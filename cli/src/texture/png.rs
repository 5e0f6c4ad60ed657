//! PNG files through the `png` crate: one level of one layer of an 8-bit uncompressed
//! format: r8 as grayscale, rg8 as grayscale and alpha, rgb8 as RGB, rgba8 (and sRGB) as
//! RGBA, bgra8 (and sRGB) as RGBA with red and blue swapped on the way.
//!
//! A PNG is read whole into memory (it is compressed; its decoder needs to seek), at most
//! as many bytes as its header's image can take, and its image is decoded only when its
//! compressed data could hold it: a small file that declares a huge image is an error
//! before the image's buffer is allocated.

use super::surface::{Declared, Header};
use crate::Failure;
use crate::files::Input;
use png::{BitDepth, ColorType, Transformations};
use std::io::{self, Cursor, Write};
use swizzle::texture::{Format, Level};

/// The PNG signature and the IHDR chunk: what is read before the rest of the file.
const SIGNATURE_AND_IHDR: usize = 8 + 8 + 13 + 4;
/// Deflate's best ratio is about 1032 to 1: compressed data cannot hold more.
const DEFLATE_RATIO: u64 = 1032;
/// Room for a PNG's other chunks (palette, ICC profile, text) beyond its image data.
const CHUNK_ROOM: u64 = 1 << 20;

/// How a format's texels are a PNG's pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pixels {
    Gray,
    GrayAlpha,
    Rgb,
    Rgba,
    /// RGBA with red and blue swapped.
    Bgra,
}

impl Pixels {
    fn color(self) -> ColorType {
        match self {
            Pixels::Gray => ColorType::Grayscale,
            Pixels::GrayAlpha => ColorType::GrayscaleAlpha,
            Pixels::Rgb => ColorType::Rgb,
            Pixels::Rgba | Pixels::Bgra => ColorType::Rgba,
        }
    }
}

/// A read PNG: what its header says, and its pixels (8 bits a channel, RGBA order).
pub struct Png {
    pub header: Header,
    pixels: Vec<u8>,
}

/// Reads the PNG `input` (its surface: one level, one layer).
pub fn read(input: &mut Input) -> Result<Png, Failure> {
    let mut start = vec![0; SIGNATURE_AND_IHDR];
    input.read_header(&mut start, "PNG header")?;
    let declared = image_bytes(&start).ok_or_else(|| {
        Failure::Input(format!(
            "{} is not a PNG file: it does not start with a PNG signature and header",
            input.name()
        ))
    })?;
    let limit = declared
        .saturating_add(declared / 8)
        .saturating_add(CHUNK_ROOM);
    let rest = input.read_up_to(limit, "a PNG of its declared size takes")?;
    start.extend_from_slice(&rest);
    decode(start, input.name())
}

/// The bytes of the image an IHDR chunk declares (at most 16 bits × 4 channels a pixel),
/// or `None` where `start` is no PNG signature and IHDR.
fn image_bytes(start: &[u8]) -> Option<u64> {
    const SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a];
    if start[..8] != SIGNATURE || &start[12..16] != b"IHDR" {
        return None;
    }
    let word = |at: usize| {
        let bytes: [u8; 4] = start[at..at + 4].try_into().expect("four bytes");
        u64::from(u32::from_be_bytes(bytes))
    };
    Some(word(16).saturating_mul(word(20)).saturating_mul(8))
}

fn decode(file: Vec<u8>, name: &str) -> Result<Png, Failure> {
    let fail =
        |e: png::DecodingError| Failure::Input(format!("{name} does not decode as a PNG: {e}"));
    let compressed = file.len() as u64;
    let mut decoder = png::Decoder::new(Cursor::new(file));
    // Palettes become RGB(A), gray of 1 to 4 bits 8 bits, transparency an alpha channel.
    decoder.set_transformations(Transformations::EXPAND);
    let mut reader = decoder.read_info().map_err(fail)?;
    let info = reader.info();
    let (width, height) = (info.width as usize, info.height as usize);
    let (color, depth) = reader.output_color_type();
    if depth != BitDepth::Eight {
        return Err(Failure::Input(format!(
            "{name} has {depth:?}-bit channels: this tool reads 8-bit PNGs (r8, rg8, rgb8, rgba8)"
        )));
    }
    let size = reader
        .output_buffer_size()
        .ok_or_else(|| Failure::Input(format!("{name}'s image is larger than memory")))?;
    if size as u64 > compressed.saturating_mul(DEFLATE_RATIO) {
        return Err(Failure::Input(format!(
            "{name} declares a {width}×{height} image of {size} bytes, more than its {compressed} \
             bytes can hold compressed"
        )));
    }
    let mut pixels = vec![0; size];
    let frame = reader.next_frame(&mut pixels).map_err(fail)?;
    pixels.truncate(frame.buffer_size());
    let (format, also) = formats_of(color);
    Ok(Png {
        header: Header {
            origin: format!("{name} (a PNG holds one level of one layer)"),
            width,
            height,
            depth: 1,
            layers: 1,
            cube: false,
            mips: 1,
            format,
            also,
        },
        pixels,
    })
}

/// The format of a PNG's pixels of `color`, and the others they can be read as.
fn formats_of(color: ColorType) -> (Format, Vec<Format>) {
    match color {
        ColorType::Grayscale => (Format::R8Unorm, Vec::new()),
        ColorType::GrayscaleAlpha => (Format::Rg8Unorm, Vec::new()),
        ColorType::Rgb | ColorType::Indexed => (Format::Rgb8Unorm, Vec::new()),
        ColorType::Rgba => (
            Format::Rgba8Unorm,
            vec![
                Format::Rgba8UnormSrgb,
                Format::Bgra8Unorm,
                Format::Bgra8UnormSrgb,
            ],
        ),
    }
}

impl Png {
    /// The linear surface's bytes: the pixels as `declared`'s format stores them.
    pub fn into_linear(self, declared: &Declared) -> Vec<u8> {
        let mut pixels = self.pixels;
        if pixels_of(declared.surface.format) == Some(Pixels::Bgra) {
            swap_red_and_blue(&mut pixels);
        }
        pixels
    }
}

/// Why the level `level` of the surface cannot be a PNG, if it cannot.
pub fn check_level(declared: &Declared, level: &Level) -> Result<Pixels, Failure> {
    let format = declared.surface.format;
    let pixels = pixels_of(format).ok_or_else(|| {
        Failure::Input(format!(
            "a PNG holds 8-bit uncompressed pixels (r8, rg8, rgb8, rgba8, bgra8 and their sRGB \
             kin), not {format}: use a DDS or raw file"
        ))
    })?;
    if level.depth > 1 {
        return Err(Failure::Input(format!(
            "layer {} mip {} is {}×{}×{}: a PNG holds one 2-D image (use a DDS for 3-D textures)",
            level.layer, level.mip, level.width, level.height, level.depth
        )));
    }
    u32::try_from(level.width.max(level.height))
        .map_err(|_| Failure::Input("a PNG's sides are 32-bit".to_owned()))?;
    Ok(pixels)
}

/// Writes `texels` (the level's linear bytes) as a PNG of `pixels`.
pub fn write(
    level: &Level,
    pixels: Pixels,
    srgb: bool,
    texels: &[u8],
    out: &mut dyn Write,
) -> io::Result<()> {
    let mut encoder = png::Encoder::new(out, level.width as u32, level.height as u32);
    encoder.set_color(pixels.color());
    encoder.set_depth(BitDepth::Eight);
    if srgb {
        encoder.set_source_srgb(png::SrgbRenderingIntent::Perceptual);
    }
    let mut writer = encoder.write_header().map_err(io::Error::other)?;
    match pixels {
        Pixels::Bgra => {
            let mut swapped = texels.to_vec();
            swap_red_and_blue(&mut swapped);
            writer.write_image_data(&swapped)
        }
        _ => writer.write_image_data(texels),
    }
    .map_err(io::Error::other)?;
    writer.finish().map_err(io::Error::other)
}

/// The PNG pixels of `format`'s texels, if it is an 8-bit uncompressed format.
pub fn pixels_of(format: Format) -> Option<Pixels> {
    match format {
        Format::R8Unorm => Some(Pixels::Gray),
        Format::Rg8Unorm => Some(Pixels::GrayAlpha),
        Format::Rgb8Unorm => Some(Pixels::Rgb),
        Format::Rgba8Unorm | Format::Rgba8UnormSrgb => Some(Pixels::Rgba),
        Format::Bgra8Unorm | Format::Bgra8UnormSrgb => Some(Pixels::Bgra),
        _ => None,
    }
}

/// Whether a PNG of `format` says its colours are sRGB (an `sRGB` chunk).
pub fn is_srgb(format: Format) -> bool {
    matches!(format, Format::Rgba8UnormSrgb | Format::Bgra8UnormSrgb)
}

/// RGBA ↔ BGRA.
fn swap_red_and_blue(pixels: &mut [u8]) {
    for pixel in pixels.chunks_exact_mut(4) {
        pixel.swap(0, 2);
    }
}
