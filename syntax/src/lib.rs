//! `swizzle-syntax`: the front end of the `layout!` macro, as plain functions testable
//! without rustc. It owns syn: tokens → [`ast`] → checked IR (`swizzle_core::ir`; each kind's
//! check is in its folder of [`items`]) → expansion. Everything after the check — the interpreter, canonical forms, analyses and
//! printers — lives in the syn-free `swizzle-core`, which the runtime shares.

pub mod ast;
mod consts;
mod diagnostic;
mod driver;
mod errors;
pub mod items;
mod lex;
mod parse;
mod print;

pub use diagnostic::{Diagnostic, Diagnostics, Place};
pub use errors::Errors;
/// The controls the generated SIMD rows build from each step of a network (the runtime's
/// interpreted networks are tested against them).
#[doc(hidden)]
pub use items::kernel::simd::step_controls;
pub use print::rust::Rust;

pub use items::View;

use errors::Reported;
use items::access::CheckedAccess;
use items::layout::Checked;
use items::traversal::CheckedTraversal;
use items::{ItemKind, Scope, Visit, access, layout, traversal};
use proc_macro2::TokenStream;
use std::collections::HashMap;
use swizzle_core::budget::REQUESTED_ENUMERATION;
use swizzle_core::emit::compose::Form;
use swizzle_core::picture::Cells;
use swizzle_core::report::Shown;

/// The expansion of a `layout!` invocation: the items of every layout, access, traversal and
/// kernel that checks, stubs for those that do not, and every error, all at once.
pub fn expand(input: TokenStream) -> TokenStream {
    let (mut output, errors) = inspect(input, |_| {});
    output.extend(errors.into_compile_errors());
    output
}

/// [`expand`] without the errors' `compile_error!`s, which come back apart; each item that
/// checks is shown to `view` as it is expanded (accesses, layouts, traversals, then the
/// other kinds in the order of the registry, each in the order written).
pub fn inspect(input: TokenStream, view: impl FnMut(View<'_>)) -> (TokenStream, Errors) {
    let mut errors = Errors::default();
    let invocation = items::Invocation::parse(input, &mut errors);
    let mut expansion = Expansion {
        tokens: TokenStream::new(),
        view,
    };
    driver::check(&invocation, &mut errors, &mut expansion);
    (expansion.tokens, errors)
}

/// The macro's use of each checked item: its generated items (or a stub where it has
/// errors), and its view.
struct Expansion<V> {
    tokens: TokenStream,
    view: V,
}

impl<V: FnMut(View<'_>)> Visit for Expansion<V> {
    fn visit<K: ItemKind>(
        &mut self,
        item: &K::Item,
        checked: Result<&K::Checked<'_>, Reported>,
        scope: &Scope<'_>,
    ) {
        self.tokens.extend(match checked {
            Ok(checked) => {
                if let Some(view) = K::view(item, checked, scope) {
                    (self.view)(view);
                }
                K::expand(item, checked, scope)
            }
            Err(_) => K::stub(item, scope),
        });
    }
}

/// Checks for the errors only: the command line draws and analyses the items it reads
/// from the [`Outcome`].
struct ErrorsOnly;

impl Visit for ErrorsOnly {
    fn visit<K: ItemKind>(
        &mut self,
        _: &K::Item,
        _: Result<&K::Checked<'_>, Reported>,
        _: &Scope<'_>,
    ) {
    }
}

/// [`inspect`] of items given as text (the language inside `layout! { }`); a text that does
/// not lex expands to nothing, with its error.
pub fn inspect_text(
    text: &str,
    view: impl FnMut(View<'_>),
) -> (TokenStream, Result<(), Diagnostics>) {
    match lex::lex(text) {
        Ok(tokens) => {
            let (output, errors) = inspect(tokens, view);
            (output, errors.finish().map_err(Diagnostics::from))
        }
        Err(error) => (TokenStream::new(), Err(error.into())),
    }
}

/// Layouts, accesses and traversals given as text (the same language as inside
/// `layout! { }`), checked exactly as the macro checks them.
pub struct Source {
    /// Every check passed: `swizzle (auto ...)` resolved, assertions and `inverse;` verified.
    pub layouts: Vec<Checked>,
    pub accesses: Vec<CheckedAccess>,
    pub traversals: Vec<NamedTraversal>,
    /// The form each layout's verdicts came from, as the driver built it
    /// ([`layout::Verified::form`]), in the order of `layouts`.
    forms: Vec<Form>,
}

impl Source {
    /// What `swizzle show` reports of each of the layouts at `indices` (into `layouts`), in
    /// that order, handed to `each`: the bijectivity the macro's proof gives (as `assert
    /// bijective` decides it, within [`REQUESTED_ENUMERATION`]), and the offsets of its
    /// coordinates, built from its base's ([`Cells::over`]) where it starts `over` a layout
    /// shown before it. Each layout of a chain then costs its own stages alone, however
    /// long the chain; a base's cells are kept until the last layout over it is shown.
    pub fn shown(&self, indices: &[usize], mut each: impl FnMut(usize, &Shown)) {
        let at: HashMap<&str, usize> = (self.layouts.iter().enumerate())
            .map(|(index, checked)| (checked.descriptor.name.as_ref(), index))
            .collect();
        // The base of each layout at `indices`, and how many of them start over each base.
        let base = |index: usize| {
            let over = self.layouts[index].over.as_ref()?;
            Some((
                at.get(over.base.to_string().as_str()).copied()?,
                over.stages,
            ))
        };
        let mut dependents: HashMap<usize, usize> = HashMap::new();
        for (base, _) in indices.iter().filter_map(|&index| base(index)) {
            *dependents.entry(base).or_default() += 1;
        }
        let mut kept: HashMap<usize, Cells> = HashMap::new();
        for &index in indices {
            let descriptor = &self.layouts[index].descriptor;
            let over = base(index);
            let from_base = over.and_then(|(base, stages)| {
                let cells = kept.get(&base)?;
                Cells::over(descriptor, stages, &self.layouts[base].descriptor, cells)
            });
            let shown = Shown {
                bijectivity: self.forms[index].bijectivity(descriptor, REQUESTED_ENUMERATION),
                cells: from_base.unwrap_or_else(|| Cells::new(descriptor)),
            };
            each(index, &shown);
            if let Some((base, _)) = over {
                let left = dependents.entry(base).or_default();
                *left = left.saturating_sub(1);
                if *left == 0 {
                    kept.remove(&base);
                }
            }
            if let (Some(_), Ok(cells)) = (dependents.get(&index), shown.cells) {
                kept.insert(index, cells);
            }
        }
    }
}

/// A `traversal Name = sfc(..)` item of a [`Source`], checked.
pub struct NamedTraversal {
    pub name: String,
    pub checked: CheckedTraversal,
}

/// Parses and checks layouts given as text, as [`source`] does, keeping only the layouts.
pub fn layouts(text: &str) -> Result<Vec<Checked>, Diagnostics> {
    source(text).map(|source| source.layouts)
}

/// Parses and checks the items of a text, with the macro's checks and errors.
pub fn source(text: &str) -> Result<Source, Diagnostics> {
    checked(lex::lex(text)?)
}

/// An access written as the statements of an `access` item's body — `lanes 32; bytes 2;
/// m = lane % 16; k = lane / 16 * 8;` — as the command line takes it (`--access`): parsed
/// and checked by the macro's own parser and checks, with the macro's errors, placed in
/// `text`. The access is named by its text.
pub fn access_pattern(text: &str) -> Result<CheckedAccess, Diagnostics> {
    let body = lex::lex(text)?;
    let mut source = checked(quote::quote!(access inline { #body }))?;
    let mut found = source.accesses.pop().ok_or_else(|| {
        syn::Error::new(
            proc_macro2::Span::call_site(),
            "expected the statements of an access body, e.g. `lanes 32; bytes 4; m = lane % 16;`",
        )
    })?;
    found.access.name = text.trim().to_owned();
    Ok(found)
}

/// Parses and checks the items of every `layout! { .. }` invocation in a Rust source file,
/// as one invocation (in file order), with the macro's checks and errors located in the
/// file: what the command line reads from a `.rs` file.
pub fn rust_source(text: &str) -> Result<Source, Diagnostics> {
    let mut items = TokenStream::new();
    invocations(lex::lex(text)?, &mut items);
    checked(items)
}

/// Appends the tokens inside each `layout! { .. }` (any path ending in `layout`) of
/// `tokens`, at any depth, to `into`.
fn invocations(tokens: TokenStream, into: &mut TokenStream) {
    use proc_macro2::{Delimiter, TokenTree};
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    for (i, tree) in trees.iter().enumerate() {
        let TokenTree::Group(group) = tree else {
            continue;
        };
        let invoked = match &trees[..i] {
            [.., TokenTree::Ident(name), TokenTree::Punct(bang)] => {
                name == "layout" && bang.as_char() == '!'
            }
            _ => false,
        };
        match invoked && group.delimiter() == Delimiter::Brace {
            true => into.extend(group.stream()),
            false => invocations(group.stream(), into),
        }
    }
}

/// Parses and checks the items of one invocation's tokens.
fn checked(tokens: TokenStream) -> Result<Source, Diagnostics> {
    let mut errors = Errors::default();
    let invocation = items::Invocation::parse(tokens, &mut errors);
    let mut outcome = driver::check(&invocation, &mut errors, &mut ErrorsOnly);
    let traversals = (outcome.take::<traversal::Kind>().into_iter())
        .filter_map(|(item, checked)| {
            Some(NamedTraversal {
                name: item.name.to_string(),
                checked: checked.ok()?,
            })
        })
        .collect();
    let (layouts, forms) = (outcome.take::<layout::Kind>().into_iter())
        .filter_map(|(_, verified)| verified.ok())
        .map(|verified| (verified.checked, verified.form))
        .unzip();
    let source = Source {
        layouts,
        forms,
        accesses: (outcome.take::<access::Kind>().into_iter())
            .filter_map(|(_, checked)| checked.ok())
            .collect(),
        traversals,
    };
    errors.finish().map(|()| source).map_err(Diagnostics::from)
}
