//! An accumulator of spanned errors, so that one invocation reports all of its mistakes at
//! once (after `cxx`'s `Errors`).

use proc_macro2::TokenStream;
use quote::ToTokens;
use std::fmt::Display;

#[derive(Default)]
pub struct Errors {
    list: Vec<syn::Error>,
}

impl Errors {
    /// Records an error spanning `tokens`.
    pub fn error(&mut self, tokens: impl ToTokens, message: impl Display) {
        self.list.push(syn::Error::new_spanned(tokens, message));
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
