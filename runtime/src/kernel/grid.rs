//! The run-time part of a kernel: the grid of tiles over the extents, where each tile lies in
//! the source and destination buffers, and the copy of one band of tiles (one step of the
//! outermost coordinate), which is contiguous in every destination and so can go to its own
//! thread.

use super::network::Prepared;
use super::valid;
use super::{Element, Frame, KernelError, Plan, Side, TileFn, View};
use std::ops::Range;

/// One buffer of a copy.
pub struct Buffer {
    /// Elements the buffer must have: exactly (a row-major array, tiles), or at least (a
    /// view, which may lie in a larger buffer).
    pub space: usize,
    /// Whether the buffer must have exactly `space` elements.
    exact: bool,
    /// Offset of the first element.
    origin: usize,
    /// Element strides over the extents (row-major arrays and views), or the tile counts'
    /// row-major strides times the tile space (tiles).
    strides: Vec<usize>,
    /// How far the next tile along each coordinate starts.
    units: Vec<usize>,
    /// Whether the plan's frame offsets are row-major indices within the tile, placed by
    /// `strides` (row-major arrays and views), rather than offsets within a tile.
    per_element: bool,
    /// Tiles along the first coordinate that lie one after the other (stacked tiles; 1
    /// otherwise): `units[0]` steps within a stack, `stack_len` from stack to stack.
    stack: usize,
    stack_len: usize,
    /// Tiles placed by table (`Frame::Placed`): each coordinate's tile starts, which
    /// `units` and the stacks then do not describe (one stack holds the whole grid).
    placed: Option<Vec<Vec<usize>>>,
}

/// Destination bytes a band of stacks holds at most where a copy spreads over threads
/// ([`Grid::spread`]): a part of the threaded memcpy that the benches hold kernels to.
/// Bands of half and twice this ran slower (BENCHMARKS.md#copy-kernels).
const BAND_BYTES: usize = 256 << 10;

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

/// How a row's tiles go one by one: the full ones below `full_end` through `tile_fn` where
/// there is one (image rows `rows` apart), the others in runs.
#[derive(Clone, Copy)]
struct Singles<E> {
    full_end: usize,
    rows: [usize; 2],
    tile_fn: Option<TileFn<E>>,
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
    /// The runs' `[from, to]` offsets in 32 bits where a full tile's reach fits them: the
    /// full tiles' copy reads these, a quarter of the bytes of `runs`, so that a large
    /// tile's list stays in the L1 cache beside the data it moves.
    starts: Option<Vec<[u32; 2]>>,
    /// Tile-local coordinates of the runs' starts, `rank` values each.
    coords: Vec<usize>,
    /// How far past a full tile's starts its runs reach, in the source and the
    /// destination: one bounds check per tile covers every run.
    reach: [usize; 2],
    /// The length every run has, where they all have one (swizzled tiles' runs do).
    run_len: Option<usize>,
    /// The coordinate whose bands of tiles go to threads: the destination's outermost.
    split: usize,
    /// The coordinate rows of tiles run along (for the networks): the last one, unless it
    /// is `split` in more than one dimension.
    axis: usize,
    /// Where a band is this many consecutive stacks of a destination of two-coordinate
    /// tiles rather than a whole row of stacks ([`spread`](Self::spread)).
    band_stacks: Option<usize>,
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
        valid::check(plan, [&from.frame, &to.frame].map(valid::frame_space))?;
        let buffer = |side: Side| Buffer::new(side.frame, &extents, tile, &tiles);
        let (from, to) = (buffer(from)?, buffer(to)?);
        let strides = swizzle_core::ir::row_major_strides(tile).unwrap_or_default();
        let mut coords = Vec::with_capacity(plan.runs.len() * rank);
        let runs: Vec<Placed> = plan
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
        let reach = [
            runs.iter()
                .map(|run: &Placed| run.from + run.len)
                .max()
                .unwrap_or(0),
            runs.iter()
                .map(|run: &Placed| run.to + run.len)
                .max()
                .unwrap_or(0),
        ];
        let run_len = runs.first().map(|run: &Placed| run.len);
        let run_len = run_len.filter(|&len| runs.iter().all(|run| run.len == len));
        let starts = reach
            .iter()
            .all(|&reach| u32::try_from(reach).is_ok())
            .then(|| {
                runs.iter()
                    .map(|run| [run.from, run.to].map(|o| o as u32))
                    .collect()
            });
        let split = to.outermost(&extents);
        let last = rank - 1;
        let axis = match (split == last, last.checked_sub(1)) {
            (true, Some(before)) => before,
            _ => last,
        };
        Ok(Grid {
            tile,
            extents,
            tiles,
            full,
            from,
            to,
            runs,
            starts,
            coords,
            reach,
            run_len,
            split,
            axis,
            band_stacks: None,
        })
    }

    /// This grid spread over `parts` threads (1: the calling thread alone), for elements of
    /// `size` bytes, where its destination is tiles (stacked or not) of two coordinates:
    /// its bands are then runs of consecutive stacks, in memory order, across rows' ends,
    /// at least `parts` of them and each at most [`BAND_BYTES`]. A 1024-row level of
    /// 128-row blocks is 8 rows of stacks, which alone would leave most threads idle; a
    /// 4096-wide one's 32 rows, 2 MiB each, ran slower as bands than as parts of them that
    /// the threads share out more finely (BENCHMARKS.md#copy-kernels).
    pub fn spread(mut self, parts: usize, size: usize) -> Self {
        let tiled = !self.to.per_element && !self.to.is_placed();
        if parts > 1 && tiled && self.tiles.len() == 2 && self.split == 0 {
            let stack_bytes = self.to.units[1].saturating_mul(size).max(1);
            let stacks = self
                .stacks()
                .div_ceil(parts)
                .min(BAND_BYTES / stack_bytes)
                .max(1);
            // Whole rows of stacks are the bands already where they are no larger.
            if stacks < self.tiles[1] {
                self.band_stacks = Some(stacks);
            }
        }
        self
    }

    /// Rows of stacks along the first coordinate (rows of tiles where unstacked).
    fn stack_rows(&self) -> usize {
        self.tiles[0].div_ceil(self.to.stack)
    }

    /// Stacks of a destination of two-coordinate tiles, in all.
    fn stacks(&self) -> usize {
        self.stack_rows() * self.tiles[1]
    }

    /// Whether each side's runs are whole slices (not strided elements), so that networks of
    /// full registers can move them.
    pub fn runs_are_contiguous(&self) -> bool {
        self.from.run_stride() == 1 && self.to.run_stride() == 1
    }

    /// Lengths of one tile.
    pub fn tile(&self) -> &[usize] {
        self.tile
    }

    /// Elements of the destination that one band of tiles covers (0 when there is nothing to
    /// copy): bands start this far apart, from [`band_origin`](Self::band_origin), and hold
    /// every element of their tiles.
    pub fn band_len(&self) -> usize {
        let len = match (self.split, self.band_stacks) {
            (0, Some(stacks)) => stacks * self.to.units[1],
            (0, None) => self.to.stack_len,
            (split, _) => self.to.units[split],
        };
        match self.tiles.contains(&0) {
            true => 0,
            false => len.max(1),
        }
    }

    /// Where the first band starts in the destination.
    pub fn band_origin(&self) -> usize {
        self.to.origin
    }

    /// Tiles along the split coordinate per band: a stack of a stacked destination, else 1.
    fn band_tiles(&self) -> usize {
        match self.split {
            0 => self.to.stack,
            _ => 1,
        }
    }

    /// How many bands there are.
    pub fn bands(&self) -> usize {
        match self.band_stacks {
            Some(stacks) => self.stacks().div_ceil(stacks),
            None => self.tiles[self.split].div_ceil(self.band_tiles()),
        }
    }

    /// Copies band `band` (its tiles along the split coordinate) from `src` into `dst`, the
    /// band's part of the destination, row of tiles by row of tiles.
    pub fn copy_band<E: Element>(
        &self,
        band: usize,
        src: &[E],
        dst: &mut [E],
        network: Option<&Prepared>,
        tile_fn: Option<TileFn<E>>,
    ) {
        let shift = self.to.origin + band * self.band_len();
        if let Some(stacks) = self.band_stacks {
            // The band's stacks, row of stacks by row of stacks: each part of a row is the
            // rows of tiles of its stacks over its columns.
            let columns = self.tiles[1];
            let (mut at, end) = (band * stacks, ((band + 1) * stacks).min(self.stacks()));
            while at < end {
                let (row, column) = (at / columns, at % columns);
                let part = column..columns.min(column + end - at);
                let stack = row * self.to.stack..((row + 1) * self.to.stack).min(self.tiles[0]);
                for tile in stack {
                    let mut place = [tile, 0];
                    self.copy_row(&mut place, part.clone(), shift, src, dst, network, tile_fn);
                }
                at += part.len();
            }
            return;
        }
        let first = band * self.band_tiles();
        let along_split = first..(first + self.band_tiles()).min(self.tiles[self.split]);
        // Every place of the band with 0 along the rows' axis (the band itself along it in
        // one dimension, where the row is the one tile).
        let mut others = self.tiles.clone();
        others[self.split] = 1;
        others[self.axis] = 1;
        let count: usize = others.iter().product();
        let mut place = vec![0; others.len()];
        for tile in along_split {
            let row = match self.axis == self.split {
                true => tile..tile + 1,
                false => 0..self.tiles[self.axis],
            };
            // The places in row-major order, in one buffer (a band of small tiles has many).
            for index in 0..count {
                let mut rest = index;
                for (at, &n) in place.iter_mut().zip(&others).rev() {
                    (*at, rest) = (rest % n, rest / n);
                }
                place[self.split] = tile;
                self.copy_row(&mut place, row.clone(), shift, src, dst, network, tile_fn);
            }
        }
    }

    /// Copies the tiles `row` along the rows' axis at `place` (whose entry there this sets)
    /// into the band starting at `shift` of the destination: the full ones with the
    /// network where it takes them, in one call where their starts are equally spaced
    /// (else in one call per run of equally spaced tiles), the others in runs.
    #[allow(clippy::too_many_arguments)]
    fn copy_row<E: Element>(
        &self,
        place: &mut [usize],
        row: Range<usize>,
        shift: usize,
        src: &[E],
        dst: &mut [E],
        network: Option<&Prepared>,
        tile_fn: Option<TileFn<E>>,
    ) {
        let axis = self.axis;
        let outer_full = (0..place.len())
            .filter(|&i| i != axis)
            .all(|i| place[i] < self.full[i]);
        let full_end = match outer_full {
            true => self.full[axis].clamp(row.start, row.end),
            false => row.start,
        };
        // Where each tile of the row starts on both sides, in a few operations.
        let along = [self.from.along(place, axis), self.to.along(place, axis)];
        let at = |g: usize| [along[0].start(g), along[1].start(g) - shift];
        // Stacks break the spacing along the first coordinate, tables anywhere.
        let equally_spaced = !self.from.is_placed()
            && !self.to.is_placed()
            && (axis != 0 || (self.from.stack == 1 && self.to.stack == 1));
        let rows = [self.from.row(), self.to.row()];
        // Full tiles go through the straight-line tile where there is one.
        let tile_fn = tile_fn.filter(|_| self.runs_are_contiguous());
        let singles = Singles {
            full_end,
            rows,
            tile_fn,
        };
        if equally_spaced {
            let [from, to] = at(row.start);
            let tiles = Tiles {
                from,
                from_step: self.from.units[axis],
                to,
                to_step: self.to.units[axis],
                count: full_end - row.start,
            };
            let networked =
                tiles.count > 0 && network.is_some_and(|n| n.copy_row(src, dst, tiles, rows));
            let first = if networked { full_end } else { row.start };
            self.copy_singles(place, first..row.end, at, singles, src, dst);
            return;
        }
        // Tiles placed by table or in stacks: each run of full tiles equally spaced on both
        // sides (a pair of sub-tiles side by side in a Morton order, a stack) goes to the
        // network at once.
        // How far `next` lies from `here` on each side, where it lies further on.
        let step = |here: [usize; 2], next: [usize; 2]| {
            Some([next[0].checked_sub(here[0])?, next[1].checked_sub(here[1])?])
        };
        // Each tile's starts are found once: `next` is where the tile after the run starts
        // (unread where no tile is full).
        let mut g = row.start;
        let mut next = match g < full_end {
            true => at(g),
            false => [0, 0],
        };
        while g < full_end {
            let [from, to] = next;
            let mut end = g + 1;
            let mut spacing = None;
            if end < full_end {
                next = at(end);
                spacing = step([from, to], next);
                if spacing.is_some() {
                    let mut last = next;
                    end += 1;
                    while end < full_end {
                        next = at(end);
                        if step(last, next) != spacing {
                            break;
                        }
                        (last, end) = (next, end + 1);
                    }
                }
            }
            let [from_step, to_step] = spacing.unwrap_or([0, 0]);
            let tiles = Tiles {
                from,
                from_step,
                to,
                to_step,
                count: end - g,
            };
            if !network.is_some_and(|n| n.copy_row(src, dst, tiles, rows)) {
                self.copy_singles(place, g..end, at, singles, src, dst);
            }
            g = end;
        }
        self.copy_singles(place, full_end..row.end, at, singles, src, dst);
    }

    /// The tiles `tiles` along the rows' axis at `place` one by one, each at its starts
    /// `at(g)`: full ones through the straight-line tile or in runs, the others cut at the
    /// extents.
    fn copy_singles<E: Element>(
        &self,
        place: &mut [usize],
        tiles: Range<usize>,
        at: impl Fn(usize) -> [usize; 2],
        singles: Singles<E>,
        src: &[E],
        dst: &mut [E],
    ) {
        for g in tiles {
            place[self.axis] = g;
            let [from, to] = at(g);
            match (g < singles.full_end, singles.tile_fn) {
                (true, Some(tile_fn)) => tile_fn(&src[from..], &mut dst[to..], singles.rows),
                (full, _) => self.copy_runs(place, full, src, from, dst, to),
            }
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
        if full && self.runs_are_contiguous() {
            let fits = from
                .checked_add(self.reach[0])
                .is_some_and(|end| end <= src.len())
                && to
                    .checked_add(self.reach[1])
                    .is_some_and(|end| end <= dst.len());
            if !fits {
                // Never for a grid the copy checked; kept so that no path can go past.
                for run in &self.runs {
                    copy_run(src, from + run.from, dst, to + run.to, run.len);
                }
                return;
            }
            // SAFETY: every run of a full tile ends at most `reach` past the tile's starts,
            // which lie inside `src` and `dst` (checked just above).
            unsafe {
                let (src, dst) = (src.as_ptr().add(from), dst.as_mut_ptr().add(to));
                match (self.run_len, &self.starts) {
                    (Some(1), Some(starts)) => copy_fixed::<E, 1>(starts, src, dst),
                    (Some(2), Some(starts)) => copy_fixed::<E, 2>(starts, src, dst),
                    (Some(4), Some(starts)) => copy_fixed::<E, 4>(starts, src, dst),
                    (Some(8), Some(starts)) => copy_fixed::<E, 8>(starts, src, dst),
                    (Some(16), Some(starts)) => copy_fixed::<E, 16>(starts, src, dst),
                    _ => {
                        for run in &self.runs {
                            std::ptr::copy_nonoverlapping(
                                src.add(run.from),
                                dst.add(run.to),
                                run.len,
                            );
                        }
                    }
                }
            }
        } else {
            self.copy_inside(place, src, from, dst, to);
        }
    }

    /// The runs of the tile at `place`, cut at the extents (an edge tile's): slice copies,
    /// or element by element where a side's neighbours along the last coordinate are not
    /// adjacent (a column-major view; there a full tile's runs are all inside, and the check
    /// costs little beside strided copies).
    fn copy_inside<E: Element>(
        &self,
        place: &[usize],
        src: &[E],
        from: usize,
        dst: &mut [E],
        to: usize,
    ) {
        let [from_stride, to_stride] = [self.from.run_stride(), self.to.run_stride()];
        let contiguous = self.runs_are_contiguous();
        for (run, len) in self.runs_inside(place) {
            let (from, to) = (from + run.from, to + run.to);
            match contiguous {
                true => copy_run(src, from, dst, to, len),
                false => {
                    for i in 0..len {
                        dst[to + i * to_stride] = src[from + i * from_stride];
                    }
                }
            }
        }
    }

    /// The runs of the tile at `place` with how many of their elements lie inside the
    /// extents (those with none left out).
    fn runs_inside<'g>(
        &'g self,
        place: &[usize],
    ) -> impl Iterator<Item = (&'g Placed, usize)> + 'g {
        let rank = self.tile.len();
        // How many coordinates of this tile lie inside the extents, along each coordinate.
        let inside: Vec<usize> = place
            .iter()
            .zip(self.tile)
            .zip(&self.extents)
            .map(|((g, t), e)| (e - g * t).min(*t))
            .collect();
        self.runs.iter().filter_map(move |run| {
            let coord = &self.coords[run.coord..run.coord + rank];
            let (last, outer) = coord.split_last().unwrap_or((&0, &[]));
            let outside =
                outer.iter().zip(&inside).any(|(c, i)| c >= i) || *last >= inside[rank - 1];
            (!outside).then(|| (run, run.len.min(inside[rank - 1] - last)))
        })
    }
}

/// Where the tiles of one row of a grid start in a buffer ([`Buffer::along`]): tile `g`
/// of the row at `base` plus its step along the row.
struct Along<'b> {
    base: usize,
    step: Step<'b>,
}

/// How the tiles of a row lie along it.
enum Step<'b> {
    /// Placed by table: the row's coordinate's starts.
    Table(&'b [usize]),
    /// Down the first coordinate: `unit` apart within a stack of `stack`, `stack_len` from
    /// stack to stack.
    Stacked {
        stack: usize,
        stack_len: usize,
        unit: usize,
    },
    /// Equally spaced, `unit` apart.
    Unit(usize),
}

impl Along<'_> {
    #[inline]
    fn start(&self, g: usize) -> usize {
        self.base
            + match self.step {
                Step::Table(starts) => starts[g],
                Step::Stacked {
                    stack,
                    stack_len,
                    unit,
                } => g / stack * stack_len + g % stack * unit,
                Step::Unit(unit) => g * unit,
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
        let row_major_strides = |dims: &[usize], unit: usize| {
            let mut strides = vec![0; dims.len()];
            let mut space = unit;
            for (stride, &len) in strides.iter_mut().zip(dims).rev() {
                *stride = space;
                space = space.checked_mul(len).ok_or_else(overflow)?;
            }
            Ok((strides, space))
        };
        let check_grid = |grid: &[usize]| match grid == tiles {
            true => Ok(()),
            false => Err(KernelError::Grid {
                expected: tiles.to_vec(),
                found: grid.to_vec(),
            }),
        };
        // For stacked tiles: the tiles per stack, and how far apart the stacks lie.
        let mut stacking = None;
        let mut placed = None;
        let (strides, space, origin, exact, per_element) = match frame {
            Frame::RowMajor => {
                let (strides, space) = row_major_strides(extents, 1)?;
                (strides, space, 0, true, true)
            }
            Frame::Strided { strides, origin } => {
                let view = View::strided(extents, strides, origin)?;
                let reach = view.reach().ok_or_else(overflow)?;
                (strides.to_vec(), reach, origin, false, true)
            }
            Frame::Tiles {
                tiles: grid,
                tile_space,
            } => {
                check_grid(grid)?;
                let (strides, space) = row_major_strides(tiles, tile_space)?;
                (strides, space, 0, true, false)
            }
            Frame::Stacked {
                tiles: grid,
                tile_space,
                stack: height,
            } => {
                check_grid(grid)?;
                if height == 0 || tiles.len() < 2 {
                    return Err(KernelError::Stack {
                        stack: height,
                        rank: tiles.len(),
                    });
                }
                // Row-major over the stacks: the first coordinate counts stacks of
                // `height` tiles, each stack `height` tiles long.
                let mut stacks = tiles.to_vec();
                stacks[0] = tiles[0].div_ceil(height);
                let unit = tile_space.checked_mul(height).ok_or_else(overflow)?;
                let (mut strides, space) = row_major_strides(&stacks, unit)?;
                stacking = Some((height, strides[0]));
                // Within a stack, the next tile along the first coordinate is the next
                // tile in memory (a stack of one is plain row-major tiles).
                if height > 1 {
                    strides[0] = tile_space;
                }
                (strides, space, 0, true, false)
            }
            Frame::Placed {
                tiles: grid,
                tile_space,
                starts,
            } => {
                check_grid(grid)?;
                let lens: Vec<usize> = starts.iter().map(|s| s.len()).collect();
                if lens != tiles {
                    return Err(KernelError::Starts {
                        grid: tiles.to_vec(),
                        starts: lens,
                    });
                }
                // The furthest tile's end: every coordinate's furthest start, plus a tile.
                let furthest = starts
                    .iter()
                    .map(|s| s.iter().copied().max().unwrap_or(0))
                    .try_fold(tile_space, |sum, start| sum.checked_add(start))
                    .ok_or_else(overflow)?;
                // One stack of the whole grid: a placed destination is one band.
                stacking = Some((tiles.first().copied().unwrap_or(1).max(1), furthest));
                placed = Some(starts.iter().map(|s| s.to_vec()).collect());
                (vec![0; tiles.len()], furthest, 0, false, false)
            }
        };
        let units: Vec<usize> = match per_element {
            true => strides
                .iter()
                .zip(tile)
                .map(|(s, t)| s.checked_mul(*t))
                .collect::<Option<_>>()
                .ok_or_else(overflow)?,
            false => strides.clone(),
        };
        // Unstacked, each tile along the first coordinate is a stack of one.
        let (stack, stack_len) =
            stacking.unwrap_or_else(|| (1, units.first().copied().unwrap_or(0)));
        Ok(Buffer {
            space,
            exact,
            origin,
            strides,
            units,
            per_element,
            stack,
            stack_len,
            placed,
        })
    }

    /// Whether the frame places its tiles by table (`Frame::Placed`).
    pub fn is_placed(&self) -> bool {
        self.placed.is_some()
    }

    /// Where the tiles of the row along `axis` through `place` start, each in a few
    /// operations (the copy of a row of tiles placed by table or in stacks asks for every
    /// tile's start, and a row may be a pair of small tiles).
    fn along<'b>(&'b self, place: &[usize], axis: usize) -> Along<'b> {
        // The row's tile 0; a table's start for it is the step's own.
        let base = self.start_where(|i| if i == axis { 0 } else { place[i] });
        match &self.placed {
            Some(starts) => Along {
                base: base - starts[axis][0],
                step: Step::Table(&starts[axis]),
            },
            None => Along {
                base,
                step: match axis {
                    0 => Step::Stacked {
                        stack: self.stack,
                        stack_len: self.stack_len,
                        unit: self.units[0],
                    },
                    _ => Step::Unit(self.units[axis]),
                },
            },
        }
    }

    /// Where the tile whose `i`-th grid coordinate is `coordinate(i)` starts.
    fn start_where(&self, coordinate: impl Fn(usize) -> usize) -> usize {
        if let Some(starts) = &self.placed {
            return (0..starts.len()).map(|i| starts[i][coordinate(i)]).sum();
        }
        let first = coordinate(0);
        let within: usize = (1..self.units.len())
            .map(|i| coordinate(i) * self.units[i])
            .sum();
        self.origin
            + first / self.stack * self.stack_len
            + first % self.stack * self.units[0]
            + within
    }

    /// The buffer's length, checked against what its frame needs.
    pub fn check_len(&self, side: &'static str, found: usize) -> Result<(), KernelError> {
        match (self.exact, found) {
            (true, found) if found != self.space => Err(KernelError::Length {
                side,
                expected: self.space,
                found,
            }),
            (false, found) if found < self.space => Err(KernelError::Reach {
                side,
                needed: self.space,
                found,
            }),
            _ => Ok(()),
        }
    }

    /// Elements between the rows of a two-coordinate tile in a row-major array or a view
    /// (what a generated tile takes), 0 for tiles.
    fn row(&self) -> usize {
        match (self.per_element, &self.strides[..]) {
            (true, [row, _]) => *row,
            _ => 0,
        }
    }

    /// Elements between neighbours along the last coordinate: 1 in a row-major array and in
    /// a layout's runs, the view's stride otherwise.
    fn run_stride(&self) -> usize {
        match self.per_element {
            true => self.strides.last().copied().unwrap_or(1),
            false => 1,
        }
    }

    /// The coordinate whose tiles lie furthest apart: its bands of tiles occupy disjoint
    /// ranges of the buffer, one after the other (a view's coordinates of one element
    /// never decide it).
    fn outermost(&self, extents: &[usize]) -> usize {
        match self.per_element {
            false => 0,
            true => (0..extents.len())
                .filter(|&i| extents[i] > 1)
                .max_by_key(|&i| (self.strides[i], std::cmp::Reverse(i)))
                .unwrap_or(0),
        }
    }
    /// How a tile lies in the buffer where it is rows of contiguous elements and the tiles
    /// of a row of tiles lie one after the other: its rows and elements per row. A 2-D
    /// image's tile is its image rows; a layout's tiles, unstacked, are one row each (its
    /// tile space: whether every element of it is written is the copy's to say).
    pub fn abutting_rows(&self, tile: &[usize]) -> Option<[usize; 2]> {
        match (self.per_element, tile, &self.units[..]) {
            (true, &[rows, width], &[_, unit]) if self.run_stride() == 1 && unit == width => {
                Some([rows, width])
            }
            (false, _, &[.., run]) if self.stack == 1 && self.placed.is_none() => Some([1, run]),
            _ => None,
        }
    }

    /// Elements a tile writes at consecutive offsets: one row of it in a row-major buffer,
    /// all of it in tiles.
    pub fn run_len(&self, tile: &[usize]) -> usize {
        match self.per_element {
            true if self.run_stride() == 1 => tile.last().copied().unwrap_or(0),
            true => 1,
            false => self.units.last().copied().unwrap_or(0),
        }
    }

    /// How far the next tile along each coordinate starts, in elements.
    pub fn units(&self) -> &[usize] {
        &self.units
    }

    /// A plan's frame offset as an offset from the tile's start: the same for tiles; for a
    /// row-major array or a view, the frame's row-major index within the tile, re-strided.
    pub fn frame_offset(&self, offset: usize, tile: &[usize]) -> usize {
        if !self.per_element {
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

/// The runs of a full tile, each `N` elements from its `[from, to]` starts, from the tile
/// at `src` to the tile at `dst`: one fixed-size move each (a 16-byte run is one vector
/// load and store).
///
/// # Safety
/// Every run's `N` elements lie inside the source buffer past `src` and inside the
/// destination buffer past `dst`, and the two buffers do not overlap.
#[inline(always)]
unsafe fn copy_fixed<E: Element, const N: usize>(starts: &[[u32; 2]], src: *const E, dst: *mut E) {
    for &[from, to] in starts {
        // SAFETY: the caller's contract; `[E; N]` has `E`'s alignment or less demands
        // (read and written unaligned).
        unsafe {
            let value = src.add(from as usize).cast::<[E; N]>().read_unaligned();
            dst.add(to as usize).cast::<[E; N]>().write_unaligned(value);
        }
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
