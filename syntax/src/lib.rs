//! `swizzle-syntax`: the front end of the `layout!` macro, as plain functions testable
//! without rustc. It owns syn: tokens → [`ast`] → [`check`]ed IR (`swizzle_core::ir`) →
//! expansion. Everything after the check — the interpreter, canonical forms, analyses and
//! printers — lives in the syn-free `swizzle-core`, which the runtime shares.

mod assertions;
pub mod ast;
mod auto;
pub mod check;
mod consts;
mod driver;
mod errors;
mod expand;
mod lex;
mod parse;

pub use errors::Errors;
pub use expand::rust::Rust;
/// The controls the generated SIMD rows build from each step of a network (the runtime's
/// interpreted networks are tested against them).
#[doc(hidden)]
pub use expand::simd::step_controls;

pub use driver::{Outcome, Verified};

use proc_macro2::TokenStream;

/// The expansion of a `layout!` invocation: the items of every layout, access, traversal and
/// kernel that checks, stubs for those that do not, and every error, all at once.
pub fn expand(input: TokenStream) -> TokenStream {
    let (mut output, errors) = inspect(input, |_| {});
    output.extend(errors.into_compile_errors());
    output
}

/// One item that passed every check, as the driver checked it: what a tool that shows more
/// than the expansion (the playground) reads, from the same pass that expands it.
pub enum View<'a> {
    Access(&'a ast::AccessItem, &'a check::CheckedAccess),
    Layout(&'a ast::LayoutItem, &'a Verified),
    /// With the layout it walks, if it walks one.
    Traversal(
        &'a ast::TraversalItem,
        &'a check::CheckedTraversal,
        Option<&'a check::Checked>,
    ),
    Raster(&'a ast::RasterItem, &'a swizzle_core::plans::raster::Raster),
    /// With the rustdoc lines of its type: the plan of a tile's copy.
    Kernel(
        &'a ast::KernelItem,
        &'a check::CheckedKernel<'a>,
        Vec<String>,
    ),
    /// With the rustdoc lines of its type: each instruction's conflicts or transactions.
    TiledCopy(
        &'a ast::TiledCopyItem,
        &'a check::CheckedTiledCopy<'a>,
        Vec<String>,
    ),
}

/// [`expand`] without the errors' `compile_error!`s, which come back apart; each item that
/// checks is shown to `view` (kernels and tiled copies as they are checked, then accesses,
/// layouts, traversals and rasters, each in the order written).
pub fn inspect(input: TokenStream, view: impl FnMut(View<'_>)) -> (TokenStream, Errors) {
    // Kernels and tiled copies are shown from the driver's callbacks, the others after it.
    let view = std::cell::RefCell::new(view);
    let show = |shown: View<'_>| (view.borrow_mut())(shown);
    let mut errors = Errors::default();
    let invocation = parse::parse_invocation(input, &mut errors);
    // Kernels come last in the expansion, as they do in `cargo expand`'s reading order.
    let mut kernels = TokenStream::new();
    let mut copies = TokenStream::new();
    let outcome = driver::check(
        &invocation,
        &mut errors,
        |item, checked| {
            kernels.extend(match checked {
                Ok(checked) => {
                    show(View::Kernel(item, checked, expand::kernel_doc(checked)));
                    expand::kernel(item, checked)
                }
                Err(_) => expand::kernel_stub(item, &invocation.items),
            });
        },
        |item, checked| {
            copies.extend(match checked {
                Ok(checked) => {
                    show(View::TiledCopy(
                        item,
                        checked,
                        expand::tiled_copy_doc(checked),
                    ));
                    expand::tiled_copy(item, checked)
                }
                Err(_) => expand::tiled_copy_stub(item),
            });
        },
    );
    let mut output = TokenStream::new();
    for (item, checked) in &outcome.accesses {
        output.extend(match checked {
            Ok(checked) => {
                show(View::Access(item, checked));
                expand::access(item, checked)
            }
            Err(_) => expand::access_stub(item),
        });
    }
    for (item, verified) in &outcome.layouts {
        output.extend(match verified {
            Ok(verified) => {
                show(View::Layout(item, verified));
                expand::Expansion::new(item, verified).to_tokens()
            }
            Err(_) => expand::stub(item),
        });
    }
    for (item, checked, rank) in &outcome.traversals {
        output.extend(match checked {
            Ok(checked) => {
                let walked = checked.over.as_ref().and_then(|name| {
                    outcome
                        .layout(&name.to_string())
                        .map(|verified| &verified.checked)
                });
                show(View::Traversal(item, checked, walked));
                expand::traversal(item, checked, walked)
            }
            Err(_) => expand::traversal_stub(item, *rank),
        });
    }
    for (item, checked) in &outcome.rasters {
        output.extend(match checked {
            Ok(raster) => {
                show(View::Raster(item, raster));
                expand::raster(item, raster)
            }
            Err(_) => expand::raster_stub(item),
        });
    }
    output.extend(kernels);
    output.extend(copies);
    (output, errors)
}

/// [`inspect`] of items given as text (the language inside `layout! { }`); a text that does
/// not lex expands to nothing, with its error.
pub fn inspect_text(text: &str, view: impl FnMut(View<'_>)) -> (TokenStream, syn::Result<()>) {
    match lex::lex(text) {
        Ok(tokens) => {
            let (output, errors) = inspect(tokens, view);
            (output, errors.finish())
        }
        Err(error) => (TokenStream::new(), Err(error)),
    }
}

/// Layouts, accesses and traversals given as text (the same language as inside
/// `layout! { }`), checked exactly as the macro checks them.
pub struct Source {
    /// Every check passed: `swizzle (auto ...)` resolved, assertions and `inverse;` verified.
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

/// Parses and checks the items of a text, with the macro's checks and errors.
pub fn source(text: &str) -> syn::Result<Source> {
    checked(lex::lex(text)?)
}

/// Parses and checks the items of every `layout! { .. }` invocation in a Rust source file,
/// as one invocation (in file order), with the macro's checks and errors located in the
/// file: what the command line reads from a `.rs` file.
pub fn rust_source(text: &str) -> syn::Result<Source> {
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
fn checked(tokens: TokenStream) -> syn::Result<Source> {
    let mut errors = Errors::default();
    let invocation = parse::parse_invocation(tokens, &mut errors);
    // Kernels are checked for their errors only: the command line draws and analyses
    // layouts and traversals.
    let outcome = driver::check(&invocation, &mut errors, |_, _| {}, |_, _| {});
    let traversals = outcome
        .traversals
        .into_iter()
        .filter_map(|(item, checked, _)| {
            Some(NamedTraversal {
                name: item.name.to_string(),
                checked: checked.ok()?,
            })
        })
        .collect();
    let source = Source {
        layouts: outcome
            .layouts
            .into_iter()
            .filter_map(|(_, verified)| Some(verified.ok()?.checked))
            .collect(),
        accesses: outcome
            .accesses
            .into_iter()
            .filter_map(|(_, checked)| checked.ok())
            .collect(),
        traversals,
    };
    errors.finish().map(|()| source)
}
