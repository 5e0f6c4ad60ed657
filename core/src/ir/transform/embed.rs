//! `embed l -> [a: A, b: B, …] strides [s, t, …]`: `l = a·s + b·t + …`. The dims need not
//! fill `l` (a padded row pitch leaves gaps), but must fit: `1 + Σ (len − 1)·stride ≤ len(l)`.
//! The memory statement is an embedding too, of the memory dims into the offset.

use super::check::{self, Blame, Context, show};
use super::{Domain, Field, Lowering, Stage, names};
use crate::analysis::runs::Walk;
use crate::ir::{Dim, DimId, List, restated};
use std::borrow::Cow;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Embed {
    pub lower: DimId,
    pub upper: List<DimId>,
    pub strides: List<usize>,
}

impl Embed {
    /// A copy in const data (see [`Transform::restate`](super::Transform::restate)).
    pub const fn restate(&self) -> Self {
        Embed { lower: self.lower, upper: restated(&self.upper), strides: restated(&self.strides) }
    }
}

/// Whether `Σ index_i · stride_i` is injective because, in increasing order of stride, each
/// stride exceeds the largest value the smaller ones reach together (mixed radix with gaps).
pub fn dominating_strides(dims: &[DimId], strides: &[usize], all: &[Dim]) -> bool {
    let mut order: Vec<(usize, usize)> = dims
        .iter()
        .zip(strides.iter())
        .map(|(&d, &stride)| (stride, all[d].len))
        .filter(|&(_, len)| len > 1)
        .collect();
    order.sort_unstable();
    let mut reach: u128 = 0;
    order.into_iter().all(|(stride, len)| {
        let dominates = stride as u128 > reach;
        reach += stride as u128 * (len as u128 - 1);
        dominates
    })
}

/// The dims of a strided embedding sorted from slowest to fastest, when the strides are
/// exactly the packed strides of some order of the dims (so the embedding is a bijection).
pub fn packed_order(dims: &[DimId], strides: &[usize], all: &[Dim]) -> Option<Vec<(DimId, usize)>> {
    let mut order: Vec<(DimId, usize)> = dims
        .iter()
        .copied()
        .zip(strides.iter().copied())
        .filter(|&(d, _)| all[d].len > 1)
        .collect();
    order.sort_by_key(|&(_, stride)| std::cmp::Reverse(stride));
    let mut expected = 1usize;
    for &(dim, stride) in order.iter().rev() {
        if stride != expected {
            return None;
        }
        expected = expected.checked_mul(all[dim].len)?;
    }
    Some(order)
}

/// Sets `dims` from `value = Σ value(dim) · stride` when the strides pack them (every dim
/// of length one is 0); fails otherwise.
pub fn unstride<D: Domain>(
    on: &mut Lowering<'_, D>,
    value: D::Value,
    dims: &[DimId],
    strides: &[usize],
) -> Result<(), D::Error> {
    let order = packed_order(dims, strides, on.dims)
        .ok_or_else(|| on.domain.fail("the strides leave gaps"))?;
    for &dim in dims {
        on.set(dim, on.domain.constant(0)?)?;
    }
    for (dim, stride) in order {
        let digit = on.domain.div(value.clone(), stride)?;
        let digit = on.domain.rem(digit, on.len(dim))?;
        on.set(dim, digit)?;
    }
    Ok(())
}

/// `1 + Σ (len_i − 1)·stride_i`, exactly (`None` past 2^128).
pub fn element_space(lens: &[usize], strides: &[usize]) -> Option<u128> {
    lens.iter()
        .zip(strides)
        .try_fold(1u128, |acc, (&len, &stride)| {
            acc.checked_add((len as u128).saturating_sub(1).checked_mul(stride as u128)?)
        })
}

impl Stage for Embed {
    const KEYWORD: &'static str = "embed";

    fn lower(&self) -> Vec<DimId> {
        vec![self.lower]
    }

    fn upper(&self) -> Vec<DimId> {
        self.upper.to_vec()
    }

    fn apply<D: Domain>(&self, on: &mut Lowering<'_, D>) -> Result<(), D::Error> {
        let value = on.strided(&self.upper, &self.strides)?;
        on.set(self.lower, value)
    }

    fn raise<D: Domain>(&self, on: &mut Lowering<'_, D>) -> Result<(), D::Error> {
        unstride(on, on.get(self.lower)?, &self.upper, &self.strides)
    }

    fn injective(&self, dims: &[Dim]) -> bool {
        dominating_strides(&self.upper, &self.strides, dims)
    }

    fn runs(&self, walk: &mut Walk<'_>) -> bool {
        walk.strided(&self.upper, &self.strides, self.lower)
    }

    fn describe(&self, dims: &[Dim]) -> String {
        let (lower, upper) = (&dims[self.lower].name, names(dims, &self.upper));
        format!("embed {lower} -> [{upper}]")
    }

    fn fields(&self) -> Vec<(&'static str, Field<'_>)> {
        vec![
            ("lower", Field::Dim(self.lower)),
            ("upper", Field::Dims(&self.upper)),
            ("strides", Field::Counts(&self.strides)),
        ]
    }

    fn check(cx: &mut dyn Context) -> Option<Self> {
        let lower = cx.consume(0, false);
        check::nonempty_uppers(cx)?;
        let (upper, lens) = check::declare_written(cx);
        if cx.args() != cx.uppers() {
            let message = format!(
                "`embed` has {} strides for {} dims: give one stride per dim",
                cx.args(),
                cx.uppers()
            );
            cx.error(Blame::Args, message);
            return None;
        }
        let strides: Vec<Option<usize>> =
            (0..cx.args()).map(|i| cx.value(i, "a stride", 0)).collect();
        let strides: Vec<usize> = strides.into_iter().collect::<Option<_>>()?;
        let lower = lower?;
        let lens: Vec<usize> = lens.into_iter().collect::<Option<_>>()?;
        let len = cx.len(lower)?;
        let space = element_space(&lens, &strides);
        if space.is_none_or(|s| s > len as u128) {
            let terms: Vec<String> = lens
                .iter()
                .zip(&strides)
                .map(|(&l, &s)| format!("{}·{}", show(l as u128 - 1), show(s as u128)))
                .collect();
            let space = space.map_or("more than 2^128".into(), show);
            let message = format!(
                "`embed` addresses {space} elements (1 + {}) but `{}` has length {len}: \
                 shrink the lengths or strides so that 1 + Σ (length − 1)·stride ≤ {len}",
                terms.join(" + "),
                cx.name(lower),
            );
            cx.error(Blame::UppersAndArgs, message);
            return None;
        }
        Some(Embed {
            lower,
            upper: Cow::Owned(upper),
            strides: Cow::Owned(strides),
        })
    }
}
