//! The operations of generated aarch64 rows: NEON byte table lookups (`tbl`, `tbx`) over
//! one or two 16-byte registers, for elements of every size.
//!
//! Every operation is `#[inline(always)]` and carries no target feature of its own: inlined
//! into the code that `vectorize` compiles for NEON, its intrinsic inlines to one
//! instruction.

use super::Neon;
use std::arch::aarch64::*;

vectorize!(Neon);

impl Neon {
    /// The 16 bytes of `bytes` at `at`.
    #[inline(always)]
    pub fn load(self, bytes: &[u8], at: usize) -> uint8x16_t {
        let bytes = &bytes[at..][..16];
        // SAFETY: `self` proves NEON; the 16 bytes read lie in `bytes` (sliced just above);
        // `vld1q` takes any alignment.
        unsafe { vld1q_u8(bytes.as_ptr()) }
    }

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

    /// Writes `register` to the 16 bytes of `bytes` at `at`.
    #[inline(always)]
    pub fn store(self, bytes: &mut [u8], at: usize, register: uint8x16_t) {
        let bytes = &mut bytes[at..][..16];
        // SAFETY: `self` proves NEON; the 16 bytes written lie in `bytes` (sliced just
        // above); `vst1q` takes any alignment.
        unsafe { vst1q_u8(bytes.as_mut_ptr(), register) }
    }
}
