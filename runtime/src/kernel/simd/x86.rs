//! The operations of generated x86-64 rows: AVX2 (`vpermd`, `vpblendd`) and AVX-512
//! (`vpermd`, `vpermt2d`, masked permutes) on the words of 4- and 8-byte elements; AVX2
//! (`vpshufb` pairs, `vpblendvb`) and AVX-512 VBMI (`vpermb`, `vpermt2b`) on the bytes of
//! 1- and 2-byte elements.
//!
//! Every operation is `#[inline(always)]` and carries no target feature of its own: inlined
//! into the code that `vectorize` compiles for the level, its intrinsic inlines to one
//! instruction.

use super::table::{FullTiles, Registers, Unrolled, Window};
use super::{Avx2, Avx512, stream};
use std::arch::x86_64::*;
use swizzle_core::simd::{Level, Permute};

impl Avx2 {
    /// Words of `b` where `mask`'s word is all ones, of `a` elsewhere (`vpblendd` where
    /// `mask` is constant).
    #[inline(always)]
    pub fn blend_words(self, a: __m256i, b: __m256i, mask: __m256i) -> __m256i {
        // SAFETY: `self` proves AVX2.
        unsafe { _mm256_blendv_epi8(a, b, mask) }
    }

    /// Eight word indices, a control of [`permute`](Self::permute).
    #[inline(always)]
    pub fn words(self, words: [u32; 8]) -> __m256i {
        let w = words.map(|word| word as i32);
        // SAFETY: `self` proves AVX2.
        unsafe { _mm256_setr_epi32(w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]) }
    }

    /// Word `i` of the result is word `control[i]` of `register` (`vpermd`).
    #[inline(always)]
    pub fn permute(self, register: __m256i, control: __m256i) -> __m256i {
        // SAFETY: `self` proves AVX2.
        unsafe { _mm256_permutevar8x32_epi32(register, control) }
    }

    /// Words of `b` where bit `i` of `MASK` is set, of `a` elsewhere (`vpblendd`).
    #[inline(always)]
    pub fn blend<const MASK: i32>(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: `self` proves AVX2.
        unsafe { _mm256_blend_epi32::<MASK>(a, b) }
    }

    /// Thirty-two bytes, a control or a mask of the byte operations.
    #[inline(always)]
    pub fn bytes(self, bytes: [u8; 32]) -> __m256i {
        // SAFETY: `self` proves AVX2; the 32 bytes read are `bytes`'.
        unsafe { _mm256_loadu_si256(bytes.as_ptr().cast()) }
    }

    /// Byte `i` of the result is byte `control[i]` (0 to 15) of `register`'s own 128-bit
    /// half, or of its other half where `cross[i]` is 0x80: in-lane shuffles (`vpshufb`)
    /// of the register and of its halves swapped, picked per byte.
    #[inline(always)]
    pub fn permute_bytes(self, register: __m256i, control: __m256i, cross: __m256i) -> __m256i {
        // SAFETY: `self` proves AVX2.
        unsafe {
            let swapped = _mm256_permute2x128_si256::<0x01>(register, register);
            let within = _mm256_shuffle_epi8(register, control);
            let across = _mm256_shuffle_epi8(swapped, control);
            _mm256_blendv_epi8(within, across, cross)
        }
    }

    /// Bytes of `b` where `mask`'s byte has its high bit set, of `a` elsewhere
    /// (`vpblendvb`).
    #[inline(always)]
    pub fn blend_bytes(self, a: __m256i, b: __m256i, mask: __m256i) -> __m256i {
        // SAFETY: `self` proves AVX2.
        unsafe { _mm256_blendv_epi8(a, b, mask) }
    }
}

impl Avx512 {
    /// Sixteen word indices, a control of the permutes (`16 + i` names word `i` of the
    /// second register of [`permute2`](Self::permute2)).
    #[inline(always)]
    pub fn words(self, words: [u32; 16]) -> __m512i {
        let w = words.map(|word| word as i32);
        // SAFETY: `self` proves AVX-512 F.
        unsafe {
            _mm512_setr_epi32(
                w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7], w[8], w[9], w[10], w[11], w[12],
                w[13], w[14], w[15],
            )
        }
    }

    /// Word `i` of the result is word `control[i]` of `register` (`vpermd`).
    #[inline(always)]
    pub fn permute(self, register: __m512i, control: __m512i) -> __m512i {
        // SAFETY: `self` proves AVX-512 F.
        unsafe { _mm512_permutexvar_epi32(control, register) }
    }

    /// Word `i` of the result is word `control[i]` of `a`, or of `b` for indices from 16
    /// (`vpermt2d`).
    #[inline(always)]
    pub fn permute2(self, a: __m512i, control: __m512i, b: __m512i) -> __m512i {
        // SAFETY: `self` proves AVX-512 F.
        unsafe { _mm512_permutex2var_epi32(a, control, b) }
    }

    /// `into` with the words where bit `i` of `mask` is set replaced by word `control[i]`
    /// of `register` (a masked `vpermd`).
    #[inline(always)]
    pub fn permute_into(
        self,
        into: __m512i,
        mask: u16,
        register: __m512i,
        control: __m512i,
    ) -> __m512i {
        // SAFETY: `self` proves AVX-512 F.
        unsafe { _mm512_mask_permutexvar_epi32(into, mask, control, register) }
    }

    /// Sixty-four byte indices, a control of the byte permutes (`64 + i` names byte `i` of
    /// the second register of [`permute2_bytes`](Self::permute2_bytes)).
    #[inline(always)]
    pub fn bytes(self, bytes: [u8; 64]) -> __m512i {
        // SAFETY: `self` proves AVX-512 F; the 64 bytes read are `bytes`'.
        unsafe { _mm512_loadu_si512(bytes.as_ptr().cast()) }
    }

    /// Byte `i` of the result is byte `control[i]` of `register` (`vpermb`).
    #[inline(always)]
    pub fn permute_bytes(self, register: __m512i, control: __m512i) -> __m512i {
        // SAFETY: `self` proves AVX-512 VBMI.
        unsafe { _mm512_permutexvar_epi8(control, register) }
    }

    /// Byte `i` of the result is byte `control[i]` of `a`, or of `b` for indices from 64
    /// (`vpermt2b`).
    #[inline(always)]
    pub fn permute2_bytes(self, a: __m512i, control: __m512i, b: __m512i) -> __m512i {
        // SAFETY: `self` proves AVX-512 VBMI.
        unsafe { _mm512_permutex2var_epi8(a, control, b) }
    }

    /// `into` with the bytes where bit `i` of `mask` is set replaced by byte `control[i]`
    /// of `register` (a masked `vpermb`).
    #[inline(always)]
    pub fn permute_bytes_into(
        self,
        into: __m512i,
        mask: u64,
        register: __m512i,
        control: __m512i,
    ) -> __m512i {
        // SAFETY: `self` proves AVX-512 BW and VBMI.
        unsafe { _mm512_mask_permutexvar_epi8(into, mask, control, register) }
    }
}

impl Registers for Avx512 {
    const LEVEL: Level = Level::Avx512;
    type Register = __m512i;

    vectorize!(Avx512);

    #[inline(always)]
    fn zero(self) -> __m512i {
        // SAFETY: `self` proves AVX-512 F.
        unsafe { _mm512_setzero_si512() }
    }

    #[inline(always)]
    fn load(self, bytes: &[u8], at: usize) -> __m512i {
        let bytes = &bytes[at..][..64];
        // SAFETY: `self` proves AVX-512 F; the 64 bytes read lie in `bytes` (sliced just
        // above); `loadu` takes any alignment.
        unsafe { _mm512_loadu_si512(bytes.as_ptr().cast()) }
    }

    #[inline(always)]
    fn prefetch(self, at: *const u8) {
        prefetch_line(at);
    }

    #[inline(always)]
    fn store<const STREAM: bool>(self, bytes: &mut [u8], at: usize, register: __m512i) {
        let bytes = &mut bytes[at..][..64];
        let to: *mut __m512i = bytes.as_mut_ptr().cast();
        // SAFETY: `self` proves AVX-512 F; the 64 bytes written lie in `bytes` (sliced
        // just above), aligned to 64 bytes where streamed.
        unsafe {
            match STREAM && to.is_aligned() {
                true => stream::store_512(to, register),
                false => _mm512_storeu_si512(to.cast(), register),
            }
        }
    }

    /// A one-register permute (`vpermd`, `vpermb`) for a store's first step, a masked one
    /// into the register for later steps; a store's first two steps are one two-register
    /// permute (`vpermt2d`, `vpermt2b`) of the step before's load and this one's.
    #[inline(always)]
    fn step<K: FullTiles, E, const I: usize>(
        self,
        src: &Window<'_, u8>,
        load: __m512i,
        register: __m512i,
    ) -> __m512i {
        let op = const { Unrolled::<K, E, Self>::STEPS.ops[I] };
        let words = const { Permute::new(Level::Avx512, size_of::<E>()).words() };
        let mask = const { Unrolled::<K, E, Self>::STEPS.controls[I].writes };
        match (op.index, op.count, words) {
            (0, 2.., _) => register,
            (1, _, _) => {
                let first = const { Unrolled::<K, E, Self>::STEPS.ops[I.saturating_sub(1)].load };
                let first = self.load(src.row(first.row), first.at);
                match words {
                    true => self.permute2(
                        first,
                        self.words(const { Unrolled::<K, E, Self>::STEPS.pairs[I].take() }),
                        load,
                    ),
                    false => self.permute2_bytes(
                        first,
                        self.bytes(const { Unrolled::<K, E, Self>::STEPS.pairs[I].bytes() }),
                        load,
                    ),
                }
            }
            (0, _, true) => self.permute(
                load,
                self.words(const { Unrolled::<K, E, Self>::STEPS.singles[I].take() }),
            ),
            (0, _, false) => self.permute_bytes(
                load,
                self.bytes(const { Unrolled::<K, E, Self>::STEPS.singles[I].bytes() }),
            ),
            (_, _, true) => self.permute_into(
                register,
                mask as u16,
                load,
                self.words(const { Unrolled::<K, E, Self>::STEPS.singles[I].take() }),
            ),
            (_, _, false) => self.permute_bytes_into(
                register,
                mask,
                load,
                self.bytes(const { Unrolled::<K, E, Self>::STEPS.singles[I].bytes() }),
            ),
        }
    }
}

impl Registers for Avx2 {
    const LEVEL: Level = Level::Avx2;
    type Register = __m256i;

    vectorize!(Avx2);

    #[inline(always)]
    fn zero(self) -> __m256i {
        // SAFETY: `self` proves AVX2.
        unsafe { _mm256_setzero_si256() }
    }

    #[inline(always)]
    fn load(self, bytes: &[u8], at: usize) -> __m256i {
        let bytes = &bytes[at..][..32];
        // SAFETY: `self` proves AVX2; the 32 bytes read lie in `bytes` (sliced just above);
        // `loadu` takes any alignment.
        unsafe { _mm256_loadu_si256(bytes.as_ptr().cast()) }
    }

    #[inline(always)]
    fn prefetch(self, at: *const u8) {
        prefetch_line(at);
    }

    #[inline(always)]
    fn store<const STREAM: bool>(self, bytes: &mut [u8], at: usize, register: __m256i) {
        let bytes = &mut bytes[at..][..32];
        let to: *mut __m256i = bytes.as_mut_ptr().cast();
        // SAFETY: `self` proves AVX2; the 32 bytes written lie in `bytes` (sliced just
        // above), aligned to 32 bytes where streamed.
        unsafe {
            match STREAM && to.is_aligned() {
                true => stream::store_256(to, register),
                false => _mm256_storeu_si256(to, register),
            }
        }
    }

    /// A permute of the load (`vpermd`; for bytes, `vpshufb` within 128-bit halves: each
    /// byte's index there, and whether it comes from the other half), blended into the
    /// register after a store's first step.
    #[inline(always)]
    fn step<K: FullTiles, E, const I: usize>(
        self,
        _: &Window<'_, u8>,
        load: __m256i,
        register: __m256i,
    ) -> __m256i {
        let op = const { Unrolled::<K, E, Self>::STEPS.ops[I] };
        let words = const { Permute::new(Level::Avx2, size_of::<E>()).words() };
        let permuted = match words {
            true => self.permute(
                load,
                self.words(const { Unrolled::<K, E, Self>::STEPS.controls[I].take() }),
            ),
            false => self.permute_bytes(
                load,
                self.bytes(
                    const {
                        Unrolled::<K, E, Self>::STEPS.controls[I]
                            .in_halves()
                            .0
                            .bytes()
                    },
                ),
                self.bytes(
                    const {
                        Unrolled::<K, E, Self>::STEPS.controls[I]
                            .in_halves()
                            .1
                            .bytes()
                    },
                ),
            ),
        };
        match (op.index, words) {
            (0, _) => permuted,
            (_, true) => {
                let mask = self.words(
                    const {
                        Unrolled::<K, E, Self>::STEPS.controls[I]
                            .blend(u32::MAX)
                            .take()
                    },
                );
                self.blend_words(register, permuted, mask)
            }
            (_, false) => {
                let mask = self.bytes(
                    const {
                        Unrolled::<K, E, Self>::STEPS.controls[I]
                            .blend(0xFF)
                            .bytes()
                    },
                );
                self.blend_bytes(register, permuted, mask)
            }
        }
    }
}

/// `PREFETCHT0` of the line holding `at`: into every level of the cache, L1 included. (The
/// write hint, `_MM_HINT_ET0`, would compile to the same instruction: `PREFETCHW` needs the
/// `prfchw` feature, which no level enables; this is the instruction that was measured.)
/// Miri runs nothing for it.
#[inline(always)]
fn prefetch_line(at: *const u8) {
    // SAFETY: a prefetch is a hint: it reads and writes no memory the program sees and
    // never faults, whatever the address; SSE, which it needs, is part of x86-64.
    #[cfg(not(miri))]
    unsafe {
        _mm_prefetch::<_MM_HINT_T0>(at.cast())
    };
    #[cfg(miri)]
    let _ = at;
}
