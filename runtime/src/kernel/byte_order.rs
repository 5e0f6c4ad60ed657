//! Each element's bytes reversed: the 3DS keeps its texels' bytes in the opposite order to
//! the linear side (RGBA8 as ABGR), which no layout expresses (a layout moves whole
//! elements). For elements of 2, 4, 8 and 16 bytes it is a byte swap of words, which the
//! compiler turns into byte shuffles: one a register with SSSE3's `pshufb` and its wider
//! forms, where x86-64's baseline (SSE2) spends seven shuffles on every 16 bytes, all on the
//! one port that runs them on many CPUs. So the loop is compiled once more per SIMD level,
//! and the widest the CPU runs is taken.

#[cfg(target_arch = "x86_64")]
use super::simd::{Avx2, Avx512};

/// `to`: the elements of `from` (of `bytes` bytes each), each with its bytes reversed.
///
/// # Panics
/// Where `from` and `to` differ in length, or `bytes` is 0.
pub fn reverse_element_bytes(bytes: usize, from: &[u8], to: &mut [u8]) {
    assert_eq!(from.len(), to.len(), "a reversal's sides are as long");
    assert!(bytes > 0, "elements have bytes");
    #[cfg(target_arch = "x86_64")]
    if matches!(bytes, 2 | 4 | 8 | 16) {
        if let Some(cpu) = Avx512::detect() {
            return x86::reverse_avx512(cpu, bytes, from, to);
        }
        if let Some(cpu) = Avx2::detect() {
            return x86::reverse_avx2(cpu, bytes, from, to);
        }
    }
    reverse(bytes, from, to);
}

/// The reversal, inlined into each level's compilation of it: a byte swap of words where an
/// element is one, else element by element.
#[inline(always)]
fn reverse(bytes: usize, from: &[u8], to: &mut [u8]) {
    macro_rules! swap_words {
        ($word:ty) => {{
            const N: usize = size_of::<$word>();
            let (from, to) = (from.as_chunks::<N>().0, to.as_chunks_mut::<N>().0);
            for (to, from) in to.iter_mut().zip(from) {
                *to = <$word>::from_ne_bytes(*from).swap_bytes().to_ne_bytes();
            }
        }};
    }
    match bytes {
        2 => swap_words!(u16),
        4 => swap_words!(u32),
        8 => swap_words!(u64),
        16 => swap_words!(u128),
        _ => {
            let elements = from.chunks_exact(bytes).zip(to.chunks_exact_mut(bytes));
            for (from, to) in elements {
                to.iter_mut()
                    .zip(from.iter().rev())
                    .for_each(|(to, from)| *to = *from);
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{Avx2, Avx512, reverse};

    /// The reversal compiled for AVX-512 (64-byte shuffles).
    pub fn reverse_avx512(_: Avx512, bytes: usize, from: &[u8], to: &mut [u8]) {
        target_features! {
        Avx512,
        fn compiled(bytes: usize, from: &[u8], to: &mut [u8]) {
            reverse(bytes, from, to)
        }
        }
        // SAFETY: the token proves the CPU runs the features `compiled` is compiled for.
        unsafe { compiled(bytes, from, to) }
    }

    /// The reversal compiled for AVX2 (32-byte shuffles).
    pub fn reverse_avx2(_: Avx2, bytes: usize, from: &[u8], to: &mut [u8]) {
        target_features! {
        Avx2,
        fn compiled(bytes: usize, from: &[u8], to: &mut [u8]) {
            reverse(bytes, from, to)
        }
        }
        // SAFETY: the token proves the CPU runs the features `compiled` is compiled for.
        unsafe { compiled(bytes, from, to) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Each element's bytes, reversed one by one: the definition.
    fn expected(bytes: usize, from: &[u8]) -> Vec<u8> {
        from.chunks(bytes)
            .flat_map(|element| element.iter().rev().copied())
            .collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 8 } else { 256 }))]

        /// Every element size, at every level this CPU runs (the widest first), against
        /// the definition; lengths not a multiple of a vector's.
        #[test]
        fn reverses_each_element(bytes in 1usize..=16, elements in 0usize..200, seed: u8) {
            let from: Vec<u8> = (0..bytes * elements)
                .map(|i| (i as u8).wrapping_mul(31) ^ seed)
                .collect();
            let mut to = vec![0xA5; from.len()];
            reverse_element_bytes(bytes, &from, &mut to);
            prop_assert_eq!(&to, &expected(bytes, &from));
            #[cfg(target_arch = "x86_64")]
            {
                if let Some(cpu) = Avx2::detect() {
                    to.fill(0xA5);
                    x86::reverse_avx2(cpu, bytes, &from, &mut to);
                    prop_assert_eq!(&to, &expected(bytes, &from));
                }
            }
            to.fill(0xA5);
            reverse(bytes, &from, &mut to);
            prop_assert_eq!(&to, &expected(bytes, &from));
        }
    }
}
