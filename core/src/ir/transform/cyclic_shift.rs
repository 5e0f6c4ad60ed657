//! `cyclic_shift x by k`: `x = (x + k) mod len(x)`, a rotation of `x` by the key, which
//! passes through (CK's cyclic shift, `l1 = (u1 + u0) % L1`). Unlike `xor`, any length
//! works; its inverse shifts back by `len(x) − k mod len(x)`.

use super::check::{self, Context};
use super::{Domain, Field, Lowering, Stage};
use crate::analysis::runs::Walk;
use crate::ir::{Dim, DimId};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CyclicShift {
    pub lower: DimId,
    pub upper: DimId,
    pub key: DimId,
}

impl CyclicShift {
    /// A copy in const data (see [`Transform::restate`](super::Transform::restate)).
    pub const fn restate(&self) -> Self {
        *self
    }
}

impl CyclicShift {
    /// `(value + by) mod len(upper)`, for `value < len(upper)` and any `by`.
    fn rotate<D: Domain>(
        &self,
        on: &Lowering<'_, D>,
        value: D::Value,
        by: D::Value,
    ) -> Result<D::Value, D::Error> {
        let len = on.len(self.upper);
        let sum = on.domain.add(value, on.domain.rem(by, len)?)?;
        on.domain.rem(sum, len)
    }
}

impl Stage for CyclicShift {
    const KEYWORD: &'static str = "cyclic_shift";

    // Runs: a rotation keeps a run only where it cannot wrap, when the key is always 0.
    keyed_stage!();

    fn apply<D: Domain>(&self, on: &mut Lowering<'_, D>) -> Result<(), D::Error> {
        let value = self.rotate(on, on.get(self.upper)?, on.get(self.key)?)?;
        on.set(self.lower, value)
    }

    fn raise<D: Domain>(&self, on: &mut Lowering<'_, D>) -> Result<(), D::Error> {
        let len = on.len(self.upper);
        let key = on.domain.rem(on.get(self.key)?, len)?;
        let back = on.domain.sub(on.domain.constant(len)?, key)?;
        let value = self.rotate(on, on.get(self.lower)?, back)?;
        on.set(self.upper, value)
    }

    fn injective(&self, _: &[Dim]) -> bool {
        true
    }

    fn describe(&self, dims: &[Dim]) -> String {
        let (upper, key) = (&dims[self.upper].name, &dims[self.key].name);
        format!("cyclic_shift {upper} by {key}")
    }

    fn check(cx: &mut dyn Context) -> Option<Self> {
        let (lower, upper, _, key) = check::keyed(cx, "shift");
        Some(CyclicShift {
            lower: lower?,
            upper,
            key: key?,
        })
    }
}
