//! `swizzle-syntax`: the front end of the `layout!` macro, as plain functions testable
//! without rustc. It owns syn: tokens → [`ast`] → [`check`]ed IR (`swizzle_core::ir`) →
//! expansion. Everything after the check — the interpreter, canonical forms, analyses and
//! printers — lives in the syn-free `swizzle-core`, which the runtime shares.

mod assertions;
pub mod ast;
mod auto;
pub mod check;
mod consts;
mod errors;
mod expand;
mod parse;

pub use errors::Errors;
pub use expand::rust::Rust;

use ast::{Invocation, Item};
use proc_macro2::TokenStream;
use std::collections::HashMap;

/// The expansion of a `layout!` invocation: the items of every layout, access, traversal and
/// kernel that checks, stubs for those that do not, and every error, all at once.
pub fn expand(input: TokenStream) -> TokenStream {
    let mut errors = Errors::default();
    let invocation = parse::parse_invocation(input, &mut errors);
    let mut output = TokenStream::new();
    let accesses = check_accesses(&invocation, &mut errors, &mut output);
    // Layouts first, in any order of the items: traversals and kernels name them.
    let mut checked = Vec::new();
    for item in &invocation.items {
        let Item::Layout(layout) = item else { continue };
        let mut layout_checked = check::check(layout, &mut errors);
        let auto = layout_checked
            .as_mut()
            .and_then(|checked| resolve_auto(checked, &accesses, &mut errors));
        checked.push((layout, layout_checked, auto));
    }
    let mut layouts: HashMap<String, Option<&check::Checked>> = HashMap::new();
    for (layout, layout_checked, auto) in &checked {
        let expansion = layout_checked.as_ref().and_then(|checked| {
            expand::Expansion::new(layout, checked, auto.clone(), &accesses, &mut errors)
        });
        let usable = expansion.as_ref().and(layout_checked.as_ref());
        layouts.insert(layout.name.to_string(), usable);
        output.extend(match expansion {
            Some(expansion) => expansion.to_tokens(),
            None => expand::stub(layout),
        });
    }
    let mut walks = Vec::new();
    for item in &invocation.items {
        let Item::Traversal(traversal) = item else {
            continue;
        };
        let walked = check::check_traversal(traversal, &layouts, &mut errors);
        output.extend(match &walked {
            Some(walked) => {
                let layout = walked
                    .over
                    .as_ref()
                    .and_then(|name| layouts[&name.to_string()]);
                expand::traversal(traversal, walked, layout)
            }
            None => expand::traversal_stub(traversal, check::traversal_rank(traversal, &layouts)),
        });
        walks.push((traversal.name.to_string(), walked));
    }
    let traversals = walks
        .iter()
        .map(|(name, walked)| (name.clone(), walked.as_ref()))
        .collect();
    for item in &invocation.items {
        let Item::Kernel(kernel) = item else { continue };
        output.extend(
            match check::check_kernel(kernel, &layouts, &traversals, &mut errors) {
                Some(checked) => expand::kernel(kernel, &checked),
                None => expand::kernel_stub(kernel, &invocation.items),
            },
        );
    }
    output.extend(errors.into_compile_errors());
    output
}

/// Checks the access items (layouts may name them in any order), expanding each.
fn check_accesses(
    invocation: &Invocation,
    errors: &mut Errors,
    output: &mut TokenStream,
) -> HashMap<String, check::CheckedAccess> {
    let mut accesses = HashMap::new();
    for item in &invocation.items {
        let Item::Access(access) = item else { continue };
        match check::check_access(access, errors) {
            Some(checked) => {
                output.extend(expand::access(access, &checked));
                accesses.insert(access.name.to_string(), checked);
            }
            None => output.extend(expand::access_stub(access)),
        }
    }
    accesses
}

/// Chooses the parameters of a layout's `swizzle (auto ...)`, if it has one.
fn resolve_auto(
    checked: &mut check::Checked,
    accesses: &HashMap<String, check::CheckedAccess>,
    errors: &mut Errors,
) -> Option<auto::Choice> {
    let request = checked.auto.as_ref()?;
    auto::resolve(&mut checked.descriptor, request, accesses, errors)
}

/// Layouts, accesses and traversals given as text (the same language as inside
/// `layout! { }`).
pub struct Source {
    /// `swizzle (auto ...)` resolved, assertions not verified.
    pub layouts: Vec<check::Checked>,
    pub accesses: Vec<check::CheckedAccess>,
    pub traversals: Vec<NamedTraversal>,
}

/// A `traversal Name = sfc(..)` item of a [`Source`], checked.
pub struct NamedTraversal {
    pub name: String,
    pub checked: check::CheckedTraversal,
}

/// Parses and checks layouts given as text, as [`source`] does, keeping only the layouts.
pub fn layouts(text: &str) -> syn::Result<Vec<check::Checked>> {
    source(text).map(|source| source.layouts)
}

/// Parses and checks the layouts, accesses and traversals of a text.
pub fn source(text: &str) -> syn::Result<Source> {
    let tokens: TokenStream = text
        .parse()
        .map_err(|e: proc_macro2::LexError| syn::Error::new(e.span(), e))?;
    let mut errors = Errors::default();
    let invocation = parse::parse_invocation(tokens, &mut errors);
    let accesses = check_accesses(&invocation, &mut errors, &mut TokenStream::new());
    let mut layouts = Vec::new();
    // Every layout's name, with its place in `layouts` if it checks.
    let mut names = Vec::new();
    for item in &invocation.items {
        let Item::Layout(layout) = item else { continue };
        let checked = check::check(layout, &mut errors).map(|mut checked| {
            resolve_auto(&mut checked, &accesses, &mut errors);
            layouts.push(checked);
            layouts.len() - 1
        });
        names.push((layout.name.to_string(), checked));
    }
    let walkable = names
        .into_iter()
        .map(|(name, checked)| (name, checked.map(|i| &layouts[i])))
        .collect();
    let walks: Vec<(String, Option<check::CheckedTraversal>)> = invocation
        .items
        .iter()
        .filter_map(|item| match item {
            Item::Traversal(traversal) => Some(traversal),
            _ => None,
        })
        .map(|traversal| {
            let checked = check::check_traversal(traversal, &walkable, &mut errors);
            (traversal.name.to_string(), checked)
        })
        .collect();
    // Kernels are checked for their errors only: the command line draws and analyses
    // layouts and traversals.
    let named = walks
        .iter()
        .map(|(name, checked)| (name.clone(), checked.as_ref()))
        .collect();
    for item in &invocation.items {
        if let Item::Kernel(kernel) = item {
            check::check_kernel(kernel, &walkable, &named, &mut errors);
        }
    }
    let traversals = walks
        .into_iter()
        .filter_map(|(name, checked)| {
            Some(NamedTraversal {
                name,
                checked: checked?,
            })
        })
        .collect();
    // In the order they were written, for listings.
    let mut accesses: Vec<check::CheckedAccess> = accesses.into_values().collect();
    let position = |name: &str| {
        invocation
            .items
            .iter()
            .position(|item| matches!(item, Item::Access(a) if a.name == name))
    };
    accesses.sort_by_key(|access| position(&access.access.name));
    errors.finish().map(|()| Source {
        layouts,
        accesses,
        traversals,
    })
}
