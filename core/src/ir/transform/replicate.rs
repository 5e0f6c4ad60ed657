//! `replicate -> [r: R, …]`: broadcast dims with no lower index at all; every value of `r`
//! reaches the same element (CK's `replicate`, a stride-0 dim in CuTe).

use super::check::{self, Context};
use super::{Domain, Field, Lowering, Stage, names};
use crate::analysis::runs::Walk;
use crate::ir::{Dim, DimId, List, restated};
use std::borrow::Cow;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Replicate {
    pub upper: List<DimId>,
}

impl Replicate {
    /// A copy in const data (see [`Transform::restate`](super::Transform::restate)).
    pub const fn restate(&self) -> Self {
        Replicate { upper: restated(&self.upper) }
    }
}

impl Stage for Replicate {
    const KEYWORD: &'static str = "replicate";

    fn lower(&self) -> Vec<DimId> {
        Vec::new()
    }

    fn upper(&self) -> Vec<DimId> {
        self.upper.to_vec()
    }

    fn apply<D: Domain>(&self, _: &mut Lowering<'_, D>) -> Result<(), D::Error> {
        Ok(())
    }

    /// A broadcast dim of length one is 0; a longer one has no value memory decides.
    fn raise<D: Domain>(&self, on: &mut Lowering<'_, D>) -> Result<(), D::Error> {
        for &dim in self.upper.iter() {
            if on.len(dim) > 1 {
                return Err(on.domain.fail("a broadcast dim has no inverse"));
            }
            on.set(dim, on.domain.constant(0)?)?;
        }
        Ok(())
    }

    fn injective(&self, dims: &[Dim]) -> bool {
        self.upper.iter().all(|&d| dims[d].len == 1)
    }

    /// A broadcast dim that varies inside the block sends it to one element.
    fn runs(&self, _: &mut Walk<'_>) -> bool {
        false
    }

    fn describe(&self, dims: &[Dim]) -> String {
        format!("replicate -> [{}]", names(dims, &self.upper))
    }

    fn fields(&self) -> Vec<(&'static str, Field<'_>)> {
        vec![("upper", Field::Dims(&self.upper))]
    }

    fn check(cx: &mut dyn Context) -> Option<Self> {
        let (upper, _) = check::written(cx)?;
        Some(Replicate {
            upper: Cow::Owned(upper),
        })
    }
}
