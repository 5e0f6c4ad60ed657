//! `traversal Name = sfc(arguments);`: a space-filling curve over a tensor or a layout's
//! coordinates (docs/semantics.md §4), which kernels may walk.

mod check;
mod expand;
mod parse;

pub use check::CheckedTraversal;
pub(crate) use expand::sfc_value;

use super::{Head, ItemKind, Named, Scope, View, layout};
use crate::ast::Expr;
use crate::errors::{Errors, Reported};
use proc_macro2::TokenStream;
use syn::parse::ParseStream;
use syn::{Attribute, Ident, Visibility};

/// `/// docs  pub traversal Name = sfc(arguments);`.
pub struct TraversalItem {
    pub attrs: Vec<Attribute>,
    pub vis: Visibility,
    pub name: Ident,
    /// The `sfc` keyword, for errors about the whole curve.
    pub keyword: Ident,
    pub args: Vec<SfcArg>,
}

/// One argument of `sfc(...)`, with the word that introduced it.
pub struct SfcArg {
    pub keyword: Ident,
    pub kind: SfcArgKind,
}

pub enum SfcArgKind {
    /// `lengths [exprs]`: the tensor's lengths.
    Lengths(Vec<Expr>),
    /// `over Layout`: the lengths are the coordinates of a layout of this invocation.
    Over(Ident),
    /// `order [dims]`: dim indices (or coordinate names of the layout walked), outermost first.
    Order(Vec<Expr>),
    /// `vector [exprs]`: scalars per access along each dim.
    Vector(Vec<Expr>),
    /// `snake`, `snake = true` or `snake = false`.
    Snake(Option<syn::LitBool>),
}

/// The kind of `traversal` items.
pub struct Kind;

impl Kind {
    /// The layout `traversal` walks, if it walks one that passed every check.
    fn walked<'c>(traversal: &CheckedTraversal, scope: &Scope<'c>) -> Option<&'c layout::Checked> {
        scope.get::<layout::Kind>(&traversal.over.as_ref()?.to_string())
    }
}

impl ItemKind for Kind {
    type Item = TraversalItem;
    type Checked<'c> = CheckedTraversal;
    const FORMS: &'static [&'static str] = &["`traversal Name = sfc(...);`"];

    fn starts(input: ParseStream) -> bool {
        input.peek(parse::kw::traversal)
    }

    fn parse(head: Head, input: ParseStream, errors: &mut Errors) -> syn::Result<TraversalItem> {
        parse::parse(head, input, errors)
    }

    fn name(item: &TraversalItem) -> &Ident {
        &item.name
    }

    fn check<'c>(
        items: &[&'c TraversalItem],
        scope: &Scope<'c>,
        errors: &mut Errors,
    ) -> Vec<Result<CheckedTraversal, Reported>> {
        items
            .iter()
            .map(|item| check::check(item, scope.of::<layout::Kind>(), errors))
            .collect()
    }

    fn expand(item: &TraversalItem, checked: &CheckedTraversal, scope: &Scope<'_>) -> TokenStream {
        expand::tokens(item, checked, Self::walked(checked, scope))
    }

    fn stub(item: &TraversalItem, scope: &Scope<'_>) -> TokenStream {
        expand::stub(item, check::rank(item, scope.of::<layout::Kind>()))
    }

    fn view<'a>(
        item: &'a TraversalItem,
        checked: &'a CheckedTraversal,
        scope: &Scope<'a>,
    ) -> Option<View<'a>> {
        Some(View::Traversal(item, checked, Self::walked(checked, scope)))
    }
}

/// Kernels read a traversal whole: it is the order they copy tiles in.
impl Named for Kind {
    type Read = CheckedTraversal;

    fn read(checked: &CheckedTraversal) -> &CheckedTraversal {
        checked
    }
}
