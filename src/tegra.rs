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

use crate::kernel::{
    Code, Element, Frame, KernelError, Options, Plan, Side, copy_with_code, stacked_space,
};

crate::layout! {
    /// GOBs of bytes: tiles of 8 rows × 64 bytes, row-major over the grid of GOBs.
    pub layout GobBytes {
        memory [gy: dyn, gx: dyn, xh: 2, yq: 4, xq: 2, y1: 2, x16: 16];
        merge [gy, yq, y1] -> y;
        merge [gx, xh, xq, x16] -> x;
        coords [y, x];
    }
    /// Row-major bytes into block-linear GOBs.
    pub kernel SwizzleBytes = pack(GobBytes);
    /// Block-linear GOBs into row-major bytes.
    pub kernel DeswizzleBytes = unpack(GobBytes);

    /// GOBs of 4-byte words (one RGBA8 pixel, or a quarter of a 16-byte pixel): tiles of
    /// 8 rows × 16 words.
    pub layout Gob32 {
        memory [gy: dyn, gx: dyn, xh: 2, yq: 4, xq: 2, y1: 2, x4: 4];
        merge [gy, yq, y1] -> y;
        merge [gx, xh, xq, x4] -> x;
        coords [y, x];
    }
    /// Row-major words into block-linear GOBs.
    pub kernel Swizzle32 = pack(Gob32);
    /// Block-linear GOBs into row-major words.
    pub kernel Deswizzle32 = unpack(Gob32);
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
    let texture = [width, height, bytes_per_pixel];
    copy(texture, block_height, Direction::Swizzle, src, dst)
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
    let texture = [width, height, bytes_per_pixel];
    copy(texture, block_height, Direction::Deswizzle, src, dst)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Direction {
    Swizzle,
    Deswizzle,
}

/// The copy of `[width, height, bytes_per_pixel]`: the kernel of the element size, its
/// GOBs stacked `block_height` high.
fn copy(
    [width, height, bytes_per_pixel]: [usize; 3],
    block_height: usize,
    direction: Direction,
    src: &[u8],
    dst: &mut [u8],
) -> Result<(), KernelError> {
    if bytes_per_pixel == 0 {
        return Err(KernelError::ZeroSizedElement);
    }
    let overflow = || KernelError::Overflow {
        extents: vec![height, width, bytes_per_pixel],
    };
    let row = width.checked_mul(bytes_per_pixel).ok_or_else(overflow)?;
    let tiles = [height.div_ceil(8), row.div_ceil(64)];
    // Whole words move as words, other pixels as bytes, both through the kernels'
    // generated SIMD rows (the default where the CPU has their level: 1.5–3.3× the
    // interpreted networks on words, BENCHMARKS.md, "Tegra X1 block-linear").
    let options = Options::default();
    match bytes_per_pixel % 4 {
        0 => {
            let kernels: [(&Plan, Code<[u8; 4]>); 2] = [
                (Swizzle32::plan(), Swizzle32::code()),
                (Deswizzle32::plan(), Deswizzle32::code()),
            ];
            let gobs = Gobs {
                extents: [height, row / 4],
                tiles,
                tile_space: Gob32::TILE_SPACE,
                block_height,
            };
            gobs.copy(options, kernels, direction, src, dst)
        }
        _ => {
            let kernels: [(&Plan, Code<u8>); 2] = [
                (SwizzleBytes::plan(), SwizzleBytes::code()),
                (DeswizzleBytes::plan(), DeswizzleBytes::code()),
            ];
            let gobs = Gobs {
                extents: [height, row],
                tiles,
                tile_space: GobBytes::TILE_SPACE,
                block_height,
            };
            gobs.copy(options, kernels, direction, src, dst)
        }
    }
}

/// A texture's GOBs as the kernels see them: extents in elements (words or bytes), the
/// grid of GOBs, and how high they stack.
struct Gobs {
    extents: [usize; 2],
    tiles: [usize; 2],
    tile_space: usize,
    block_height: usize,
}

impl Gobs {
    /// The copy with the swizzle (`kernels[0]`) or deswizzle (`kernels[1]`) kernel, over
    /// byte buffers seen as elements of `E`; lengths are checked, and reported, in bytes.
    fn copy<E: Element>(
        &self,
        options: Options,
        kernels: [(&Plan, Code<E>); 2],
        direction: Direction,
        src: &[u8],
        dst: &mut [u8],
    ) -> Result<(), KernelError> {
        let size = size_of::<E>();
        let whole = |side, len: usize| match len.is_multiple_of(size) {
            true => Ok(()),
            false => Err(KernelError::Bytes {
                side,
                len,
                element_size: size,
            }),
        };
        whole("source", src.len())?;
        whole("destination", dst.len())?;
        let linear = Side {
            extents: &self.extents,
            frame: Frame::RowMajor,
        };
        let gobs = Side {
            extents: &self.extents,
            frame: Frame::Stacked {
                tiles: &self.tiles,
                tile_space: self.tile_space,
                stack: self.block_height,
            },
        };
        let ((plan, code), from, to) = match direction {
            Direction::Swizzle => (kernels[0], linear, gobs),
            Direction::Deswizzle => (kernels[1], gobs, linear),
        };
        let (src, dst) = (bytemuck::cast_slice(src), bytemuck::cast_slice_mut(dst));
        copy_with_code(options, plan, code, from, to, src, dst)
            .map_err(|error| error.in_bytes(size))
    }
}
