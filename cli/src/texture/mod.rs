//! `swizzle texture`: tile and untile texture surfaces with `swizzle::texture`, between the
//! files users have (DDS, PNG, raw) and the raw tiled payloads of game files; print where
//! each level lies; list what the tool knows.

pub mod args;
mod container;
mod dds;
pub mod formats;
mod gx2;
mod info;
mod list;
mod png;
mod surface;

use crate::files::{Sink, Source};
use crate::{Done, Failure};
use args::{ConvertArgs, TextureCommand};
use container::{LinearInput, LinearOutput};
use swizzle::texture::TextureError;

/// Runs a texture command.
pub fn run(command: TextureCommand) -> Result<Done, Failure> {
    match command {
        TextureCommand::Swizzle(args) => swizzle(args),
        TextureCommand::Deswizzle(args) => deswizzle(args),
        TextureCommand::Info(args) => info::run(args),
        TextureCommand::List => Ok(Done::stdout(list::table())),
    }
}

/// Linear IN (DDS, PNG or raw) → tiled OUT (raw, at `--mip-offsets` where given).
fn swizzle(args: ConvertArgs) -> Result<Done, Failure> {
    let (source, sink) = (Source::new(args.input), Sink::new(args.output));
    surface::platform(&args.surface)?;
    container::check_raw(sink.path(), "OUT")?;
    let container = container::of(args.container, source.path());
    let linear = LinearInput::open(&source, container)?;
    let declared = surface::declare(&args.surface, linear.header(), "swizzle")?;
    let layout = gx2::file_layout(&args.surface, &declared.surface)?;
    let bytes = linear.read(&declared, &args.level)?;
    let tiled = declared.surface.swizzle_to_vec(&bytes).map_err(input)?;
    drop(bytes);
    match layout {
        None => sink.write_bytes(&tiled),
        Some(layout) => sink.write_with(|out| layout.write(&tiled, out)),
    }
}

/// Tiled IN (raw, mips at `--mip-offsets` where given) → linear OUT (DDS, PNG or raw).
fn deswizzle(args: ConvertArgs) -> Result<Done, Failure> {
    let (source, sink) = (Source::new(args.input), Sink::new(args.output));
    surface::platform(&args.surface)?;
    container::check_raw(source.path(), "IN")?;
    let container = container::of(args.container, sink.path());
    let declared = surface::declare(&args.surface, None, "deswizzle")?;
    let layout = gx2::file_layout(&args.surface, &declared.surface)?;
    let expected = match &layout {
        Some(layout) => layout.file_size(),
        None => declared.surface.swizzled_size().map_err(input)?,
    };
    let output = LinearOutput::plan(container, &declared, &args.level)?;
    let file = source.open()?.read_rest(expected, "the tiled surface")?;
    let tiled = match layout {
        Some(layout) => layout.unpack(&file),
        None => file,
    };
    let linear = declared.surface.deswizzle_to_vec(&tiled).map_err(input)?;
    drop(tiled);
    output.write(&sink, &linear)
}

fn input(error: TextureError) -> Failure {
    Failure::Input(error.to_string())
}
