//! `kernel Name = pack(Layout, options);`, `unpack(..)` or `copy(From -> To, ..)`: a copy
//! between two layouts over the same coordinates, unrolled over one tile (straight-line
//! code and SIMD rows) and looped over the grid of tiles at run time.

mod check;
mod expand;
mod parse;
pub(crate) mod simd;

pub use check::{CheckedKernel, Direction};

use super::{Head, ItemKind, Scope, View, layout, traversal};
use crate::ast::Expr;
use crate::errors::{Errors, Reported};
use proc_macro2::TokenStream;
use syn::parse::ParseStream;
use syn::{Attribute, Ident, Visibility};

/// `/// docs  pub kernel Name = pack(Layout, options);`.
pub struct KernelItem {
    pub attrs: Vec<Attribute>,
    pub vis: Visibility,
    pub name: Ident,
    /// `pack`, `unpack` or `copy`.
    pub keyword: Ident,
    /// The layout read from; `None` for `pack`, which reads a row-major array.
    pub source: Option<Ident>,
    /// The layout written to; `None` for `unpack`, which writes a row-major array.
    pub destination: Option<Ident>,
    pub options: Vec<KernelOption>,
}

pub enum KernelOption {
    /// `walk Traversal`: the order and vector of the accesses inside a tile.
    Walk { keyword: Ident, traversal: Ident },
    /// `vector n`: the elements each access moves, along the coordinate of the runs.
    Vector { keyword: Ident, len: Expr },
}

/// The kind of `kernel` items other than tiled copies.
pub struct Kind;

impl ItemKind for Kind {
    type Item = KernelItem;
    type Checked<'c> = CheckedKernel<'c>;
    const FORMS: &'static [&'static str] = &["`kernel Name = pack(...);`"];

    fn starts(input: ParseStream) -> bool {
        input.peek(parse::kw::kernel) && !crate::items::tiled_copy::Kind::starts(input)
    }

    fn parse(head: Head, input: ParseStream, _: &mut Errors) -> syn::Result<KernelItem> {
        parse::parse(head, input)
    }

    fn name(item: &KernelItem) -> &Ident {
        &item.name
    }

    fn check<'c>(
        items: &[&'c KernelItem],
        scope: &Scope<'c>,
        errors: &mut Errors,
    ) -> Vec<Result<CheckedKernel<'c>, Reported>> {
        items
            .iter()
            .map(|item| {
                check::check(
                    item,
                    scope.of::<layout::Kind>(),
                    scope.of::<traversal::Kind>(),
                    errors,
                )
            })
            .collect()
    }

    fn expand(item: &KernelItem, checked: &CheckedKernel<'_>, _: &Scope<'_>) -> TokenStream {
        expand::tokens(item, checked)
    }

    fn stub(item: &KernelItem, scope: &Scope<'_>) -> TokenStream {
        expand::stub(item, scope.items)
    }

    fn view<'a>(
        item: &'a KernelItem,
        checked: &'a CheckedKernel<'_>,
        _: &Scope<'a>,
    ) -> Option<View<'a>> {
        Some(View::Kernel(item, checked, expand::doc(checked)))
    }
}
