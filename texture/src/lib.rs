//! Whole texture surfaces (mip chains, array layers, depth, compressed blocks) tiled as
//! consoles and GPUs store them, behind one API.
//!
//! A [`Surface`] is a platform's tiling ([`Platform`]), a size in pixels (width, height,
//! depth), a number of array layers and mip levels, and a [`Format`]: blocks of `block_width ×
//! block_height × block_depth` pixels of `bytes_per_block` bytes (plain pixels are 1×1×1
//! blocks; BC1–7 are 4×4; ASTC n×m). The linear side is what DDS files and graphics APIs
//! hold: every level tightly packed, layer by layer, mip by mip within a layer. The tiled side
//! is what the platform's texture files and GPU memory hold, in the platform's order (the
//! same, except on the Wii U: mip by mip, each mip's layers together).
//!
//! Each platform's addressing is a set of private `layout!` items in the platform's file:
//! GOBs stacked into blocks, Morton tiles and squares, the 64 KB standard swizzle, the
//! Xenos's and GX2's micro and macro tiles as `bits` matrices. Each file implements one
//! trait (a level's tiled size and its copy with the layouts' kernels, and the platform's
//! block-height, block-depth and alignment rules); [`Surface`] lays the levels out. The
//! Switch's and the Wii U's rules that users ask about are public: [`switch`], [`wiiu`].
//!
//! ```
//! use swizzle::texture::{Format, Platform, Surface};
//! // A 256² BC7 texture with its full mip chain, as the Switch stores it.
//! let surface = Surface::new(Platform::SWITCH, 256, 256, Format::Bc7Unorm).mips(9);
//! let linear = vec![7u8; surface.linear_size()?];
//! let tiled = surface.swizzle_to_vec(&linear)?;
//! assert_eq!(tiled.len(), surface.swizzled_size()?);
//! assert_eq!(surface.deswizzle_to_vec(&tiled)?, linear);
//! // Where mip 3 of layer 0 lies on each side.
//! let level = surface.level(0, 3)?;
//! assert_eq!((level.width, level.height, level.linear.len()), (32, 32, 1024));
//! # Ok::<(), swizzle::texture::TextureError>(())
//! ```
//!
//! Every platform is tested byte for byte against the crate its users reach for
//! (`tests/texture.rs`): `tegra_swizzle` (Switch), `swizzle_3ds` (3DS), `swizzleinator` (PS3,
//! PS4, Xbox 360), `wiiu_swizzle` (Wii U) and, for D3D12, a `pdep` formula over Microsoft's interleave masks.

// The generated code of this crate's `layout!` items names the library `::swizzle`, as
// users' does; here that is the runtime, whose `__private` the facade re-exports.
extern crate swizzle_runtime as swizzle;

use swizzle_core::picture;
use swizzle_macros::layout;
use swizzle_runtime::kernel;

/// A `layout!` item's kernel pair over elements of `$element`, as [`copy_tiles`] takes it:
/// `[tile, untile]`, each its plan and code.
macro_rules! kernels {
    ($element:ty, $swizzle:ident, $deswizzle:ident) => {
        [
            ($swizzle::plan(), $swizzle::code::<$element>()),
            ($deswizzle::plan(), $deswizzle::code::<$element>()),
        ]
    };
}

/// Copies with the kernel pair that `$on` picks: each arm `pattern => n: Swizzle,
/// Deswizzle` is that pair over texels of `[u8; n]`, bound to `$kernels` in `$copy` (the
/// copy, as an expression); `else` is the value when no arm matches. The form `[n m …] =>
/// Swizzle, Deswizzle` gives one pair to each texel size `n`, `m`, … (others are checked
/// out before copying).
macro_rules! with_kernels {
    ($on:expr, |$kernels:ident| $copy:expr, {
        $($pattern:pat $(if $guard:expr)? => $n:literal: $swizzle:ident, $deswizzle:ident),* $(,)?
    } $(else $otherwise:expr)?) => {
        match $on {
            $($pattern $(if $guard)? => {
                let $kernels = kernels!([u8; $n], $swizzle, $deswizzle);
                $copy
            })*
            $(_ => $otherwise,)?
        }
    };
    ($bytes:expr, |$kernels:ident| $copy:expr, [$($n:literal)*] => $swizzle:ident, $deswizzle:ident) => {
        with_kernels!($bytes, |$kernels| $copy, { $($n => $n: $swizzle, $deswizzle),* }
            else unreachable!("texel sizes are checked before copying"))
    };
}

/// A platform whose rules read the surface once and then the texel size alone: the struct
/// `$name` implementing [`platform::Tiling`] with its module's `check(surface)`,
/// `level_size(blocks, bytes)` and `copy_level(options, direction, blocks, bytes, src,
/// dst)`.
macro_rules! texel_tiling {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        pub(crate) struct $name {
            bytes: usize,
        }

        impl $name {
            pub(crate) fn new(surface: &$crate::Surface) -> Result<$name, $crate::TextureError> {
                check(surface)?;
                Ok($name {
                    bytes: surface.format.bytes_per_block(),
                })
            }
        }

        impl $crate::platform::Tiling for $name {
            fn level_size(
                &self,
                _mip: usize,
                blocks: [usize; 3],
            ) -> Result<usize, $crate::TextureError> {
                level_size(blocks, self.bytes)
            }

            fn copy_level(
                &self,
                options: $crate::kernel::Options,
                direction: $crate::platform::Direction,
                level: &$crate::Level,
                src: &[u8],
                dst: &mut [u8],
            ) -> Result<(), $crate::TextureError> {
                copy_level(options, direction, level.blocks, self.bytes, src, dst)
            }
        }
    };
}

mod d3d12;
mod error;
mod format;
mod n3ds;
mod pictures;
mod platform;
mod ps3;
mod ps4;
mod surface;
pub mod switch;
mod tegra;
pub mod wiiu;
mod xbox360;

pub use error::TextureError;
pub use format::{Block, Format};
pub use platform::Platform;
pub use surface::{Level, Levels, Surface};

use crate::kernel::{
    Element, Frame, GeneratedCode, KernelError, Options, Plan, PreparedCopy, Side, Stores,
};
use error::unsupported;
use platform::Direction;

/// Copies a level of `depth` slices that lie one after the other on both sides, slice by
/// slice with `copy` (each slice's bytes on either side).
fn copy_slices(
    depth: usize,
    src: &[u8],
    dst: &mut [u8],
    mut copy: impl FnMut(&[u8], &mut [u8]) -> Result<(), TextureError>,
) -> Result<(), TextureError> {
    let (src_slice, dst_slice) = (src.len() / depth, dst.len() / depth);
    src.chunks_exact(src_slice)
        .zip(dst.chunks_exact_mut(dst_slice))
        .try_for_each(|(src, dst)| copy(src, dst))
}

/// Copies one level between its linear bytes and a tiled frame, with the kernel pair of a
/// layout over elements of `E` (`kernels[0]` tiles, `kernels[1]` untiles).
fn copy_tiles<E: Element>(
    options: Options,
    kernels: [(&Plan, GeneratedCode<E>); 2],
    direction: Direction,
    extents: &[usize],
    tiled: Frame,
    src: &[u8],
    dst: &mut [u8],
) -> Result<(), TextureError> {
    let frames = [Frame::RowMajor, tiled];
    copy_tiles_framed(options, kernels, direction, extents, frames, src, dst)
}

/// [`copy_tiles`] between any two frames: `[linear, tiled]` (a part of a level: a view of
/// its linear bytes, and the tiles of that part).
fn copy_tiles_framed<E: Element>(
    options: Options,
    kernels: [(&Plan, GeneratedCode<E>); 2],
    direction: Direction,
    extents: &[usize],
    frames: [Frame; 2],
    src: &[u8],
    dst: &mut [u8],
) -> Result<(), TextureError> {
    let len = dst.len() / size_of::<E>();
    prepare_tiles(options, kernels, direction, extents, frames, len)?.run(src, dst)
}

/// [`copy_tiles_framed`] made ready once (the kernel's plan checked, its grid and network
/// laid out), to run on many parts of a level of the same shape; its destinations hold
/// `destination_len` texels together.
fn prepare_tiles<'p, E: Element>(
    options: Options,
    kernels: [(&'p Plan, GeneratedCode<E>); 2],
    direction: Direction,
    extents: &[usize],
    [linear, tiled]: [Frame; 2],
    destination_len: usize,
) -> Result<PreparedTiles<'p, E>, TextureError> {
    let linear = Side {
        extents,
        frame: linear,
    };
    let tiled = Side {
        extents,
        frame: tiled,
    };
    let ((plan, code), from, to) = match direction {
        Direction::Swizzle => (kernels[0], linear, tiled),
        Direction::Deswizzle => (kernels[1], tiled, linear),
    };
    PreparedCopy::new(options, plan, code, from, to, destination_len)
        .map(PreparedTiles)
        .map_err(kernel_error::<E>)
}

/// Destination bytes a part of a level spread over threads holds at most, where its layout
/// allows, as the kernels' bands of stacks: the threads share out small parts more evenly,
/// and levels cut so ran faster than in parts of 1 or 2 MiB (BENCHMARKS.md#texture-surfaces).
const PART_BYTES: usize = 256 << 10;

/// The most destination bytes a part of a level of `bytes` holds where `options` spread it
/// over threads ([`PART_BYTES`]); `None` where one thread copies it all, in whatever parts
/// its layout copies best.
fn part_bytes(options: Options, bytes: usize) -> Option<usize> {
    (options.threads_for(bytes, usize::MAX) > 1).then_some(PART_BYTES)
}

/// The largest divisor of `n` that `fits`, or 1: how many of a level's rows or units a part
/// holds where its bytes are bounded ([`part_bytes`]).
fn largest_divisor(n: usize, fits: impl Fn(usize) -> bool) -> usize {
    (1..=n)
        .rev()
        .find(|&d| n.is_multiple_of(d) && fits(d))
        .unwrap_or(1)
}

/// A copy between a part of a level's linear bytes and its tiles, ready to run on bytes.
struct PreparedTiles<'p, E>(PreparedCopy<'p, E>);

impl<E: Element> PreparedTiles<'_, E> {
    fn run(&self, src: &[u8], dst: &mut [u8]) -> Result<(), TextureError> {
        let (src, dst) = (bytemuck::cast_slice(src), bytemuck::cast_slice_mut(dst));
        self.0.run(src, dst).map_err(kernel_error::<E>)
    }
}

/// [`PreparedTiles`] of any texel type: for a copy made ready where the texel type is
/// picked (a Wii U level's mode and texel size) and run on many parts of a level.
trait RunTiles: Sync {
    fn run(&self, src: &[u8], dst: &mut [u8]) -> Result<(), TextureError>;
}

impl<E: Element> RunTiles for PreparedTiles<'_, E> {
    fn run(&self, src: &[u8], dst: &mut [u8]) -> Result<(), TextureError> {
        PreparedTiles::run(self, src, dst)
    }
}

/// The options of each part's copy where [`for_each_part`] copies a level of `bytes` in
/// `parts` parts, each on one thread: whether stores stream is the level's choice, for all
/// the threads that write its parts together (one part's thread alone would count the
/// level as its own, and stream what the threads' caches together keep).
fn part_options(options: Options, bytes: usize, parts: usize) -> Options {
    let stores = match kernel::stores_stream(options, bytes, parts) {
        true => Stores::Streaming,
        false => Stores::Cached,
    };
    options.threads(1).stores(stores)
}

/// Runs `copy(index, part)` on the first `count` parts of `len` bytes of `dst` (the last
/// may be shorter where `dst` ends), spread over threads as the kernels spread their bands
/// (by `options`' threads and the destination's size): for levels that one kernel call
/// does not cover, each part a copy on one thread. The first error is returned.
fn for_each_part(
    options: Options,
    dst: &mut [u8],
    len: usize,
    count: usize,
    copy: impl Fn(usize, &mut [u8]) -> Result<(), TextureError> + Sync,
) -> Result<(), TextureError> {
    let failed = std::sync::OnceLock::new();
    kernel::for_each_band(dst, len, count, options.threads, |index, part| {
        if let Err(error) = copy(index, part) {
            // Any part's error is the copy's; the first one set is kept.
            let _ = failed.set(error);
        }
    });
    failed.into_inner().map_or(Ok(()), Err)
}

thread_local! {
    /// The scratch buffer of [`with_scratch`], one per thread.
    static SCRATCH: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// `work` on a scratch buffer of `len` bytes (of any values), this thread's own, kept for
/// its next part: for copies that go through the cache in parts (a 3DS part's reversed
/// texels, a Wii U band's tiled bytes in order).
fn with_scratch<R>(len: usize, work: impl FnOnce(&mut [u8]) -> R) -> R {
    SCRATCH.with_borrow_mut(|scratch| {
        scratch.resize(len.max(scratch.len()), 0);
        work(&mut scratch[..len])
    })
}

/// A kernel's error over texels of `E`, in bytes.
fn kernel_error<E>(error: KernelError) -> TextureError {
    TextureError::Kernel(error.in_bytes(size_of::<E>()))
}

/// Bit `b` of `i` at bit `2b + place`: one coordinate's part of a Morton index, whose other
/// coordinate takes the other bits (`place` 0: this coordinate's bit first). The PS3's
/// squares (x first) and D3D12's sub-tiles in a 64 KB tile (y first) are such orders.
fn spread(i: usize, place: usize) -> usize {
    (0..usize::BITS as usize / 2)
        .filter(|b| i >> b & 1 == 1)
        .map(|b| 1 << (2 * b + place))
        .sum()
}

/// The coordinate whose bits lie at `2b + place` of Morton index `m`: [`spread`]'s inverse.
fn unspread(m: usize, place: usize) -> usize {
    (0..usize::BITS as usize / 2)
        .filter(|b| m >> (2 * b + place) & 1 == 1)
        .map(|b| 1 << b)
        .sum()
}

/// The product of `factors` (a level's size: its bytes per block times its padded
/// extents), or [`TextureError::Overflow`].
fn checked_product(factors: impl IntoIterator<Item = usize>) -> Result<usize, TextureError> {
    factors
        .into_iter()
        .try_fold(1usize, |acc, n| acc.checked_mul(n))
        .ok_or(TextureError::Overflow)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A part's copy runs on one thread and streams as the level's writers together choose,
    /// whatever one thread writing the whole level would choose; an explicit choice stays.
    #[test]
    fn parts_stream_as_the_whole_level_chooses() {
        let options = Options::default().threads(16);
        let one = std::num::NonZeroUsize::new(1);
        for bytes in [1 << 16, 1 << 20, 16 << 20, 64 << 20, 1 << 30] {
            let part = part_options(options, bytes, 32);
            assert_eq!(part.threads, one);
            let level = kernel::stores_stream(options, bytes, 32);
            assert_eq!(part.stores == Stores::Streaming, level, "{bytes} bytes");
        }
        for stores in [Stores::Cached, Stores::Streaming] {
            let part = part_options(options.stores(stores), 1 << 30, 32);
            assert_eq!(part.stores, stores);
        }
    }
}
