//! How a copy runs: its SIMD level, and how many threads share its bands.

use super::Level;
use std::num::NonZeroUsize;

/// Destinations at least this large (in bytes) are split across threads by default.
const PARALLEL_BYTES: usize = 1 << 20;

/// How a copy runs. The default detects the level (the widest this CPU runs; for a kernel,
/// by the cost model of [`Reason`](super::Reason): the widest with generated rows whose
/// source registers fit the level's register file, else the straight-line tile, else the
/// widest network whose controls stay in L1, else runs) and splits destinations of 1 MiB
/// and more across rayon's threads, band by band.
///
/// Its stores bypass the caches where the destination would not stay there ([`Stores`]).
///
/// ```
/// use swizzle_runtime::kernel::{Level, Options, Stores};
/// let pinned = Options::default().level(Level::Scalar).threads(1);
/// assert_eq!(pinned.threads, std::num::NonZeroUsize::new(1));
/// // A destination read right after the copy: keep it in the cache.
/// let cached = pinned.stores(Stores::Cached);
/// assert_eq!(cached.stores, Stores::Cached);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Options {
    /// The SIMD level; `None`: detected. A level this CPU does not run is an error.
    pub level: Option<Level>,
    /// At most this many threads, whatever the size (1: the calling thread alone); `None`:
    /// rayon's pool from 1 MiB of destination on, the calling thread below. More threads
    /// than rayon's pool has run as many as it has.
    pub threads: Option<NonZeroUsize>,
    /// How the copy's stores treat the cache.
    pub stores: Stores,
}

/// How a copy writes its destination: through the cache, or around it with streaming
/// (non-temporal) stores, which skip reading each destination line before writing it and
/// leave none of it in the cache. Streaming stores are used by the kernels' SIMD rows
/// (AVX2, AVX-512); other paths, and copies from tiles placed by table (`Frame::Placed`,
/// copied a few tiles at a time), write through the cache whatever this says.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Stores {
    /// Streaming where the cache would not keep the destination: where each of several
    /// writing threads writes more than three quarters of its share of the last-level
    /// cache, or a lone thread more than its core's L2 (one core fills a large shared cache
    /// more slowly than it streams to memory).
    #[default]
    Auto,
    /// Through the cache: for a destination read right after the copy, or one just zeroed
    /// (a new buffer, whose zeroing brought its lines into the cache: streaming over them
    /// writes each line twice). The allocating texture copies use this.
    Cached,
    /// Streaming wherever the kernel's rows write whole cache lines, whatever the size.
    Streaming,
}

impl Options {
    /// These options at `level`.
    pub fn level(self, level: Level) -> Self {
        Options {
            level: Some(level),
            ..self
        }
    }

    /// These options on at most `threads` threads (0 counts as 1: the calling thread).
    pub fn threads(self, threads: usize) -> Self {
        Options {
            threads: Some(NonZeroUsize::new(threads).unwrap_or(NonZeroUsize::MIN)),
            ..self
        }
    }
}

impl Options {
    /// These options with `stores`.
    pub fn stores(self, stores: Stores) -> Self {
        Options { stores, ..self }
    }

    /// How many threads a copy with these options spreads `parts` parts of `bytes` in all
    /// over, by [`for_each_band`]'s rule: at most the threads asked for, or rayon's pool from
    /// 1 MiB on where none are; never more than the parts. For callers that spread parts of
    /// their own (a texture surface's levels) as the kernels spread their bands.
    pub fn threads_for(&self, bytes: usize, parts: usize) -> usize {
        writers(bytes, parts, self.threads)
    }
}

impl From<Level> for Options {
    fn from(level: Level) -> Self {
        Options::default().level(level)
    }
}

/// How many threads [`for_each_band`] spreads `count` bands of `bytes` in all over.
pub(super) fn writers(bytes: usize, count: usize, threads: Option<NonZeroUsize>) -> usize {
    match threads {
        _ if count < 2 => 1,
        None if bytes >= PARALLEL_BYTES => rayon::current_num_threads().min(count),
        Some(threads) => threads.get().min(count),
        None => 1,
    }
}

/// Runs `copy_band(index, band)` on the first `count` bands of `len` elements of `bands`
/// (the last may be shorter where `bands` ends), on the calling thread or across threads
/// as `threads` says (see [`Options::threads`]). Bands are disjoint, so threads never
/// share an element.
pub fn for_each_band<E: Send>(
    bands: &mut [E],
    len: usize,
    count: usize,
    threads: Option<NonZeroUsize>,
    copy_band: impl Fn(usize, &mut [E]) + Sync,
) {
    use rayon::prelude::*;
    let run = |(index, band): (usize, &mut [E])| copy_band(index, band);
    let parallel = writers(size_of_val(bands), count, threads) > 1;
    match threads {
        None if parallel => bands
            .par_chunks_mut(len)
            .take(count)
            .enumerate()
            .for_each(run),
        Some(threads) if parallel => {
            // One group of whole bands per thread. `(count - 1) · len` lies inside `bands`,
            // so a group's `per · len ≤ count · len` fits `usize`.
            let per = count.div_ceil(threads.get());
            bands
                .par_chunks_mut(per * len)
                .take(count.div_ceil(per))
                .enumerate()
                .for_each(|(group, bands)| {
                    let first = group * per;
                    bands
                        .chunks_mut(len)
                        .take(count - first)
                        .enumerate()
                        .for_each(|(i, band)| copy_band(first + i, band));
                })
        }
        _ => bands.chunks_mut(len).take(count).enumerate().for_each(run),
    }
}
