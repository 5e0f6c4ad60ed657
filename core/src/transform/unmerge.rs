//! `unmerge l -> [a: A, b: B, …]`: `l = row-major(a, b, …)`, the last dim fastest. The
//! lengths multiply to `len(l)`.

use super::check::{self, Context};
use super::{Domain, Field, Lowering, Stage, names};
use crate::analysis::runs::Walk;
use crate::ir::{Dim, DimId, List, row_major_strides};
use std::borrow::Cow;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Unmerge {
    pub lower: DimId,
    pub upper: List<DimId>,
}

impl Unmerge {
    fn strides<D: Domain>(&self, on: &Lowering<'_, D>) -> Result<Vec<usize>, D::Error> {
        let lens: Vec<usize> = self.upper.iter().map(|&d| on.len(d)).collect();
        row_major_strides(&lens).ok_or_else(|| on.domain.fail("arithmetic overflow"))
    }
}

impl Stage for Unmerge {
    const KEYWORD: &'static str = "unmerge";

    fn lower(&self) -> Vec<DimId> {
        vec![self.lower]
    }

    fn upper(&self) -> Vec<DimId> {
        self.upper.to_vec()
    }

    fn apply<D: Domain>(&self, on: &mut Lowering<'_, D>) -> Result<(), D::Error> {
        let value = on.strided(&self.upper, &self.strides(on)?)?;
        on.set(self.lower, value)
    }

    fn raise<D: Domain>(&self, on: &mut Lowering<'_, D>) -> Result<(), D::Error> {
        on.digits(on.get(self.lower)?, &self.upper)
    }

    fn injective(&self, _: &[Dim]) -> bool {
        true
    }

    fn runs(&self, walk: &mut Walk<'_>) -> bool {
        let lens: Vec<usize> = self.upper.iter().map(|&d| walk.len(d)).collect();
        row_major_strides(&lens)
            .is_some_and(|strides| walk.strided(&self.upper, &strides, self.lower))
    }

    fn describe(&self, dims: &[Dim]) -> String {
        let (lower, upper) = (&dims[self.lower].name, names(dims, &self.upper));
        format!("unmerge {lower} -> [{upper}]")
    }

    fn fields(&self) -> Vec<(&'static str, Field<'_>)> {
        vec![
            ("lower", Field::Dim(self.lower)),
            ("upper", Field::Dims(&self.upper)),
        ]
    }

    fn check(cx: &mut dyn Context) -> Option<Self> {
        let lower = cx.consume(0, false);
        let (upper, lens) = check::written(cx)?;
        let lower = lower?;
        check::product(cx, &lens, lower)?;
        Some(Unmerge {
            lower,
            upper: Cow::Owned(upper),
        })
    }
}
