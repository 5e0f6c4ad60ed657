//! Parse and check errors located in the file the way rustc shows them: the message,
//! `--> file:line:column`, the line and a caret under the faulty tokens. The spans come from
//! proc-macro2's `span-locations`, which tracks lines and columns in parsed strings. An
//! error at the parser's "call site" (byte range `0..0`) has no location and names the file
//! alone; a lexer error is an empty span at the faulty character and gets one caret.

use std::fmt::Write;
use std::path::Path;

/// Every error of `errors`, located in `source` (the text of `file`).
pub fn render(errors: syn::Error, file: &Path, source: &str) -> String {
    let mut out = String::new();
    for error in errors {
        let span = error.span();
        let _ = writeln!(out, "error: {error}");
        if span.byte_range() == (0..0) {
            let _ = writeln!(out, " --> {}", file.display());
            continue;
        }
        let (start, end) = (span.start(), span.end());
        let _ = writeln!(
            out,
            " --> {}:{}:{}",
            file.display(),
            start.line,
            start.column + 1
        );
        let Some(text) = start
            .line
            .checked_sub(1)
            .and_then(|i| source.lines().nth(i))
        else {
            continue;
        };
        let gutter = " ".repeat(start.line.to_string().len());
        let carets = if end.line == start.line {
            end.column.saturating_sub(start.column).max(1)
        } else {
            text.chars().count().saturating_sub(start.column).max(1)
        };
        let _ = writeln!(out, "{gutter} |");
        let _ = writeln!(out, "{} | {text}", start.line);
        let _ = writeln!(
            out,
            "{gutter} | {}{}",
            " ".repeat(start.column),
            "^".repeat(carets)
        );
    }
    out
}
