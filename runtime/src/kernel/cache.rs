//! How much of a destination each thread of a copy must write for its stores to bypass the
//! caches: more than a thread's share of the last-level cache, which would not hold its
//! part beside what the other cores keep there (glibc's `memcpy` streams from three
//! quarters of that share).
//! Below that, plain stores leave it in the cache for whatever reads it next (a copy
//! repeated on the same buffers, the next pass of an algorithm), as `memcpy` does.

use std::sync::OnceLock;

/// Used where the CPU does not say (other architectures, Miri, CPUID without cache
/// parameters): a common last-level cache of the 2010s.
const FALLBACK_BYTES: usize = 8 << 20;

/// The least threshold: a cache's share below this says more about the CPUID a virtual
/// machine shows than about the cache.
const LEAST_BYTES: usize = 1 << 20;

/// A copy writes with streaming stores where each of its threads writes at least this
/// many bytes: three quarters of a thread's share of the last-level cache, in whole lines.
pub fn stream_bytes() -> usize {
    static BYTES: OnceLock<usize> = OnceLock::new();
    *BYTES.get_or_init(|| {
        let share = last_level_cache().map_or(FALLBACK_BYTES, |(bytes, sharing)| bytes / sharing);
        (share / 4 * 3).max(LEAST_BYTES) / 64 * 64
    })
}

/// The largest cache CPUID describes (its deterministic cache parameters: leaf 4 on Intel,
/// 0x8000_001D on AMD, which share their format): its bytes and how many logical
/// processors share it.
#[cfg(all(target_arch = "x86_64", not(miri)))]
fn last_level_cache() -> Option<(usize, usize)> {
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
                    let sharing = ((regs.eax >> 14) & 0xFFF) as usize + 1;
                    (ways * partitions * line * sets, sharing)
                })
        })
        .max()
}

#[cfg(not(all(target_arch = "x86_64", not(miri))))]
fn last_level_cache() -> Option<(usize, usize)> {
    None
}

#[cfg(test)]
mod tests {
    /// The threshold is a cache's share: whole 64-byte lines, at least 1 MiB, the same on
    /// every call.
    #[test]
    fn streams_past_a_cache() {
        let bytes = super::stream_bytes();
        assert!(bytes >= 1 << 20, "{bytes}");
        assert_eq!(bytes % 64, 0);
        assert_eq!(bytes, super::stream_bytes());
    }
}
