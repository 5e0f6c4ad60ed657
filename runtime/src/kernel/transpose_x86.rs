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

/// Destination rows of one staged tile.
const TILE_ROWS: usize = 64;
/// Bytes of each row of a staged tile: four cache lines.
const TILE_ROW_BYTES: usize = 256;

/// One tile of the destination, staged: its rows one after the other (16 KiB), aligned
/// to cache lines.
#[repr(C, align(64))]
struct Tile([u8; TILE_ROWS * TILE_ROW_BYTES]);

/// Transposes every square of `area` through a buffer, one tile of at most 64 destination
/// rows × 256 bytes at a time. The squares of each group of `side` source lines go into
/// the buffer top to bottom, so each source line is read whole (64 elements, four cache
/// lines) while it is in L1; then each row of the buffer is copied to its destination line
/// in whole 32-byte stores, so each destination cache line is written whole, once.
///
/// Writing the squares straight into the destination (this function's first form, measured
/// in BENCHMARKS.md's git history) kept 16 source and 16 destination lines in flight at once;
/// lines a pitch of a multiple of 4 KiB apart share their L1 set, more than its 8 to 12
/// ways, so a destination line written in two halves could leave L1 between them.
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
    // Never read before written: the squares fill every row and column read back.
    let mut tile = std::mem::MaybeUninit::<Tile>::uninit();
    let buffer = tile.as_mut_ptr().cast::<u8>();
    // Columns per tile: 64 or 32, a multiple of `side`.
    let tile_cols = TILE_ROW_BYTES / size;
    for r0 in (0..rows).step_by(TILE_ROWS) {
        // Multiples of `side`, as `rows`, `cols`, `TILE_ROWS` and `tile_cols` are.
        let tile_rows = TILE_ROWS.min(rows - r0);
        for c0 in (0..cols).step_by(tile_cols) {
            let width = tile_cols.min(cols - c0);
            for c in (0..width).step_by(side) {
                for r in (0..tile_rows).step_by(side) {
                    // SAFETY: source lines `c0 + c ..` hold rows `r0 + r .. + side` of the
                    // area (the caller's contract); buffer row `r + k` (k < side) has 256
                    // bytes from `c · size`, and `(c + side) · size ≤ 256`.
                    unsafe {
                        let from = src.add((r0 + r) * size + (c0 + c) * src_line);
                        let to = buffer.add(r * TILE_ROW_BYTES + c * size);
                        match size {
                            4 => square_8x8(from, src_line, to, TILE_ROW_BYTES),
                            _ => square_4x4(from, src_line, to, TILE_ROW_BYTES),
                        }
                    }
                }
            }
            for r in 0..tile_rows {
                // SAFETY: destination line `r0 + r` holds columns `c0 .. c0 + width` (the
                // caller's contract); `width · size` is a multiple of 32 bytes (whole
                // squares), all written into the buffer's row `r` just above, whose
                // 32-byte pieces are aligned (the row starts at a multiple of 256 bytes of
                // a 64-byte aligned buffer).
                unsafe {
                    let from = buffer.add(r * TILE_ROW_BYTES);
                    let to = dst.add((r0 + r) * dst_line + c0 * size);
                    for at in (0..width * size).step_by(32) {
                        let piece = _mm256_load_si256(from.add(at).cast());
                        _mm256_storeu_si256(to.add(at).cast(), piece);
                    }
                }
            }
        }
    }
}

/// Eight lines of eight 4-byte elements, transposed. Each register is loaded as two
/// halves of lines four apart (the load ports join them), so that the shuffle port does
/// only the unpacks and one shuffle per pair of outputs; blends finish the pairs.
///
/// # Safety
/// AVX2; 32 bytes readable at `src + k · src_line` and writable at `dst + k · dst_line` for
/// `k` in `0..8`.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn square_8x8(src: *const u8, src_line: usize, dst: *mut u8, dst_line: usize) {
    // Elements `half·4 .. half·4 + 4` of line `k` (low lane) and of line `k + 4` (high).
    let pair = |k: usize, half: usize| {
        // SAFETY: the caller's contract: lines k and k + 4 hold 32 readable bytes.
        unsafe {
            let low = _mm_loadu_ps(src.add(k * src_line + half * 16).cast());
            let high = _mm_loadu_ps(src.add((k + 4) * src_line + half * 16).cast());
            _mm256_insertf128_ps::<1>(_mm256_castps128_ps256(low), high)
        }
    };
    let (r0, r1, r2, r3) = (pair(0, 0), pair(1, 0), pair(2, 0), pair(3, 0));
    let (r4, r5, r6, r7) = (pair(0, 1), pair(1, 1), pair(2, 1), pair(3, 1));
    // Lines interleaved in pairs: elements 0–1 (lo) and 2–3 (hi) of each half.
    let (t0, t1) = (_mm256_unpacklo_ps(r0, r1), _mm256_unpackhi_ps(r0, r1));
    let (t2, t3) = (_mm256_unpacklo_ps(r2, r3), _mm256_unpackhi_ps(r2, r3));
    let (t4, t5) = (_mm256_unpacklo_ps(r4, r5), _mm256_unpackhi_ps(r4, r5));
    let (t6, t7) = (_mm256_unpacklo_ps(r6, r7), _mm256_unpackhi_ps(r6, r7));
    // Row `2j` takes the low pairs of `a` and `b`, row `2j + 1` the high pairs: one
    // shuffle crosses them over, two blends pick.
    let rows = |a: __m256, b: __m256| {
        let crossed = _mm256_shuffle_ps::<0x4E>(a, b);
        (
            _mm256_blend_ps::<0xCC>(a, crossed),
            _mm256_blend_ps::<0x33>(b, crossed),
        )
    };
    let (o0, o1) = rows(t0, t2);
    let (o2, o3) = rows(t1, t3);
    let (o4, o5) = rows(t4, t6);
    let (o6, o7) = rows(t5, t7);
    for (k, row) in [o0, o1, o2, o3, o4, o5, o6, o7].into_iter().enumerate() {
        // SAFETY: the caller's contract.
        unsafe { _mm256_storeu_ps(dst.add(k * dst_line).cast(), row) };
    }
}

/// Four lines of four 8-byte elements, transposed: registers loaded as halves of lines two
/// apart, then one unpack per output.
///
/// # Safety
/// AVX2; 32 bytes readable at `src + k · src_line` and writable at `dst + k · dst_line` for
/// `k` in `0..4`.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn square_4x4(src: *const u8, src_line: usize, dst: *mut u8, dst_line: usize) {
    // Elements `half·2 .. half·2 + 2` of line `k` (low lane) and of line `k + 2` (high).
    let pair = |k: usize, half: usize| {
        // SAFETY: the caller's contract: lines k and k + 2 hold 32 readable bytes.
        unsafe {
            let low = _mm_loadu_pd(src.add(k * src_line + half * 16).cast());
            let high = _mm_loadu_pd(src.add((k + 2) * src_line + half * 16).cast());
            _mm256_insertf128_pd::<1>(_mm256_castpd128_pd256(low), high)
        }
    };
    let (r0, r1, r2, r3) = (pair(0, 0), pair(1, 0), pair(0, 1), pair(1, 1));
    let rows = [
        _mm256_unpacklo_pd(r0, r1),
        _mm256_unpackhi_pd(r0, r1),
        _mm256_unpacklo_pd(r2, r3),
        _mm256_unpackhi_pd(r2, r3),
    ];
    for (k, row) in rows.into_iter().enumerate() {
        // SAFETY: the caller's contract.
        unsafe { _mm256_storeu_pd(dst.add(k * dst_line).cast(), row) };
    }
}

/// Transposes every square of `area` straight into the destination with AVX-512 F (which
/// the AVX-512 level has, with more: CPUs with AVX-512 F alone run the AVX2 squares): squares
/// of 16 × 16 4-byte elements or 8 × 8 8-byte ones, one 64-byte register a line. Each
/// square reads 16 (8) source lines and writes as many destination lines, each a whole
/// cache line where the lines are aligned, so every line is read and written once, whole,
/// by one instruction: unlike the AVX2 squares, nothing needs to stay in L1 between them,
/// and a full-line store is one the core may write without reading the line first. The
/// squares walk down each group of source lines (along a destination column block), as
/// the source lines run.
///
/// # Safety
/// The CPU has AVX-512 F; `area.side` is 16 with `size` 4 or 8 with `size` 8; `rows` and
/// `cols` are multiples of `side`; every source line's `rows` elements and every
/// destination line's `cols` elements lie inside their buffers.
#[target_feature(enable = "avx512f")]
pub unsafe fn transpose_area_avx512(src: *const u8, dst: *mut u8, area: Area) {
    let Area {
        rows,
        cols,
        side,
        size,
        src_line,
        dst_line,
    } = area;
    for c in (0..cols).step_by(side) {
        for r in (0..rows).step_by(side) {
            // SAFETY: source lines `c .. c + side` hold rows `r .. r + side` and destination
            // lines `r .. r + side` columns `c .. c + side` (the caller's contract): 64
            // bytes each.
            unsafe {
                let from = src.add(r * size + c * src_line);
                let to = dst.add(r * dst_line + c * size);
                match size {
                    4 => square_16x16_avx512(from, src_line, to, dst_line),
                    _ => square_8x8_avx512(from, src_line, to, dst_line),
                }
            }
        }
    }
}

/// Sixteen lines of sixteen 4-byte elements, transposed: unpacks pair the lines, in-lane
/// shuffles gather four lines' elements of one column in each 128-bit lane, and two rounds
/// of lane shuffles put each column's four lanes together (64 shuffles for 1 KiB).
///
/// # Safety
/// AVX-512 F; 64 bytes readable at `src + k · src_line` and writable at `dst + k ·
/// dst_line` for `k` in `0..16`.
#[inline]
#[target_feature(enable = "avx512f")]
unsafe fn square_16x16_avx512(src: *const u8, src_line: usize, dst: *mut u8, dst_line: usize) {
    // SAFETY: the caller's contract: line k holds 64 readable bytes.
    let line: [__m512; 16] =
        std::array::from_fn(|k| unsafe { _mm512_loadu_ps(src.add(k * src_line).cast()) });
    // Lines 2i and 2i + 1 interleaved: in each lane, elements 0–1 (lo) and 2–3 (hi).
    let mut pairs = [_mm512_setzero_ps(); 16];
    for i in 0..8 {
        pairs[2 * i] = _mm512_unpacklo_ps(line[2 * i], line[2 * i + 1]);
        pairs[2 * i + 1] = _mm512_unpackhi_ps(line[2 * i], line[2 * i + 1]);
    }
    // quads[4j + k], lane L: lines 4j .. 4j + 4 at column 4L + k.
    let mut quads = [_mm512_setzero_ps(); 16];
    for j in 0..4 {
        let (lo, hi) = (pairs[4 * j], pairs[4 * j + 1]);
        let (lo2, hi2) = (pairs[4 * j + 2], pairs[4 * j + 3]);
        quads[4 * j] = _mm512_shuffle_ps::<0x44>(lo, lo2);
        quads[4 * j + 1] = _mm512_shuffle_ps::<0xEE>(lo, lo2);
        quads[4 * j + 2] = _mm512_shuffle_ps::<0x44>(hi, hi2);
        quads[4 * j + 3] = _mm512_shuffle_ps::<0xEE>(hi, hi2);
    }
    // Column 4L + k is lane L of quads[k], [4 + k], [8 + k], [12 + k].
    for k in 0..4 {
        let lanes = [quads[k], quads[4 + k], quads[8 + k], quads[12 + k]];
        for (i, row) in gather_lanes(lanes.map(|q| _mm512_castps_si512(q)))
            .into_iter()
            .enumerate()
        {
            // SAFETY: the caller's contract: line `4i + k` holds 64 writable bytes.
            unsafe { _mm512_storeu_si512(dst.add((4 * i + k) * dst_line).cast(), row) };
        }
    }
}

/// Eight lines of eight 8-byte elements, transposed: unpacks pair the lines, then two
/// rounds of lane shuffles (24 shuffles for 512 bytes).
///
/// # Safety
/// AVX-512 F; 64 bytes readable at `src + k · src_line` and writable at `dst + k ·
/// dst_line` for `k` in `0..8`.
#[inline]
#[target_feature(enable = "avx512f")]
unsafe fn square_8x8_avx512(src: *const u8, src_line: usize, dst: *mut u8, dst_line: usize) {
    // SAFETY: the caller's contract: line k holds 64 readable bytes.
    let line: [__m512d; 8] =
        std::array::from_fn(|k| unsafe { _mm512_loadu_pd(src.add(k * src_line).cast()) });
    // pairs[2i] lane L: lines 2i, 2i + 1 at column 2L; pairs[2i + 1] at column 2L + 1.
    let mut pairs = [_mm512_setzero_pd(); 8];
    for i in 0..4 {
        pairs[2 * i] = _mm512_unpacklo_pd(line[2 * i], line[2 * i + 1]);
        pairs[2 * i + 1] = _mm512_unpackhi_pd(line[2 * i], line[2 * i + 1]);
    }
    // Column 2L + k is lane L of pairs[k], [2 + k], [4 + k], [6 + k].
    for k in 0..2 {
        let lanes = [pairs[k], pairs[2 + k], pairs[4 + k], pairs[6 + k]];
        for (i, row) in gather_lanes(lanes.map(|p| _mm512_castpd_si512(p)))
            .into_iter()
            .enumerate()
        {
            // SAFETY: the caller's contract: line `2i + k` holds 64 writable bytes.
            unsafe { _mm512_storeu_si512(dst.add((2 * i + k) * dst_line).cast(), row) };
        }
    }
}

/// The last step of both AVX-512 squares, a 4 × 4 transpose of 128-bit lanes: output `i`
/// holds lane `i` of each input, in the inputs' order. Even lanes of the first two inputs
/// and of the last two, then their even and odd lanes. Lane shuffles move 16 bytes whole,
/// so the squares' element types travel through it as integers.
#[inline]
#[target_feature(enable = "avx512f")]
fn gather_lanes([a, b, c, d]: [__m512i; 4]) -> [__m512i; 4] {
    let (even, odd) = (
        _mm512_shuffle_i32x4::<0x88>(a, b),
        _mm512_shuffle_i32x4::<0xDD>(a, b),
    );
    let (even2, odd2) = (
        _mm512_shuffle_i32x4::<0x88>(c, d),
        _mm512_shuffle_i32x4::<0xDD>(c, d),
    );
    [
        _mm512_shuffle_i32x4::<0x88>(even, even2),
        _mm512_shuffle_i32x4::<0x88>(odd, odd2),
        _mm512_shuffle_i32x4::<0xDD>(even, even2),
        _mm512_shuffle_i32x4::<0xDD>(odd, odd2),
    ]
}
