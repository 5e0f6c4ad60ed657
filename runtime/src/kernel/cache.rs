//! When a copy's stores should bypass the caches. Streaming stores skip the read of each
//! destination line that a plain store makes first (its "read for ownership") and leave
//! nothing in the cache for whatever reads the destination next (a copy repeated on the
//! same buffers, the next pass of an algorithm), so they pay where the cache could not keep
//! the destination, or where filling the cache is slower than memory:
//! - **Several writing threads** stream where each writes more than three quarters of its
//!   share of the last-level cache (glibc's `memcpy` rule): below that the cores fill the
//!   cache together faster than memory takes their lines (BENCHMARKS.md#copy-kernels).
//! - **A lone writing thread** streams from the size of its core's own cache (L2): one
//!   core's reads for ownership from a large shared cache are bound by its outstanding
//!   misses, while its streaming stores go to memory at its full write rate
//!   (BENCHMARKS.md#texture-surfaces, "What we tried").

use super::options::writers;
use super::{Options, Stores};
use std::sync::OnceLock;

/// Used where the CPU does not say (other architectures, Miri, CPUID without cache
/// parameters): a common last-level cache of the 2010s.
const FALLBACK_BYTES: usize = 8 << 20;

/// Used for a core's own cache where the CPU does not say: a common L2.
const FALLBACK_CORE_BYTES: usize = 1 << 20;

/// The least threshold: a cache's share below this says more about the CPUID a virtual
/// machine shows than about the cache.
const LEAST_BYTES: usize = 1 << 20;

/// Whether a copy whose destination `writers` threads write, `bytes_per_writer` bytes
/// each, writes with streaming stores (the module's rule).
pub fn streams(bytes_per_writer: usize, writers: usize) -> bool {
    let thresholds = thresholds();
    bytes_per_writer
        >= match writers {
            0 | 1 => thresholds.lone,
            _ => thresholds.several,
        }
}

/// Whether a copy with `options` into destinations of `bytes` in all, in `bands` bands that
/// threads may share, writes with streaming stores: [`Stores`]' choice, and by the rule above
/// where it leaves the choice to the copy. Each writing thread's part counts, not the whole
/// destination: spread over many threads, a destination larger than one core's cache can
/// still stay in a large shared one, where streaming it would only lose the cache.
pub fn stores_stream(options: Options, bytes: usize, bands: usize) -> bool {
    match options.stores {
        Stores::Auto => {
            let writers = writers(bytes, bands, options.threads);
            streams(bytes / writers, writers)
        }
        Stores::Cached => false,
        Stores::Streaming => true,
    }
}

/// The least bytes per writer that stream, in whole lines, from this CPU's caches.
struct Thresholds {
    /// A lone writer's: its core's L2 (never more than `several`).
    lone: usize,
    /// Each of several writers': three quarters of a thread's share of the last-level cache.
    several: usize,
}

fn thresholds() -> &'static Thresholds {
    static THRESHOLDS: OnceLock<Thresholds> = OnceLock::new();
    THRESHOLDS.get_or_init(|| {
        let caches = caches();
        let share = caches
            .iter()
            .max_by_key(|cache| cache.bytes)
            .map_or(FALLBACK_BYTES, |cache| cache.bytes / cache.sharing);
        let several = lines(share / 4 * 3);
        let core = caches
            .iter()
            .find(|cache| cache.level == 2)
            .map_or(FALLBACK_CORE_BYTES, |cache| cache.bytes);
        Thresholds {
            lone: lines(core).min(several),
            several,
        }
    })
}

/// `bytes`, at least [`LEAST_BYTES`], in whole 64-byte lines.
fn lines(bytes: usize) -> usize {
    bytes.max(LEAST_BYTES) / 64 * 64
}

/// One cache as CPUID describes it.
#[cfg_attr(not(all(target_arch = "x86_64", not(miri))), allow(dead_code))]
struct Cache {
    /// 1 for L1, 2 for L2, …
    level: u32,
    bytes: usize,
    /// How many logical processors share it.
    sharing: usize,
}

/// The caches CPUID describes (its deterministic cache parameters: leaf 4 on Intel,
/// 0x8000_001D on AMD, which share their format).
#[cfg(all(target_arch = "x86_64", not(miri)))]
fn caches() -> Vec<Cache> {
    use std::arch::x86_64::__cpuid_count;
    let max_basic = __cpuid_count(0, 0).eax;
    let max_extended = __cpuid_count(0x8000_0000, 0).eax;
    let mut leaves = Vec::new();
    if max_basic >= 4 {
        leaves.push(4);
    }
    if max_extended >= 0x8000_001D {
        leaves.push(0x8000_001D);
    }
    leaves
        .into_iter()
        .flat_map(|leaf| {
            // Subleaves list one cache each until one of type 0 (none).
            (0..16)
                .map(move |index| __cpuid_count(leaf, index))
                .take_while(|regs| regs.eax & 0x1F != 0)
                .map(|regs| {
                    let ways = (regs.ebx >> 22) as usize + 1;
                    let partitions = ((regs.ebx >> 12) & 0x3FF) as usize + 1;
                    let line = (regs.ebx & 0xFFF) as usize + 1;
                    let sets = regs.ecx as usize + 1;
                    Cache {
                        level: (regs.eax >> 5) & 0x7,
                        bytes: ways * partitions * line * sets,
                        sharing: ((regs.eax >> 14) & 0xFFF) as usize + 1,
                    }
                })
        })
        .collect()
}

#[cfg(not(all(target_arch = "x86_64", not(miri))))]
fn caches() -> Vec<Cache> {
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::{streams, thresholds};

    /// Each threshold is a cache's share: whole 64-byte lines, at least 1 MiB, the same on
    /// every call; a lone writer's is never above several writers'.
    #[test]
    fn streams_past_a_cache() {
        let (lone, several) = (thresholds().lone, thresholds().several);
        for bytes in [several, lone] {
            assert!(bytes >= 1 << 20, "{bytes}");
            assert_eq!(bytes % 64, 0);
        }
        assert_eq!(several, thresholds().several);
        assert!(lone <= several);
    }

    /// The rule at its two thresholds.
    #[test]
    fn lone_and_several_writers() {
        let (lone, several) = (thresholds().lone, thresholds().several);
        assert!(streams(lone, 1) && !streams(lone - 64, 1));
        assert!(streams(several, 4) && !streams(several - 64, 4));
        assert_eq!(streams(lone, 16), lone == several);
    }
}
