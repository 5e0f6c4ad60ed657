//! Text grids in the style of the Morton table of CK Tile's Morton texture example: numbers
//! right-aligned to a common width and separated by one space, `·` for padding.

use super::cells::{Cells, PictureError};
use crate::analysis::banks::{Banks, bank_of};
use crate::ir::Descriptor;
use std::fmt::Write;

/// The offset of every coordinate. For the 4×4 Morton tile of CK Tile's Morton texture
/// example:
///
/// ```text
///  0  1  4  5
///  2  3  6  7
///  8  9 12 13
/// 10 11 14 15
/// ```
pub fn offset_map(descriptor: &Descriptor) -> Result<String, PictureError> {
    Ok(render(&Cells::new(descriptor)?, |offset| offset))
}

/// [`offset_map`] of cells built otherwise ([`Cells::over`], [`Cells::from_fn`]).
pub fn cells_map(cells: &Cells) -> String {
    render(cells, |offset| offset)
}

/// The shared-memory bank of the element at every coordinate: its first byte's bank word,
/// modulo the number of banks.
pub fn bank_map(
    descriptor: &Descriptor,
    element_bytes: usize,
    banks: Banks,
) -> Result<String, PictureError> {
    Ok(cells_bank_map(
        &Cells::new(descriptor)?,
        element_bytes,
        banks,
    ))
}

/// [`bank_map`] of cells built otherwise ([`Cells::over`], [`Cells::from_fn`]).
pub fn cells_bank_map(cells: &Cells, element_bytes: usize, banks: Banks) -> String {
    render(cells, |offset| bank_of(offset, element_bytes, banks))
}

/// One line per row, planes introduced by their outer coordinates and separated by a blank
/// line; every cell shows `value(offset)`.
fn render(cells: &Cells, value: impl Fn(usize) -> usize) -> String {
    let width = cells
        .offsets()
        .map(&value)
        .max()
        .map_or(1, |widest| widest.to_string().len());
    let mut out = String::new();
    for plane in 0..cells.planes() {
        if let Some(label) = cells.plane_label(plane) {
            let blank = if plane == 0 { "" } else { "\n" };
            let _ = writeln!(out, "{blank}{label}:");
        }
        for row in 0..cells.rows() {
            let text: Vec<String> = (cells.row(plane, row).iter())
                .map(|offset| match *offset {
                    Some(offset) => format!("{:>width$}", value(offset)),
                    None => format!("{:>width$}", "·"),
                })
                .collect();
            let _ = writeln!(out, "{}", text.join(" "));
        }
    }
    out
}
