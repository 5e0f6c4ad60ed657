//! Offsets of whole batches of coordinates. The generated `offset` is straight-line integer
//! code, so a loop over it vectorises; this module compiles that loop for the widest SIMD
//! the CPU has (AVX-512 or AVX2 on x86-64, detected at run time once per call) and falls
//! back to the baseline target everywhere else. Bounds and padding are checked first, chunk
//! by chunk, so a bad coordinate is an error, never a silent wrong offset.
//!
//! Which to use, fastest first (BENCHMARKS.md#offset-functions measures them):
//!
//! - [`offsets_columns`]: coordinates as one column per axis (structure of arrays, as
//!   columnar data and GPU buffers hold them), `u16` or `u32`, writing `u32` offsets;
//! - [`offsets_u32`]: coordinates as `[C; N]` points, `u16` or `u32`, writing `u32`
//!   offsets. Where the layout's space fits `u32` (else [`BatchError::Wide`]), both
//!   compute in 32-bit lanes, twice as many to a register as the 64-bit lanes of
//!   [`offsets`];
//! - [`offsets`]: `usize` points and offsets, for any layout.
//!
//! Each has a `_with` form that pins the SIMD [`Level`]. The loop has code of its own for
//! the x86-64 levels; at [`Level::Neon`] it is compiled for the target's baseline, as at
//! [`Level::Scalar`].

use crate::kernel::Level;
use crate::{CoordError, Layout};
use std::fmt;

/// The batch loops' name for the SIMD level, from before the library had one level type.
#[deprecated(since = "0.2.0", note = "one level type: use `swizzle::kernel::Level`")]
pub type Simd = Level;

/// Why a batch was rejected. Nothing is promised about `out` then.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BatchError {
    /// `out` must have one slot per coordinate.
    Length { coords: usize, out: usize },
    /// The coordinate at `index` has no offset.
    Coord { index: usize, error: CoordError },
    /// The requested [`Level`] does not run on this CPU.
    Unsupported(Level),
    /// `u32` offsets were asked of a layout whose element space does not fit `u32`.
    Wide { space: usize },
}

impl fmt::Display for BatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Length { coords, out } => {
                write!(
                    f,
                    "{coords} coordinates but {out} output slots: give one slot per coordinate"
                )
            }
            Self::Coord { index, error } => write!(f, "coordinate {index}: {error}"),
            Self::Unsupported(level) => write!(f, "this CPU cannot run {level:?} code"),
            Self::Wide { space } => write!(
                f,
                "the layout's {space} elements do not fit u32 offsets: use `offsets` (usize)"
            ),
        }
    }
}

impl std::error::Error for BatchError {}

/// Writes the offset of `coords[i]` to `out[i]`, with the widest SIMD this CPU has: `usize`
/// coordinates and offsets, for any layout. Where the layout's space fits `u32`,
/// [`offsets_u32`] (points of `u16` or `u32`) and [`offsets_columns`] (one column per axis)
/// are faster, with twice the lanes to a register: see the [module](self)'s list.
pub fn offsets<L: Layout<N>, const N: usize>(
    coords: &[[usize; N]],
    out: &mut [usize],
) -> Result<(), BatchError> {
    offsets_with::<L, N>(Level::detect(), coords, out)
}

/// [`offsets`] compiled for a given SIMD [`Level`] (to compare levels, or to pin one).
pub fn offsets_with<L: Layout<N>, const N: usize>(
    level: Level,
    coords: &[[usize; N]],
    out: &mut [usize],
) -> Result<(), BatchError> {
    if coords.len() != out.len() {
        return Err(BatchError::Length {
            coords: coords.len(),
            out: out.len(),
        });
    }
    if !level.is_available() {
        return Err(BatchError::Unsupported(level));
    }
    let valid = match level {
        // The baseline, and NEON, which the loop has no code of its own for.
        Level::Scalar | Level::Neon => kernel::<L, N>(coords, out),
        // SAFETY: `is_available` detected AVX2 at run time, the one requirement of `avx2`.
        #[cfg(target_arch = "x86_64")]
        Level::Avx2 => unsafe { avx2::<L, N>(coords, out) },
        // SAFETY: `is_available` detected AVX-512F at run time, the one requirement of
        // `avx512`.
        #[cfg(target_arch = "x86_64")]
        Level::Avx512 => unsafe { avx512::<L, N>(coords, out) },
        #[cfg(not(target_arch = "x86_64"))]
        Level::Avx2 | Level::Avx512 => unreachable!("is_available is false off x86-64"),
    };
    if valid {
        return Ok(());
    }
    // The first coordinate the kernel rejected, by its own predicate; `try_offset` says why
    // (a `Layout` whose `is_valid` and descriptor disagree still gets an error, not a panic).
    let (index, &coord) = coords
        .iter()
        .enumerate()
        .find(|&(_, &coord)| !is_valid::<L, N>(coord))
        .ok_or(BatchError::Coord {
            index: 0,
            error: CoordError::Malformed("inconsistent validity"),
        })?;
    let error = L::try_offset(coord).err().unwrap_or(CoordError::Malformed(
        "is_valid rejects a coordinate the descriptor accepts",
    ));
    Err(BatchError::Coord { index, error })
}

/// Coordinates checked, then converted, at a time: small enough to stay in L1 between the
/// two passes.
const CHUNK: usize = 512;

/// The batch loop, inlined into each instruction-set variant so that it is compiled (and
/// vectorised) for that set. Each chunk is first checked with a branch-free reduction, then
/// converted by a loop with no branch at all, which is what lets it vectorise; a chunk with
/// an invalid coordinate stops the batch (and is not converted, so `offset` never sees it).
#[inline(always)]
fn kernel<L: Layout<N>, const N: usize>(coords: &[[usize; N]], out: &mut [usize]) -> bool {
    for (coords, out) in coords.chunks(CHUNK).zip(out.chunks_mut(CHUNK)) {
        let valid = coords.iter().fold(true, |valid, &coord| {
            let in_bounds = coord
                .iter()
                .zip(L::SHAPE)
                .fold(true, |ok, (&c, len)| ok & (c < len));
            valid & in_bounds & L::is_valid(coord)
        });
        if !valid {
            return false;
        }
        for (&coord, slot) in coords.iter().zip(out.iter_mut()) {
            *slot = L::offset(coord);
        }
    }
    true
}

/// In bounds and outside every padding; branch-free, so that the check pass vectorises.
#[inline(always)]
fn is_valid<L: Layout<N>, const N: usize>(coord: [usize; N]) -> bool {
    let in_bounds = coord
        .iter()
        .zip(L::SHAPE)
        .fold(true, |ok, (&c, len)| ok & (c < len));
    in_bounds & L::is_valid(coord)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn avx2<L: Layout<N>, const N: usize>(coords: &[[usize; N]], out: &mut [usize]) -> bool {
    kernel::<L, N>(coords, out)
}

#[cfg(target_arch = "x86_64")]
target_features! {
    Avx512,
    fn avx512<L: Layout<N>, const N: usize>(coords: &[[usize; N]], out: &mut [usize]) -> bool {
        kernel::<L, N>(coords, out)
    }
}

/// A narrow coordinate type for the `u32` batch paths: `u16` or `u32`. Narrow coordinates
/// and offsets let the loop run twice (or four times) the lanes of `usize` ones: the
/// generated `offset` is straight-line code over `usize`, and as its inputs are zero-extended
/// and its result truncated to 32 bits, the compiler computes it in 32-bit lanes.
pub trait Narrow: Copy + sealed::Sealed {
    /// The coordinate as an index.
    fn index(self) -> usize;
}

impl Narrow for u16 {
    #[inline(always)]
    fn index(self) -> usize {
        usize::from(self)
    }
}

impl Narrow for u32 {
    #[inline(always)]
    fn index(self) -> usize {
        self as usize
    }
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for u16 {}
    impl Sealed for u32 {}
}

/// [`offsets`] for narrow coordinates (`u16` or `u32`), writing `u32` offsets, with the
/// widest SIMD this CPU has. A layout whose element space does not fit `u32` is
/// [`BatchError::Wide`].
pub fn offsets_u32<L: Layout<N>, C: Narrow, const N: usize>(
    coords: &[[C; N]],
    out: &mut [u32],
) -> Result<(), BatchError> {
    offsets_u32_with::<L, C, N>(Level::detect(), coords, out)
}

/// [`offsets_u32`] compiled for a given SIMD [`Level`].
pub fn offsets_u32_with<L: Layout<N>, C: Narrow, const N: usize>(
    level: Level,
    coords: &[[C; N]],
    out: &mut [u32],
) -> Result<(), BatchError> {
    if coords.len() != out.len() {
        return Err(BatchError::Length {
            coords: coords.len(),
            out: out.len(),
        });
    }
    narrow::<L, N, _>(level, coords, out)
}

/// Offsets of coordinates given as one array per coordinate (`columns[d][i]` is coordinate
/// `d` of point `i`: structure-of-arrays, as columnar data and GPU-style buffers hold
/// them), narrow, writing `u32` offsets, with the widest SIMD this CPU has. Every column
/// must have `out.len()` entries.
pub fn offsets_columns<L: Layout<N>, C: Narrow, const N: usize>(
    columns: [&[C]; N],
    out: &mut [u32],
) -> Result<(), BatchError> {
    offsets_columns_with::<L, C, N>(Level::detect(), columns, out)
}

/// [`offsets_columns`] compiled for a given SIMD [`Level`].
pub fn offsets_columns_with<L: Layout<N>, C: Narrow, const N: usize>(
    level: Level,
    columns: [&[C]; N],
    out: &mut [u32],
) -> Result<(), BatchError> {
    if let Some(column) = columns.iter().find(|column| column.len() != out.len()) {
        return Err(BatchError::Length {
            coords: column.len(),
            out: out.len(),
        });
    }
    narrow::<L, N, _>(level, columns, out)
}

/// Where the narrow loops read coordinates: rows of `[C; N]`, or one column per coordinate.
trait Coords<const N: usize>: Copy {
    /// Whether the coordinates come in rows (`[C; N]` each) rather than columns.
    const ROWS: bool;
    /// Coordinates `first..first + len`: `at(i)` of the window is coordinate `first + i`.
    /// Windows of exactly `len` let the loops index them without bounds checks.
    fn window(self, first: usize, len: usize) -> Self;
    fn at(self, i: usize) -> [usize; N];
}

impl<C: Narrow, const N: usize> Coords<N> for &[[C; N]] {
    const ROWS: bool = true;
    #[inline(always)]
    fn window(self, first: usize, len: usize) -> Self {
        &self[first..first + len]
    }
    #[inline(always)]
    fn at(self, i: usize) -> [usize; N] {
        self[i].map(Narrow::index)
    }
}

impl<C: Narrow, const N: usize> Coords<N> for [&[C]; N] {
    const ROWS: bool = false;
    #[inline(always)]
    fn window(self, first: usize, len: usize) -> Self {
        self.map(|column| &column[first..first + len])
    }
    #[inline(always)]
    fn at(self, i: usize) -> [usize; N] {
        std::array::from_fn(|d| self[d][i].index())
    }
}

/// The `u32` batch loop over `coords` (as many as `out` has slots), for `level`; the errors
/// of [`offsets_with`], and [`BatchError::Wide`].
#[inline(always)]
fn narrow<L: Layout<N>, const N: usize, S: Coords<N>>(
    level: Level,
    coords: S,
    out: &mut [u32],
) -> Result<(), BatchError> {
    if L::SPACE as u64 > 1 << 32 {
        return Err(BatchError::Wide { space: L::SPACE });
    }
    if !level.is_available() {
        return Err(BatchError::Unsupported(level));
    }
    let valid = match level {
        // The baseline, and NEON, which the loop has no code of its own for.
        Level::Scalar | Level::Neon => narrow_kernel::<L, N, S, false>(coords, out),
        // SAFETY: `is_available` detected AVX2 at run time, the one requirement of
        // `narrow_avx2`.
        #[cfg(target_arch = "x86_64")]
        Level::Avx2 => unsafe { narrow_avx2::<L, N, S>(coords, out) },
        // SAFETY: `is_available` detected AVX-512F at run time, the one requirement of
        // `narrow_avx512`.
        #[cfg(target_arch = "x86_64")]
        Level::Avx512 => unsafe { narrow_avx512::<L, N, S>(coords, out) },
        #[cfg(not(target_arch = "x86_64"))]
        Level::Avx2 | Level::Avx512 => unreachable!("is_available is false off x86-64"),
    };
    if valid {
        return Ok(());
    }
    let index = (0..out.len())
        .find(|&i| !is_valid::<L, N>(coords.at(i)))
        .ok_or(BatchError::Coord {
            index: 0,
            error: CoordError::Malformed("inconsistent validity"),
        })?;
    let error = L::try_offset(coords.at(index))
        .err()
        .unwrap_or(CoordError::Malformed(
            "is_valid rejects a coordinate the descriptor accepts",
        ));
    Err(BatchError::Coord { index, error })
}

/// [`kernel`] for narrow coordinates and `u32` offsets: each chunk checked, then converted
/// by a branch-free loop whose truncated result lets it run in 32-bit lanes.
#[inline(always)]
fn narrow_kernel<L: Layout<N>, const N: usize, S: Coords<N>, const SPLIT: bool>(
    coords: S,
    out: &mut [u32],
) -> bool {
    let mut columns = [[0u32; CHUNK]; N];
    for (chunk, out) in out.chunks_mut(CHUNK).enumerate() {
        let window = coords.window(chunk * CHUNK, out.len());
        let valid = match SPLIT && S::ROWS {
            // Rows are split into one column per coordinate first, so that the loops load
            // whole vectors of one coordinate instead of gathering it from rows (AVX2 has
            // no cheap gather; AVX-512's two-source permutes deinterleave rows faster
            // without the split: BENCHMARKS.md#offset-functions).
            true => {
                for i in 0..out.len() {
                    let coord = window.at(i);
                    for (column, value) in columns.iter_mut().zip(coord) {
                        // Narrow coordinates fit u32.
                        column[i] = value as u32;
                    }
                }
                convert::<L, N>(|i| std::array::from_fn(|d| columns[d][i] as usize), out)
            }
            false => convert::<L, N>(|i| window.at(i), out),
        };
        if !valid {
            return false;
        }
    }
    true
}

/// One chunk of [`narrow_kernel`]: every coordinate checked, then converted, when all are
/// valid.
#[inline(always)]
fn convert<L: Layout<N>, const N: usize>(
    at: impl Fn(usize) -> [usize; N],
    out: &mut [u32],
) -> bool {
    let valid = (0..out.len()).fold(true, |valid, i| valid & is_valid::<L, N>(at(i)));
    if valid {
        for (i, slot) in out.iter_mut().enumerate() {
            // The space fits u32 (checked by the caller), so the offset does.
            *slot = L::offset(at(i)) as u32;
        }
    }
    valid
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn narrow_avx2<L: Layout<N>, const N: usize, S: Coords<N>>(coords: S, out: &mut [u32]) -> bool {
    narrow_kernel::<L, N, S, true>(coords, out)
}

#[cfg(target_arch = "x86_64")]
target_features! {
    Avx512,
    fn narrow_avx512<L: Layout<N>, const N: usize, S: Coords<N>>(coords: S, out: &mut [u32]) -> bool {
        narrow_kernel::<L, N, S, false>(coords, out)
    }
}
