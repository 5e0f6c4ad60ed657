//! `swizzle`: pictures and analyses of layouts written as text, read with the same parser as
//! the `layout!` macro, so that the command line and the compiler always agree.
//!
//! Exit codes: 0 on success, 1 when the input is wrong (a file that does not read or parse,
//! an unknown layout or traversal, an access or traversal that does not fit the layout, a
//! texture file of the wrong length or a surface its platform does not tile), 2
//! when the command line is.

mod args;
mod diagnostics;
mod texture;

use args::{AccessArg, Command, HELP, PathArg, USAGE, UsageError};
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use swizzle_core::analysis::{Access, Banks};
use swizzle_core::picture::{self, PictureError};
use swizzle_core::report;
use swizzle_syntax::check::{Checked, CheckedAccess};
use swizzle_syntax::{NamedTraversal, Source};

/// Why a command failed.
pub(crate) enum Failure {
    /// The command line is wrong: exit 2 with the usage.
    Usage(String),
    /// The input is wrong: exit 1 with the message.
    Input(String),
    /// The file does not parse or check: exit 1 with the rendered diagnostics.
    Parse(String),
}

impl From<UsageError> for Failure {
    fn from(UsageError(message): UsageError) -> Self {
        Failure::Usage(message)
    }
}

fn main() -> ExitCode {
    let result = args::parse(std::env::args_os().skip(1))
        .map_err(Failure::from)
        .and_then(run);
    let (stdout, stderr, code) = match result {
        Ok(output) => (output, String::new(), 0),
        Err(Failure::Usage(message)) => (String::new(), format!("error: {message}\n{USAGE}\n"), 2),
        Err(Failure::Input(message)) => (String::new(), format!("error: {message}\n"), 1),
        Err(Failure::Parse(diagnostics)) => (String::new(), diagnostics, 1),
    };
    // A closed pipe (`swizzle show big.layout | head`) is not an error worth a panic.
    let _ = std::io::stdout().write_all(stdout.as_bytes());
    let _ = std::io::stderr().write_all(stderr.as_bytes());
    ExitCode::from(code)
}

/// Runs a command; its output for standard output.
fn run(command: Command) -> Result<String, Failure> {
    match command {
        Command::Help => Ok(format!("{USAGE}\n\n{HELP}")),
        Command::Texture { action, surface } => texture::run(action, surface),
        Command::Show {
            file,
            layout,
            banks,
            element_bytes,
        } => {
            let source = load(&file)?;
            let chosen: Vec<usize> = match layout {
                Some(name) => vec![find(&source.layouts, &name, &file)?],
                None => (0..source.layouts.len()).collect(),
            };
            let mut shown = Vec::with_capacity(chosen.len());
            source.shown(&chosen, |index, facts| {
                let checked = &source.layouts[index];
                let mut text = report::show_with(&checked.descriptor, facts, banks, element_bytes);
                if let Some(threads) = checked.thread_values() {
                    text.push_str(&report::threads(&threads));
                }
                shown.push(text);
            });
            Ok(shown.join("\n"))
        }
        Command::Analyze {
            file,
            layout,
            access,
            banks,
            line_bytes,
        } => {
            let source = load(&file)?;
            let checked = select(&source.layouts, layout.as_deref(), &file)?;
            let (access, declared) = resolve(access, &source, &file)?;
            let banks = banks.or(declared).unwrap_or_default();
            report::analyze(&checked.descriptor, &access, banks, line_bytes).map_err(Failure::Input)
        }
        Command::Svg {
            file,
            layout,
            coloring,
            path,
            output,
        } => {
            let source = load(&file)?;
            let (path, traversal) = match path {
                None => (None, None),
                Some(PathArg::Memory) => (Some(picture::Path::MemoryOrder), None),
                Some(PathArg::Traversal(name)) => {
                    let traversal = traversal(&source, &name, &file)?;
                    let sfc = traversal.checked.sfc.clone();
                    (Some(picture::Path::Traversal(sfc)), Some(traversal))
                }
            };
            // A traversal over a layout is drawn over that layout unless told otherwise.
            let walked = traversal.and_then(|t| t.checked.over.as_ref().map(|o| o.to_string()));
            let layout = layout.or(walked);
            let checked = select(&source.layouts, layout.as_deref(), &file)?;
            let threads = checked.thread_values();
            let by_thread = coloring.by_thread(threads.is_some());
            let coloring = coloring.resolve(|access| resolve(access, &source, &file))?;
            let descriptor = &checked.descriptor;
            let svg = match (&path, threads.filter(|_| by_thread)) {
                (None, Some(threads)) => picture::thread_svg(&threads),
                (Some(_), Some(_)) => {
                    return Err(Failure::Input(
                        "a thread-value picture draws no path: leave out --path, or colour \
                         by bank or lane"
                            .to_owned(),
                    ));
                }
                (_, None) if by_thread => {
                    return Err(Failure::Input(format!(
                        "`{}` is a layout, not a thread-value layout: --color thread draws \
                         `threads` items",
                        descriptor.name
                    )));
                }
                (Some(path), None) => picture::svg_with_path(descriptor, &coloring, path),
                (None, None) => picture::svg(descriptor, &coloring),
            }
            .map_err(|error| match (traversal, &error) {
                (Some(traversal), PictureError::TraversalShape { .. }) => Failure::Input(format!(
                    "cannot draw traversal `{}` over layout `{}`: {error}",
                    traversal.name, descriptor.name
                )),
                _ => Failure::Input(error.to_string()),
            })?;
            match output.filter(|path| path != Path::new("-")) {
                None => Ok(svg),
                Some(path) => {
                    std::fs::write(&path, svg).map_err(|e| {
                        Failure::Input(format!("cannot write {}: {e}", path.display()))
                    })?;
                    Ok(format!("wrote {}\n", path.display()))
                }
            }
        }
    }
}

/// Reads and checks the layouts of `file`; a file that does not parse or check fails with
/// every error, located.
fn load(file: &Path) -> Result<Source, Failure> {
    let bytes = std::fs::read(file)
        .map_err(|e| Failure::Input(format!("cannot read {}: {e}", file.display())))?;
    let text = String::from_utf8(bytes).map_err(|error| {
        // Where the text stops being UTF-8, as a line and a column of the valid part.
        let valid = &error.as_bytes()[..error.utf8_error().valid_up_to()];
        let valid = std::str::from_utf8(valid).unwrap_or_default();
        let line = valid.matches('\n').count() + 1;
        let column = valid
            .rsplit('\n')
            .next()
            .map_or(0, |last| last.chars().count())
            + 1;
        Failure::Parse(format!(
            "error: this byte is not UTF-8 text: layout files are UTF-8\n --> {}:{line}:{column}\n",
            file.display()
        ))
    })?;
    // A Rust file: the layouts of its `layout! { .. }` invocations.
    let source = match file.extension().is_some_and(|e| e == "rs") {
        true => swizzle_syntax::rust_source(&text),
        false => swizzle_syntax::source(&text),
    }
    .map_err(|errors| Failure::Parse(diagnostics::render(&errors, file, &text)))?;
    if source.layouts.is_empty() {
        return Err(Failure::Input(format!(
            "{} holds no layout",
            file.display()
        )));
    }
    Ok(source)
}

/// The access `--access` means, and the banks a named one declares.
fn resolve(
    access: AccessArg,
    source: &Source,
    file: &Path,
) -> Result<(Access, Option<Banks>), Failure> {
    let name = match access {
        AccessArg::Spec(checked) => return Ok(declared(&checked)),
        AccessArg::Named(name) => name,
    };
    let found = source
        .accesses
        .iter()
        .find(|checked| checked.access.name == name);
    let found = found.ok_or_else(|| {
        let held: Vec<&str> = source
            .accesses
            .iter()
            .map(|a| a.access.name.as_str())
            .collect();
        Failure::Input(format!(
            "{} holds no access `{name}`; its accesses: {}",
            file.display(),
            listing(&held)
        ))
    })?;
    Ok(declared(found))
}

/// An access and the banks it declares (32 of 4 bytes where it declares none).
fn declared(checked: &CheckedAccess) -> (Access, Option<Banks>) {
    let (count, width_bytes) = checked.banks;
    (checked.access.clone(), Some(Banks { count, width_bytes }))
}

/// The traversal item named `name`.
fn traversal<'a>(
    source: &'a Source,
    name: &str,
    file: &Path,
) -> Result<&'a NamedTraversal, Failure> {
    source
        .traversals
        .iter()
        .find(|traversal| traversal.name == name)
        .ok_or_else(|| {
            let held: Vec<&str> = source.traversals.iter().map(|t| t.name.as_str()).collect();
            Failure::Input(format!(
                "{} holds no traversal `{name}`; its traversals: {}",
                file.display(),
                listing(&held)
            ))
        })
}

/// `A, B`, or `none`.
fn listing(names: &[&str]) -> String {
    if names.is_empty() {
        "none".to_owned()
    } else {
        names.join(", ")
    }
}

/// The layout named `name`, or the only one when no name is given.
fn select<'a>(
    layouts: &'a [Checked],
    name: Option<&str>,
    file: &Path,
) -> Result<&'a Checked, Failure> {
    match (name, layouts) {
        (Some(name), _) => find(layouts, name, file).map(|index| &layouts[index]),
        (None, [only]) => Ok(only),
        (None, _) => Err(Failure::Usage(format!(
            "{} holds several layouts ({}): choose one with --layout NAME",
            file.display(),
            names(layouts)
        ))),
    }
}

/// The index of the layout named `name`.
fn find(layouts: &[Checked], name: &str, file: &Path) -> Result<usize, Failure> {
    layouts
        .iter()
        .position(|checked| checked.descriptor.name == name)
        .ok_or_else(|| {
            Failure::Input(format!(
                "{} holds no layout `{name}`; it holds {}",
                file.display(),
                names(layouts)
            ))
        })
}

/// `A, B and C`.
fn names(layouts: &[Checked]) -> String {
    let names: Vec<String> = layouts
        .iter()
        .map(|checked| format!("`{}`", checked.descriptor.name))
        .collect();
    match names.split_last() {
        Some((last, init)) if !init.is_empty() => format!("{} and {last}", init.join(", ")),
        _ => names.concat(),
    }
}
