//! The command line: `swizzle show|analyze|svg FILE [options]` and `swizzle texture
//! swizzle|deswizzle|info [options] [IN OUT]`, read into a [`Command`].
//! Options take their value as the next argument or after `=`; `--banks` of `show` is a
//! switch that may carry a configuration (`--banks=64x4`).

use crate::diagnostics::render;
use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use swizzle::texture::wiiu::TileMode;
use swizzle::texture::{Format, Platform, Surface};
use swizzle_core::analysis::Access;
use swizzle_core::analysis::banks::Banks;
use swizzle_core::picture::Coloring;
use swizzle_syntax::check::CheckedAccess;

pub const USAGE: &str = "\
usage: swizzle show FILE [--layout NAME] [--banks[=COUNTxWIDTH]] [--element-bytes N]
       swizzle analyze FILE [--layout NAME] --access SPEC|NAME [--banks COUNTxWIDTH] [--line-bytes N]
       swizzle svg FILE [--layout NAME] [--color bank|lane|thread] [--access SPEC|NAME] [--banks COUNTxWIDTH]
                   [--element-bytes N] [--path memory|NAME] [-o OUT.svg]
       swizzle texture swizzle|deswizzle --platform P --width W --height H [--depth D] [--layers L]
                   [--mips M] --format F IN OUT
       swizzle texture info --platform P --width W --height H [--depth D] [--layers L] [--mips M]
                   --format F [--picture OUT.svg [--layer N] [--mip N] [--tile BYTES]]
       (wiiu: [--tile-mode N] [--swizzle N], the GX2 header's values)";

pub const HELP: &str = "\
Pictures and analyses of swizzle layouts. FILE holds layouts written as inside
`swizzle::layout! { ... }`, or is Rust source (`.rs`), whose `layout! { ... }` invocations
are read; --layout picks one (needed when FILE holds several).

  show      name, shape, size, element space, bijectivity, vector width and the offset grid
            of each layout; --banks shows each cell's bank instead (32 banks of 4 bytes
            unless COUNTxWIDTH says otherwise; --element-bytes defaults to 4); for a
            `threads` item also the tile with `thread.value` in each cell
  analyze   bank conflicts, global-memory transactions (cc1.1, cc1.3, 32-byte sectors) and
            locality (--line-bytes, default 128) of one access
  svg       an SVG of the grid, coloured by bank, or by lane of an access (--color lane,
            the default when --access is given), written to OUT.svg or standard output;
            --path memory draws the order memory runs through the cells as arrows,
            --path NAME the accesses of the `traversal NAME = sfc(..)` item of FILE
            (vector accesses outlined; --layout defaults to the layout it walks `over`);
            a `threads` item is drawn as its tile coloured by thread and numbered by value
            (--color thread, its default)

An access SPEC is the body of an `access` item, as `layout!` reads it and with its errors:
'lanes 32; bytes 2; vector 8 along k; m = lane % 16; k = lane / 16 * 8;' (statements
`lanes n;`, `bytes n;`, `vector n;` or `vector n along c;`, `banks (count, width);`,
`const NAME = expr;`, and one `coordinate = expression of lane;` per coordinate).
--access NAME uses the `access NAME { ... }` item of FILE instead.

  texture   whole texture surfaces (mips, layers, depth, compressed blocks) as a platform
            tiles them: `swizzle` tiles the raw linear file IN (levels tightly packed, layer
            by layer, mips within a layer: a DDS payload) into OUT, `deswizzle` the other
            way, `info` prints each level's size and byte ranges on both sides, and with
            --picture draws one level (--layer, --mip: 0 and 0) as an SVG: each block
            numbered with the tiled byte it starts at, coloured by its tile of --tile bytes
            (512, a Switch GOB). --platform: switch, wiiu, 3ds, ps3, ps4, xbox360, d3d12; the
            Wii U takes GX2's --tile-mode (0 to 15: 0 and 1 linear, 2 to 15 tiled; default
            4, 2-D thin-1) and --swizzle (default 0);
            --format: r8, rg8, rgb8, rgba8, rgba16, rgba32, bc1 to bc7, astcWxH, …;
            --depth, --layers and --mips default to 1.
";

/// What the user asked for.
pub enum Command {
    Help,
    Show {
        file: PathBuf,
        layout: Option<String>,
        /// The bank map instead of offsets, for elements of `element_bytes`.
        banks: Option<Banks>,
        element_bytes: usize,
    },
    Analyze {
        file: PathBuf,
        layout: Option<String>,
        access: AccessArg,
        banks: Option<Banks>,
        line_bytes: usize,
    },
    Svg {
        file: PathBuf,
        layout: Option<String>,
        coloring: ColoringArg,
        path: Option<PathArg>,
        output: Option<PathBuf>,
    },
    Texture {
        action: TextureAction,
        surface: Surface,
    },
}

/// What `swizzle texture` does with its surface.
pub enum TextureAction {
    /// Tile the linear file `input` into `output`.
    Swizzle { input: PathBuf, output: PathBuf },
    /// Untile the tiled file `input` into `output`.
    Deswizzle { input: PathBuf, output: PathBuf },
    /// Print every level's size and ranges; draw one level.
    Info { picture: Option<LevelPicture> },
}

/// `--picture OUT.svg`: which level to draw, and the tiles its colours show.
pub struct LevelPicture {
    pub output: PathBuf,
    pub layer: usize,
    pub mip: usize,
    pub tile_bytes: usize,
}

/// `--access`: an inline SPEC, or the name of an `access` item of the file (resolved once
/// the file is read).
pub enum AccessArg {
    Spec(CheckedAccess),
    Named(String),
}

/// `--path`: memory order, or the name of a `traversal` item of the file (resolved once the
/// file is read).
pub enum PathArg {
    Memory,
    Traversal(String),
}

/// `--color`, `--access`, `--banks` and `--element-bytes` of `svg`, before the file is read.
pub struct ColoringArg {
    by_lane: bool,
    /// `--color thread`: a thread-value layout's threads.
    by_thread: bool,
    /// Whether `--color` or `--access` chose the colouring.
    chosen: bool,
    access: Option<AccessArg>,
    banks: Option<Banks>,
    element_bytes: Option<usize>,
}

impl ColoringArg {
    /// Whether the picture colours by thread: asked for, or the default for a thread-value
    /// layout when nothing else was asked.
    pub fn by_thread(&self, threads_item: bool) -> bool {
        self.by_thread || (threads_item && !self.chosen)
    }

    /// The colouring, with a named access looked up by `resolve` (which also gives its
    /// declared banks).
    pub fn resolve<E>(
        self,
        resolve: impl Fn(AccessArg) -> Result<(Access, Option<Banks>), E>,
    ) -> Result<Coloring, E> {
        let access = self.access.map(resolve).transpose()?;
        let declared = access.as_ref().and_then(|(_, banks)| *banks);
        let banks = self.banks.or(declared).unwrap_or_default();
        Ok(match access {
            Some((access, _)) if self.by_lane => Coloring::Lane(access),
            access => Coloring::Bank {
                element_bytes: self
                    .element_bytes
                    .or(access.map(|(a, _)| a.element_bytes))
                    .unwrap_or(4),
                banks,
            },
        })
    }
}

/// A mistake on the command line, explained.
pub struct UsageError(pub String);

/// How an option takes its value.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Arity {
    /// `--name VALUE` or `--name=VALUE`.
    Value,
    /// `--name` alone, or `--name=VALUE`.
    Switch,
}

/// The options and the positional arguments (FILE; IN OUT) of a subcommand.
struct Options {
    positionals: Vec<String>,
    /// `-h` or `--help` was given: nothing else matters.
    help: bool,
    /// Option name → its value (`None` for a switch given alone).
    values: HashMap<&'static str, Option<String>>,
}

pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Command, UsageError> {
    let mut args = args
        .into_iter()
        .map(|arg| {
            arg.into_string()
                .map_err(|arg| UsageError(format!("argument {arg:?} is not valid UTF-8")))
        })
        .collect::<Result<Vec<_>, _>>()?
        .into_iter();
    let command = args
        .next()
        .ok_or_else(|| UsageError("no command given".to_owned()))?;
    let allowed: &[(&str, Arity)] = match command.as_str() {
        "-h" | "--help" | "help" => return Ok(Command::Help),
        "texture" => return texture(args),
        "show" => &[
            ("--layout", Arity::Value),
            ("--banks", Arity::Switch),
            ("--element-bytes", Arity::Value),
        ],
        "analyze" => &[
            ("--layout", Arity::Value),
            ("--access", Arity::Value),
            ("--banks", Arity::Value),
            ("--line-bytes", Arity::Value),
        ],
        "svg" => &[
            ("--layout", Arity::Value),
            ("--color", Arity::Value),
            ("--access", Arity::Value),
            ("--banks", Arity::Value),
            ("--element-bytes", Arity::Value),
            ("--path", Arity::Value),
            ("--output", Arity::Value),
        ],
        other => return Err(UsageError(format!("unknown command `{other}`"))),
    };
    let mut options = Options::parse(args, allowed)?;
    if options.help {
        return Ok(Command::Help);
    }
    let file = match options.positionals.as_slice() {
        [] => return Err(UsageError("no FILE given".to_owned())),
        [file] => PathBuf::from(file),
        [first, second, ..] => {
            return Err(UsageError(format!(
                "one FILE expected, found `{first}` and `{second}`"
            )));
        }
    };
    let layout = options.take("--layout");
    Ok(match command.as_str() {
        "show" => Command::Show {
            layout,
            banks: match options.values.remove("--banks") {
                None => None,
                Some(None) => Some(Banks::default()),
                Some(Some(config)) => Some(banks(&config).map_err(UsageError)?),
            },
            element_bytes: options.positive("--element-bytes")?.unwrap_or(4),
            file,
        },
        "analyze" => Command::Analyze {
            layout,
            access: options.access()?.ok_or_else(|| {
                UsageError("`analyze` needs --access SPEC or --access NAME".to_owned())
            })?,
            banks: options.banks()?,
            line_bytes: options.positive("--line-bytes")?.unwrap_or(128),
            file,
        },
        _ => Command::Svg {
            layout,
            coloring: svg_coloring(&mut options)?,
            path: match options.take("--path") {
                None => None,
                Some(memory) if memory == "memory" => Some(PathArg::Memory),
                Some(name) if is_name(&name) => Some(PathArg::Traversal(name)),
                Some(other) => {
                    return Err(UsageError(format!(
                        "--path takes `memory` or the NAME of a traversal, not `{other}`"
                    )));
                }
            },
            output: options.take("--output").map(PathBuf::from),
            file,
        },
    })
}

/// `swizzle texture ACTION [options] [IN OUT]`: the surface from the options, the files
/// from the positionals (two for `swizzle` and `deswizzle`, none for `info`).
fn texture(mut args: impl Iterator<Item = String>) -> Result<Command, UsageError> {
    let action = args
        .next()
        .ok_or_else(|| UsageError("`texture` needs swizzle, deswizzle or info".to_owned()))?;
    let allowed = [
        ("--platform", Arity::Value),
        ("--width", Arity::Value),
        ("--height", Arity::Value),
        ("--depth", Arity::Value),
        ("--layers", Arity::Value),
        ("--mips", Arity::Value),
        ("--format", Arity::Value),
        ("--tile-mode", Arity::Value),
        ("--swizzle", Arity::Value),
        ("--picture", Arity::Value),
        ("--layer", Arity::Value),
        ("--mip", Arity::Value),
        ("--tile", Arity::Value),
    ];
    let mut options = Options::parse(args, &allowed)?;
    if options.help || matches!(action.as_str(), "-h" | "--help") {
        return Ok(Command::Help);
    }
    let platform = options.required("--platform")?;
    let mut platform = Platform::parse(&platform).ok_or_else(|| {
        let names: Vec<&str> = Platform::NAMES.iter().map(|(name, _)| *name).collect();
        UsageError(format!(
            "unknown platform `{platform}` (one of {})",
            names.join(", ")
        ))
    })?;
    let tile_mode = options.natural("--tile-mode")?;
    let swizzle = options.natural("--swizzle")?;
    if let Platform::WiiU {
        tile_mode: mode,
        swizzle: bits,
    } = &mut platform
    {
        if let Some(value) = tile_mode {
            *mode = u32::try_from(value)
                .ok()
                .and_then(TileMode::from_gx2)
                .ok_or_else(|| UsageError(format!("--tile-mode takes 0 to 15, not {value}")))?;
        }
        if let Some(value) = swizzle {
            *bits = u32::try_from(value)
                .map_err(|_| UsageError(format!("--swizzle takes a 32-bit value, not {value}")))?;
        }
    } else if tile_mode.is_some() || swizzle.is_some() {
        return Err(UsageError(
            "--tile-mode and --swizzle are the Wii U's (--platform wiiu)".to_owned(),
        ));
    }
    let format = options.required("--format")?;
    let format = Format::parse(&format).ok_or_else(|| {
        UsageError(format!(
            "unknown format `{format}` (rgba8, bc1 … bc7, astc4x4 … astc12x12, …)"
        ))
    })?;
    let dimension = |options: &mut Options, name: &str| {
        options
            .positive(name)?
            .ok_or_else(|| UsageError(format!("`texture` needs {name}")))
    };
    let (width, height) = (
        dimension(&mut options, "--width")?,
        dimension(&mut options, "--height")?,
    );
    let surface = Surface::new(platform, width, height, format)
        .depth(options.positive("--depth")?.unwrap_or(1))
        .layers(options.positive("--layers")?.unwrap_or(1))
        .mips(options.positive("--mips")?.unwrap_or(1));
    let files = std::mem::take(&mut options.positionals);
    let action = match (action.as_str(), <[String; 2]>::try_from(files)) {
        ("info", Err(files)) if files.is_empty() => TextureAction::Info {
            picture: match options.take("--picture") {
                Some(output) => Some(LevelPicture {
                    output: PathBuf::from(output),
                    layer: options.natural("--layer")?.unwrap_or(0),
                    mip: options.natural("--mip")?.unwrap_or(0),
                    tile_bytes: options.positive("--tile")?.unwrap_or(512),
                }),
                None => None,
            },
        },
        ("info", _) => return Err(UsageError("`texture info` takes no files".to_owned())),
        (action @ ("swizzle" | "deswizzle"), Ok([input, output])) => {
            let (input, output) = (PathBuf::from(input), PathBuf::from(output));
            match action {
                "swizzle" => TextureAction::Swizzle { input, output },
                _ => TextureAction::Deswizzle { input, output },
            }
        }
        ("swizzle" | "deswizzle", _) => {
            return Err(UsageError(format!("`texture {action}` needs IN and OUT")));
        }
        (other, _) => {
            return Err(UsageError(format!(
                "unknown texture action `{other}` (swizzle, deswizzle or info)"
            )));
        }
    };
    Ok(Command::Texture { action, surface })
}

/// `--color lane` (the default with `--access`) colours by the access's lanes, `--color
/// bank` by bank, for elements of `--element-bytes` (default: the access's, or 4).
fn svg_coloring(options: &mut Options) -> Result<ColoringArg, UsageError> {
    let access = options.access()?;
    let banks = options.banks()?;
    let element_bytes = options.positive("--element-bytes")?;
    let color = options.take("--color");
    let chosen = color.is_some() || access.is_some();
    let by_thread = color.as_deref() == Some("thread");
    let by_lane = match color.as_deref() {
        Some("lane") => true,
        Some("bank" | "thread") => false,
        Some(other) => {
            return Err(UsageError(format!(
                "--color takes `bank`, `lane` or `thread`, not `{other}`"
            )));
        }
        None => access.is_some(),
    };
    if by_lane && access.is_none() {
        return Err(UsageError(
            "--color lane needs --access SPEC or --access NAME to know which lane touches which cell".to_owned(),
        ));
    }
    Ok(ColoringArg {
        by_lane,
        by_thread,
        chosen,
        access,
        banks,
        element_bytes,
    })
}

impl Options {
    fn parse(
        args: impl Iterator<Item = String>,
        allowed: &[(&'static str, Arity)],
    ) -> Result<Options, UsageError> {
        let (mut positionals, mut help) = (Vec::new(), false);
        let mut values = HashMap::new();
        let mut args = args.peekable();
        while let Some(arg) = args.next() {
            if !arg.starts_with('-') || arg == "-" {
                positionals.push(arg);
                continue;
            }
            let (flag, inline) = match arg.split_once('=') {
                Some((flag, value)) => (flag, Some(value.to_owned())),
                None => (arg.as_str(), None),
            };
            let flag = match flag {
                "-o" => "--output",
                "-h" => "--help",
                "--colour" => "--color",
                other => other,
            };
            if flag == "--help" {
                help = true;
                continue;
            }
            let Some(&(name, arity)) = allowed.iter().find(|(name, _)| *name == flag) else {
                return Err(UsageError(format!("unknown option `{flag}`")));
            };
            let value = match (arity, inline) {
                (_, Some(value)) => Some(value),
                (Arity::Switch, None) => None,
                (Arity::Value, None) => Some(
                    args.next_if(|next| !next.starts_with("--"))
                        .ok_or_else(|| UsageError(format!("{name} needs a value")))?,
                ),
            };
            if values.insert(name, value).is_some() {
                return Err(UsageError(format!("{name} is given twice")));
            }
        }
        Ok(Options {
            positionals,
            help,
            values,
        })
    }

    /// The value of an option that must be given.
    fn required(&mut self, name: &str) -> Result<String, UsageError> {
        self.take(name)
            .ok_or_else(|| UsageError(format!("`texture` needs {name}")))
    }

    /// The value of an option that takes one.
    fn take(&mut self, name: &str) -> Option<String> {
        self.values.remove(name).flatten()
    }

    /// A value of 0 or more.
    fn natural(&mut self, name: &str) -> Result<Option<usize>, UsageError> {
        self.take(name)
            .map(|value| {
                value.parse().map_err(|_| {
                    UsageError(format!(
                        "{name} takes an integer of 0 or more, not `{value}`"
                    ))
                })
            })
            .transpose()
    }

    fn positive(&mut self, name: &str) -> Result<Option<usize>, UsageError> {
        self.take(name)
            .map(|value| {
                value
                    .parse()
                    .ok()
                    .filter(|&n: &usize| n > 0)
                    .ok_or_else(|| {
                        UsageError(format!("{name} takes a positive integer, not `{value}`"))
                    })
            })
            .transpose()
    }

    /// A bare identifier names an `access` item; anything else is an inline SPEC.
    fn access(&mut self) -> Result<Option<AccessArg>, UsageError> {
        self.take("--access")
            .map(|value| match is_name(&value) {
                true => Ok(AccessArg::Named(value)),
                false => swizzle_syntax::access_pattern(&value)
                    .map(AccessArg::Spec)
                    .map_err(|errors| {
                        let shown = render(&errors, Path::new("--access"), &value);
                        let shown = shown.trim_end().trim_start_matches("error: ");
                        UsageError(format!("--access: {shown}"))
                    }),
            })
            .transpose()
    }

    fn banks(&mut self) -> Result<Option<Banks>, UsageError> {
        self.take("--banks")
            .map(|value| banks(&value).map_err(UsageError))
            .transpose()
    }
}

/// Parses `COUNTxWIDTH`: that many banks of that many bytes.
fn banks(spec: &str) -> Result<Banks, String> {
    let invalid = || format!("expected banks as COUNTxWIDTH_BYTES (e.g. 32x4), found `{spec}`");
    let (count, width) = spec.split_once(['x', 'X']).ok_or_else(invalid)?;
    let positive = |text: &str| text.parse::<usize>().ok().filter(|&n| n > 0);
    Ok(Banks {
        count: positive(count).ok_or_else(invalid)?,
        width_bytes: positive(width).ok_or_else(invalid)?,
    })
}

/// Whether `value` is an identifier, the name of an item of the file.
fn is_name(value: &str) -> bool {
    value.starts_with(|c: char| c.is_alphabetic() || c == '_')
        && value.chars().all(|c| c.is_alphanumeric() || c == '_')
}
