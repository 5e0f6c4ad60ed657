//! `texture list`: the platforms, and every named format with its block geometry, DXGI
//! number and the containers that hold it.

use super::formats;
use std::fmt::Write;
use swizzle::texture::{Format, Platform};

/// The platforms and what their tiling is.
const PLATFORMS: [(&str, &str); 7] = [
    (
        "switch",
        "Nintendo Switch, Tegra X1 block linear (--block-height)",
    ),
    ("3ds", "Nintendo 3DS, PICA200 8×8 Morton tiles"),
    ("ps3", "PlayStation 3, RSX Morton order"),
    ("ps4", "PlayStation 4, 8×8 Morton tiles"),
    ("xbox360", "Xbox 360, Xenos 32×32 macro tiles"),
    ("d3d12", "D3D12 64 KB standard swizzle"),
    (
        "wiiu",
        "Wii U, GX2 tile modes (--tile-mode, --swizzle, --pitch, --mip-offsets)",
    ),
];

/// The platforms, then the formats as a table.
pub fn table() -> String {
    debug_assert!(
        Platform::NAMES
            .iter()
            .all(|(name, _)| PLATFORMS.iter().any(|(n, _)| n == name))
    );
    let mut out = String::from("platforms:\n");
    for (name, what) in PLATFORMS {
        let _ = writeln!(out, "  {name:<9} {what}");
    }
    out.push_str("\nformats:\n  name            block     bytes  DXGI  containers\n");
    for format in Format::all() {
        let g = format.block();
        let block = match g.depth {
            1 => format!("{}×{}", g.width, g.height),
            depth => format!("{}×{}×{depth}", g.width, g.height),
        };
        let dxgi = format.dxgi().map_or("-".to_owned(), |n| n.to_string());
        let _ = writeln!(
            out,
            "  {:<15} {block:<9} {:>5}  {dxgi:>4}  {}",
            format.to_string(),
            g.bytes,
            formats::containers(format)
        );
    }
    out.push_str("\ncustom block geometries: WxH:BYTES or WxHxD:BYTES (raw files only)\n");
    out
}
