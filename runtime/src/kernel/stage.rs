//! Streaming stores into destination rows that start off a cache line. A register stored at an
//! address 16 bytes past a line writes two lines in part each; streamed, each part goes to
//! memory alone (the write-combining buffer flushes half lines, each a partial write of its
//! own: far slower than plain stores, BENCHMARKS.md#texture-surfaces), so the generated rows
//! stream only where aligned, and a `Vec<u8>` of many MiB from glibc starts 16 bytes into its
//! pages. Here a row of tiles is copied in chunks into a small aligned stage (in the L1
//! cache), then each destination row is written from it: its bytes up to the first line
//! boundary and after the last with plain copies, every whole line between with one streaming
//! store, read from the stage at the destination's misalignment (an unaligned load from the
//! cache). A layout's tiles (a pack's destination, or a copy's) are staged alike, each tile
//! one row: they lie one after the other, so a row of them is one run of bytes, and a large
//! pack streams its stores where, left unstreamed, each would read its destination line first
//! (BENCHMARKS.md#copy-kernels).

use super::simd::{Avx2, Avx512, Bound, TileRow};
use super::{CACHE_LINE, Level};
use std::cell::RefCell;

/// Bytes of a stage: the rows of a chunk of tiles, which stay in a 32 KiB L1 data cache
/// beside the tiles' source lines.
const STAGE_BYTES: usize = 16 << 10;

/// A cache line's bytes, aligned as one, so that the stage's rows start on lines.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Line([u8; CACHE_LINE]);

thread_local! {
    /// The stage of this thread, kept between rows (written before it is read).
    static STAGE: RefCell<Vec<Line>> = const { RefCell::new(Vec::new()) };
}

/// How one tile lies in a destination: `rows` rows of `width` bytes (in an image, rows a
/// row of tiles' pitch apart; in a layout's tiles, one row), the tiles of a row one after
/// the other (`to_step == width`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Staging {
    pub rows: usize,
    pub width: usize,
}

impl Staging {
    /// Where staging can stream a row of tiles of this shape with `level`'s registers.
    pub fn new(level: Level, rows: usize, width: usize) -> Option<Staging> {
        let fits = rows > 0 && width > 0 && rows.checked_mul(CACHE_LINE + width)? <= STAGE_BYTES;
        let streams = matches!(level, Level::Avx2 | Level::Avx512) && cfg!(target_arch = "x86_64");
        (fits && streams).then_some(Staging { rows, width })
    }
}

/// Copies `row` with the generated rows `generated` through the stage, the destination's
/// whole lines written with streaming stores; `false` (nothing copied) where the row's
/// tiles do not abut or reach past `dst`. Ends with a store fence.
pub fn copy_row(
    generated: Bound,
    staging: Staging,
    src: &[u8],
    dst: &mut [u8],
    row: TileRow,
) -> bool {
    // Never for NEON rows: staging is made ready only for levels that stream.
    let Some(streams) = Streams::of(generated) else {
        return false;
    };
    let Staging { rows, width } = staging;
    let pitch = row.pitches[1];
    // Each destination row of the tiles: `row.count · width` bytes from its start.
    let row_bytes = row.count.checked_mul(width);
    let reach = rows
        .checked_sub(1)
        .and_then(|last| last.checked_mul(pitch))
        .zip(row_bytes)
        .and_then(|(last, len)| row.to.checked_add(last)?.checked_add(len));
    let abut = row.to_step == width && (rows == 1 || pitch >= width);
    if !abut || reach.is_none_or(|end| end > dst.len()) {
        return false;
    }
    // Tiles per chunk: at least a line's worth of each row, so that the line across two
    // chunks finds its first bytes in the line kept before the chunk.
    let chunk = ((STAGE_BYTES / rows - CACHE_LINE) / width).max(CACHE_LINE.div_ceil(width));
    let stage_pitch = (CACHE_LINE + chunk * width).next_multiple_of(CACHE_LINE);
    let base = dst.as_ptr() as usize;
    let starts = |r: usize| row.to + r * pitch;
    // Per destination row, the first byte not yet written.
    let mut written: Vec<usize> = (0..rows).map(starts).collect();
    STAGE.with_borrow_mut(|stage| {
        let lines = rows * stage_pitch / CACHE_LINE;
        if stage.len() < lines {
            stage.resize(lines, Line([0; CACHE_LINE]));
        }
        let stage: &mut [u8] = bytemuck_lines(&mut stage[..lines]);
        let mut first = 0;
        while first < row.count {
            let n = chunk.min(row.count - first);
            if first > 0 {
                // The previous chunk's last line of each row, before this chunk's bytes.
                for r in 0..rows {
                    let at = r * stage_pitch;
                    stage.copy_within(at + chunk * width..at + CACHE_LINE + chunk * width, at);
                }
            }
            let part = TileRow {
                from: row.from + first * row.from_step,
                to: CACHE_LINE,
                to_step: width,
                count: n,
                pitches: [row.pitches[0], stage_pitch],
                stream: false,
                ..row
            };
            generated.copy(src, stage, part);
            let last = first + n == row.count;
            for (r, written) in written.iter_mut().enumerate() {
                // `staged[i]` is the destination's byte `chunk_start - CACHE_LINE + i`.
                let chunk_start = starts(r) + first * width;
                let chunk_end = chunk_start + n * width;
                let staged = &stage[r * stage_pitch..][..CACHE_LINE + n * width];
                let at = |byte: usize| byte + CACHE_LINE - chunk_start;
                // Up to the row's first line boundary (the first chunk only).
                let boundary =
                    ((base + *written).next_multiple_of(CACHE_LINE) - base).min(chunk_end);
                dst[*written..boundary].copy_from_slice(&staged[at(*written)..at(boundary)]);
                *written = boundary;
                let whole = (chunk_end - *written) / CACHE_LINE * CACHE_LINE;
                let end = *written + whole;
                // None where the row ends before its first line boundary.
                if whole > 0 {
                    stream_lines(
                        streams,
                        &mut dst[*written..end],
                        &staged[at(*written)..at(end)],
                    );
                }
                *written = end;
                if last {
                    dst[end..chunk_end].copy_from_slice(&staged[at(end)..at(chunk_end)]);
                    *written = chunk_end;
                }
            }
            first += n;
        }
    });
    // The lines were streamed (only x86 streams): fence them.
    #[cfg(target_arch = "x86_64")]
    super::simd::stream::fence();
    true
}

/// Copies `from` into `to` (as long), the whole lines of `to` with streaming stores where
/// the CPU has them (AVX2 or AVX-512), read from `from` at `to`'s misalignment; the bytes
/// before `to`'s first line boundary and after its last with plain copies. For a pass that
/// builds a destination's bytes in the L1 cache and writes them out (the Wii U's groups,
/// permuted per 2 KB row), where plain stores would read each line first. Ends with a store
/// fence where it streamed.
pub fn copy_streaming(to: &mut [u8], from: &[u8]) {
    assert_eq!(to.len(), from.len(), "a streaming copy's sides are as long");
    let head = (to.as_ptr() as usize)
        .next_multiple_of(CACHE_LINE)
        .wrapping_sub(to.as_ptr() as usize)
        .min(to.len());
    let whole = (to.len() - head) / CACHE_LINE * CACHE_LINE;
    let Some(streams) = Streams::detect().filter(|_| whole > 0) else {
        to.copy_from_slice(from);
        return;
    };
    let (to_head, to) = to.split_at_mut(head);
    let (from_head, from) = from.split_at(head);
    to_head.copy_from_slice(from_head);
    let (to_lines, to_tail) = to.split_at_mut(whole);
    let (from_lines, from_tail) = from.split_at(whole);
    to_tail.copy_from_slice(from_tail);
    stream_lines(streams, to_lines, from_lines);
    // The lines were streamed (only x86 streams): fence them.
    #[cfg(target_arch = "x86_64")]
    super::simd::stream::fence();
}

/// The stage's lines as bytes.
fn bytemuck_lines(lines: &mut [Line]) -> &mut [u8] {
    // SAFETY: `Line` is 64 bytes with no padding (`repr(C)` of a byte array); the bytes
    // are `lines`', borrowed as long.
    unsafe { std::slice::from_raw_parts_mut(lines.as_mut_ptr().cast(), size_of_val(lines)) }
}

/// A level with streaming stores, proved by its token.
#[derive(Clone, Copy)]
enum Streams {
    Avx512(Avx512),
    Avx2(Avx2),
}

impl Streams {
    /// The level of generated rows, where it streams (NEON does not).
    fn of(generated: Bound) -> Option<Streams> {
        match generated {
            Bound::Avx512(_, cpu) => Some(Streams::Avx512(cpu)),
            Bound::Avx2(_, cpu) => Some(Streams::Avx2(cpu)),
            Bound::Neon(..) => None,
        }
    }

    /// The widest level this CPU streams with.
    fn detect() -> Option<Streams> {
        Avx512::detect()
            .map(Streams::Avx512)
            .or_else(|| Avx2::detect().map(Streams::Avx2))
    }
}

/// Writes `from` into `to` (whole lines, `to` starting on one) with the streaming stores of
/// the level `streams` proves the CPU runs.
fn stream_lines(streams: Streams, to: &mut [u8], from: &[u8]) {
    assert!(to.len() == from.len() && to.len().is_multiple_of(CACHE_LINE));
    assert!(
        (to.as_ptr() as usize).is_multiple_of(CACHE_LINE),
        "lines start on lines"
    );
    #[cfg(target_arch = "x86_64")]
    // SAFETY: the token in `streams` proves the level's features; `to` and `from` are
    // slices of the same whole lines, `to` aligned to a line (asserted just above).
    unsafe {
        match streams {
            Streams::Avx512(_) => x86::stream_lines_avx512(to, from),
            Streams::Avx2(_) => x86::stream_lines_avx2(to, from),
        }
    }
    // No token is made on other architectures (their levels are never detected).
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = streams;
        to.copy_from_slice(from);
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::CACHE_LINE;
    use crate::kernel::simd::stream;
    use std::arch::x86_64::*;

    target_features! {
    Avx512,
    /// # Safety
    /// The CPU runs AVX-512 F; `to` starts on a line; both are `to.len()` bytes, whole lines.
    pub unsafe fn stream_lines_avx512(to: &mut [u8], from: &[u8]) {
        for (to, from) in to.chunks_exact_mut(CACHE_LINE).zip(from.chunks_exact(CACHE_LINE)) {
            // SAFETY: 64 bytes each, `to` aligned to 64 (the caller's contract).
            unsafe {
                let line = _mm512_loadu_si512(from.as_ptr().cast());
                stream::store_512(to.as_mut_ptr().cast(), line);
            }
        }
    }
    }

    target_features! {
    Avx2,
    /// # Safety
    /// The CPU runs AVX2; `to` starts on a line; both are `to.len()` bytes, whole lines.
    pub unsafe fn stream_lines_avx2(to: &mut [u8], from: &[u8]) {
        for (to, from) in to.chunks_exact_mut(32).zip(from.chunks_exact(32)) {
            // SAFETY: 32 bytes each, `to` aligned to 32 (it starts on a line).
            unsafe {
                let half = _mm256_loadu_si256(from.as_ptr().cast());
                stream::store_256(to.as_mut_ptr().cast(), half);
            }
        }
    }
    }
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::*;
    use crate::kernel::simd::{Avx2, Avx512, RowFn};
    use proptest::prelude::*;

    /// Rows of tiles of `ROWS` rows of `WIDTH` bytes, each byte of a tile row written from
    /// the source row reversed, as generated rows would: tile `i` at `from + i · from_step`
    /// (rows `pitches[0]` apart) into `to + i · to_step` (rows `pitches[1]` apart).
    fn reversing<C, const ROWS: usize, const WIDTH: usize>(
        _: C,
        src: &[u8],
        dst: &mut [u8],
        row: TileRow,
    ) {
        for (from, to) in row.starts() {
            for r in 0..ROWS {
                let source = &src[from + r * row.pitches[0]..][..WIDTH];
                let target = &mut dst[to + r * row.pitches[1]..][..WIDTH];
                for (byte, &value) in target.iter_mut().zip(source.iter().rev()) {
                    *byte = value;
                }
            }
        }
    }

    /// The bound rows of every level this CPU runs, for tiles of `ROWS × WIDTH` bytes.
    fn bound<const ROWS: usize, const WIDTH: usize>() -> Vec<Bound> {
        let mut bound = Vec::new();
        if let Some(cpu) = Avx512::detect() {
            let rows: RowFn<Avx512> = reversing::<Avx512, ROWS, WIDTH>;
            bound.push(Bound::Avx512(rows, cpu));
        }
        if let Some(cpu) = Avx2::detect() {
            let rows: RowFn<Avx2> = reversing::<Avx2, ROWS, WIDTH>;
            bound.push(Bound::Avx2(rows, cpu));
        }
        bound
    }

    /// One staged row against the same rows written straight into the destination, at
    /// `offset` bytes into a line-aligned buffer; bytes around the tiles stay poisoned.
    fn check<const ROWS: usize, const WIDTH: usize>(offset: usize, count: usize, gap: usize) {
        let pitch = count * WIDTH + gap;
        let src: Vec<u8> = (0..ROWS * pitch + 3 * WIDTH)
            .map(|i| (i * 7 + i / 253) as u8)
            .collect();
        let row = TileRow {
            from: 3,
            from_step: WIDTH,
            to: offset,
            to_step: WIDTH,
            count,
            pitches: [pitch, pitch],
            stream: false,
        };
        let lines = (offset + ROWS * pitch).div_ceil(CACHE_LINE) + 1;
        for generated in bound::<ROWS, WIDTH>() {
            let mut expected = vec![Line([0xA5; CACHE_LINE]); lines];
            generated.copy(&src, bytemuck_lines(&mut expected), row);
            let mut staged = vec![Line([0xA5; CACHE_LINE]); lines];
            let staging = Staging::new(Level::Avx2, ROWS, WIDTH).expect("a stage fits");
            assert!(copy_row(
                generated,
                staging,
                &src,
                bytemuck_lines(&mut staged),
                row
            ));
            assert!(
                bytemuck_lines(&mut staged) == bytemuck_lines(&mut expected),
                "{ROWS} × {WIDTH} bytes, {count} tiles, offset {offset}, gap {gap}, {generated:?}"
            );
        }
    }

    proptest! {
        // Under Miri (CI runs these there: the stage's unsafe line writers), a few rows.
        #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 3 } else { 64 }))]
        /// Every misalignment of the destination, rows of tiles of several shapes (tiles
        /// narrower and wider than a line, rows longer than a chunk).
        #[test]
        fn staged_rows_equal_straight_rows(
            offset in 0usize..64,
            count in 1usize..700,
            gap in 0usize..80,
            shape in 0usize..5,
        ) {
            let count = if cfg!(miri) { count % 5 + 1 } else { count };
            match shape {
                0 => check::<8, 64>(offset, count, gap),
                1 => check::<1, 16>(offset, count, gap),
                2 => check::<3, 100>(offset, count, gap),
                3 => check::<32, 256>(offset, count.min(40), gap),
                _ => check::<16, 8>(offset, count, gap),
            }
        }

        /// A streaming copy writes exactly its destination's bytes, from any misalignment
        /// of either side and any length (shorter than a line, whole lines, ragged ends),
        /// and nothing around it.
        #[test]
        fn streaming_copies_equal_plain_copies(
            to_offset in 0usize..64,
            from_offset in 0usize..64,
            len in 0usize..700,
        ) {
            let len = if cfg!(miri) { len % 200 } else { len };
            let lines = (to_offset + len + 2 * CACHE_LINE) / CACHE_LINE;
            let mut to = vec![Line([0xEE; CACHE_LINE]); lines];
            let from: Vec<u8> = (0..from_offset + len).map(|i| (i * 7 + 3) as u8).collect();
            let to_bytes = bytemuck_lines(&mut to);
            copy_streaming(&mut to_bytes[to_offset..][..len], &from[from_offset..]);
            prop_assert!(to_bytes[..to_offset].iter().all(|&b| b == 0xEE));
            prop_assert_eq!(&to_bytes[to_offset..][..len], &from[from_offset..]);
            prop_assert!(to_bytes[to_offset + len..].iter().all(|&b| b == 0xEE));
        }
    }

    /// Each misalignment 0..64 once, on tiles of a Tegra GOB's shape.
    #[test]
    fn every_misalignment() {
        // Under Miri, rows of three tiles: each still crosses lines at every offset.
        let count = if cfg!(miri) { 3 } else { 300 };
        for offset in 0..CACHE_LINE {
            check::<8, 64>(offset, count, 16);
            // Rows that end before their first line boundary at most offsets.
            check::<2, 16>(offset, 2, 5);
        }
    }

    /// Tiles that do not abut, or reach past the destination, are not staged.
    #[test]
    fn refuses_rows_it_cannot_stage() {
        let Some(generated) = bound::<2, 64>().pop() else {
            return;
        };
        let staging = Staging::new(Level::Avx2, 2, 64).expect("fits");
        let src = vec![0; 4096];
        let mut dst = vec![0; 4096];
        let row = TileRow {
            from: 0,
            from_step: 64,
            to: 0,
            to_step: 128,
            count: 4,
            pitches: [1024, 1024],
            stream: false,
        };
        assert!(!copy_row(generated, staging, &src, &mut dst, row));
        let past = TileRow {
            to_step: 64,
            to: 3500,
            ..row
        };
        assert!(!copy_row(generated, staging, &src, &mut dst, past));
        assert!(dst.iter().all(|&b| b == 0));
        assert_eq!(Staging::new(Level::Scalar, 2, 64), None);
        assert_eq!(Staging::new(Level::Avx512, 64, 1024), None);
    }
}
