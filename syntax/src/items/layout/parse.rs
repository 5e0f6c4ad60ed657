//! `layout Name { statements }` and `threads Name { statements }`: each statement of the
//! body parsed on its own (split at its `;`), so that one malformed statement does not hide
//! the errors of the others.

use super::{Assertion, LayoutItem, Stage, Stmt, StmtKind, Upper};
use crate::ast::{DimDecl, Expr};
use crate::errors::Errors;
use crate::items::Head;
use crate::parse::{
    braced_body, expect_end, parse_decls, parse_expr, parse_exprs, parse_names, split_statements,
};
use proc_macro2::TokenStream;
use swizzle_core::ir::transform::KEYWORDS as TRANSFORMS;
use syn::parse::{ParseStream, Parser};
use syn::punctuated::Punctuated;
use syn::{Ident, Token, parenthesized};

pub mod kw {
    syn::custom_keyword!(layout);
    syn::custom_keyword!(threads);
    syn::custom_keyword!(auto);
    syn::custom_keyword!(by);
    syn::custom_keyword!(strides);
}

/// Whether the item at `input` is a layout or a thread-value layout.
pub fn starts(input: ParseStream) -> bool {
    input.peek(kw::layout) || input.peek(kw::threads)
}

/// `layout Name { statements }` or `threads Name { statements }`.
pub fn parse(head: Head, input: ParseStream, errors: &mut Errors) -> syn::Result<LayoutItem> {
    let mut threads = None;
    if input.peek(kw::threads) {
        threads = Some(input.parse::<Ident>()?);
    } else {
        input.parse::<kw::layout>()?;
    }
    let (name, tokens) = braced_body(input)?;
    let mut body = Vec::new();
    for statement in split_statements(tokens, errors) {
        let mut pending = Some(statement);
        while let Some(tokens) = pending.take() {
            match parse_stmt.parse2(tokens.clone()) {
                Ok((kind, None)) => body.push(Stmt { kind, tokens }),
                // A missing `;`: keep the statement and go on with the next one.
                Ok((kind, Some((error, rest)))) => {
                    errors.push(error);
                    let all = tokens.clone().into_iter().count();
                    let used = all - rest.clone().into_iter().count();
                    let tokens = tokens.into_iter().take(used).collect();
                    body.push(Stmt { kind, tokens });
                    pending = Some(rest);
                }
                Err(error) => {
                    let reported = errors.statement(&name, error);
                    errors.unparsed(&name, &tokens, reported);
                }
            }
        }
    }
    let Head { attrs, vis } = head;
    Ok(LayoutItem {
        attrs,
        vis,
        threads,
        name,
        body,
    })
}

/// The words that start a statement, to recover from a missing `;` and suggest spellings:
/// the transforms' keywords between the layout's own statements.
fn keywords() -> impl Iterator<Item = &'static str> {
    let head = ["assert", "const", "memory", "over", "tile"];
    head.into_iter()
        .chain(TRANSFORMS.iter().copied())
        .chain(["coords", "threads", "values", "inverse"])
}

/// The statement keywords, for "expected one of" messages.
fn statements() -> String {
    let words: Vec<String> = ["const", "memory", "over"]
        .into_iter()
        .chain(TRANSFORMS.iter().copied())
        .chain(["coords", "inverse"])
        .map(|word| format!("`{word}`"))
        .collect();
    format!("{} or `assert`", words.join(", "))
}

/// One statement. When it is followed by the start of another statement instead of its `;`,
/// returns the error and the tokens of the rest, so that the caller can parse those too.
#[allow(clippy::type_complexity)]
fn parse_stmt(input: ParseStream) -> syn::Result<(StmtKind, Option<(syn::Error, TokenStream)>)> {
    if input.peek(Token![;]) {
        return Err(input.error("stray `;`: remove it"));
    }
    let kind = if input.peek(Token![const]) {
        input.parse::<Token![const]>()?;
        let name = input.parse()?;
        input.parse::<Token![=]>()?;
        StmtKind::Const {
            name,
            value: parse_expr(input)?,
        }
    } else {
        let keyword: Ident = input.parse().map_err(|e| {
            syn::Error::new(e.span(), format!("expected a statement: {}", statements()))
        })?;
        parse_keyword_stmt(keyword, input)?
    };
    if input.peek(Token![;]) {
        input.parse::<Token![;]>()?;
        return Ok((kind, None));
    }
    let next = input
        .fork()
        .parse::<Ident>()
        .ok()
        .map(|ident| ident.to_string())
        .or_else(|| input.peek(Token![const]).then(|| "const".to_owned()))
        .filter(|word| keywords().any(|k| k == word));
    match next {
        Some(word) => {
            let error = input.error(format!(
                "missing `;` before `{word}`: end the previous statement with `;`"
            ));
            Ok((kind, Some((error, input.parse()?))))
        }
        None => Err(input.error("expected `;` to end this statement")),
    }
}

fn parse_keyword_stmt(keyword: Ident, input: ParseStream) -> syn::Result<StmtKind> {
    let stage = match keyword.to_string().as_str() {
        "memory" => {
            let dims = parse_decls(input)?;
            let strides = if input.peek(kw::strides) {
                input.parse::<kw::strides>()?;
                Some(parse_exprs(input)?)
            } else {
                None
            };
            return Ok(StmtKind::Memory { dims, strides });
        }
        "over" => {
            let base = input.parse()?;
            let names = match input.peek(syn::token::Bracket) {
                true => Some(parse_names(input)?),
                false => None,
            };
            return Ok(StmtKind::Over {
                keyword,
                base,
                names,
            });
        }
        "coords" => {
            return Ok(StmtKind::Coords {
                names: parse_names(input)?,
            });
        }
        "tile" => {
            return Ok(StmtKind::Tile {
                dims: parse_decls(input)?,
            });
        }
        "threads" => {
            return Ok(StmtKind::Threads {
                names: parse_names(input)?,
            });
        }
        "values" => {
            return Ok(StmtKind::Values {
                names: parse_names(input)?,
            });
        }
        "inverse" => return Ok(StmtKind::Inverse { keyword }),
        "assert" => {
            let assertion = parse_assertion(input)?;
            return Ok(StmtKind::Assert { keyword, assertion });
        }
        "unmerge" | "morton" => {
            let lower = input.parse()?;
            input.parse::<Token![->]>()?;
            Stage {
                lower: vec![lower],
                upper: written(parse_decls(input)?),
                ..Stage::default()
            }
        }
        "merge" => {
            let lower = parse_names(input)?;
            input.parse::<Token![->]>()?;
            Stage {
                lower,
                upper: vec![Upper::inferred(input.parse()?)],
                ..Stage::default()
            }
        }
        "xor" | "cyclic_shift" => {
            let target: Ident = input.parse()?;
            input.parse::<kw::by>()?;
            Stage {
                lower: vec![target.clone()],
                upper: vec![Upper::inferred(target)],
                keys: vec![input.parse()?],
                ..Stage::default()
            }
        }
        "embed" => {
            let lower = input.parse()?;
            input.parse::<Token![->]>()?;
            let upper = written(parse_decls(input)?);
            input.parse::<kw::strides>()?;
            Stage {
                lower: vec![lower],
                upper,
                args: parse_exprs(input)?,
                ..Stage::default()
            }
        }
        "pad" => {
            let (lower, upper, args) = parse_unary_transform(input)?;
            let args = exactly::<2>(args, "(left, right)", &keyword)?;
            unary(lower, upper, args.into())
        }
        "slice" => {
            let (lower, upper) = parse_arrow(input)?;
            let content;
            parenthesized!(content in input);
            let begin = parse_expr(&content)?;
            content.parse::<Token![..]>()?;
            let end = parse_expr(&content)?;
            expect_end(&content)?;
            unary(lower, upper, vec![begin, end])
        }
        "offset" => {
            let (lower, upper) = parse_arrow(input)?;
            let content;
            parenthesized!(content in input);
            content.parse::<Option<Token![+]>>()?;
            let by = parse_expr(&content)?;
            expect_end(&content)?;
            unary(lower, upper, vec![by])
        }
        "modulo" => {
            let (lower, upper, args) = parse_unary_transform(input)?;
            let args = exactly::<1>(args, "(N)", &keyword)?;
            unary(lower, upper, args.into())
        }
        "freeze" => {
            let lower = input.parse()?;
            input.parse::<Token![=]>()?;
            Stage {
                lower: vec![lower],
                args: vec![parse_expr(input)?],
                ..Stage::default()
            }
        }
        "replicate" => {
            input.parse::<Token![->]>()?;
            Stage {
                upper: written(parse_decls(input)?),
                ..Stage::default()
            }
        }
        "bits" => {
            let lower = input.parse()?;
            input.parse::<Token![->]>()?;
            let upper = written(parse_decls(input)?);
            let content;
            parenthesized!(content in input);
            let rows = Punctuated::<Expr, Token![,]>::parse_terminated_with(&content, parse_expr)?;
            Stage {
                lower: vec![lower],
                upper,
                args: rows.into_iter().collect(),
                ..Stage::default()
            }
        }
        "swizzle" if is_auto(input) => {
            let (lower, upper) = parse_arrow(input)?;
            let content;
            parenthesized!(content in input);
            content.parse::<kw::auto>()?;
            content.parse::<Token![for]>()?;
            let accesses = Punctuated::<Ident, Token![,]>::parse_terminated(&content)?;
            if accesses.is_empty() {
                return Err(content.error("name the accesses to optimise for: `(auto for ReadA)`"));
            }
            Stage {
                auto: Some(accesses.into_iter().collect()),
                ..unary(lower, upper, Vec::new())
            }
        }
        "swizzle" => {
            let (lower, upper, args) = parse_unary_transform(input)?;
            let args = exactly::<3>(args, "(B, M, S)", &keyword)?;
            unary(lower, upper, args.into())
        }
        other => {
            let message = match keywords().find(|k| crate::consts::similar(k, other)) {
                Some(known) => format!("unknown statement `{other}`: did you mean `{known}`?"),
                None => format!("unknown statement `{other}`: expected {}", statements()),
            };
            return Err(syn::Error::new(keyword.span(), message));
        }
    };
    Ok(StmtKind::Transform { keyword, stage })
}

/// `lower -> upper (args)`: one dim onto one, the upper's length computed.
fn unary(lower: Ident, upper: Ident, args: Vec<Expr>) -> Stage {
    Stage {
        lower: vec![lower],
        upper: vec![Upper::inferred(upper)],
        args,
        ..Stage::default()
    }
}

/// Declared dims with their written lengths.
fn written(decls: Vec<DimDecl>) -> Vec<Upper> {
    decls.into_iter().map(Upper::from).collect()
}

/// Whether a `swizzle` statement reads `swizzle l -> u (auto ...)`.
fn is_auto(input: ParseStream) -> bool {
    let fork = input.fork();
    let auto = || -> syn::Result<bool> {
        fork.parse::<Ident>()?;
        fork.parse::<Token![->]>()?;
        fork.parse::<Ident>()?;
        let content;
        parenthesized!(content in fork);
        Ok(content.peek(kw::auto))
    };
    auto().unwrap_or(false)
}

/// What follows `assert`: `bijective`, `conflict_free(for A)`, `max_conflict(n, for A)`,
/// `vector(n)` or `transactions(<= n, for A (, model)?)`.
fn parse_assertion(input: ParseStream) -> syn::Result<Assertion> {
    const FORMS: &str = "`bijective`, `conflict_free(for A)`, `max_conflict(n, for A)`, `vector(n)` \
        or `transactions(<= n, for A)`";
    let kind: Ident = input
        .parse()
        .map_err(|e| syn::Error::new(e.span(), format!("expected {FORMS}")))?;
    if kind == "bijective" {
        return Ok(Assertion::Bijective);
    }
    let content;
    let for_access = |content: ParseStream| -> syn::Result<Ident> {
        content.parse::<Token![for]>()?;
        content.parse()
    };
    let assertion = match kind.to_string().as_str() {
        "conflict_free" => {
            parenthesized!(content in input);
            Assertion::MaxConflict {
                max: None,
                access: for_access(&content)?,
            }
        }
        "max_conflict" => {
            parenthesized!(content in input);
            let max = parse_expr(&content)?;
            content.parse::<Token![,]>()?;
            Assertion::MaxConflict {
                max: Some(max),
                access: for_access(&content)?,
            }
        }
        "vector" => {
            parenthesized!(content in input);
            Assertion::Vector {
                min: parse_expr(&content)?,
            }
        }
        "transactions" => {
            parenthesized!(content in input);
            content.parse::<Token![<=]>()?;
            let max = parse_expr(&content)?;
            content.parse::<Token![,]>()?;
            let access = for_access(&content)?;
            let model = if content.peek(Token![,]) {
                content.parse::<Token![,]>()?;
                Some(content.parse()?)
            } else {
                None
            };
            Assertion::Transactions { max, access, model }
        }
        other => {
            return Err(syn::Error::new(
                kind.span(),
                format!("unknown assertion `{other}`: expected {FORMS}"),
            ));
        }
    };
    expect_end(&content)?;
    Ok(assertion)
}

/// `lower -> upper`.
fn parse_arrow(input: ParseStream) -> syn::Result<(Ident, Ident)> {
    let lower = input.parse()?;
    input.parse::<Token![->]>()?;
    Ok((lower, input.parse()?))
}

/// `lower -> upper (expr, ...)`, with the span of the parentheses.
fn parse_unary_transform(input: ParseStream) -> syn::Result<(Ident, Ident, Args)> {
    let (lower, upper) = parse_arrow(input)?;
    let content;
    let paren = parenthesized!(content in input);
    let args = Punctuated::<Expr, Token![,]>::parse_terminated_with(&content, parse_expr)?;
    let args = Args {
        exprs: args.into_iter().collect(),
        span: paren.span.join(),
    };
    Ok((lower, upper, args))
}

/// The arguments of a transform and the span of their parentheses.
struct Args {
    exprs: Vec<Expr>,
    span: proc_macro2::Span,
}

/// Exactly `N` arguments, or an error on the argument list naming the expected form.
fn exactly<const N: usize>(args: Args, form: &str, keyword: &Ident) -> syn::Result<[Expr; N]> {
    let found = args.exprs.len();
    args.exprs.try_into().map_err(|_| {
        syn::Error::new(
            args.span,
            format!("`{keyword}` takes {N} arguments {form}, found {found}: write `{keyword} lower -> upper {form}`"),
        )
    })
}
