//! The operations of generated x86-64 rows: AVX2 (`vpermd`, `vpblendd`) and AVX-512
//! (`vpermd`, `vpermt2d`, masked permutes) on the words of 4- and 8-byte elements; AVX2
//! (`vpshufb` pairs, `vpblendvb`) and AVX-512 VBMI (`vpermb`, `vpermt2b`) on the bytes of
//! 1- and 2-byte elements.
//!
//! Every operation is `#[inline(always)]` and carries no target feature of its own: inlined
//! into the code that `vectorize` compiles for the level, its intrinsic inlines to one
//! instruction.

use super::table::{FullTiles, Unrolled, pitch, unroll};
use super::{Avx2, Avx512, TileRow};
use std::arch::x86_64::*;
use swizzle_core::simd::{Level, Permute};

vectorize!(Avx2);
vectorize!(Avx512);

impl Avx2 {
    /// The 32 bytes of `bytes` at `at`.
    #[inline(always)]
    pub fn load(self, bytes: &[u8], at: usize) -> __m256i {
        let bytes = &bytes[at..][..32];
        // SAFETY: `self` proves AVX2; the 32 bytes read lie in `bytes` (sliced just above);
        // `loadu` takes any alignment.
        unsafe { _mm256_loadu_si256(bytes.as_ptr().cast()) }
    }

    /// A register of zeros.
    #[inline(always)]
    pub fn zero(self) -> __m256i {
        // SAFETY: `self` proves AVX2.
        unsafe { _mm256_setzero_si256() }
    }

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

    /// Writes `register` to the 32 bytes of `bytes` at `at`: around the caches where
    /// `STREAM` asks for it and the address is aligned to 32 bytes.
    #[inline(always)]
    pub fn store<const STREAM: bool>(self, bytes: &mut [u8], at: usize, register: __m256i) {
        let bytes = &mut bytes[at..][..32];
        let to: *mut __m256i = bytes.as_mut_ptr().cast();
        // SAFETY: `self` proves AVX2; the 32 bytes written lie in `bytes` (sliced just
        // above), aligned to 32 bytes where streamed.
        unsafe {
            match STREAM && to.is_aligned() {
                true => _mm256_stream_si256(to, register),
                false => _mm256_storeu_si256(to, register),
            }
        }
    }
}

impl Avx512 {
    /// The 64 bytes of `bytes` at `at`.
    #[inline(always)]
    pub fn load(self, bytes: &[u8], at: usize) -> __m512i {
        let bytes = &bytes[at..][..64];
        // SAFETY: `self` proves AVX-512 F; the 64 bytes read lie in `bytes`; `loadu`
        // takes any alignment.
        unsafe { _mm512_loadu_si512(bytes.as_ptr().cast()) }
    }

    /// A register of zeros.
    #[inline(always)]
    pub fn zero(self) -> __m512i {
        // SAFETY: `self` proves AVX-512 F.
        unsafe { _mm512_setzero_si512() }
    }

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

    /// Writes `register` to the 64 bytes of `bytes` at `at`: around the caches where
    /// `STREAM` asks for it and the address is aligned to 64 bytes.
    #[inline(always)]
    pub fn store<const STREAM: bool>(self, bytes: &mut [u8], at: usize, register: __m512i) {
        let bytes = &mut bytes[at..][..64];
        let to: *mut __m512i = bytes.as_mut_ptr().cast();
        // SAFETY: `self` proves AVX-512 F; the 64 bytes written lie in `bytes` (sliced
        // just above), aligned to 64 bytes where streamed.
        unsafe {
            match STREAM && to.is_aligned() {
                true => _mm512_stream_si512(to, register),
                false => _mm512_storeu_si512(to.cast(), register),
            }
        }
    }
}

/// AVX-512 rows of `K`'s full tiles of `E`: its network for 64-byte registers, unrolled.
pub fn avx512_rows<K: FullTiles, E>(cpu: Avx512, src: &[u8], dst: &mut [u8], tiles: TileRow) {
    match tiles.stream {
        true => cpu.vectorize(
            #[inline(always)]
            || avx512_tiles::<K, E, true>(cpu, src, dst, tiles),
        ),
        false => cpu.vectorize(
            #[inline(always)]
            || avx512_tiles::<K, E, false>(cpu, src, dst, tiles),
        ),
    }
}

#[inline(always)]
fn avx512_tiles<K: FullTiles, E, const STREAM: bool>(
    cpu: Avx512,
    src: &[u8],
    dst: &mut [u8],
    tiles: TileRow,
) {
    let [from_side, to_side] = const { Unrolled::<K, E>::AVX512.sides };
    let words = const { Permute::new(Level::Avx512, size_of::<E>()).words() };
    let pitch = pitch::<K>(tiles.pitches);
    for (from, to) in tiles.starts() {
        let (src, mut dst) = (
            from_side.window(src, from, pitch),
            to_side.window_mut(dst, to, pitch),
        );
        let mut register = cpu.zero();
        unroll!(I => {
            // Constant: steps past the network compile to nothing.
            if const { Unrolled::<K, E>::AVX512.ops[I].present } {
                let op = const { Unrolled::<K, E>::AVX512.ops[I] };
                let load = cpu.load(src.row(op.load.row), op.load.at);
                let mask = const { Unrolled::<K, E>::AVX512.controls[I].writes };
                // The first two steps of a store are one two-register permute.
                register = match (op.identity, op.index, op.count, words) {
                    (true, ..) => load,
                    (_, 0, 2.., _) => register,
                    (_, 1, _, _) => {
                        let first = const { Unrolled::<K, E>::AVX512.ops[I.saturating_sub(1)].load };
                        let first = cpu.load(src.row(first.row), first.at);
                        match words {
                            true => cpu.permute2(first, cpu.words(const { Unrolled::<K, E>::AVX512.pairs[I].take() }), load),
                            false => cpu.permute2_bytes(first, cpu.bytes(const { Unrolled::<K, E>::AVX512.pairs[I].bytes() }), load),
                        }
                    }
                    (_, 0, _, true) => cpu.permute(load, cpu.words(const { Unrolled::<K, E>::AVX512.singles[I].take() })),
                    (_, 0, _, false) => cpu.permute_bytes(load, cpu.bytes(const { Unrolled::<K, E>::AVX512.singles[I].bytes() })),
                    (_, _, _, true) => cpu.permute_into(register, mask as u16, load, cpu.words(const { Unrolled::<K, E>::AVX512.singles[I].take() })),
                    (_, _, _, false) => cpu.permute_bytes_into(register, mask, load, cpu.bytes(const { Unrolled::<K, E>::AVX512.singles[I].bytes() })),
                };
                if op.last() {
                    let slice = dst.row(op.store.row);
                    cpu.store::<STREAM>(slice, op.store.at, register);
                }
            }
        });
    }
}

/// AVX2 rows of `K`'s full tiles of `E`: its network for 32-byte registers, unrolled.
pub fn avx2_rows<K: FullTiles, E>(cpu: Avx2, src: &[u8], dst: &mut [u8], tiles: TileRow) {
    match tiles.stream {
        true => cpu.vectorize(
            #[inline(always)]
            || avx2_tiles::<K, E, true>(cpu, src, dst, tiles),
        ),
        false => cpu.vectorize(
            #[inline(always)]
            || avx2_tiles::<K, E, false>(cpu, src, dst, tiles),
        ),
    }
}

#[inline(always)]
fn avx2_tiles<K: FullTiles, E, const STREAM: bool>(
    cpu: Avx2,
    src: &[u8],
    dst: &mut [u8],
    tiles: TileRow,
) {
    let [from_side, to_side] = const { Unrolled::<K, E>::AVX2.sides };
    let words = const { Permute::new(Level::Avx2, size_of::<E>()).words() };
    let pitch = pitch::<K>(tiles.pitches);
    for (from, to) in tiles.starts() {
        let (src, mut dst) = (
            from_side.window(src, from, pitch),
            to_side.window_mut(dst, to, pitch),
        );
        let mut register = cpu.zero();
        unroll!(I => {
            // Constant: steps past the network compile to nothing.
            if const { Unrolled::<K, E>::AVX2.ops[I].present } {
                let op = const { Unrolled::<K, E>::AVX2.ops[I] };
                let load = cpu.load(src.row(op.load.row), op.load.at);
                // `vpshufb` indexes within 128-bit halves: each byte's index there, and
                // whether it comes from the other half.
                let permuted = match words {
                    true => cpu.permute(load, cpu.words(const { Unrolled::<K, E>::AVX2.controls[I].take() })),
                    false => cpu.permute_bytes(
                        load,
                        cpu.bytes(const { Unrolled::<K, E>::AVX2.controls[I].in_halves().0.bytes() }),
                        cpu.bytes(const { Unrolled::<K, E>::AVX2.controls[I].in_halves().1.bytes() }),
                    ),
                };
                register = match (op.identity, op.index, words) {
                    (true, ..) => load,
                    (_, 0, _) => permuted,
                    (_, _, true) => {
                        let mask = cpu.words(const { Unrolled::<K, E>::AVX2.controls[I].blend(u32::MAX).take() });
                        cpu.blend_words(register, permuted, mask)
                    }
                    (_, _, false) => {
                        let mask = cpu.bytes(const { Unrolled::<K, E>::AVX2.controls[I].blend(0xFF).bytes() });
                        cpu.blend_bytes(register, permuted, mask)
                    }
                };
                if op.last() {
                    let slice = dst.row(op.store.row);
                    cpu.store::<STREAM>(slice, op.store.at, register);
                }
            }
        });
    }
}
