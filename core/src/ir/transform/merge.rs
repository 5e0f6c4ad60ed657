//! `merge [a, b, …] -> m`: `a, b, …` are the row-major digits of `m` (the last fastest), and
//! `len(m)` is the product of theirs. The slowest digit may be a run-time (`dyn`) memory
//! dim: `m` then counts tiles of the other digits.

use super::check::{self, Blame, Context, show};
use super::{Domain, Field, Lowering, Stage, names};
use crate::analysis::runs::Walk;
use crate::ir::{Dim, DimId, List, restated};
use std::borrow::Cow;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Merge {
    pub lower: List<DimId>,
    pub upper: DimId,
}

impl Merge {
    /// A copy in const data (see [`Transform::restate`](super::Transform::restate)).
    pub const fn restate(&self) -> Self {
        Merge { upper: self.upper, lower: restated(&self.lower) }
    }
}

impl Stage for Merge {
    const KEYWORD: &'static str = "merge";

    fn lower(&self) -> Vec<DimId> {
        self.lower.to_vec()
    }

    fn upper(&self) -> Vec<DimId> {
        vec![self.upper]
    }

    fn apply<D: Domain>(&self, on: &mut Lowering<'_, D>) -> Result<(), D::Error> {
        on.digits(on.get(self.upper)?, &self.lower)
    }

    fn raise<D: Domain>(&self, on: &mut Lowering<'_, D>) -> Result<(), D::Error> {
        let lens: Vec<usize> = self.lower.iter().map(|&d| on.len(d)).collect();
        let strides = crate::ir::row_major_strides(&lens)
            .ok_or_else(|| on.domain.fail("arithmetic overflow"))?;
        let value = on.strided(&self.lower, &strides)?;
        on.set(self.upper, value)
    }

    fn injective(&self, _: &[Dim]) -> bool {
        true
    }

    fn runs(&self, walk: &mut Walk<'_>) -> bool {
        walk.digits(self.upper, &self.lower)
    }

    fn describe(&self, dims: &[Dim]) -> String {
        let (lower, upper) = (names(dims, &self.lower), &dims[self.upper].name);
        format!("merge [{lower}] -> {upper}")
    }

    fn fields(&self) -> Vec<(&'static str, Field<'_>)> {
        vec![
            ("lower", Field::Dims(&self.lower)),
            ("upper", Field::Dim(self.upper)),
        ]
    }

    fn check(cx: &mut dyn Context) -> Option<Self> {
        let ids: Vec<Option<DimId>> = (0..cx.lowers()).map(|i| cx.consume(i, i == 0)).collect();
        check::nonempty(cx, ids.len());
        let ids: Option<Vec<DimId>> = ids.into_iter().collect();
        let lens: Option<Vec<usize>> = ids
            .as_ref()
            .and_then(|ids| ids.iter().map(|&d| cx.len(d)).collect());
        let len = lens.and_then(|lens| {
            let product = lens
                .iter()
                .try_fold(1u128, |acc, &l| acc.checked_mul(l as u128));
            match product {
                Some(p) if p <= usize::MAX as u128 => Some(p as usize),
                _ => {
                    let product = product.map_or("more than 2^128".into(), show);
                    cx.error(
                        Blame::Lowers,
                        format!(
                            "the merged length {product} overflows `usize`: merge fewer or \
                             shorter dims"
                        ),
                    );
                    None
                }
            }
        });
        let upper = cx.declare(0, len);
        if let Some(&first) = ids.as_ref().and_then(|ids| ids.first())
            && cx.is_dynamic(first)
        {
            cx.counts_tiles(first, upper);
        }
        Some(Merge {
            lower: Cow::Owned(ids?),
            upper,
        })
    }
}
