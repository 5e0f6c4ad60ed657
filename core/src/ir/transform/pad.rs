//! `pad l -> u (left, right)`: `l = u − left`, and `len(u) = len(l) + left + right`. A
//! coordinate is valid only where `left ≤ u < len(u) − right`; in the padding it has no
//! offset (CK's `pad`, whose padded reads return 0).

use super::check::{Blame, Context};
use super::{Domain, Field, Lowering, Stage};
use crate::analysis::runs::Walk;
use crate::ir::{Dim, DimId};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pad {
    pub lower: DimId,
    pub upper: DimId,
    pub left: usize,
    pub right: usize,
}

impl Pad {
    /// A copy in const data (see [`Transform::restate`](super::Transform::restate)).
    pub const fn restate(&self) -> Self {
        *self
    }
}

impl Stage for Pad {
    const KEYWORD: &'static str = "pad";

    fn lower(&self) -> Vec<DimId> {
        vec![self.lower]
    }

    fn upper(&self) -> Vec<DimId> {
        vec![self.upper]
    }

    fn apply<D: Domain>(&self, on: &mut Lowering<'_, D>) -> Result<(), D::Error> {
        let index = on.get(self.upper)?;
        if self.pads() {
            let end = on.len(self.upper).saturating_sub(self.right);
            on.domain.guard(&index, self.left, end, self.upper)?;
        }
        let shifted = on.domain.sub(index, on.domain.constant(self.left)?)?;
        on.set(self.lower, shifted)
    }

    fn raise<D: Domain>(&self, on: &mut Lowering<'_, D>) -> Result<(), D::Error> {
        let index = on.domain.add(on.get(self.lower)?, on.domain.constant(self.left)?)?;
        on.set(self.upper, index)
    }

    fn injective(&self, _: &[Dim]) -> bool {
        true
    }

    fn runs(&self, walk: &mut Walk<'_>) -> bool {
        walk.shifted(self.upper, self.lower, self.left)
    }

    fn describe(&self, dims: &[Dim]) -> String {
        let (lower, upper) = (&dims[self.lower].name, &dims[self.upper].name);
        format!("pad {lower} -> {upper} ({}, {})", self.left, self.right)
    }

    fn fields(&self) -> Vec<(&'static str, Field<'_>)> {
        vec![
            ("lower", Field::Dim(self.lower)),
            ("upper", Field::Dim(self.upper)),
            ("left", Field::Count(self.left)),
            ("right", Field::Count(self.right)),
        ]
    }

    fn check(cx: &mut dyn Context) -> Option<Self> {
        let lower = cx.consume(0, false);
        let (left, right) = (cx.value(0, "a padding", 0), cx.value(1, "a padding", 0));
        let len = match (lower.and_then(|l| cx.len(l)), left, right) {
            (Some(len), Some(l), Some(r)) => {
                let padded = len.checked_add(l).and_then(|v| v.checked_add(r));
                if padded.is_none() {
                    let name = cx.lower_name(0);
                    cx.error(
                        Blame::Args,
                        format!(
                            "padding `{name}` (length {len}) by {l} and {r} overflows `usize`: \
                             use smaller paddings"
                        ),
                    );
                }
                padded
            }
            _ => None,
        };
        let upper = cx.declare(0, len);
        len?;
        Some(Pad {
            lower: lower?,
            upper,
            left: left?,
            right: right?,
        })
    }

    fn pads(&self) -> bool {
        self.left > 0 || self.right > 0
    }
}
