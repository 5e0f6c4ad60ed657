//! The networks on x86-64: per destination register, one permute of a whole source register
//! per step, blended into the register, then one full store.

use super::Level;
use super::network::{Control, Prepared};
use super::simd::{TileRow, stream};
use std::arch::x86_64::*;

/// Runs `network` on a row of full tiles.
///
/// # Safety
/// The CPU runs `network.level`, and for every tile of `row` every load (`step.load +
/// register` bytes from the tile's start) lies inside `src` and every store inside `dst`.
pub unsafe fn copy_row(network: &Prepared, src: &[u8], dst: &mut [u8], row: TileRow) {
    let (src, dst) = (src.as_ptr(), dst.as_mut_ptr());
    // Streaming stores need every store aligned to the register: the first tile's start,
    // since the stores' offsets and the tiles' distances are multiples of the register
    // (`Prepared::stream`).
    let stream = network.stream && (dst as usize + row.to).is_multiple_of(network.register);
    // SAFETY: forwarded from the caller.
    unsafe {
        match (network.level, stream) {
            (Level::Avx512, false) => avx512::<false>(network, src, dst, row),
            (Level::Avx512, true) => avx512::<true>(network, src, dst, row),
            (Level::Avx2, false) if network.words => avx2::<true, false>(network, src, dst, row),
            (Level::Avx2, true) if network.words => avx2::<true, true>(network, src, dst, row),
            (Level::Avx2, false) => avx2::<false, false>(network, src, dst, row),
            (Level::Avx2, true) => avx2::<false, true>(network, src, dst, row),
            (Level::Scalar | Level::Neon, _) => {}
        }
    }
}

target_features! {
Avx512,
/// AVX-512: a masked byte permute (VBMI) per step.
unsafe fn avx512<const STREAM: bool>(
    network: &Prepared,
    src: *const u8,
    dst: *mut u8,
    row: TileRow,
) {
    for (src, dst) in row.tiles(src, dst) {
        // SAFETY: forwarded: the caller keeps every tile of the row inside the buffers.
        unsafe { avx512_tile::<STREAM>(network, src, dst) };
    }
}

}

target_features! {
Avx512,
/// One tile of [`avx512`].
#[inline]
unsafe fn avx512_tile<const STREAM: bool>(network: &Prepared, src: *const u8, dst: *mut u8) {
    for (store, steps) in &network.stores {
        let mut register = _mm512_setzero_si512();
        for (index, step) in network.steps[steps.clone()].iter().enumerate() {
            // SAFETY: the caller keeps every load inside `src`; `Control` is 64-byte
            // aligned and `control` its first field.
            let (source, control) = unsafe {
                (
                    _mm512_loadu_si512(src.add(step.load).cast()),
                    _mm512_load_si512(step.control.as_ptr().cast()),
                )
            };
            register = match index {
                // The first step of a store writes all of it; later steps write their lanes.
                0 => _mm512_permutexvar_epi8(control, source),
                _ => _mm512_mask_permutexvar_epi8(register, step.keep, control, source),
            };
        }
        // SAFETY: the caller keeps every store inside `dst`, aligned to 64 bytes when
        // streaming.
        unsafe {
            match STREAM {
                true => stream::store_512(dst.add(*store).cast(), register),
                false => _mm512_storeu_si512(dst.add(*store).cast(), register),
            }
        }
    }
}

}

/// AVX2: `vpermd` for 4- and 8-byte elements (`WORDS`), otherwise two in-lane byte
/// shuffles of the register and of its halves swapped, picked per byte; then a blend.
#[target_feature(enable = "avx2")]
unsafe fn avx2<const WORDS: bool, const STREAM: bool>(
    network: &Prepared,
    src: *const u8,
    dst: *mut u8,
    row: TileRow,
) {
    for (src, dst) in row.tiles(src, dst) {
        // SAFETY: forwarded: the caller keeps every tile of the row inside the buffers.
        unsafe { avx2_tile::<WORDS, STREAM>(network, src, dst) };
    }
}

/// One tile of [`avx2`].
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn avx2_tile<const WORDS: bool, const STREAM: bool>(
    network: &Prepared,
    src: *const u8,
    dst: *mut u8,
) {
    for (store, steps) in &network.stores {
        let mut register = _mm256_setzero_si256();
        for (index, step) in network.steps[steps.clone()].iter().enumerate() {
            // SAFETY: the caller keeps every load inside `src`.
            let source = unsafe { _mm256_loadu_si256(src.add(step.load).cast()) };
            let permuted = permute::<WORDS>(source, step);
            register = match index {
                // The first step of a store writes all of it; later steps blend in.
                0 => permuted,
                // SAFETY: `blend` is 32 bytes.
                _ => _mm256_blendv_epi8(register, permuted, unsafe {
                    _mm256_loadu_si256(step.blend.as_ptr().cast())
                }),
            };
        }
        // SAFETY: the caller keeps every store inside `dst`, aligned to 32 bytes when
        // streaming.
        unsafe {
            match STREAM {
                true => stream::store_256(dst.add(*store).cast(), register),
                false => _mm256_storeu_si256(dst.add(*store).cast(), register),
            }
        }
    }
}

/// The source register permuted by one step's control.
#[target_feature(enable = "avx2")]
fn permute<const WORDS: bool>(source: __m256i, step: &Control) -> __m256i {
    // SAFETY: `control` holds 64 bytes.
    let control = unsafe { _mm256_loadu_si256(step.control.as_ptr().cast()) };
    if WORDS {
        return _mm256_permutevar8x32_epi32(source, control);
    }
    // SAFETY: `cross` holds 32 bytes.
    let cross = unsafe { _mm256_loadu_si256(step.cross.as_ptr().cast()) };
    let swapped = _mm256_permute2x128_si256::<0x01>(source, source);
    let within = _mm256_shuffle_epi8(source, control);
    let across = _mm256_shuffle_epi8(swapped, control);
    _mm256_blendv_epi8(within, across, cross)
}
