//! The arguments of `show`, `analyze` and `svg`, and the parsers of their values.

use clap::{Args, ValueEnum};
use std::path::PathBuf;
use swizzle_core::analysis::banks::Banks;

/// The file of layouts every layout command reads.
#[derive(Args)]
pub struct Layouts {
    /// A file of layouts, or Rust source (`.rs`) whose `layout! { ... }` invocations are read.
    pub file: PathBuf,
    /// The layout to use (needed when FILE holds several).
    #[arg(long, value_name = "NAME")]
    pub layout: Option<String>,
}

/// Name, shape, size, element space, bijectivity, vector width and the offset grid of each
/// layout (of a `threads` item also its tile with `thread.value` in each cell).
#[derive(Args)]
pub struct ShowArgs {
    #[command(flatten)]
    pub layouts: Layouts,
    /// Each cell's bank instead of its offset: 32 banks of 4 bytes, or COUNTxWIDTH.
    #[arg(
        long,
        value_name = "COUNTxWIDTH",
        num_args = 0..=1,
        require_equals = true,
        value_parser = banks
    )]
    pub banks: Option<Option<Banks>>,
    /// Bytes of an element, for the bank map.
    #[arg(long, value_name = "BYTES", default_value = "4", value_parser = crate::numbers::positive)]
    pub element_bytes: usize,
}

/// Bank conflicts, global-memory transactions (cc1.1, cc1.3, 32-byte sectors) and locality
/// of one access.
#[derive(Args)]
#[command(after_help = crate::cli::ACCESS_SPEC_HELP)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    pub layouts: Layouts,
    /// The access: an inline SPEC, or the NAME of an `access` item of FILE.
    #[arg(long, value_name = "SPEC|NAME", allow_hyphen_values = true)]
    pub access: String,
    /// The banks (default: the access's, or 32 banks of 4 bytes).
    #[arg(long, value_name = "COUNTxWIDTH", value_parser = banks)]
    pub banks: Option<Banks>,
    /// The cache line, for locality.
    #[arg(long, value_name = "BYTES", default_value = "128", value_parser = crate::numbers::positive)]
    pub line_bytes: usize,
}

/// An SVG of the grid, coloured by bank, or by lane of an access, to OUT.svg or standard
/// output.
///
/// --path memory draws the order memory runs through the cells as arrows, --path NAME the
/// accesses of the `traversal NAME = sfc(..)` item of FILE (vector accesses outlined;
/// --layout defaults to the layout it walks `over`). A `threads` item is drawn as its tile
/// coloured by thread and numbered by value (--color thread, its default).
#[derive(Args)]
#[command(after_help = crate::cli::ACCESS_SPEC_HELP)]
pub struct SvgArgs {
    #[command(flatten)]
    pub layouts: Layouts,
    /// What a cell's colour says (default: lane with --access, thread for a `threads` item,
    /// bank otherwise).
    #[arg(long, alias = "colour", value_enum)]
    pub color: Option<ColorArg>,
    /// The access whose lanes colour the cells: an inline SPEC, or the NAME of an `access`
    /// item of FILE.
    #[arg(long, value_name = "SPEC|NAME", allow_hyphen_values = true)]
    pub access: Option<String>,
    /// The banks (default: the access's, or 32 banks of 4 bytes).
    #[arg(long, value_name = "COUNTxWIDTH", value_parser = banks)]
    pub banks: Option<Banks>,
    /// Bytes of an element (default: the access's, or 4).
    #[arg(long, value_name = "BYTES", value_parser = crate::numbers::positive)]
    pub element_bytes: Option<usize>,
    /// Arrows through the cells: `memory` (memory order) or the NAME of a traversal of FILE.
    #[arg(long, value_name = "memory|NAME", value_parser = path)]
    pub path: Option<PathArg>,
    /// Where the SVG goes (`-`: standard output, the default).
    #[arg(short, long, value_name = "OUT.svg")]
    pub output: Option<PathBuf>,
}

/// `--color`: what a cell's colour says.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorArg {
    /// The shared-memory bank of its element.
    Bank,
    /// The lane of the access that touches it.
    Lane,
    /// The thread that holds it (a `threads` item).
    Thread,
}

/// `--path`: memory order, or the name of a `traversal` item of the file (resolved once the
/// file is read).
#[derive(Clone)]
pub enum PathArg {
    Memory,
    Traversal(String),
}

/// `COUNTxWIDTH`: that many banks of that many bytes.
pub fn banks(spec: &str) -> Result<Banks, String> {
    let invalid = || format!("expected banks as COUNTxWIDTH_BYTES (e.g. 32x4), found `{spec}`");
    let (count, width) = spec.split_once(['x', 'X']).ok_or_else(invalid)?;
    let positive = |text: &str| text.parse::<usize>().ok().filter(|&n| n > 0);
    Ok(Banks {
        count: positive(count).ok_or_else(invalid)?,
        width_bytes: positive(width).ok_or_else(invalid)?,
    })
}

fn path(value: &str) -> Result<PathArg, String> {
    match value {
        "memory" => Ok(PathArg::Memory),
        name if is_name(name) => Ok(PathArg::Traversal(name.to_owned())),
        other => Err(format!(
            "--path takes `memory` or the NAME of a traversal, not `{other}`"
        )),
    }
}

/// Whether `value` is an identifier, the name of an item of the file.
pub fn is_name(value: &str) -> bool {
    value.starts_with(|c: char| c.is_alphabetic() || c == '_')
        && value.chars().all(|c| c.is_alphanumeric() || c == '_')
}
