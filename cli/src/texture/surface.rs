//! The surface a texture command works on: the flags' declaration, agreed with what a
//! container's header says (a flag that contradicts the header is an error naming both).

use super::args::SurfaceArgs;
use crate::Failure;
use std::fmt::Display;
use swizzle::texture::{Format, Platform, Surface};

/// What a container's header says about the linear surface.
#[derive(Clone, Debug)]
pub struct Header {
    /// Where it was read: "IN.dds's header".
    pub origin: String,
    pub width: usize,
    pub height: usize,
    pub depth: usize,
    /// Array layers, cube faces counted one by one.
    pub layers: usize,
    pub cube: bool,
    pub mips: usize,
    /// The format its texels are in.
    pub format: Format,
    /// The other formats its texels can be read as: a PNG's RGBA pixels are `rgba8`,
    /// `rgba8-srgb` or, swapped, `bgra8`.
    pub also: Vec<Format>,
}

/// A surface and whether its layers are cube faces (which a DDS records).
#[derive(Clone, Copy, Debug)]
pub struct Declared {
    pub surface: Surface,
    pub cube: bool,
}

/// The surface of `args` on their platform, with what `header` gives where a flag does not
/// (and must agree where one does); `command` names the command in a missing flag's error.
pub fn declare(
    args: &SurfaceArgs,
    header: Option<&Header>,
    command: &str,
) -> Result<Declared, Failure> {
    let platform = platform(args)?;
    let needed = |flag: &str| {
        Failure::Usage(format!(
            "`texture {command}` needs {flag} (or a DDS or PNG whose header gives it)"
        ))
    };
    let faces_per_layer = if args.cube { 6 } else { 1 };
    let layers = args
        .layers
        .map(|layers| {
            layers.checked_mul(faces_per_layer).ok_or_else(|| {
                Failure::Usage(format!(
                    "--layers {layers} cube maps are more faces than usize holds"
                ))
            })
        })
        .transpose()?;
    let Some(header) = header else {
        let surface = Surface::new(
            platform,
            args.width.ok_or_else(|| needed("--width"))?,
            args.height.ok_or_else(|| needed("--height"))?,
            args.format.ok_or_else(|| needed("--format"))?,
        )
        .depth(args.depth.unwrap_or(1))
        .layers(layers.unwrap_or(faces_per_layer))
        .mips(args.mips.unwrap_or(1));
        return Ok(Declared {
            surface,
            cube: args.cube,
        });
    };
    let origin = &header.origin;
    if args.cube && !header.cube {
        return Err(Failure::Input(format!(
            "--cube contradicts {origin}, which gives no cube map"
        )));
    }
    let format = match args.format {
        Some(format) if format == header.format || header.also.contains(&format) => format,
        Some(format) => {
            return Err(Failure::Input(format!(
                "--format {format} contradicts {origin}, which gives {}",
                header.format
            )));
        }
        None => header.format,
    };
    let surface = Surface::new(
        platform,
        agree("--width", args.width, header.width, origin)?,
        agree("--height", args.height, header.height, origin)?,
        format,
    )
    .depth(agree("--depth", args.depth, header.depth, origin)?)
    .layers(agree_layers(args, layers, header)?)
    .mips(agree("--mips", args.mips, header.mips, origin)?);
    Ok(Declared {
        surface,
        cube: header.cube,
    })
}

/// The header's value, which a flag given must equal.
fn agree<T: PartialEq + Display>(
    flag: &str,
    given: Option<T>,
    header: T,
    origin: &str,
) -> Result<T, Failure> {
    match given {
        Some(given) if given != header => Err(Failure::Input(format!(
            "{flag} {given} contradicts {origin}, which gives {header}"
        ))),
        _ => Ok(header),
    }
}

/// The header's layers (cube faces counted one by one), which `--layers` (and `--cube`)
/// must give where given.
fn agree_layers(
    args: &SurfaceArgs,
    faces: Option<usize>,
    header: &Header,
) -> Result<usize, Failure> {
    match (args.layers, faces) {
        (Some(layers), Some(faces)) if faces != header.layers => {
            let given = match args.cube {
                true => format!("--layers {layers} --cube ({faces} faces)"),
                false => format!("--layers {layers}"),
            };
            let unit = if header.cube { "cube faces" } else { "layers" };
            Err(Failure::Input(format!(
                "{given} contradicts {}, which gives {} {unit}",
                header.origin, header.layers
            )))
        }
        _ => Ok(header.layers),
    }
}

/// The platform of `--platform`, with the Switch's or the Wii U's options; those of another
/// platform are a usage error (checked before any file is opened).
pub fn platform(args: &SurfaceArgs) -> Result<Platform, Failure> {
    let wiiu_options = args.tile_mode.is_some()
        || args.swizzle.is_some()
        || args.pitch.is_some()
        || args.mip_offsets.is_some();
    match args.platform {
        Platform::Switch { block_height } => {
            if wiiu_options {
                return Err(wiiu_only());
            }
            Ok(Platform::Switch {
                block_height: args.block_height.or(block_height),
            })
        }
        Platform::WiiU { tile_mode, swizzle } => {
            if args.block_height.is_some() {
                return Err(switch_only());
            }
            Ok(Platform::WiiU {
                tile_mode: args.tile_mode.unwrap_or(tile_mode),
                swizzle: args.swizzle.unwrap_or(swizzle),
            })
        }
        _ if wiiu_options => Err(wiiu_only()),
        _ if args.block_height.is_some() => Err(switch_only()),
        other => Ok(other),
    }
}

fn wiiu_only() -> Failure {
    Failure::Usage(
        "--tile-mode, --swizzle, --pitch and --mip-offsets are the Wii U's (--platform wiiu)"
            .to_owned(),
    )
}

fn switch_only() -> Failure {
    Failure::Usage("--block-height is the Switch's (--platform switch)".to_owned())
}
