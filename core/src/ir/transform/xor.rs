//! `xor x by k`: `x ^= k mod len(x)`. The key passes through; `len(x)` is a power of two, so
//! the result stays in `x`, and applying it twice gives `x` back (CK Tile's LDS XOR
//! preshuffle).

use super::check::{self, Blame, Context};
use super::{Domain, Field, Lowering, SelfInverse, Stage};
use crate::analysis::runs::Walk;
use crate::ir::{Dim, DimId};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Xor {
    pub lower: DimId,
    pub upper: DimId,
    pub key: DimId,
}

impl Xor {
    /// A copy in const data (see [`Transform::restate`](super::Transform::restate)).
    pub const fn restate(&self) -> Self {
        *self
    }
}

impl SelfInverse for Xor {
    /// `value ^ (key mod len(upper))`.
    fn flip<D: Domain>(&self, on: &Lowering<'_, D>, value: D::Value) -> Result<D::Value, D::Error> {
        let key = on.domain.rem(on.get(self.key)?, on.len(self.upper))?;
        on.domain.xor(value, key)
    }
}

impl Stage for Xor {
    const KEYWORD: &'static str = "xor";

    keyed_stage!();
    self_inverse_stage!();

    fn injective(&self, _: &[Dim]) -> bool {
        true
    }

    fn describe(&self, dims: &[Dim]) -> String {
        format!("xor {} by {}", dims[self.upper].name, dims[self.key].name)
    }

    fn check(cx: &mut dyn Context) -> Option<Self> {
        let (lower, upper, len, key) = check::keyed(cx, "key");
        let (lower, key) = (lower?, key?);
        check::power_of_two(cx, Blame::Lower(0), len?, "the target of `xor`")?;
        Some(Xor { lower, upper, key })
    }
}
