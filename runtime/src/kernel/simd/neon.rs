//! The operations of generated aarch64 rows: NEON byte table lookups (`tbl`, `tbx`) over
//! one or two 16-byte registers, for elements of every size.
//!
//! Every operation is `#[inline(always)]` and carries no target feature of its own: inlined
//! into the code that `vectorize` compiles for NEON, its intrinsic inlines to one
//! instruction.

use super::Neon;
use super::table::{FullTiles, Registers, Unrolled, Window};
use std::arch::aarch64::*;
use swizzle_core::simd::Level;

impl Neon {
    /// Sixteen byte indices, a control of the lookups (`16 + i` names byte `i` of the
    /// second register of [`permute2`](Self::permute2); 255 names none).
    #[inline(always)]
    pub fn bytes(self, bytes: [u8; 16]) -> uint8x16_t {
        // SAFETY: `self` proves NEON; the 16 bytes read are `bytes`'.
        unsafe { vld1q_u8(bytes.as_ptr()) }
    }

    /// Byte `i` of the result is byte `control[i]` of `register` (0 past it: `tbl`).
    #[inline(always)]
    pub fn permute(self, register: uint8x16_t, control: uint8x16_t) -> uint8x16_t {
        // SAFETY: `self` proves NEON.
        unsafe { vqtbl1q_u8(register, control) }
    }

    /// Byte `i` of the result is byte `control[i]` of `a`, or of `b` for indices from 16
    /// (0 past them: `tbl` over two registers).
    #[inline(always)]
    pub fn permute2(self, a: uint8x16_t, control: uint8x16_t, b: uint8x16_t) -> uint8x16_t {
        // SAFETY: `self` proves NEON.
        unsafe { vqtbl2q_u8(uint8x16x2_t(a, b), control) }
    }

    /// `into` with byte `i` replaced by byte `control[i]` of `register` where the index is
    /// in it (`tbx`: indices past it keep `into`'s byte).
    #[inline(always)]
    pub fn permute_into(
        self,
        into: uint8x16_t,
        register: uint8x16_t,
        control: uint8x16_t,
    ) -> uint8x16_t {
        // SAFETY: `self` proves NEON.
        unsafe { vqtbx1q_u8(into, register, control) }
    }

    /// `into` with byte `i` replaced by byte `control[i]` of `a`, or of `b` for indices
    /// from 16, where the index is in them (`tbx` over two registers).
    #[inline(always)]
    pub fn permute2_into(
        self,
        into: uint8x16_t,
        a: uint8x16_t,
        control: uint8x16_t,
        b: uint8x16_t,
    ) -> uint8x16_t {
        // SAFETY: `self` proves NEON.
        unsafe { vqtbx2q_u8(into, uint8x16x2_t(a, b), control) }
    }
}

impl Registers for Neon {
    const LEVEL: Level = Level::Neon;
    type Register = uint8x16_t;

    vectorize!(Neon);

    #[inline(always)]
    fn zero(self) -> uint8x16_t {
        // SAFETY: `self` proves NEON.
        unsafe { vdupq_n_u8(0) }
    }

    #[inline(always)]
    fn load(self, bytes: &[u8], at: usize) -> uint8x16_t {
        let bytes = &bytes[at..][..16];
        // SAFETY: `self` proves NEON; the 16 bytes read lie in `bytes` (sliced just above);
        // `vld1q` takes any alignment.
        unsafe { vld1q_u8(bytes.as_ptr()) }
    }

    /// Not asked for on NEON: the prefetch was measured on x86-64 only.
    #[inline(always)]
    fn prefetch(self, _: *const u8) {}

    /// NEON has no streaming stores: `STREAM` asks for nothing.
    #[inline(always)]
    fn store<const STREAM: bool>(self, bytes: &mut [u8], at: usize, register: uint8x16_t) {
        let bytes = &mut bytes[at..][..16];
        // SAFETY: `self` proves NEON; the 16 bytes written lie in `bytes` (sliced just
        // above); `vst1q` takes any alignment.
        unsafe { vst1q_u8(bytes.as_mut_ptr(), register) }
    }

    /// Steps go in pairs, two-table lookups of the step before's load and this one's; a
    /// store's last step, where it is alone, a one-table lookup. Indices past the tables
    /// (255) keep the register's byte (`tbx`).
    #[inline(always)]
    fn step<K: FullTiles, E, const I: usize>(
        self,
        src: &Window<'_, u8>,
        load: uint8x16_t,
        register: uint8x16_t,
    ) -> uint8x16_t {
        let op = const { Unrolled::<K, E, Self>::STEPS.ops[I] };
        match (op.index % 2, op.last(), op.index) {
            (0, false, _) => register,
            (1, _, index) => {
                let first = const { Unrolled::<K, E, Self>::STEPS.ops[I.saturating_sub(1)].load };
                let first = self.load(src.row(first.row), first.at);
                let control = self.bytes(const { Unrolled::<K, E, Self>::STEPS.pairs[I].bytes() });
                match index {
                    1 => self.permute2(first, control, load),
                    _ => self.permute2_into(register, first, control, load),
                }
            }
            (_, _, index) => {
                let control =
                    self.bytes(const { Unrolled::<K, E, Self>::STEPS.singles[I].bytes() });
                match index {
                    0 => self.permute(load, control),
                    _ => self.permute_into(register, load, control),
                }
            }
        }
    }
}
