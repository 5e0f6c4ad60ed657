//! `modulo l -> u (N)`: `l = u mod len(l)`, where `u` has length `N` (CK's `modulo`). With
//! `N > len(l)` it wraps, sending `N / len(l)` indices to each element, as a periodic
//! boundary does; with `N ≤ len(l)` it is the identity on `u`.

use super::check::Context;
use super::{Domain, Field, Lowering, Stage};
use crate::analysis::runs::Walk;
use crate::ir::{Dim, DimId};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Modulo {
    pub lower: DimId,
    pub upper: DimId,
}

impl Modulo {
    /// A copy in const data (see [`Transform::restate`](super::Transform::restate)).
    pub const fn restate(&self) -> Self {
        *self
    }
}

impl Stage for Modulo {
    const KEYWORD: &'static str = "modulo";

    fn lower(&self) -> Vec<DimId> {
        vec![self.lower]
    }

    fn upper(&self) -> Vec<DimId> {
        vec![self.upper]
    }

    fn apply<D: Domain>(&self, on: &mut Lowering<'_, D>) -> Result<(), D::Error> {
        let value = on.domain.rem(on.get(self.upper)?, on.len(self.lower))?;
        on.set(self.lower, value)
    }

    fn raise<D: Domain>(&self, on: &mut Lowering<'_, D>) -> Result<(), D::Error> {
        if on.len(self.upper) > on.len(self.lower) {
            return Err(on.domain.fail("a wrapping `modulo` has no inverse"));
        }
        on.set(self.upper, on.get(self.lower)?)
    }

    fn injective(&self, dims: &[Dim]) -> bool {
        dims[self.upper].len <= dims[self.lower].len
    }

    /// An aligned run whose length divides `len(l)` never straddles the wrap.
    fn runs(&self, walk: &mut Walk<'_>) -> bool {
        let Some(part) = walk.part(self.upper) else {
            return true;
        };
        let modulus = walk.len(self.lower);
        let keeps = walk.len(self.upper) <= modulus
            || (part.aligned && modulus.is_multiple_of(part.len));
        walk.rename(self.upper, self.lower);
        keeps
    }

    fn describe(&self, dims: &[Dim]) -> String {
        let (lower, upper) = (&dims[self.lower].name, &dims[self.upper].name);
        format!("modulo {lower} -> {upper} ({})", dims[self.upper].len)
    }

    fn fields(&self) -> Vec<(&'static str, Field<'_>)> {
        vec![
            ("lower", Field::Dim(self.lower)),
            ("upper", Field::Dim(self.upper)),
        ]
    }

    fn check(cx: &mut dyn Context) -> Option<Self> {
        let lower = cx.consume(0, false);
        let len = cx.value(0, "the length of a `modulo`", 1);
        let upper = cx.declare(0, len);
        len?;
        Some(Modulo {
            lower: lower?,
            upper,
        })
    }
}
