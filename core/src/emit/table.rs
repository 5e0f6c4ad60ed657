//! The offset table shown in the rustdoc of small layouts, computed by the reference
//! interpreter (so the documentation shows the semantics, not the generated code).

use crate::ir::Descriptor;
use crate::picture::Cells;
use std::fmt::Write;

/// Largest side of a table worth putting in documentation.
const MAX_SIDE: usize = 16;

/// Whether `descriptor` gets an offset table: a 1-D or 2-D layout with at most 16 entries
/// per side.
pub fn has_table(descriptor: &Descriptor) -> bool {
    let shape = descriptor.shape();
    matches!(shape.len(), 1 | 2) && shape.iter().all(|&side| side <= MAX_SIDE)
}

/// A markdown table of offsets for 1-D and 2-D layouts with at most 16 entries per side:
/// rows are the first coordinate, columns the second; `·` marks padding.
pub fn markdown(descriptor: &Descriptor) -> Option<String> {
    if !has_table(descriptor) {
        return None;
    }
    markdown_of(&Cells::new(descriptor).ok()?)
}

/// [`markdown`] of a layout from its cells (built by [`Cells::new`], or by [`Cells::over`]
/// from its base's, which does not run the base's stages again).
pub fn markdown_of(cells: &Cells) -> Option<String> {
    let shape = cells.shape();
    let (rows, row_name, column_name) = match shape.len() {
        1 => (1, "offset", cells.column_name()?),
        2 => (shape[0], cells.row_name()?, cells.column_name()?),
        _ => return None,
    };
    let columns = cells.columns();
    if rows > MAX_SIDE || columns > MAX_SIDE {
        return None;
    }
    let mut out = String::from("Offsets:\n\n");
    let header: Vec<String> = (0..columns).map(|c| c.to_string()).collect();
    let _ = writeln!(
        out,
        "| {row_name} \\ {column_name} | {} |",
        header.join(" | ")
    );
    let _ = writeln!(out, "|---|{}", "---:|".repeat(columns));
    for row in 0..rows {
        let offsets: Vec<String> = cells
            .row(0, row)
            .iter()
            .map(|offset| offset.map_or("·".to_owned(), |o| o.to_string()))
            .collect();
        let label = if shape.len() == 1 {
            "**offset**".to_owned()
        } else {
            format!("**{row}**")
        };
        let _ = writeln!(out, "| {label} | {} |", offsets.join(" | "));
    }
    Some(out)
}
