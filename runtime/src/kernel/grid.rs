//! The run-time part of a kernel: the grid of tiles over the extents, where each tile lies in
//! the source and destination buffers, and the copy of one band of tiles (one step of the
//! outermost coordinate), which is contiguous in every destination and so can go to its own
//! thread.

use super::network::Prepared;
use super::valid::{self, FrameSpace};
use super::{Element, Frame, KernelError, Plan, Side};
use std::ops::Range;

/// One buffer of a copy.
pub struct Buffer {
    /// Elements the buffer must have.
    pub space: usize,
    /// Row-major strides over the extents (for a row-major buffer), or the tile counts'
    /// row-major strides times the tile space (for tiles).
    strides: Vec<usize>,
    /// How far the next tile along each coordinate starts.
    units: Vec<usize>,
    row_major: bool,
}

/// Full tiles at equal distances along a row, in elements: the `i`-th starts at
/// `from + i · from_step` in the source and `to + i · to_step` in the destination.
#[derive(Clone, Copy, Debug)]
pub struct Tiles {
    pub from: usize,
    pub from_step: usize,
    pub to: usize,
    pub to_step: usize,
    pub count: usize,
}

/// A run of the plan with its offsets in the buffers, relative to the tile's start.
struct Placed {
    from: usize,
    to: usize,
    len: usize,
    /// Index of the run's first coordinate in `Grid::coords`.
    coord: usize,
}

/// The grid of tiles of one copy, ready to copy bands.
pub struct Grid<'p> {
    tile: &'p [usize],
    extents: Vec<usize>,
    /// Tiles along each coordinate.
    tiles: Vec<usize>,
    /// Tiles along each coordinate that lie wholly inside the extents.
    full: Vec<usize>,
    pub from: Buffer,
    pub to: Buffer,
    runs: Vec<Placed>,
    /// Tile-local coordinates of the runs' starts, `rank` values each.
    coords: Vec<usize>,
}

impl<'p> Grid<'p> {
    pub fn new(plan: &'p Plan, from: Side, to: Side) -> Result<Self, KernelError> {
        let tile = &plan.tile[..];
        let rank = tile.len();
        for side in [from, to] {
            if side.extents.len() != rank {
                return Err(KernelError::Rank {
                    expected: rank,
                    found: side.extents.len(),
                });
            }
        }
        if from.extents != to.extents {
            return Err(KernelError::Extents {
                from: from.extents.to_vec(),
                to: to.extents.to_vec(),
            });
        }
        let extents = from.extents.to_vec();
        let tiles: Vec<usize> = extents
            .iter()
            .zip(tile)
            .map(|(e, t)| e.div_ceil(*t))
            .collect();
        valid::check(
            plan,
            [from.frame, to.frame].map(|frame| match frame {
                Frame::RowMajor => FrameSpace::RowMajor,
                Frame::Tiles { tile_space, .. } => FrameSpace::Tiles(tile_space),
            }),
        )?;
        let buffer = |side: Side| Buffer::new(side.frame, &extents, tile, &tiles);
        let (from, to) = (buffer(from)?, buffer(to)?);
        let strides = swizzle_core::ir::row_major_strides(tile).unwrap_or_default();
        let mut coords = Vec::with_capacity(plan.runs.len() * rank);
        let runs = plan
            .runs
            .iter()
            .map(|run| {
                let placed = Placed {
                    from: from.frame_offset(run.from, tile),
                    to: to.frame_offset(run.to, tile),
                    len: run.len,
                    coord: coords.len(),
                };
                coords.extend(strides.iter().zip(tile).map(|(s, t)| run.at / s % t));
                placed
            })
            .collect();
        let full = extents.iter().zip(tile).map(|(e, t)| e / t).collect();
        Ok(Grid {
            tile,
            extents,
            tiles,
            full,
            from,
            to,
            runs,
            coords,
        })
    }

    /// Lengths of one tile.
    pub fn tile(&self) -> &[usize] {
        self.tile
    }

    /// Elements of the destination that one band of tiles covers (0 when there is nothing to
    /// copy).
    pub fn band_len(&self) -> usize {
        match self.to.space {
            0 => 0,
            _ => self.to.units[0],
        }
    }

    /// Copies band `band` (the tiles at `band` along the first coordinate) from `src` into
    /// `dst`, the band's part of the destination, row of tiles by row of tiles.
    pub fn copy_band<E: Element>(
        &self,
        band: usize,
        src: &[E],
        dst: &mut [E],
        network: Option<&Prepared>,
    ) {
        let last = self.tile.len() - 1;
        let shift = band * self.band_len();
        if last == 0 {
            // One coordinate: the band is one tile.
            let from = band * self.from.units[0];
            self.copy_row(&mut [band], band..band + 1, [from, 0], src, dst, network);
            return;
        }
        for middle in swizzle_core::ir::coordinates(&self.tiles[1..last]) {
            let mut place: Vec<usize> = [band].into_iter().chain(middle).chain([0]).collect();
            let start = |buffer: &Buffer| -> usize {
                place
                    .iter()
                    .zip(&buffer.units)
                    .map(|(g, unit)| g * unit)
                    .sum()
            };
            let starts = [start(&self.from), start(&self.to) - shift];
            self.copy_row(&mut place, 0..self.tiles[last], starts, src, dst, network);
        }
    }

    /// Copies the tiles `row` along the last coordinate at `place` (whose last entry this
    /// sets), the first starting at `starts` in the source and destination: the full ones
    /// with the network in one call where it takes them, the others in runs.
    fn copy_row<E: Element>(
        &self,
        place: &mut [usize],
        row: Range<usize>,
        [from, to]: [usize; 2],
        src: &[E],
        dst: &mut [E],
        network: Option<&Prepared>,
    ) {
        let last = place.len() - 1;
        let steps = [self.from.units[last], self.to.units[last]];
        let outer_full = place[..last]
            .iter()
            .zip(&self.full)
            .all(|(g, full)| g < full);
        let full_end = match outer_full {
            true => self.full[last].clamp(row.start, row.end),
            false => row.start,
        };
        let tiles = Tiles {
            from,
            from_step: steps[0],
            to,
            to_step: steps[1],
            count: full_end - row.start,
        };
        let networked = tiles.count > 0 && network.is_some_and(|n| n.copy_row(src, dst, tiles));
        let first = if networked { full_end } else { row.start };
        for g in first..row.end {
            place[last] = g;
            let (from, to) = (
                from + (g - row.start) * steps[0],
                to + (g - row.start) * steps[1],
            );
            self.copy_runs(place, g < full_end, src, from, dst, to);
        }
    }

    /// The runs of the tile at `place`, cut at the extents unless the tile is `full`.
    fn copy_runs<E: Element>(
        &self,
        place: &[usize],
        full: bool,
        src: &[E],
        from: usize,
        dst: &mut [E],
        to: usize,
    ) {
        if full {
            for run in &self.runs {
                copy_run(src, from + run.from, dst, to + run.to, run.len);
            }
        } else {
            self.copy_partial(place, src, from, dst, to);
        }
    }

    /// The runs of an edge tile, cut at the extents.
    fn copy_partial<E: Element>(
        &self,
        place: &[usize],
        src: &[E],
        from: usize,
        dst: &mut [E],
        to: usize,
    ) {
        let rank = self.tile.len();
        // How many coordinates of this tile lie inside the extents, along each coordinate.
        let inside: Vec<usize> = place
            .iter()
            .zip(self.tile)
            .zip(&self.extents)
            .map(|((g, t), e)| (e - g * t).min(*t))
            .collect();
        for run in &self.runs {
            let coord = &self.coords[run.coord..run.coord + rank];
            let (last, outer) = coord.split_last().unwrap_or((&0, &[]));
            if outer.iter().zip(&inside).any(|(c, i)| c >= i) || *last >= inside[rank - 1] {
                continue;
            }
            let len = run.len.min(inside[rank - 1] - last);
            copy_run(src, from + run.from, dst, to + run.to, len);
        }
    }
}

impl Buffer {
    fn new(
        frame: Frame,
        extents: &[usize],
        tile: &[usize],
        tiles: &[usize],
    ) -> Result<Self, KernelError> {
        let overflow = || KernelError::Overflow {
            extents: extents.to_vec(),
        };
        let (dims, unit, row_major) = match frame {
            Frame::RowMajor => (extents, 1, true),
            Frame::Tiles {
                tiles: grid,
                tile_space,
            } => {
                if grid != tiles {
                    return Err(KernelError::Grid {
                        expected: tiles.to_vec(),
                        found: grid.to_vec(),
                    });
                }
                (tiles, tile_space, false)
            }
        };
        let mut strides = vec![0; dims.len()];
        let mut space = unit;
        for (stride, &len) in strides.iter_mut().zip(dims).rev() {
            *stride = space;
            space = space.checked_mul(len).ok_or_else(overflow)?;
        }
        let units = match row_major {
            true => strides
                .iter()
                .zip(tile)
                .map(|(s, t)| s.checked_mul(*t))
                .collect::<Option<_>>()
                .ok_or_else(overflow)?,
            false => strides.clone(),
        };
        Ok(Buffer {
            space,
            strides,
            units,
            row_major,
        })
    }

    /// Elements a tile writes at consecutive offsets: one row of it in a row-major buffer,
    /// all of it in tiles.
    pub fn run_len(&self, tile: &[usize]) -> usize {
        match self.row_major {
            true => tile.last().copied().unwrap_or(0),
            false => self.units.last().copied().unwrap_or(0),
        }
    }

    /// How far the next tile along each coordinate starts, in elements.
    pub fn units(&self) -> &[usize] {
        &self.units
    }

    /// A plan's frame offset as an offset from the tile's start: the same for tiles; for a
    /// row-major buffer, the frame's row-major index within the tile, re-strided.
    pub fn frame_offset(&self, offset: usize, tile: &[usize]) -> usize {
        if !self.row_major {
            return offset;
        }
        let mut rest = offset;
        let mut result = 0;
        for (j, &t) in tile.iter().enumerate().rev() {
            result += rest % t * self.strides[j];
            rest /= t;
        }
        result
    }
}

/// `dst[to..to + len] = src[from..from + len]`, with the short lengths of swizzled layouts'
/// runs as fixed-size copies rather than calls to `memcpy`.
#[inline(always)]
fn copy_run<E: Element>(src: &[E], from: usize, dst: &mut [E], to: usize, len: usize) {
    fn fixed<E: Element, const N: usize>(src: &[E], from: usize, dst: &mut [E], to: usize) {
        let run: [E; N] = src[from..from + N].try_into().expect("N elements");
        dst[to..to + N].copy_from_slice(&run);
    }
    match len {
        1 => dst[to] = src[from],
        2 => fixed::<E, 2>(src, from, dst, to),
        4 => fixed::<E, 4>(src, from, dst, to),
        8 => fixed::<E, 8>(src, from, dst, to),
        _ => dst[to..to + len].copy_from_slice(&src[from..from + len]),
    }
}
