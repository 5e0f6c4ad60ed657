//! `swizzle-core`: everything behind the `layout!` macro, as plain functions testable
//! without rustc. Data flows one way: tokens → [`ast`] → checked [`ir`] → canonical form →
//! code. The reference [`interp`]reter evaluates the IR exactly as DESIGN.md §2 defines it.

pub mod analysis;
pub mod ast;
pub mod canon;
pub mod check;
pub mod code;
mod consts;
mod errors;
mod expand;
pub mod f2;
pub mod interp;
pub mod ir;
mod network;
mod parse;
pub mod picture;
pub mod sym;
mod table;

pub use errors::Errors;
pub use interp::CoordError;

use proc_macro2::TokenStream;

/// The expansion of a `layout!` invocation: the items of every layout that checks, stubs
/// for those that do not, and every error, all at once.
pub fn expand(input: TokenStream) -> TokenStream {
    let mut errors = Errors::default();
    let invocation = parse::parse_invocation(input, &mut errors);
    let mut output = TokenStream::new();
    for item in &invocation.items {
        let checked = check::check(item, &mut errors);
        let expansion = checked
            .as_ref()
            .and_then(|checked| expand::Expansion::new(item, checked, &mut errors));
        output.extend(match expansion {
            Some(expansion) => expansion.to_tokens(),
            None => expand::stub(item),
        });
    }
    output.extend(errors.into_compile_errors());
    output
}

/// Parses and checks layouts given as text (the same language as inside `layout! { }`).
pub fn layouts(source: &str) -> syn::Result<Vec<check::Checked>> {
    let tokens: TokenStream = source
        .parse()
        .map_err(|e: proc_macro2::LexError| syn::Error::new(e.span(), e))?;
    let mut errors = Errors::default();
    let invocation = parse::parse_invocation(tokens, &mut errors);
    let checked = invocation
        .items
        .iter()
        .filter_map(|item| check::check(item, &mut errors))
        .collect();
    errors.finish().map(|()| checked)
}
