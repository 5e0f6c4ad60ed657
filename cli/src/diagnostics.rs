//! Parse and check errors located in the file the way rustc shows them: the message,
//! `--> file:line:column`, the line and a caret under the faulty tokens. An error without a
//! place in the text (the parser's "call site") names the file alone; a lexer error is an
//! empty span at the faulty character and gets one caret.

use std::fmt::Write;
use std::path::Path;
use swizzle_syntax::Diagnostics;

/// Every error of `errors`, located in `source` (the text of `file`).
pub fn render(errors: &Diagnostics, file: &Path, source: &str) -> String {
    let mut out = String::new();
    for error in errors {
        let _ = writeln!(out, "error: {}", error.message);
        if !error.is_placed() {
            let _ = writeln!(out, " --> {}", file.display());
            continue;
        }
        let (start, end) = (error.start, error.end);
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
