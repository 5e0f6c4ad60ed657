//! x86 streaming stores (non-temporal: around the caches) and the fence that ends them, the
//! one home of both for the rows and the stage.
//!
//! Miri runs neither (the stores are inline assembly, the fence a foreign LLVM function):
//! under Miri each store is the plain aligned store it is but for the cache hint, so Miri
//! checks the same bytes at the same addresses, and the fence, which orders nothing then,
//! is left out.

use std::arch::x86_64::*;

/// Writes `register` to the 64 bytes at `to` around the caches.
///
/// # Safety
/// The CPU runs AVX-512 F; `to` is valid for 64 bytes of writes and aligned to 64.
#[inline(always)]
pub(crate) unsafe fn store_512(to: *mut __m512i, register: __m512i) {
    // SAFETY: the caller's contract.
    unsafe {
        #[cfg(not(miri))]
        _mm512_stream_si512(to, register);
        #[cfg(miri)]
        _mm512_store_si512(to.cast(), register);
    }
}

/// Writes `register` to the 32 bytes at `to` around the caches.
///
/// # Safety
/// The CPU runs AVX; `to` is valid for 32 bytes of writes and aligned to 32.
#[inline(always)]
pub(crate) unsafe fn store_256(to: *mut __m256i, register: __m256i) {
    // SAFETY: the caller's contract.
    unsafe {
        #[cfg(not(miri))]
        _mm256_stream_si256(to, register);
        #[cfg(miri)]
        _mm256_store_si256(to, register);
    }
}

/// Makes the streaming stores issued so far visible before any later store (they are
/// weakly ordered).
#[inline]
pub(crate) fn fence() {
    #[cfg(not(miri))]
    // SAFETY: SSE is part of x86-64.
    unsafe {
        _mm_sfence()
    };
}
