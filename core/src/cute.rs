//! CuTe's `Swizzle<B, M, S>` as a value (`cute/swizzle.hpp`; docs/semantics.md §2): the
//! `B` bits it reads from `M + max(0, S)` up are XORed into the `B` bits `S` places lower
//! (higher for `S < 0`). Every part of swizzle that needs its bits — the interpreter, the
//! symbolic and F2 forms, the contiguity walk — asks this type.

/// `Swizzle<bits, base, shift>`; the checker guarantees `|shift| ≥ bits` (what it reads
/// and what it writes do not overlap).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CuteSwizzle {
    pub bits: u32,
    pub base: u32,
    pub shift: i32,
}

impl CuteSwizzle {
    /// The lowest bit it reads: `M + max(0, S)`.
    pub fn source(self) -> u32 {
        self.base + self.shift.max(0).unsigned_abs()
    }

    /// The lowest bit it writes: the source moved down by `S` (up for `S < 0`).
    pub fn target(self) -> i64 {
        i64::from(self.source()) - i64::from(self.shift)
    }

    /// The swizzled value of `index`; `None` where a mask or a moved bit would leave
    /// `usize`.
    pub fn apply(self, index: usize) -> Option<usize> {
        let mask = 1usize
            .checked_shl(self.bits)
            .map(|b| b - 1)?
            .checked_shl(self.source())?;
        let field = (index & mask) >> self.source();
        let moved = field.checked_shl(u32::try_from(self.target()).ok()?)?;
        Some(index ^ moved)
    }
}
