//! The one driver: every check of an invocation, in one order, for every consumer. The macro
//! expands what it reports, and the command line and [`crate::source`] read from it, so that
//! a layout the macro rejects (`inverse;` on a layout that is not a bijection, a failed
//! `assert`) is rejected everywhere with the same message. It knows no kind of item: which
//! kinds there are, and in which order they are checked, is the list in [`crate::items`].

use crate::errors::Errors;
use crate::items::{self, Invocation, Item, Outcome, Visit};
use std::collections::HashSet;

/// Checks `invocation` completely, with every error in `errors`, and hands each item to
/// `visit` once it is checked: first the kinds that other items name, whatever the order of
/// the items, each against those before it, then every other kind against them
/// ([`items::check`]). An item whose name is not its own is reported and left out.
pub fn check<'i>(
    invocation: &'i Invocation,
    errors: &mut Errors,
    visit: &mut impl Visit,
) -> Outcome<'i> {
    let items = distinct(&invocation.items, errors);
    items::check(&invocation.items, &items, errors, visit)
}

/// The items whose names are their own. Every item defines a type of its name, so a second
/// item of a name, or an item named after a primitive type (which the generated code names),
/// is an error on its name and is left out of the check and the expansion, instead of
/// dozens of rustc errors about the clash.
fn distinct<'i>(items: &'i [Item], errors: &mut Errors) -> Vec<&'i Item> {
    let mut seen = HashSet::new();
    items
        .iter()
        .filter(|item| {
            let name = item.name();
            let text = name.to_string();
            if PRIMITIVES.contains(&text.as_str()) {
                errors.error(
                    name,
                    format!(
                        "`{name}` is a primitive type, which the generated code uses: name the \
                         item otherwise"
                    ),
                );
                return false;
            }
            let fresh = seen.insert(text);
            if !fresh {
                errors.error(
                    name,
                    format!("`{name}` is already defined in this invocation: rename one of them"),
                );
            }
            fresh
        })
        .collect()
}

/// Rust's primitive types: an item of one of these names would shadow it.
const PRIMITIVES: &[&str] = &[
    "bool", "char", "str", "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64",
    "i128", "isize", "f16", "f32", "f64", "f128",
];
