//! Where each cell of a layout lies in its SVG picture. The SVG draws its cells, numbers,
//! axes and legend from this, and anything drawn over the cells later (a path's arrows and
//! frames, from [`Geometry::origin`]s) finds them the same way.

use super::cells::Cells;

/// Margin around the picture, in pixels.
pub(super) const MARGIN: u32 = 16;
/// Height of the title and subtitle block above the planes.
pub(super) const HEADER: u32 = 48;
/// Font size of axis labels, plane labels and the legend.
pub(super) const LABEL_FONT: u32 = 11;
/// Width of a character of the monospace font, as a fraction of its size.
pub(super) const CHAR_WIDTH: f64 = 0.6;

/// The longest side of the grid, in pixels, that the cell size aims at.
const GRID_BUDGET: u32 = 1024;
/// Cells never get smaller than this (a 2048-wide grid still shows every cell) …
const MIN_CELL: u32 = 4;
/// … nor larger (a 4×4 grid does not fill a screen).
const MAX_CELL: u32 = 40;
/// Height of a plane's label line, for layouts with outer coordinates.
const PLANE_LABEL: u32 = 18;
/// Height of the column index line above each plane.
const COLUMN_INDICES: u32 = 16;
/// Space between planes.
const PLANE_GAP: u32 = 12;

/// The placement of the cells of a [`Cells`]: square cells, planes stacked top to bottom,
/// row indices on the left and column indices above each plane.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Geometry {
    /// Side of a cell, in pixels.
    pub cell: u32,
    /// x of the left edge of column 0.
    pub left: u32,
    rows: u32,
    columns: u32,
    planes: u32,
    labelled: bool,
}

impl Geometry {
    /// Cells as large as fit `GRID_BUDGET` pixels on the grid's longest side, within
    /// `MIN_CELL..=MAX_CELL`; the left margin fits the row indices and the corner label
    /// `row \ column`.
    pub fn new(cells: &Cells) -> Geometry {
        let side = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        let (rows, columns, planes) = (
            side(cells.rows()),
            side(cells.columns()),
            side(cells.planes()),
        );
        let longest = columns.max(rows.saturating_mul(planes)).max(1);
        let cell = (GRID_BUDGET / longest).clamp(MIN_CELL, MAX_CELL);
        let row_indices = digits(cells.rows().saturating_sub(1));
        let corner = corner_label(cells).chars().count();
        let left = MARGIN + text_width(row_indices.max(corner), LABEL_FONT) + 6;
        Geometry {
            cell,
            left,
            rows,
            columns,
            planes,
            labelled: cells.plane_label(0).is_some(),
        }
    }

    /// Top-left corner of a cell.
    pub fn origin(&self, plane: usize, row: usize, column: usize) -> (u32, u32) {
        let y = self.plane_top(plane) + self.plane_header() + row as u32 * self.cell;
        (self.left + column as u32 * self.cell, y)
    }

    /// Centre of a cell: where numbers go, and where paths drawn over the cells should
    /// start and end.
    pub fn centre(&self, plane: usize, row: usize, column: usize) -> (f64, f64) {
        let (x, y) = self.origin(plane, row, column);
        let half = f64::from(self.cell) / 2.0;
        (f64::from(x) + half, f64::from(y) + half)
    }

    /// The white gap right of and below each cell, where cells are large enough to spare a
    /// pixel.
    pub fn gap(&self) -> u32 {
        u32::from(self.cell >= 10)
    }

    /// y of the top of a plane's block: its label line, if any, then its column indices.
    pub fn plane_top(&self, plane: usize) -> u32 {
        MARGIN + HEADER + plane as u32 * (self.plane_header() + self.rows * self.cell + PLANE_GAP)
    }

    /// Height of the label and column index lines above a plane's cells.
    pub fn plane_header(&self) -> u32 {
        COLUMN_INDICES + if self.labelled { PLANE_LABEL } else { 0 }
    }

    /// x just right of the last column.
    pub fn right(&self) -> u32 {
        self.left + self.columns * self.cell
    }

    /// y just below the last plane's last row.
    pub fn bottom(&self) -> u32 {
        self.plane_top(self.planes as usize) - PLANE_GAP
    }

    /// Show every `step`-th row and column index, so that indices never overlap.
    pub fn index_step(&self) -> usize {
        let widest = digits(self.rows.max(self.columns).saturating_sub(1) as usize);
        let needed = text_width(widest, LABEL_FONT) + 4;
        let mut step = 1;
        while (step as u32).saturating_mul(self.cell) < needed {
            step *= 2;
        }
        step
    }
}

/// `row \ column` (or the column's name alone for 1-D layouts): which coordinate runs
/// down and which across, written where the index lines meet.
pub(super) fn corner_label(cells: &Cells) -> String {
    match (cells.row_name(), cells.column_name()) {
        (Some(row), Some(column)) => format!("{row} \\ {column}"),
        (None, Some(column)) => column.to_owned(),
        _ => String::new(),
    }
}

/// Decimal digits of `n`.
pub(super) fn digits(n: usize) -> usize {
    n.checked_ilog10().map_or(1, |log| log as usize + 1)
}

/// Estimated width of `chars` characters of the monospace font at `size`.
pub(super) fn text_width(chars: usize, size: u32) -> u32 {
    (chars as f64 * f64::from(size) * CHAR_WIDTH).ceil() as u32
}
