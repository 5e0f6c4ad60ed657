//! The errors of an invocation as plain data — each message with where it is — for the
//! tools that read text (the command line, the playground), so that they show the macro's
//! errors at the macro's places without depending on syn.

use std::fmt;
use std::ops::Range;

/// A place in a text: a line (from 1) and a column (from 0, in characters), as rustc and
/// proc-macro2 count them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place {
    pub line: usize,
    pub column: usize,
}

/// One error: its message and the text it is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub message: String,
    /// The bytes of the text it is about; `0..0` where it has no place in the text (an
    /// error about the whole invocation).
    pub bytes: Range<usize>,
    pub start: Place,
    pub end: Place,
}

impl Diagnostic {
    /// Whether the error has a place in the text.
    pub fn is_placed(&self) -> bool {
        self.bytes != (0..0)
    }
}

/// Every error of an invocation, in the order the macro reports them (never empty).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostics(Vec<Diagnostic>);

impl Diagnostics {
    pub fn iter(&self) -> std::slice::Iter<'_, Diagnostic> {
        self.0.iter()
    }
}

impl IntoIterator for Diagnostics {
    type Item = Diagnostic;
    type IntoIter = std::vec::IntoIter<Diagnostic>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<'a> IntoIterator for &'a Diagnostics {
    type Item = &'a Diagnostic;
    type IntoIter = std::slice::Iter<'a, Diagnostic>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

/// The first error's message, as the macro's first `compile_error!` says it; each error is
/// in [`Diagnostics::iter`].
impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.first() {
            Some(first) => f.write_str(&first.message),
            None => Ok(()),
        }
    }
}

impl std::error::Error for Diagnostics {}

impl From<syn::Error> for Diagnostics {
    fn from(errors: syn::Error) -> Diagnostics {
        let place = |at: proc_macro2::LineColumn| Place {
            line: at.line,
            column: at.column,
        };
        Diagnostics(
            errors
                .into_iter()
                .map(|error| {
                    let span = error.span();
                    Diagnostic {
                        message: error.to_string(),
                        bytes: span.byte_range(),
                        start: place(span.start()),
                        end: place(span.end()),
                    }
                })
                .collect(),
        )
    }
}
