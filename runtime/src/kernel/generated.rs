//! What `layout!` generated for a kernel's full tiles, and the copy that runs it: the
//! generated code's side of the contract, reached through `__private` only.

use super::route::{Reason, Route, TileCopy};
use super::{
    Element, Grid, KernelError, Level, Options, Plan, Side, TileFn, cache, network, options, simd,
    valid,
};

/// What `layout!` generated for a kernel's full tiles of `E` (its hidden `K::code()`): the
/// straight-line runs of one tile, and rows of tiles as SIMD code per level for `E`'s size.
/// Each must copy exactly the plan's runs (the macro's do); hand-written plans have neither
/// ([`GeneratedCode::NONE`]).
#[derive(Clone, Copy, Debug)]
pub struct GeneratedCode<E> {
    pub tile: Option<TileFn<E>>,
    pub rows: simd::Rows,
}

impl<E: Element> GeneratedCode<E> {
    /// No generated code: the runtime's networks and runs copy every tile.
    pub const NONE: GeneratedCode<E> = GeneratedCode {
        tile: None,
        rows: simd::Rows::NONE,
    };

    /// What `layout!` generated for kernel `K`: the rows and the straight-line tile the
    /// runtime unrolls from its tables.
    pub fn of<K: simd::FullTiles>() -> Self {
        let unrolled = !K::RUNS.is_empty() && K::RUNS.len() <= simd::MAX_UNROLLED;
        GeneratedCode {
            tile: unrolled.then_some(simd::full_tile::<K, E> as TileFn<E>),
            rows: simd::Rows::generated::<K, E>(),
        }
    }

    /// The route a copy of `E` with `plan`, this code and `options` takes on this CPU. With
    /// no level in `options`: the widest available level with generated rows; else runs,
    /// where there is a straight-line tile; else the widest level with a network. A level
    /// this CPU does not run is an error, as the copy's.
    pub fn route(&self, plan: &Plan, options: Options) -> Result<Route, KernelError> {
        let has_rows =
            |level: Level| self.rows.bind(level).is_some() && level.network::<E>(plan).is_some();
        // The cost model's part for generated rows: they pay where the tile's source
        // registers fit the level's register file; past it, the straight-line code spills.
        let rows_pay = |level: Level| {
            has_rows(level)
                && level
                    .network::<E>(plan)
                    .is_some_and(|network| level.fits_registers(network))
        };
        let (level, reason) = match options.level {
            Some(level) if !level.is_available() => return Err(KernelError::Unsupported(level)),
            Some(level) => (level, Reason::Pinned),
            None => match Level::ALL
                .into_iter()
                .rev()
                .find(|&l| l.is_available() && rows_pay(l))
            {
                Some(level) => (level, Reason::WidestGenerated),
                None if self.tile.is_some() => (Level::Scalar, Reason::StraightLineFirst),
                None => match super::interpreted_level::<E>(plan) {
                    Level::Scalar
                        if Level::ALL
                            .iter()
                            .any(|l| l.is_available() && l.network::<E>(plan).is_some()) =>
                    {
                        (Level::Scalar, Reason::LargeNetwork)
                    }
                    Level::Scalar => (Level::Scalar, Reason::NoNetwork),
                    level => (level, Reason::WidestNetwork),
                },
            },
        };
        let tiles = match (level.network::<E>(plan).is_some(), self.tile) {
            (true, _) if has_rows(level) => TileCopy::GeneratedRows,
            (true, _) => TileCopy::InterpretedNetwork,
            (false, Some(_)) => TileCopy::StraightLineTile,
            (false, None) => TileCopy::Runs,
        };
        Ok(Route {
            level,
            tiles,
            reason,
            element_size: size_of::<E>(),
        })
    }

    /// The level a copy of `E` with `plan` and this code takes on this CPU, as `route`
    /// gives it with default options. Users reached it as `K::code::<E>().level(K::plan())`.
    #[deprecated(
        since = "0.2.0",
        note = "call `K::route::<E>(options)` (or `kernel::route`): its `level`, and what copies the full tiles and why"
    )]
    pub fn level(&self, plan: &Plan) -> Level {
        // Default options pin no level, so every level the route considers is available.
        self.route(plan, Options::default())
            .map_or(Level::Scalar, |route| route.level)
    }
}

/// [`copy_with`](super::copy_with) with the code `layout!` generated for
/// the plan's full tiles: full tiles go through its SIMD rows where it has the level,
/// through its straight-line tile where the level has no network, on the
/// [`GeneratedCode::route`] of `options`.
pub fn copy_generated<E: Element>(
    options: Options,
    plan: &Plan,
    code: GeneratedCode<E>,
    from: Side,
    to: Side,
    src: &[E],
    dst: &mut [E],
) -> Result<(), KernelError> {
    PreparedCopy::new(options, plan, code, from, to, dst.len())?.run(src, dst)
}

/// A [`copy_generated`] made ready once and run on many pairs of buffers of the same shape:
/// the route is taken, the plan checked, the grid of tiles and the network laid out once.
/// A level larger than one kernel call (a PS3 Morton square of 64 × 64 tiles) copies each
/// tile with one, its buffers sliced at the tile's places.
pub struct PreparedCopy<'p, E> {
    threads: Option<std::num::NonZeroUsize>,
    code: GeneratedCode<E>,
    grid: Grid<'p>,
    network: Option<network::Prepared>,
}

impl<'p, E: Element> PreparedCopy<'p, E> {
    /// The copy of `copy_generated(options, plan, code, from, to, ..)`, for destinations
    /// that together hold `destination_len` elements (whether stores may bypass the caches
    /// depends on it).
    pub fn new(
        options: Options,
        plan: &'p Plan,
        code: GeneratedCode<E>,
        from: Side,
        to: Side,
        destination_len: usize,
    ) -> Result<Self, KernelError> {
        let level = code.route(plan, options)?.level;
        // Bands of stacks as small as `Grid::spread` says, where the copy spreads over
        // threads.
        let bytes = destination_len.saturating_mul(size_of::<E>());
        let threads = options.threads_for(bytes, usize::MAX);
        let grid = Grid::new(plan, from, to)?.spread(threads, size_of::<E>());
        // The one network the copy runs, checked as the grid checked the runs.
        let network = match level.network::<E>(plan) {
            Some(network) if grid.runs_are_contiguous() => {
                let frames = [&from.frame, &to.frame].map(valid::frame_space);
                valid::check_network(plan, network, frames)?;
                let stream = cache::stores_stream(options, bytes, grid.bands());
                Some(network::Prepared::new::<E>(
                    level, network, code.rows, &grid, stream,
                ))
            }
            _ => None,
        };
        Ok(PreparedCopy {
            threads: options.threads,
            code,
            grid,
            network,
        })
    }

    /// Copies `src` into `dst`; a buffer shorter than its side's frame (or, for arrays and
    /// tiles, of another length) is an error, before anything is written.
    pub fn run(&self, src: &[E], dst: &mut [E]) -> Result<(), KernelError> {
        let grid = &self.grid;
        grid.from.check_len("source", src.len())?;
        grid.to.check_len("destination", dst.len())?;
        let band = grid.band_len();
        if band == 0 {
            return Ok(());
        }
        let (network, tile) = (self.network.as_ref(), self.code.tile);
        // Bands lie one after the other from the destination's first element; a view's buffer
        // may go on past the last one.
        options::for_each_band(
            &mut dst[grid.band_origin()..],
            band,
            grid.bands(),
            self.threads,
            |index, band| grid.copy_band(index, src, band, network, tile),
        );
        Ok(())
    }
}

/// What a kernel's deprecated `PLAN` constant holds: its `plan()`, behind `Deref`, so that
/// code written when the plan was a constant (`&K::PLAN`, `K::PLAN.runs`) still compiles.
#[derive(Clone, Copy)]
pub struct PlanConstant(pub fn() -> &'static Plan);

impl std::ops::Deref for PlanConstant {
    type Target = Plan;

    fn deref(&self) -> &Plan {
        (self.0)()
    }
}
