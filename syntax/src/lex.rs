//! Layout text to tokens, for [`crate::source`] and so the command line: proc_macro2's
//! lexer, after a scan of the text that finds what the lexer would reject — or could not
//! survive — and says what is wrong where. The lexer, the parser and dropping the tokens all
//! recurse on nested groups, so the scan enforces a nesting budget first: a file of 200 000
//! brackets fails with an error instead of overflowing the stack.

use proc_macro2::{LexError, Span, TokenStream};
use swizzle_core::budget::NESTING;

/// The tokens of `text`, or a located error.
pub fn lex(text: &str) -> syn::Result<TokenStream> {
    if let Some((at, problem)) = scan(text) {
        return Err(syn::Error::new(span_at(text, at), problem.message()));
    }
    text.parse().map_err(|error: LexError| {
        syn::Error::new(
            error.span(),
            "this is not a token of the layout language (`layout! { ... }` reads Rust tokens)",
        )
    })
}

/// What the scan found wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Problem {
    TooDeep,
    UnclosedString,
    UnclosedComment,
    UnopenedBracket,
    UnclosedBracket,
}

impl Problem {
    fn message(self) -> String {
        match self {
            Problem::TooDeep => format!(
                "brackets nest deeper than {NESTING} levels here: no layout needs that many; \
                 flatten the expression or split it into named `const`s"
            ),
            Problem::UnclosedString => "this string is never closed: add its closing `\"`".into(),
            Problem::UnclosedComment => "this comment is never closed: add `*/`".into(),
            Problem::UnopenedBracket => {
                "this closing bracket has no opening one: remove it, or open the group it closes"
                    .into()
            }
            Problem::UnclosedBracket => "this bracket is never closed: close it".into(),
        }
    }
}

/// The first problem of `text` and its byte offset, reading strings, comments and brackets
/// as Rust's lexer does (a character literal is too short to hide a bracket or a quote that
/// matters here, except `'"'`, `'('` and the like, which are read as such).
fn scan(text: &str) -> Option<(usize, Problem)> {
    let bytes = text.as_bytes();
    let mut open: Vec<usize> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\'' if bytes.get(i + 2) == Some(&b'\'') => i += 2,
            b'"' => {
                let start = i;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                if i >= bytes.len() {
                    return Some((start, Problem::UnclosedString));
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                let (start, mut depth) = (i, 1);
                i += 2;
                while depth > 0 {
                    if i >= bytes.len() {
                        return Some((start, Problem::UnclosedComment));
                    }
                    if bytes[i..].starts_with(b"/*") {
                        depth += 1;
                        i += 1;
                    } else if bytes[i..].starts_with(b"*/") {
                        depth -= 1;
                        i += 1;
                    }
                    i += 1;
                }
                continue;
            }
            b'(' | b'[' | b'{' => {
                open.push(i);
                if open.len() > NESTING {
                    return Some((i, Problem::TooDeep));
                }
            }
            b')' | b']' | b'}' if open.pop().is_none() => {
                return Some((i, Problem::UnopenedBracket));
            }
            _ => {}
        }
        i += 1;
    }
    open.last().map(|&at| (at, Problem::UnclosedBracket))
}

/// A span at byte `at` of `text`: that of one token lexed at the same line and column, with
/// everything before it blanked out (newlines kept).
fn span_at(text: &str, at: usize) -> Span {
    let blank: String = text[..at]
        .chars()
        .map(|c| if c == '\n' { '\n' } else { ' ' })
        .collect();
    format!("{blank}here")
        .parse::<TokenStream>()
        .ok()
        .and_then(|tokens| tokens.into_iter().next())
        .map_or_else(Span::call_site, |token| token.span())
}
