//! `freeze l = v`: `l` is the constant `v` (`v < len(l)`); no coordinate reaches it.

use super::check::{Blame, Context};
use super::{Domain, Field, Lowering, Stage};
use crate::analysis::runs::Walk;
use crate::ir::{Dim, DimId};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Freeze {
    pub lower: DimId,
    pub value: usize,
}

impl Freeze {
    /// A copy in const data (see [`Transform::restate`](super::Transform::restate)).
    pub const fn restate(&self) -> Self {
        *self
    }
}

impl Stage for Freeze {
    const KEYWORD: &'static str = "freeze";

    fn lower(&self) -> Vec<DimId> {
        vec![self.lower]
    }

    fn upper(&self) -> Vec<DimId> {
        Vec::new()
    }

    fn apply<D: Domain>(&self, on: &mut Lowering<'_, D>) -> Result<(), D::Error> {
        on.set(self.lower, on.domain.constant(self.value)?)
    }

    fn raise<D: Domain>(&self, _: &mut Lowering<'_, D>) -> Result<(), D::Error> {
        Ok(())
    }

    fn injective(&self, _: &[Dim]) -> bool {
        true
    }

    fn runs(&self, _: &mut Walk<'_>) -> bool {
        true
    }

    fn describe(&self, dims: &[Dim]) -> String {
        format!("freeze {} = {}", dims[self.lower].name, self.value)
    }

    fn fields(&self) -> Vec<(&'static str, Field<'_>)> {
        vec![
            ("lower", Field::Dim(self.lower)),
            ("value", Field::Count(self.value)),
        ]
    }

    fn check(cx: &mut dyn Context) -> Option<Self> {
        let lower = cx.consume(0, false);
        let value = cx.value(0, "a frozen index", 0)?;
        let lower = lower?;
        let len = cx.len(lower)?;
        if value >= len {
            let message = format!(
                "index {value} is out of bounds for `{}` (length {len}): freeze it at an index \
                 in 0..{len}",
                cx.name(lower),
            );
            cx.error(Blame::Arg(0), message);
            return None;
        }
        Some(Freeze { lower, value })
    }
}
