//! What every item kind's expansion prints with: the Rust printer of target-neutral code
//! ([`rust`]), the paths generated code names ([`paths`]), and literals.

pub mod paths;
pub mod rust;

use proc_macro2::Literal;

/// `value` as an unsuffixed literal.
pub fn lit(value: usize) -> Literal {
    Literal::usize_unsuffixed(value)
}

/// The unit struct an item defines: its attributes, a blank doc line, then `doc` (what the
/// macro found out about the item), the derives every item type has, and the struct.
pub fn unit_struct(
    attrs: &[syn::Attribute],
    vis: &syn::Visibility,
    name: &syn::Ident,
    doc: &[String],
) -> proc_macro2::TokenStream {
    quote::quote! {
        #(#attrs)*
        #[doc = ""]
        #(#[doc = #doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        #vis struct #name;
    }
}
