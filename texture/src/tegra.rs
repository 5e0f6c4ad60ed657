//! Tegra X1 block-linear textures, as `layout!` items: one GOB ("group of bytes", 64 bytes ×
//! 8 rows) is a tile of a `dyn` layout, and a texture stacks GOBs `block_height` high into
//! blocks ([`crate::kernel::Frame::Stacked`]), so one declaration serves
//! every block height, chosen at run time. The bytes are those of the `tegra_swizzle`
//! crate (tested equal at many sizes and every block height).
//!
//! Inside a GOB, byte `(y, x)` lies at `(x / 32) · 256 + (y % 8 / 2) · 64 + (x % 32 / 16) ·
//! 32 + (y % 2) · 16 + x % 16` (the Tegra X1 TRM's formula): the layouts below say the same
//! as a `memory` statement of those five digits. Pixels of a multiple of 4 bytes move as
//! 4-byte words ([`Gob32`]), with 16-byte runs and the SIMD networks; other sizes as bytes
//! ([`GobBytes`]).

use crate::kernel::{KernelError, Options, stacked_space};

crate::layout! {
    /// GOBs of bytes: tiles of 8 rows × 64 bytes, row-major over the grid of GOBs.
    pub(crate) layout GobBytes {
        memory [gy: dyn, gx: dyn, xh: 2, yq: 4, xq: 2, y1: 2, x16: 16];
        merge [gy, yq, y1] -> y;
        merge [gx, xh, xq, x16] -> x;
        coords [y, x];
    }
    /// Row-major bytes into block-linear GOBs.
    pub(crate) kernel SwizzleBytes = pack(GobBytes);
    /// Block-linear GOBs into row-major bytes.
    pub(crate) kernel DeswizzleBytes = unpack(GobBytes);

    /// GOBs of 4-byte words (one RGBA8 pixel, or a quarter of a 16-byte pixel): tiles of
    /// 8 rows × 16 words.
    pub(crate) layout Gob32 {
        memory [gy: dyn, gx: dyn, xh: 2, yq: 4, xq: 2, y1: 2, x4: 4];
        merge [gy, yq, y1] -> y;
        merge [gx, xh, xq, x4] -> x;
        coords [y, x];
    }
    /// Row-major words into block-linear GOBs.
    pub(crate) kernel Swizzle32 = pack(Gob32);
    /// Block-linear GOBs into row-major words.
    pub(crate) kernel Deswizzle32 = unpack(Gob32);
}

/// Bytes of a GOB.
const GOB_BYTES: usize = 512;

/// Bytes of a block-linear texture of `width × height` pixels of `bytes_per_pixel` bytes,
/// with blocks `block_height` GOBs high: whole GOBs across each row and whole blocks down;
/// `None` for pixels of 0 bytes, a block height of 0 or past `usize::MAX`.
pub fn swizzled_size(
    width: usize,
    height: usize,
    bytes_per_pixel: usize,
    block_height: usize,
) -> Option<usize> {
    if bytes_per_pixel == 0 {
        return None;
    }
    let gobs = [
        height.div_ceil(8),
        width.checked_mul(bytes_per_pixel)?.div_ceil(64),
    ];
    stacked_space(&gobs, GOB_BYTES, block_height)
}

/// Tiles the row-major `width × height` texture `src` (pixels of `bytes_per_pixel` bytes)
/// into `dst`, block-linear with blocks `block_height` GOBs high (Tegra's are 1, 2, 4, 8,
/// 16 or 32). `dst` holds [`swizzled_size`] bytes; the parts of edge GOBs outside the
/// texture are left as they were.
pub fn swizzle(
    width: usize,
    height: usize,
    bytes_per_pixel: usize,
    block_height: usize,
    src: &[u8],
    dst: &mut [u8],
) -> Result<(), KernelError> {
    swizzle_with(
        Options::default(),
        width,
        height,
        bytes_per_pixel,
        block_height,
        src,
        dst,
    )
}

/// [`swizzle()`] as `options` say: the SIMD level and the threads.
pub fn swizzle_with(
    options: Options,
    width: usize,
    height: usize,
    bytes_per_pixel: usize,
    block_height: usize,
    src: &[u8],
    dst: &mut [u8],
) -> Result<(), KernelError> {
    let texture = Texture::new(width, height, bytes_per_pixel, block_height)?;
    texture.copy(options, Direction::Swizzle, src, dst)
}

/// The inverse of [`swizzle()`]: the block-linear `src` into the row-major `dst` of `width ×
/// height` pixels.
pub fn deswizzle(
    width: usize,
    height: usize,
    bytes_per_pixel: usize,
    block_height: usize,
    src: &[u8],
    dst: &mut [u8],
) -> Result<(), KernelError> {
    deswizzle_with(
        Options::default(),
        width,
        height,
        bytes_per_pixel,
        block_height,
        src,
        dst,
    )
}

/// [`deswizzle()`] as `options` say: the SIMD level and the threads.
pub fn deswizzle_with(
    options: Options,
    width: usize,
    height: usize,
    bytes_per_pixel: usize,
    block_height: usize,
    src: &[u8],
    dst: &mut [u8],
) -> Result<(), KernelError> {
    let texture = Texture::new(width, height, bytes_per_pixel, block_height)?;
    texture.copy(options, Direction::Deswizzle, src, dst)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Direction {
    Swizzle,
    Deswizzle,
}

/// A texture as the kernels see it: its rows in bytes and its GOBs' block height.
struct Texture {
    height: usize,
    row: usize,
    bytes_per_pixel: usize,
    block_height: usize,
}

impl Texture {
    fn new(
        width: usize,
        height: usize,
        bytes_per_pixel: usize,
        block_height: usize,
    ) -> Result<Self, KernelError> {
        if bytes_per_pixel == 0 {
            return Err(KernelError::ZeroSizedElement);
        }
        let row = width
            .checked_mul(bytes_per_pixel)
            .ok_or_else(|| KernelError::Overflow {
                extents: vec![height, width, bytes_per_pixel],
            })?;
        Ok(Texture {
            height,
            row,
            bytes_per_pixel,
            block_height,
        })
    }

    /// The copy with the kernel of the pixel size: whole words move as 4-byte words, other
    /// pixels as bytes, both through the kernels' generated SIMD rows (the default where
    /// the CPU has their level: 1.5–3.3× the interpreted networks on words, BENCHMARKS.md,
    /// "Tegra X1 block-linear"), their GOBs stacked `block_height` high.
    fn copy(
        &self,
        options: Options,
        direction: Direction,
        src: &[u8],
        dst: &mut [u8],
    ) -> Result<(), KernelError> {
        let Texture {
            height,
            row,
            bytes_per_pixel,
            block_height: stack,
        } = *self;
        let extent_error = |_| KernelError::Overflow {
            extents: vec![height, row],
        };
        if bytes_per_pixel % 4 != 0 {
            let gobs = GobBytes::new(height, row).map_err(extent_error)?;
            return match direction {
                Direction::Swizzle => {
                    SwizzleBytes::run_stacked_with(&gobs, stack, options, src, dst)
                }
                Direction::Deswizzle => {
                    DeswizzleBytes::run_stacked_with(&gobs, stack, options, src, dst)
                }
            };
        }
        // Words: the byte buffers as 4-byte elements, with the rows generated for them.
        let gobs = Gob32::new(height, row / 4).map_err(extent_error)?;
        match direction {
            Direction::Swizzle => {
                Swizzle32::run_stacked_bytes_with(&gobs, stack, options, 4, src, dst)
            }
            Direction::Deswizzle => {
                Deswizzle32::run_stacked_bytes_with(&gobs, stack, options, 4, src, dst)
            }
        }
    }
}
