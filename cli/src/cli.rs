//! The command line, as clap reads it: `swizzle show|analyze|svg FILE …` for layouts and
//! `swizzle texture swizzle|deswizzle|info|list …` for texture surfaces. Each subcommand's
//! arguments are declared beside the code that runs it (`layout::args`, `texture::args`).

use crate::layout::args::{AnalyzeArgs, ShowArgs, SvgArgs};
use crate::texture::args::TextureCommand;
use clap::{Parser, Subcommand};

/// How an access SPEC is written: shown under the help of the whole tool and of the
/// commands that take `--access`.
pub const ACCESS_SPEC_HELP: &str = "\
An access SPEC is the body of an `access` item, as `layout!` reads it and with its errors:
'lanes 32; bytes 2; vector 8 along k; m = lane % 16; k = lane / 16 * 8;' (statements
`lanes n;`, `bytes n;`, `vector n;` or `vector n along c;`, `banks (count, width);`,
`const NAME = expr;`, and one `coordinate = expression of lane;` per coordinate).
--access NAME uses the `access NAME { ... }` item of FILE instead.";

/// Pictures and analyses of swizzle layouts, and texture surfaces as consoles tile them.
///
/// FILE holds layouts written as inside `swizzle::layout! { ... }`, or is Rust source
/// (`.rs`), whose `layout! { ... }` invocations are read; --layout picks one (needed when
/// FILE holds several).
///
/// Exit codes: 0 on success; 1 when the input is wrong (a file that does not read, parse or
/// check, an unknown layout, a texture file of the wrong length, a surface its platform does
/// not tile); 2 when the command line is.
#[derive(Parser)]
#[command(name = "swizzle", version, after_help = ACCESS_SPEC_HELP)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    Show(ShowArgs),
    Analyze(AnalyzeArgs),
    Svg(SvgArgs),
    /// Whole texture surfaces (mips, layers, depth, compressed blocks) as a platform tiles
    /// them, read from and written to DDS, PNG and raw files.
    #[command(subcommand)]
    Texture(TextureCommand),
}

impl Command {
    /// The subcommand's names from the root (`["texture", "swizzle"]`): whose usage an
    /// error found after parsing shows.
    pub fn path(&self) -> Vec<&'static str> {
        match self {
            Command::Show(_) => vec!["show"],
            Command::Analyze(_) => vec!["analyze"],
            Command::Svg(_) => vec!["svg"],
            Command::Texture(texture) => vec!["texture", texture.name()],
        }
    }
}

/// Clap's own error, rendered with the usage of the subcommand `args` name where clap leaves
/// it out (a missing value: `--layout` at the end of the line).
pub fn render_clap_error(error: &clap::Error, args: &[String]) -> String {
    use clap::CommandFactory;
    let rendered = error.render().to_string();
    if rendered.contains("Usage:") || !rendered.starts_with("error:") {
        return rendered;
    }
    let mut command = Cli::command();
    command.build();
    // The subcommands the words name, up to the first that is not one.
    let mut path = Vec::new();
    let mut at = &command;
    for word in args.iter().skip(1) {
        let Some(subcommand) = at.find_subcommand(word) else {
            break;
        };
        path.push(subcommand.get_name().to_owned());
        at = subcommand;
    }
    let usage = subcommand(&mut command, &path).render_usage().to_string();
    match rendered.split_once("\nFor more information") {
        Some((message, rest)) => format!("{message}\n{usage}\n\nFor more information{rest}"),
        None => format!("{rendered}\n{usage}\n"),
    }
}

/// Clap's error for `message` with the usage of the subcommand at `path` (its error kind:
/// a value that does not fit the others), so that every usage error shows the usage of the
/// command that failed, as clap's own do.
pub fn usage_error(path: &[&str], message: &str) -> clap::Error {
    use clap::CommandFactory;
    let mut command = Cli::command();
    command.build();
    subcommand(&mut command, path).error(clap::error::ErrorKind::ValueValidation, message)
}

/// The subcommand at `path` from `command`, built (so that its usage names its parents).
fn subcommand<'a>(
    command: &'a mut clap::Command,
    path: &[impl AsRef<str>],
) -> &'a mut clap::Command {
    path.iter().fold(command, |at, name| {
        at.find_subcommand_mut(name.as_ref())
            .expect("the path names subcommands of the parser")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_parser_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
