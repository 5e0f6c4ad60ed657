//! Formats as the command line shows them: the list in `--format`'s help, and the
//! containers each fits.

use swizzle::texture::Format;

/// `--format`'s help: every name.
pub fn help() -> String {
    let names: Vec<String> = Format::all().map(|format| format.to_string()).collect();
    format!(
        "The texel format: {}; or a custom block geometry WxH:BYTES (`swizzle texture list` \
         gives each format's blocks and DXGI number)",
        names.join(", ")
    )
}

/// The containers that hold `format`: DDS where it has a DXGI number, PNG where it is 8-bit
/// uncompressed, raw always.
pub fn containers(format: Format) -> String {
    let dds = format.dxgi().is_some().then_some("dds");
    let png = super::png::pixels_of(format).is_some().then_some("png");
    [dds, png, Some("raw")]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" ")
}
