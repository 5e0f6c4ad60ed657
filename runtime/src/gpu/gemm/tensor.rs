//! The f16 GEMM on cooperative matrices (tensor cores), built from layouts as the scalar
//! GEMM is ([`super::gemm`]). What the layouts decide:
//!
//! - **the tiles**: A's `BM × BK` and B's `BK × BN` workgroup tiles, each a `layout!` over
//!   f16 elements (`[m, k]`, `[k, n]`) held in `vec4<f16>`s. The cooperative loads read a
//!   tile row-major from an element of its array with the row pitch as stride, so a tile
//!   must be rows of consecutive elements at one pitch, a multiple of 16 bytes (checked
//!   here); the pitch's padding is the layout's and keeps the rows of one fragment load off
//!   one bank (the analysis states it);
//! - **the copies** from memory into the tiles: two tiled copies (thread-value layouts),
//!   guard-free inside the matrices, zeros past their edges; each moves 16 bytes (a
//!   `mat2x4<f16>` read, written as two `vec4<f16>` entries) where its layout gives each
//!   thread runs of 8 f16 along the tile's rows and the matrix's rows allow, else
//!   `vec4<f16>`s;
//! - **which subgroup computes which 16 × 16 fragments of C**: a thread-value layout over
//!   the grid of fragments whose threads are the subgroups and whose values their fragments;
//! - **the raster order** of C's tiles;
//! - **the epilogue**: each fragment stored into the subgroup's stage (a layout over
//!   `[subgroup, r, c]`), read back by a thread-value layout of the subgroup's lanes and
//!   written to C's rows as `vec4`s, guarded at the edges.
//!
//! What is written by hand: the k-loop (the design [`KLoop`] names: plain, prefetched,
//! double-buffered — two copies of each tile, the next step's copies issued before this
//! step's multiply-adds, one barrier per step — or operands straight from memory), the
//! cooperative loads and multiply-adds, and the guards.

use std::ops::Range;

#[cfg(feature = "gpu")]
use super::kernel::Operands;
use super::kernel::{coordinates, thread_names};
use super::workgroup::WorkgroupMatrices;
use crate::gpu::cooperative::Accumulate;
use crate::gpu::transpose::{check_shape, check_threads, fitting, unsupported};
use crate::gpu::{GpuError, Unsupported};
use swizzle_core::analysis::access::Touch;
use swizzle_core::analysis::banks::{self, Banks};
use swizzle_core::canon::sym::Sym;
use swizzle_core::emit::wgsl::expr::{Expr, call, int, name, numbered, u};
use swizzle_core::emit::wgsl::module::{
    Access, Block, Builtin, Entry, Function, Module, array, param, template, vector,
};
use swizzle_core::ir::Descriptor;
use swizzle_core::plans::fragment::{Fragment, Read};
use swizzle_core::plans::raster::Raster;
use swizzle_core::plans::threads::ThreadValues;
use swizzle_core::plans::tiled_copy::{Program, Side, TiledCopy};
use swizzle_core::{canon, emit::wgsl};
#[cfg(feature = "gpu")]
use {
    super::kernel::{Code, GemmKernel, GemmPath, Stored},
    crate::gpu::batch::Pipeline,
    crate::gpu::{BoundsChecks, Gpu},
};

/// Lanes per subgroup the kernel is written for (a warp): the adapter must run compute
/// shaders with exactly this many.
pub const SUBGROUP: usize = 32;
/// The cooperative matrices' side: 16 × 16 × 16.
const FRAGMENT: usize = 16;

/// The layouts of the tensor-core GEMM ([`Gemm::tensor_cores`](super::Gemm::tensor_cores)).
#[derive(Clone, Copy, Debug)]
pub struct TensorCores<'d> {
    /// A's tile over `[m, k]`: `BM × BK` f16, rows of consecutive elements at one pitch (a
    /// multiple of 8: 16 bytes).
    pub a_tile: &'d Descriptor,
    /// B's tile over `[k, n]`: `BK × BN` f16, likewise.
    pub b_tile: &'d Descriptor,
    /// Each subgroup's stage for one 16 × 16 f32 fragment of C, over `[s, r, c]`.
    pub c_stage: &'d Descriptor,
    /// Who copies A's tile (over `[m, k]`), B's (over `[k, n]`).
    pub a_loads: ThreadValues<'d>,
    pub b_loads: ThreadValues<'d>,
    /// Which subgroup computes which fragments: over `[BM / 16, BN / 16]`.
    pub fragments: ThreadValues<'d>,
    /// Which lane of a subgroup stores which elements of a staged fragment: over `[16, 16]`,
    /// 32 threads.
    pub c_stores: ThreadValues<'d>,
    /// Which tile of C each workgroup computes.
    pub order: Raster,
    /// How the k-loop moves the operands: through tiles (one copy or two) or straight from
    /// memory.
    pub k_loop: KLoop<'d>,
    /// The multiply-adds' accumulator type (C is f32 either way).
    pub accumulate: Accumulate,
    /// The GEMM on workgroup-scope cooperative matrices (`VK_NV_cooperative_matrix2`),
    /// which runs instead of the fragment kernel wherever the device has them (any shape,
    /// either storage order, f32 sums or f16 where the driver lists them); `None`: the
    /// fragment kernel always.
    /// [`GemmKernel::path`](super::GemmKernel::path) says which ran, and why not this one.
    /// Layouts no device could run (a zero or oversized tile, more than 64 steps an
    /// iteration, a malformed raster order) are
    /// [`GpuError::Unsupported`](super::GpuError::Unsupported) from `gemm_kernel` on every
    /// device.
    pub workgroup: Option<WorkgroupMatrices>,
}

/// How the tensor-core GEMM's k-loop moves A and B (one design per
/// [`TensorCores`]): through workgroup tiles, the copies before the multiply-adds, split
/// around them or into a second copy of each tile, or some operands straight from memory.
#[derive(Clone, Copy, Debug)]
pub enum KLoop<'d> {
    /// One copy of each tile: each step's copies, a barrier, its multiply-adds, a barrier.
    Plain,
    /// One copy of each tile, each step's copies split in two: the next step's loads from
    /// memory into registers issued before this step's multiply-adds and stored into the
    /// tiles at the top of the next step, so that their latency hides behind the tensor
    /// cores. Taken only where every move of both copies is a whole `vec4` (else
    /// [`KLoop::Plain`] runs).
    Prefetched,
    /// Two copies of each tile: the next step's copies go into one while the tensor cores
    /// read the other.
    DoubleBuffered,
    /// The fragments of `operands` loaded with `coopLoadT` straight from the storage buffer,
    /// at the rows and columns the fragment map gives each subgroup, without a tile, copies
    /// or barriers for them (the caches share what the subgroups reuse); their tiles'
    /// layouts still give the tile's shape, and so `BK`, the k of one step. Taken where the
    /// operands' tiles never cross the matrix's edge (A: `m` and `k` multiples of `BM` and
    /// `BK`; B: `k` and `n` of `BK` and `BN`).
    Direct {
        /// Which operands come from memory.
        operands: DirectOperands,
        /// The next step's loads issued before this step's multiply-adds: the fragments
        /// into registers where both operands come from memory, else the tiled operand's
        /// copies split as in [`KLoop::Prefetched`].
        prefetch: bool,
        /// The layouts for the shapes where an operand of `operands` cannot come from
        /// memory (the library's deep tiles fit workgroup memory only while A has none);
        /// `None`: these layouts, that operand through its tile.
        otherwise: Option<&'d TensorCores<'d>>,
    },
}

/// Which operands [`KLoop::Direct`] loads straight from memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DirectOperands {
    /// A's fragments; B through its tile.
    A,
    /// B's fragments; A through its tile.
    B,
    /// Both: no tiles, copies or barriers in the k-loop.
    Both,
}

impl DirectOperands {
    /// For A and for B: whether it comes from memory.
    fn mask(self) -> [bool; 2] {
        match self {
            DirectOperands::A => [true, false],
            DirectOperands::B => [false, true],
            DirectOperands::Both => [true, true],
        }
    }
}

impl KLoop<'_> {
    /// For A and for B: whether it is asked straight from memory.
    fn direct(&self) -> [bool; 2] {
        match self {
            KLoop::Direct { operands, .. } => operands.mask(),
            _ => [false; 2],
        }
    }

    /// Whether the next step's loads are issued before this step's multiply-adds.
    fn prefetch(&self) -> bool {
        matches!(
            self,
            KLoop::Prefetched | KLoop::Direct { prefetch: true, .. }
        )
    }
}

/// The layouts that run `[m, n, k]`: `tc`, or what runs otherwise where an operand that `tc`
/// asks from memory cannot be (`tc` itself where it names none or its tiles are malformed).
fn resolve<'a>(tc: &'a TensorCores<'a>, shape: [usize; 3]) -> &'a TensorCores<'a> {
    match (tc.k_loop, tile_shape(tc)) {
        (
            KLoop::Direct {
                otherwise: Some(otherwise),
                ..
            },
            Ok(tile),
        ) if direct_operands(tc, shape, tile) != tc.k_loop.direct() => resolve(otherwise, shape),
        _ => tc,
    }
}

/// Which operands the kernel of `[m, n, k]` loads straight from memory (see
/// [`KLoop::Direct`]).
fn direct_operands(tc: &TensorCores, [m, n, k]: [usize; 3], [bm, bn, bk]: [usize; 3]) -> [bool; 2] {
    let whole = |len: usize, tile: usize| len.is_multiple_of(tile);
    let [a, b] = tc.k_loop.direct();
    [
        a && whole(m, bm) && whole(k, bk),
        b && whole(k, bk) && whole(n, bn),
    ]
}

impl TensorCores<'_> {
    /// The WGSL module of the tensor-core GEMM of `[m, n, k]` (no device needed: for
    /// validation and for the CPU evaluator in the tests).
    pub fn wgsl(&self, shape: [usize; 3]) -> Result<String, GpuError> {
        tensor_wgsl(shape, resolve(self, shape))
    }
}

/// Why `gpu` cannot run the tensor-core GEMM for these operands: `None` where it can.
#[cfg(feature = "gpu")]
pub(super) fn unavailable(
    gpu: &Gpu,
    orders: [Stored; 2],
    accumulate: Accumulate,
) -> Option<String> {
    if !gpu.has_cooperative_matrix() {
        return Some(
            "the adapter has no cooperative matrices (EXPERIMENTAL_COOPERATIVE_MATRIX)".into(),
        );
    }
    if accumulate == Accumulate::F16 {
        // Listed by NVIDIA's driver (580.159.04), but its results were wrong there (an
        // error of 104 at 16 × 16 × 16, where every f16 sum is exact):
        // BENCHMARKS.md#tensor-core-gemm.
        return Some(
            "f16 accumulators gave wrong results on the one driver tried (NVIDIA 580)".into(),
        );
    }
    let want = match accumulate {
        Accumulate::F32 => wgpu::CooperativeScalarType::F32,
        Accumulate::F16 => wgpu::CooperativeScalarType::F16,
    };
    let listed = gpu.cooperative_matrix_properties().iter().any(|p| {
        [p.m_size, p.n_size, p.k_size] == [16; 3]
            && p.ab_type == wgpu::CooperativeScalarType::F16
            && p.cr_type == want
    });
    if !listed {
        return Some(format!(
            "the adapter lists no 16 × 16 × 16 cooperative matrix of f16 inputs and {} \
             accumulators",
            accumulate.wgsl()
        ));
    }
    let info = gpu.info();
    if info.subgroup_min_size as usize != SUBGROUP || info.subgroup_max_size as usize != SUBGROUP {
        return Some(format!(
            "the kernel is written for subgroups of {SUBGROUP} lanes; the adapter's are {} to {}",
            info.subgroup_min_size, info.subgroup_max_size
        ));
    }
    if orders != [Stored::RowMajor; 2] {
        return Some("transposed operands run on the scalar kernel".into());
    }
    None
}

/// A tile's row pitch in elements where it is rows of consecutive elements at one pitch
/// from offset 0 (`offset(r, c) = r · pitch + c`), the pitch a multiple of 8 (16 bytes of
/// f16, as the cooperative loads need rows).
fn pitch(tile: &Descriptor) -> Result<usize, GpuError> {
    let [rows, columns] = super::shape2(tile)?;
    let offset = |r: usize, c: usize| tile.offset(&[r, c]).ok();
    let pitch = match rows {
        1 => columns,
        _ => offset(1, 0).unwrap_or(0),
    };
    if !pitch.is_multiple_of(8) {
        let (what, len, of) = ("its row pitch in f16", pitch, 8);
        return Err(unsupported(
            tile,
            Unsupported::NotMultiple { what, len, of },
        ));
    }
    for r in 0..rows {
        for c in 0..columns {
            if offset(r, c) != Some(r * pitch + c) {
                let at = [r, c];
                return Err(unsupported(tile, Unsupported::Rows { at, pitch }));
            }
        }
    }
    Ok(pitch)
}

/// The worst bank conflict of one 16 × 16 f16 fragment load from `tile` (f16 elements):
/// as `ldmatrix` loads it, each lane one row's 16 bytes (rows 0–15, then the second 8
/// columns).
fn fragment_load_conflicts(tile: &Descriptor) -> usize {
    let touches: Vec<Touch> = (0..SUBGROUP)
        .filter_map(|lane| {
            let coord = vec![lane % FRAGMENT, lane / FRAGMENT * 8];
            let offset = tile.offset(&coord).ok()?;
            Some(Touch {
                lane,
                coord,
                offset,
            })
        })
        .collect();
    banks::conflicts_of(&touches, SUBGROUP, 8, 2, Banks::default()).degree
}

#[cfg(feature = "gpu")]
impl Gpu {
    /// The tensor-core GEMM of `[m, n, k]` (f16 A and B, row-major, f32 C) through the
    /// layouts of `tc`.
    pub(super) fn tensor_gemm_kernel(
        &self,
        [m, n, k]: [usize; 3],
        tc: &TensorCores,
        bounds_checks: BoundsChecks,
    ) -> Result<GemmKernel, GpuError> {
        let tc = resolve(tc, [m, n, k]);
        let wgsl = tensor_wgsl([m, n, k], tc)?;
        let [bm, bn, bk] = tile_shape(tc)?;
        let direct = direct_operands(tc, [m, n, k], [bm, bn, bk]);
        let threads = tc.fragments.thread_count() * SUBGROUP;
        let bytes = tile_bytes(tc, direct_operands(tc, [m, n, k], [bm, bn, bk])) as u64;
        self.check_workgroup(threads, bytes, "the tensor-core tiles'")?;
        let grid = [m.div_ceil(bm), n.div_ceil(bn)];
        let groups = self.workgroups([grid[1], grid[0]])?;
        let name = format!(
            "GEMM f16 on tensor cores through {} / {}, fragments {}{}{}{}",
            tc.a_tile.name,
            tc.b_tile.name,
            tc.fragments.descriptor.name,
            match direct {
                [true, true] => ", A and B from memory",
                [true, false] => ", A from memory",
                [false, true] => ", B from memory",
                [false, false] => "",
            },
            match double_buffered(tc) {
                true => ", double-buffered",
                false => "",
            },
            tc.accumulate.in_name()
        );
        let pipeline = self.pipeline(&name, &wgsl, bounds_checks)?;
        let [load_a, load_b] = copies(tc, [m, n, k], direct);
        Ok(GemmKernel {
            name,
            code: Code::Wgsl(wgsl),
            pipeline: Pipeline { pipeline, groups },
            shape: [m, n, k],
            operands: Operands::F16,
            loads: [
                load_a.analysed.instructions(load_a.width),
                load_b.analysed.instructions(load_b.width),
            ],
            fragment_conflicts: [
                fragment_load_conflicts(tc.a_tile),
                fragment_load_conflicts(tc.b_tile),
            ],
            path: GemmPath::TensorCores,
            share_cost: None,
        })
    }
}

/// `[BM, BN, BK]` in f16 elements, checked against every layout of `tc`.
fn tile_shape(tc: &TensorCores) -> Result<[usize; 3], GpuError> {
    let [[bm, bk_a], [bk, bn]] = [super::shape2(tc.a_tile)?, super::shape2(tc.b_tile)?];
    if bk_a != bk {
        return Err(unsupported(
            tc.b_tile,
            Unsupported::Depth { a: bk_a, b: bk },
        ));
    }
    for (what, len) in [("BM", bm), ("BN", bn), ("BK", bk)] {
        if !len.is_multiple_of(FRAGMENT) {
            let of = FRAGMENT;
            return Err(unsupported(
                tc.a_tile,
                Unsupported::NotMultiple { what, len, of },
            ));
        }
    }
    // C's tile in fragments, a subgroup's stage and a lane's stores of one fragment.
    let subgroups = tc.fragments.thread_count();
    let fragments = tc.fragments.descriptor;
    check_shape(
        fragments,
        &tc.fragments.tile(),
        &[bm / FRAGMENT, bn / FRAGMENT],
    )?;
    for (loads, tile) in [(tc.a_loads, [bm, bk]), (tc.b_loads, [bk, bn])] {
        check_shape(loads.descriptor, &loads.tile(), &tile)?;
        check_threads(loads, subgroups * SUBGROUP)?;
    }
    check_shape(
        tc.c_stage,
        &tc.c_stage.shape(),
        &[subgroups, FRAGMENT, FRAGMENT],
    )?;
    check_shape(tc.c_stores.descriptor, &tc.c_stores.tile(), &[FRAGMENT; 2])?;
    check_threads(tc.c_stores, SUBGROUP)?;
    Ok([bm, bn, bk])
}

/// Bytes of workgroup memory: the tiles (twice where double-buffered, 8-byte `vec4<f16>`s)
/// and the stages (16-byte `vec4<f32>`s, 8-byte `vec4<f16>`s with f16 accumulators).
fn tile_bytes(tc: &TensorCores, direct: [bool; 2]) -> usize {
    let entries = |tile: &Descriptor, direct: bool| match direct {
        true => 0,
        false => tile.space().unwrap_or(0).div_ceil(4),
    };
    let copies = if double_buffered(tc) { 2 } else { 1 };
    let stage = match tc.accumulate {
        Accumulate::F32 => 16,
        Accumulate::F16 => 8,
    };
    copies * (entries(tc.a_tile, direct[0]) + entries(tc.b_tile, direct[1])) * 8
        + entries(tc.c_stage, false) * stage
}

/// One of the two tiled copies, as the analysis sees it (f16 elements, `width` of them per
/// move) and as the code is generated (`code`: where the moves are 8 f16, 16 bytes, the
/// same elements and width; else 4-byte elements, so that the tile's array entries and the
/// moves are at most 4 f16, `vec4<f16>`).
struct Copy<'d> {
    analysed: TiledCopy<'d>,
    code: TiledCopy<'d>,
    width: usize,
}

impl Copy<'_> {
    /// Whether each move is 16 bytes: read from memory as a `mat2x4<f16>` (WGSL has no
    /// 8-wide f16 vector, and naga 30 no bitcast of `vec4<u32>` to eight f16) and written
    /// into the tile's `vec4<f16>` entries as its two columns.
    fn wide(&self) -> bool {
        self.width == WIDE
    }
}

/// f16 per move of a 16-byte copy.
const WIDE: usize = 8;

/// The two tiled copies for `[m, n, k]`. A copy moves 16 bytes where its thread-value
/// layout gives each thread runs of 8 consecutive f16 along the tile's rows, the matrix's
/// rows are whole runs of 8 and the operand goes through its tile (`direct` false); else
/// the widest of at most 4 f16 that the layout and the matrix allow.
fn copies<'d>(tc: &TensorCores<'d>, [_m, n, k]: [usize; 3], direct: [bool; 2]) -> [Copy<'d>; 2] {
    let copy = |threads, tile, element_bytes| TiledCopy {
        threads,
        source: Side::Image,
        destination: Side::Tile(tile),
        element_bytes,
        subgroup: SUBGROUP,
    };
    let one = |threads, tile, row: usize, direct: bool| {
        let analysed = copy(threads, tile, 2);
        let narrow = copy(threads, tile, 4);
        match fitting(analysed.widest().min(WIDE), row) {
            WIDE if !direct => Copy {
                analysed,
                code: analysed,
                width: WIDE,
            },
            _ => Copy {
                analysed,
                code: narrow,
                width: fitting(narrow.widest().min(4), row),
            },
        }
    };
    [
        one(tc.a_loads, tc.a_tile, k, direct[0]),
        one(tc.b_loads, tc.b_tile, n, direct[1]),
    ]
}

/// The WGSL type of one move of `width` f16 from memory.
fn moved(width: usize) -> String {
    match width {
        WIDE => register(true).to_owned(),
        width => vector("f16", width),
    }
}

/// One of the GEMM's operands, A or B, and its names in the module.
#[derive(Clone, Copy, Debug)]
struct Operand {
    /// Its place in `[A, B]`: the index of its layouts, copies and choices, and of its
    /// matrix's other side in `[m, n, k]` (A's `m`, B's `n`).
    index: usize,
    /// Its storage buffer (`a`), which also names its fragments by tile, fragment and k
    /// (`a0_1_2`).
    matrix: &'static str,
    /// Its cooperative matrices' role (`A`), which also names it in prose.
    role: &'static str,
    /// Its workgroup tiles, numbered by copy (`a_tile0`).
    tile: &'static str,
    /// Its copies into the tiles, numbered by tile (`load_a0`), and their halves where
    /// split (`fetch_a0`, `put_a0`).
    load: &'static str,
    fetch: &'static str,
    put: &'static str,
    /// The registers of its next step's copies (`a_next`), and of its next step's
    /// fragments by fragment and k (`pa_1_2`).
    next: &'static str,
    prefetched: &'static str,
    /// The rows (A) or columns (B) of C's fragments that the subgroup computes (`fr1`).
    fragments: &'static str,
}

const A: Operand = Operand {
    index: 0,
    matrix: "a",
    role: "A",
    tile: "a_tile",
    load: "load_a",
    fetch: "fetch_a",
    put: "put_a",
    next: "a_next",
    prefetched: "pa_",
    fragments: "fr",
};

const B: Operand = Operand {
    index: 1,
    matrix: "b",
    role: "B",
    tile: "b_tile",
    load: "load_b",
    fetch: "fetch_b",
    put: "put_b",
    next: "b_next",
    prefetched: "pb_",
    fragments: "fc",
};

impl Operand {
    /// A coordinate along the operand's other side and one along k, in the order of its
    /// coordinates: A's are `[m, k]`, B's `[k, n]`.
    fn coords<T>(self, side: T, k: T) -> [T; 2] {
        match self.index {
            0 => [side, k],
            _ => [k, side],
        }
    }
}

/// The whole WGSL module of the tensor-core GEMM.
pub(super) fn tensor_wgsl(shape: [usize; 3], tc: &TensorCores) -> Result<String, GpuError> {
    let mut kernel = Kernel::new(shape, tc)?;
    let (functions, splits) = kernel.copy_functions()?;
    kernel.steps = Steps::of(tc, kernel.direct, &splits);
    let mut module = kernel.declarations();
    module.text(&functions.finish());
    let entry = Entry::new(kernel.fragments.thread_count() * SUBGROUP)
        .builtin(Builtin::LocalInvocationIndex, "thread")
        .builtin(Builtin::WorkgroupId, "group");
    let mut out = Block::new();
    kernel.prologue(&mut out);
    kernel.k_loop(&mut out);
    kernel.epilogue(&mut out);
    module.entry(entry, out);
    Ok(module.finish())
}
/// How the k-loop moves the operands: the design of one module, from the layouts' choices
/// and what the shape allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Steps {
    /// Both operands straight from memory, the next step's fragments loaded into registers
    /// before this step's multiply-adds.
    DirectPrefetched,
    /// Both operands straight from memory: no tiles, copies or barriers.
    Direct,
    /// One buffer, each copy split: the next step's loads into registers before this
    /// step's multiply-adds, stored into the tiles at the top of the next step.
    Prefetched,
    /// One buffer: each step's copies, then its multiply-adds.
    Plain,
    /// Two copies of each tile: the next step's copies into one while the multiply-adds
    /// read the other.
    DoubleBuffered,
}

impl Steps {
    /// The design for operands `direct` from memory, where `splits` holds each copy's
    /// registers (0: not split).
    fn of(tc: &TensorCores, direct: [bool; 2], splits: &[usize]) -> Steps {
        let prefetch = tc.k_loop.prefetch();
        match tc.k_loop {
            KLoop::DoubleBuffered => Steps::DoubleBuffered,
            _ if direct == [true; 2] && prefetch => Steps::DirectPrefetched,
            _ if direct == [true; 2] => Steps::Direct,
            _ if prefetch && splits.iter().all(|&r| r > 0) => Steps::Prefetched,
            _ => Steps::Plain,
        }
    }
}

/// Whether the tiles are double-buffered (no operand comes from memory then).
fn double_buffered(tc: &TensorCores) -> bool {
    matches!(tc.k_loop, KLoop::DoubleBuffered)
}

/// One shape's module as it is written: the layouts, and what was checked and derived of
/// them.
struct Kernel<'a, 'd> {
    tc: &'a TensorCores<'d>,
    shape: [usize; 3],
    /// `[BM, BN, BK]`.
    tile: [usize; 3],
    /// Which operands come straight from memory.
    direct: [bool; 2],
    steps: Steps,
    /// A's and B's tile row pitches in f16, and the stage's in words.
    pitches: [usize; 3],
    /// Which subgroup computes which fragments.
    fragments: &'a ThreadValues<'d>,
    fragment: Fragment,
    /// Which lane stores which elements of a staged fragment, in runs of 4 columns.
    stores: Fragment,
    store_runs: Vec<Read>,
    /// A's and B's copies.
    copies: [Copy<'d>; 2],
    /// The offset functions of A's and B's tiles' and of the stage's layouts.
    offsets: [String; 3],
}

/// The stage's place in [`Kernel::offsets`], after A's and B's tiles.
const STAGE: usize = 2;

impl<'a, 'd> Kernel<'a, 'd> {
    /// The layouts of `tc` checked for the module of `[m, n, k]`.
    fn new([m, n, k]: [usize; 3], tc: &'a TensorCores<'d>) -> Result<Self, GpuError> {
        let tile = tile_shape(tc)?;
        let direct = direct_operands(tc, [m, n, k], tile);
        let [a_pitch, b_pitch] = [pitch(tc.a_tile)?, pitch(tc.b_tile)?];
        let c_pitch = stage_pitch(tc)?;
        if let Err(why) = tc.order.check() {
            return Err(unsupported(tc.a_tile, Unsupported::Order(why)));
        }
        let fragment = Fragment::of(&tc.fragments)
            .filter(|f| f.values.len() == f.rows.len() * f.columns.len())
            .ok_or_else(|| {
                unsupported(
                    tc.fragments.descriptor,
                    "its values must be every fragment where its rows and columns cross, folding into \
             expressions of the subgroup",
                )
            })?;
        let stores = Fragment::of(&tc.c_stores).ok_or_else(|| {
            unsupported(
                tc.c_stores.descriptor,
                "its elements do not fold into expressions of the lane",
            )
        })?;
        // The stores: runs of 4 consecutive columns per row (one vec4 each).
        let store_runs = stores.column_runs(4);
        if store_runs.iter().any(|r| r.width != 4) || store_runs.len() * 4 != stores.columns.len() {
            return Err(unsupported(
                tc.c_stores.descriptor,
                "each lane must store whole vec4s along a row (runs of 4 consecutive columns)",
            ));
        }
        let offset = |tile: &Descriptor| {
            let prefix = wgsl::layout(&tile.name, tile, false)
                .map(|l| l.prefix)
                .unwrap_or_default();
            [prefix.as_str(), "_offset"].concat()
        };
        Ok(Kernel {
            tc,
            shape: [m, n, k],
            tile,
            direct,
            steps: Steps::Plain,
            pitches: [a_pitch, b_pitch, c_pitch],
            fragments: &tc.fragments,
            fragment,
            stores,
            store_runs,
            copies: copies(tc, [m, n, k], direct),
            offsets: [offset(tc.a_tile), offset(tc.b_tile), offset(tc.c_stage)],
        })
    }

    /// The tile buffers: `0`, and `1` where double-buffered.
    fn buffers(&self) -> Range<usize> {
        match double_buffered(self.tc) {
            true => 0..2,
            false => 0..1,
        }
    }

    /// The layout of operand `op`'s tile.
    fn layout(&self, op: Operand) -> &'d Descriptor {
        [self.tc.a_tile, self.tc.b_tile][op.index]
    }

    /// The operands that go through their tiles.
    fn tiled(&self) -> impl Iterator<Item = Operand> + '_ {
        [A, B].into_iter().filter(|op| !self.direct[op.index])
    }

    /// The module's functions: the layouts', the copies (split where they can be: each
    /// copy's registers in the second result, 0 where not split, none where the operand
    /// has no tile) and the raster order.
    fn copy_functions(&self) -> Result<(Module, Vec<usize>), GpuError> {
        let tc = self.tc;
        let mut functions = Module::new();
        let mut splits: Vec<usize> = Vec::new();
        for op in [A, B] {
            let (tile, copy) = (self.layout(op), &self.copies[op.index]);
            let layout = wgsl::layout(&tile.name, tile, false)
                .map_err(|why| unsupported(tile, Unsupported::Wgsl(why)))?;
            functions.text(&layout.text);
            if self.direct[op.index] {
                // No tile: its fragments come straight from the storage buffer.
                splits.push(usize::MAX);
                continue;
            }
            let threads = copy.code.threads.descriptor;
            let program = (copy.code.program(copy.width))
                .ok_or_else(|| unsupported(threads, Unsupported::Unroll))?;
            for buffer in self.buffers() {
                splits.push(tile_copy(
                    &mut functions,
                    (op, tile),
                    copy,
                    &program,
                    buffer,
                )?);
            }
        }
        let stage_layout = wgsl::layout(&tc.c_stage.name, tc.c_stage, false)
            .map_err(|why| unsupported(tc.c_stage, Unsupported::Wgsl(why)))?;
        functions.text(&stage_layout.text);
        functions.text(&wgsl::raster(
            "order",
            &format!("Which tile of C each workgroup computes: {}.", tc.order),
            &tc.order.program(),
        ));
        Ok((functions, splits))
    }

    /// The module's extensions, note and buffers.
    fn declarations(&self) -> Module {
        let (tc, [m, n, k]) = (self.tc, self.shape);
        let acc = tc.accumulate.wgsl();
        let entries = |tile: &Descriptor| tile.space().unwrap_or(0).div_ceil(4);
        let mut module = Module::new();
        module
            .enable("f16")
            .enable("wgpu_cooperative_matrix")
            .paragraph()
            .note(format_args!(
                "C = A · B ({m} × {k} times {k} × {n}, f16 operands, {acc} accumulators on cooperative\n\
                 matrices, f32 C): tiles `{}` and `{}`, fragments `{}`, stage `{}`.",
                tc.a_tile.name, tc.b_tile.name, tc.fragments.descriptor.name, tc.c_stage.name,
            ));
        for op in [A, B] {
            let entry = moved(self.copies[op.index].width);
            module.storage(op.matrix, Access::Read, array(entry, None));
        }
        module.storage(
            "c",
            Access::ReadWrite,
            array(vector("f32", self.c_width()), None),
        );
        // The tiles hold `vec4<f16>`s: NVIDIA's compiler takes a cooperative load only from
        // an array of the matrix's own element type (from `vec4<u32>`s of f16 pairs it fails
        // with `NVVM compilation failed`), and naga 30 has no bitcast from `u32`s to f16
        // pairs, so the tiles are `vec4<f16>`s and the copies move `vec4<f16>`s (8 bytes) or
        // `mat2x4<f16>`s (16 bytes, read as one and written as its two columns).
        for buffer in self.buffers() {
            for op in self.tiled() {
                module.workgroup(
                    &numbered(op.tile, [buffer]).to_string(),
                    array(vector("f16", 4), Some(entries(self.layout(op)))),
                );
            }
        }
        // f16 stages hold 8 per vec4 of f32's bytes, but stay one vec4 per 4 words of the
        // layout.
        module.workgroup("c_stage", array(vector(acc, 4), Some(entries(tc.c_stage))));
        module
    }

    /// C's elements per entry of its storage array: 4 where its rows are whole `vec4`s.
    fn c_width(&self) -> usize {
        match self.shape[1].is_multiple_of(4) {
            true => 4,
            false => 1,
        }
    }

    /// The entry point's first statements: the workgroup's tile of C, the thread's
    /// subgroup and lane, the rows and columns of its fragments, the accumulators.
    fn prologue(&self, out: &mut Block) {
        let [m, n, _] = self.shape;
        let [bm, bn, _] = self.tile;
        let [gm, gn] = [m.div_ceil(bm), n.div_ceil(bn)];
        let (group, thread) = (name("group"), name("thread"));
        let tile = group.clone().field("y") * u(gn) + group.field("x");
        out.let_("at", call("order", [tile, u(gm), u(gn)]))
            .let_("subgroup", thread.clone() / u(SUBGROUP))
            .let_("lane", thread % u(SUBGROUP));
        // The fragments' thread coordinates, from the subgroup's index.
        let names = coordinates(
            out,
            "subgroup",
            &thread_names(self.fragments),
            &self.fragment.thread_lens,
        );
        out.comment("The rows and columns of C's fragments this subgroup computes.");
        for (i, row) in self.fragment.rows.iter().enumerate() {
            out.let_(numbered(A.fragments, [i]), print(row, &names));
        }
        for (j, column) in self.fragment.columns.iter().enumerate() {
            out.let_(numbered(B.fragments, [j]), print(column, &names));
        }
        let zero = call::<Expr>(matrix(self.tc.accumulate.wgsl(), "C"), []);
        for &value in &self.fragment.values {
            out.var(accumulator(value), &zero);
        }
    }

    /// The k-loop, as the design writes it.
    fn k_loop(&self, out: &mut Block) {
        match self.steps {
            Steps::DirectPrefetched => self.direct_prefetched(out),
            Steps::Direct => {
                // No tiles: no copies and no barriers.
                self.each_step(out, |step| {
                    self.k0(step);
                    self.compute(0, step);
                });
            }
            Steps::Prefetched => self.prefetched(out),
            Steps::Plain => {
                self.each_step(out, |step| {
                    step.calls(self.loads(0, name("step")))
                        .line("workgroupBarrier();");
                    self.k0(step);
                    self.compute(0, step);
                    step.line("workgroupBarrier();");
                });
            }
            Steps::DoubleBuffered => self.double_buffered(out),
        }
    }

    /// The k-loop's steps.
    fn steps(&self) -> usize {
        self.shape[2].div_ceil(self.tile[2])
    }

    /// The k-loop over every step, with `body`.
    fn each_step(&self, out: &mut Block, body: impl FnOnce(&mut Block)) {
        out.for_counter("step", name("step").lt(u(self.steps())), 1, body);
    }

    /// No tiles, and the next step's fragments loaded into registers before this step's
    /// multiply-adds (the last step loads its own again: no read past k).
    fn direct_prefetched(&self, out: &mut Block) {
        let mut take = Block::new();
        let mut next = Block::new();
        let mut mads = Block::new();
        out.let_("k0", u(0));
        for kk in 0..self.tile[2] / FRAGMENT {
            for op in [A, B] {
                for f in 0..self.fragments_along(op) {
                    let load = self.direct_load(op, f, kk);
                    let register = numbered(op.prefetched, [f, kk]);
                    out.var(&register, &load);
                    take.let_(numbered(op.matrix, [0, f, kk]), &register);
                    next.assign(&register, load);
                }
            }
            for &value in &self.fragment.values {
                multiply_add(&mut mads, 0, kk, value);
            }
        }
        let (steps, bk) = (self.steps(), self.tile[2]);
        let last = call("min", [name("step") + u(1), u(steps - 1)]);
        self.each_step(out, |step| {
            step.extend(take)
                .let_("k0", last * u(bk))
                .extend(next)
                .extend(mads);
        });
    }

    /// The next step's loads go into registers before this step's multiply-adds.
    fn prefetched(&self, out: &mut Block) {
        let steps = self.steps();
        let fetch =
            |op: Operand, step: Expr| call(numbered(op.fetch, [0]), self.copy_args(op, step));
        for op in self.tiled() {
            out.var(op.next, fetch(op, u(0)));
        }
        self.each_step(out, |step| {
            for op in self.tiled() {
                let args = self.copy_args(op, name("step"));
                step.call(call(
                    numbered(op.put, [0]),
                    args.into_iter().chain([name(op.next)]),
                ));
            }
            step.line("workgroupBarrier();")
                .if_((name("step") + u(1)).lt(u(steps)), |next| {
                    for op in self.tiled() {
                        next.assign(op.next, fetch(op, name("step") + u(1)));
                    }
                });
            self.k0(step);
            self.compute(0, step);
            step.line("workgroupBarrier();");
        });
    }

    /// Step `s` reads buffer `s % 2`; the copies of step `s + 1` go into the other before
    /// it, which step `s - 1` finished reading at its barrier. Steps go in pairs (the
    /// multiply-adds must stay in uniform control flow: no `if` around them), an odd last
    /// step after the loop.
    fn double_buffered(&self, out: &mut Block) {
        let steps = self.steps();
        let step = name("step");
        out.calls(self.loads(0, u(0)))
            .line("workgroupBarrier();")
            .for_counter("step", (step.clone() + u(1)).lt(u(steps)), 2, |pair| {
                pair.calls(self.loads(1, step.clone() + u(1)));
                self.compute(0, pair);
                pair.line("workgroupBarrier();")
                    .if_((step.clone() + u(2)).lt(u(steps)), |next| {
                        next.calls(self.loads(0, step.clone() + u(2)));
                    });
                self.compute(1, pair);
                pair.line("workgroupBarrier();");
            });
        if steps % 2 == 1 {
            self.compute(0, out);
            out.line("workgroupBarrier();");
        }
    }

    /// The tiled operands' copies into buffer `buffer` for step `step` (printed on one
    /// line: the lab's profile moves that line out of the k-loop).
    fn loads(&self, buffer: usize, step: Expr) -> Vec<Expr> {
        self.tiled()
            .map(|op| {
                call(
                    numbered(op.load, [buffer]),
                    self.copy_args(op, step.clone()),
                )
            })
            .collect()
    }

    /// The arguments of operand `op`'s copy (or its halves) for step `step`: the thread,
    /// the tile's row and column in the matrix's tiles, the matrix's rows and columns.
    fn copy_args(&self, op: Operand, step: Expr) -> Vec<Expr> {
        let at = name("at").field(["x", "y"][op.index]);
        let [row, column] = op.coords(at, step);
        let [rows, columns] = op.coords(self.shape[op.index], self.shape[2]);
        vec![name("thread"), row, column, u(rows), u(columns)]
    }

    /// `k0`, the step's first k, for the operands read straight from memory.
    fn k0(&self, out: &mut Block) {
        if self.direct != [false, false] {
            out.let_("k0", name("step") * u(self.tile[2]));
        }
    }

    /// How many fragments along its other side the subgroup loads of operand `op`: its
    /// fragments' rows of A, columns of B.
    fn fragments_along(&self, op: Operand) -> usize {
        match op.index {
            0 => self.fragment.rows.len(),
            _ => self.fragment.columns.len(),
        }
    }

    /// The cooperative load of operand `op`'s fragment `f` (of the subgroup's rows of A,
    /// columns of B) at `kk` (in fragments of the step's k): from its tile `buffer`, or
    /// straight from memory.
    fn fragment_load(&self, op: Operand, buffer: usize, f: usize, kk: usize) -> Expr {
        match self.direct[op.index] {
            true => self.direct_load(op, f, kk),
            false => {
                let side = numbered(op.fragments, [f]) * u(FRAGMENT);
                let entry = self.entry(op.index, op.coords(side, u(kk * FRAGMENT)));
                let tile = numbered(op.tile, [buffer]).index(entry);
                coop_load(op, tile.address_of(), self.pitches[op.index] / 4)
            }
        }
    }

    /// The cooperative load of operand `op`'s fragment `f` at `kk` straight from memory:
    /// its first element in the storage array's entries (`k0`: the step's first k), and
    /// the row pitch in entries.
    fn direct_load(&self, op: Operand, f: usize, kk: usize) -> Expr {
        let ([_, n, k], [bm, bn, _]) = (self.shape, self.tile);
        let width = self.copies[op.index].width;
        let (k0, at) = (name("k0"), name("at"));
        let side = numbered(op.fragments, [f]) * u(FRAGMENT);
        let (first, pitch) = match op.index {
            0 => (
                (at.field("x") * u(bm) + side) * u(k) + k0 + u(kk * FRAGMENT),
                k,
            ),
            _ => (
                (k0 + u(kk * FRAGMENT)) * u(n) + at.field("y") * u(bn) + side,
                n,
            ),
        };
        let element = name(op.matrix).index(first / u(width));
        coop_load(op, element.address_of(), pitch / width)
    }

    /// The entry (a `vec4`) of layout `layout` ([`Kernel::offsets`]) that holds the
    /// element at `coords`.
    fn entry(&self, layout: usize, coords: impl IntoIterator<Item = Expr>) -> Expr {
        call(&self.offsets[layout], coords) / u(4)
    }

    /// The multiply-adds of one step from buffer `buffer`.
    fn compute(&self, buffer: usize, out: &mut Block) {
        for kk in 0..self.tile[2] / FRAGMENT {
            for op in [A, B] {
                for f in 0..self.fragments_along(op) {
                    out.let_(
                        numbered(op.matrix, [buffer, f, kk]),
                        self.fragment_load(op, buffer, f, kk),
                    );
                }
            }
            for &value in &self.fragment.values {
                multiply_add(out, buffer, kk, value);
            }
        }
    }

    /// The epilogue: each fragment through the subgroup's stage to C's rows.
    fn epilogue(&self, out: &mut Block) {
        let [m, n, _] = self.shape;
        let [bm, bn, _] = self.tile;
        let at = name("at");
        let fits = |first: &str, tile: usize, len: usize| (name(first) + u(tile)).le(u(len));
        out.comment("C's fragments, each through the subgroup's stage, stored along C's rows.")
            .let_("m0", at.clone().field("x") * u(bm))
            .let_("n0", at.field("y") * u(bn))
            .let_("interior", fits("m0", bm, m).and(fits("n0", bn, n)))
            .let_("stage", self.entry(STAGE, [name("subgroup"), u(0), u(0)]));
        let lane_names = coordinates(
            out,
            "lane",
            &thread_names(&self.tc.c_stores),
            &self.stores.thread_lens,
        );
        for (r, row) in self.stores.rows.iter().enumerate() {
            out.let_(numbered("sr", [r]), print(row, &lane_names));
        }
        for run in &self.store_runs {
            out.let_(
                numbered("sc", [run.first]),
                print(&self.stores.columns[run.first], &lane_names),
            );
        }
        let (stage, stride) = (
            name("c_stage").index(name("stage")),
            self.pitches[STAGE] / 4,
        );
        for &value in &self.fragment.values {
            let pointer = stage.clone().address_of();
            out.call(call("coopStoreT", [accumulator(value), pointer, u(stride)]))
                .line("workgroupBarrier();");
            for (r, _) in self.stores.rows.iter().enumerate() {
                for run in &self.store_runs {
                    out.scope(|store| self.store(store, value, r, run.first));
                }
            }
            out.line("workgroupBarrier();");
        }
    }

    /// One lane's store of row `sr<r>`, columns from `sc<f>`, of fragment `(i, j)` from
    /// the stage into C, guarded at C's edges.
    fn store(&self, store: &mut Block, (i, j): (usize, usize), r: usize, f: usize) {
        let [m, n, _] = self.shape;
        let (sr, sc) = (numbered("sr", [r]), numbered("sc", [f]));
        let staged =
            name("c_stage").index(self.entry(STAGE, [name("subgroup"), sr.clone(), sc.clone()]));
        let value = match self.tc.accumulate {
            Accumulate::F32 => staged,
            Accumulate::F16 => call(vector("f32", 4), [staged]),
        };
        let fragment = |op: Operand, at: usize| numbered(op.fragments, [at]) * u(FRAGMENT);
        store
            .let_("row", name("m0") + fragment(A, i) + sr)
            .let_("column", name("n0") + fragment(B, j) + sc)
            .let_("value", value);
        let (row, column, interior) = (name("row"), name("column"), name("interior"));
        let inside = |column: Expr| {
            interior
                .clone()
                .or(row.clone().lt(u(m)).and(column.lt(u(n))))
        };
        match self.c_width() {
            4 => {
                store.assign_when(
                    inside(column.clone()),
                    name("c").index((row.clone() * u(n) + column) / u(4)),
                    name("value"),
                );
            }
            _ => {
                for (lane, component) in ["x", "y", "z", "w"].iter().enumerate() {
                    store.assign_when(
                        inside(column.clone() + u(lane)),
                        name("c").index(row.clone() * u(n) + column.clone() + u(lane)),
                        name("value").field(component),
                    );
                }
            }
        }
    }
}
/// The stage's row pitch in words: each subgroup's stage must be 16 × 16 rows at one
/// pitch, from a whole vec4.
fn stage_pitch(tc: &TensorCores) -> Result<usize, GpuError> {
    let stage = |s: usize, r: usize, c: usize| tc.c_stage.offset(&[s, r, c]).ok();
    let c_pitch = stage(0, 1, 0)
        .unwrap_or(0)
        .wrapping_sub(stage(0, 0, 0).unwrap_or(0));
    for s in 0..tc.fragments.thread_count() {
        let base = stage(s, 0, 0).unwrap_or(1);
        let regular = (0..FRAGMENT)
            .all(|r| (0..FRAGMENT).all(|c| stage(s, r, c) == Some(base + r * c_pitch + c)));
        if !regular || !base.is_multiple_of(4) || !c_pitch.is_multiple_of(4) {
            return Err(unsupported(
                tc.c_stage,
                "each subgroup's stage must be 16 rows of 16 consecutive words at one pitch, \
                 starting on a vec4, the pitch whole vec4s",
            ));
        }
    }
    Ok(c_pitch)
}

/// The copy of operand `op`'s `tile` into buffer `buffer`, added to `functions`: split
/// into a fetch and a put where it can be (16-byte copies must be). Returns the split's
/// registers, 0 where not split.
fn tile_copy(
    functions: &mut Module,
    (op, tile): (Operand, &Descriptor),
    copy: &Copy,
    program: &Program,
    buffer: usize,
) -> Result<usize, GpuError> {
    let destination = numbered(op.tile, [buffer]).to_string();
    let writes = wgsl::Writes {
        outside: wgsl::Outside::Zero,
        convert: None,
    };
    let copy_text = wgsl::tiled_copy(
        &numbered(op.load, [buffer]).to_string(),
        &format!(
            "Copies a tile of {} into `{destination}` (`{}`), zeros past the \
             matrix's edges.",
            op.role, tile.name
        ),
        program,
        (op.matrix, &destination),
        writes,
    );
    let split = wgsl::split_tiled_copy(
        program,
        (op.matrix, &destination),
        writes,
        register(copy.wide()),
    );
    match (split, copy.wide()) {
        (Some(split), wide) => {
            let split = Split::new(split, op, buffer, wide);
            functions.function(&split.fetch).function(&split.put);
            match wide {
                // The copy as its two halves: its own text writes 16-byte entries into the
                // tile's 8-byte ones.
                true => functions.function(&split.load),
                false => functions.text(&copy_text),
            };
            Ok(split.registers)
        }
        (None, false) => {
            functions.text(&copy_text);
            Ok(0)
        }
        (None, true) => Err(unsupported(
            copy.code.threads.descriptor,
            "its 16-byte moves must each write one whole entry of the tile",
        )),
    }
}

/// A fragment row's or column's expression of the thread coordinates `names`.
fn print(sym: &Sym, names: &[String]) -> Expr {
    Expr::text(wgsl::expression(&canon::sym_code(sym, names), names))
}

/// The type of a 16 × 16 cooperative matrix of `element`s in `role`: `A` or `B`, an
/// operand's fragment, or `C`, an accumulator.
fn matrix(element: &str, role: &str) -> String {
    template("coop_mat16x16", [element, role])
}

/// The cooperative load of one of operand `op`'s fragments from `pointer`, its rows
/// `stride` entries apart.
fn coop_load(op: Operand, pointer: Expr, stride: usize) -> Expr {
    let load = template("coopLoadT", [matrix("f16", op.role)]);
    call(load, [pointer, u(stride)])
}

/// The accumulator of C's fragment `(i, j)`.
fn accumulator((i, j): (usize, usize)) -> Expr {
    numbered("acc", [i, j])
}

/// The multiply-add into the accumulator of fragment `(i, j)` of the fragments of A and B
/// loaded from buffer `buffer` at `kk`.
fn multiply_add(out: &mut Block, buffer: usize, kk: usize, (i, j): (usize, usize)) {
    let (a, b) = (
        numbered(A.matrix, [buffer, i, kk]),
        numbered(B.matrix, [buffer, j, kk]),
    );
    let acc = accumulator((i, j));
    out.assign(&acc, call("coopMultiplyAdd", [a, b, acc.clone()]));
}

/// A tiled copy split in two: `fetch_x(…)`, which loads every move into an array of
/// registers (zeros where the copy writes zeros), and `put_x(…, r)`, which stores them into
/// the tile where the copy would.
struct Split {
    /// `fetch_x(…)`: every move loaded into an array of registers.
    fetch: Function,
    /// `put_x(…, r)`: the registers stored into the tile where the copy would.
    put: Function,
    /// `load_x(…)`: the copy again, as `put_x(…, fetch_x(…))`.
    load: Function,
    /// The registers' count.
    registers: usize,
}

/// The WGSL type of one register of a split copy: a `mat2x4<f16>` where the moves are 16
/// bytes, else a `vec4<f16>` (one entry of the tile).
fn register(wide: bool) -> &'static str {
    match wide {
        true => "mat2x4<f16>",
        false => "vec4<f16>",
    }
}

impl Split {
    /// The functions of operand `op`'s copy into its tile `buffer` from its split. With
    /// `wide`, the copy's moves are 16 bytes (a `mat2x4<f16>` each, one entry of 8 f16 to
    /// the copy's program): `put_x` writes each register as the two `vec4<f16>` entries of
    /// the tile that it covers.
    fn new(split: wgsl::SplitCopy, op: Operand, buffer: usize, wide: bool) -> Split {
        let [load, fetch, put] = [op.load, op.fetch, op.put].map(|f| numbered(f, [buffer]));
        let destination = numbered(op.tile, [buffer]);
        let count = split.places.len();
        let registers = array(register(wide), Some(count));
        let params: Vec<String> = split.params.iter().map(|p| param(p, "u32")).collect();
        let mut fetch_function =
            Function::new(&fetch, &params)
                .returns(&registers)
                .comment(format_args!(
                    "Loads what `{load}` copies into registers (`{put}` stores them)."
                ));
        fetch_function
            .body
            .declare("r", &registers)
            .extend(split.fetch)
            .ret("r");
        let registers_param = param("r", &registers);
        let mut put_function = Function::new(&put, params.iter().chain([&registers_param]))
            .comment(format_args!(
                "Stores the registers of `{fetch}` where `{load}` would."
            ));
        put_function.body.extend(split.prologue);
        for (register, place) in split.places.iter().enumerate() {
            let (place, value) = (Expr::text(place.as_str()), name("r").index(int(register)));
            match wide {
                true => {
                    for half in 0..2 {
                        put_function.body.assign(
                            destination.clone().index(u(2) * place.clone() + u(half)),
                            value.clone().index(int(half)),
                        );
                    }
                }
                false => {
                    put_function
                        .body
                        .assign(destination.clone().index(place), value);
                }
            }
        }
        let args: Vec<Expr> = split.params.iter().map(name).collect();
        let mut load_function = Function::new(&load, &params)
            .comment(format_args!("Copies a tile as `{put}(…, {fetch}(…))`."));
        let fetched = call(&fetch, &args);
        load_function
            .body
            .call(call(&put, args.iter().cloned().chain([fetched])));
        Split {
            fetch: fetch_function,
            put: put_function,
            load: load_function,
            registers: count,
        }
    }
}
