//! `swizzle l -> u (B, M, S)`: CuTe's `Swizzle<B, M, S>` (`cute/swizzle.hpp`). The `B` bits
//! it reads from `M + max(0, S)` up are XORed into the `B` bits `S` places lower (higher for
//! `S < 0`). `|S| ≥ B`, so what it reads and what it writes do not overlap and applying it
//! twice gives the index back. `swizzle l -> u (auto for A, …)` leaves `(B, M, S)` to the
//! macro, which searches them for the accesses named.

use super::check::{self, Blame, Context};
use super::{Domain, Field, Lowering, SelfInverse, Stage};
use crate::analysis::runs::Walk;
use crate::ir::{Dim, DimId};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Swizzle {
    pub lower: DimId,
    pub upper: DimId,
    pub bits: u32,
    pub base: u32,
    pub shift: i32,
}

impl Swizzle {
    /// A copy in const data (see [`Transform::restate`](super::Transform::restate)).
    pub const fn restate(&self) -> Self {
        *self
    }
}

/// `Swizzle<bits, base, shift>` as a value: every part of swizzle that needs its bits asks
/// it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CuteSwizzle {
    pub bits: u32,
    pub base: u32,
    pub shift: i32,
}

impl CuteSwizzle {
    /// The lowest bit it reads: `M + max(0, S)`.
    pub fn source(self) -> u32 {
        self.base.saturating_add(self.shift.max(0).unsigned_abs())
    }

    /// The lowest bit it writes: the source moved down by `S` (up for `S < 0`), which is
    /// `M + max(0, −S)`.
    pub fn target(self) -> u32 {
        self.base.saturating_add(self.shift.min(0).unsigned_abs())
    }

    /// The swizzled value of `index`; `None` where a mask or a moved bit would leave
    /// `usize`.
    pub fn apply(self, index: usize) -> Option<usize> {
        let mask = 1usize
            .checked_shl(self.bits)
            .map(|b| b - 1)?
            .checked_shl(self.source())?;
        let field = (index & mask) >> self.source();
        Some(index ^ field.checked_shl(self.target())?)
    }
}

impl Swizzle {
    pub fn cute(&self) -> CuteSwizzle {
        CuteSwizzle {
            bits: self.bits,
            base: self.base,
            shift: self.shift,
        }
    }
}

impl SelfInverse for Swizzle {
    /// `value` with the read bits XORed into the written ones.
    fn flip<D: Domain>(&self, on: &Lowering<'_, D>, value: D::Value) -> Result<D::Value, D::Error> {
        let cute = self.cute();
        let field = on.field(value.clone(), cute.source(), self.bits)?;
        let moved = on.domain.scale(field, on.power(cute.target())?)?;
        on.domain.xor(value, moved)
    }
}

impl Stage for Swizzle {
    const KEYWORD: &'static str = "swizzle";

    fn lower(&self) -> Vec<DimId> {
        vec![self.lower]
    }

    fn upper(&self) -> Vec<DimId> {
        vec![self.upper]
    }

    self_inverse_stage!();

    fn injective(&self, _: &[Dim]) -> bool {
        true
    }

    /// The bits that vary inside an aligned power-of-two run are its low ones; the swizzle
    /// must neither read nor write any of them.
    fn runs(&self, walk: &mut Walk<'_>) -> bool {
        let Some(part) = walk.part(self.upper) else {
            return true;
        };
        let cute = self.cute();
        let varying = part.len.trailing_zeros();
        let untouched = self.bits == 0
            || (part.len.is_power_of_two()
                && part.aligned
                && cute.source() >= varying
                && cute.target() >= varying);
        walk.rename(self.upper, self.lower);
        untouched
    }

    fn describe(&self, dims: &[Dim]) -> String {
        let (lower, upper) = (&dims[self.lower].name, &dims[self.upper].name);
        let Swizzle {
            bits, base, shift, ..
        } = self;
        format!("swizzle {lower} -> {upper} ({bits}, {base}, {shift})")
    }

    fn fields(&self) -> Vec<(&'static str, Field<'_>)> {
        vec![
            ("lower", Field::Dim(self.lower)),
            ("upper", Field::Dim(self.upper)),
            ("bits", Field::Unsigned(self.bits)),
            ("base", Field::Unsigned(self.base)),
            ("shift", Field::Signed(self.shift)),
        ]
    }

    fn check(cx: &mut dyn Context) -> Option<Self> {
        let (lower, upper, len) = check::same_length(cx);
        if cx.is_auto() {
            let (lower, len) = (lower?, len?);
            check::power_of_two(cx, Blame::Lower(0), len, "the dim of `swizzle`")?;
            // The identity, until `auto` searches the parameters.
            return Some(Swizzle {
                lower,
                upper,
                bits: 0,
                base: 0,
                shift: 0,
            });
        }
        let b = cx.value(0, "the swizzle's B", 0);
        let m = cx.value(1, "the swizzle's M", 0);
        let s = cx.signed(2);
        let (b, m, s) = (b?, m?, s?);
        let (b, m, abs_s) = (b as u128, m as u128, s.unsigned_abs());
        let mut ok = true;
        if abs_s < b {
            let message = format!(
                "swizzle needs |S| ≥ B so that the bits it reads and the bits it writes do not \
                 overlap, found |{s}| < {b}: use S ≥ {b} or S ≤ -{b}"
            );
            cx.error(Blame::Arg(2), message);
            ok = false;
        }
        let (lower, len) = (lower?, len?);
        ok &= check::power_of_two(cx, Blame::Lower(0), len, "the dim of `swizzle`").is_some();
        if !ok {
            return None;
        }
        // The bits the swizzle writes (its target, `write..write + B`) must lie in the dim,
        // or offsets would leave it. The bits it reads may lie above the dim's bits (they
        // are then always 0, as in CuTe), but every bit it touches must be a bit of `usize`.
        let width = u128::from(len.trailing_zeros());
        let write = if s >= 0 { m } else { m.saturating_add(abs_s) };
        let written_top = write.saturating_add(b);
        let top = m.saturating_add(b).saturating_add(abs_s);
        let message = if b > 0 && written_top > width {
            let written = match b {
                1 => format!("bit {write}"),
                _ => format!("bits {write}..={}", written_top - 1),
            };
            let bits_of = match width {
                0 => "no bits".to_owned(),
                1 => "only bit 0".to_owned(),
                w => format!("only bits 0..={}", w - 1),
            };
            let (lower_what, rule) = if s >= 0 {
                ("M or B", "M + B")
            } else {
                ("M, B or |S|", "M + B + |S|")
            };
            Some(format!(
                "swizzle ({b}, {m}, {s}) writes {written}, but `{}` (length {len}) has \
                 {bits_of}: lower {lower_what} so that {rule} ≤ {width} (it is {written_top})",
                cx.name(lower),
            ))
        } else if top > 63 {
            Some(format!(
                "swizzle ({b}, {m}, {s}) reaches past bit 63 of `usize`: use M + B + |S| ≤ 63 \
                 (it is {top})"
            ))
        } else {
            None
        };
        if let Some(message) = message {
            cx.error(Blame::Args, message);
            return None;
        }
        // `top ≤ 63` bounds every part, so these conversions cannot fail.
        Some(Swizzle {
            lower,
            upper,
            bits: u32::try_from(b).ok()?,
            base: u32::try_from(m).ok()?,
            shift: i32::try_from(s).ok()?,
        })
    }
}
