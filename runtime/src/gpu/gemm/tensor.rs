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

use super::kernel::{coordinates, thread_names};
use super::workgroup::WorkgroupMatrices;
use crate::gpu::GpuError;
use crate::gpu::cooperative::Accumulate;
use crate::gpu::transpose::{fitting, unsupported};
use swizzle_core::analysis::access::Touch;
use swizzle_core::analysis::banks::{self, Banks};
use swizzle_core::canon::sym::Sym;
use swizzle_core::emit::wgsl::module::{Access, Block, Builtin, Entry, Function, Module, vector};
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
/// f16, as the cooperative loads need rows); else why not.
fn pitch(tile: &Descriptor) -> Result<usize, String> {
    let shape = tile.shape();
    let offset = |at: &[usize]| tile.offset(at).map_err(|e| format!("{e:?}"));
    let [rows, columns] = <[usize; 2]>::try_from(shape.as_slice())
        .map_err(|_| format!("has {} coordinates, not 2", shape.len()))?;
    let pitch = match rows {
        1 => columns,
        _ => offset(&[1, 0])?,
    };
    if !pitch.is_multiple_of(8) {
        return Err(format!(
            "its row pitch, {pitch} f16, is not a multiple of 16 bytes"
        ));
    }
    for r in 0..rows {
        for c in 0..columns {
            if offset(&[r, c])? != r * pitch + c {
                return Err(format!(
                    "({r}, {c}) is not at row · {pitch} + column: a cooperative load reads rows \
                     of consecutive words at one pitch"
                ));
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
            operand_bits: 16,
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
    let a = tc.a_tile.shape();
    let b = tc.b_tile.shape();
    let (&[bm, bk_a], &[bk, bn]) = (a.as_slice(), b.as_slice()) else {
        return Err(unsupported(tc.a_tile, "a GEMM tile has two coordinates"));
    };
    if bk_a != bk {
        return Err(unsupported(
            tc.b_tile,
            format!("has {bk} rows of k but A's tile has {bk_a}"),
        ));
    }
    for (what, len) in [("BM", bm), ("BN", bn), ("BK", bk)] {
        if !len.is_multiple_of(FRAGMENT) {
            return Err(unsupported(
                tc.a_tile,
                format!("{what} = {len} is not a multiple of the fragments' {FRAGMENT}"),
            ));
        }
    }
    let want = [bm / FRAGMENT, bn / FRAGMENT];
    if tc.fragments.tile() != want {
        return Err(unsupported(
            tc.fragments.descriptor,
            format!(
                "distributes {:?}, but C's tile has {want:?} fragments",
                tc.fragments.tile()
            ),
        ));
    }
    let subgroups = tc.fragments.thread_count();
    for (loads, tile) in [(tc.a_loads, [bm, bk]), (tc.b_loads, [bk, bn])] {
        if loads.tile() != tile || loads.thread_count() != subgroups * SUBGROUP {
            return Err(unsupported(
                loads.descriptor,
                format!(
                    "must distribute {tile:?} over {} threads ({subgroups} subgroups)",
                    subgroups * SUBGROUP
                ),
            ));
        }
    }
    if tc.c_stage.shape() != [subgroups, FRAGMENT, FRAGMENT] {
        return Err(unsupported(
            tc.c_stage,
            format!("must be over [{subgroups}, {FRAGMENT}, {FRAGMENT}]: a stage per subgroup"),
        ));
    }
    if tc.c_stores.tile() != [FRAGMENT, FRAGMENT] || tc.c_stores.thread_count() != SUBGROUP {
        return Err(unsupported(
            tc.c_stores.descriptor,
            format!("must distribute a {FRAGMENT} × {FRAGMENT} fragment over {SUBGROUP} lanes"),
        ));
    }
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
        WIDE => "mat2x4<f16>".to_owned(),
        width => vector("f16", width),
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
    /// The prefixes of A's, B's tile and the stage's layout functions.
    prefixes: [String; 3],
}

impl<'a, 'd> Kernel<'a, 'd> {
    /// The layouts of `tc` checked for the module of `[m, n, k]`.
    fn new([m, n, k]: [usize; 3], tc: &'a TensorCores<'d>) -> Result<Self, GpuError> {
        let tile = tile_shape(tc)?;
        let direct = direct_operands(tc, [m, n, k], tile);
        let a_pitch = pitch(tc.a_tile).map_err(|why| unsupported(tc.a_tile, why))?;
        let b_pitch = pitch(tc.b_tile).map_err(|why| unsupported(tc.b_tile, why))?;
        let c_pitch = stage_pitch(tc)?;
        if let Err(why) = tc.order.check() {
            return Err(unsupported(
                tc.a_tile,
                format!("its workgroup order: {why}"),
            ));
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
        let prefix = |tile: &Descriptor| {
            wgsl::layout(&tile.name, tile, false)
                .map(|l| l.prefix)
                .unwrap_or_default()
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
            prefixes: [prefix(tc.a_tile), prefix(tc.b_tile), prefix(tc.c_stage)],
        })
    }

    /// The tile buffers' suffixes: `0`, and `1` where double-buffered.
    fn buffers(&self) -> &'static [&'static str] {
        match double_buffered(self.tc) {
            true => &["0", "1"],
            false => &["0"],
        }
    }

    /// The module's functions: the layouts', the copies (split where they can be: each
    /// copy's registers in the second result, 0 where not split, none where the operand
    /// has no tile) and the raster order.
    fn copy_functions(&self) -> Result<(Module, Vec<usize>), GpuError> {
        let tc = self.tc;
        let mut functions = Module::new();
        let mut splits: Vec<usize> = Vec::new();
        for (letter, tile, copy, from_memory) in [
            ("a", tc.a_tile, &self.copies[0], self.direct[0]),
            ("b", tc.b_tile, &self.copies[1], self.direct[1]),
        ] {
            let layout = wgsl::layout(&tile.name, tile, false)
                .map_err(|why| unsupported(tile, format!("its WGSL: {why}")))?;
            functions.text(&layout.text);
            if from_memory {
                // No tile: its fragments come straight from the storage buffer.
                splits.push(usize::MAX);
                continue;
            }
            let program = copy.code.program(copy.width).ok_or_else(|| {
                unsupported(
                    copy.code.threads.descriptor,
                    "its elements do not fold into expressions of the thread small enough to unroll",
                )
            })?;
            for buffer in self.buffers() {
                splits.push(tile_copy(
                    &mut functions,
                    (letter, tile),
                    copy,
                    &program,
                    buffer,
                )?);
            }
        }
        let stage_layout = wgsl::layout(&tc.c_stage.name, tc.c_stage, false)
            .map_err(|why| unsupported(tc.c_stage, format!("its WGSL: {why}")))?;
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
            ))
            .storage("a", Access::Read, format_args!("array<{}>", moved(self.copies[0].width)))
            .storage("b", Access::Read, format_args!("array<{}>", moved(self.copies[1].width)))
            .storage("c", Access::ReadWrite, format_args!("array<{}>", vector("f32", self.c_width())));
        // The tiles hold `vec4<f16>`s: NVIDIA's compiler takes a cooperative load only from
        // an array of the matrix's own element type (from `vec4<u32>`s of f16 pairs it fails
        // with `NVVM compilation failed`), and naga 30 has no bitcast from `u32`s to f16
        // pairs, so the tiles are `vec4<f16>`s and the copies move `vec4<f16>`s (8 bytes) or
        // `mat2x4<f16>`s (16 bytes, read as one and written as its two columns).
        for buffer in self.buffers() {
            for (letter, tile, from_memory) in [
                ("a", tc.a_tile, self.direct[0]),
                ("b", tc.b_tile, self.direct[1]),
            ] {
                if !from_memory {
                    module.workgroup(
                        &format!("{letter}_tile{buffer}"),
                        format_args!("array<vec4<f16>, {}>", entries(tile)),
                    );
                }
            }
        }
        // f16 stages hold 8 per vec4 of f32's bytes, but stay one vec4 per 4 words of the
        // layout.
        module.workgroup(
            "c_stage",
            format_args!("array<vec4<{acc}>, {}>", entries(tc.c_stage)),
        );
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
        let grid = [m.div_ceil(bm), n.div_ceil(bn)];
        out.let_(
            "at",
            format_args!(
                "order(group.y * {gn}u + group.x, {gm}u, {gn}u)",
                gm = grid[0],
                gn = grid[1]
            ),
        )
        .let_("subgroup", format_args!("thread / {SUBGROUP}u"))
        .let_("lane", format_args!("thread % {SUBGROUP}u"));
        // The fragments' thread coordinates, from the subgroup's index.
        let names = coordinates(
            out,
            "subgroup",
            &thread_names(self.fragments),
            &self.fragment.thread_lens,
        );
        out.comment("The rows and columns of C's fragments this subgroup computes.");
        for (i, row) in self.fragment.rows.iter().enumerate() {
            out.let_(format_args!("fr{i}"), print(row, &names));
        }
        for (j, column) in self.fragment.columns.iter().enumerate() {
            out.let_(format_args!("fc{j}"), print(column, &names));
        }
        let acc = self.tc.accumulate.wgsl();
        for &(i, j) in &self.fragment.values {
            out.var(
                format_args!("acc{i}_{j}"),
                format_args!("coop_mat16x16<{acc}, C>()"),
            );
        }
    }

    /// The k-loop, as the design writes it.
    fn k_loop(&self, out: &mut Block) {
        match self.steps {
            Steps::DirectPrefetched => self.direct_prefetched(out),
            Steps::Direct => {
                // No tiles: no copies and no barriers.
                out.for_(self.each_step(), |step| {
                    self.k0(step);
                    self.compute("0", step);
                });
            }
            Steps::Prefetched => self.prefetched(out),
            Steps::Plain => {
                out.for_(self.each_step(), |step| {
                    step.line(self.loads("0", "step"))
                        .line("workgroupBarrier();");
                    self.k0(step);
                    self.compute("0", step);
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

    /// The k-loop's header.
    fn each_step(&self) -> String {
        format!("var step = 0u; step < {}u; step++", self.steps())
    }

    /// No tiles, and the next step's fragments loaded into registers before this step's
    /// multiply-adds (the last step loads its own again: no read past k).
    fn direct_prefetched(&self, out: &mut Block) {
        let mut take = Block::new();
        let mut next = Block::new();
        let mut mads = Block::new();
        out.let_("k0", "0u");
        for kk in 0..self.tile[2] / FRAGMENT {
            for (i, _) in self.fragment.rows.iter().enumerate() {
                let load = a_load(self.a_direct(i, kk));
                out.var(format_args!("pa_{i}_{kk}"), &load);
                take.let_(format_args!("a0_{i}_{kk}"), format_args!("pa_{i}_{kk}"));
                next.assign(format_args!("pa_{i}_{kk}"), load);
            }
            for (j, _) in self.fragment.columns.iter().enumerate() {
                let load = b_load(self.b_direct(j, kk));
                out.var(format_args!("pb_{j}_{kk}"), &load);
                take.let_(format_args!("b0_{j}_{kk}"), format_args!("pb_{j}_{kk}"));
                next.assign(format_args!("pb_{j}_{kk}"), load);
            }
            for &(i, j) in &self.fragment.values {
                let (a, b) = (format!("a0_{i}_{kk}"), format!("b0_{j}_{kk}"));
                mads.line(mad(&a, &b, (i, j)));
            }
        }
        let (steps, bk) = (self.steps(), self.tile[2]);
        out.for_(self.each_step(), |step| {
            step.extend(take)
                .let_("k0", format_args!("min(step + 1u, {}u) * {bk}u", steps - 1))
                .extend(next)
                .extend(mads);
        });
    }

    /// The next step's loads go into registers before this step's multiply-adds.
    fn prefetched(&self, out: &mut Block) {
        let [m, n, k] = self.shape;
        let steps = self.steps();
        let args = |letter: &str, step: &str| match letter {
            "a" => format!("thread, at.x, {step}, {m}u, {k}u"),
            _ => format!("thread, {step}, at.y, {k}u, {n}u"),
        };
        let tiled: Vec<&str> = ["a", "b"]
            .into_iter()
            .zip(self.direct)
            .filter(|&(_, d)| !d)
            .map(|(l, _)| l)
            .collect();
        for l in &tiled {
            out.var(
                format_args!("{l}_next"),
                format_args!("fetch_{l}0({})", args(l, "0u")),
            );
        }
        out.for_(self.each_step(), |step| {
            for l in &tiled {
                step.line(format_args!("put_{l}0({}, {l}_next);", args(l, "step")));
            }
            step.line("workgroupBarrier();")
                .if_(format_args!("step + 1u < {steps}u"), |next| {
                    for l in &tiled {
                        next.assign(
                            format_args!("{l}_next"),
                            format_args!("fetch_{l}0({})", args(l, "step + 1u")),
                        );
                    }
                });
            self.k0(step);
            self.compute("0", step);
            step.line("workgroupBarrier();");
        });
    }

    /// Step `s` reads buffer `s % 2`; the copies of step `s + 1` go into the other before
    /// it, which step `s - 1` finished reading at its barrier. Steps go in pairs (the
    /// multiply-adds must stay in uniform control flow: no `if` around them), an odd last
    /// step after the loop.
    fn double_buffered(&self, out: &mut Block) {
        let steps = self.steps();
        out.line(self.loads("0", "0u"))
            .line("workgroupBarrier();")
            .for_(
                format_args!("var step = 0u; step + 1u < {steps}u; step += 2u"),
                |pair| {
                    pair.line(self.loads("1", "step + 1u"));
                    self.compute("0", pair);
                    pair.line("workgroupBarrier();").if_(
                        format_args!("step + 2u < {steps}u"),
                        |next| {
                            next.line(self.loads("0", "step + 2u"));
                        },
                    );
                    self.compute("1", pair);
                    pair.line("workgroupBarrier();");
                },
            );
        if steps % 2 == 1 {
            self.compute("0", out);
            out.line("workgroupBarrier();");
        }
    }

    /// The tiled operands' copies into buffer `buffer` for step `step`, as one line.
    fn loads(&self, buffer: &str, step: &str) -> String {
        let [m, n, k] = self.shape;
        let mut calls = Vec::new();
        if !self.direct[0] {
            calls.push(format!("load_a{buffer}(thread, at.x, {step}, {m}u, {k}u);"));
        }
        if !self.direct[1] {
            calls.push(format!("load_b{buffer}(thread, {step}, at.y, {k}u, {n}u);"));
        }
        calls.join(" ")
    }

    /// `k0`, the step's first k, for the operands read straight from memory.
    fn k0(&self, out: &mut Block) {
        if self.direct != [false, false] {
            out.let_("k0", format_args!("step * {}u", self.tile[2]));
        }
    }

    /// Where A comes straight from memory: the first element of its fragment `i` at `kk`,
    /// in the storage array's entries (`k0`: the step's first k), and the row pitch in
    /// entries.
    fn a_direct(&self, i: usize, kk: usize) -> String {
        let ([_, _, k], bm, width) = (self.shape, self.tile[0], self.copies[0].width);
        format!(
            "&a[((at.x * {bm}u + fr{i} * {FRAGMENT}u) * {k}u + k0 + {}u) / {width}u], {}u",
            kk * FRAGMENT,
            k / width
        )
    }

    /// Where B comes straight from memory, likewise.
    fn b_direct(&self, j: usize, kk: usize) -> String {
        let ([_, n, _], bn, width) = (self.shape, self.tile[1], self.copies[1].width);
        format!(
            "&b[((k0 + {}u) * {n}u + at.y * {bn}u + fc{j} * {FRAGMENT}u) / {width}u], {}u",
            kk * FRAGMENT,
            n / width
        )
    }

    /// The multiply-adds of one step from buffer `buffer`.
    fn compute(&self, buffer: &str, out: &mut Block) {
        let [a_prefix, b_prefix, _] = &self.prefixes;
        let [a_pitch, b_pitch, _] = self.pitches;
        for kk in 0..self.tile[2] / FRAGMENT {
            for (i, _) in self.fragment.rows.iter().enumerate() {
                let from = match self.direct[0] {
                    true => self.a_direct(i, kk),
                    false => format!(
                        "&a_tile{buffer}[{a_prefix}_offset(fr{i} * {FRAGMENT}u, {k0}u) / 4u], {stride}u",
                        k0 = kk * FRAGMENT,
                        stride = a_pitch / 4,
                    ),
                };
                out.let_(format_args!("a{buffer}_{i}_{kk}"), a_load(from));
            }
            for (j, _) in self.fragment.columns.iter().enumerate() {
                let from = match self.direct[1] {
                    true => self.b_direct(j, kk),
                    false => format!(
                        "&b_tile{buffer}[{b_prefix}_offset({kr}u, fc{j} * {FRAGMENT}u) / 4u], {stride}u",
                        kr = kk * FRAGMENT,
                        stride = b_pitch / 4,
                    ),
                };
                out.let_(format_args!("b{buffer}_{j}_{kk}"), b_load(from));
            }
            for &(i, j) in &self.fragment.values {
                let (a, b) = (format!("a{buffer}_{i}_{kk}"), format!("b{buffer}_{j}_{kk}"));
                out.line(mad(&a, &b, (i, j)));
            }
        }
    }

    /// The epilogue: each fragment through the subgroup's stage to C's rows.
    fn epilogue(&self, out: &mut Block) {
        let [m, n, _] = self.shape;
        let [bm, bn, _] = self.tile;
        let stage_prefix = &self.prefixes[2];
        out.comment("C's fragments, each through the subgroup's stage, stored along C's rows.")
            .let_("m0", format_args!("at.x * {bm}u"))
            .let_("n0", format_args!("at.y * {bn}u"))
            .let_(
                "interior",
                format_args!("m0 + {bm}u <= {m}u && n0 + {bn}u <= {n}u"),
            )
            .let_(
                "stage",
                format_args!("{stage_prefix}_offset(subgroup, 0u, 0u) / 4u"),
            );
        let lane_names = coordinates(
            out,
            "lane",
            &thread_names(&self.tc.c_stores),
            &self.stores.thread_lens,
        );
        for (r, row) in self.stores.rows.iter().enumerate() {
            out.let_(format_args!("sr{r}"), print(row, &lane_names));
        }
        for run in &self.store_runs {
            out.let_(
                format_args!("sc{}", run.first),
                print(&self.stores.columns[run.first], &lane_names),
            );
        }
        for &(i, j) in &self.fragment.values {
            out.line(format_args!(
                "coopStoreT(acc{i}_{j}, &c_stage[stage], {}u);",
                self.pitches[2] / 4
            ))
            .line("workgroupBarrier();");
            for (r, _) in self.stores.rows.iter().enumerate() {
                for run in &self.store_runs {
                    out.scope(|store| self.store(store, (i, j), r, run.first));
                }
            }
            out.line("workgroupBarrier();");
        }
    }

    /// One lane's store of row `sr<r>`, columns from `sc<f>`, of fragment `(i, j)` from
    /// the stage into C, guarded at C's edges.
    fn store(&self, store: &mut Block, (i, j): (usize, usize), r: usize, f: usize) {
        let [m, n, _] = self.shape;
        let stage_prefix = &self.prefixes[2];
        let staged = format!("c_stage[{stage_prefix}_offset(subgroup, sr{r}, sc{f}) / 4u]");
        let value = match self.tc.accumulate {
            Accumulate::F32 => staged,
            Accumulate::F16 => format!("vec4<f32>({staged})"),
        };
        store
            .let_("row", format_args!("m0 + fr{i} * {FRAGMENT}u + sr{r}"))
            .let_("column", format_args!("n0 + fc{j} * {FRAGMENT}u + sc{f}"))
            .let_("value", value);
        match self.c_width() {
            4 => {
                store.when(
                    format_args!("interior || (row < {m}u && column < {n}u)"),
                    format_args!("c[(row * {n}u + column) / 4u] = value;"),
                );
            }
            _ => {
                for (lane, component) in ["x", "y", "z", "w"].iter().enumerate() {
                    store.when(
                        format_args!("interior || (row < {m}u && column + {lane}u < {n}u)"),
                        format_args!("c[row * {n}u + column + {lane}u] = value.{component};"),
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

/// The copy of `tile` (operand `letter`) into buffer `buffer`, added to `functions`: split
/// into a fetch and a put where it can be (16-byte copies must be). Returns the split's
/// registers, 0 where not split.
fn tile_copy(
    functions: &mut Module,
    (letter, tile): (&str, &Descriptor),
    copy: &Copy,
    program: &Program,
    buffer: &str,
) -> Result<usize, GpuError> {
    let (stem, destination) = (
        format!("{letter}{buffer}"),
        format!("{letter}_tile{buffer}"),
    );
    let writes = wgsl::Writes {
        outside: wgsl::Outside::Zero,
        convert: None,
    };
    let copy_text = wgsl::tiled_copy(
        &format!("load_{stem}"),
        &format!(
            "Copies a tile of {} into `{destination}` (`{}`), zeros past the \
             matrix's edges.",
            letter.to_uppercase(),
            tile.name
        ),
        program,
        (letter, &destination),
        writes,
    );
    let split = wgsl::split_tiled_copy(
        program,
        (letter, &destination),
        writes,
        register(copy.wide()),
    );
    match (split, copy.wide()) {
        (Some(split), wide) => {
            let split = Split::new(split, &stem, &destination, wide);
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
fn print(sym: &Sym, names: &[String]) -> String {
    wgsl::expression(&canon::sym_code(sym, names), names)
}

/// A cooperative load of an A fragment `from` a pointer and stride.
fn a_load(from: String) -> String {
    format!("coopLoadT<coop_mat16x16<f16, A>>({from})")
}

/// A cooperative load of a B fragment, likewise.
fn b_load(from: String) -> String {
    format!("coopLoadT<coop_mat16x16<f16, B>>({from})")
}

/// The multiply-add of fragments `a` and `b` into accumulator `(i, j)`.
fn mad(a: &str, b: &str, (i, j): (usize, usize)) -> String {
    format!("acc{i}_{j} = coopMultiplyAdd({a}, {b}, acc{i}_{j});")
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
    /// The functions of the copy `load_<stem>` into `destination` from its split. With
    /// `wide`, the copy's moves are 16 bytes (a `mat2x4<f16>` each, one entry of 8 f16 to
    /// the copy's program): `put_x` writes each register as the two `vec4<f16>` entries of
    /// the tile that it covers.
    fn new(split: wgsl::SplitCopy, stem: &str, destination: &str, wide: bool) -> Split {
        let name = format!("load_{stem}");
        let count = split.places.len();
        let registers = format!("array<{}, {count}>", register(wide));
        let params: Vec<String> = split.params.iter().map(|p| format!("{p}: u32")).collect();
        let mut fetch = Function::new(format!("fetch_{stem}"), &params)
            .returns(&registers)
            .comment(format_args!(
                "Loads what `{name}` copies into registers (`put_{stem}` stores them)."
            ));
        fetch
            .body
            .declare("r", &registers)
            .extend(split.fetch)
            .ret("r");
        let registers_param = format!("r: {registers}");
        let mut put = Function::new(
            format!("put_{stem}"),
            params.iter().chain([&registers_param]),
        )
        .comment(format_args!(
            "Stores the registers of `fetch_{stem}` where `{name}` would."
        ));
        put.body.extend(split.prologue);
        for (register, place) in split.places.iter().enumerate() {
            match wide {
                true => {
                    for half in 0..2 {
                        put.body.assign(
                            format_args!("{destination}[2u * ({place}) + {half}u]"),
                            format_args!("r[{register}][{half}]"),
                        );
                    }
                }
                false => {
                    put.body.assign(
                        format_args!("{destination}[{place}]"),
                        format_args!("r[{register}]"),
                    );
                }
            }
        }
        let args = split.params.join(", ");
        let mut load = Function::new(&name, &params).comment(format_args!(
            "Copies a tile as `put_{stem}(…, fetch_{stem}(…))`."
        ));
        load.body
            .line(format_args!("put_{stem}({args}, fetch_{stem}({args}));"));
        Split {
            fetch,
            put,
            load,
            registers: count,
        }
    }
}
