//! GEMM, `C = A · B` in f32 over row-major matrices, built from layouts. Every index the
//! kernel computes comes from a layout: a workgroup copies A's and B's tiles into workgroup
//! memory with two tiled copies (each a thread-value layout, the tiles any layouts, zeros
//! past the matrices' edges), reads each thread's register fragment through the tiles'
//! offsets (the fragment's thread-value layout says which rows and columns, read as
//! vectors where the tile keeps them together), and stores the fragment into C, unguarded
//! in interior tiles. Which tile a workgroup computes is a raster order. What is written by
//! hand is the multiply-accumulate over registers and the loop over steps of k.

use super::batch::{Batch, Dispatch};
use super::tensor::{self, TensorCores};
use super::transpose::{fitting, transposed, unsupported};
use super::{BoundsChecks, Buffer, Gpu, GpuError, Word};
use std::fmt::Write;
use std::time::Duration;
use swizzle_core::ir::Descriptor;
use swizzle_core::plans::fragment::{Fragment, Operand, Read};
use swizzle_core::plans::raster::Raster;
use swizzle_core::plans::threads::ThreadValues;
use swizzle_core::plans::tiled_copy::{self, Instruction, Side, TiledCopy};
use swizzle_core::{canon, emit::wgsl};

/// Lanes per subgroup that the conflict analysis assumes: a warp.
const SUBGROUP: usize = 32;

/// The layouts of a GEMM.
#[derive(Clone, Copy, Debug)]
pub struct Gemm<'d> {
    /// A's workgroup tile: a fixed-size layout over `[m, k]` (`BM × BK`).
    pub a_tile: &'d Descriptor,
    /// B's workgroup tile: over `[k, n]` (`BK × BN`).
    pub b_tile: &'d Descriptor,
    /// The element type of A and B.
    pub operands: Operands,
    /// How A is stored: `m × k` row-major, or transposed (`k × m` row-major).
    pub a_order: Stored,
    /// How B is stored: `k × n` row-major, or transposed (`n × k` row-major).
    pub b_order: Stored,
    /// Who loads A's tile: a thread-value layout over the tile as A stores it: `[m, k]`,
    /// or `[k, m]` where A is transposed (the copy then writes the tile through its
    /// transpose, so the fragments read it as ever).
    pub a_loads: ThreadValues<'d>,
    /// Who loads B's tile: over `[k, n]`, or `[n, k]` where B is transposed.
    pub b_loads: ThreadValues<'d>,
    /// Who accumulates which element of C's tile: over `[m, n]` (`BM × BN`).
    pub fragments: ThreadValues<'d>,
    /// Which tile of C each workgroup computes.
    pub order: Raster,
    /// wgpu's bounds checks (every index is in range by construction: see [`BoundsChecks`]).
    pub bounds_checks: BoundsChecks,
    /// The layouts of the tensor-core kernel, which f16 operands run on where the adapter
    /// has cooperative matrices ([`GemmKernel::path`] says which kernel ran and why).
    pub tensor_cores: Option<TensorCores<'d>>,
}

/// Which kernel a [`GemmKernel`] runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GemmPath {
    /// Cooperative matrices: 16 × 16 × 16 f16 multiply-adds on the tensor cores.
    TensorCores,
    /// Scalar FMAs over register fragments, and why the tensor cores were not used.
    Scalar { why: String },
}

/// The element type A and B are stored in; C and every sum are f32.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Operands {
    #[default]
    F32,
    /// IEEE half precision (`half::f16`, re-exported as `swizzle::gpu::f16`), converted to
    /// f32 as the tiles are loaded: half the operands' memory traffic. Needs the adapter's
    /// `SHADER_F16` ([`Gpu::has_f16`]).
    F16,
}

impl Operands {
    fn bits(self) -> usize {
        match self {
            Operands::F32 => 32,
            Operands::F16 => 16,
        }
    }

    /// The WGSL scalar type.
    fn wgsl(self) -> &'static str {
        match self {
            Operands::F32 => "f32",
            Operands::F16 => "f16",
        }
    }
}

/// A type GEMM operands may be stored as: `f32` or `half::f16`.
pub trait GemmElement: Word + sealed::Sealed {}
impl GemmElement for f32 {}
impl GemmElement for half::f16 {}

mod sealed {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for half::f16 {}
}

/// How an operand lies in memory.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Stored {
    /// Row-major as the product reads it: A `m × k`, B `k × n`.
    #[default]
    RowMajor,
    /// Transposed: A as `k × m` row-major (column-major `m × k`), B as `n × k`.
    Transposed,
}

/// A compiled GEMM and what the analysis says of its workgroup-memory accesses.
#[derive(Debug)]
pub struct GemmKernel {
    pub(super) name: String,
    pub(super) wgsl: String,
    pub(super) dispatch: Dispatch,
    /// `[m, n, k]`.
    pub(super) shape: [usize; 3],
    /// Bits of an element of A and B.
    pub(super) operand_bits: usize,
    /// Which kernel runs, and why.
    pub(super) path: GemmPath,
    /// The instructions of A's and B's tiled copies, with their conflicts and transactions.
    pub loads: [Vec<Instruction>; 2],
    /// The worst bank conflict of the fragment reads of A's and of B's tile.
    pub fragment_conflicts: [usize; 2],
}

impl GemmKernel {
    /// Computes `c = a · b` once and waits for it. To run several GEMMs (or a GEMM and
    /// other kernels) with one wait, record them into a [`Batch`] with
    /// [`GemmKernel::enqueue`].
    pub fn run<T: GemmElement>(
        &self,
        gpu: &Gpu,
        a: &Buffer<T>,
        b: &Buffer<T>,
        c: &Buffer<f32>,
    ) -> Result<(), GpuError> {
        self.check_lengths(a, b, c)?;
        self.dispatch.run(gpu, &[&a.buffer, &b.buffer, &c.buffer])
    }

    /// Records computing `c = a · b` into `batch`, after the runs recorded before it;
    /// [`Batch::submit`] runs them all.
    pub fn enqueue<T: GemmElement>(
        &self,
        batch: &mut Batch,
        a: &Buffer<T>,
        b: &Buffer<T>,
        c: &Buffer<f32>,
    ) -> Result<(), GpuError> {
        self.check_lengths(a, b, c)?;
        self.dispatch
            .enqueue(batch, &[&a.buffer, &b.buffer, &c.buffer]);
        Ok(())
    }

    /// The median GPU time of `runs` runs (timestamp queries), after [`WARM_UP`](super::WARM_UP) of
    /// back-to-back runs.
    pub fn median<T: GemmElement>(
        &self,
        gpu: &Gpu,
        a: &Buffer<T>,
        b: &Buffer<T>,
        c: &Buffer<f32>,
        runs: usize,
    ) -> Result<Duration, GpuError> {
        self.check_lengths(a, b, c)?;
        self.dispatch
            .median(gpu, &[&a.buffer, &b.buffer, &c.buffer], runs)
    }

    /// The worst bank conflict of the tiled copies' writes into A's and B's tiles (1 is
    /// conflict-free; 0 for a kernel without tiles).
    pub fn load_conflicts(&self) -> [usize; 2] {
        self.loads.each_ref().map(|instructions| {
            instructions
                .iter()
                .filter_map(|i| match &i.destination {
                    tiled_copy::Cost::Banks(report) => Some(report.degree),
                    tiled_copy::Cost::Memory(_) => None,
                })
                .max()
                .unwrap_or(0)
        })
    }

    /// Floating-point operations of one run: `2 · m · n · k`.
    pub fn flops(&self) -> f64 {
        let [m, n, k] = self.shape;
        2.0 * m as f64 * n as f64 * k as f64
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// Which kernel runs: the tensor cores, or scalar FMAs and why.
    pub fn path(&self) -> &GemmPath {
        &self.path
    }

    /// The whole WGSL module.
    pub fn wgsl(&self) -> &str {
        &self.wgsl
    }

    fn check_lengths<T: GemmElement>(
        &self,
        a: &Buffer<T>,
        b: &Buffer<T>,
        c: &Buffer<f32>,
    ) -> Result<(), GpuError> {
        if T::BITS != self.operand_bits {
            return Err(GpuError::Element {
                expected: self.operand_bits,
                actual: T::BITS,
            });
        }
        let [m, n, k] = self.shape;
        for (buffer, expected, actual) in [
            ("A", m * k, a.len()),
            ("B", k * n, b.len()),
            ("C", m * n, c.len()),
        ] {
            if expected != actual {
                return Err(GpuError::Length {
                    buffer,
                    expected,
                    actual,
                });
            }
        }
        Ok(())
    }
}

impl Gpu {
    /// `C = A · B` for row-major f32 matrices A (`m × k`), B (`k × n`) and C (`m × n`), any
    /// sizes, through the workgroup tiles, copies, fragments and order of `gemm`.
    pub fn gemm_kernel(&self, [m, n, k]: [usize; 3], gemm: &Gemm) -> Result<GemmKernel, GpuError> {
        for (rows, columns) in [(m, k), (k, n), (m, n)] {
            self.image_len(rows, columns)?;
        }
        let Gemm {
            a_tile,
            b_tile,
            operands,
            a_order,
            b_order,
            a_loads,
            b_loads,
            fragments,
            order,
            bounds_checks,
            tensor_cores,
        } = *gemm;
        if operands == Operands::F16 && !self.has_f16() {
            return Err(GpuError::MissingFeature {
                feature: "SHADER_F16",
                for_what: "f16 GEMM operands",
            });
        }
        let why = match (operands, tensor_cores) {
            (Operands::F32, _) => "f32 operands".to_owned(),
            (Operands::F16, None) => "no tensor-core layouts given".to_owned(),
            (Operands::F16, Some(tc)) => {
                match tensor::unavailable(self, [a_order, b_order], tc.accumulate) {
                    None => return self.tensor_gemm_kernel([m, n, k], &tc, bounds_checks),
                    Some(why) => why,
                }
            }
        };
        let [bm, bk] = shape2(a_tile)?;
        let [bk_b, bn] = shape2(b_tile)?;
        if bk_b != bk {
            return Err(unsupported(
                b_tile,
                format!(
                    "has {bk_b} rows of k but A's tile `{}` has {bk}",
                    a_tile.name
                ),
            ));
        }
        // Each operand's tile as the loads see it: as the matrix is stored.
        let stored = |order, shape: [usize; 2]| match order {
            Stored::RowMajor => shape,
            Stored::Transposed => [shape[1], shape[0]],
        };
        for (threads, expected) in [
            (a_loads, stored(a_order, [bm, bk])),
            (b_loads, stored(b_order, [bk, bn])),
            (fragments, [bm, bn]),
        ] {
            if threads.tile() != expected {
                return Err(unsupported(
                    threads.descriptor,
                    format!(
                        "distributes a tile of {:?}, but the GEMM needs {expected:?}",
                        threads.tile()
                    ),
                ));
            }
        }
        let threads = fragments.thread_count();
        for loads in [a_loads, b_loads] {
            if loads.thread_count() != threads {
                return Err(unsupported(
                    loads.descriptor,
                    format!(
                        "has {} threads but the fragments have {threads}: one workgroup runs \
                         all three",
                        loads.thread_count()
                    ),
                ));
            }
        }
        let bytes = (a_tile.space().unwrap_or(0) + b_tile.space().unwrap_or(0)) as u64 * 4;
        self.check_workgroup(threads, bytes, "the tiles'")?;
        let limits = self.device().limits();
        if let Err(why) = order.check() {
            return Err(unsupported(a_tile, format!("its workgroup order: {why}")));
        }
        let fragment = Fragment::of(&fragments).ok_or_else(|| {
            unsupported(
                fragments.descriptor,
                "its elements do not fold into expressions of the thread, or it has padding",
            )
        })?;
        if fragment.values.len() != fragment.rows.len() * fragment.columns.len() {
            return Err(unsupported(
                fragments.descriptor,
                format!(
                    "a thread's {} values lie on {} rows and {} columns: a fragment holds \
                     every element where its rows and columns cross",
                    fragment.values.len(),
                    fragment.rows.len(),
                    fragment.columns.len()
                ),
            ));
        }

        let copy = |threads, destination| TiledCopy {
            threads,
            source: Side::Image,
            destination,
            element_bytes: 4,
            subgroup: SUBGROUP,
        };
        // A transposed operand is copied into its tile through the tile's transpose.
        let (a_view, b_view) = (transposed(a_tile), transposed(b_tile));
        let view = |order, tile, view| match order {
            Stored::RowMajor => tile,
            Stored::Transposed => view,
        };
        let load_a = copy(a_loads, Side::Tile(view(a_order, a_tile, &a_view)));
        let load_b = copy(b_loads, Side::Tile(view(b_order, b_tile, &b_view)));
        // The matrices' rows: the image each copy reads.
        let a_image = stored(a_order, [m, k]);
        let b_image = stored(b_order, [k, n]);
        let a_width = fitting(load_a.widest(), a_image[1]);
        let b_width = fitting(load_b.widest(), b_image[1]);
        let program = |copy: &TiledCopy, width| {
            copy.program(width).ok_or_else(|| {
                unsupported(
                    copy.threads.descriptor,
                    "its elements do not fold into expressions of the thread small enough to \
                     unroll",
                )
            })
        };
        let load_wgsl = |name: &str, tile: &Descriptor, copy: &TiledCopy, width, buffer| {
            Ok::<String, GpuError>(wgsl::tiled_copy(
                name,
                &format!(
                    "Loads a tile of {buffer} into `{}`, zeros past the matrix's edges.",
                    tile.name
                ),
                &program(copy, width)?,
                (buffer, &format!("{buffer}_tile")),
                wgsl::Writes {
                    outside: wgsl::Outside::Zero,
                    convert: (operands != Operands::F32).then_some("f32"),
                },
            ))
        };
        let layout_wgsl = |tile: &Descriptor| {
            wgsl::layout(&tile.name, tile, false)
                .map_err(|why| unsupported(tile, format!("its WGSL: {why}")))
        };
        let (a_layout, b_layout) = (layout_wgsl(a_tile)?, layout_wgsl(b_tile)?);
        let a_words = tiled_copy::entry_words(a_tile, 4);
        let b_words = tiled_copy::entry_words(b_tile, 4);
        let a_reads = fragment.reads(Operand::A, a_tile, a_words);
        let b_reads = fragment.reads(Operand::B, b_tile, b_words);
        let c_width = if n.is_multiple_of(4) { 4 } else { 1 };
        let c_runs = fragment.column_runs(c_width);
        let c_width = c_runs.iter().map(|r| r.width).max().unwrap_or(1);

        let grid = [m.div_ceil(bm), n.div_ceil(bn)];
        let thread_names: Vec<String> = fragments.descriptor.coords[..fragments.thread_coords]
            .iter()
            .map(|&c| fragments.descriptor.dims[c].name.to_string())
            .collect();
        let body = Body {
            fragment: &fragment,
            thread_names: &thread_names,
            a: TileReads::new(&fragment, (Operand::A, a_tile), &a_layout.prefix, &a_reads),
            b: TileReads::new(&fragment, (Operand::B, b_tile), &b_layout.prefix, &b_reads),
            c: (&c_runs, c_width),
            loads: [
                match a_order {
                    Stored::RowMajor => format!("load_a(thread, at.x, step, {m}u, {k}u);"),
                    Stored::Transposed => format!("load_a(thread, step, at.x, {k}u, {m}u);"),
                },
                match b_order {
                    Stored::RowMajor => format!("load_b(thread, step, at.y, {k}u, {n}u);"),
                    Stored::Transposed => format!("load_b(thread, at.y, step, {n}u, {k}u);"),
                },
            ],
            tile: [bm, bn, bk],
            shape: [m, n, k],
        }
        .main(grid);
        let order_wgsl = wgsl::raster(
            "order",
            &format!("Which tile of C each workgroup computes: {order}."),
            &order.program(),
        );
        let array_of = |element: &str, words: usize| match words {
            1 => element.to_owned(),
            words => format!("vec{words}<{element}>"),
        };
        let array = |words| array_of("f32", words);
        let operand = |words| array_of(operands.wgsl(), words);
        let module = format!(
            "{enable}// C = A · B ({m} × {k} times {k} × {n}, {element} operands, f32 sums): tiles \
             `{a_name}` and `{b_name}`, fragments `{f_name}`.
@group(0) @binding(0) var<storage, read> a: array<{a_array}>;
@group(0) @binding(1) var<storage, read> b: array<{b_array}>;
@group(0) @binding(2) var<storage, read_write> c: array<{c_array}>;
var<workgroup> a_tile: array<{a_entry}, {a_entries}>;
var<workgroup> b_tile: array<{b_entry}, {b_entries}>;

{a_functions}
{b_functions}
{load_a}
{load_b}
{order_wgsl}
{body}",
            a_name = a_tile.name,
            b_name = b_tile.name,
            f_name = fragments.descriptor.name,
            enable = match operands {
                Operands::F32 => "",
                Operands::F16 => "enable f16;\n\n",
            },
            element = operands.wgsl(),
            a_array = operand(a_width),
            b_array = operand(b_width),
            c_array = array(c_width),
            a_entry = array(a_words),
            a_entries = a_tile.space().unwrap_or(0) / a_words,
            b_entry = array(b_words),
            b_entries = b_tile.space().unwrap_or(0) / b_words,
            a_functions = a_layout.text,
            b_functions = b_layout.text,
            load_a = load_wgsl("load_a", a_tile, &load_a, a_width, "a")?,
            load_b = load_wgsl("load_b", b_tile, &load_b, b_width, "b")?,
        );
        let max = limits.max_compute_workgroups_per_dimension as usize;
        let groups = [grid[1], grid[0]];
        if groups.iter().any(|&g| g > max) {
            return Err(GpuError::TooLarge {
                what: "workgroups along one dimension".to_owned(),
                value: groups[0].max(groups[1]) as u64,
                limit: max as u64,
            });
        }
        let name = format!(
            "GEMM{}{} through {} / {}, fragments {} (vec{a_width} / vec{b_width} loads{}{})",
            match operands {
                Operands::F32 => "",
                Operands::F16 => " f16",
            },
            match (a_order, b_order) {
                (Stored::RowMajor, Stored::RowMajor) => "",
                (Stored::Transposed, Stored::RowMajor) => " Aᵀ",
                (Stored::RowMajor, Stored::Transposed) => " Bᵀ",
                (Stored::Transposed, Stored::Transposed) => " Aᵀ Bᵀ",
            },
            a_tile.name,
            b_tile.name,
            fragments.descriptor.name,
            match bounds_checks {
                BoundsChecks::On => "",
                BoundsChecks::Off => ", no bounds checks",
            },
            match order {
                Raster::RowMajor => String::new(),
                order => format!(", {order} order"),
            }
        );
        let pipeline = self.pipeline(&name, &module, bounds_checks)?;
        let conflicts = |operand, tile, reads: &[Read]| {
            fragment
                .read_conflicts(operand, tile, reads, SUBGROUP)
                .degree
        };
        Ok(GemmKernel {
            name,
            wgsl: module,
            dispatch: Dispatch {
                pipeline,
                groups: groups.map(|g| g as u32),
            },
            shape: [m, n, k],
            operand_bits: operands.bits(),
            path: GemmPath::Scalar { why },
            loads: [load_a.instructions(a_width), load_b.instructions(b_width)],
            fragment_conflicts: [
                conflicts(Operand::A, a_tile, &a_reads),
                conflicts(Operand::B, b_tile, &b_reads),
            ],
        })
    }
}

impl Gpu {
    /// The GEMM every comparison starts from: one thread per element of C, each reading a
    /// row of A and a column of B from global memory (16 × 16 threads per workgroup), no
    /// layouts, no workgroup memory.
    pub fn naive_gemm_kernel(&self, [m, n, k]: [usize; 3]) -> Result<GemmKernel, GpuError> {
        for (rows, columns) in [(m, k), (k, n), (m, n)] {
            self.image_len(rows, columns)?;
        }
        let wgsl = format!(
            "// C = A · B ({m} × {k} times {k} × {n}, f32), one thread per element of C.
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;

@compute @workgroup_size(16, 16)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {{
    let row = id.y;
    let column = id.x;
    if (row >= {m}u || column >= {n}u) {{
        return;
    }}
    var sum = 0.0;
    for (var p = 0u; p < {k}u; p++) {{
        sum = fma(a[row * {k}u + p], b[p * {n}u + column], sum);
    }}
    c[row * {n}u + column] = sum;
}}
"
        );
        let groups = [n.div_ceil(16), m.div_ceil(16)];
        let max = self.device().limits().max_compute_workgroups_per_dimension as usize;
        if let Some(&over) = groups.iter().find(|&&g| g > max) {
            return Err(GpuError::TooLarge {
                what: "workgroups along one dimension".to_owned(),
                value: over as u64,
                limit: max as u64,
            });
        }
        let name = "naive GEMM".to_owned();
        Ok(GemmKernel {
            dispatch: Dispatch {
                pipeline: self.pipeline(&name, &wgsl, BoundsChecks::On)?,
                groups: groups.map(|g| g as u32),
            },
            name,
            wgsl,
            shape: [m, n, k],
            operand_bits: 32,
            path: GemmPath::Scalar {
                why: "the naive GEMM".to_owned(),
            },
            loads: [Vec::new(), Vec::new()],
            fragment_conflicts: [0, 0],
        })
    }
}

/// What the kernel's entry point is printed from.
struct Body<'a> {
    fragment: &'a Fragment,
    /// The fragments' thread coordinates, named as in their layout.
    thread_names: &'a [String],
    a: TileReads<'a>,
    b: TileReads<'a>,
    /// The runs of columns stored to C as one vector, and C's vector width.
    c: (&'a [Read], usize),
    /// The calls of A's and B's tiled copies for tile `at` and step `step`.
    loads: [String; 2],
    /// `[BM, BN, BK]`.
    tile: [usize; 3],
    /// `[m, n, k]`.
    shape: [usize; 3],
}

/// How a thread reads one operand's tile: its reads, each step's place as a base computed
/// once plus a constant ([`Fragment::bases`]).
struct TileReads<'a> {
    operand: Operand,
    /// The tile layout's WGSL prefix.
    prefix: &'a str,
    /// Elements per entry of the tile's array.
    words: usize,
    reads: &'a [Read],
    /// For each read, each step's base step and constant.
    bases: Vec<Vec<(usize, usize)>>,
}

impl<'a> TileReads<'a> {
    fn new(
        fragment: &Fragment,
        (operand, tile): (Operand, &Descriptor),
        prefix: &'a str,
        reads: &'a [Read],
    ) -> TileReads<'a> {
        TileReads {
            operand,
            prefix,
            words: tiled_copy::entry_words(tile, 4),
            reads,
            bases: reads
                .iter()
                .map(|&read| fragment.bases(operand, tile, read))
                .collect(),
        }
    }

    /// `a` or `b`: the tile's array is `<letter>_tile`, its reads' locals `<letter><first>`.
    fn letter(&self) -> &'static str {
        match self.operand {
            Operand::A => "a",
            Operand::B => "b",
        }
    }

    /// The local holding read `i`'s place at step `base`.
    fn base_name(&self, i: usize, base: usize) -> String {
        format!("{}{}_at{base}", self.letter(), self.reads[i].first)
    }

    /// The places every step's reads start from, computed once per thread.
    fn places(&self, out: &mut String) {
        for (i, read) in self.reads.iter().enumerate() {
            let mut bases: Vec<usize> = self.bases[i].iter().map(|&(base, _)| base).collect();
            bases.dedup();
            for base in bases {
                let place = match self.operand {
                    Operand::A => format!("row{}, {base}u", read.first),
                    Operand::B => format!("{base}u, col{}", read.first),
                };
                let offset = format!("{}_offset({place})", self.prefix);
                let value = match (read.width, self.words) {
                    (1, _) => offset,
                    (_, words) => format!("{offset} / {words}u"),
                };
                let _ = writeln!(out, "    let {} = {value};", self.base_name(i, base));
            }
        }
    }

    /// Read `i` at step `k`, as a WGSL expression.
    fn read(&self, i: usize, k: usize) -> String {
        let (base, delta) = self.bases[i][k];
        let base = self.base_name(i, base);
        let tile = format!("{}_tile", self.letter());
        let plus = |delta: usize| match delta {
            0 => base.clone(),
            delta => format!("{base} + {delta}u"),
        };
        match (self.reads[i].width, self.words) {
            (1, 1) => format!("{tile}[{}]", plus(delta)),
            (1, w) => {
                let at = plus(delta);
                format!("{tile}[({at}) / {w}u][({at}) % {w}u]")
            }
            (_, w) => format!("{tile}[{}]", plus(delta / w)),
        }
    }
}

impl Body<'_> {
    fn main(&self, [grid_m, grid_n]: [usize; 2]) -> String {
        let fragment = self.fragment;
        let [bm, bn, bk] = self.tile;
        let [m, n, k] = self.shape;
        let threads = fragment.thread_count();
        let mut out = String::new();
        let _ = writeln!(
            out,
            "@compute @workgroup_size({threads})
fn main(
    @builtin(local_invocation_index) thread: u32,
    @builtin(workgroup_id) group: vec3<u32>,
) {{
    let at = order(group.y * {grid_n}u + group.x, {grid_m}u, {grid_n}u);"
        );
        // The thread coordinates of the fragments' layout, from the thread's index.
        let mut stride: usize = threads;
        let names = match self.thread_names {
            [_] => vec!["thread".to_owned()],
            names => {
                let mut out_names = Vec::new();
                for (name, &len) in names.iter().zip(&fragment.thread_lens) {
                    let outer = stride;
                    stride /= len.max(1);
                    let quotient = match stride {
                        1 => "thread".to_owned(),
                        stride => format!("thread / {stride}u"),
                    };
                    let value = match outer == threads {
                        true => quotient,
                        false => format!("{quotient} % {len}u"),
                    };
                    let _ = writeln!(out, "    let {name} = {value};");
                    out_names.push(name.clone());
                }
                out_names
            }
        };
        let print = |sym| wgsl::expression(&canon::sym_code(sym, &names), &names);
        let _ = writeln!(
            out,
            "    // The rows of A and the columns of B this thread's values lie on."
        );
        // Only the lines a read or a store starts from.
        let (runs, c_width) = self.c;
        let firsts = |reads: &[Read]| reads.iter().map(|r| r.first).collect::<Vec<usize>>();
        let rows_read = firsts(self.a.reads);
        let mut columns_read = firsts(self.b.reads);
        columns_read.extend(firsts(runs));
        for (i, row) in fragment.rows.iter().enumerate() {
            if rows_read.contains(&i) || !runs.is_empty() {
                let _ = writeln!(out, "    let row{i} = {};", print(row));
            }
        }
        for (j, column) in fragment.columns.iter().enumerate() {
            if columns_read.contains(&j) {
                let _ = writeln!(out, "    let col{j} = {};", print(column));
            }
        }
        // Where each read starts, once per thread.
        self.a.places(&mut out);
        self.b.places(&mut out);
        // One accumulator per row and read of B: a vector where B's tile gives vectors.
        let b_reads = self.b.reads;
        let vector = |width: usize| match width {
            1 => "f32".to_owned(),
            width => format!("vec{width}<f32>"),
        };
        let accumulator = |r: usize, read: &Read| format!("acc{r}_{}", read.first);
        for r in 0..fragment.rows.len() {
            for read in b_reads {
                let _ = writeln!(
                    out,
                    "    var {}: {};",
                    accumulator(r, read),
                    vector(read.width)
                );
            }
        }
        let _ = writeln!(
            out,
            "    for (var step = 0u; step < {steps}u; step++) {{
        {load_a}
        {load_b}
        workgroupBarrier();",
            steps = k.div_ceil(bk),
            load_a = self.loads[0],
            load_b = self.loads[1],
        );
        let lanes = ["x", "y", "z", "w"];
        for kk in 0..bk {
            let _ = writeln!(out, "        {{");
            // A's element of each row, B's vector of each read, then the products.
            let mut rows = vec![String::new(); fragment.rows.len()];
            for (i, read) in self.a.reads.iter().enumerate() {
                let _ = writeln!(
                    out,
                    "            let a{} = {};",
                    read.first,
                    self.a.read(i, kk)
                );
                for lane in 0..read.width {
                    rows[read.first + lane] = match read.width {
                        1 => format!("a{}", read.first),
                        _ => format!("a{}.{}", read.first, lanes[lane]),
                    };
                }
            }
            for (i, read) in b_reads.iter().enumerate() {
                let _ = writeln!(
                    out,
                    "            let b{} = {};",
                    read.first,
                    self.b.read(i, kk)
                );
            }
            for (r, row) in rows.iter().enumerate() {
                for read in b_reads {
                    let acc = accumulator(r, read);
                    let a = match read.width {
                        1 => row.clone(),
                        width => format!("vec{width}({row})"),
                    };
                    let _ = writeln!(out, "            {acc} = fma({a}, b{}, {acc});", read.first);
                }
            }
            let _ = writeln!(out, "        }}");
        }
        let _ = writeln!(
            out,
            "        workgroupBarrier();
    }}
    // C's tile: unguarded where it lies wholly inside C.
    let m0 = at.x * {bm}u;
    let n0 = at.y * {bn}u;"
        );
        // The accumulator lane that holds the value at row `r`, column `c`.
        let held = |r: usize, c: usize| -> Option<String> {
            let read = b_reads
                .iter()
                .find(|read| (read.first..read.first + read.width).contains(&c))?;
            Some(match read.width {
                1 => accumulator(r, read),
                _ => format!("{}.{}", accumulator(r, read), lanes[c - read.first]),
            })
        };
        let stores = |guarded: bool| -> String {
            let mut out = String::new();
            let indent = if guarded { "    " } else { "        " };
            for (r, _) in fragment.rows.iter().enumerate() {
                for run in runs.iter() {
                    let Some(parts) = (run.first..run.first + run.width)
                        .map(|c| held(r, c))
                        .collect::<Option<Vec<String>>>()
                    else {
                        continue;
                    };
                    let row = format!("m0 + row{r}");
                    let column = format!("n0 + col{}", run.first);
                    // A whole accumulator where the run is one, else its lanes gathered.
                    let whole = b_reads
                        .iter()
                        .find(|read| read.first == run.first && read.width == run.width)
                        .filter(|read| read.width > 1);
                    let value = match (whole, parts.as_slice()) {
                        (Some(read), _) => accumulator(r, read),
                        (None, [one]) => one.clone(),
                        (None, many) => format!("vec{}({})", many.len(), many.join(", ")),
                    };
                    let index = match c_width {
                        1 => format!("({row}) * {n}u + {column}"),
                        w => format!("(({row}) * {n}u + {column}) / {w}u"),
                    };
                    let store = if run.width == c_width {
                        format!("c[{index}] = {value};")
                    } else {
                        format!("c[{index}][({column}) % {c_width}u] = {value};")
                    };
                    match guarded {
                        true => {
                            let _ = writeln!(
                                out,
                                "{indent}if ({row} < {m}u && {column} < {n}u) {{ {store} }}"
                            );
                        }
                        false => {
                            let _ = writeln!(out, "{indent}{store}");
                        }
                    }
                }
            }
            out
        };
        let _ = write!(
            out,
            "    if (m0 + {bm}u <= {m}u && n0 + {bn}u <= {n}u) {{
{interior}        return;
    }}
{edge}}}
",
            interior = stores(false),
            edge = stores(true),
        );
        out
    }
}

/// The two lengths of a tile of rank 2.
fn shape2(tile: &Descriptor) -> Result<[usize; 2], GpuError> {
    let shape = tile.shape();
    <[usize; 2]>::try_from(shape.as_slice()).map_err(|_| {
        unsupported(
            tile,
            format!("a GEMM tile has two coordinates, not {}", shape.len()),
        )
    })
}
