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
//! What is written by hand: the k-loop (double-buffered where asked: two copies of each
//! tile, the next step's copies issued before this step's multiply-adds, one barrier per
//! step), the cooperative loads and multiply-adds, and the guards.

use super::batch::Pipeline;
use super::gemm::{Code, GemmKernel, GemmPath, Stored, coordinates, thread_names};
use super::transpose::{fitting, unsupported};
use super::workgroup::WorkgroupMatrices;
use super::{BoundsChecks, Gpu, GpuError};
use swizzle_core::analysis::access::Touch;
use swizzle_core::analysis::banks::{self, Banks};
use swizzle_core::emit::wgsl::module::{Access, Block, Builtin, Entry, Function, Module, vector};
use swizzle_core::ir::Descriptor;
use swizzle_core::plans::fragment::Fragment;
use swizzle_core::plans::raster::Raster;
use swizzle_core::plans::threads::ThreadValues;
use swizzle_core::plans::tiled_copy::{Side, TiledCopy};
use swizzle_core::{canon, emit::wgsl};

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
    /// Two copies of each tile: the next step's loads go into one while the tensor cores
    /// read the other.
    pub double_buffer: bool,
    /// With one buffer: each step's copies split in two, the next step's loads from memory
    /// into registers issued before this step's multiply-adds and stored into the tiles at
    /// the top of the next step, so that their latency hides behind the tensor cores. Taken
    /// only where every move of both copies is a whole `vec4` (else the plain copies run).
    pub prefetch: bool,
    /// The multiply-adds' accumulator type (C is f32 either way).
    pub accumulate: Accumulate,
    /// For A and for B: load the fragments with `coopLoadT` straight from the storage
    /// buffer, at the rows and columns the fragment map gives each subgroup, without a tile,
    /// copies or barriers for that operand (the caches share what the subgroups reuse).
    /// Taken where the operand's tiles never cross the matrix's edge (A: `m` and `k`
    /// multiples of `BM` and `BK`; B: `k` and `n` of `BK` and `BN`), else the tile; the
    /// tile's layout still gives `BK`, the k of one step. Double-buffering is off where
    /// either is taken.
    pub direct: [bool; 2],
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
    /// The layouts for the shapes where an operand asked `direct` goes through its tile
    /// (its tiles would cross the matrix's edge): the library's deep tiles fit workgroup
    /// memory only while A has none.
    pub fallback: Option<&'d TensorCores<'d>>,
}

/// The layouts that run `[m, n, k]`: `tc`, or its fallback where an operand that `tc` asks
/// from memory cannot be (`tc` itself where it has no fallback or its tiles are malformed).
fn resolve<'a>(tc: &'a TensorCores<'a>, shape: [usize; 3]) -> &'a TensorCores<'a> {
    match (tc.fallback, tile_shape(tc)) {
        (Some(fallback), Ok(tile)) if direct_operands(tc, shape, tile) != tc.direct => {
            resolve(fallback, shape)
        }
        _ => tc,
    }
}

/// Which operands the kernel of `[m, n, k]` loads straight from memory (see
/// [`TensorCores::direct`]).
fn direct_operands(tc: &TensorCores, [m, n, k]: [usize; 3], [bm, bn, bk]: [usize; 3]) -> [bool; 2] {
    let whole = |len: usize, tile: usize| len.is_multiple_of(tile);
    [
        tc.direct[0] && whole(m, bm) && whole(k, bk),
        tc.direct[1] && whole(k, bk) && whole(n, bn),
    ]
}

/// The accumulators' element type.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Accumulate {
    /// f32 sums (as cuBLAS HGEMM by default).
    #[default]
    F32,
    /// f16 sums: a coarser result (each step's sum rounded to f16; C still stored as f32).
    /// On workgroup-scope matrices it runs where the driver lists f16 sums for the tile
    /// ([`Gpu::workgroup_matrix_granularities`]). The fragment kernel's WGSL validates, but
    /// on the one driver tried (NVIDIA's 580) its results were wrong, so there
    /// [`Gpu::gemm_kernel`] runs the scalar kernel instead and says so;
    /// [`TensorCores::wgsl`] still prints it.
    F16,
}

impl Accumulate {
    pub(super) fn wgsl(self) -> &'static str {
        match self {
            Accumulate::F32 => "f32",
            Accumulate::F16 => "f16",
        }
    }

    /// What a kernel's name adds for these sums: nothing for the default f32.
    pub(super) fn in_name(self) -> &'static str {
        match self {
            Accumulate::F32 => "",
            Accumulate::F16 => ", f16 accumulators",
        }
    }
}

impl TensorCores<'_> {
    /// The WGSL module of the tensor-core GEMM of `[m, n, k]` (no device needed: for
    /// validation and for the CPU evaluator in the tests).
    pub fn wgsl(&self, shape: [usize; 3]) -> Result<String, GpuError> {
        tensor_wgsl(shape, resolve(self, shape))
    }
}

/// Why `gpu` cannot run the tensor-core GEMM for these operands: `None` where it can.
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
            match tc.double_buffer && direct == [false; 2] {
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
    let copies = if tc.double_buffer && direct == [false; 2] {
        2
    } else {
        1
    };
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
pub(super) fn tensor_wgsl([m, n, k]: [usize; 3], tc: &TensorCores) -> Result<String, GpuError> {
    let [bm, bn, bk] = tile_shape(tc)?;
    let direct = direct_operands(tc, [m, n, k], [bm, bn, bk]);
    let double_buffer = tc.double_buffer && direct == [false; 2];
    let subgroups = tc.fragments.thread_count();
    let threads = subgroups * SUBGROUP;
    let a_pitch = pitch(tc.a_tile).map_err(|why| unsupported(tc.a_tile, why))?;
    let b_pitch = pitch(tc.b_tile).map_err(|why| unsupported(tc.b_tile, why))?;
    // The stage: each subgroup's 16 × 16 rows at one pitch, from a whole vec4.
    let stage = |s: usize, r: usize, c: usize| tc.c_stage.offset(&[s, r, c]).ok();
    let c_pitch = stage(0, 1, 0)
        .unwrap_or(0)
        .wrapping_sub(stage(0, 0, 0).unwrap_or(0));
    for s in 0..subgroups {
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

    let [load_a, load_b] = copies(tc, [m, n, k], direct);
    let (a_width, b_width) = (load_a.width, load_b.width);
    let program = |copy: &Copy| {
        copy.code.program(copy.width).ok_or_else(|| {
            unsupported(
                copy.code.threads.descriptor,
                "its elements do not fold into expressions of the thread small enough to unroll",
            )
        })
    };
    let buffers: &[&str] = match double_buffer {
        true => &["0", "1"],
        false => &["0"],
    };
    let mut functions = Module::new();
    // For each copy, the registers of its split in two (0: not split).
    let mut splits: Vec<usize> = Vec::new();
    for (letter, tile, copy, from_memory) in [
        ("a", tc.a_tile, &load_a, direct[0]),
        ("b", tc.b_tile, &load_b, direct[1]),
    ] {
        let layout = wgsl::layout(&tile.name, tile, false)
            .map_err(|why| unsupported(tile, format!("its WGSL: {why}")))?;
        functions.text(&layout.text);
        if from_memory {
            // No tile: its fragments come straight from the storage buffer.
            splits.push(usize::MAX);
            continue;
        }
        let program = program(copy)?;
        for buffer in buffers {
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
                &program,
                (letter, &destination),
                writes,
            );
            let split = wgsl::split_tiled_copy(
                &program,
                (letter, &destination),
                writes,
                register(copy.wide()),
            );
            match (split, copy.wide()) {
                (Some(split), wide) => {
                    let split = Split::new(split, &stem, &destination, wide);
                    splits.push(split.registers);
                    functions.function(&split.fetch).function(&split.put);
                    match wide {
                        // The copy as its two halves: its own text writes 16-byte entries
                        // into the tile's 8-byte ones.
                        true => functions.function(&split.load),
                        false => functions.text(&copy_text),
                    };
                }
                (None, false) => {
                    splits.push(0);
                    functions.text(&copy_text);
                }
                (None, true) => {
                    return Err(unsupported(
                        copy.code.threads.descriptor,
                        "its 16-byte moves must each write one whole entry of the tile",
                    ));
                }
            }
        }
    }
    let stage_layout = wgsl::layout(&tc.c_stage.name, tc.c_stage, false)
        .map_err(|why| unsupported(tc.c_stage, format!("its WGSL: {why}")))?;
    functions.text(&stage_layout.text);
    let a_prefix = wgsl::layout(&tc.a_tile.name, tc.a_tile, false)
        .map(|l| l.prefix)
        .unwrap_or_default();
    let b_prefix = wgsl::layout(&tc.b_tile.name, tc.b_tile, false)
        .map(|l| l.prefix)
        .unwrap_or_default();
    functions.text(&wgsl::raster(
        "order",
        &format!("Which tile of C each workgroup computes: {}.", tc.order),
        &tc.order.program(),
    ));

    let grid = [m.div_ceil(bm), n.div_ceil(bn)];
    let acc = tc.accumulate.wgsl();
    let c_width = if n.is_multiple_of(4) { 4 } else { 1 };
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
        .storage("a", Access::Read, format_args!("array<{}>", moved(a_width)))
        .storage("b", Access::Read, format_args!("array<{}>", moved(b_width)))
        .storage("c", Access::ReadWrite, format_args!("array<{}>", vector("f32", c_width)));
    // The tiles hold `vec4<f16>`s: NVIDIA's compiler takes a cooperative load only from an
    // array of the matrix's own element type (from `vec4<u32>`s of f16 pairs it fails with
    // `NVVM compilation failed`), and naga 30 has no bitcast from `u32`s to f16 pairs, so the
    // tiles are `vec4<f16>`s and the copies move `vec4<f16>`s (8 bytes) or `mat2x4<f16>`s (16
    // bytes, read as one and written as its two columns).
    for buffer in buffers {
        for (letter, tile, from_memory) in
            [("a", tc.a_tile, direct[0]), ("b", tc.b_tile, direct[1])]
        {
            if !from_memory {
                module.workgroup(
                    &format!("{letter}_tile{buffer}"),
                    format_args!("array<vec4<f16>, {}>", entries(tile)),
                );
            }
        }
    }
    // f16 stages hold 8 per vec4 of f32's bytes, but stay one vec4 per 4 words of the layout.
    module.workgroup(
        "c_stage",
        format_args!("array<vec4<{acc}>, {}>", entries(tc.c_stage)),
    );
    module.text(&functions.finish());

    // The entry point.
    let entry = Entry::new(threads)
        .builtin(Builtin::LocalInvocationIndex, "thread")
        .builtin(Builtin::WorkgroupId, "group");
    let mut out = Block::new();
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
        &mut out,
        "subgroup",
        &thread_names(&tc.fragments),
        &fragment.thread_lens,
    );
    let print = |sym, names: &[String]| wgsl::expression(&canon::sym_code(sym, names), names);
    out.comment("The rows and columns of C's fragments this subgroup computes.");
    for (i, row) in fragment.rows.iter().enumerate() {
        out.let_(format_args!("fr{i}"), print(row, &names));
    }
    for (j, column) in fragment.columns.iter().enumerate() {
        out.let_(format_args!("fc{j}"), print(column, &names));
    }
    for &(i, j) in &fragment.values {
        out.var(
            format_args!("acc{i}_{j}"),
            format_args!("coop_mat16x16<{acc}, C>()"),
        );
    }
    let steps = k.div_ceil(bk);
    // The tiled operands' copies into buffer `buffer` for step `step`, as one line.
    let loads = |buffer: &str, step: &str| {
        let mut calls = Vec::new();
        if !direct[0] {
            calls.push(format!("load_a{buffer}(thread, at.x, {step}, {m}u, {k}u);"));
        }
        if !direct[1] {
            calls.push(format!("load_b{buffer}(thread, {step}, at.y, {k}u, {n}u);"));
        }
        calls.join(" ")
    };
    // Where an operand comes straight from memory: its fragments' first elements, in the
    // storage array's entries (`k0`: the step's first k), and the row pitch in entries.
    let a_direct = |i: usize, kk: usize| {
        format!(
            "&a[((at.x * {bm}u + fr{i} * {FRAGMENT}u) * {k}u + k0 + {}u) / {a_width}u], {}u",
            kk * FRAGMENT,
            k / a_width
        )
    };
    let b_direct = |j: usize, kk: usize| {
        format!(
            "&b[((k0 + {}u) * {n}u + at.y * {bn}u + fc{j} * {FRAGMENT}u) / {b_width}u], {}u",
            kk * FRAGMENT,
            n / b_width
        )
    };
    let a_load = |from: String| format!("coopLoadT<coop_mat16x16<f16, A>>({from})");
    let b_load = |from: String| format!("coopLoadT<coop_mat16x16<f16, B>>({from})");
    let mad = |a: &str, b: &str, (i, j): (usize, usize)| {
        format!("acc{i}_{j} = coopMultiplyAdd({a}, {b}, acc{i}_{j});")
    };
    // The multiply-adds of one step from buffer `buffer`.
    let compute = |buffer: &str, out: &mut Block| {
        for kk in 0..bk / FRAGMENT {
            for (i, _) in fragment.rows.iter().enumerate() {
                let from = match direct[0] {
                    true => a_direct(i, kk),
                    false => format!(
                        "&a_tile{buffer}[{a_prefix}_offset(fr{i} * {FRAGMENT}u, {k0}u) / 4u], {stride}u",
                        k0 = kk * FRAGMENT,
                        stride = a_pitch / 4,
                    ),
                };
                out.let_(format_args!("a{buffer}_{i}_{kk}"), a_load(from));
            }
            for (j, _) in fragment.columns.iter().enumerate() {
                let from = match direct[1] {
                    true => b_direct(j, kk),
                    false => format!(
                        "&b_tile{buffer}[{b_prefix}_offset({kr}u, fc{j} * {FRAGMENT}u) / 4u], {stride}u",
                        kr = kk * FRAGMENT,
                        stride = b_pitch / 4,
                    ),
                };
                out.let_(format_args!("b{buffer}_{j}_{kk}"), b_load(from));
            }
            for &(i, j) in &fragment.values {
                let (a, b) = (format!("a{buffer}_{i}_{kk}"), format!("b{buffer}_{j}_{kk}"));
                out.line(mad(&a, &b, (i, j)));
            }
        }
    };
    let prefetch = tc.prefetch && !double_buffer && splits.iter().all(|&r| r > 0);
    // The k of one step, for the operands read straight from memory.
    let k0 = |out: &mut Block| {
        if direct != [false, false] {
            out.let_("k0", format_args!("step * {bk}u"));
        }
    };
    let each_step = format!("var step = 0u; step < {steps}u; step++");
    match double_buffer {
        false if direct == [true; 2] && tc.prefetch => {
            // No tiles, and the next step's fragments loaded into registers before this
            // step's multiply-adds (the last step loads its own again: no read past k).
            let mut take = Block::new();
            let mut next = Block::new();
            let mut mads = Block::new();
            out.let_("k0", "0u");
            for kk in 0..bk / FRAGMENT {
                for (i, _) in fragment.rows.iter().enumerate() {
                    let load = a_load(a_direct(i, kk));
                    out.var(format_args!("pa_{i}_{kk}"), &load);
                    take.let_(format_args!("a0_{i}_{kk}"), format_args!("pa_{i}_{kk}"));
                    next.assign(format_args!("pa_{i}_{kk}"), load);
                }
                for (j, _) in fragment.columns.iter().enumerate() {
                    let load = b_load(b_direct(j, kk));
                    out.var(format_args!("pb_{j}_{kk}"), &load);
                    take.let_(format_args!("b0_{j}_{kk}"), format_args!("pb_{j}_{kk}"));
                    next.assign(format_args!("pb_{j}_{kk}"), load);
                }
                for &(i, j) in &fragment.values {
                    mads.line(mad(
                        &format!("a0_{i}_{kk}"),
                        &format!("b0_{j}_{kk}"),
                        (i, j),
                    ));
                }
            }
            out.for_(&each_step, |step| {
                step.extend(take)
                    .let_("k0", format_args!("min(step + 1u, {}u) * {bk}u", steps - 1))
                    .extend(next)
                    .extend(mads);
            });
        }
        false if direct == [true; 2] => {
            // No tiles: no copies and no barriers.
            out.for_(&each_step, |step| {
                k0(step);
                compute("0", step);
            });
        }
        false if prefetch => {
            // The next step's loads go into registers before this step's multiply-adds.
            let args = |letter: &str, step: &str| match letter {
                "a" => format!("thread, at.x, {step}, {m}u, {k}u"),
                _ => format!("thread, {step}, at.y, {k}u, {n}u"),
            };
            let tiled: Vec<&str> = ["a", "b"]
                .into_iter()
                .zip(direct)
                .filter(|&(_, d)| !d)
                .map(|(l, _)| l)
                .collect();
            for l in &tiled {
                out.var(
                    format_args!("{l}_next"),
                    format_args!("fetch_{l}0({})", args(l, "0u")),
                );
            }
            out.for_(&each_step, |step| {
                for l in &tiled {
                    step.line(format_args!("put_{l}0({}, {l}_next);", args(l, "step")));
                }
                step.line("workgroupBarrier();").if_(
                    format_args!("step + 1u < {steps}u"),
                    |next| {
                        for l in &tiled {
                            next.assign(
                                format_args!("{l}_next"),
                                format_args!("fetch_{l}0({})", args(l, "step + 1u")),
                            );
                        }
                    },
                );
                k0(step);
                compute("0", step);
                step.line("workgroupBarrier();");
            });
        }
        false => {
            out.for_(&each_step, |step| {
                step.line(loads("0", "step")).line("workgroupBarrier();");
                k0(step);
                compute("0", step);
                step.line("workgroupBarrier();");
            });
        }
        true => {
            // Step `s` reads buffer `s % 2`; the copies of step `s + 1` go into the other
            // before it, which step `s - 1` finished reading at its barrier. Steps go in
            // pairs (the multiply-adds must stay in uniform control flow: no `if` around
            // them), an odd last step after the loop.
            out.line(loads("0", "0u")).line("workgroupBarrier();").for_(
                format_args!("var step = 0u; step + 1u < {steps}u; step += 2u"),
                |pair| {
                    pair.line(loads("1", "step + 1u"));
                    compute("0", pair);
                    pair.line("workgroupBarrier();").if_(
                        format_args!("step + 2u < {steps}u"),
                        |next| {
                            next.line(loads("0", "step + 2u"));
                        },
                    );
                    compute("1", pair);
                    pair.line("workgroupBarrier();");
                },
            );
            if steps % 2 == 1 {
                compute("0", &mut out);
                out.line("workgroupBarrier();");
            }
        }
    }
    // The epilogue: each fragment through the subgroup's stage to C's rows.
    let stage_prefix = &stage_layout.prefix;
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
        &mut out,
        "lane",
        &thread_names(&tc.c_stores),
        &stores.thread_lens,
    );
    for (r, row) in stores.rows.iter().enumerate() {
        out.let_(format_args!("sr{r}"), print(row, &lane_names));
    }
    for run in &store_runs {
        out.let_(
            format_args!("sc{}", run.first),
            print(&stores.columns[run.first], &lane_names),
        );
    }
    let convert = |value: String| match tc.accumulate {
        Accumulate::F32 => value,
        Accumulate::F16 => format!("vec4<f32>({value})"),
    };
    for &(i, j) in &fragment.values {
        out.line(format_args!(
            "coopStoreT(acc{i}_{j}, &c_stage[stage], {}u);",
            c_pitch / 4
        ))
        .line("workgroupBarrier();");
        for (r, _) in stores.rows.iter().enumerate() {
            for run in &store_runs {
                let f = run.first;
                out.scope(|store| {
                    store
                        .let_("row", format_args!("m0 + fr{i} * {FRAGMENT}u + sr{r}"))
                        .let_("column", format_args!("n0 + fc{j} * {FRAGMENT}u + sc{f}"))
                        .let_(
                            "value",
                            convert(format!(
                                "c_stage[{stage_prefix}_offset(subgroup, sr{r}, sc{f}) / 4u]"
                            )),
                        );
                    match c_width {
                        4 => {
                            store.when(
                                format_args!("interior || (row < {m}u && column < {n}u)"),
                                format_args!("c[(row * {n}u + column) / 4u] = value;"),
                            );
                        }
                        _ => {
                            for (lane, component) in ["x", "y", "z", "w"].iter().enumerate() {
                                store.when(
                                    format_args!(
                                        "interior || (row < {m}u && column + {lane}u < {n}u)"
                                    ),
                                    format_args!(
                                        "c[row * {n}u + column + {lane}u] = value.{component};"
                                    ),
                                );
                            }
                        }
                    }
                });
            }
        }
        out.line("workgroupBarrier();");
    }
    module.entry(entry, out);
    Ok(module.finish())
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
