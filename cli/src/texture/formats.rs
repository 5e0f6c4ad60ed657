//! Formats as the command line shows them: names, block geometry, DXGI numbers, and the
//! list in `--format`'s help.

use swizzle::texture::Format;

/// The geometry of a format's blocks: (width, height, depth) in pixels, and bytes.
pub struct Geometry {
    pub width: usize,
    pub height: usize,
    pub depth: usize,
    pub bytes: usize,
}

/// A format's name, as `--format` takes it.
pub fn name(format: Format) -> String {
    Format::NAMES
        .iter()
        .find(|(_, named)| *named == format)
        .map_or_else(
            || {
                let g = geometry(format);
                format!("{}x{}:{}", g.width, g.height, g.bytes)
            },
            |(name, _)| (*name).to_owned(),
        )
}

pub fn geometry(format: Format) -> Geometry {
    Geometry {
        width: format.block_width,
        height: format.block_height,
        depth: format.block_depth,
        bytes: format.bytes_per_block,
    }
}

/// The DXGI format (DDS) of `format`.
pub fn dxgi(_format: Format) -> Option<u32> {
    None
}

/// Every named format.
pub fn all() -> Vec<Format> {
    Format::NAMES.iter().map(|(_, format)| *format).collect()
}

/// `--format`'s help: every name.
pub fn help() -> String {
    let names: Vec<String> = all().into_iter().map(name).collect();
    format!(
        "The texel format: {}; or a custom block geometry WxH:BYTES (`swizzle texture list` \
         gives each format's blocks and DXGI number).",
        names.join(", ")
    )
}

/// The containers that hold `format`: DDS where it has a DXGI number, PNG where it is 8-bit
/// uncompressed, raw always.
pub fn containers(format: Format) -> String {
    let dds = dxgi(format).is_some().then_some("dds");
    let png = None::<&str>;
    [dds, png, Some("raw")]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The named format of DXGI format `dxgi`.
pub fn from_dxgi(dxgi: u32) -> Option<Format> {
    all()
        .into_iter()
        .find(|format| self::dxgi(*format) == Some(dxgi))
}

/// The formats whose texels are a PNG's RGBA pixels besides `rgba8`.
pub fn rgba_kin() -> Vec<Format> {
    Vec::new()
}

/// How `format`'s texels are a PNG's pixels, if they are 8-bit uncompressed.
pub fn png_pixels(format: Format) -> Option<super::png::Pixels> {
    use super::png::Pixels;
    match (
        format.block_width,
        format.block_height,
        format.bytes_per_block,
    ) {
        (1, 1, 1) => Some(Pixels::Gray),
        (1, 1, 2) => Some(Pixels::GrayAlpha),
        (1, 1, 3) => Some(Pixels::Rgb),
        (1, 1, 4) => Some(Pixels::Rgba),
        _ => None,
    }
}

/// Whether `format` is in sRGB.
pub fn is_srgb(_format: Format) -> bool {
    false
}
