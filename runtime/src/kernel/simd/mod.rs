//! What a kernel's SIMD rows run on. `layout!` emits each `kernel` item's full tiles as
//! tables ([`FullTiles`]); this module unrolls them into straight-line code for a row of
//! full tiles per SIMD level and element size (permutes, blends, loads and stores at
//! constant offsets: one generic loop, each level's step its own), gives that code its
//! operations and the runtime a way to call it.
//!
//! Each level has a token ([`Avx512`], [`Avx2`], [`Neon`]) that only run-time detection
//! makes, so holding one proves the CPU runs the level; its operations are safe functions
//! on byte slices (every load and store is a bounds-checked slice, which the compiler folds
//! away at the constant offsets of the unrolled rows). The rows contain no `unsafe` of
//! their own: past the operations' intrinsics, the one `unsafe` step, entering code
//! compiled for the level, is each level's `vectorize`, here.

/// [`Registers::vectorize`](table::Registers::vectorize) for a level token: runs `op`
/// compiled with the level's target features. The one `unsafe` step between the rows and
/// the level.
macro_rules! vectorize {
    ($token:ident) => {
        #[inline(always)]
        fn vectorize<R>(
            self,
            src: &[u8],
            dst: &mut [u8],
            op: impl FnOnce(&[u8], &mut [u8]) -> R,
        ) -> R {
            target_features!(
                $token,
                fn with_features<R>(
                    src: &[u8],
                    dst: &mut [u8],
                    op: impl FnOnce(&[u8], &mut [u8]) -> R,
                ) -> R {
                    op(src, dst)
                }
            );
            // SAFETY: `self` exists only where detection found the level's features (its
            // `detect`, the only constructor).
            unsafe { with_features(src, dst, op) }
        }
    };
}

#[cfg(target_arch = "aarch64")]
mod neon;
#[cfg(target_arch = "x86_64")]
pub(crate) mod stream;
mod table;
#[cfg(target_arch = "x86_64")]
mod x86;

pub use table::{FullTiles, MAX_UNROLLED, Network, Run, every, full_tile};

use super::Level;

/// Full tiles of one row at equal distances, in bytes: the `i`-th starts at
/// `from + i · from_step` in the source and `to + i · to_step` in the destination. Where a
/// side is a row-major image (or a view), its rows lie `pitches[0]` (source) or
/// `pitches[1]` (destination) bytes apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TileRow {
    pub from: usize,
    pub from_step: usize,
    pub to: usize,
    pub to_step: usize,
    pub count: usize,
    pub pitches: [usize; 2],
    /// Whether stores may bypass the caches (x86 streaming stores, where aligned): the
    /// destination is larger than the caches and the tiles write whole cache lines.
    pub stream: bool,
}

impl TileRow {
    /// Where each tile starts: its byte offset in the source and in the destination.
    #[inline(always)]
    pub fn starts(&self) -> impl Iterator<Item = (usize, usize)> + use<> {
        let row = *self;
        (0..row.count).map(move |i| row.start(i))
    }

    /// Where tile `index` starts: its byte offset in the source and in the destination.
    #[inline(always)]
    pub fn start(&self, index: usize) -> (usize, usize) {
        (
            self.from + index * self.from_step,
            self.to + index * self.to_step,
        )
    }

    /// Where each tile starts in the buffers at `src` and `dst`.
    #[inline(always)]
    pub fn tiles(
        &self,
        src: *const u8,
        dst: *mut u8,
    ) -> impl Iterator<Item = (*const u8, *mut u8)> + use<> {
        self.starts()
            .map(move |(from, to)| (src.wrapping_add(from), dst.wrapping_add(to)))
    }

    /// After the row is copied: makes its streaming stores, if any, visible before the row
    /// counts as written (they are weakly ordered).
    #[inline]
    pub fn finish_streams(&self) {
        #[cfg(target_arch = "x86_64")]
        if self.stream {
            stream::fence();
        }
    }
}

/// The rows of full tiles of a level: the level's token, the source and destination
/// bytes, and the row.
pub type RowFn<Cpu> = fn(Cpu, &[u8], &mut [u8], TileRow);

/// A kernel's rows of full tiles for one element size, one function per level (none where
/// its tables have no network of the level's lanes, or the target is another architecture).
#[derive(Clone, Copy, Debug)]
pub struct Rows {
    pub avx512: Option<RowFn<Avx512>>,
    pub avx2: Option<RowFn<Avx2>>,
    pub neon: Option<RowFn<Neon>>,
}

impl Rows {
    /// No generated rows: the runtime's interpreted networks copy full tiles.
    pub const NONE: Rows = Rows {
        avx512: None,
        avx2: None,
        neon: None,
    };

    /// The element sizes the generic rows unroll networks for
    /// ([`swizzle_core::simd::ELEMENT_SIZES`]).
    pub const SIZES: [usize; 5] = swizzle_core::simd::ELEMENT_SIZES;

    /// The rows of `K`'s networks for elements of `E`, at every level of this
    /// architecture that has one.
    pub fn generated<K: FullTiles, E>() -> Rows {
        #[allow(unused_mut)]
        let mut rows = Rows::NONE;
        let has = |level| table::has_rows::<K>(level, size_of::<E>());
        #[cfg(target_arch = "x86_64")]
        {
            use swizzle_core::simd::Level;
            rows.avx512 = has(Level::Avx512).then_some(table::rows::<Avx512, K, E> as RowFn<_>);
            rows.avx2 = has(Level::Avx2).then_some(table::rows::<Avx2, K, E> as RowFn<_>);
        }
        #[cfg(target_arch = "aarch64")]
        {
            rows.neon = has(swizzle_core::simd::Level::Neon)
                .then_some(table::rows::<Neon, K, E> as RowFn<_>);
        }
        let _ = has;
        rows
    }

    /// The rows of `level` with the token that runs them, bound once per copy; `None` where
    /// there are none or the CPU does not run the level.
    pub(crate) fn bind(&self, level: Level) -> Option<Bound> {
        match level {
            Level::Avx512 => Some(Bound::Avx512(self.avx512?, Avx512::detect()?)),
            Level::Avx2 => Some(Bound::Avx2(self.avx2?, Avx2::detect()?)),
            Level::Neon => Some(Bound::Neon(self.neon?, Neon::detect()?)),
            Level::Scalar => None,
        }
    }
}

impl Default for Rows {
    fn default() -> Self {
        Rows::NONE
    }
}

/// One level's generated rows and the token that proves the CPU runs them.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Bound {
    Avx512(RowFn<Avx512>, Avx512),
    Avx2(RowFn<Avx2>, Avx2),
    Neon(RowFn<Neon>, Neon),
}

impl Bound {
    /// Copies `row`. Every tile of `row` must lie inside `src` and `dst` as the plan
    /// reaches (the generated code checks its slices; this keeps it from panicking).
    pub(crate) fn copy(self, src: &[u8], dst: &mut [u8], row: TileRow) {
        match self {
            Bound::Avx512(rows, cpu) => rows(cpu, src, dst, row),
            Bound::Avx2(rows, cpu) => rows(cpu, src, dst, row),
            Bound::Neon(rows, cpu) => rows(cpu, src, dst, row),
        }
    }
}

/// Proof that the CPU runs AVX2: only [`Avx2::detect`] makes one. Its operations (on
/// x86-64) are what generated AVX2 rows call: 32-byte registers of eight words or
/// thirty-two bytes.
#[derive(Clone, Copy, Debug)]
pub struct Avx2(Detected);

/// Proof that the CPU runs AVX-512 F, BW and VBMI ([`Level::Avx512`]): only
/// [`Avx512::detect`] makes one. Its operations (on x86-64) are what generated AVX-512 rows
/// call: 64-byte registers of sixteen words or sixty-four bytes.
#[derive(Clone, Copy, Debug)]
pub struct Avx512(Detected);

/// Proof that the CPU runs NEON (every aarch64 CPU does): only [`Neon::detect`] makes one.
/// Its operations (on aarch64) are what generated NEON rows call: 16-byte registers and
/// byte table lookups.
#[derive(Clone, Copy, Debug)]
pub struct Neon(Detected);

/// The private part of a token: nothing outside this module makes one.
#[derive(Clone, Copy, Debug)]
struct Detected;

impl Avx2 {
    /// The token, where this CPU runs AVX2.
    pub fn detect() -> Option<Self> {
        Level::Avx2.is_available().then_some(Avx2(Detected))
    }
}

impl Avx512 {
    /// The token, where this CPU runs [`Level::Avx512`].
    pub fn detect() -> Option<Self> {
        Level::Avx512.is_available().then_some(Avx512(Detected))
    }
}

impl Neon {
    /// The token, where this CPU runs NEON.
    pub fn detect() -> Option<Self> {
        Level::Neon.is_available().then_some(Neon(Detected))
    }
}
