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

/// Proof that an error was recorded. Only [`Errors`] makes one, so a step that fails with
/// `Err(Reported)` has said why, and whoever depends on it fails silently instead of
/// adding an echo of that error.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Reported(());

/// Why a step failed: a new error for the caller to record, or one already recorded.
#[derive(Debug)]
pub enum Failure {
    New(syn::Error),
    Reported(Reported),
}

impl From<syn::Error> for Failure {
    fn from(error: syn::Error) -> Failure {
        Failure::New(error)
    }
}

impl From<Reported> for Failure {
    fn from(reported: Reported) -> Failure {
        Failure::Reported(reported)
    }
}

/// A point in the record, to ask later whether a step added errors.
#[derive(Clone, Copy, Debug)]
pub struct Mark(usize);

/// The identifiers written in a layout's statements that did not parse (any of them may
/// have been declared or used there), with the proof that those statements' errors were
/// recorded.
#[derive(Clone, Debug, Default)]
pub struct Unparsed {
    names: HashSet<String>,
    reported: Option<Reported>,
}

impl Unparsed {
    /// The proof of the syntax error of a statement that mentions `name`, if one does.
    pub fn mentions(&self, name: &str) -> Option<Reported> {
        self.reported.filter(|_| self.names.contains(name))
    }

    pub fn contains(&self, name: &str) -> bool {
        self.names.contains(name)
    }

    /// The proof that some statement did not parse, if one did not.
    pub fn reported(&self) -> Option<Reported> {
        self.reported
    }
}

#[derive(Default)]
pub struct Errors {
    list: Vec<syn::Error>,
    /// Layout name → the identifiers of its statements that did not parse.
    unparsed: HashMap<String, Unparsed>,
    /// (layout, keyword) pairs already reported as a name.
    keywords: HashSet<(String, String)>,
}

impl Errors {
    /// Records an error spanning `tokens`.
    pub fn error(&mut self, tokens: impl ToTokens, message: impl Display) -> Reported {
        self.push(syn::Error::new_spanned(tokens, message))
    }

    /// The value of a step, or the proof that its error is recorded (a new one is recorded
    /// now).
    pub fn report<T>(&mut self, result: Result<T, Failure>) -> Result<T, Reported> {
        result.map_err(|failure| match failure {
            Failure::New(error) => self.push(error),
            Failure::Reported(reported) => reported,
        })
    }

    pub fn push(&mut self, error: syn::Error) -> Reported {
        self.list.push(error);
        Reported(())
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The current end of the record.
    pub fn mark(&self) -> Mark {
        Mark(self.list.len())
    }

    /// The proof of the error that made a step fail: one recorded since `mark`. A step
    /// that failed without recording one is a bug in the checker, which must not pass
    /// silently: it is recorded as one here.
    pub fn failure(&mut self, mark: Mark) -> Reported {
        match self.since(mark) {
            Err(reported) => reported,
            Ok(()) => self.push(syn::Error::new(
                proc_macro2::Span::call_site(),
                "internal error: a check failed without saying why; please report this \
                 invocation to swizzle",
            )),
        }
    }

    /// The proof of an error recorded since `mark`, if any was.
    pub fn since(&self, mark: Mark) -> Result<(), Reported> {
        match self.list.len() > mark.0 {
            true => Err(Reported(())),
            false => Ok(()),
        }
    }

    /// Records why a statement of `layout` did not parse. A keyword where a name belongs
    /// (`memory [loop: 16]`) is one mistake however often it is written: its first use says
    /// how to write it (`r#loop`), later uses in the same layout add nothing.
    /// Either way the statement's mistake is on record: the proof is returned.
    pub fn statement(&mut self, layout: &syn::Ident, error: syn::Error) -> Reported {
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
        Reported(())
    }

    /// Notes that a statement of `layout` did not parse; `reported` proves its error is
    /// recorded.
    pub fn unparsed(&mut self, layout: &syn::Ident, tokens: &TokenStream, reported: Reported) {
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
        let unparsed = self.unparsed.entry(layout.to_string()).or_default();
        unparsed.reported = Some(reported);
        idents(tokens, &mut unparsed.names);
    }

    /// The identifiers in the statements of `layout` that did not parse. Empty when every
    /// statement parsed.
    pub fn unparsed_names(&self, layout: &syn::Ident) -> Unparsed {
        self.unparsed
            .get(&layout.to_string())
            .cloned()
            .unwrap_or_default()
    }

    /// The proof that some statement of `layout` did not parse, if one did not.
    pub fn unparsed_in(&self, layout: &syn::Ident) -> Option<Reported> {
        self.unparsed
            .get(&layout.to_string())
            .and_then(Unparsed::reported)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_without_an_error_is_recorded_as_an_internal_error() {
        let mut errors = Errors::default();
        let mark = errors.mark();
        assert!(errors.since(mark).is_ok());
        errors.failure(mark);
        let message = errors.finish().unwrap_err().to_string();
        assert!(message.starts_with("internal error"), "{message}");
    }

    #[test]
    fn a_failure_after_an_error_adds_nothing() {
        let mut errors = Errors::default();
        let mark = errors.mark();
        let reported = errors.error(quote::quote!(x), "the real error");
        assert_eq!(errors.failure(mark), reported);
        let all: Vec<String> = errors
            .finish()
            .unwrap_err()
            .into_iter()
            .map(|e| e.to_string())
            .collect();
        assert_eq!(all, ["the real error"]);
    }
}
