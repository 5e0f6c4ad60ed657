//! Tokens → [`ast`](crate::ast): what every item kind parses with. An invocation is a list
//! of items ([`Invocation::parse`](crate::items::Invocation::parse)), each of the kind whose
//! start it has; each kind's own syntax is parsed in its folder (`items/<kind>/parse.rs`)
//! from the pieces here: constant expressions, lists of names, dims and expressions, braced
//! bodies split at their `;`s.

use crate::ast::BinOp;
use crate::ast::{DimDecl, Expr, Length};
use crate::errors::Errors;
use proc_macro2::{TokenStream, TokenTree};
use swizzle_core::budget::EXPRESSION_NODES;
use swizzle_core::emit::code::Op;
use syn::parse::ParseStream;
use syn::punctuated::Punctuated;
use syn::{Ident, Token, bracketed, parenthesized};

/// The options after the first argument of a kernel's parentheses (`, walk T, vector 4`):
/// each read by `option` from its keyword, a trailing `,` allowed, up to the end.
pub fn parse_options<T>(
    content: ParseStream,
    mut option: impl FnMut(Ident, ParseStream) -> syn::Result<T>,
) -> syn::Result<Vec<T>> {
    let mut options = Vec::new();
    while content.peek(Token![,]) {
        content.parse::<Token![,]>()?;
        if content.is_empty() {
            break;
        }
        let keyword: Ident = content.parse()?;
        options.push(option(keyword, content)?);
    }
    expect_end(content)?;
    Ok(options)
}

/// The `;` that ends an item, or an error that shows the item's form: `after` is what it
/// ends and how it is written ("the kernel: `kernel Name = pack(Layout);`").
pub fn expect_semicolon(input: ParseStream, after: &str) -> syn::Result<()> {
    input
        .parse::<Token![;]>()
        .map(|_| ())
        .map_err(|e| syn::Error::new(e.span(), format!("expected `;` after {after}")))
}

/// `Name { body }`: the name and the body's tokens.
pub fn braced_body(input: ParseStream) -> syn::Result<(Ident, TokenStream)> {
    let name: Ident = input.parse()?;
    let content;
    syn::braced!(content in input);
    Ok((name, content.parse()?))
}

/// `` `a`, `b` or `c` ``: the forms an "expected" message lists.
pub fn one_of(forms: &[&str]) -> String {
    match forms {
        [] => String::new(),
        [only] => (*only).to_owned(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// Splits a body at its top-level `;`s, each statement keeping its `;`. A last statement
/// without one is reported on its last token (the end of a body has no location of its own)
/// and gets a `;` there, so that it is still parsed and checked.
pub fn split_statements(body: TokenStream, errors: &mut Errors) -> Vec<TokenStream> {
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

pub fn expect_end(input: ParseStream) -> syn::Result<()> {
    if input.is_empty() {
        Ok(())
    } else {
        Err(input.error("unexpected tokens"))
    }
}

/// `[name: len, ...]`.
pub fn parse_decls(input: ParseStream) -> syn::Result<Vec<DimDecl>> {
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
pub fn parse_names(input: ParseStream) -> syn::Result<Vec<Ident>> {
    let content;
    bracketed!(content in input);
    let names = Punctuated::<Ident, Token![,]>::parse_terminated(&content)?;
    Ok(names.into_iter().collect())
}

/// `[expr, ...]`.
pub fn parse_exprs(input: ParseStream) -> syn::Result<Vec<Expr>> {
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
