//! Offsets of whole batches of coordinates. The generated `offset` is straight-line integer
//! code, so a loop over it vectorises; this module compiles that loop for the widest SIMD
//! the CPU has (AVX-512 or AVX2 on x86-64, detected at run time once per call) and falls
//! back to the baseline target everywhere else. Bounds and padding are checked first, chunk
//! by chunk, so a bad coordinate is an error, never a silent wrong offset.

use crate::{CoordError, Layout};
use std::fmt;

/// An instruction set the batch loop can be compiled for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Simd {
    /// The compilation target's baseline (SSE2 on x86-64): always available.
    Scalar,
    /// x86-64 AVX2: 4 lanes of 64 bits.
    Avx2,
    /// x86-64 AVX-512F: 8 lanes of 64 bits.
    Avx512,
}

impl Simd {
    /// Every level, narrowest first.
    pub const ALL: [Simd; 3] = [Simd::Scalar, Simd::Avx2, Simd::Avx512];

    /// Whether this CPU can run code compiled for `self`.
    pub fn is_available(self) -> bool {
        match self {
            Simd::Scalar => true,
            #[cfg(target_arch = "x86_64")]
            Simd::Avx2 => is_x86_feature_detected!("avx2"),
            #[cfg(target_arch = "x86_64")]
            Simd::Avx512 => is_x86_feature_detected!("avx512f"),
            #[cfg(not(target_arch = "x86_64"))]
            Simd::Avx2 | Simd::Avx512 => false,
        }
    }

    /// The widest level this CPU can run.
    pub fn detect() -> Simd {
        Simd::ALL
            .into_iter()
            .rev()
            .find(|simd| simd.is_available())
            .unwrap_or(Simd::Scalar)
    }
}

/// Why a batch was rejected. Nothing is promised about `out` then.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BatchError {
    /// `out` must have one slot per coordinate.
    Length { coords: usize, out: usize },
    /// The coordinate at `index` has no offset.
    Coord { index: usize, error: CoordError },
    /// The requested [`Simd`] level does not run on this CPU.
    Unsupported(Simd),
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
            Self::Unsupported(simd) => write!(f, "this CPU cannot run {simd:?} code"),
        }
    }
}

impl std::error::Error for BatchError {}

/// Writes the offset of `coords[i]` to `out[i]`, with the widest SIMD this CPU has. The
/// README's "Batches" section shows it in use.
pub fn offsets<L: Layout<N>, const N: usize>(
    coords: &[[usize; N]],
    out: &mut [usize],
) -> Result<(), BatchError> {
    offsets_with::<L, N>(Simd::detect(), coords, out)
}

/// [`offsets`] compiled for a given [`Simd`] level (to compare levels, or to pin one).
pub fn offsets_with<L: Layout<N>, const N: usize>(
    simd: Simd,
    coords: &[[usize; N]],
    out: &mut [usize],
) -> Result<(), BatchError> {
    if coords.len() != out.len() {
        return Err(BatchError::Length {
            coords: coords.len(),
            out: out.len(),
        });
    }
    if !simd.is_available() {
        return Err(BatchError::Unsupported(simd));
    }
    let valid = match simd {
        Simd::Scalar => kernel::<L, N>(coords, out),
        // SAFETY: `is_available` detected AVX2 at run time, the one requirement of `avx2`.
        #[cfg(target_arch = "x86_64")]
        Simd::Avx2 => unsafe { avx2::<L, N>(coords, out) },
        // SAFETY: `is_available` detected AVX-512F at run time, the one requirement of
        // `avx512`.
        #[cfg(target_arch = "x86_64")]
        Simd::Avx512 => unsafe { avx512::<L, N>(coords, out) },
        #[cfg(not(target_arch = "x86_64"))]
        Simd::Avx2 | Simd::Avx512 => unreachable!("is_available is false off x86-64"),
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
#[target_feature(enable = "avx512f")]
fn avx512<L: Layout<N>, const N: usize>(coords: &[[usize; N]], out: &mut [usize]) -> bool {
    kernel::<L, N>(coords, out)
}
