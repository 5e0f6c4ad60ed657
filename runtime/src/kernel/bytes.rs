//! Copies of byte buffers whose element size is known only at run time (the pixels of a
//! file format: RGB8, RGBA16, RGBA32F, …): each supported size is copied as `[u8; size]`
//! elements, which have no alignment, so any byte slice of whole elements works, and sizes
//! of 1, 2, 4 and 8 bytes still get the SIMD networks.

use super::{KernelError, Options, Plan, Side, copy_with};

/// Element sizes, in bytes, that [`copy_bytes`] copies.
pub const ELEMENT_SIZES: [usize; 8] = [1, 2, 3, 4, 6, 8, 12, 16];

/// [`copy_with`](super::copy_with) over byte buffers of elements of
/// `element_size` bytes (one of [`ELEMENT_SIZES`]); the extents and views count elements,
/// not bytes.
pub fn copy_bytes(
    options: Options,
    element_size: usize,
    plan: &Plan,
    from: Side,
    to: Side,
    src: &[u8],
    dst: &mut [u8],
) -> Result<(), KernelError> {
    for (side, len) in [("source", src.len()), ("destination", dst.len())] {
        if element_size != 0 && !len.is_multiple_of(element_size) {
            return Err(KernelError::Bytes {
                side,
                len,
                element_size,
            });
        }
    }
    macro_rules! sizes {
        ($($size:literal)*) => {
            match element_size {
                $($size => copy_with::<[u8; $size]>(
                    options,
                    plan,
                    from,
                    to,
                    bytemuck::cast_slice(src),
                    bytemuck::cast_slice_mut(dst),
                ),)*
                _ => Err(KernelError::ElementSize { element_size }),
            }
        };
    }
    sizes!(1 2 3 4 6 8 12 16).map_err(|error| error.in_bytes(element_size))
}
