//! `traversal Name = sfc(arguments);`.

use super::{SfcArg, SfcArgKind, TraversalItem};
use crate::errors::Errors;
use crate::items::Head;
use crate::parse::{expect_end, expect_semicolon, parse_exprs};
use proc_macro2::{TokenStream, TokenTree};
use syn::parse::{ParseStream, Parser};
use syn::punctuated::Punctuated;
use syn::{Ident, Token, parenthesized};

pub mod kw {
    syn::custom_keyword!(traversal);
}

/// `traversal Name = sfc(arguments);`. Each argument is parsed on its own, so that one
/// malformed argument does not hide the errors of the others; the item is kept (marked
/// incomplete) so that its uses raise no further errors.
pub fn parse(head: Head, input: ParseStream, errors: &mut Errors) -> syn::Result<TraversalItem> {
    input.parse::<kw::traversal>()?;
    let name: Ident = input.parse()?;
    input.parse::<Token![=]>()?;
    let keyword: Ident = input.parse()?;
    if keyword != "sfc" {
        return Err(syn::Error::new(
            keyword.span(),
            format!(
                "unknown traversal `{keyword}`: write `sfc(lengths [..], order [..], vector [..], snake)`"
            ),
        ));
    }
    let content;
    parenthesized!(content in input);
    let arguments =
        Punctuated::<TokenStream, Token![,]>::parse_terminated_with(&content, |input| {
            input.step(|cursor| {
                let mut tokens = TokenStream::new();
                let mut rest = *cursor;
                while let Some((token, next)) = rest.token_tree() {
                    if matches!(&token, TokenTree::Punct(p) if p.as_char() == ',') {
                        break;
                    }
                    tokens.extend([token]);
                    rest = next;
                }
                Ok((tokens, rest))
            })
        })?;
    let mut args = Vec::new();
    for tokens in arguments {
        match parse_sfc_arg.parse2(tokens.clone()) {
            Ok(arg) => args.push(arg),
            Err(error) => {
                let reported = errors.push(error);
                errors.unparsed(&name, &tokens, reported);
            }
        }
    }
    expect_semicolon(input, "the traversal: `traversal Name = sfc(...);`")?;
    let Head { attrs, vis } = head;
    Ok(TraversalItem {
        attrs,
        vis,
        name,
        keyword,
        args,
    })
}

/// One argument of `sfc(...)`.
fn parse_sfc_arg(input: ParseStream) -> syn::Result<SfcArg> {
    const FORMS: &str = "`lengths [..]`, `over Layout`, `order [..]`, `vector [..]`, `snake` or \
        `snake = false`";
    let keyword: Ident = input
        .parse()
        .map_err(|e| syn::Error::new(e.span(), format!("expected {FORMS}")))?;
    let kind = match keyword.to_string().as_str() {
        "lengths" => SfcArgKind::Lengths(parse_exprs(input)?),
        "over" => SfcArgKind::Over(input.parse()?),
        "order" => SfcArgKind::Order(parse_exprs(input)?),
        "vector" => SfcArgKind::Vector(parse_exprs(input)?),
        "snake" if input.is_empty() => SfcArgKind::Snake(None),
        "snake" => {
            input.parse::<Token![=]>()?;
            SfcArgKind::Snake(Some(input.parse()?))
        }
        other => {
            return Err(syn::Error::new(
                keyword.span(),
                format!("unknown `sfc` argument `{other}`: expected {FORMS}"),
            ));
        }
    };
    expect_end(input)?;
    Ok(SfcArg { keyword, kind })
}
