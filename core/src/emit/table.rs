//! The offset table shown in the rustdoc of small layouts, computed by the reference
//! interpreter (so the documentation shows the semantics, not the generated code).

use crate::ir::Descriptor;
use std::fmt::Write;

/// Largest side of a table worth putting in documentation.
const MAX_SIDE: usize = 16;

/// A markdown table of offsets for 1-D and 2-D layouts with at most 16 entries per side:
/// rows are the first coordinate, columns the second; `·` marks padding.
pub fn markdown(descriptor: &Descriptor) -> Option<String> {
    let shape = descriptor.shape();
    let names: Vec<&str> = descriptor
        .coords
        .iter()
        .map(|&c| descriptor.dims[c].name.as_ref())
        .collect();
    let (rows, columns, row_name, column_name) = match (shape.as_slice(), names.as_slice()) {
        ([len], [name]) => (1, *len, "offset", *name),
        ([rows, columns], [row, column]) => (*rows, *columns, *row, *column),
        _ => return None,
    };
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
        let cells: Vec<String> = (0..columns)
            .map(|column| {
                let coord: Vec<usize> = if shape.len() == 1 {
                    vec![column]
                } else {
                    vec![row, column]
                };
                descriptor
                    .offset(&coord)
                    .map_or("·".to_owned(), |o| o.to_string())
            })
            .collect();
        let label = if shape.len() == 1 {
            "**offset**".to_owned()
        } else {
            format!("**{row}**")
        };
        let _ = writeln!(out, "| {label} | {} |", cells.join(" | "));
    }
    Some(out)
}
