//! The offset of every coordinate of a layout, arranged as planes of rows × columns: what
//! every picture draws.

use crate::analysis::AccessError;
use crate::budget::PICTURE_CELLS;
use crate::emit::compose::own_stages;
use crate::ir::Descriptor;
use crate::ir::interp::CoordError;
use crate::plans::sfc::Sfc;
use std::fmt;

/// Why a layout cannot be drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PictureError {
    /// The layout has more than [`PICTURE_CELLS`] coordinates.
    TooLarge { shape: Vec<usize> },
    /// The interpreter failed on a coordinate inside the shape: the descriptor is malformed.
    Offset(CoordError),
    /// The access that colours the cells does not fit the layout.
    Access(AccessError),
    /// The traversal drawn as a path walks other lengths than the layout's shape.
    TraversalShape {
        lengths: Vec<usize>,
        shape: Vec<usize>,
    },
    /// The traversal drawn as a path is malformed (built by hand, not by a `traversal`
    /// item): its order is not a permutation of its dims, or its vector does not give one
    /// positive entry per dim.
    MalformedTraversal(Sfc),
}

impl fmt::Display for PictureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TooLarge { shape } => write!(
                f,
                "the layout's shape {shape:?} has more than {PICTURE_CELLS} coordinates, too many to draw"
            ),
            Self::Offset(error) => error.fmt(f),
            Self::Access(error) => error.fmt(f),
            Self::TraversalShape { lengths, shape } => write!(
                f,
                "the traversal walks lengths {lengths:?}, but the layout's shape is {shape:?}: \
                 draw it over a layout of its lengths"
            ),
            Self::MalformedTraversal(sfc) => write!(
                f,
                "the traversal is malformed: its order {:?} must be a permutation of its {} \
                 dims, and its vector {:?} must give each dim a positive length",
                sfc.order,
                sfc.lengths.len(),
                sfc.vector
            ),
        }
    }
}

impl std::error::Error for PictureError {}

/// The offsets of all coordinates of a layout, row-major, `None` where a coordinate lies in
/// padding. The last coordinate runs along a row and the second-to-last down a column; the
/// outer coordinates, if any, select a plane. A layout without coordinates is one cell.
#[derive(Clone, Debug)]
pub struct Cells {
    names: Vec<String>,
    shape: Vec<usize>,
    offsets: Vec<Option<usize>>,
}

impl Cells {
    /// Evaluates every coordinate of `descriptor`.
    pub fn new(descriptor: &Descriptor) -> Result<Cells, PictureError> {
        Cells::evaluated(descriptor, |coord| descriptor.offset(coord).map(Some))
    }

    /// The cells of `descriptor`, a layout whose first `base_stages` stages are `base`'s,
    /// from `base`'s cells: each coordinate is run through the layout's own stages alone,
    /// down to a coordinate of the base, whose offset the base's cells hold. The result is
    /// [`Cells::new`]'s, at a cost that does not grow with the stages of the base, so that
    /// a chain of layouts, each `over` the one before, is drawn in time linear in its
    /// length. `None` where the own stages cannot be run apart from the base's (a layout
    /// with run-time dims) or `base_cells` are not `base`'s.
    pub fn over(
        descriptor: &Descriptor,
        base_stages: usize,
        base: &Descriptor,
        base_cells: &Cells,
    ) -> Option<Result<Cells, PictureError>> {
        let own = own_stages(descriptor, base_stages, base)?;
        if base_cells.shape != base.shape() {
            return None;
        }
        Some(Cells::evaluated(descriptor, |coord| {
            let index = own.offset(coord)?;
            // The own stages reach base coordinates inside the base's shape; an index past
            // it would be a malformed descriptor, not a cell of the base.
            match base_cells.offsets.get(index) {
                Some(&offset) => Ok(offset),
                None => Err(CoordError::Malformed("a base coordinate outside the base")),
            }
        }))
    }

    /// The cells of `descriptor` with `offset` giving each coordinate's offset (`None`:
    /// padding; `Err` of a padding: padding too).
    fn evaluated(
        descriptor: &Descriptor,
        mut offset: impl FnMut(&[usize]) -> Result<Option<usize>, CoordError>,
    ) -> Result<Cells, PictureError> {
        let shape = descriptor.shape();
        let size = descriptor
            .size()
            .filter(|&size| size <= PICTURE_CELLS)
            .ok_or_else(|| PictureError::TooLarge {
                shape: shape.clone(),
            })?;
        let mut coord = vec![0; shape.len()];
        let mut offsets = Vec::with_capacity(size);
        for _ in 0..size {
            offsets.push(match offset(&coord) {
                Ok(offset) => offset,
                Err(CoordError::Padding { .. }) => None,
                Err(error) => return Err(PictureError::Offset(error)),
            });
            advance(&mut coord, &shape);
        }
        let names = descriptor
            .coords
            .iter()
            .map(|&c| descriptor.dims[c].name.to_string())
            .collect();
        Ok(Cells {
            names,
            shape,
            offsets,
        })
    }

    /// The cells of offsets that no layout computes (a texture surface's level, tiled by a
    /// platform's rules): `offset(coord)` at every coordinate of `shape`, row-major (`None`:
    /// padding), the coordinates named `names`. [`PictureError::TooLarge`] past the
    /// pictures' budget, as for a layout.
    pub fn from_fn(
        names: &[&str],
        shape: &[usize],
        mut offset: impl FnMut(&[usize]) -> Option<usize>,
    ) -> Result<Cells, PictureError> {
        let size = shape
            .iter()
            .try_fold(1usize, |acc, &n| acc.checked_mul(n))
            .filter(|&size| size <= PICTURE_CELLS)
            .ok_or_else(|| PictureError::TooLarge {
                shape: shape.to_vec(),
            })?;
        let mut coord = vec![0; shape.len()];
        let mut offsets = Vec::with_capacity(size);
        for _ in 0..size {
            offsets.push(offset(&coord));
            advance(&mut coord, shape);
        }
        Ok(Cells {
            names: names.iter().map(|n| n.to_string()).collect(),
            shape: shape.to_vec(),
            offsets,
        })
    }

    /// Cells of the given values (`None`: empty), row-major over `shape`, its coordinates
    /// named `names`: what a picture of something other than a layout's offsets draws.
    pub(crate) fn from_values(
        names: Vec<String>,
        shape: Vec<usize>,
        values: Vec<Option<usize>>,
    ) -> Cells {
        Cells {
            names,
            shape,
            offsets: values,
        }
    }

    /// The length of each coordinate.
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// Cells down a plane: the length of the second-to-last coordinate, or 1.
    pub fn rows(&self) -> usize {
        self.shape.len().checked_sub(2).map_or(1, |i| self.shape[i])
    }

    /// Cells along a row: the length of the last coordinate, or 1.
    pub fn columns(&self) -> usize {
        self.shape.last().copied().unwrap_or(1)
    }

    /// Number of planes: the product of the outer coordinates' lengths.
    pub fn planes(&self) -> usize {
        self.outer_shape().iter().product()
    }

    /// The name of the coordinate that numbers the rows, for layouts with at least two.
    pub fn row_name(&self) -> Option<&str> {
        let i = self.names.len().checked_sub(2)?;
        Some(&self.names[i])
    }

    /// The name of the coordinate that numbers the columns.
    pub fn column_name(&self) -> Option<&str> {
        self.names.last().map(String::as_str)
    }

    /// Number of cells: the product of the shape.
    pub fn len(&self) -> usize {
        self.offsets.len()
    }

    /// Whether the shape has a zero length.
    pub fn is_empty(&self) -> bool {
        self.offsets.is_empty()
    }

    /// The offset of cell `index` (row-major over the coordinates), `None` in padding.
    pub fn offset(&self, index: usize) -> Option<usize> {
        self.offsets[index]
    }

    /// The offsets of one row of one plane.
    pub fn row(&self, plane: usize, row: usize) -> &[Option<usize>] {
        let start = (plane * self.rows() + row) * self.columns();
        &self.offsets[start..start + self.columns()]
    }

    /// Every offset that is not padding.
    pub fn offsets(&self) -> impl Iterator<Item = usize> + '_ {
        self.offsets.iter().flatten().copied()
    }

    /// The outer coordinates that select `plane`, as `name = value, …`; `None` for layouts
    /// of at most two coordinates, which have a single plane.
    pub fn plane_label(&self, plane: usize) -> Option<String> {
        let outer = self.outer_shape();
        if outer.is_empty() {
            return None;
        }
        let mut values = vec![0; outer.len()];
        let mut rest = plane;
        for (value, &len) in values.iter_mut().zip(outer).rev() {
            *value = rest % len;
            rest /= len;
        }
        let parts: Vec<String> = self
            .names
            .iter()
            .zip(&values)
            .map(|(name, value)| format!("{name} = {value}"))
            .collect();
        Some(parts.join(", "))
    }

    /// The index of a coordinate, `None` if it lies outside the shape.
    pub fn index(&self, coord: &[usize]) -> Option<usize> {
        if coord.len() != self.shape.len() || coord.iter().zip(&self.shape).any(|(c, l)| c >= l) {
            return None;
        }
        Some(
            coord
                .iter()
                .zip(&self.shape)
                .fold(0, |index, (&c, &len)| index * len + c),
        )
    }

    /// The coordinate of cell `index`: the inverse of [`Cells::index`].
    pub fn coord(&self, index: usize) -> Vec<usize> {
        let mut coord = vec![0; self.shape.len()];
        let mut rest = index;
        for (c, &len) in coord.iter_mut().zip(&self.shape).rev() {
            *c = rest % len;
            rest /= len;
        }
        coord
    }

    /// The (plane, row, column) of cell `index`.
    pub fn place(&self, index: usize) -> (usize, usize, usize) {
        let per_plane = self.rows() * self.columns();
        let within = index % per_plane;
        (
            index / per_plane,
            within / self.columns(),
            within % self.columns(),
        )
    }

    fn outer_shape(&self) -> &[usize] {
        &self.shape[..self.shape.len().saturating_sub(2)]
    }
}

/// Steps `coord` to the next coordinate of `shape` in row-major order (wrapping to zeros).
fn advance(coord: &mut [usize], shape: &[usize]) {
    for (c, &len) in coord.iter_mut().zip(shape).rev() {
        *c += 1;
        if *c < len {
            return;
        }
        *c = 0;
    }
}
