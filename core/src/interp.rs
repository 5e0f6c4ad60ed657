//! The reference interpreter: evaluates a [`Descriptor`] transform by transform, newest
//! first, exactly as docs/semantics.md defines each lowering. It is deliberately naive (no folding,
//! run-time lengths, checked arithmetic); everything faster is tested against it.

use crate::cute::CuteSwizzle;
use crate::ir::{Descriptor, DimId, Transform, morton_bits};
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
        let mut inside = coord.to_vec();
        for (axis, (&value, &extent)) in coord.iter().zip(extents).enumerate() {
            let grid = self.grid.iter().any(|g| g.coord == axis);
            if value >= extent || (!grid && extent != tile[axis]) {
                let dim = self.dims[self.coords[axis]].name.to_string();
                return Err(CoordError::OutOfBounds {
                    dim,
                    value,
                    len: extent,
                });
            }
            if grid {
                inside[axis] = value % tile[axis];
            }
        }
        let mut place = 0usize;
        for g in self.grid.iter() {
            let (t, count) = (tile[g.coord], extents[g.coord].div_ceil(tile[g.coord]));
            place = place
                .checked_mul(count)
                .and_then(|p| p.checked_add(coord[g.coord] / t))
                .ok_or(OVERFLOW)?;
        }
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
        let mut values: Vec<Option<usize>> = vec![None; self.dims.len()];
        for (&dim, &value) in self.coords.iter().zip(coord) {
            let len = self.dim(dim)?.len;
            if value >= len {
                let dim = self.dims[dim].name.to_string();
                return Err(CoordError::OutOfBounds { dim, value, len });
            }
            values[dim] = Some(value);
        }
        let mut invalid = None;
        let lowered = self.stages.iter().rev().try_for_each(|stage| {
            if let Some(padding) = self.lower_stage(stage, &mut values)? {
                invalid.get_or_insert(padding);
            }
            Ok(())
        });
        let offset = lowered.and_then(|()| {
            let mut offset = 0usize;
            for (&dim, &stride) in self.memory.dims.iter().zip(self.memory.strides.iter()) {
                let term = read(&values, dim)?.checked_mul(stride).ok_or(OVERFLOW)?;
                offset = offset.checked_add(term).ok_or(OVERFLOW)?;
            }
            Ok(offset)
        });
        match (offset, invalid) {
            (Ok(offset), invalid) => Ok((offset, invalid)),
            // A padded index wraps below zero, which later arithmetic may overflow: the
            // padding is the answer, not the overflow.
            (Err(_), Some(padding)) => Ok((0, Some(padding))),
            (Err(error), None) => Err(error),
        }
    }

    fn dim(&self, dim: DimId) -> Result<&crate::ir::Dim, CoordError> {
        self.dims
            .get(dim)
            .ok_or(CoordError::Malformed("dim id out of range"))
    }

    fn len(&self, dim: DimId) -> Result<usize, CoordError> {
        Ok(self.dim(dim)?.len)
    }

    /// Computes one stage's lower dims from its upper dims. Returns the padding error when
    /// the upper index lies in a `pad`'s padding (evaluation goes on with a wrapped value).
    fn lower_stage(
        &self,
        stage: &Transform,
        values: &mut [Option<usize>],
    ) -> Result<Option<CoordError>, CoordError> {
        let mut padding = None;
        match stage {
            Transform::Unmerge { lower, upper } => {
                let mut value = 0usize;
                for &dim in upper.iter() {
                    value = value
                        .checked_mul(self.len(dim)?)
                        .and_then(|v| v.checked_add(read(values, dim).ok()?))
                        .ok_or(OVERFLOW)?;
                }
                write(values, *lower, value)?;
            }
            Transform::Merge { lower, upper } => {
                let mut rest = read(values, *upper)?;
                for &dim in lower.iter().rev() {
                    let len = self.len(dim)?;
                    write(values, dim, rest % len)?;
                    rest /= len;
                }
            }
            Transform::Xor { lower, upper, key } => {
                let len = self.len(*upper)?;
                write(
                    values,
                    *lower,
                    read(values, *upper)? ^ (read(values, *key)? % len),
                )?;
            }
            Transform::Morton { lower, upper } => {
                let widths = upper
                    .iter()
                    .map(|&dim| Ok(self.len(dim)?.trailing_zeros()))
                    .collect::<Result<Vec<_>, CoordError>>()?;
                let mut value = 0usize;
                for (&dim, positions) in upper.iter().zip(morton_bits(&widths)) {
                    let index = read(values, dim)?;
                    for (bit, position) in positions.into_iter().enumerate() {
                        let set = (index >> bit) & 1;
                        value |= set.checked_shl(position).ok_or(OVERFLOW)?;
                    }
                }
                write(values, *lower, value)?;
            }
            Transform::Embed {
                lower,
                upper,
                strides,
            } => {
                let mut value = 0usize;
                for (&dim, &stride) in upper.iter().zip(strides.iter()) {
                    let term = read(values, dim)?.checked_mul(stride).ok_or(OVERFLOW)?;
                    value = value.checked_add(term).ok_or(OVERFLOW)?;
                }
                write(values, *lower, value)?;
            }
            Transform::Pad {
                lower,
                upper,
                left,
                right,
            } => {
                let index = read(values, *upper)?;
                let len = self.len(*upper)?;
                if index < *left || index >= len.saturating_sub(*right) {
                    let dim = self.dims[*upper].name.to_string();
                    padding = Some(CoordError::Padding { dim, value: index });
                }
                write(values, *lower, index.wrapping_sub(*left))?;
            }
            Transform::Slice {
                lower,
                upper,
                begin: by,
            }
            | Transform::Offset { lower, upper, by } => {
                let value = read(values, *upper)?.checked_add(*by).ok_or(OVERFLOW)?;
                write(values, *lower, value)?;
            }
            Transform::Freeze { lower, value } => write(values, *lower, *value)?,
            Transform::Replicate { .. } => {}
            Transform::Swizzle {
                lower,
                upper,
                bits,
                base,
                shift,
            } => {
                let swizzle = CuteSwizzle {
                    bits: *bits,
                    base: *base,
                    shift: *shift,
                };
                let value = swizzle.apply(read(values, *upper)?).ok_or(OVERFLOW)?;
                write(values, *lower, value)?;
            }
        }
        Ok(padding)
    }
}

fn read(values: &[Option<usize>], dim: DimId) -> Result<usize, CoordError> {
    values
        .get(dim)
        .copied()
        .flatten()
        .ok_or(CoordError::Malformed(
            "a dim is read before any transform computes it",
        ))
}

fn write(values: &mut [Option<usize>], dim: DimId, value: usize) -> Result<(), CoordError> {
    let slot = values
        .get_mut(dim)
        .ok_or(CoordError::Malformed("dim id out of range"))?;
    *slot = Some(value);
    Ok(())
}
