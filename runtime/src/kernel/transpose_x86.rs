//! Squares of a transpose in AVX2 registers: eight lines of eight 4-byte elements, or four
//! of four 8-byte ones, loaded, transposed with unpacks and lane permutes, stored. The
//! shuffles move bits only, so any 4- or 8-byte `Pod` travels through the float forms.

use std::arch::x86_64::*;

/// An area of whole squares: `rows × cols` elements of `size` bytes, squares of `side`.
/// Source line `c` (the area's `c`-th column) starts `c · src_line` bytes past the source
/// pointer and holds rows `0..rows`; destination line `r` starts `r · dst_line` bytes past
/// the destination pointer and holds columns `0..cols`.
#[derive(Clone, Copy)]
pub struct Area {
    pub rows: usize,
    pub cols: usize,
    pub side: usize,
    pub size: usize,
    pub src_line: usize,
    pub dst_line: usize,
}

/// Transposes every square of `area`.
///
/// # Safety
/// The CPU has AVX2; `area.side` is 8 with `size` 4 or 4 with `size` 8; `rows` and `cols`
/// are multiples of `side`; every source line's `rows` elements and every destination
/// line's `cols` elements lie inside their buffers.
#[target_feature(enable = "avx2")]
pub unsafe fn transpose_area(src: *const u8, dst: *mut u8, area: Area) {
    let Area {
        rows,
        cols,
        side,
        size,
        src_line,
        dst_line,
    } = area;
    for r in (0..rows).step_by(side) {
        for c in (0..cols).step_by(side) {
            // SAFETY: the square's lines are lines of the area, inside the buffers (the
            // caller's contract).
            unsafe {
                let (from, to) = (
                    src.add(r * size + c * src_line),
                    dst.add(r * dst_line + c * size),
                );
                match size {
                    4 => square_8x8(from, src_line, to, dst_line),
                    _ => square_4x4(from, src_line, to, dst_line),
                }
            }
        }
    }
}

/// Eight lines of eight 4-byte elements, transposed.
///
/// # Safety
/// AVX2; 32 bytes readable at `src + k · src_line` and writable at `dst + k · dst_line` for
/// `k` in `0..8`.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn square_8x8(src: *const u8, src_line: usize, dst: *mut u8, dst_line: usize) {
    // SAFETY: the caller's contract.
    let line = |k: usize| unsafe { _mm256_loadu_ps(src.add(k * src_line).cast()) };
    let (l0, l1, l2, l3) = (line(0), line(1), line(2), line(3));
    let (l4, l5, l6, l7) = (line(4), line(5), line(6), line(7));
    // Pairs of lines interleaved: (0 1)(2 3)(4 5)(6 7), low and high halves of each lane.
    let (a0, a1) = (_mm256_unpacklo_ps(l0, l1), _mm256_unpackhi_ps(l0, l1));
    let (a2, a3) = (_mm256_unpacklo_ps(l2, l3), _mm256_unpackhi_ps(l2, l3));
    let (a4, a5) = (_mm256_unpacklo_ps(l4, l5), _mm256_unpackhi_ps(l4, l5));
    let (a6, a7) = (_mm256_unpacklo_ps(l6, l7), _mm256_unpackhi_ps(l6, l7));
    // Quads: each 128-bit lane holds one element of four lines.
    let (b0, b1) = (
        _mm256_shuffle_ps::<0x44>(a0, a2),
        _mm256_shuffle_ps::<0xEE>(a0, a2),
    );
    let (b2, b3) = (
        _mm256_shuffle_ps::<0x44>(a1, a3),
        _mm256_shuffle_ps::<0xEE>(a1, a3),
    );
    let (b4, b5) = (
        _mm256_shuffle_ps::<0x44>(a4, a6),
        _mm256_shuffle_ps::<0xEE>(a4, a6),
    );
    let (b6, b7) = (
        _mm256_shuffle_ps::<0x44>(a5, a7),
        _mm256_shuffle_ps::<0xEE>(a5, a7),
    );
    // Lanes of lines 0–3 and 4–7 joined: row k of the transpose.
    let rows = [
        _mm256_permute2f128_ps::<0x20>(b0, b4),
        _mm256_permute2f128_ps::<0x20>(b1, b5),
        _mm256_permute2f128_ps::<0x20>(b2, b6),
        _mm256_permute2f128_ps::<0x20>(b3, b7),
        _mm256_permute2f128_ps::<0x31>(b0, b4),
        _mm256_permute2f128_ps::<0x31>(b1, b5),
        _mm256_permute2f128_ps::<0x31>(b2, b6),
        _mm256_permute2f128_ps::<0x31>(b3, b7),
    ];
    for (k, row) in rows.into_iter().enumerate() {
        // SAFETY: the caller's contract.
        unsafe { _mm256_storeu_ps(dst.add(k * dst_line).cast(), row) };
    }
}

/// Four lines of four 8-byte elements, transposed.
///
/// # Safety
/// AVX2; 32 bytes readable at `src + k · src_line` and writable at `dst + k · dst_line` for
/// `k` in `0..4`.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn square_4x4(src: *const u8, src_line: usize, dst: *mut u8, dst_line: usize) {
    // SAFETY: the caller's contract.
    let line = |k: usize| unsafe { _mm256_loadu_pd(src.add(k * src_line).cast()) };
    let (l0, l1, l2, l3) = (line(0), line(1), line(2), line(3));
    let (a0, a1) = (_mm256_unpacklo_pd(l0, l1), _mm256_unpackhi_pd(l0, l1));
    let (a2, a3) = (_mm256_unpacklo_pd(l2, l3), _mm256_unpackhi_pd(l2, l3));
    let rows = [
        _mm256_permute2f128_pd::<0x20>(a0, a2),
        _mm256_permute2f128_pd::<0x20>(a1, a3),
        _mm256_permute2f128_pd::<0x31>(a0, a2),
        _mm256_permute2f128_pd::<0x31>(a1, a3),
    ];
    for (k, row) in rows.into_iter().enumerate() {
        // SAFETY: the caller's contract.
        unsafe { _mm256_storeu_pd(dst.add(k * dst_line).cast(), row) };
    }
}
