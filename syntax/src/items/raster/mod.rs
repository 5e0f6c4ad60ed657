//! `raster Name = grouped(8);`: the order in which workgroups take the tiles of a grid
//! (`swizzle_core::plans::raster`).

mod check;
mod expand;
mod parse;

use super::{Head, ItemKind, Scope, View};
use crate::ast::Expr;
use crate::errors::{Errors, Reported};
use proc_macro2::TokenStream;
use syn::parse::ParseStream;
use syn::{Attribute, Ident, Visibility};

/// `/// docs  pub raster Name = grouped(8);`.
pub struct RasterItem {
    pub attrs: Vec<Attribute>,
    pub vis: Visibility,
    pub name: Ident,
    /// `row_major`, `snake`, `grouped` or `morton`.
    pub kind: Ident,
    /// The rows per band or the square's side, in parentheses after the kind.
    pub group: Option<Expr>,
}

/// The kind of `raster` items.
pub struct Kind;

impl ItemKind for Kind {
    type Item = RasterItem;
    type Checked<'c> = swizzle_core::plans::raster::Raster;
    const FORMS: &'static [&'static str] = &["`raster Name = grouped(8);`"];

    fn starts(input: ParseStream) -> bool {
        input.peek(parse::kw::raster)
    }

    fn parse(head: Head, input: ParseStream, _: &mut Errors) -> syn::Result<RasterItem> {
        parse::parse(head, input)
    }

    fn name(item: &RasterItem) -> &Ident {
        &item.name
    }

    fn check<'c>(
        items: &[&'c RasterItem],
        _: &Scope<'c>,
        errors: &mut Errors,
    ) -> Vec<Result<Self::Checked<'c>, Reported>> {
        items
            .iter()
            .map(|item| check::check(item, errors))
            .collect()
    }

    fn expand(item: &RasterItem, raster: &Self::Checked<'_>, _: &Scope<'_>) -> TokenStream {
        expand::tokens(item, raster)
    }

    fn stub(item: &RasterItem, _: &Scope<'_>) -> TokenStream {
        expand::stub(item)
    }

    fn view<'a>(
        item: &'a RasterItem,
        raster: &'a Self::Checked<'_>,
        _: &Scope<'a>,
    ) -> Option<View<'a>> {
        Some(View::Raster(item, raster))
    }
}
