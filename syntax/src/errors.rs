//! An accumulator of spanned errors, so that one invocation reports all of its mistakes at
//! once (after `cxx`'s `Errors`).
//!
//! It also remembers, per layout, the names written in statements that did not parse. A
//! statement that did not parse may have declared, consumed or defined any of those names,
//! so the checker stays silent about them (no "unknown dim", "never used" or "unknown
//! constant" errors that would only be echoes of the syntax error).

use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;
use std::collections::{HashMap, HashSet};
use std::fmt::Display;

#[derive(Default)]
pub struct Errors {
    list: Vec<syn::Error>,
    /// Layout name → the identifiers of its statements that did not parse.
    unparsed: HashMap<String, HashSet<String>>,
    /// (layout, keyword) pairs already reported as a name.
    keywords: HashSet<(String, String)>,
}

impl Errors {
    /// Records an error spanning `tokens`.
    pub fn error(&mut self, tokens: impl ToTokens, message: impl Display) {
        self.list.push(syn::Error::new_spanned(tokens, message));
    }

    /// The value of an evaluation, or `None` after recording its error (an `Err(None)` was
    /// already reported where it arose; see `consts::Eval`).
    pub fn report<T>(&mut self, result: Result<T, Option<syn::Error>>) -> Option<T> {
        match result {
            Ok(value) => Some(value),
            Err(error) => {
                self.list.extend(error);
                None
            }
        }
    }

    pub fn push(&mut self, error: syn::Error) {
        self.list.push(error);
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Number of errors recorded so far, to tell whether a step added any.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Records why a statement of `layout` did not parse. A keyword where a name belongs
    /// (`memory [loop: 16]`) is one mistake however often it is written: its first use says
    /// how to write it (`r#loop`), later uses in the same layout add nothing.
    pub fn statement(&mut self, layout: &syn::Ident, error: syn::Error) {
        for error in error {
            let message = error.to_string();
            let Some(keyword) = message
                .strip_prefix("expected identifier, found keyword `")
                .and_then(|rest| rest.strip_suffix('`'))
            else {
                self.list.push(error);
                continue;
            };
            if self
                .keywords
                .insert((layout.to_string(), keyword.to_owned()))
            {
                self.list.push(syn::Error::new(
                    error.span(),
                    format!(
                        "`{keyword}` is a Rust keyword, which cannot be a name as it is: write \
                         `r#{keyword}`"
                    ),
                ));
            }
        }
    }

    /// Notes that a statement of `layout` did not parse (its error is already recorded).
    pub fn unparsed(&mut self, layout: &syn::Ident, tokens: &TokenStream) {
        fn idents(tokens: &TokenStream, into: &mut HashSet<String>) {
            for token in tokens.clone() {
                match token {
                    TokenTree::Ident(ident) => {
                        into.insert(ident.to_string());
                    }
                    TokenTree::Group(group) => idents(&group.stream(), into),
                    _ => {}
                }
            }
        }
        idents(tokens, self.unparsed.entry(layout.to_string()).or_default());
    }

    /// The identifiers in the statements of `layout` that did not parse: any of them may
    /// have been declared or used there. Empty when every statement parsed.
    pub fn unparsed_names(&self, layout: &syn::Ident) -> HashSet<String> {
        self.unparsed
            .get(&layout.to_string())
            .cloned()
            .unwrap_or_default()
    }

    /// Whether some statement of `layout` did not parse.
    pub fn has_unparsed(&self, layout: &syn::Ident) -> bool {
        self.unparsed.contains_key(&layout.to_string())
    }

    /// All errors as one, or `Ok` when there were none.
    pub fn finish(self) -> syn::Result<()> {
        let mut list = self.list.into_iter();
        let Some(mut first) = list.next() else {
            return Ok(());
        };
        first.extend(list);
        Err(first)
    }

    pub fn into_compile_errors(self) -> TokenStream {
        self.list.iter().map(syn::Error::to_compile_error).collect()
    }
}
