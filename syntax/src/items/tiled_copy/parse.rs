//! `kernel Name = tiled_copy(From -> To, threads T, options);`.

use super::{CopyClaim, TiledCopyItem, TiledCopyOption};
use crate::items::Head;
use crate::parse::{expect_end, expect_semicolon, parse_expr, parse_options};
use syn::parse::ParseStream;
use syn::{Ident, Token, parenthesized};

/// Whether the item at `input` is `kernel Name = tiled_copy(..)`.
pub fn starts(input: ParseStream) -> bool {
    let fork = input.fork();
    fork.parse::<Ident>().is_ok_and(|word| word == "kernel")
        && fork.parse::<Ident>().is_ok()
        && fork.parse::<Token![=]>().is_ok()
        && fork
            .parse::<Ident>()
            .is_ok_and(|keyword| keyword == "tiled_copy")
}

/// `kernel Name = tiled_copy(From -> To, threads T, options);`.
pub fn parse(head: Head, input: ParseStream) -> syn::Result<TiledCopyItem> {
    const OPTIONS: &str =
        "`threads T`, `vector n`, `subgroup n`, `buffers(source, destination)` or `assert ...`";
    input.parse::<Ident>()?;
    let name: Ident = input.parse()?;
    input.parse::<Token![=]>()?;
    let keyword: Ident = input.parse()?;
    let content;
    parenthesized!(content in input);
    let source: Ident = content.parse()?;
    content.parse::<Token![->]>()?;
    let destination: Ident = content.parse()?;
    let options = parse_options(&content, |option, content| {
        Ok(match option.to_string().as_str() {
            "threads" => TiledCopyOption::Threads {
                keyword: option,
                layout: content.parse()?,
            },
            "vector" => TiledCopyOption::Vector {
                keyword: option,
                len: parse_expr(content)?,
            },
            "subgroup" => TiledCopyOption::Subgroup {
                keyword: option,
                len: parse_expr(content)?,
            },
            "buffers" => {
                let names;
                parenthesized!(names in content);
                let source = names.parse()?;
                names.parse::<Token![,]>()?;
                let destination = names.parse()?;
                expect_end(&names)?;
                TiledCopyOption::Buffers {
                    keyword: option,
                    source,
                    destination,
                }
            }
            "assert" => {
                let (claim, word) = parse_copy_claim(content)?;
                let tokens = quote::quote!(#option #word);
                TiledCopyOption::Assert {
                    keyword: option,
                    claim,
                    tokens,
                }
            }
            other => {
                return Err(syn::Error::new(
                    option.span(),
                    format!("unknown option `{other}` of a tiled copy: expected {OPTIONS}"),
                ));
            }
        })
    })?;
    expect_semicolon(
        input,
        "the kernel: `kernel Name = tiled_copy(image -> Tile, threads T);`",
    )?;
    let Head { attrs, vis } = head;
    Ok(TiledCopyItem {
        attrs,
        vis,
        name,
        keyword,
        source,
        destination,
        options,
    })
}

/// `conflict_free`, `max_conflict(n)` or `transactions(<= n)` after `assert` in a tiled copy.
fn parse_copy_claim(input: ParseStream) -> syn::Result<(CopyClaim, Ident)> {
    let word: Ident = input.parse()?;
    let claim = match word.to_string().as_str() {
        "conflict_free" => Ok(CopyClaim::MaxConflict(None)),
        "max_conflict" => {
            let content;
            parenthesized!(content in input);
            let max = parse_expr(&content)?;
            expect_end(&content)?;
            Ok(CopyClaim::MaxConflict(Some(max)))
        }
        "transactions" => {
            let content;
            parenthesized!(content in input);
            content.parse::<Token![<=]>()?;
            let max = parse_expr(&content)?;
            expect_end(&content)?;
            Ok(CopyClaim::Transactions(max))
        }
        other => Err(syn::Error::new(
            word.span(),
            format!(
                "unknown assertion `{other}` of a tiled copy: expected `conflict_free`, \
                 `max_conflict(n)` or `transactions(<= n)`"
            ),
        )),
    }?;
    Ok((claim, word))
}
