//! The linear side's file: DDS, PNG or raw, by `--container` or by the file's extension.
//! The tiled side is always raw (no container stores a console's tiles).

use super::args::{Container, LevelArgs};
use super::dds::{self, DdsHeader};
use super::png::{self, Png};
use super::surface::{Declared, Header};
use crate::files::{Input, Sink, Source};
use crate::{Done, Failure};
use std::path::Path;
use swizzle::texture::Level;

/// The container of a linear file: `--container`, else `.dds` and `.png` by extension, else
/// raw (`-` included).
pub fn of(explicit: Option<Container>, path: Option<&Path>) -> Container {
    explicit.unwrap_or_else(|| by_extension(path).unwrap_or(Container::Raw))
}

fn by_extension(path: Option<&Path>) -> Option<Container> {
    let extension = path?.extension()?.to_str()?.to_ascii_lowercase();
    match extension.as_str() {
        "dds" => Some(Container::Dds),
        "png" => Some(Container::Png),
        _ => None,
    }
}

/// The tiled file (`role`: IN or OUT) is raw: one named as a DDS or PNG is a mistake that
/// would write bytes no DDS or PNG reader reads, or read a header as tiles.
pub fn check_raw(path: Option<&Path>, role: &str) -> Result<(), Failure> {
    let (Some(path), Some(container)) = (path, by_extension(path)) else {
        return Ok(());
    };
    Err(Failure::Usage(format!(
        "{role} is the tiled surface, which is raw: `{}` names a {} file (the DDS or PNG goes \
         on the linear side)",
        path.display(),
        name(container)
    )))
}

fn name(container: Container) -> &'static str {
    match container {
        Container::Dds => "DDS",
        Container::Png => "PNG",
        Container::Raw => "raw",
    }
}

/// An opened linear file: its header read, its texels not yet.
pub enum LinearInput {
    Raw(Input),
    Dds(Input, Header),
    Png(Png),
}

impl LinearInput {
    /// Opens `source` and reads the header its container has.
    pub fn open(source: &Source, container: Container) -> Result<LinearInput, Failure> {
        let mut input = source.open()?;
        Ok(match container {
            Container::Raw => LinearInput::Raw(input),
            Container::Dds => {
                let header = dds::read_header(&mut input)?;
                LinearInput::Dds(input, header)
            }
            Container::Png => LinearInput::Png(png::read(&mut input)?),
        })
    }

    /// What the header says about the surface (none for raw files).
    pub fn header(&self) -> Option<&Header> {
        match self {
            LinearInput::Raw(_) => None,
            LinearInput::Dds(_, header) => Some(header),
            LinearInput::Png(png) => Some(&png.header),
        }
    }

    /// The linear surface's bytes; `level` must be the only one a PNG holds.
    pub fn read(self, declared: &Declared, level: &LevelArgs) -> Result<Vec<u8>, Failure> {
        let expected = declared
            .surface
            .linear_size()
            .map_err(|e| Failure::Input(e.to_string()))?;
        match self {
            LinearInput::Raw(mut input) | LinearInput::Dds(mut input, _) => {
                input.read_rest(expected, "the linear surface")
            }
            LinearInput::Png(png) if (level.layer, level.mip) == (0, 0) => {
                Ok(png.into_linear(declared))
            }
            LinearInput::Png(_) => Err(Failure::Usage(format!(
                "a PNG IN is the surface's only level: --layer {} --mip {} names another",
                level.layer, level.mip
            ))),
        }
    }
}

/// The header of the DDS or PNG `path` (for `info`).
pub fn header(path: &Path, explicit: Option<Container>) -> Result<Option<Header>, Failure> {
    let source = Source::new(path.to_owned());
    let container = of(explicit, source.path());
    if container == Container::Raw {
        return Err(Failure::Usage(format!(
            "`texture info` reads the surface from a DDS or PNG header; {} is raw (give the \
             surface with flags instead)",
            source.name()
        )));
    }
    Ok(LinearInput::open(&source, container)?.header().cloned())
}

/// How the linear surface will be written: planned (and checked) before the input is read,
/// so that a surface its container cannot hold fails before any work.
pub enum LinearOutput {
    Raw,
    Dds(DdsHeader),
    /// One level, as PNG pixels.
    Png {
        level: Level,
        pixels: png::Pixels,
        srgb: bool,
    },
}

impl LinearOutput {
    pub fn plan(
        container: Container,
        declared: &Declared,
        level: &LevelArgs,
    ) -> Result<LinearOutput, Failure> {
        Ok(match container {
            Container::Raw => LinearOutput::Raw,
            Container::Dds => LinearOutput::Dds(DdsHeader::new(declared)?),
            Container::Png => {
                let level = declared
                    .surface
                    .level(level.layer, level.mip)
                    .map_err(|e| Failure::Input(e.to_string()))?;
                let pixels = png::check_level(declared, &level)?;
                let srgb = png::is_srgb(declared.surface.format);
                LinearOutput::Png {
                    level,
                    pixels,
                    srgb,
                }
            }
        })
    }

    /// Writes the linear surface `linear` to `sink`.
    pub fn write(self, sink: &Sink, linear: &[u8]) -> Result<Done, Failure> {
        match self {
            LinearOutput::Raw => sink.write_bytes(linear),
            LinearOutput::Dds(header) => sink.write_with(|out| header.write(linear, out)),
            LinearOutput::Png {
                level,
                pixels,
                srgb,
            } => sink.write_with(|out| {
                png::write(&level, pixels, srgb, &linear[level.linear.clone()], out)
            }),
        }
    }
}
