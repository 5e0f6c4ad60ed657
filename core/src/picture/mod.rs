//! Pictures of a layout: a text grid of offsets in the style of CK Tile's Morton table, the
//! same grid with each cell's shared-memory bank, and an SVG coloured by bank or by lane,
//! with a walk (memory order or a traversal's accesses) drawn over it as arrows; and of a
//! thread-value layout, its tile with the thread and value holding each element.
//!
//! Every picture is computed by the reference interpreter, so it shows what docs/semantics.md
//! says a layout means, whatever the generated code does. Rows are the second-to-last
//! coordinate and columns the last one; a 1-D layout is a single row and a layout with more
//! coordinates is drawn as one plane per value of the outer ones.

mod cells;
mod geometry;
mod grid;
mod palette;
mod path;
mod svg;
mod threads;

pub use cells::{Cells, PictureError};
pub use geometry::Geometry;
pub use grid::{bank_map, cells_bank_map, cells_map, offset_map};
pub use path::{Path, Stop};
pub use svg::{Coloring, svg, svg_with_path, tile_svg};
pub use threads::{thread_grid, thread_svg};

/// [`offset_map`], under its old name.
#[deprecated(
    since = "0.2.0",
    note = "renamed to `offset_map` (beside `bank_map`): `grid` also named the grid of tiles"
)]
pub fn grid(descriptor: &crate::ir::Descriptor) -> Result<String, PictureError> {
    offset_map(descriptor)
}
