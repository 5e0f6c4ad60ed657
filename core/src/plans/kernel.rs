//! Copy kernels between two layouts over the same coordinates, planned at expansion time.
//!
//! A kernel copies one *tile* at a time: the whole coordinate space of a fixed-size layout,
//! or one tile of a layout with run-time outer dims. Each side of the copy is a layout or a
//! row-major array. Inside a tile the plan holds
//!
//! - the *runs*: in the order of a traversal, blocks of consecutive coordinates along the last
//!   one that are consecutive in memory on both sides, so each is one `copy_from_slice`;
//! - *networks*: for each SIMD width that fits ([`network_lanes`](crate::simd::network_lanes)),
//!   the permute-and-blend program that builds every register of the destination from whole
//!   registers of the source, so that every load and every store is a full vector even where
//!   runs are shorter (Morton's runs of 2).
//!
//! Offsets in a plan are in each side's *frame*: the offset within the tile for a layout, and
//! the row-major index within the tile for a row-major array (whose real offsets depend on
//! the array's run-time extents).

use crate::ir::{Descriptor, List, coordinates};
use crate::plans::sfc::Sfc;
use std::borrow::Cow;
use std::collections::BTreeMap;

/// One side of a copy.
#[derive(Clone, Copy, Debug)]
pub enum Storage<'a> {
    /// A dense row-major array (last coordinate fastest) of the coordinates' extents.
    RowMajor,
    /// A layout; for a tiled layout, the descriptor of one tile.
    Layout(&'a Descriptor),
}

/// The copy of one tile, as const data that the runtime executes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Plan {
    /// Lengths of one tile, in coordinate order.
    pub tile: List<usize>,
    /// Elements per run along the last coordinate (a run at the end of a tile, or next to
    /// padding, may be shorter).
    pub vector: usize,
    /// Every run of one tile, in the walk's order.
    pub runs: List<Run>,
    /// Networks for full tiles, one per register width that fits, narrowest first.
    pub networks: List<Network>,
}

/// Consecutive coordinates along the last one, consecutive in memory on both sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Run {
    /// The first coordinate's row-major index within the tile.
    pub at: usize,
    /// Its offset in the source's frame.
    pub from: usize,
    /// Its offset in the destination's frame.
    pub to: usize,
    /// Number of elements.
    pub len: usize,
}

/// A permute-and-blend program for registers of `lanes` elements: every destination
/// register of a full tile is assembled from whole source registers.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Network {
    /// Elements per register.
    pub lanes: usize,
    /// Where each source register starts, in the source's frame.
    pub loads: List<usize>,
    /// Where each destination register starts, in the destination's frame.
    pub stores: List<usize>,
    /// Grouped by store, in store order; the first step of a store starts it.
    pub steps: List<Step>,
}

/// Lanes of one destination register taken from one source register.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Step {
    /// Index into [`Network::stores`].
    pub store: usize,
    /// Index into [`Network::loads`].
    pub load: usize,
    /// Destination lanes this step writes: bit `i` for lane `i`.
    pub mask: u64,
    /// For each destination lane, the source lane it takes (0 where `mask` is clear).
    pub lanes: List<u8>,
}

/// Where a side puts one coordinate of the tile: its frame offset, or `None` (padding).
fn frame_offsets(side: Storage, tile: &[usize]) -> Vec<Option<usize>> {
    coordinates(tile)
        .enumerate()
        .map(|(at, coord)| match side {
            Storage::RowMajor => Some(at),
            Storage::Layout(layout) => layout.offset(&coord).ok(),
        })
        .collect()
}

/// Whether the runs of `vector` elements starting at multiples of `vector` along the last
/// coordinate (cut at the tile's end) are consecutive in `offsets` wherever two neighbours
/// are both valid.
pub fn is_contiguous(offsets: &[Option<usize>], tile: &[usize], vector: usize) -> bool {
    let Some(&last) = tile.last() else {
        return true;
    };
    (0..offsets.len()).all(|at| {
        let x = at % last;
        x % vector == 0
            || match (offsets[at - 1], offsets[at]) {
                (Some(previous), Some(offset)) => previous.checked_add(1) == Some(offset),
                // Padding only shortens a run: the plan cuts runs where validity changes.
                _ => true,
            }
    })
}

/// The longest run along the last coordinate that is contiguous on both sides: the largest
/// divisor of the last tile length (so that every run is whole) that both sides keep together.
pub fn common_vector(from: Storage, to: Storage, tile: &[usize]) -> usize {
    let (a, b) = (frame_offsets(from, tile), frame_offsets(to, tile));
    let last = tile.last().copied().unwrap_or(1);
    (1..=last)
        .rev()
        .filter(|v| last % v == 0)
        .find(|&v| is_contiguous(&a, tile, v) && is_contiguous(&b, tile, v))
        .unwrap_or(1)
}

/// Plans the copy of one tile from `from` to `to`, in the order of `walk` (a curve over the
/// tile whose vector blocks are cut into runs along the last coordinate). The caller has
/// checked that those runs are contiguous on both sides.
pub fn plan(from: Storage, to: Storage, tile: &[usize], walk: &Sfc) -> Plan {
    let (source, destination) = (frame_offsets(from, tile), frame_offsets(to, tile));
    let rank = tile.len();
    let strides = crate::ir::row_major_strides(tile).unwrap_or_default();
    let mut runs = Vec::new();
    for i in 0..walk.num_access() {
        let (start, extent) = (walk.index(i), walk.extent(i));
        let rows = &extent[..rank - 1];
        for row in coordinates(rows) {
            let first: Vec<usize> = start
                .iter()
                .zip(row.iter().chain([&0]))
                .map(|(s, r)| s + r)
                .collect();
            let at: usize = first.iter().zip(&strides).map(|(c, s)| c * s).sum();
            push_runs(&mut runs, at, extent[rank - 1], &source, &destination);
        }
    }
    let vector = walk.vector[rank - 1];
    let networks = crate::simd::network_lanes()
        .into_iter()
        .filter_map(|lanes| network(from, to, tile, lanes, &source, &destination))
        .collect();
    Plan {
        tile: Cow::Owned(tile.to_vec()),
        vector,
        runs: Cow::Owned(runs),
        networks: Cow::Owned(networks),
    }
}

/// A kernel's tile planned as the sub-tile it is a stack of (see
/// [`Descriptor::as_stacked`]): the copy of one sub-tile, and how many stack into a tile.
/// Copying a grid of tiles is copying the grid of sub-tiles stacked `stack` high.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Stacked {
    /// The copy of one sub-tile, in the order of the kernel's walk cut to it.
    pub plan: Plan,
    /// Sub-tiles per tile, along the first coordinate.
    pub stack: usize,
}

/// The copy of pack or unpack (`from` or `to` a row-major array, the other side a layout)
/// one sub-tile at a time, where the layout's tile is a stack of sub-tiles
/// ([`Descriptor::as_stacked`]) and `walk` is the default one (row-major order, runs along
/// the last coordinate only), which it cuts to a sub-tile. `None` otherwise.
pub fn stacked(from: Storage, to: Storage, walk: &Sfc) -> Option<Stacked> {
    let layout = match (from, to) {
        (Storage::RowMajor, Storage::Layout(layout))
        | (Storage::Layout(layout), Storage::RowMajor) => layout,
        _ => return None,
    };
    let rank = walk.lengths.len();
    let row_major = walk.order.iter().copied().eq(0..rank)
        && !walk.snake
        && walk.vector[..rank.saturating_sub(1)]
            .iter()
            .all(|&v| v == 1);
    if !row_major || walk.lengths[..] != layout.shape()[..] {
        return None;
    }
    let (sub, stack) = layout.as_stacked()?;
    let side = |storage: Storage| match storage {
        Storage::RowMajor => Storage::RowMajor,
        Storage::Layout(_) => Storage::Layout(&sub),
    };
    let tile = sub.shape();
    let walk = Sfc {
        lengths: Cow::Owned(tile.clone()),
        ..walk.clone()
    };
    Some(Stacked {
        plan: plan(side(from), side(to), &tile, &walk),
        stack,
    })
}

/// The runs of the `len` coordinates from row-major index `at`: the stretches valid on both
/// sides.
fn push_runs(
    runs: &mut Vec<Run>,
    at: usize,
    len: usize,
    source: &[Option<usize>],
    destination: &[Option<usize>],
) {
    let mut open: Option<Run> = None;
    for at in at..at + len {
        match (source[at], destination[at]) {
            (Some(from), Some(to)) => match &mut open {
                Some(run) if run.from + run.len == from && run.to + run.len == to => run.len += 1,
                _ => {
                    runs.extend(open.take());
                    open = Some(Run {
                        at,
                        from,
                        to,
                        len: 1,
                    });
                }
            },
            _ => runs.extend(open.take()),
        }
    }
    runs.extend(open);
}

/// How a side cuts a full tile into registers of `lanes` elements: for each coordinate, its
/// register's start (in the side's frame) and its lane. `None` when the side cannot be cut:
/// a row-major row that `lanes` does not divide, or a layout tile with padding or gaps.
fn registers(
    side: Storage,
    tile: &[usize],
    lanes: usize,
    offsets: &[Option<usize>],
) -> Option<Vec<(usize, usize)>> {
    match side {
        Storage::RowMajor => {
            let last = *tile.last()?;
            (last % lanes == 0).then(|| {
                (0..offsets.len())
                    .map(|at| (at - at % lanes, at % lanes))
                    .collect()
            })
        }
        Storage::Layout(layout) => {
            let space = layout.space()?;
            if space != offsets.len() || space % lanes != 0 {
                return None;
            }
            let mut seen = vec![false; space];
            offsets
                .iter()
                .map(|offset| {
                    let offset = (*offset)?;
                    (offset < space && !std::mem::replace(&mut seen[offset], true))
                        .then_some((offset - offset % lanes, offset % lanes))
                })
                .collect()
        }
    }
}

/// The most lanes of a register whose network is taken however many registers each of its
/// stores gathers from: a 4 × 4 transpose's.
const TRANSPOSED_LANES: usize = 4;

/// The network for registers of `lanes` elements, if both sides can be cut into them and
/// each step moves two lanes or more on average, or a register has at most four lanes
/// (otherwise plain runs are faster). Four lanes gathered from four registers are a 4 × 4
/// transpose (16-byte texels on AVX-512): four loads, the steps' permutes in pairs and four
/// whole stores, where runs move one lane at a time.
fn network(
    from: Storage,
    to: Storage,
    tile: &[usize],
    lanes: usize,
    source: &[Option<usize>],
    destination: &[Option<usize>],
) -> Option<Network> {
    let loads_of = registers(from, tile, lanes, source)?;
    let stores_of = registers(to, tile, lanes, destination)?;
    // store start → load start → (destination lane → source lane).
    let mut gather: BTreeMap<usize, BTreeMap<usize, Vec<(usize, usize)>>> = BTreeMap::new();
    for (&(load, src_lane), &(store, dst_lane)) in loads_of.iter().zip(&stores_of) {
        gather
            .entry(store)
            .or_default()
            .entry(load)
            .or_default()
            .push((dst_lane, src_lane));
    }
    let step_count: usize = gather.values().map(BTreeMap::len).sum();
    if lanes > TRANSPOSED_LANES && step_count * 2 > gather.len() * lanes {
        return None;
    }
    let mut loads: Vec<usize> = loads_of.iter().map(|&(load, _)| load).collect();
    loads.sort_unstable();
    loads.dedup();
    let mut stores = Vec::with_capacity(gather.len());
    let mut steps = Vec::with_capacity(step_count);
    for (store, sources) in gather {
        for (load, pairs) in sources {
            let mut mask = 0u64;
            let mut picks = vec![0u8; lanes];
            for (dst_lane, src_lane) in pairs {
                mask |= 1 << dst_lane;
                picks[dst_lane] = src_lane as u8;
            }
            steps.push(Step {
                store: stores.len(),
                load: loads.partition_point(|&start| start < load),
                mask,
                lanes: Cow::Owned(picks),
            });
        }
        stores.push(store);
    }
    Some(Network {
        lanes,
        loads: Cow::Owned(loads),
        stores: Cow::Owned(stores),
        steps: Cow::Owned(steps),
    })
}
