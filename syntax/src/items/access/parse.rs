//! `access Name { statements }`, each statement parsed on its own.

use super::{AccessItem, AccessStmt, AccessStmtKind};
use crate::errors::Errors;
use crate::items::Head;
use crate::parse::{braced_body, expect_end, parse_expr, split_statements};
use proc_macro2::TokenStream;
use syn::parse::{ParseStream, Parser};
use syn::{Ident, Token, parenthesized};

pub mod kw {
    syn::custom_keyword!(access);
    syn::custom_keyword!(along);
}

/// `access Name { statements }`.
pub fn parse(head: Head, input: ParseStream, errors: &mut Errors) -> syn::Result<AccessItem> {
    input.parse::<kw::access>()?;
    let (name, tokens) = braced_body(input)?;
    let Head { attrs, vis } = head;
    Ok(AccessItem {
        attrs,
        vis,
        name,
        body: parse_body(tokens, errors),
    })
}

/// The statements of an access body, each parsed on its own.
fn parse_body(tokens: TokenStream, errors: &mut Errors) -> Vec<AccessStmt> {
    split_statements(tokens, errors)
        .into_iter()
        .filter_map(|tokens| match parse_stmt.parse2(tokens.clone()) {
            Ok(kind) => Some(AccessStmt { kind, tokens }),
            Err(error) => {
                errors.push(error);
                None
            }
        })
        .collect()
}

/// `lanes n;`, `bytes n;`, `vector n (along c)?;`, `banks (count, width);`,
/// `const NAME = expr;` or `coordinate = expr;` (an expression of `lane`).
fn parse_stmt(input: ParseStream) -> syn::Result<AccessStmtKind> {
    const FORMS: &str = "`lanes n;`, `bytes n;`, `vector n;`, `vector n along c;`, \
        `banks (count, width);`, `const NAME = expr;` or `coordinate = expression of lane;`";
    let kind = if input.peek(Token![const]) {
        input.parse::<Token![const]>()?;
        let name = input.parse()?;
        input.parse::<Token![=]>()?;
        AccessStmtKind::Const {
            name,
            value: parse_expr(input)?,
        }
    } else {
        let word: Ident = input
            .parse()
            .map_err(|e| syn::Error::new(e.span(), format!("expected {FORMS}")))?;
        if input.peek(Token![=]) {
            input.parse::<Token![=]>()?;
            AccessStmtKind::Coord {
                name: word,
                value: parse_expr(input)?,
            }
        } else {
            match word.to_string().as_str() {
                "lanes" => AccessStmtKind::Lanes(parse_expr(input)?),
                "bytes" => AccessStmtKind::Bytes(parse_expr(input)?),
                "vector" => {
                    let len = parse_expr(input)?;
                    let along = if input.peek(kw::along) {
                        input.parse::<kw::along>()?;
                        Some(input.parse()?)
                    } else {
                        None
                    };
                    AccessStmtKind::Vector { len, along }
                }
                "banks" => {
                    let content;
                    parenthesized!(content in input);
                    let count = parse_expr(&content)?;
                    content.parse::<Token![,]>()?;
                    let width = parse_expr(&content)?;
                    expect_end(&content)?;
                    AccessStmtKind::Banks { count, width }
                }
                other => {
                    return Err(syn::Error::new(
                        word.span(),
                        format!("unknown access statement `{other}`: expected {FORMS}"),
                    ));
                }
            }
        }
    };
    if !input.peek(Token![;]) {
        return Err(input.error("expected `;` at the end of this statement"));
    }
    input.parse::<Token![;]>()?;
    expect_end(input)?;
    Ok(kind)
}
