//! Colours of the SVG: one hue per bank or lane, greys for cells that carry neither.

/// Fill of a cell in padding.
pub const PADDING: &str = "#9e9e9e";
/// Fill of a cell no lane touches.
pub const UNTOUCHED: &str = "#e0e0e0";
/// Numbers and labels.
pub const INK: &str = "#202020";

/// The fill of class `index` out of `count` (bank or lane). Hues run from red to magenta in
/// index order, so that a regular layout shows as a regular gradient (the circle is not
/// closed, so the last class does not look like the first); odd classes are lighter, so
/// that neighbours still tell apart. Light enough for dark numbers to read on.
pub fn class(index: usize, count: usize) -> String {
    let hue = 300.0 * index as f64 / count.saturating_sub(1).max(1) as f64;
    let lightness = if index.is_multiple_of(2) { 0.62 } else { 0.78 };
    let (r, g, b) = hsl_to_rgb(hue, 0.7, lightness);
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// HSL (hue in degrees, saturation and lightness in 0..=1) to 8-bit RGB.
fn hsl_to_rgb(hue: f64, saturation: f64, lightness: f64) -> (u8, u8, u8) {
    let chroma = (1.0 - (2.0 * lightness - 1.0).abs()) * saturation;
    let sector = hue / 60.0;
    let x = chroma * (1.0 - (sector % 2.0 - 1.0).abs());
    let (r, g, b) = match sector as u32 {
        0 => (chroma, x, 0.0),
        1 => (x, chroma, 0.0),
        2 => (0.0, chroma, x),
        3 => (0.0, x, chroma),
        4 => (x, 0.0, chroma),
        _ => (chroma, 0.0, x),
    };
    let base = lightness - chroma / 2.0;
    let byte = |v: f64| ((v + base) * 255.0).round().clamp(0.0, 255.0) as u8;
    (byte(r), byte(g), byte(b))
}
