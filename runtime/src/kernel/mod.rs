//! Copy kernels: what `kernel` items of `layout!` run. The macro plans one tile at expansion
//! time (a [`Plan`]: runs in walk order, and permute-and-blend networks) and expands it into
//! code (rows of full tiles as SIMD per level, and the tile's runs as straight-line slice
//! copies); this module checks the buffers, walks the grid of tiles at run time, splits it
//! across threads for large arrays, and copies each row of full tiles with the widest SIMD
//! the CPU has (detected once per call): the generated rows, else the plan's network
//! interpreted, else the straight-line tile or runs of `copy_from_slice`, which also copy
//! the partial tiles at the edges of an array. A kernel's `route::<E>(options)` tells which
//! of these its copies of `E` take, and why ([`Route`]).

mod byte_order;
mod bytes;
mod cache;
mod error;
pub(crate) mod generated;
mod grid;
mod network;
mod options;
pub(crate) mod output;
mod route;
pub(crate) mod simd;
mod stage;
mod transpose;
#[cfg(target_arch = "x86_64")]
mod transpose_x86;
mod valid;
mod view;
#[cfg(target_arch = "x86_64")]
mod x86;

/// Bytes per cache line: the unit in which streaming stores reach memory, a stage's rows
/// are aligned and prefetches bring lines in.
const CACHE_LINE: usize = 64;

pub use bytes::{ELEMENT_SIZES, copy_bytes};
pub use error::KernelError;
pub use options::{Options, Stores};
pub use route::{Reason, Route, TileCopy};
pub use swizzle_core::plans::kernel::{Network, Plan, Run, Step};
pub use transpose::{copy_views, copy_views_with};
pub use view::View;

// The kernels' plumbing that `swizzle-texture` builds its surfaces' copies from: a kernel's
// code for one element type, a copy made ready once to run on many parts of a level, and
// the allocating copies' output buffer. Not the user's API (hidden), and not the generated
// code's contract (`__private`): a sibling crate's.
#[doc(hidden)]
pub use generated::{GeneratedCode, PreparedCopy};
// A kernel's byte copies with its generated code, and their route.
#[doc(hidden)]
pub use bytes::{CodeFor, CodeOf, NoCode, copy_bytes_with, route_bytes};
// How a copy's bands are spread over threads, for the surfaces whose levels split into
// parts that one kernel call does not cover (a pass after the copy, or many calls).
#[doc(hidden)]
pub use options::for_each_band;
#[doc(hidden)]
pub use output::zeroed_output;
// A destination's bytes, built in the cache by a pass of the texture crate's, written out
// around it.
#[doc(hidden)]
pub use {cache::stores_stream, stage::copy_streaming};
// Each texel's bytes reversed, for the 3DS's pass before its copy.
#[doc(hidden)]
pub use byte_order::reverse_element_bytes;

use bytemuck::Pod;
use grid::Grid;

/// Element types a kernel copies: plain data of any size (those of
/// [`swizzle_core::simd::ELEMENT_SIZES`], 1, 2, 4, 8 and 16 bytes, get SIMD networks), such as
/// `u8`, `u16`, `u32`, `u64`, `f32` and `f64`.
pub trait Element: Pod + Send + Sync {}

impl<E: Pod + Send + Sync> Element for E {}

/// How one side of a copy stores the coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Frame<'a> {
    /// A dense row-major array over the extents (last coordinate fastest).
    RowMajor,
    /// An image at `origin + Σ cᵢ · strides[i]`: row-major with a row pitch, column-major,
    /// a rectangle of a larger image. Build it with [`View`], which checks that no two
    /// coordinates share an element (a copy checks it again); the buffer may be longer
    /// than the view reaches.
    Strided { strides: &'a [usize], origin: usize },
    /// A layout: tiles of `tile_space` elements, stored row-major over the grid `tiles`
    /// (all ones for a fixed-size layout).
    Tiles {
        tiles: &'a [usize],
        tile_space: usize,
    },
    /// A layout's tiles stacked: along the first coordinate, `stack` tiles one after the
    /// other form a stack, and the stacks are stored row-major over the grid — the
    /// block-linear order of NVIDIA and Tegra X1 textures, where `stack` GOBs (the tiles)
    /// form a block, chosen at run time. The buffer holds whole stacks: see
    /// [`stacked_space`].
    Stacked {
        tiles: &'a [usize],
        tile_space: usize,
        stack: usize,
    },
    /// A layout's tiles placed by table: the tile at grid coordinates `g` starts
    /// `Σ starts[i][g[i]]` elements into the buffer (`starts[i]` one entry per tile along
    /// coordinate `i`). Any order whose offset splits into one term per coordinate: tiles
    /// in Morton order (the PS3's swizzle, D3D12's 64 KB tiles of 4 KB sub-tiles), in
    /// stacks, with gaps. The buffer holds at least the furthest tile; tiles that overlap
    /// are written in grid order. As a destination the grid is one band (one thread): to
    /// spread a copy over threads, give each its own disjoint part.
    Placed {
        tiles: &'a [usize],
        tile_space: usize,
        starts: &'a [&'a [usize]],
    },
}

/// One side of a copy: the extents of its coordinates and how it stores them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Side<'a> {
    pub extents: &'a [usize],
    pub frame: Frame<'a>,
}

/// How the tiles are copied: [`Level::Scalar`], in runs of `copy_from_slice` on any CPU, or
/// one of the SIMD levels, by networks. The one level type of the library, which the batch
/// loops take too.
pub use swizzle_core::simd::Level;

/// The level a copy of `E` with `plan` and no generated code uses on this CPU: the widest
/// available one whose network for `E`'s registers beats the plan's runs interpreted (its
/// controls fit a quarter of an L1 cache and it takes fewer steps than the tile has runs),
/// else [`Level::Scalar`].
pub fn interpreted_level<E>(plan: &Plan) -> Level {
    Level::ALL
        .into_iter()
        .rev()
        .find(|&level| level.is_available() && network::interpreting_pays::<E>(level, plan))
        .unwrap_or(Level::Scalar)
}

/// A full tile of a kernel as straight-line code (the `full_tile` that `layout!` emits for
/// two-coordinate tiles of few runs): `src` and `dst` start at the tile, and an image
/// side's rows lie `rows[0]` (source) or `rows[1]` (destination) elements apart.
pub type TileFn<E> = fn(&[E], &mut [E], [usize; 2]);

/// Elements of a [`Frame::Stacked`] buffer: the grid's first coordinate rounded up to
/// whole stacks; `None` for a stack of 0 tiles, no coordinates, or past `usize::MAX`.
pub fn stacked_space(tiles: &[usize], tile_space: usize, stack: usize) -> Option<usize> {
    let (first, rest) = tiles.split_first()?;
    if stack == 0 {
        return None;
    }
    let stacks = first.div_ceil(stack).checked_mul(stack)?;
    rest.iter()
        .try_fold(stacks.checked_mul(tile_space)?, |acc, t| {
            acc.checked_mul(*t)
        })
}

/// Copies `src`, stored as `from` says, into `dst`, stored as `to` says, one tile of `plan`
/// at a time, with the widest SIMD level this CPU runs. Elements of `dst` that hold no
/// coordinate (padding, and the parts of edge tiles outside the extents) are left as they
/// were.
pub fn copy<E: Element>(
    plan: &Plan,
    from: Side,
    to: Side,
    src: &[E],
    dst: &mut [E],
) -> Result<(), KernelError> {
    copy_with(Options::default(), plan, from, to, src, dst)
}

/// [`copy`] as `options` say: the level (detected when `None`; tiles that the level has no
/// network for are copied in runs) and the threads. A bare [`Level`] is options too.
pub fn copy_with<E: Element>(
    options: impl Into<Options>,
    plan: &Plan,
    from: Side,
    to: Side,
    src: &[E],
    dst: &mut [E],
) -> Result<(), KernelError> {
    generated::copy_generated(
        options.into(),
        plan,
        GeneratedCode::NONE,
        from,
        to,
        src,
        dst,
    )
}

/// The route [`copy_with`] takes on this CPU for elements of `E`, `plan` and `options`: the
/// SIMD level, what copies full tiles, and why. A level this CPU does not run is the same
/// error as the copy's.
pub fn route<E: Element>(plan: &Plan, options: impl Into<Options>) -> Result<Route, KernelError> {
    GeneratedCode::<E>::NONE.route(plan, options.into())
}

/// [`copy_with`], under its old name.
#[deprecated(
    since = "0.2.0",
    note = "renamed to `copy_with`, which takes `Options` (or a bare `Level`) like every `_with` form"
)]
pub fn copy_with_options<E: Element>(
    options: Options,
    plan: &Plan,
    from: Side,
    to: Side,
    src: &[E],
    dst: &mut [E],
) -> Result<(), KernelError> {
    copy_with(options, plan, from, to, src, dst)
}
