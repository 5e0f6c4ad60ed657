//! `swizzle texture`: tile and untile raw texture files with `swizzle::texture`, and print
//! where each level lies.

use crate::Failure;
use crate::args::{LevelPicture, TextureAction};
use std::fmt::Write;
use std::path::Path;
use swizzle::texture::{Surface, TextureError};

/// Runs `texture ACTION` on `surface`; what it prints.
pub fn run(action: TextureAction, surface: Surface) -> Result<String, Failure> {
    match action {
        TextureAction::Info { picture } => {
            let mut out = info(&surface).map_err(input)?;
            if let Some(picture) = picture {
                out.push_str(&draw(&surface, &picture)?);
            }
            Ok(out)
        }
        TextureAction::Swizzle {
            input: from,
            output,
        } => {
            let linear = read(&from, "linear", surface.linear_size().map_err(input)?)?;
            let tiled = surface.swizzle_to_vec(&linear).map_err(input)?;
            write(&output, &tiled)
        }
        TextureAction::Deswizzle {
            input: from,
            output,
        } => {
            let tiled = read(&from, "tiled", surface.swizzled_size().map_err(input)?)?;
            let linear = surface.deswizzle_to_vec(&tiled).map_err(input)?;
            write(&output, &linear)
        }
    }
}

/// The surface's sizes, then one line per level: layer, mip, size in pixels and blocks,
/// and its bytes on each side.
fn info(surface: &Surface) -> Result<String, TextureError> {
    let mut out = format!(
        "{:?} {}×{}×{}, {} layer(s), {} mip(s): linear {} bytes, tiled {} bytes\n",
        surface.platform,
        surface.width,
        surface.height,
        surface.depth,
        surface.layers,
        surface.mips,
        surface.linear_size()?,
        surface.swizzled_size()?,
    );
    out.push_str("layer mip  pixels          blocks          linear                tiled\n");
    for level in surface.levels()? {
        let [depth, rows, columns] = level.blocks;
        let range = |r: std::ops::Range<usize>| format!("{}+{}", r.start, r.len());
        let _ = writeln!(
            out,
            "{:>5} {:>3}  {:<15} {:<15} {:<21} {}",
            level.layer,
            level.mip,
            format!("{}×{}×{}", level.width, level.height, level.depth),
            format!("{columns}×{rows}×{depth}"),
            range(level.linear),
            range(level.swizzled),
        );
    }
    Ok(out)
}

/// Writes the SVG of the picture's level.
fn draw(surface: &Surface, picture: &LevelPicture) -> Result<String, Failure> {
    let svg = surface
        .svg(picture.layer, picture.mip, picture.tile_bytes)
        .map_err(input)?;
    write(&picture.output, svg.as_bytes())
}

fn input(error: TextureError) -> Failure {
    Failure::Input(error.to_string())
}

/// The file `path`, which must hold `expected` bytes (the `side` surface).
fn read(path: &Path, side: &str, expected: usize) -> Result<Vec<u8>, Failure> {
    let bytes = std::fs::read(path)
        .map_err(|e| Failure::Input(format!("cannot read {}: {e}", path.display())))?;
    match bytes.len() == expected {
        true => Ok(bytes),
        false => Err(Failure::Input(format!(
            "{} holds {} bytes; the {side} surface is {expected}",
            path.display(),
            bytes.len()
        ))),
    }
}

fn write(path: &Path, bytes: &[u8]) -> Result<String, Failure> {
    std::fs::write(path, bytes)
        .map_err(|e| Failure::Input(format!("cannot write {}: {e}", path.display())))?;
    Ok(format!(
        "wrote {} ({} bytes)\n",
        path.display(),
        bytes.len()
    ))
}
