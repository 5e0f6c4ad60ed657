//! A kernel's full tiles as constant tables, and the generic code that runs them: `layout!`
//! emits each permute network once per lane count ([`Network`]) and the straight-line
//! tile's runs ([`FullTiles::RUNS`]); [`rows`] (one tile loop for every level, each
//! level's step in x86.rs and neon.rs) and [`full_tile`] unroll them here, with every step's offsets and controls computed at
//! compile time ([`Steps::of`], once per kernel, level and element size, from `swizzle_core::simd::Permute`), so that after inlining
//! they are the constants of straight-line code, as if the macro had printed it.

use super::super::{CACHE_LINE, Element};
use super::TileRow;
use std::marker::PhantomData;
use swizzle_core::simd::{Level, Permute, Units};

/// The most steps of a network, and runs of a tile, the runtime unrolls: larger ones are
/// not emitted (the runtime's interpreted networks and its loop over the plan's runs copy
/// them).
pub const MAX_UNROLLED: usize = 256;

/// Repeats `$body` with `$i` a `const usize` from 0 to [`MAX_UNROLLED`] - 1: straight-line
/// code over a constant table, each index's branch folded at compile time.
macro_rules! unroll {
    ($i:ident => $body:block) => {
        unroll!(@high [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15] $i $body)
    };
    (@high [$($high:literal)*] $i:ident $body:block) => {
        $(unroll!(@low $high [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15] $i $body);)*
    };
    (@low $high:literal [$($low:literal)*] $i:ident $body:block) => {
        $({
            const $i: usize = $high * 16 + $low;
            $body
        })*
    };
}

/// A permute network of full tiles as const data, for registers of `lanes` elements.
#[derive(Clone, Copy, Debug)]
pub struct Network {
    pub lanes: usize,
    /// Where each source register starts, in elements of the source's frame.
    pub loads: &'static [usize],
    /// Where each destination register starts, in elements of the destination's frame.
    pub stores: &'static [usize],
    /// Per step, grouped by store: its store and load (indices into `stores`, `loads`),
    /// the destination lanes it writes (bit `i` for lane `i`) and its map (an index into
    /// `maps`).
    pub steps: &'static [(usize, usize, u64, usize)],
    /// The distinct lane maps of the steps: for each destination lane, its source lane.
    pub maps: &'static [&'static [u8]],
}

/// The offsets of `N` registers of `lanes` elements one after the other from a tile's
/// start: a network's loads or stores where it reads or writes every register in order.
pub const fn every<const N: usize>(lanes: usize) -> [usize; N] {
    let (mut offsets, mut i) = ([0; N], 0);
    while i < N {
        offsets[i] = i * lanes;
        i += 1;
    }
    offsets
}

/// A run of the straight-line tile: its offsets in the source and destination frames, its
/// length. On the row-major image's side the offset is the run's row-major index in the tile.
pub type Run = (usize, usize, usize);

/// What `layout!` emits for a kernel's full tiles (the kernel type implements it).
pub trait FullTiles {
    /// The side that is a row-major image (0: the source, 1: the destination) and the
    /// tile's columns; `None` between two layouts.
    const IMAGE: Option<(usize, usize)>;
    /// One network per lane count that generated rows run.
    const NETWORKS: &'static [Network];
    /// The straight-line tile's runs; empty where the tile is not unrolled.
    const RUNS: &'static [Run];
}

/// The network of `lanes` among `networks`, if any.
pub const fn network(networks: &'static [Network], lanes: usize) -> Option<&'static Network> {
    let mut i = 0;
    while i < networks.len() {
        if networks[i].lanes == lanes && networks[i].steps.len() <= MAX_UNROLLED {
            return Some(&networks[i]);
        }
        i += 1;
    }
    None
}

/// Whether `K` has rows for `level` and elements of `size` bytes.
pub const fn has_rows<K: FullTiles>(level: Level, size: usize) -> bool {
    network(K::NETWORKS, level.lanes(size)).is_some()
}

/// Where a register lies in one side of a tile: the image row (0 for a tile) and the byte
/// offset in it.
#[derive(Clone, Copy, Debug)]
pub struct Place {
    pub row: usize,
    pub at: usize,
}

/// How one side of a tile is sliced: into `rows` image rows of `span` bytes, or one slice
/// of `span` bytes from the tile's start (`rows` 1).
#[derive(Clone, Copy, Debug)]
pub struct Span {
    pub span: usize,
    pub rows: usize,
}

impl Span {
    /// The side of the tile at `start` (image rows `pitch` apart), bounds-checked once.
    #[inline(always)]
    pub fn window(self, bytes: &[u8], start: usize, pitch: usize) -> Window<'_, u8> {
        Window::new(bytes, start, self.rows, pitch, self.span)
    }

    /// [`window`](Self::window) to write.
    #[inline(always)]
    pub fn window_mut(self, bytes: &mut [u8], start: usize, pitch: usize) -> WindowMut<'_, u8> {
        WindowMut::new(bytes, start, self.rows, pitch, self.span)
    }
}

/// The elements one tile reaches on one side: `rows` rows of `len` elements, `pitch` apart,
/// checked to lie inside the buffer once, when the tile starts, so that reading a row at a
/// constant index checks nothing more (the straight-line code of a tile reads a row per step).
#[derive(Clone, Copy, Debug)]
pub struct Window<'a, T> {
    items: &'a [T],
    rows: usize,
    pitch: usize,
    len: usize,
}

/// Elements from `start` to the end of row `rows - 1` of rows `len` long, `pitch` apart.
#[inline(always)]
fn window_reach(rows: usize, pitch: usize, len: usize) -> usize {
    rows.saturating_sub(1)
        .checked_mul(pitch)
        .and_then(|reach| reach.checked_add(len))
        .expect("a tile's rows within the address space")
}

impl<'a, T> Window<'a, T> {
    /// The window of `rows` rows of `len` elements from `start`, `pitch` apart.
    ///
    /// # Panics
    /// Where the rows reach past `items`.
    #[inline(always)]
    pub fn new(items: &'a [T], start: usize, rows: usize, pitch: usize, len: usize) -> Self {
        let items = &items[start..][..window_reach(rows, pitch, len)];
        Window {
            items,
            rows,
            pitch,
            len,
        }
    }

    /// Row `row` (the tile, for a window of one row).
    ///
    /// # Panics
    /// Where `row` is not below the window's rows (a constant check in unrolled code; its
    /// message formats nothing, so that the window's fields stay in registers).
    #[inline(always)]
    pub fn row(&self, row: usize) -> &'a [T] {
        assert!(row < self.rows, "a row past the tile's window");
        // SAFETY: `new` checked that rows `0..rows` of `len` elements, `pitch` apart, lie
        // in `items`, with `(rows - 1) · pitch + len` computed without overflow; `row` is
        // one of them.
        unsafe { std::slice::from_raw_parts(self.items.as_ptr().add(row * self.pitch), self.len) }
    }
}

/// [`Window`] to write.
#[derive(Debug)]
pub struct WindowMut<'a, T> {
    items: &'a mut [T],
    rows: usize,
    pitch: usize,
    len: usize,
}

impl<'a, T> WindowMut<'a, T> {
    /// The window of `rows` rows of `len` elements from `start`, `pitch` apart.
    ///
    /// # Panics
    /// Where the rows reach past `items`.
    #[inline(always)]
    pub fn new(items: &'a mut [T], start: usize, rows: usize, pitch: usize, len: usize) -> Self {
        let items = &mut items[start..][..window_reach(rows, pitch, len)];
        WindowMut {
            items,
            rows,
            pitch,
            len,
        }
    }

    /// Row `row` to write, borrowed from the window while it is written.
    ///
    /// # Panics
    /// Where `row` is not below the window's rows (a constant check in unrolled code).
    #[inline(always)]
    pub fn row(&mut self, row: usize) -> &mut [T] {
        assert!(row < self.rows, "a row past the tile's window");
        // SAFETY: as in `Window::row`, the row lies in `items`, which `self` borrows
        // mutably; the row borrows `self` mutably, so no other row is alive beside it.
        unsafe {
            std::slice::from_raw_parts_mut(self.items.as_mut_ptr().add(row * self.pitch), self.len)
        }
    }
}

/// One step of a network as a level's rows run it, computed at compile time.
#[derive(Clone, Copy, Debug)]
pub struct Op {
    /// Whether the network has this step (the unrolled code has room for more).
    pub present: bool,
    /// The step's index among its store's steps, and how many that store has.
    pub index: usize,
    pub count: usize,
    /// A single step that stores its load as it is.
    pub identity: bool,
    pub load: Place,
    pub store: Place,
}

impl Op {
    /// Whether this is its store's last step: the register is then stored.
    pub const fn last(&self) -> bool {
        self.index + 1 == self.count
    }
}

/// Every step of `K`'s network for one level and element size, as its unrolled rows take
/// them ([`Op`]s past the network are not present), with its controls, and how the rows
/// slice each side. Computed once per kernel, level and element type ([`Unrolled`]); each
/// unrolled step reads its constants from it.
#[derive(Clone, Copy, Debug)]
pub struct Steps {
    pub ops: [Op; MAX_UNROLLED],
    /// Each step's control in the units of the level's permutes.
    pub controls: [Units; MAX_UNROLLED],
    /// The control of a one-register permute: the step's control with the level's fill
    /// where the step does not write.
    pub singles: [Units; MAX_UNROLLED],
    /// At an odd index in its store, the control of the two-register permute of the step
    /// before and this one (AVX-512 `vpermt2`, NEON two-table lookups); else the single.
    pub pairs: [Units; MAX_UNROLLED],
    pub sides: [Span; 2],
    /// Destination rows per pass over a group of tiles: every row but where a tile writes
    /// more than [`ROWS_PER_PASS`] rows of whole cache lines.
    pub rows_per_pass: usize,
}

impl Steps {
    /// Passes over a group of tiles, each writing `rows_per_pass` destination rows.
    pub const fn passes(&self) -> usize {
        self.sides[1].rows.div_ceil(self.rows_per_pass)
    }

    /// Tiles per group that the passes go over: [`PASS_BYTES`] of source (where a tile has
    /// passes, it writes image rows and its source is the tile); 1 where it has one pass.
    pub const fn pass_tiles(&self) -> usize {
        let tile_bytes = self.sides[0].span;
        match self.passes() > 1 && tile_bytes < PASS_BYTES {
            true => PASS_BYTES / tile_bytes,
            false => 1,
        }
    }

    /// Whether step `i` is present and stores into a row of pass `pass`.
    pub const fn in_pass(&self, i: usize, pass: usize) -> bool {
        self.ops[i].present && self.ops[i].store.row / self.rows_per_pass == pass
    }

    /// The steps of `K`'s network for `level` and elements of `size` bytes.
    pub const fn of<K: FullTiles>(level: Level, size: usize) -> Steps {
        let permute = Permute::new(level, size);
        // What a lookup writes where no step does: NEON's `tbx` keeps the register's byte
        // for indices past its tables; x86 controls are masked or blended instead.
        let fill = match level {
            Level::Neon => 255,
            _ => 0,
        };
        let none = permute.control(0, &[]);
        let absent = Op {
            present: false,
            index: 0,
            count: 0,
            identity: false,
            load: Place { row: 0, at: 0 },
            store: Place { row: 0, at: 0 },
        };
        let mut steps = Steps {
            ops: [absent; MAX_UNROLLED],
            controls: [none; MAX_UNROLLED],
            singles: [none; MAX_UNROLLED],
            pairs: [none; MAX_UNROLLED],
            sides: [Span { span: 0, rows: 1 }; 2],
            rows_per_pass: 1,
        };
        let Some(network) = network(K::NETWORKS, level.lanes(size)) else {
            return steps;
        };
        steps.sides = [
            span::<K>(0, size, reach(network.loads, network.lanes, size)),
            span::<K>(1, size, reach(network.stores, network.lanes, size)),
        ];
        let lanes = network.lanes;
        let full = u64::MAX >> (64 - lanes);
        let (mut i, mut first) = (0, 0);
        while i < network.steps.len() {
            let (store, load, mask, map) = network.steps[i];
            if network.steps[first].0 != store {
                first = i;
            }
            let mut end = i + 1;
            while end < network.steps.len() && network.steps[end].0 == store {
                end += 1;
            }
            let map = network.maps[map];
            let mut identity = end - first == 1 && mask & full == full;
            let mut lane = 0;
            while lane < lanes {
                identity &= map[lane] as usize == lane;
                lane += 1;
            }
            let index = i - first;
            steps.controls[i] = permute.control(mask, map);
            steps.singles[i] = permute.pair_units(&steps.controls[i], None, fill);
            steps.pairs[i] = match index % 2 {
                1 => permute.pair_units(&steps.controls[i - 1], Some(&steps.controls[i]), fill),
                _ => steps.singles[i],
            };
            steps.ops[i] = Op {
                present: true,
                index,
                count: end - first,
                identity,
                load: place::<K>(0, steps.sides[0], size, level, network.loads[load]),
                store: place::<K>(1, steps.sides[1], size, level, network.stores[store]),
            };
            let (load, store) = (steps.ops[i].load.row + 1, steps.ops[i].store.row + 1);
            if load > steps.sides[0].rows {
                steps.sides[0].rows = load;
            }
            if store > steps.sides[1].rows {
                steps.sides[1].rows = store;
            }
            i += 1;
        }
        let to = steps.sides[1];
        steps.rows_per_pass = match to.rows > ROWS_PER_PASS && to.span >= CACHE_LINE {
            true => {
                let least = to.rows.div_ceil(MAX_PASSES);
                if least > ROWS_PER_PASS {
                    least
                } else {
                    ROWS_PER_PASS
                }
            }
            false => to.rows,
        };
        assert!(
            steps.passes() <= MAX_PASSES,
            "more passes than `passes!` unrolls"
        );
        steps
    }
}

/// The [`Steps`] of kernel `K` for elements of `E` at level `C`: evaluated once per kernel,
/// element type and level that the program runs.
pub(crate) struct Unrolled<K, E, C>(PhantomData<(K, E, C)>);

impl<K: FullTiles, E, C: Registers> Unrolled<K, E, C> {
    pub const STEPS: &'static Steps = &Steps::of::<K>(C::LEVEL, size_of::<E>());
}

/// What a level gives the unrolled rows ([`rows`], one loop for every level): entering code
/// compiled for the level, its register's loads and stores, and one step of a network. Every method is `#[inline(always)]` and, but for `vectorize`, carries no target
/// feature: inlined into the code `vectorize` compiles for the level, each intrinsic is one
/// instruction (an intrinsic left out of line is a function call per instruction, which
/// costs many times the instruction).
pub(crate) trait Registers: Copy {
    /// The level, whose network of [`Unrolled`] steps the rows run.
    const LEVEL: Level;
    /// One register of the level.
    type Register: Copy;

    /// Runs `op` on `src` and `dst` compiled with the level's target features, so that the
    /// operations it calls inline their intrinsics into single instructions. The slices
    /// pass as the compiled function's own parameters, not captured by `op`: so the
    /// compiler knows that stores into `dst` leave `src` as it was, and loads a source
    /// register once where several steps read it (captured, the steps loaded it again:
    /// morton16's AVX-512 pack rows had 36 loads in place of 24).
    fn vectorize<R>(self, src: &[u8], dst: &mut [u8], op: impl FnOnce(&[u8], &mut [u8]) -> R) -> R;

    /// A register of zeros.
    fn zero(self) -> Self::Register;

    /// The register's bytes of `bytes` at `at`.
    fn load(self, bytes: &[u8], at: usize) -> Self::Register;

    /// Writes `register` to its bytes of `bytes` at `at`: around the caches where `STREAM`
    /// asks for it, the level streams and the address is aligned to the register.
    fn store<const STREAM: bool>(self, bytes: &mut [u8], at: usize, register: Self::Register);

    /// Asks for the cache line holding `at` to be brought into L1 ahead of the stores that
    /// will write it, where the level has such a hint (a hint: it never faults and changes
    /// no memory, so `at` may point anywhere).
    fn prefetch(self, at: *const u8);

    /// Step `I` of `K`'s network for elements of `E`, which is not an identity: `register`
    /// (the store's register so far) with the step's lanes of `load` (its source register,
    /// read from `src`, where the step may read the one before it too) permuted in.
    fn step<K: FullTiles, E, const I: usize>(
        self,
        src: &Window<'_, u8>,
        load: Self::Register,
        register: Self::Register,
    ) -> Self::Register;
}

/// The rows of `K`'s full tiles of `E` at level `C`: its network for `C`'s registers,
/// unrolled, in code compiled for the level.
pub(crate) fn rows<C: Registers, K: FullTiles, E>(
    cpu: C,
    src: &[u8],
    dst: &mut [u8],
    tiles: TileRow,
) {
    // `#[inline(always)]` on the closures: compiled out of line, they would lack the
    // level's features and call every intrinsic.
    match tiles.stream {
        true => cpu.vectorize(
            src,
            dst,
            #[inline(always)]
            |src, dst| unrolled_tiles::<C, K, E, true>(cpu, src, dst, tiles),
        ),
        false => cpu.vectorize(
            src,
            dst,
            #[inline(always)]
            |src, dst| unrolled_tiles::<C, K, E, false>(cpu, src, dst, tiles),
        ),
    }
}

/// Repeats `$body` with `$p` a `const usize` from 0 to [`MAX_PASSES`] - 1.
macro_rules! passes {
    ($p:ident => $body:block) => {
        passes!(@ [0 1 2 3 4 5 6 7] $p $body)
    };
    (@ [$($n:literal)*] $p:ident $body:block) => {
        const _: () = assert!([$($n),*].len() == MAX_PASSES, "`passes!` unrolls MAX_PASSES");
        $({
            const $p: usize = $n;
            $body
        })*
    };
}

/// Destination rows one pass over a group of tiles writes, where a tile writes more rows
/// of whole cache lines than this ([`Steps::passes`]).
const ROWS_PER_PASS: usize = 8;

/// The most passes over a group of tiles (`passes!` unrolls them).
const MAX_PASSES: usize = 8;

/// Source bytes of the group of tiles the passes go over (16 tiles of 1 KiB for 16 × 16
/// words, 4 of 4 KiB for 32 × 32): each pass reads them again, from L1.
const PASS_BYTES: usize = 16 << 10;

/// How many tiles ahead of the one being copied the destination's lines are prefetched
/// ([`Foresight`]): far enough that a line is in the cache when its stores come, near
/// enough that it is still there. Four tiles ahead gained more than two or eight for
/// unpacks (BENCHMARKS.md#copy-kernels; the measurement is in BENCHMARKS.md's git history),
/// and as much as two or eight for packs into stacked tiles.
const PREFETCH_TILES: usize = 4;

/// The destination lines of a tile that the hardware prefetcher does not foresee, which
/// the copy asks for [`PREFETCH_TILES`] tiles ahead: `rows` rows (image rows `pitch`
/// apart) of `lines` cache lines each.
#[derive(Clone, Copy)]
struct Foresight {
    rows: usize,
    lines: usize,
}

impl Foresight {
    /// What a row of tiles writing `to_side` at `to_step` bytes apart prefetches, if
    /// anything:
    /// - rows narrower than a cache line (an unpack into an image) write each of their
    ///   lines in pieces, a tile at a time, and a tile's first piece of a line waits for
    ///   the line to be read (`morton8` and `xor8`, 32-byte rows): each row's line;
    /// - a tile of one row whose neighbour starts past its end (a pack into stacked tiles,
    ///   such as GOBs stacked in a block-linear block: each tile's lines lie a block
    ///   apart) starts a new stretch of memory at each tile, which a store waits on: all
    ///   its lines. Tiles one after another are one stream, which the hardware follows.
    fn of(to_side: Span, to_step: usize) -> Option<Self> {
        match to_side.rows {
            1 if to_step > to_side.span => Some(Foresight {
                rows: 1,
                lines: to_side.span.div_ceil(CACHE_LINE),
            }),
            rows if rows > 1 && to_side.span < CACHE_LINE => Some(Foresight { rows, lines: 1 }),
            _ => None,
        }
    }

    /// Asks for the lines of the tile whose destination starts at `at`.
    #[inline(always)]
    fn prefetch<C: Registers>(self, cpu: C, at: *const u8, pitch: usize) {
        for row in 0..self.rows {
            for line in 0..self.lines {
                cpu.prefetch(at.wrapping_add(row * pitch + line * CACHE_LINE));
            }
        }
    }
}

/// Each tile of `tiles`: its two sides bounds-checked once (once per pass), then every step
/// of the network at constant offsets, each store's register written after its last step.
///
/// Where a tile writes more than [`ROWS_PER_PASS`] destination rows of whole cache lines
/// (an unpack of 16 × 16 tiles of words into an image), the rows go in passes over groups
/// of tiles of [`PASS_BYTES`]: the first eight rows of every tile of the group, then the
/// next eight, each pass reading the tiles again from L1 (tiles of more than 64 rows: more
/// rows a pass, [`MAX_PASSES`] passes). The reading the measurements fit (the host has no
/// counters to confirm it): an image's rows a multiple of 4 KiB apart share their L1 set,
/// the sixteen lines a tile writes at once outnumber its ways (8 to 12), and where the
/// rows start past a line each line is written by two tiles and has to stay between them.
/// This pattern's loads and stores alone, and the `morton16` unpack, ran faster in passes
/// than in one, most where the rows start past a line (BENCHMARKS.md#copy-kernels; the
/// measurement is in BENCHMARKS.md's git history). Measured with plain stores; streamed
/// rows, whose stores skip L1, run in passes alike.
#[inline(always)]
fn unrolled_tiles<C: Registers, K: FullTiles, E, const STREAM: bool>(
    cpu: C,
    src: &[u8],
    dst: &mut [u8],
    tiles: TileRow,
) {
    let to_side = const { Unrolled::<K, E, C>::STEPS.sides[1] };
    let pitch = pitch::<K>(tiles.pitches);
    if const { Unrolled::<K, E, C>::STEPS.passes() > 1 } {
        let per_group = const { Unrolled::<K, E, C>::STEPS.pass_tiles() };
        for first in (0..tiles.count).step_by(per_group) {
            let group = first..tiles.count.min(first + per_group);
            passes!(P => {
                if const { P < Unrolled::<K, E, C>::STEPS.passes() } {
                    for index in group.clone() {
                        tile_steps::<C, K, E, STREAM, P>(cpu, src, dst, tiles.start(index), pitch);
                    }
                }
            });
        }
        return;
    }
    let foresight = Foresight::of(to_side, tiles.to_step);
    let base = dst.as_ptr();
    for (index, start) in tiles.starts().enumerate() {
        if let Some(foresight) = foresight.filter(|_| index + PREFETCH_TILES < tiles.count) {
            let ahead = start.1 + PREFETCH_TILES * tiles.to_step;
            foresight.prefetch(cpu, base.wrapping_add(ahead), pitch);
        }
        tile_steps::<C, K, E, STREAM, 0>(cpu, src, dst, start, pitch);
    }
}

/// The steps of one tile (source and destination offsets `from`, `to`) whose stores write
/// pass `PASS`'s destination rows ([`Steps::in_pass`]: all of them where a tile is one pass).
#[inline(always)]
fn tile_steps<C: Registers, K: FullTiles, E, const STREAM: bool, const PASS: usize>(
    cpu: C,
    src: &[u8],
    dst: &mut [u8],
    (from, to): (usize, usize),
    pitch: usize,
) {
    let [from_side, to_side] = const { Unrolled::<K, E, C>::STEPS.sides };
    let (src, mut dst) = (
        from_side.window(src, from, pitch),
        to_side.window_mut(dst, to, pitch),
    );
    let mut register = cpu.zero();
    unroll!(I => {
        // Constant: steps past the network, or of another pass, compile to nothing.
        if const { Unrolled::<K, E, C>::STEPS.in_pass(I, PASS) } {
            let op = const { Unrolled::<K, E, C>::STEPS.ops[I] };
            let load = cpu.load(src.row(op.load.row), op.load.at);
            register = match op.identity {
                true => load,
                false => cpu.step::<K, E, I>(&src, load, register),
            };
            if op.last() {
                cpu.store::<STREAM>(dst.row(op.store.row), op.store.at, register);
            }
        }
    });
}

/// Bytes from a tile's start to the end of its last register at `offsets`.
const fn reach(offsets: &[usize], lanes: usize, size: usize) -> usize {
    let (mut max, mut i) = (0, 0);
    while i < offsets.len() {
        if offsets[i] > max {
            max = offsets[i];
        }
        i += 1;
    }
    (max + lanes) * size
}

/// How side `side` is sliced: image rows, or the tile up to `reach` bytes.
const fn span<K: FullTiles>(side: usize, size: usize, reach: usize) -> Span {
    match K::IMAGE {
        Some((image, cols)) if image == side => Span {
            span: cols * size,
            rows: 1,
        },
        _ => Span {
            span: reach,
            rows: 1,
        },
    }
}

/// The place of the register at element `at` of side `side`.
const fn place<K: FullTiles>(
    side: usize,
    span: Span,
    size: usize,
    level: Level,
    at: usize,
) -> Place {
    match K::IMAGE {
        Some((image, cols)) if image == side => {
            let place = Place {
                row: at / cols,
                at: at % cols * size,
            };
            assert!(
                place.at + level.register_bytes() <= span.span,
                "a register lies across two image rows"
            );
            place
        }
        _ => Place {
            row: 0,
            at: at * size,
        },
    }
}

/// The image pitch of `K`'s rows, in bytes, from the row's pitches.
#[inline(always)]
pub fn pitch<K: FullTiles>(pitches: [usize; 2]) -> usize {
    match K::IMAGE {
        Some((side, _)) => pitches[side],
        None => 0,
    }
}

/// One full tile of `K` in straight lines: each of its [`FullTiles::RUNS`] a slice copy at
/// constant offsets (`src` and `dst` start at the tile; an image's rows lie `rows[0]`
/// (source) or `rows[1]` (destination) elements apart). The runtime calls it for every full
/// tile where the CPU copies in runs.
#[inline]
pub fn full_tile<K: FullTiles, E: Element>(src: &[E], dst: &mut [E], rows: [usize; 2]) {
    let [from_side, to_side] = const { run_sides::<K>() };
    let src = Window::new(src, 0, from_side.rows, rows[0], from_side.span);
    let mut dst = WindowMut::new(dst, 0, to_side.rows, rows[1], to_side.span);
    unroll!(I => {
        // Constant: runs past the table compile to nothing.
        if const { run(K::RUNS, I).2 > 0 } {
            let (from, to, len) = const { run_places::<K>(run(K::RUNS, I)) };
            dst.row(to.row)[to.at..][..len].copy_from_slice(&src.row(from.row)[from.at..][..len]);
        }
    });
}

/// Where a run lies on each side of a tile (its image row and the element in it, or its
/// element of the tile), and its length.
const fn run_places<K: FullTiles>((from, to, len): Run) -> (Place, Place, usize) {
    (run_place::<K>(0, from), run_place::<K>(1, to), len)
}

/// Where element `at` of side `side` of a tile lies: its image row and the element in it,
/// or element `at` of the tile.
const fn run_place<K: FullTiles>(side: usize, at: usize) -> Place {
    match K::IMAGE {
        Some((image, cols)) if image == side => Place {
            row: at / cols,
            at: at % cols,
        },
        _ => Place { row: 0, at },
    }
}

/// How [`full_tile`] slices each side, in elements: the image's rows that the runs reach,
/// or the tile up to the end of its last run.
const fn run_sides<K: FullTiles>() -> [Span; 2] {
    let reach = tile_reach(K::RUNS);
    let mut sides = [
        Span {
            span: reach[0],
            rows: 1,
        },
        Span {
            span: reach[1],
            rows: 1,
        },
    ];
    if let Some((image, cols)) = K::IMAGE {
        sides[image] = Span {
            span: cols,
            rows: reach[image].div_ceil(cols),
        };
    }
    sides
}

/// Run `i` of `runs`, or an empty one past them.
const fn run(runs: &[Run], i: usize) -> Run {
    match i < runs.len() {
        true => runs[i],
        false => (0, 0, 0),
    }
}

/// Elements of a tile the runs reach in the source and in the destination frames.
const fn tile_reach(runs: &[Run]) -> [usize; 2] {
    let (mut reach, mut i) = ([0, 0], 0);
    while i < runs.len() {
        let (from, to, len) = runs[i];
        if from + len > reach[0] {
            reach[0] = from + len;
        }
        if to + len > reach[1] {
            reach[1] = to + len;
        }
        i += 1;
    }
    reach
}
