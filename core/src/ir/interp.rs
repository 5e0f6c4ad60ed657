//! The reference interpreter: evaluates a [`Descriptor`] transform by transform, newest
//! first, exactly as docs/semantics.md defines each lowering. It is deliberately naive (no folding,
//! run-time lengths, checked arithmetic); everything faster is tested against it.

use crate::emit::grid;
use crate::ir::transform::{Domain, Lowering};
use crate::ir::{Descriptor, Dim, DimId};
use std::fmt;

/// Why a coordinate could not be evaluated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CoordError {
    /// The coordinate has the wrong number of components.
    Rank { expected: usize, found: usize },
    /// A component is outside `0..len`.
    OutOfBounds {
        dim: String,
        value: usize,
        len: usize,
    },
    /// The coordinate lies in the padding of a `pad` transform.
    Padding { dim: String, value: usize },
    /// An offset outside `0..space` has no coordinate.
    OffsetOutOfRange { offset: usize, space: usize },
    /// Arithmetic overflowed `usize` or a dim was read before it was computed: the
    /// descriptor was not produced by the checker.
    Malformed(&'static str),
}

impl fmt::Display for CoordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Rank { expected, found } => {
                write!(f, "expected {expected} coordinates, found {found}")
            }
            Self::OutOfBounds { dim, value, len } => {
                write!(f, "coordinate {dim} = {value} is out of bounds 0..{len}")
            }
            Self::Padding { dim, value } => {
                write!(f, "coordinate {dim} = {value} lies in the padding")
            }
            Self::OffsetOutOfRange { offset, space } => {
                write!(f, "offset {offset} is outside the element space 0..{space}")
            }
            Self::Malformed(why) => write!(f, "malformed descriptor: {why}"),
        }
    }
}

impl std::error::Error for CoordError {}

const OVERFLOW: CoordError = CoordError::Malformed("arithmetic overflow");

impl Descriptor {
    /// The memory offset of `coord`, or why it has none.
    pub fn offset(&self, coord: &[usize]) -> Result<usize, CoordError> {
        let (offset, invalid) = self.evaluate(coord)?;
        match invalid {
            Some(error) => Err(error),
            None => Ok(offset),
        }
    }

    /// Whether `coord` is inside the shape and outside every padding.
    pub fn is_valid(&self, coord: &[usize]) -> bool {
        matches!(self.evaluate(coord), Ok((_, None)))
    }

    /// The offset of `coord` in the layout of these extents. A fixed-size layout has one
    /// extent, its shape. A tiled one (run-time outer dims) splits every coordinate into a
    /// tile place and a place inside the tile: tiles lie row-major over the grid dims, in
    /// memory order, `ceil(extent / tile)` along each, each a whole copy of the tile's space.
    pub fn offset_in(&self, extents: &[usize], coord: &[usize]) -> Result<usize, CoordError> {
        let tile = self.shape();
        if extents.len() != tile.len() || coord.len() != tile.len() {
            return Err(CoordError::Rank {
                expected: tile.len(),
                found: extents.len().min(coord.len()),
            });
        }
        for (axis, (&value, &extent)) in coord.iter().zip(extents).enumerate() {
            let grid = self.is_dynamic(axis);
            if value >= extent || (!grid && extent != tile[axis]) {
                let dim = self.dims[self.coords[axis]].name.to_string();
                return Err(CoordError::OutOfBounds {
                    dim,
                    value,
                    len: extent,
                });
            }
        }
        let tiles = grid::tile_counts(self, extents).ok_or(OVERFLOW)?;
        let (place, inside) = grid::locate(self, &tiles, coord).ok_or(OVERFLOW)?;
        let within = self.offset(&inside)?;
        let space = self.space().ok_or(OVERFLOW)?;
        place
            .checked_mul(space)
            .and_then(|base| base.checked_add(within))
            .ok_or(OVERFLOW)
    }

    /// Runs the stages newest-first. Returns the offset (meaningless where padded) and the
    /// first padding the coordinate fell into.
    fn evaluate(&self, coord: &[usize]) -> Result<(usize, Option<CoordError>), CoordError> {
        if coord.len() != self.coords.len() {
            return Err(CoordError::Rank {
                expected: self.coords.len(),
                found: coord.len(),
            });
        }
        let checked = Checked {
            dims: &self.dims,
            padding: None,
        };
        let mut on = Lowering::new(checked, &self.dims);
        for (&dim, &value) in self.coords.iter().zip(coord) {
            let len = self
                .dims
                .get(dim)
                .ok_or(CoordError::Malformed("dim id out of range"))?
                .len;
            if value >= len {
                let dim = self.dims[dim].name.to_string();
                return Err(CoordError::OutOfBounds { dim, value, len });
            }
            on.set(dim, value)?;
        }
        let lowered = self
            .stages
            .iter()
            .rev()
            .try_for_each(|stage| stage.apply(&mut on));
        let offset = lowered.and_then(|()| on.offset(&self.memory));
        match (offset, on.domain.padding) {
            (Ok(offset), invalid) => Ok((offset, invalid)),
            // A padded index wraps below zero, which later arithmetic may overflow: the
            // padding is the answer, not the overflow.
            (Err(_), Some(padding)) => Ok((0, Some(padding))),
            (Err(error), None) => Err(error),
        }
    }
}

/// Checked integers: every operation fails on overflow instead of wrapping, except the
/// subtraction of a padding, which wraps where the coordinate lies in the padding.
struct Checked<'a> {
    dims: &'a [Dim],
    /// The first padding the coordinate fell into.
    padding: Option<CoordError>,
}

impl Domain for Checked<'_> {
    type Value = usize;
    type Error = CoordError;

    fn fail(&self, why: &'static str) -> CoordError {
        CoordError::Malformed(why)
    }

    fn missing(&self) -> Result<usize, CoordError> {
        Err(CoordError::Malformed(
            "a dim is read before any transform computes it",
        ))
    }

    fn constant(&self, value: usize) -> Result<usize, CoordError> {
        Ok(value)
    }

    fn add(&self, a: usize, b: usize) -> Result<usize, CoordError> {
        a.checked_add(b).ok_or(OVERFLOW)
    }

    fn sub(&self, a: usize, b: usize) -> Result<usize, CoordError> {
        Ok(a.wrapping_sub(b))
    }

    fn scale(&self, a: usize, by: usize) -> Result<usize, CoordError> {
        a.checked_mul(by).ok_or(OVERFLOW)
    }

    fn div(&self, a: usize, by: usize) -> Result<usize, CoordError> {
        a.checked_div(by).ok_or(OVERFLOW)
    }

    fn rem(&self, a: usize, by: usize) -> Result<usize, CoordError> {
        a.checked_rem(by).ok_or(OVERFLOW)
    }

    fn xor(&self, a: usize, b: usize) -> Result<usize, CoordError> {
        Ok(a ^ b)
    }

    fn guard(&mut self, value: &usize, lo: usize, hi: usize, dim: DimId) -> Result<(), CoordError> {
        if !(lo..hi).contains(value) && self.padding.is_none() {
            let dim = self.dims[dim].name.to_string();
            self.padding = Some(CoordError::Padding { dim, value: *value });
        }
        Ok(())
    }
}
