//! `kernel Name = pack(Layout, options);`, `unpack(Layout, ..)` or `copy(From -> To, ..)`.

use super::{KernelItem, KernelOption};
use crate::items::Head;
use crate::parse::{expect_semicolon, parse_expr, parse_options};
use syn::parse::ParseStream;
use syn::{Ident, Token, parenthesized};

pub mod kw {
    syn::custom_keyword!(kernel);
}

/// `kernel Name = pack(Layout, options);`, `= unpack(Layout, options);` or
/// `= copy(A -> B, options);`.
pub fn parse(head: Head, input: ParseStream) -> syn::Result<KernelItem> {
    const FORMS: &str = "`pack(Layout)`, `unpack(Layout)` or `copy(From -> To)`";
    input.parse::<kw::kernel>()?;
    let name: Ident = input.parse()?;
    input.parse::<Token![=]>()?;
    let keyword: Ident = input
        .parse()
        .map_err(|e| syn::Error::new(e.span(), format!("expected {FORMS}")))?;
    let content;
    parenthesized!(content in input);
    let (source, destination) = match keyword.to_string().as_str() {
        "pack" => (None, Some(content.parse()?)),
        "unpack" => (Some(content.parse()?), None),
        "copy" => {
            let source = content.parse()?;
            content.parse::<Token![->]>()?;
            (Some(source), Some(content.parse()?))
        }
        other => {
            return Err(syn::Error::new(
                keyword.span(),
                format!("unknown kernel `{other}`: expected {FORMS}"),
            ));
        }
    };
    let options = parse_options(&content, |option, content| {
        Ok(match option.to_string().as_str() {
            "walk" => KernelOption::Walk {
                keyword: option,
                traversal: content.parse()?,
            },
            "vector" => KernelOption::Vector {
                keyword: option,
                len: parse_expr(content)?,
            },
            other => {
                return Err(syn::Error::new(
                    option.span(),
                    format!(
                        "unknown kernel option `{other}`: expected `walk Traversal` or `vector n`"
                    ),
                ));
            }
        })
    })?;
    expect_semicolon(input, "the kernel: `kernel Name = pack(Layout);`")?;
    let Head { attrs, vis } = head;
    Ok(KernelItem {
        attrs,
        vis,
        name,
        keyword,
        source,
        destination,
        options,
    })
}
