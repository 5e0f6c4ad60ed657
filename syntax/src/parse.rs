//! Tokens → [`ast`](crate::ast). Each statement of a layout body is parsed on its own (split
//! at its `;`), so that one malformed statement does not hide the errors of the others.

use crate::ast::*;
use crate::errors::Errors;
use proc_macro2::{TokenStream, TokenTree};
use swizzle_core::budget::EXPRESSION_NODES;
use swizzle_core::emit::code::Op;
use swizzle_core::ir::transform::KEYWORDS as TRANSFORMS;
use syn::parse::{ParseStream, Parser};
use syn::punctuated::Punctuated;
use syn::{Attribute, Ident, Token, Visibility, bracketed, parenthesized};

mod kw {
    syn::custom_keyword!(layout);
    syn::custom_keyword!(access);
    syn::custom_keyword!(traversal);
    syn::custom_keyword!(raster);
    syn::custom_keyword!(kernel);
    syn::custom_keyword!(along);
    syn::custom_keyword!(auto);
    syn::custom_keyword!(threads);
    syn::custom_keyword!(by);
    syn::custom_keyword!(strides);
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

/// Parses a whole invocation. Syntax errors are collected into `errors`; the items that
/// parsed are returned so that later stages can still check (and stub) them.
pub fn parse_invocation(tokens: TokenStream, errors: &mut Errors) -> Invocation {
    let mut items = Vec::new();
    let parser = |input: ParseStream| {
        while !input.is_empty() {
            items.push(parse_item(input, errors)?);
        }
        Ok(())
    };
    if let Err(error) = parser.parse2(tokens) {
        errors.push(error);
    }
    Invocation { items }
}

fn parse_item(input: ParseStream, errors: &mut Errors) -> syn::Result<Item> {
    let attrs = input.call(Attribute::parse_outer)?;
    let vis: Visibility = input.parse()?;
    if input.peek(kw::traversal) {
        input.parse::<kw::traversal>()?;
        return parse_traversal(attrs, vis, input, errors).map(Item::Traversal);
    }
    if input.peek(kw::raster) {
        input.parse::<kw::raster>()?;
        return parse_raster(attrs, vis, input).map(Item::Raster);
    }
    if input.peek(kw::kernel) {
        input.parse::<kw::kernel>()?;
        if input.peek2(Token![=]) && is_tiled_copy(input) {
            return parse_tiled_copy(attrs, vis, input).map(Item::TiledCopy);
        }
        return parse_kernel(attrs, vis, input).map(Item::Kernel);
    }
    let is_access = input.peek(kw::access);
    let mut threads = None;
    if is_access {
        input.parse::<kw::access>()?;
    } else if input.peek(kw::layout) {
        input.parse::<kw::layout>()?;
    } else if input.peek(kw::threads) {
        threads = Some(input.parse::<Ident>()?);
    } else {
        return Err(input.error(
            "expected `layout Name { ... }`, `threads Name { ... }`, `access Name { ... }`, \
             `traversal Name = sfc(...);`, `raster Name = grouped(8);` or \
             `kernel Name = pack(...);`",
        ));
    }
    let name: Ident = input.parse()?;
    let content;
    syn::braced!(content in input);
    let tokens: TokenStream = content.parse()?;
    if is_access {
        let body = parse_access_body(tokens, errors);
        return Ok(Item::Access(AccessItem {
            attrs,
            vis,
            name,
            body,
        }));
    }
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
    Ok(Item::Layout(LayoutItem {
        attrs,
        vis,
        threads,
        name,
        body,
    }))
}

/// `Name = kind;` or `Name = kind(group);` after `raster`.
fn parse_raster(
    attrs: Vec<Attribute>,
    vis: Visibility,
    input: ParseStream,
) -> syn::Result<RasterItem> {
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
    Ok(RasterItem {
        attrs,
        vis,
        name,
        kind,
        group,
    })
}

/// Whether the kernel after `kernel` is `Name = tiled_copy(..)`.
fn is_tiled_copy(input: ParseStream) -> bool {
    let fork = input.fork();
    fork.parse::<Ident>().is_ok()
        && fork.parse::<Token![=]>().is_ok()
        && fork
            .parse::<Ident>()
            .is_ok_and(|keyword| keyword == "tiled_copy")
}

/// `Name = tiled_copy(From -> To, threads T, options);` after `kernel`.
fn parse_tiled_copy(
    attrs: Vec<Attribute>,
    vis: Visibility,
    input: ParseStream,
) -> syn::Result<TiledCopyItem> {
    const OPTIONS: &str =
        "`threads T`, `vector n`, `subgroup n`, `buffers(source, destination)` or `assert ...`";
    let name: Ident = input.parse()?;
    input.parse::<Token![=]>()?;
    let keyword: Ident = input.parse()?;
    let content;
    parenthesized!(content in input);
    let source: Ident = content.parse()?;
    content.parse::<Token![->]>()?;
    let destination: Ident = content.parse()?;
    let mut options = Vec::new();
    while content.peek(Token![,]) {
        content.parse::<Token![,]>()?;
        if content.is_empty() {
            break;
        }
        let option: Ident = content.parse()?;
        options.push(match option.to_string().as_str() {
            "threads" => TiledCopyOption::Threads {
                keyword: option,
                layout: content.parse()?,
            },
            "vector" => TiledCopyOption::Vector {
                keyword: option,
                len: parse_expr(&content)?,
            },
            "subgroup" => TiledCopyOption::Subgroup {
                keyword: option,
                len: parse_expr(&content)?,
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
                let (claim, word) = parse_copy_claim(&content)?;
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
        });
    }
    expect_end(&content)?;
    input.parse::<Token![;]>().map_err(|e| {
        syn::Error::new(
            e.span(),
            "expected `;` after the kernel: `kernel Name = tiled_copy(image -> Tile, threads T);`",
        )
    })?;
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

/// `= sfc(arguments);` after `traversal Name`. Each argument is parsed on its own, so that one
/// malformed argument does not hide the errors of the others; the item is kept (marked
/// incomplete) so that its uses raise no further errors.
fn parse_traversal(
    attrs: Vec<Attribute>,
    vis: Visibility,
    input: ParseStream,
    errors: &mut Errors,
) -> syn::Result<TraversalItem> {
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
    input.parse::<Token![;]>().map_err(|e| {
        syn::Error::new(
            e.span(),
            "expected `;` after the traversal: `traversal Name = sfc(...);`",
        )
    })?;
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

/// `= pack(Layout, options);`, `= unpack(Layout, options);` or `= copy(A -> B, options);` after
/// `kernel Name`.
fn parse_kernel(
    attrs: Vec<Attribute>,
    vis: Visibility,
    input: ParseStream,
) -> syn::Result<KernelItem> {
    const FORMS: &str = "`pack(Layout)`, `unpack(Layout)` or `copy(From -> To)`";
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
    let mut options = Vec::new();
    while content.peek(Token![,]) {
        content.parse::<Token![,]>()?;
        if content.is_empty() {
            break;
        }
        let option: Ident = content.parse()?;
        options.push(match option.to_string().as_str() {
            "walk" => KernelOption::Walk {
                keyword: option,
                traversal: content.parse()?,
            },
            "vector" => KernelOption::Vector {
                keyword: option,
                len: parse_expr(&content)?,
            },
            other => {
                return Err(syn::Error::new(
                    option.span(),
                    format!(
                        "unknown kernel option `{other}`: expected `walk Traversal` or `vector n`"
                    ),
                ));
            }
        });
    }
    expect_end(&content)?;
    input.parse::<Token![;]>().map_err(|e| {
        syn::Error::new(
            e.span(),
            "expected `;` after the kernel: `kernel Name = pack(Layout);`",
        )
    })?;
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

/// The statements of an access body, each parsed on its own.
fn parse_access_body(tokens: TokenStream, errors: &mut Errors) -> Vec<AccessStmt> {
    split_statements(tokens, errors)
        .into_iter()
        .filter_map(|tokens| match parse_access_stmt.parse2(tokens.clone()) {
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
fn parse_access_stmt(input: ParseStream) -> syn::Result<AccessStmtKind> {
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

/// Splits a body at its top-level `;`s, each statement keeping its `;`. A last statement
/// without one is reported on its last token (the end of a body has no location of its own)
/// and gets a `;` there, so that it is still parsed and checked.
fn split_statements(body: TokenStream, errors: &mut Errors) -> Vec<TokenStream> {
    let mut statements = Vec::new();
    let mut current = TokenStream::new();
    let mut last = None;
    for token in body {
        let end = matches!(&token, TokenTree::Punct(p) if p.as_char() == ';');
        last = Some(token.span());
        current.extend([token]);
        if end {
            statements.push(std::mem::take(&mut current));
        }
    }
    if let (false, Some(span)) = (current.is_empty(), last) {
        errors.push(syn::Error::new(
            span,
            "expected `;` at the end of this statement: add `;`",
        ));
        let mut semicolon = proc_macro2::Punct::new(';', proc_macro2::Spacing::Alone);
        semicolon.set_span(span);
        current.extend([TokenTree::Punct(semicolon)]);
        statements.push(current);
    }
    statements
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

fn expect_end(input: ParseStream) -> syn::Result<()> {
    if input.is_empty() {
        Ok(())
    } else {
        Err(input.error("unexpected tokens"))
    }
}

/// `[name: len, ...]`.
fn parse_decls(input: ParseStream) -> syn::Result<Vec<DimDecl>> {
    let content;
    bracketed!(content in input);
    let decls = Punctuated::<DimDecl, Token![,]>::parse_terminated_with(&content, |input| {
        let name = input.parse()?;
        input.parse::<Token![:]>()?;
        let len = if input.peek(Token![dyn]) {
            Length::Dyn(input.parse()?)
        } else {
            Length::Fixed(parse_expr(input)?)
        };
        Ok(DimDecl { name, len })
    })?;
    Ok(decls.into_iter().collect())
}

/// `[name, ...]`.
fn parse_names(input: ParseStream) -> syn::Result<Vec<Ident>> {
    let content;
    bracketed!(content in input);
    let names = Punctuated::<Ident, Token![,]>::parse_terminated(&content)?;
    Ok(names.into_iter().collect())
}

/// `[expr, ...]`.
fn parse_exprs(input: ParseStream) -> syn::Result<Vec<Expr>> {
    let content;
    bracketed!(content in input);
    let exprs = Punctuated::<Expr, Token![,]>::parse_terminated_with(&content, parse_expr)?;
    Ok(exprs.into_iter().collect())
}

/// A constant expression, by precedence climbing, of at most
/// [`EXPRESSION_NODES`] operators, negations and parentheses (the checker, the evaluator and
/// the printer all recurse on its depth).
pub fn parse_expr(input: ParseStream) -> syn::Result<Expr> {
    parse_binary(input, 0, &mut Spent::default())
}

/// What the expression being parsed has spent of its budget: its nodes, and whether it
/// names bits (`x[3]`), which makes it a row of `bits` rather than a constant.
#[derive(Default)]
struct Spent {
    nodes: usize,
    bits: bool,
}

/// Counts one more node of the expression being parsed, failing past the budget.
fn count_node(input: ParseStream, spent: &mut Spent) -> syn::Result<()> {
    spent.nodes += 1;
    if spent.nodes <= EXPRESSION_NODES {
        return Ok(());
    }
    Err(input.error(match spent.bits {
        true => format!(
            "this row of `bits` has more than {EXPRESSION_NODES} operators and parentheses, \
             the most one may have: name each bit once (a bit named twice cancels), at most \
             the {} bits of an index",
            usize::BITS
        ),
        false => format!(
            "this constant expression has more than {EXPRESSION_NODES} operators and \
             parentheses, the most one may have: split it into named `const`s"
        ),
    }))
}

fn parse_binary(input: ParseStream, min_precedence: u8, spent: &mut Spent) -> syn::Result<Expr> {
    let mut lhs = parse_unary(input, spent)?;
    while let Some(kind) = peek_op(input) {
        if kind.precedence() < min_precedence {
            break;
        }
        count_node(input, spent)?;
        let tokens = parse_op_tokens(input, kind)?;
        let rhs = parse_binary(input, kind.precedence() + 1, spent)?;
        lhs = Expr::Binary {
            lhs: Box::new(lhs),
            op: BinOp { kind, tokens },
            rhs: Box::new(rhs),
        };
    }
    Ok(lhs)
}

fn parse_unary(input: ParseStream, spent: &mut Spent) -> syn::Result<Expr> {
    if input.peek(Token![-]) {
        count_node(input, spent)?;
        let minus = input.parse()?;
        return Ok(Expr::Neg {
            minus,
            operand: Box::new(parse_unary(input, spent)?),
        });
    }
    if input.peek(syn::token::Paren) {
        count_node(input, spent)?;
        let content;
        let paren = parenthesized!(content in input);
        let inner = parse_binary(&content, 0, spent)?;
        expect_end(&content)?;
        return Ok(Expr::Paren {
            paren,
            inner: Box::new(inner),
        });
    }
    if input.peek(syn::LitInt) {
        return Ok(Expr::Lit(input.parse()?));
    }
    if input.peek(Ident) && input.peek2(syn::token::Bracket) {
        spent.bits = true;
        count_node(input, spent)?;
        let dim = input.parse()?;
        let content;
        let bracket = bracketed!(content in input);
        let index = parse_binary(&content, 0, spent)?;
        expect_end(&content)?;
        return Ok(Expr::Bit {
            dim,
            bracket,
            index: Box::new(index),
        });
    }
    if input.peek(Ident) {
        return Ok(Expr::Const(input.parse()?));
    }
    Err(input.error("expected an integer, a constant name or `(`"))
}

fn peek_op(input: ParseStream) -> Option<Op> {
    Some(if input.peek(Token![<<]) {
        Op::Shl
    } else if input.peek(Token![>>]) {
        Op::Shr
    } else if input.peek(Token![->]) || input.peek(Token![..]) {
        return None;
    } else if input.peek(Token![+]) {
        Op::Add
    } else if input.peek(Token![-]) {
        Op::Sub
    } else if input.peek(Token![*]) {
        Op::Mul
    } else if input.peek(Token![/]) {
        Op::Div
    } else if input.peek(Token![%]) {
        Op::Rem
    } else if input.peek(Token![&]) {
        Op::And
    } else if input.peek(Token![^]) {
        Op::Xor
    } else if input.peek(Token![|]) {
        Op::Or
    } else {
        return None;
    })
}

fn parse_op_tokens(input: ParseStream, kind: Op) -> syn::Result<TokenStream> {
    use quote::ToTokens;
    Ok(match kind {
        Op::Shl => input.parse::<Token![<<]>()?.into_token_stream(),
        Op::Shr => input.parse::<Token![>>]>()?.into_token_stream(),
        Op::Add => input.parse::<Token![+]>()?.into_token_stream(),
        Op::Sub => input.parse::<Token![-]>()?.into_token_stream(),
        Op::Mul => input.parse::<Token![*]>()?.into_token_stream(),
        Op::Div => input.parse::<Token![/]>()?.into_token_stream(),
        Op::Rem => input.parse::<Token![%]>()?.into_token_stream(),
        Op::And => input.parse::<Token![&]>()?.into_token_stream(),
        Op::Xor => input.parse::<Token![^]>()?.into_token_stream(),
        Op::Or => input.parse::<Token![|]>()?.into_token_stream(),
    })
}
