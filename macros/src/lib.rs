//! The `layout!` procedural macro: a shim over `swizzle-core`, which holds all the logic.

/// Declares memory layouts as pipelines of coordinate transforms; see the `swizzle` crate.
#[proc_macro]
pub fn layout(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    swizzle_syntax::expand(input.into()).into()
}
