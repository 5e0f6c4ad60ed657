//! GEMM, `C = A · B` in f32 over row-major matrices, built from layouts. Every index the
//! kernel computes comes from a layout: a workgroup copies A's and B's tiles into workgroup
//! memory with two tiled copies (each a thread-value layout, the tiles any layouts, zeros
//! past the matrices' edges), reads each thread's register fragment through the tiles'
//! offsets (the fragment's thread-value layout says which rows and columns, read as
//! vectors where the tile keeps them together), and stores the fragment into C, unguarded
//! in interior tiles. Which tile a workgroup computes is a raster order. What is written by
//! hand is the multiply-accumulate over registers and the loop over steps of k.

mod kernel;
mod tensor;
mod workgroup;

#[cfg(feature = "gpu")]
pub use kernel::{GemmElement, GemmKernel, GemmPath};
pub use kernel::{Operands, ShareCost, Stored};
pub use tensor::{DirectOperands, KLoop, TensorCores};
pub use workgroup::WorkgroupMatrices;

use super::transpose::{fitting, transposed, unsupported};
use super::{BoundsChecks, GpuError};
use kernel::{coordinates, thread_names};
use swizzle_core::emit::wgsl::module::{Access, Block, Builtin, Entry, Module, vector};
use swizzle_core::ir::Descriptor;
use swizzle_core::plans::fragment::{self, Base, Fragment, Operand, Read};
use swizzle_core::plans::raster::Raster;
use swizzle_core::plans::threads::ThreadValues;
use swizzle_core::plans::tiled_copy::{self, Instruction, Program, Side, TiledCopy};
use swizzle_core::{canon, emit::wgsl};
#[cfg(feature = "gpu")]
use {super::Gpu, super::batch::Pipeline, kernel::Code};

/// Lanes per subgroup that the conflict analysis assumes: a warp.
const SUBGROUP: usize = 32;

/// Subgroup-wide FMAs an SM issues in the cycle its shared-memory pipe serves one wavefront:
/// 128 FP32 lanes and 128 bytes of workgroup memory a cycle (NVIDIA since Volta).
const FMAS_PER_WAVEFRONT: usize = 4;

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

#[cfg(feature = "gpu")]
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
            fragments,
            order,
            bounds_checks,
            tensor_cores,
            ..
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
                // Malformed layouts are an error on every device, as a malformed tile is.
                if let Some(wm) = &tc.workgroup {
                    wm.check().map_err(|why| workgroup::unsupported(wm, why))?;
                }
                let workgroup = tc
                    .workgroup
                    .map(|wm| (wm, workgroup::unavailable(self, &wm, tc.accumulate)));
                if let Some((wm, None)) = workgroup {
                    return self.workgroup_gemm_kernel(
                        [m, n, k],
                        &wm,
                        [a_order, b_order],
                        tc.accumulate,
                    );
                }
                match tensor::unavailable(self, [a_order, b_order], tc.accumulate) {
                    None => return self.tensor_gemm_kernel([m, n, k], &tc, bounds_checks),
                    Some(why) => match workgroup {
                        Some((_, Some(not_workgroup))) => format!("{not_workgroup}; {why}"),
                        _ => why,
                    },
                }
            }
        };
        let tile = check_tiles(gemm)?;
        let bytes = (a_tile.space().unwrap_or(0) + b_tile.space().unwrap_or(0)) as u64 * 4;
        self.check_workgroup(fragments.thread_count(), bytes, "the tiles'")?;
        if let Err(why) = order.check() {
            return Err(unsupported(a_tile, format!("its workgroup order: {why}")));
        }
        let fragment = fragment_of(fragments)?;
        let views = [transposed(a_tile), transposed(b_tile)];
        let scalar = Scalar::new(gemm, [m, n, k], tile, &fragment, &views);
        let module = scalar.module()?;
        let [grid_m, grid_n] = scalar.grid();
        let groups = self.workgroups([grid_n, grid_m])?;
        let name = scalar.name();
        let pipeline = self.pipeline(&name, &module, bounds_checks)?;
        let conflicts = |operand, tile, reads: &[Read]| {
            fragment
                .read_conflicts(operand, tile, reads, SUBGROUP)
                .degree
        };
        let loads = scalar.load_instructions();
        let share_cost = scalar.share_cost(&loads)?;
        Ok(GemmKernel {
            name,
            code: Code::Wgsl(module),
            pipeline: Pipeline { pipeline, groups },
            shape: [m, n, k],
            operand_bits: operands.bits(),
            path: GemmPath::Scalar { why },
            loads,
            fragment_conflicts: [
                conflicts(Operand::A, a_tile, &scalar.reads[0]),
                conflicts(Operand::B, b_tile, &scalar.reads[1]),
            ],
            share_cost: Some(share_cost),
        })
    }
}

impl Gemm<'_> {
    /// What the scalar kernel's workgroup-memory traffic costs per step of k ([`ShareCost`])
    /// where the matrices are multiples of the tiles, without a device: the model that
    /// ranks tile layouts, as [`GemmKernel::share_cost`] reports it for a built kernel.
    pub fn share_cost(&self) -> Result<ShareCost, GpuError> {
        let [bm, bn, bk] = check_tiles(self)?;
        let fragment = fragment_of(self.fragments)?;
        let views = [transposed(self.a_tile), transposed(self.b_tile)];
        let scalar = Scalar::new(self, [bm, bn, bk], [bm, bn, bk], &fragment, &views);
        scalar.share_cost(&scalar.load_instructions())
    }
}

/// An operand's tile as its loads see it: as the matrix is stored.
fn stored(order: Stored, [rows, columns]: [usize; 2]) -> [usize; 2] {
    match order {
        Stored::RowMajor => [rows, columns],
        Stored::Transposed => [columns, rows],
    }
}

/// `[BM, BN, BK]`, checked against the tiles and the thread-value layouts of `gemm`.
fn check_tiles(gemm: &Gemm) -> Result<[usize; 3], GpuError> {
    let [bm, bk] = shape2(gemm.a_tile)?;
    let [bk_b, bn] = shape2(gemm.b_tile)?;
    if bk_b != bk {
        return Err(unsupported(
            gemm.b_tile,
            format!(
                "has {bk_b} rows of k but A's tile `{}` has {bk}",
                gemm.a_tile.name
            ),
        ));
    }
    for (threads, expected) in [
        (gemm.a_loads, stored(gemm.a_order, [bm, bk])),
        (gemm.b_loads, stored(gemm.b_order, [bk, bn])),
        (gemm.fragments, [bm, bn]),
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
    let threads = gemm.fragments.thread_count();
    for loads in [gemm.a_loads, gemm.b_loads] {
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
    Ok([bm, bn, bk])
}

/// The register fragment of `fragments`: every element where its rows and columns cross.
fn fragment_of(fragments: ThreadValues) -> Result<Fragment, GpuError> {
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
    Ok(fragment)
}

/// One operand's tiled copy and the width of its vectors.
struct Load<'a> {
    copy: TiledCopy<'a>,
    width: usize,
}

impl Load<'_> {
    /// One thread's straight-line code of the copy.
    fn program(&self) -> Result<Program, GpuError> {
        self.copy.program(self.width).ok_or_else(|| {
            unsupported(
                self.copy.threads.descriptor,
                "its elements do not fold into expressions of the thread small enough to \
                 unroll",
            )
        })
    }
}

/// The scalar GEMM of one shape, checked: what its module and name are printed from.
struct Scalar<'a> {
    gemm: &'a Gemm<'a>,
    /// `[m, n, k]`.
    shape: [usize; 3],
    /// `[BM, BN, BK]`.
    tile: [usize; 3],
    fragment: &'a Fragment,
    /// A's and B's copies into their tiles.
    loads: [Load<'a>; 2],
    /// Elements per entry of A's and B's tile arrays.
    words: [usize; 2],
    /// A thread's reads of A's and B's tiles.
    reads: [Vec<Read>; 2],
    /// The runs of columns stored to C as one vector, and C's vector width.
    c_runs: Vec<Read>,
    c_width: usize,
}

impl<'a> Scalar<'a> {
    /// The copies and reads of `gemm` for `[m, n, k]`; `views` are its tiles' transposes,
    /// which a transposed operand is copied through.
    fn new(
        gemm: &'a Gemm<'a>,
        [m, n, k]: [usize; 3],
        tile: [usize; 3],
        fragment: &'a Fragment,
        views: &'a [Descriptor; 2],
    ) -> Scalar<'a> {
        let load = |threads, order, tile, view, image: [usize; 2]| {
            let destination = match order {
                Stored::RowMajor => tile,
                Stored::Transposed => view,
            };
            let copy = TiledCopy {
                threads,
                source: Side::Image,
                destination: Side::Tile(destination),
                element_bytes: 4,
                subgroup: SUBGROUP,
            };
            // The matrix's rows: the image the copy reads.
            let width = fitting(copy.widest(), stored(order, image)[1]);
            Load { copy, width }
        };
        let a = load(gemm.a_loads, gemm.a_order, gemm.a_tile, &views[0], [m, k]);
        let b = load(gemm.b_loads, gemm.b_order, gemm.b_tile, &views[1], [k, n]);
        let words = [gemm.a_tile, gemm.b_tile].map(|tile| tiled_copy::entry_words(tile, 4));
        let reads = [
            fragment.reads(Operand::A, gemm.a_tile, words[0]),
            fragment.reads(Operand::B, gemm.b_tile, words[1]),
        ];
        let c_runs = fragment.column_runs(if n.is_multiple_of(4) { 4 } else { 1 });
        let c_width = c_runs.iter().map(|r| r.width).max().unwrap_or(1);
        Scalar {
            gemm,
            shape: [m, n, k],
            tile,
            fragment,
            loads: [a, b],
            words,
            reads,
            c_runs,
            c_width,
        }
    }

    /// The instructions of A's and B's tiled copies, with their conflicts and transactions.
    fn load_instructions(&self) -> [Vec<Instruction>; 2] {
        self.loads.each_ref().map(|l| l.copy.instructions(l.width))
    }

    /// The model's cost of a step ([`ShareCost`]), from the copies' `instructions`.
    fn share_cost(&self, instructions: &[Vec<Instruction>; 2]) -> Result<ShareCost, GpuError> {
        let gemm = self.gemm;
        let mut cost = ShareCost {
            fma_cycles: self.tile[2] * self.fragment.values.len() / FMAS_PER_WAVEFRONT,
            ..ShareCost::default()
        };
        for (i, (load, instructions)) in self.loads.iter().zip(instructions).enumerate() {
            if !matches!(load.copy.destination, Side::Tile(_)) {
                continue;
            }
            // A move the tile takes in pieces is one store per piece, each costing (at
            // most) what its worst piece does; a square written across its rows is one
            // store of a whole entry per vector. The crossing decides, as it does for
            // `TiledCopy::instructions` (a program whose moves are all guarded has it but
            // no squares).
            let piece = match load.copy.crossing(load.width) {
                Some(crossing) if crossing.part == tiled_copy::Part::Destination => load.width,
                _ => load.copy.piece(load.copy.destination, load.width).max(1),
            };
            cost.store_wavefronts[i] = instructions
                .iter()
                .map(|instruction| match &instruction.destination {
                    tiled_copy::Cost::Banks(report) => {
                        report.wavefronts * instruction.width.div_ceil(piece)
                    }
                    tiled_copy::Cost::Memory(_) => 0,
                })
                .sum();
            cost.store_address_ops[i] = load.program()?.destination_address_ops();
        }
        for (i, (operand, tile)) in [(Operand::A, gemm.a_tile), (Operand::B, gemm.b_tile)]
            .into_iter()
            .enumerate()
        {
            let reads = &self.reads[i];
            cost.read_wavefronts[i] = self
                .fragment
                .read_wavefronts(operand, tile, reads, SUBGROUP);
            cost.read_bases[i] =
                fragment::roots(&self.fragment.bases(operand, tile, reads)).count();
        }
        Ok(cost)
    }

    /// C's tiles along m and n.
    fn grid(&self) -> [usize; 2] {
        let ([m, n, _], [bm, bn, _]) = (self.shape, self.tile);
        [m.div_ceil(bm), n.div_ceil(bn)]
    }

    /// The whole WGSL module.
    fn module(&self) -> Result<String, GpuError> {
        let gemm = self.gemm;
        let [m, n, k] = self.shape;
        let element = gemm.operands.wgsl();
        let layout = |tile: &Descriptor| {
            wgsl::layout(&tile.name, tile, false)
                .map_err(|why| unsupported(tile, format!("its WGSL: {why}")))
        };
        let (a_layout, b_layout) = (layout(gemm.a_tile)?, layout(gemm.b_tile)?);
        let copy = |name: &str, tile: &Descriptor, load: &Load, buffer: &str| {
            let program = load.program()?;
            Ok::<String, GpuError>(wgsl::tiled_copy(
                name,
                &format!(
                    "Loads a tile of {buffer} into `{}`, zeros past the matrix's edges.",
                    tile.name
                ),
                &program,
                (buffer, &format!("{buffer}_tile")),
                wgsl::Writes {
                    outside: wgsl::Outside::Zero,
                    convert: (gemm.operands != Operands::F32).then_some("f32"),
                },
            ))
        };
        let [load_a, load_b] = &self.loads;
        let array = |element: &str, width: usize| format!("array<{}>", vector(element, width));
        let tile_array = |tile: &Descriptor, words: usize| {
            let entries = tile.space().unwrap_or(0) / words;
            format!("array<{}, {entries}>", vector("f32", words))
        };
        let mut module = Module::new();
        if gemm.operands == Operands::F16 {
            module.enable("f16").paragraph();
        }
        module
            .note(format_args!(
                "C = A · B ({m} × {k} times {k} × {n}, {element} operands, f32 sums): tiles `{}` \
                 and `{}`, fragments `{}`.",
                gemm.a_tile.name, gemm.b_tile.name, gemm.fragments.descriptor.name
            ))
            .storage("a", Access::Read, array(element, load_a.width))
            .storage("b", Access::Read, array(element, load_b.width))
            .storage("c", Access::ReadWrite, array("f32", self.c_width))
            .workgroup("a_tile", tile_array(gemm.a_tile, self.words[0]))
            .workgroup("b_tile", tile_array(gemm.b_tile, self.words[1]))
            .text(&a_layout.text)
            .text(&b_layout.text)
            .text(&copy("load_a", gemm.a_tile, load_a, "a")?)
            .text(&copy("load_b", gemm.b_tile, load_b, "b")?)
            .text(&wgsl::raster(
                "order",
                &format!("Which tile of C each workgroup computes: {}.", gemm.order),
                &gemm.order.program(),
            ));
        let main = Body {
            fragment: self.fragment,
            thread_names: &thread_names(&gemm.fragments),
            a: TileReads::new(
                self.fragment,
                (Operand::A, gemm.a_tile),
                &a_layout.prefix,
                &self.reads[0],
            ),
            b: TileReads::new(
                self.fragment,
                (Operand::B, gemm.b_tile),
                &b_layout.prefix,
                &self.reads[1],
            ),
            c: (&self.c_runs, self.c_width),
            loads: [
                match gemm.a_order {
                    Stored::RowMajor => format!("load_a(thread, at.x, step, {m}u, {k}u);"),
                    Stored::Transposed => format!("load_a(thread, step, at.x, {k}u, {m}u);"),
                },
                match gemm.b_order {
                    Stored::RowMajor => format!("load_b(thread, step, at.y, {k}u, {n}u);"),
                    Stored::Transposed => format!("load_b(thread, at.y, step, {n}u, {k}u);"),
                },
            ],
            tile: self.tile,
            shape: self.shape,
        };
        let (entry, body) = main.main(self.grid());
        Ok(module.entry(entry, body).finish())
    }

    /// The kernel's name, for reports.
    fn name(&self) -> String {
        let gemm = self.gemm;
        format!(
            "GEMM{}{} through {} / {}, fragments {} (vec{} / vec{} loads{}{})",
            match gemm.operands {
                Operands::F32 => "",
                Operands::F16 => " f16",
            },
            match (gemm.a_order, gemm.b_order) {
                (Stored::RowMajor, Stored::RowMajor) => "",
                (Stored::Transposed, Stored::RowMajor) => " Aᵀ",
                (Stored::RowMajor, Stored::Transposed) => " Bᵀ",
                (Stored::Transposed, Stored::Transposed) => " Aᵀ Bᵀ",
            },
            gemm.a_tile.name,
            gemm.b_tile.name,
            gemm.fragments.descriptor.name,
            self.loads[0].width,
            self.loads[1].width,
            match gemm.bounds_checks {
                BoundsChecks::On => "",
                BoundsChecks::Off => ", no bounds checks",
            },
            match gemm.order {
                Raster::RowMajor => String::new(),
                order => format!(", {order} order"),
            }
        )
    }
}

#[cfg(feature = "gpu")]
impl Gpu {
    /// The GEMM every comparison starts from: one thread per element of C, each reading a
    /// row of A and a column of B from global memory (16 × 16 threads per workgroup), no
    /// layouts, no workgroup memory.
    pub fn naive_gemm_kernel(&self, [m, n, k]: [usize; 3]) -> Result<GemmKernel, GpuError> {
        for (rows, columns) in [(m, k), (k, n), (m, n)] {
            self.image_len(rows, columns)?;
        }
        let mut module = Module::new();
        module
            .note(format_args!(
                "C = A · B ({m} × {k} times {k} × {n}, f32), one thread per element of C."
            ))
            .storage("a", Access::Read, "array<f32>")
            .storage("b", Access::Read, "array<f32>")
            .storage("c", Access::ReadWrite, "array<f32>");
        let mut body = Block::new();
        body.let_("row", "id.y")
            .let_("column", "id.x")
            .if_(format_args!("row >= {m}u || column >= {n}u"), |outside| {
                outside.line("return;");
            })
            .var("sum", "0.0")
            .for_(format_args!("var p = 0u; p < {k}u; p++"), |each| {
                each.assign(
                    "sum",
                    format_args!("fma(a[row * {k}u + p], b[p * {n}u + column], sum)"),
                );
            })
            .assign(format_args!("c[row * {n}u + column]"), "sum");
        let entry = Entry::new("16, 16").builtin(Builtin::GlobalInvocationId, "id");
        let wgsl = module.entry(entry, body).finish();
        let groups = self.workgroups([n.div_ceil(16), m.div_ceil(16)])?;
        let name = "naive GEMM".to_owned();
        Ok(GemmKernel {
            pipeline: Pipeline {
                pipeline: self.pipeline(&name, &wgsl, BoundsChecks::On)?,
                groups,
            },
            name,
            code: Code::Wgsl(wgsl),
            shape: [m, n, k],
            operand_bits: 32,
            path: GemmPath::Scalar {
                why: "the naive GEMM".to_owned(),
            },
            loads: [Vec::new(), Vec::new()],
            fragment_conflicts: [0, 0],
            share_cost: None,
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
    /// For each read, each step's base and constant.
    bases: Vec<Vec<Base>>,
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
            bases: fragment.bases(operand, tile, reads),
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
    fn places(&self, out: &mut Block) {
        for base in fragment::roots(&self.bases) {
            let read = self.reads[base.read];
            let place = match self.operand {
                Operand::A => format!("row{}, {}u", read.first, base.step),
                Operand::B => format!("{}u, col{}", base.step, read.first),
            };
            let offset = format!("{}_offset({place})", self.prefix);
            let value = match (read.width, self.words) {
                (1, _) => offset,
                (_, words) => format!("{offset} / {words}u"),
            };
            out.let_(self.base_name(base.read, base.step), value);
        }
    }

    /// Read `i` at step `k`, as a WGSL expression.
    fn read(&self, i: usize, k: usize) -> String {
        let Base { read, step, delta } = self.bases[i][k];
        let base = self.base_name(read, step);
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
    /// The entry point and its body.
    fn main(&self, [grid_m, grid_n]: [usize; 2]) -> (Entry, Block) {
        let fragment = self.fragment;
        let [bm, bn, bk] = self.tile;
        let [m, n, k] = self.shape;
        let entry = Entry::new(fragment.thread_count())
            .builtin(Builtin::LocalInvocationIndex, "thread")
            .builtin(Builtin::WorkgroupId, "group");
        let mut body = Block::new();
        body.let_(
            "at",
            format_args!("order(group.y * {grid_n}u + group.x, {grid_m}u, {grid_n}u)"),
        );
        // The thread coordinates of the fragments' layout, from the thread's index.
        let names = coordinates(
            &mut body,
            "thread",
            self.thread_names,
            &fragment.thread_lens,
        );
        let print = |sym| wgsl::expression(&canon::sym_code(sym, &names), &names);
        body.comment("The rows of A and the columns of B this thread's values lie on.");
        // Only the lines a read or a store starts from.
        let (runs, _) = self.c;
        let firsts = |reads: &[Read]| reads.iter().map(|r| r.first).collect::<Vec<usize>>();
        let rows_read = firsts(self.a.reads);
        let mut columns_read = firsts(self.b.reads);
        columns_read.extend(firsts(runs));
        for (i, row) in fragment.rows.iter().enumerate() {
            if rows_read.contains(&i) || !runs.is_empty() {
                body.let_(format_args!("row{i}"), print(row));
            }
        }
        for (j, column) in fragment.columns.iter().enumerate() {
            if columns_read.contains(&j) {
                body.let_(format_args!("col{j}"), print(column));
            }
        }
        // Where each read starts, once per thread.
        self.a.places(&mut body);
        self.b.places(&mut body);
        // One accumulator per row and read of B: a vector where B's tile gives vectors.
        for r in 0..fragment.rows.len() {
            for read in self.b.reads {
                body.declare(accumulator(r, read), vector("f32", read.width));
            }
        }
        body.for_(
            format_args!("var step = 0u; step < {}u; step++", k.div_ceil(bk)),
            |step| {
                step.line(&self.loads[0])
                    .line(&self.loads[1])
                    .line("workgroupBarrier();");
                for kk in 0..bk {
                    step.scope(|products| self.products(products, kk));
                }
                step.line("workgroupBarrier();");
            },
        )
        .comment("C's tile: unguarded where it lies wholly inside C.")
        .let_("m0", format_args!("at.x * {bm}u"))
        .let_("n0", format_args!("at.y * {bn}u"))
        .if_(
            format_args!("m0 + {bm}u <= {m}u && n0 + {bn}u <= {n}u"),
            |interior| {
                self.stores(interior, false);
                interior.line("return;");
            },
        );
        self.stores(&mut body, true);
        (entry, body)
    }

    /// Step `kk` of a tile: A's element of each row, B's vector of each read, then the
    /// products.
    fn products(&self, out: &mut Block, kk: usize) {
        let lanes = ["x", "y", "z", "w"];
        let mut rows = vec![String::new(); self.fragment.rows.len()];
        for (i, read) in self.a.reads.iter().enumerate() {
            out.let_(format_args!("a{}", read.first), self.a.read(i, kk));
            for lane in 0..read.width {
                rows[read.first + lane] = match read.width {
                    1 => format!("a{}", read.first),
                    _ => format!("a{}.{}", read.first, lanes[lane]),
                };
            }
        }
        for (i, read) in self.b.reads.iter().enumerate() {
            out.let_(format_args!("b{}", read.first), self.b.read(i, kk));
        }
        for (r, row) in rows.iter().enumerate() {
            for read in self.b.reads {
                let acc = accumulator(r, read);
                let a = match read.width {
                    1 => row.clone(),
                    width => format!("vec{width}({row})"),
                };
                out.assign(&acc, format_args!("fma({a}, b{}, {acc})", read.first));
            }
        }
    }

    /// The stores of the accumulators into C: `guarded` by C's extents, or not (a tile
    /// wholly inside C).
    fn stores(&self, out: &mut Block, guarded: bool) {
        let [m, n, _] = self.shape;
        let (runs, c_width) = self.c;
        let b_reads = self.b.reads;
        let lanes = ["x", "y", "z", "w"];
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
        for r in 0..self.fragment.rows.len() {
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
                let store = match run.width == c_width {
                    true => format!("c[{index}] = {value};"),
                    false => format!("c[{index}][({column}) % {c_width}u] = {value};"),
                };
                match guarded {
                    true => out.when(format_args!("{row} < {m}u && {column} < {n}u"), store),
                    false => out.line(store),
                };
            }
        }
    }
}

/// The accumulator of row `r` and B's read `read`.
fn accumulator(r: usize, read: &Read) -> String {
    format!("acc{r}_{}", read.first)
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
