//! Layouts as values. A fixed-size layout is a zero-sized type whose shape is a constant; a
//! layout with run-time (`dyn`) outer dims holds its extents. [`Indexing`] covers both, so
//! that kernels and the run-time checks take either.

use std::fmt;

/// A map from the coordinates inside `extents` to offsets below `space`: what every type that
/// `layout!` generates implements, and [`RowMajor`] too.
pub trait Indexing<const N: usize> {
    /// The extent of each coordinate.
    fn extents(&self) -> [usize; N];

    /// Number of elements the offsets index into: the length a buffer in this layout has.
    fn space(&self) -> usize;

    /// The offset of `coord`, which must be valid (checked in debug builds only).
    fn offset_of(&self, coord: [usize; N]) -> usize;

    /// Whether `coord` lies inside the extents and outside every padding.
    fn is_valid_at(&self, coord: [usize; N]) -> bool;
}

/// A dense row-major array (last coordinate fastest) of run-time extents: the plain image
/// that `pack` reads and `unpack` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RowMajor<const N: usize> {
    extents: [usize; N],
    strides: [usize; N],
    space: usize,
}

impl<const N: usize> RowMajor<N> {
    /// A row-major array of these extents; fails when it would hold more than `usize::MAX`
    /// elements.
    pub fn new(extents: [usize; N]) -> Result<Self, ExtentError> {
        let mut strides = [1; N];
        let mut space = 1usize;
        for axis in (0..N).rev() {
            strides[axis] = space;
            space = space
                .checked_mul(extents[axis])
                .ok_or(ExtentError::new("RowMajor", &extents))?;
        }
        Ok(RowMajor {
            extents,
            strides,
            space,
        })
    }

    /// The distance in elements between neighbours along each coordinate.
    pub fn strides(&self) -> [usize; N] {
        self.strides
    }
}

impl<const N: usize> Indexing<N> for RowMajor<N> {
    fn extents(&self) -> [usize; N] {
        self.extents
    }

    fn space(&self) -> usize {
        self.space
    }

    #[inline(always)]
    fn offset_of(&self, coord: [usize; N]) -> usize {
        debug_assert!(self.is_valid_at(coord), "coordinate out of bounds");
        coord.iter().zip(self.strides).map(|(c, s)| c * s).sum()
    }

    fn is_valid_at(&self, coord: [usize; N]) -> bool {
        coord.iter().zip(self.extents).all(|(&c, e)| c < e)
    }
}

/// Extents whose element space does not fit in `usize`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExtentError {
    layout: &'static str,
    extents: Vec<usize>,
}

impl ExtentError {
    /// The error for `layout` at these extents.
    pub fn new(layout: &'static str, extents: &[usize]) -> Self {
        ExtentError {
            layout,
            extents: extents.to_vec(),
        }
    }

    /// The extents that were asked for.
    pub fn extents(&self) -> &[usize] {
        &self.extents
    }
}

impl fmt::Display for ExtentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let extents: Vec<String> = self.extents.iter().map(usize::to_string).collect();
        write!(
            f,
            "`{}` of extents {} needs more than `usize::MAX` elements",
            self.layout,
            extents.join(" × ")
        )
    }
}

impl std::error::Error for ExtentError {}
