//! The arguments of `swizzle texture …`: the surface (from flags, or from a DDS or PNG
//! header), the platform's own options, the containers and the level a PNG holds.

use crate::numbers::{natural, positive, word};
use clap::{Args, Subcommand, ValueEnum};
use std::path::PathBuf;
use swizzle::texture::wiiu::TileMode;
use swizzle::texture::{Format, Platform};

/// The texture commands.
#[derive(Subcommand)]
pub enum TextureCommand {
    /// Tile the linear surface IN (DDS, PNG or raw) into OUT, raw, as the platform stores it.
    ///
    /// A DDS gives the surface's size, format, mips, layers, cube faces and depth; a PNG one
    /// level's size and pixels. Flags that contradict the header are an error. A raw IN holds
    /// the levels tightly packed, layer by layer, mips within a layer (a DDS payload).
    Swizzle(ConvertArgs),
    /// Untile the raw tiled surface IN into the linear surface OUT (DDS, PNG or raw).
    ///
    /// A DDS OUT holds the whole surface; a PNG one level of one layer (--layer, --mip).
    Deswizzle(ConvertArgs),
    /// Print the surface and where each level lies on both sides; draw one level as an SVG.
    ///
    /// The surface comes from the flags, or from the header of a DDS or PNG IN.
    Info(InfoArgs),
    /// List the platforms and formats: each format's block geometry, DXGI number and the
    /// containers it fits.
    List,
}

impl TextureCommand {
    /// The subcommand's name, as typed.
    pub fn name(&self) -> &'static str {
        match self {
            TextureCommand::Swizzle(_) => "swizzle",
            TextureCommand::Deswizzle(_) => "deswizzle",
            TextureCommand::Info(_) => "info",
            TextureCommand::List => "list",
        }
    }
}

/// `swizzle` and `deswizzle`: a surface and two files.
#[derive(Args)]
pub struct ConvertArgs {
    #[command(flatten)]
    pub surface: SurfaceArgs,
    #[command(flatten)]
    pub level: LevelArgs,
    /// The linear side's container, whatever its extension (by default `.dds` and `.png`
    /// name theirs, anything else is raw). The tiled side is always raw.
    #[arg(long, value_enum, help_heading = "Files")]
    pub container: Option<Container>,
    /// The file read (`-`: standard input).
    #[arg(value_name = "IN")]
    pub input: PathBuf,
    /// The file written, whole or not at all (`-`: standard output).
    #[arg(value_name = "OUT")]
    pub output: PathBuf,
}

/// `info`: a surface, and what to print or draw of it.
#[derive(Args)]
pub struct InfoArgs {
    #[command(flatten)]
    pub surface: SurfaceArgs,
    /// Print JSON, for scripts.
    #[arg(long, help_heading = "Output")]
    pub json: bool,
    /// Draw level --layer/--mip to OUT.svg (`-`: standard output; the table then goes to
    /// standard error): each block numbered with the tiled byte it starts at, coloured by
    /// its tile.
    #[arg(long, value_name = "OUT.svg", help_heading = "Output")]
    pub picture: Option<PathBuf>,
    #[command(flatten)]
    pub level: LevelArgs,
    /// The tile the picture's colours show, in bytes (512: a Switch GOB).
    #[arg(long, value_name = "BYTES", default_value = "512", value_parser = positive, help_heading = "Output")]
    pub tile: usize,
    /// IN's container, whatever its extension.
    #[arg(long, value_enum, help_heading = "Files")]
    pub container: Option<Container>,
    /// A DDS or PNG whose header gives the surface (only its header is read).
    #[arg(value_name = "IN")]
    pub input: Option<PathBuf>,
}

/// One level of one layer: the one a PNG holds, or the picture draws.
#[derive(Args)]
pub struct LevelArgs {
    /// The layer (with --cube: face 6 × cube + face).
    #[arg(long, default_value = "0", value_parser = natural, help_heading = "Level (PNG, picture)")]
    pub layer: usize,
    /// The mip.
    #[arg(long, default_value = "0", value_parser = natural, help_heading = "Level (PNG, picture)")]
    pub mip: usize,
}

/// A linear surface's file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Container {
    /// DirectDraw Surface: the whole surface, with a DX10 header.
    Dds,
    /// One level of one layer, of an 8-bit uncompressed format.
    Png,
    /// The bytes alone.
    Raw,
}

/// The surface, as flags declare it. Integers are decimal or `0x` hex.
#[derive(Args)]
pub struct SurfaceArgs {
    /// The platform whose tiling to use.
    #[arg(long, value_parser = platform, help_heading = "Surface")]
    pub platform: Platform,
    /// Mip 0's width in pixels.
    #[arg(long, value_parser = positive, help_heading = "Surface")]
    pub width: Option<usize>,
    /// Mip 0's height in pixels.
    #[arg(long, value_parser = positive, help_heading = "Surface")]
    pub height: Option<usize>,
    /// Mip 0's depth in pixels (a 3-D texture) [default: 1].
    #[arg(long, value_parser = positive, help_heading = "Surface")]
    pub depth: Option<usize>,
    /// Array layers (with --cube: cube maps of 6 faces each) [default: 1].
    #[arg(long, value_parser = positive, help_heading = "Surface")]
    pub layers: Option<usize>,
    /// Each layer is a cube map: 6 faces.
    #[arg(long, help_heading = "Surface")]
    pub cube: bool,
    /// Mip levels, at most one more than log2 of the largest side [default: 1].
    #[arg(long, value_parser = positive, help_heading = "Surface")]
    pub mips: Option<usize>,
    /// The texel format (`swizzle texture list` gives each one's blocks and DXGI number).
    #[arg(long, value_parser = format, help = crate::texture::formats::help(), help_heading = "Surface")]
    pub format: Option<Format>,
    /// GOBs stacked per block for mip 0, as BNTX headers store it (1, 2, 4, 8, 16 or 32)
    /// [default: inferred from the height, as the Switch does].
    #[arg(long, value_name = "GOBS", value_parser = block_height, help_heading = "Switch")]
    pub block_height: Option<usize>,
    /// GX2's tile mode: 0 and 1 linear, 2 to 15 tiled [default: 4, 2-D thin-1].
    #[arg(long, value_name = "MODE", value_parser = tile_mode, help_heading = "Wii U (the GX2 header's values)")]
    pub tile_mode: Option<TileMode>,
    /// GX2's swizzle (bits 8 to 10: pipe and bank) [default: 0].
    #[arg(long, value_name = "BITS", value_parser = word, help_heading = "Wii U (the GX2 header's values)")]
    pub swizzle: Option<u32>,
    /// Mip 0's pitch in blocks: checked against the one the surface has.
    #[arg(long, value_name = "BLOCKS", value_parser = positive, help_heading = "Wii U (the GX2 header's values)")]
    pub pitch: Option<usize>,
    /// The header's mip offsets, `a,b,c` or `@FILE` (a file of them): mip 1's offset in the
    /// tiled file, then mip 2's, 3's, … from mip 1's start. The tiled file's mips lie there
    /// (padded with zeros when written).
    #[arg(long, value_name = "OFFSETS", value_parser = mip_offsets, help_heading = "Wii U (the GX2 header's values)")]
    pub mip_offsets: Option<MipOffsetsArg>,
}

/// `--mip-offsets`: the offsets given, or the file that holds them.
#[derive(Clone, Debug)]
pub enum MipOffsetsArg {
    List(Vec<usize>),
    File(PathBuf),
}

fn platform(name: &str) -> Result<Platform, String> {
    Platform::parse(name).ok_or_else(|| {
        let names: Vec<&str> = Platform::NAMES.iter().map(|(name, _)| *name).collect();
        format!("unknown platform `{name}` (one of {})", names.join(", "))
    })
}

fn format(name: &str) -> Result<Format, String> {
    Format::parse(name).ok_or_else(|| {
        format!(
            "unknown format `{name}`: `swizzle texture list` lists them; a custom block \
             geometry is WxH:BYTES (4x4:16)"
        )
    })
}

fn block_height(text: &str) -> Result<usize, String> {
    let gobs = natural(text)?;
    match [1, 2, 4, 8, 16, 32].contains(&gobs) {
        true => Ok(gobs),
        false => Err(format!(
            "--block-height takes 1, 2, 4, 8, 16 or 32, not {gobs}"
        )),
    }
}

fn tile_mode(text: &str) -> Result<TileMode, String> {
    let value = word(text)?;
    TileMode::from_gx2(value).ok_or_else(|| format!("--tile-mode takes 0 to 15, not {value}"))
}

/// `a,b,c` (decimal or hex), or `@FILE`.
fn mip_offsets(text: &str) -> Result<MipOffsetsArg, String> {
    match text.strip_prefix('@') {
        Some(file) => Ok(MipOffsetsArg::File(PathBuf::from(file))),
        None => offsets(text).map(MipOffsetsArg::List),
    }
}

/// Offsets separated by commas or white space.
pub fn offsets(text: &str) -> Result<Vec<usize>, String> {
    text.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|item| !item.is_empty())
        .map(natural)
        .collect()
}
