//! `texture info`: the surface, and where each level lies on both sides, as a table or as
//! JSON. A surface of many layers lists its first layers and its last, and says how many
//! alike it leaves out: a million layers make three blocks of lines, not a million.

use super::args::InfoArgs;
use super::surface::{self, Declared};
use super::{container, gx2};
use crate::files::Sink;
use crate::{Done, Failure};
use serde::Serialize;
use std::fmt::Write;
use std::ops::Range;
use swizzle::texture::{Surface, TextureError};

/// Surfaces of at most this many layers list every one; larger ones their first
/// [`FIRST_LAYERS`] and their last.
const ALL_LAYERS_UP_TO: usize = 8;
const FIRST_LAYERS: usize = 2;

/// What `info` reports, as the table and the JSON show it.
#[derive(Serialize)]
struct Report {
    platform: &'static str,
    /// The platform with its options, as the library names it.
    tiling: String,
    width: usize,
    height: usize,
    depth: usize,
    layers: usize,
    cube: bool,
    mips: usize,
    format: Named,
    linear_size: usize,
    swizzled_size: usize,
    /// The tiled file's size where `--mip-offsets` places its mips.
    #[serde(skip_serializing_if = "Option::is_none")]
    tiled_file_size: Option<usize>,
    levels: Vec<LevelReport>,
    /// Levels of the layers left out of `levels` (each alike).
    levels_omitted: usize,
}

/// A format: its name, blocks and DXGI number.
#[derive(Serialize)]
struct Named {
    name: String,
    block_width: usize,
    block_height: usize,
    block_depth: usize,
    bytes_per_block: usize,
    dxgi: Option<u32>,
}

#[derive(Serialize)]
struct LevelReport {
    layer: usize,
    mip: usize,
    width: usize,
    height: usize,
    depth: usize,
    /// Blocks: columns, rows, slices.
    blocks: [usize; 3],
    linear: Bytes,
    swizzled: Bytes,
}

/// A range of bytes.
#[derive(Serialize)]
struct Bytes {
    offset: usize,
    len: usize,
}

impl From<Range<usize>> for Bytes {
    fn from(range: Range<usize>) -> Bytes {
        Bytes {
            offset: range.start,
            len: range.len(),
        }
    }
}

pub fn run(args: InfoArgs) -> Result<Done, Failure> {
    surface::platform(&args.surface)?;
    let header = match &args.input {
        Some(path) => container::header(path, args.container)?,
        None => None,
    };
    let declared = surface::declare(&args.surface, header.as_ref(), "info")?;
    let layout = gx2::file_layout(&args.surface, &declared.surface)?;
    let report = Report::new(&declared, layout.map(|layout| layout.file_size()))
        .map_err(|e| Failure::Input(e.to_string()))?;
    let shown = match args.json {
        true => serde_json::to_string_pretty(&report).expect("a report serializes") + "\n",
        false => report.table(),
    };
    let Some(picture) = args.picture.map(Sink::new) else {
        return Ok(Done::stdout(shown));
    };
    let (layer, mip) = (args.level.layer, args.level.mip);
    let svg = declared
        .surface
        .svg(layer, mip, args.tile)
        .map_err(|e| Failure::Input(e.to_string()))?;
    let written = picture.write_bytes(svg.as_bytes())?;
    // The picture on standard output is the data: the table goes with the status.
    Ok(match picture.path() {
        Some(_) => Done::stdout(shown).and(written),
        None => Done::status(shown).and(written),
    })
}

impl Report {
    fn new(declared: &Declared, tiled_file_size: Option<usize>) -> Result<Report, TextureError> {
        let surface = &declared.surface;
        let shown = shown_layers(surface.layers);
        let mut levels = Vec::with_capacity(shown.len() * surface.mips);
        for &layer in &shown {
            for mip in 0..surface.mips {
                levels.push(LevelReport::new(surface, layer, mip)?);
            }
        }
        let block = surface.format.block();
        Ok(Report {
            platform: surface.platform.name(),
            tiling: surface.platform.to_string(),
            width: surface.width,
            height: surface.height,
            depth: surface.depth,
            layers: surface.layers,
            cube: declared.cube,
            mips: surface.mips,
            format: Named {
                name: surface.format.to_string(),
                block_width: block.width,
                block_height: block.height,
                block_depth: block.depth,
                bytes_per_block: block.bytes,
                dxgi: surface.format.dxgi(),
            },
            linear_size: surface.linear_size()?,
            swizzled_size: surface.swizzled_size()?,
            tiled_file_size,
            levels_omitted: (surface.layers - shown.len()) * surface.mips,
            levels,
        })
    }

    /// The surface in a line, its format in another, then one line per level: layer, mip,
    /// size in pixels and blocks, and its bytes on each side.
    fn table(&self) -> String {
        let mut out = format!(
            "{} {}×{}×{}, {} layer(s){}, {} mip(s): linear {} bytes, tiled {} bytes\n",
            self.tiling,
            self.width,
            self.height,
            self.depth,
            self.layers,
            if self.cube { " (cube faces)" } else { "" },
            self.mips,
            self.linear_size,
            self.swizzled_size,
        );
        let format = &self.format;
        let _ = write!(
            out,
            "format {}: blocks of {}×{}×{} pixels, {} bytes each",
            format.name,
            format.block_width,
            format.block_height,
            format.block_depth,
            format.bytes_per_block
        );
        let _ = match format.dxgi {
            Some(dxgi) => writeln!(out, ", DXGI format {dxgi}"),
            None => writeln!(out, ", no DXGI format"),
        };
        if let Some(size) = self.tiled_file_size {
            let _ = writeln!(out, "tiled file (mips at --mip-offsets): {size} bytes");
        }
        out.push_str("layer mip  pixels          blocks          linear                tiled\n");
        let mut previous = None;
        for level in &self.levels {
            if previous.is_some_and(|layer| level.layer > layer + 1) {
                let _ = writeln!(
                    out,
                    "  … {} more layers ({} to {}), each with the same levels, one layer further on",
                    level.layer - previous.unwrap_or_default() - 1,
                    previous.unwrap_or_default() + 1,
                    level.layer - 1
                );
            }
            previous = Some(level.layer);
            let [columns, rows, depth] = level.blocks;
            let range = |bytes: &Bytes| format!("{}+{}", bytes.offset, bytes.len);
            let _ = writeln!(
                out,
                "{:>5} {:>3}  {:<15} {:<15} {:<21} {}",
                level.layer,
                level.mip,
                format!("{}×{}×{}", level.width, level.height, level.depth),
                format!("{columns}×{rows}×{depth}"),
                range(&level.linear),
                range(&level.swizzled),
            );
        }
        out
    }
}

impl LevelReport {
    fn new(surface: &Surface, layer: usize, mip: usize) -> Result<LevelReport, TextureError> {
        let level = surface.level(layer, mip)?;
        let [depth, rows, columns] = level.blocks;
        Ok(LevelReport {
            layer,
            mip,
            width: level.width,
            height: level.height,
            depth: level.depth,
            blocks: [columns, rows, depth],
            linear: level.linear.into(),
            swizzled: level.swizzled.into(),
        })
    }
}

/// The layers listed: all of a few, else the first ones and the last.
fn shown_layers(layers: usize) -> Vec<usize> {
    match layers <= ALL_LAYERS_UP_TO {
        true => (0..layers).collect(),
        false => (0..FIRST_LAYERS).chain([layers - 1]).collect(),
    }
}
