//! The file a layout command reads: its layouts, accesses and traversals, found by name
//! with errors that say what the file holds instead.

use super::coloring::AccessArg;
use crate::Failure;
use std::path::Path;
use swizzle_core::analysis::{Access, Banks};
use swizzle_syntax::items::access::CheckedAccess;
use swizzle_syntax::items::layout::Checked;
use swizzle_syntax::{NamedTraversal, Source};

/// Reads and checks the layouts of `file` (`-`: standard input); a file that does not parse
/// or check fails with every error, located.
pub fn load(file: &Path) -> Result<Source, Failure> {
    let bytes = match file == Path::new("-") {
        true => {
            let mut bytes = Vec::new();
            std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut bytes).map(|_| bytes)
        }
        false => std::fs::read(file),
    }
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
    .map_err(|errors| Failure::Parse(crate::diagnostics::render(&errors, file, &text)))?;
    if source.layouts.is_empty() {
        return Err(Failure::Input(format!(
            "{} holds no layout",
            file.display()
        )));
    }
    Ok(source)
}

/// The access `--access` means, and the banks a named one declares.
pub fn resolve(
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
pub fn traversal<'a>(
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
pub fn select<'a>(
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
pub fn find(layouts: &[Checked], name: &str, file: &Path) -> Result<usize, Failure> {
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
