//! `raster Name = kind;` or `raster Name = kind(group);`.

use super::RasterItem;
use crate::items::Head;
use crate::parse::parse_expr;
use syn::parse::ParseStream;
use syn::{Ident, Token};

pub mod kw {
    syn::custom_keyword!(raster);
}

/// `raster Name = kind;` or `raster Name = kind(group);`.
pub fn parse(head: Head, input: ParseStream) -> syn::Result<RasterItem> {
    input.parse::<kw::raster>()?;
    let name: Ident = input.parse()?;
    input.parse::<Token![=]>()?;
    let kind: Ident = input.parse()?;
    let group = match input.peek(syn::token::Paren) {
        true => {
            let content;
            syn::parenthesized!(content in input);
            Some(content.call(parse_expr)?)
        }
        false => None,
    };
    if !input.peek(Token![;]) {
        return Err(input.error(
            "expected `;` after the order: `raster Name = row_major;`, `snake;`, \
             `grouped(n);` or `morton(n);`",
        ));
    }
    input.parse::<Token![;]>()?;
    let Head { attrs, vis } = head;
    Ok(RasterItem {
        attrs,
        vis,
        name,
        kind,
        group,
    })
}
