//! Images in memory that are not dense row-major arrays: rows with a pitch wider than the
//! row (texture rows, padded scanlines), other orders of the coordinates (column-major), and
//! rectangles of a larger image. A [`View`] says where each coordinate lies: at
//! `origin + Σ cᵢ · strides[i]`, in elements of the buffer.

use super::{Frame, KernelError, Side};
use swizzle_core::ir::row_major_strides;

/// Where the coordinates of an image lie in its buffer. Built by the constructors, which
/// check it; no two coordinates of a view share an element, so a copy into one writes each
/// element at most once.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct View {
    extents: Vec<usize>,
    strides: Vec<usize>,
    origin: usize,
}

impl View {
    /// A dense row-major image (the last coordinate fastest).
    pub fn row_major(extents: &[usize]) -> Result<Self, KernelError> {
        let order: Vec<usize> = (0..extents.len()).collect();
        Self::in_order(extents, &order)
    }

    /// A dense column-major image (the first coordinate fastest): the transpose of
    /// [`row_major`](Self::row_major) in memory.
    pub fn column_major(extents: &[usize]) -> Result<Self, KernelError> {
        let order: Vec<usize> = (0..extents.len()).rev().collect();
        Self::in_order(extents, &order)
    }

    /// A dense image whose coordinates are stored in `order`, slowest first: `[0, 1]` is
    /// row-major, `[1, 0]` column-major.
    pub fn in_order(extents: &[usize], order: &[usize]) -> Result<Self, KernelError> {
        let mut seen = vec![false; extents.len()];
        let is_permutation = order.len() == extents.len()
            && order
                .iter()
                .all(|&i| i < seen.len() && !std::mem::replace(&mut seen[i], true));
        if !is_permutation {
            return Err(KernelError::Order {
                order: order.to_vec(),
                rank: extents.len(),
            });
        }
        // Row-major over the extents in storage order, then each stride back to its
        // coordinate.
        let stored: Vec<usize> = order
            .iter()
            .map(|&coordinate| extents[coordinate])
            .collect();
        let stored = row_major_strides(&stored).ok_or_else(|| overflow(extents))?;
        let mut strides = vec![0; extents.len()];
        for (&coordinate, stride) in order.iter().zip(stored) {
            strides[coordinate] = stride;
        }
        Self::strided(extents, &strides, 0)
    }

    /// A row-major image whose rows start `pitch` elements apart (`pitch ≥` the last
    /// extent): the rows of a texture or a bitmap with padded scanlines. In more than two
    /// dimensions the pitch is that of the last coordinate's rows, and the outer
    /// coordinates are dense over them.
    pub fn pitched(extents: &[usize], pitch: usize) -> Result<Self, KernelError> {
        let Some((&width, outer)) = extents.split_last() else {
            return Self::strided(extents, &[], 0);
        };
        if pitch < width {
            return Err(KernelError::Pitch { pitch, width });
        }
        // Row-major over the outer extents and rows of `pitch` elements.
        let rows: Vec<usize> = outer.iter().copied().chain([pitch]).collect();
        let strides = row_major_strides(&rows).ok_or_else(|| overflow(extents))?;
        Self::strided(extents, &strides, 0)
    }

    /// Any strides and origin, checked: no two coordinates may share an element (sorted by
    /// stride, each coordinate's stride must reach past all the faster ones), and the last
    /// element must have an offset that `usize` holds.
    pub fn strided(
        extents: &[usize],
        strides: &[usize],
        origin: usize,
    ) -> Result<Self, KernelError> {
        if strides.len() != extents.len() {
            return Err(KernelError::Rank {
                expected: extents.len(),
                found: strides.len(),
            });
        }
        let view = View {
            extents: extents.to_vec(),
            strides: strides.to_vec(),
            origin,
        };
        view.reach().ok_or_else(|| overflow(extents))?;
        if view.is_empty() {
            return Ok(view);
        }
        let mut dims: Vec<(usize, usize)> = strides
            .iter()
            .copied()
            .zip(extents.iter().copied())
            .filter(|&(_, len)| len > 1)
            .collect();
        dims.sort_unstable();
        let mut covered = 1;
        for &(stride, len) in &dims {
            if stride < covered {
                return Err(KernelError::Overlap {
                    extents: extents.to_vec(),
                    strides: strides.to_vec(),
                });
            }
            covered += stride * (len - 1);
        }
        Ok(view)
    }

    /// The rectangle of `extents` starting at `origin` (one coordinate per extent) of this
    /// image, in the same buffer.
    pub fn sub_view(&self, origin: &[usize], extents: &[usize]) -> Result<Self, KernelError> {
        let rank = self.extents.len();
        for found in [origin.len(), extents.len()] {
            if found != rank {
                return Err(KernelError::Rank {
                    expected: rank,
                    found,
                });
            }
        }
        let inside = origin
            .iter()
            .zip(extents)
            .zip(&self.extents)
            .all(|((o, e), image)| o.checked_add(*e).is_some_and(|end| end <= *image));
        if !inside {
            return Err(KernelError::SubView {
                origin: origin.to_vec(),
                extents: extents.to_vec(),
                image: self.extents.clone(),
            });
        }
        // Inside the image, so below its reach: no overflow.
        let start: usize = origin.iter().zip(&self.strides).map(|(o, s)| o * s).sum();
        Ok(View {
            extents: extents.to_vec(),
            strides: self.strides.clone(),
            origin: self.origin + start,
        })
    }

    /// The extents of the coordinates.
    pub fn extents(&self) -> &[usize] {
        &self.extents
    }

    /// How far the next element along each coordinate lies, in elements.
    pub fn strides(&self) -> &[usize] {
        &self.strides
    }

    /// The offset of the first element.
    pub fn origin(&self) -> usize {
        self.origin
    }

    /// Whether the image has no elements.
    pub fn is_empty(&self) -> bool {
        self.extents.contains(&0)
    }

    /// Elements a buffer needs to hold every element of the view: one past the last
    /// element's offset (0 for an empty view); `None` past `usize::MAX`.
    pub fn reach(&self) -> Option<usize> {
        if self.is_empty() {
            return Some(0);
        }
        self.extents
            .iter()
            .zip(&self.strides)
            .try_fold(self.origin, |end, (len, stride)| {
                end.checked_add((len - 1).checked_mul(*stride)?)
            })?
            .checked_add(1)
    }

    /// The offset of `coordinate`, or `None` outside the extents.
    pub fn offset(&self, coordinate: &[usize]) -> Option<usize> {
        (coordinate.len() == self.extents.len()
            && coordinate.iter().zip(&self.extents).all(|(c, e)| c < e))
        .then(|| {
            coordinate
                .iter()
                .zip(&self.strides)
                .map(|(c, s)| c * s)
                .sum::<usize>()
                + self.origin
        })
    }

    /// This image as one side of a kernel's copy.
    pub fn side(&self) -> Side<'_> {
        Side {
            extents: &self.extents,
            frame: Frame::Strided {
                strides: &self.strides,
                origin: self.origin,
            },
        }
    }
}

/// Extents whose element offsets do not fit `usize`.
fn overflow(extents: &[usize]) -> KernelError {
    KernelError::Overflow {
        extents: extents.to_vec(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn views_place_coordinates_where_their_names_say() {
        let pitched = View::pitched(&[3, 4], 6).unwrap();
        assert_eq!(pitched.offset(&[2, 1]), Some(13));
        assert_eq!(pitched.reach(), Some(16));
        let columns = View::column_major(&[3, 4]).unwrap();
        assert_eq!(columns.offset(&[2, 1]), Some(5));
        assert_eq!(columns.strides(), [1, 3]);
        let inner = View::row_major(&[5, 7])
            .unwrap()
            .sub_view(&[1, 2], &[3, 4])
            .unwrap();
        assert_eq!(inner.origin(), 9);
        assert_eq!(inner.offset(&[2, 3]), Some(9 + 14 + 3));
        assert_eq!(inner.offset(&[3, 0]), None);
        let order = View::in_order(&[2, 3, 4], &[2, 0, 1]).unwrap();
        assert_eq!(order.strides(), [3, 1, 6]);
    }

    #[test]
    fn bad_views_are_typed_errors() {
        assert_eq!(
            View::pitched(&[3, 4], 3),
            Err(KernelError::Pitch { pitch: 3, width: 4 })
        );
        assert!(matches!(
            View::row_major(&[5, 7]).unwrap().sub_view(&[3, 0], &[3, 7]),
            Err(KernelError::SubView { .. })
        ));
        assert!(matches!(
            View::strided(&[4, 4], &[2, 1], 0),
            Err(KernelError::Overlap { .. })
        ));
        assert!(matches!(
            View::in_order(&[4, 4], &[1, 1]),
            Err(KernelError::Order { .. })
        ));
        assert!(matches!(
            View::strided(&[usize::MAX, 2], &[2, 1], 0),
            Err(KernelError::Overflow { .. })
        ));
        // Coordinates of one element may have any stride: they never meet another.
        assert!(View::strided(&[1, 4], &[0, 1], 0).is_ok());
        let message = View::pitched(&[3, 4], 3).unwrap_err().to_string();
        assert!(message.contains("at least 4"), "{message}");
    }
}
