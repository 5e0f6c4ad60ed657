//! `bits l -> [y: Y, x: X, …] (row₀, row₁, …)`: a linear map over GF(2). Bit `r` of `l` is
//! `row_r`, the XOR of chosen bits of the upper dims, lowest bit first: `x[0] ^ y[1]`, or
//! `0`. This is Triton's linear layouts and AMD's texture tiling (pipe bit 1 = `y[4] ^ x[5]
//! ^ x[4]`). Every length is a power of two and there is one row per bit of `l`. The map is
//! injective exactly when its matrix has full column rank, so its inverse and its
//! bijectivity come from the F2 canonical form.

use super::check::{self, Blame, Context};
use super::{Domain, Field, Lowering, Stage, names};
use crate::analysis::runs::Walk;
use crate::canon::f2::{BitForm, F2Map};
use crate::ir::{Dim, DimId, List, restated};
use std::borrow::Cow;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Bits {
    pub lower: DimId,
    pub upper: List<DimId>,
    /// Row `r` is bit `r` of `lower`: the input bits it XORs. Input bits number the upper
    /// dims' bits as their row-major index does (the last dim lowest).
    pub rows: List<u128>,
}

impl Bits {
    /// A copy in const data (see [`Transform::restate`](super::Transform::restate)).
    pub const fn restate(&self) -> Self {
        Bits { lower: self.lower, upper: restated(&self.upper), rows: restated(&self.rows) }
    }
}

impl Bits {
    /// The first input bit of each upper dim, and the number of input bits.
    fn starts(&self, len: impl Fn(DimId) -> usize) -> (Vec<u32>, u32) {
        let mut starts = vec![0; self.upper.len()];
        let mut next = 0u32;
        for (i, &dim) in self.upper.iter().enumerate().rev() {
            starts[i] = next;
            next += len(dim).trailing_zeros();
        }
        (starts, next)
    }

    /// The upper dim and its bit that input bit `input` is (starts fall from the first dim
    /// to the last).
    fn locate(&self, starts: &[u32], input: u32) -> Option<(DimId, u32)> {
        let i = (0..starts.len()).find(|&i| starts[i] <= input)?;
        Some((self.upper[i], input - starts[i]))
    }

    fn matrix(&self) -> F2Map {
        let rows = self.rows.iter().map(|&mask| BitForm {
            mask,
            constant: false,
        });
        F2Map {
            rows: rows.collect(),
        }
    }

    /// `Σ_r 2^r · XOR of the bits of `source` in `rows[r]``, reading bit `k` of the inputs
    /// with `bit(k)`.
    fn combine<D: Domain>(
        on: &Lowering<'_, D>,
        rows: impl Iterator<Item = u128>,
        bit: impl Fn(u32) -> Result<D::Value, D::Error>,
    ) -> Result<D::Value, D::Error> {
        let mut sum = on.domain.constant(0)?;
        for (position, mask) in (0..).zip(rows) {
            let mut row = on.domain.constant(0)?;
            for input in (0..128).filter(|&k| mask >> k & 1 == 1) {
                row = on.domain.xor(row, bit(input)?)?;
            }
            let placed = on.domain.scale(row, on.power(position)?)?;
            sum = on.domain.add(sum, placed)?;
        }
        Ok(sum)
    }
}

impl Stage for Bits {
    const KEYWORD: &'static str = "bits";

    fn lower(&self) -> Vec<DimId> {
        vec![self.lower]
    }

    fn upper(&self) -> Vec<DimId> {
        self.upper.to_vec()
    }

    fn apply<D: Domain>(&self, on: &mut Lowering<'_, D>) -> Result<(), D::Error> {
        let (starts, _) = self.starts(|d| on.len(d));
        let bit = |input: u32| {
            let (dim, bit) = self
                .locate(&starts, input)
                .ok_or_else(|| on.domain.fail("a row reads a bit past the upper dims"))?;
            on.field(on.get(dim)?, bit, 1)
        };
        let value = Bits::combine(on, self.rows.iter().copied(), bit)?;
        on.set(self.lower, value)
    }

    fn raise<D: Domain>(&self, on: &mut Lowering<'_, D>) -> Result<(), D::Error> {
        let (starts, total) = self.starts(|d| on.len(d));
        let inverse = self
            .matrix()
            .inverse(total)
            .ok_or_else(|| on.domain.fail("the bit matrix is singular"))?;
        let lower = on.get(self.lower)?;
        for (i, &dim) in self.upper.iter().enumerate() {
            let width = on.len(dim).trailing_zeros();
            let rows = inverse.slice(starts[i], width).rows.into_iter();
            let bit = |output: u32| on.field(lower.clone(), output, 1);
            let value = Bits::combine(on, rows.map(|row| row.mask), bit)?;
            on.set(dim, value)?;
        }
        Ok(())
    }

    fn injective(&self, dims: &[Dim]) -> bool {
        let (_, total) = self.starts(|d| dims[d].len);
        self.matrix().kernel(total).is_none()
    }

    /// Each of the block's bits must be a row of its own and appear in no other row.
    fn runs(&self, walk: &mut Walk<'_>) -> bool {
        let (starts, _) = self.starts(|d| walk.len(d));
        walk.placed_bits(&self.upper, self.lower, |i, bit, position| {
            let input = 1u128 << (starts[i] + bit);
            let readers = self.rows.iter().filter(|row| *row & input != 0).count();
            self.rows.get(position as usize) == Some(&input) && readers == 1
        })
    }

    fn describe(&self, dims: &[Dim]) -> String {
        let (starts, _) = self.starts(|d| dims[d].len);
        let rows: Vec<String> = self
            .rows
            .iter()
            .map(|&mask| {
                let terms: Vec<String> = (0..128)
                    .filter(|&k| mask >> k & 1 == 1)
                    .filter_map(|k| self.locate(&starts, k))
                    .map(|(dim, bit)| format!("{}[{bit}]", dims[dim].name))
                    .collect();
                match terms.is_empty() {
                    true => "0".to_owned(),
                    false => terms.join(" ^ "),
                }
            })
            .collect();
        let (lower, upper) = (&dims[self.lower].name, names(dims, &self.upper));
        format!("bits {lower} -> [{upper}] ({})", rows.join(", "))
    }

    fn fields(&self) -> Vec<(&'static str, Field<'_>)> {
        vec![
            ("lower", Field::Dim(self.lower)),
            ("upper", Field::Dims(&self.upper)),
            ("rows", Field::Bits(&self.rows)),
        ]
    }

    fn check(cx: &mut dyn Context) -> Option<Self> {
        let lower = cx.consume(0, false);
        let (upper, lens, mut ok) = check::written_powers_of_two(cx, "every dim of `bits`")?;
        let lower = lower?;
        let len = cx.len(lower)?;
        ok &= check::power_of_two(cx, Blame::Lower(0), len, "the dim of `bits`").is_some();
        if !ok {
            return None;
        }
        let widths: Vec<u32> = lens.iter().map(|len| len.trailing_zeros()).collect();
        let total: u32 = widths.iter().sum();
        if total > usize::BITS {
            let message = format!(
                "`bits` reads {total} bits of its dims, more than the {} of an index: use \
                 shorter dims",
                usize::BITS
            );
            cx.error(Blame::Uppers, message);
            return None;
        }
        let width = len.trailing_zeros() as usize;
        if cx.args() != width {
            let message = format!(
                "`bits` gives {} rows for the {width} bits of `{}` (length {len}): give one \
                 row per bit, lowest first",
                cx.args(),
                cx.name(lower),
            );
            cx.error(Blame::Args, message);
            return None;
        }
        let starts: Vec<u32> = (0..widths.len())
            .map(|i| widths[i + 1..].iter().sum())
            .collect();
        let mut rows = Vec::with_capacity(width);
        for i in 0..width {
            let Some((terms, flipped)) = cx.bits(i, &widths) else {
                ok = false;
                continue;
            };
            if flipped {
                cx.error(
                    Blame::Arg(i),
                    "this row XORs in the constant 1, which is not linear: `bits` maps 0 to \
                     0, so write the row without it"
                        .to_owned(),
                );
                ok = false;
            }
            // A bit named twice cancels, as XOR does.
            let mask = terms
                .iter()
                .fold(0u128, |mask, &(dim, bit)| mask ^ 1 << (starts[dim] + bit));
            rows.push(mask);
        }
        ok.then_some(Bits {
            lower,
            upper: Cow::Owned(upper),
            rows: Cow::Owned(rows),
        })
    }
}
