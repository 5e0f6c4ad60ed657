//! `offset l -> u (+by)`: `l = u + by`, `len(u) = len(l) − by` (CK's `offset`).

use super::check::{Blame, Context};
use super::{Domain, Field, Lowering, Stage};
use crate::analysis::runs::Walk;
use crate::ir::{Dim, DimId};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Offset {
    pub lower: DimId,
    pub upper: DimId,
    pub by: usize,
}

impl Offset {
    /// A copy in const data (see [`Transform::restate`](super::Transform::restate)).
    pub const fn restate(&self) -> Self {
        *self
    }
}

impl Stage for Offset {
    const KEYWORD: &'static str = "offset";

    fn lower(&self) -> Vec<DimId> {
        vec![self.lower]
    }

    fn upper(&self) -> Vec<DimId> {
        vec![self.upper]
    }

    fn apply<D: Domain>(&self, on: &mut Lowering<'_, D>) -> Result<(), D::Error> {
        let moved = on.domain.add(on.get(self.upper)?, on.domain.constant(self.by)?)?;
        on.set(self.lower, moved)
    }

    fn raise<D: Domain>(&self, on: &mut Lowering<'_, D>) -> Result<(), D::Error> {
        let moved = on.domain.sub(on.get(self.lower)?, on.domain.constant(self.by)?)?;
        on.set(self.upper, moved)
    }

    fn injective(&self, _: &[Dim]) -> bool {
        true
    }

    fn runs(&self, walk: &mut Walk<'_>) -> bool {
        walk.shifted(self.upper, self.lower, self.by)
    }

    fn describe(&self, dims: &[Dim]) -> String {
        let (lower, upper) = (&dims[self.lower].name, &dims[self.upper].name);
        format!("offset {lower} -> {upper} (+{})", self.by)
    }

    fn fields(&self) -> Vec<(&'static str, Field<'_>)> {
        vec![
            ("lower", Field::Dim(self.lower)),
            ("upper", Field::Dim(self.upper)),
            ("by", Field::Count(self.by)),
        ]
    }

    fn check(cx: &mut dyn Context) -> Option<Self> {
        let lower = cx.consume(0, false);
        let by = cx.value(0, "an offset", 0);
        let len = match (lower.and_then(|l| cx.len(l)), by) {
            (Some(len), Some(k)) if k < len => Some(len - k),
            (Some(len), Some(k)) => {
                let name = cx.lower_name(0);
                let message = format!(
                    "offset +{k} leaves nothing of `{name}` (length {len}): the offset must be \
                     less than {len}"
                );
                cx.error(Blame::Arg(0), message);
                None
            }
            _ => None,
        };
        let upper = cx.declare(0, len);
        len?;
        Some(Offset {
            lower: lower?,
            upper,
            by: by?,
        })
    }
}
