//! The run-time part of a kernel: the grid of tiles over the extents, where each tile lies in
//! the source and destination buffers, and the copy of one band of tiles (one step of the
//! outermost coordinate), which is contiguous in every destination and so can go to its own
//! thread.

use super::network::Prepared;
use super::valid::{self, FrameSpace};
use super::{Element, Frame, KernelError, Plan, Side};

/// One buffer of a copy.
pub struct Buffer {
    /// Elements the buffer must have.
    pub space: usize,
    /// Row-major strides over the extents (for a row-major buffer), or the tile counts'
    /// row-major strides times the tile space (for tiles).
    strides: Vec<usize>,
    row_major: bool,
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
        let buffer = |side: Side| Buffer::new(side.frame, &extents, &tiles);
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
        Ok(Grid {
            tile,
            extents,
            tiles,
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
        match (self.to.space, self.to.row_major) {
            (0, _) => 0,
            (_, true) => self.tile[0] * self.to.strides[0],
            (_, false) => self.to.strides[0],
        }
    }

    /// Copies band `band` (the tiles at `band` along the first coordinate) from `src` into
    /// `dst`, the band's part of the destination.
    pub fn copy_band<E: Element>(
        &self,
        band: usize,
        src: &[E],
        dst: &mut [E],
        network: Option<&Prepared>,
    ) {
        let shift = band * self.band_len();
        let inner = &self.tiles[1..];
        for rest in swizzle_core::ir::coordinates(inner) {
            let place: Vec<usize> = [band].into_iter().chain(rest).collect();
            let (from, to) = (
                self.from.base(&place, self.tile),
                self.to.base(&place, self.tile) - shift,
            );
            let full = place
                .iter()
                .zip(self.tile)
                .zip(&self.extents)
                .all(|((g, t), e)| (g + 1) * t <= *e);
            if full {
                let copied = network.is_some_and(|network| network.copy_tile(src, from, dst, to));
                if !copied {
                    for run in &self.runs {
                        let (s, d) = (from + run.from, to + run.to);
                        dst[d..d + run.len].copy_from_slice(&src[s..s + run.len]);
                    }
                }
            } else {
                self.copy_partial(&place, src, from, dst, to);
            }
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
            let (s, d) = (from + run.from, to + run.to);
            dst[d..d + len].copy_from_slice(&src[s..s + len]);
        }
    }
}

impl Buffer {
    fn new(frame: Frame, extents: &[usize], tiles: &[usize]) -> Result<Self, KernelError> {
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
        Ok(Buffer {
            space,
            strides,
            row_major,
        })
    }

    /// Where the tile at grid place `place` starts.
    fn base(&self, place: &[usize], tile: &[usize]) -> usize {
        let scale = |(j, g): (usize, &usize)| match self.row_major {
            true => g * tile[j] * self.strides[j],
            false => g * self.strides[j],
        };
        place.iter().enumerate().map(scale).sum()
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
