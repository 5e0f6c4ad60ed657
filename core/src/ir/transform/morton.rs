//! `morton m -> [a: A, b: B, …]`: `m` interleaves the bits of `a, b, …`, the last dim in the
//! lowest bit. Bits are dealt round-robin from bit 0, cycling over the dims from the last to
//! the first and skipping a dim once its bits are used up (the Morton order of CK Tile's Morton
//! texture example; every length a power of two).

use super::check::{self, Context};
use super::{Domain, Field, Lowering, Stage, names};
use crate::analysis::runs::Walk;
use crate::ir::{Dim, DimId, List, restated};
use std::borrow::Cow;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Morton {
    pub lower: DimId,
    pub upper: List<DimId>,
}

impl Morton {
    /// A copy in const data (see [`Transform::restate`](super::Transform::restate)).
    pub const fn restate(&self) -> Self {
        Morton { lower: self.lower, upper: restated(&self.upper) }
    }
}

/// Bit positions of a Morton interleave: for each dim (in `upper` order) the bit of the
/// interleaved index that each of its bits lands in.
pub fn morton_bits(widths: &[u32]) -> Vec<Vec<u32>> {
    let mut positions: Vec<Vec<u32>> = widths.iter().map(|_| Vec::new()).collect();
    let mut next = 0u32;
    let rounds = widths.iter().copied().max().unwrap_or(0);
    for round in 0..rounds {
        for (dim, &width) in widths.iter().enumerate().rev() {
            if round < width {
                positions[dim].push(next);
                next += 1;
            }
        }
    }
    positions
}

impl Morton {
    /// For each upper dim, where each of its bits goes.
    fn positions(&self, len: impl Fn(DimId) -> usize) -> Vec<Vec<u32>> {
        let widths: Vec<u32> = self.upper.iter().map(|&d| len(d).trailing_zeros()).collect();
        morton_bits(&widths)
    }
}

impl Stage for Morton {
    const KEYWORD: &'static str = "morton";

    fn lower(&self) -> Vec<DimId> {
        vec![self.lower]
    }

    fn upper(&self) -> Vec<DimId> {
        self.upper.to_vec()
    }

    fn apply<D: Domain>(&self, on: &mut Lowering<'_, D>) -> Result<(), D::Error> {
        let mut sum = on.domain.constant(0)?;
        for (&dim, positions) in self.upper.iter().zip(self.positions(|d| on.len(d))) {
            for (bit, position) in (0..).zip(positions) {
                let digit = on.field(on.get(dim)?, bit, 1)?;
                let placed = on.domain.scale(digit, on.power(position)?)?;
                sum = on.domain.add(sum, placed)?;
            }
        }
        on.set(self.lower, sum)
    }

    fn raise<D: Domain>(&self, on: &mut Lowering<'_, D>) -> Result<(), D::Error> {
        let interleaved = on.get(self.lower)?;
        for (&dim, positions) in self.upper.iter().zip(self.positions(|d| on.len(d))) {
            let mut value = on.domain.constant(0)?;
            for (bit, position) in (0..).zip(positions) {
                let digit = on.field(interleaved.clone(), position, 1)?;
                let placed = on.domain.scale(digit, on.power(bit)?)?;
                value = on.domain.add(value, placed)?;
            }
            on.set(dim, value)?;
        }
        Ok(())
    }

    fn injective(&self, _: &[Dim]) -> bool {
        true
    }

    /// The block's bits must land on the interleaved dim's bits 0, 1, 2, … in order.
    fn runs(&self, walk: &mut Walk<'_>) -> bool {
        let positions = self.positions(|d| walk.len(d));
        walk.placed_bits(&self.upper, self.lower, |i, bit, position| {
            positions[i].get(bit as usize) == Some(&position)
        })
    }

    fn describe(&self, dims: &[Dim]) -> String {
        let (lower, upper) = (&dims[self.lower].name, names(dims, &self.upper));
        format!("morton {lower} -> [{upper}]")
    }

    fn fields(&self) -> Vec<(&'static str, Field<'_>)> {
        vec![
            ("lower", Field::Dim(self.lower)),
            ("upper", Field::Dims(&self.upper)),
        ]
    }

    fn check(cx: &mut dyn Context) -> Option<Self> {
        let lower = cx.consume(0, false);
        let (upper, lens, ok) = check::written_powers_of_two(cx, "every dim of `morton`")?;
        let lower = lower?;
        check::product(cx, &lens, lower)?;
        ok.then_some(Morton {
            lower,
            upper: Cow::Owned(upper),
        })
    }
}
