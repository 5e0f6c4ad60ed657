//! Walks drawn over a picture: memory order, any list of coordinates, or a traversal's
//! accesses, each as a list of [`Stop`]s that the SVG joins with arrows.

use super::cells::{Cells, PictureError};
use crate::ir::coordinates;
use crate::plans::sfc::Sfc;

/// A walk over the cells, drawn as arrows from each stop's centre to the next one's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Path {
    /// The cells in the order of their offsets: how memory runs through the layout (the
    /// Z-curve of a Morton layout, as CK Tile's Morton texture example walks it).
    MemoryOrder,
    /// Coordinates in visiting order; coordinates outside the layout are skipped.
    Coords(Vec<Vec<usize>>),
    /// The accesses of a space-filling curve in visiting order, each a block of
    /// [`Sfc::extent`] cells from [`Sfc::index`]: a vector access is one stop, outlined, and
    /// the last access along a dim its vector does not divide is drawn as large as it is. The
    /// curve must walk the layout's shape: its lengths are the layout's coordinates' lengths.
    Traversal(Sfc),
}

/// One stop of a [`Path`]: the block of cells from `start`, `extent` cells along each
/// coordinate (a single cell, except for a traversal's vector accesses).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stop {
    pub start: Vec<usize>,
    pub extent: Vec<usize>,
}

impl Path {
    /// The stops of the walk over `cells`, in visiting order.
    pub fn stops(&self, cells: &Cells) -> Result<Vec<Stop>, PictureError> {
        let cell = |start: Vec<usize>| Stop {
            extent: vec![1; start.len()],
            start,
        };
        Ok(match self {
            Path::MemoryOrder => {
                let mut order: Vec<(usize, usize)> = (0..cells.len())
                    .filter_map(|index| Some((cells.offset(index)?, index)))
                    .collect();
                order.sort_unstable();
                order
                    .into_iter()
                    .map(|(_, index)| cell(cells.coord(index)))
                    .collect()
            }
            Path::Coords(coords) => coords
                .iter()
                .filter(|coord| cells.index(coord).is_some())
                .map(|coord| cell(coord.clone()))
                .collect(),
            Path::Traversal(sfc) => {
                check(sfc, cells.shape())?;
                (0..sfc.num_access())
                    .map(|i| Stop {
                        start: sfc.index(i),
                        extent: sfc.extent(i),
                    })
                    .collect()
            }
        })
    }

    /// What the arrows show, for the picture's legend.
    pub(super) fn describe(&self) -> String {
        match self {
            Path::MemoryOrder => "memory order, from offset to offset".to_owned(),
            Path::Coords(_) => "coordinates in the order given".to_owned(),
            Path::Traversal(sfc) => {
                let join = |values: &[usize], by: &str| {
                    let values: Vec<String> = values.iter().map(usize::to_string).collect();
                    values.join(by)
                };
                let accesses = match self.outlined() {
                    true => format!("accesses of {} cells, framed", join(&sfc.vector, " × ")),
                    false => "scalar accesses".to_owned(),
                };
                format!(
                    "traversal of {} {accesses}, order [{}]{}",
                    sfc.num_access(),
                    join(&sfc.order, ", "),
                    if sfc.snake { ", snake" } else { "" }
                )
            }
        }
    }

    /// Whether stops are blocks worth outlining: a traversal with a vector wider than one
    /// cell.
    pub(super) fn outlined(&self) -> bool {
        matches!(self, Path::Traversal(sfc) if sfc.vector.iter().any(|&v| v > 1))
    }
}

impl Stop {
    /// The top-left cell of each plane the block covers, first plane first: one corner
    /// unless the block spans outer coordinates.
    pub(super) fn corners(&self) -> impl Iterator<Item = Vec<usize>> + '_ {
        let outer = self.extent.len().saturating_sub(2);
        coordinates(&self.extent[..outer]).map(move |offsets| {
            let mut corner = self.start.clone();
            for (c, o) in corner.iter_mut().zip(offsets) {
                *c += o;
            }
            corner
        })
    }

    /// Rows and columns the block covers in each of its planes.
    pub(super) fn size(&self) -> (usize, usize) {
        let n = self.extent.len();
        let rows = n.checked_sub(2).map_or(1, |i| self.extent[i]);
        (rows, self.extent.last().copied().unwrap_or(1))
    }
}

/// A curve is drawn over a layout of its lengths, and only if it is well formed (one built
/// by hand need not be): one order entry and one positive vector entry per dim, the order a
/// permutation.
fn check(sfc: &Sfc, shape: &[usize]) -> Result<(), PictureError> {
    let rank = sfc.lengths.len();
    let mut seen = vec![false; rank];
    let permutation = sfc.order.len() == rank
        && sfc
            .order
            .iter()
            .all(|&d| d < rank && !std::mem::replace(&mut seen[d], true));
    if !permutation || sfc.vector.len() != rank || sfc.vector.contains(&0) {
        return Err(PictureError::MalformedTraversal(sfc.clone()));
    }
    if *sfc.lengths != *shape {
        return Err(PictureError::TraversalShape {
            lengths: sfc.lengths.to_vec(),
            shape: shape.to_vec(),
        });
    }
    Ok(())
}
