//! The linear side's file: DDS, PNG or raw, by `--container` or by the file's extension.
//! The tiled side is always raw (no container stores a console's tiles).

use super::args::{Container, LevelArgs};
use super::surface::{Declared, Header};
use crate::files::{Input, Sink, Source};
use crate::{Done, Failure};
use std::path::Path;

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
    match by_extension(path) {
        Some(container) => Err(Failure::Usage(format!(
            "{role} is the tiled surface, which is raw: `{}` names a {} file (the DDS or PNG \
             goes on the linear side)",
            path.map(Path::display)
                .map(|p| p.to_string())
                .unwrap_or_default(),
            name(container)
        ))),
        None => Ok(()),
    }
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
}

impl LinearInput {
    /// Opens `source` and reads the header its container has.
    pub fn open(source: &Source, container: Container) -> Result<LinearInput, Failure> {
        let input = source.open()?;
        match container {
            Container::Raw => Ok(LinearInput::Raw(input)),
            other => Err(Failure::Input(format!(
                "{} files are not read yet",
                name(other)
            ))),
        }
    }

    /// What the header says about the surface (none for raw files).
    pub fn header(&self) -> Option<&Header> {
        match self {
            LinearInput::Raw(_) => None,
        }
    }

    /// The linear surface's bytes.
    pub fn read(self, declared: &Declared) -> Result<Vec<u8>, Failure> {
        let expected = declared
            .surface
            .linear_size()
            .map_err(|e| Failure::Input(e.to_string()))?;
        match self {
            LinearInput::Raw(mut input) => input.read_rest(expected, "the linear surface"),
        }
    }
}

/// The header of the DDS or PNG `path` (for `info`); `None` for a raw file.
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

/// Whether `container` can hold the surface (a DDS its format, a PNG the level): checked
/// before the input is read.
pub fn check_writable(
    container: Container,
    _declared: &Declared,
    _level: &LevelArgs,
) -> Result<(), Failure> {
    match container {
        Container::Raw => Ok(()),
        other => Err(Failure::Input(format!(
            "{} files are not written yet",
            name(other)
        ))),
    }
}

/// Writes the linear surface `linear` to `sink` in `container`.
pub fn write(
    container: Container,
    sink: &Sink,
    _declared: &Declared,
    _level: &LevelArgs,
    linear: &[u8],
) -> Result<Done, Failure> {
    match container {
        Container::Raw => sink.write_bytes(linear),
        other => Err(Failure::Input(format!(
            "{} files are not written yet",
            name(other)
        ))),
    }
}
