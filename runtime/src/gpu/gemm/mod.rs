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

use super::transpose::{
    check_shape, check_threads, fitting, ordered_tile, transposed, unsupported,
};
use super::{BoundsChecks, GpuError, Unsupported};
use kernel::{coordinates, thread_names};
use swizzle_core::emit::wgsl::expr::{Expr, call, name, numbered, u};
use swizzle_core::emit::wgsl::module::{Access, Block, Builtin, Entry, Module, array, vector};
use swizzle_core::ir::Descriptor;
use swizzle_core::plans::fragment::{self, Base, Fragment, Operand, Read};
use swizzle_core::plans::raster::Raster;
use swizzle_core::plans::threads::ThreadValues;
use swizzle_core::plans::tiled_copy::{self, Instruction, Program, Side, TiledCopy};
use swizzle_core::{canon, emit::wgsl};
#[cfg(feature = "gpu")]
use {super::Gpu, super::batch::Pipeline, super::copy::image_len, kernel::Code};

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
            image_len(rows, columns)?;
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
            (_, None) => "no tensor-core layouts given".to_owned(),
            (_, Some(tc)) => {
                // Malformed layouts are an error on every device, as a malformed tile is.
                if let Some(wm) = &tc.workgroup {
                    wm.check()?;
                }
                let elements = (operands, tc.accumulate);
                let workgroup = tc
                    .workgroup
                    .map(|wm| (wm, workgroup::unavailable(self, &wm, elements)));
                if let Some((wm, None)) = workgroup {
                    return self.workgroup_gemm_kernel(
                        [m, n, k],
                        &wm,
                        [a_order, b_order],
                        elements,
                    );
                }
                let per_subgroup = match operands {
                    Operands::Bf16 => Some("the per-subgroup fragments hold f16 only".to_owned()),
                    _ => tensor::unavailable(self, [a_order, b_order], tc.accumulate),
                };
                match per_subgroup {
                    None => return self.tensor_gemm_kernel([m, n, k], &tc, bounds_checks),
                    Some(why) => match workgroup {
                        Some((_, Some(not_workgroup))) => format!("{not_workgroup}; {why}"),
                        _ => format!("no workgroup-scope matrices given; {why}"),
                    },
                }
            }
        };
        if operands == Operands::Bf16 {
            // WGSL has no bf16 type: the scalar kernel cannot load these operands.
            return Err(GpuError::unsupported(
                "Gemm",
                format!(
                    "bf16 operands run on workgroup-scope cooperative matrices only, which this \
                     GEMM cannot use: {why}"
                ),
            ));
        }
        let tile = check_tiles(gemm)?;
        let bytes = (a_tile.space().unwrap_or(0) + b_tile.space().unwrap_or(0)) as u64 * 4;
        self.check_workgroup(fragments.thread_count(), bytes, "the tiles'")?;
        if let Err(why) = order.check() {
            return Err(unsupported(a_tile, Unsupported::Order(why)));
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
            operands,
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

/// An operand's tile (or place, or extents) as its loads see it: as the matrix is stored.
fn stored<T>(order: Stored, [rows, columns]: [T; 2]) -> [T; 2] {
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
            Unsupported::Depth { a: bk, b: bk_b },
        ));
    }
    for (threads, expected) in [
        (gemm.a_loads, stored(gemm.a_order, [bm, bk])),
        (gemm.b_loads, stored(gemm.b_order, [bk, bn])),
        (gemm.fragments, [bm, bn]),
    ] {
        check_shape(threads.descriptor, &threads.tile(), &expected)?;
    }
    let threads = gemm.fragments.thread_count();
    for loads in [gemm.a_loads, gemm.b_loads] {
        check_threads(loads, threads)?;
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
            Unsupported::Fragment {
                values: fragment.values.len(),
                rows: fragment.rows.len(),
                columns: fragment.columns.len(),
            },
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
        let threads = self.copy.threads.descriptor;
        (self.copy.program(self.width)).ok_or_else(|| unsupported(threads, Unsupported::Unroll))
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
        let element = gemm.operands.wgsl().ok_or_else(|| {
            unsupported(
                gemm.a_tile,
                format!("{} operands in WGSL", gemm.operands.name()),
            )
        })?;
        let layout = |tile: &Descriptor| {
            wgsl::layout(&tile.name, tile, false)
                .map_err(|why| unsupported(tile, Unsupported::Wgsl(why)))
        };
        let (a_layout, b_layout) = (layout(gemm.a_tile)?, layout(gemm.b_tile)?);
        let copy = |operand: Operand, tile: &Descriptor, load: &Load| {
            let program = load.program()?;
            let names = OperandNames::of(operand);
            Ok::<String, GpuError>(wgsl::tiled_copy(
                names.load,
                &format!(
                    "Loads a tile of {} into `{}`, zeros past the matrix's edges.",
                    names.buffer, tile.name
                ),
                &program,
                (names.buffer, names.tile),
                wgsl::Writes {
                    outside: wgsl::Outside::Zero,
                    convert: (gemm.operands != Operands::F32).then_some("f32"),
                },
            ))
        };
        let [load_a, load_b] = &self.loads;
        let buffer = |element: &str, width: usize| array(vector(element, width), None);
        let tile_array = |tile: &Descriptor, words: usize| {
            let entries = tile.space().unwrap_or(0) / words;
            array(vector("f32", words), Some(entries))
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
            .storage("a", Access::Read, buffer(element, load_a.width))
            .storage("b", Access::Read, buffer(element, load_b.width))
            .storage("c", Access::ReadWrite, buffer("f32", self.c_width))
            .workgroup("a_tile", tile_array(gemm.a_tile, self.words[0]))
            .workgroup("b_tile", tile_array(gemm.b_tile, self.words[1]))
            .text(&a_layout.text)
            .text(&b_layout.text)
            .text(&copy(Operand::A, gemm.a_tile, load_a)?)
            .text(&copy(Operand::B, gemm.b_tile, load_b)?)
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
                &a_layout,
                &self.reads[0],
            ),
            b: TileReads::new(
                self.fragment,
                (Operand::B, gemm.b_tile),
                &b_layout,
                &self.reads[1],
            ),
            c: (&self.c_runs, self.c_width),
            loads: [
                load_call(Operand::A, gemm.a_order, [tile_row(), name("step")], [m, k]),
                load_call(
                    Operand::B,
                    gemm.b_order,
                    [name("step"), tile_column()],
                    [k, n],
                ),
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
                Operands::F32 => String::new(),
                operands => format!(" {}", operands.name()),
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
            image_len(rows, columns)?;
        }
        let mut module = Module::new();
        module
            .note(format_args!(
                "C = A · B ({m} × {k} times {k} × {n}, f32), one thread per element of C."
            ))
            .storage("a", Access::Read, "array<f32>")
            .storage("b", Access::Read, "array<f32>")
            .storage("c", Access::ReadWrite, "array<f32>");
        let (id, row, column) = (name("id"), name("row"), name("column"));
        let (p, sum) = (name("p"), name("sum"));
        let mut body = Block::new();
        body.let_(&row, id.clone().field("y"))
            .let_(&column, id.field("x"))
            .if_(
                row.clone().ge(u(m)).or(column.clone().ge(u(n))),
                |outside| {
                    outside.line("return;");
                },
            )
            .var(&sum, "0.0")
            .for_range("p", u(k), |each| {
                let a = name("a").index(row.clone() * u(k) + &p);
                let b = name("b").index(p * u(n) + &column);
                each.assign(&sum, call("fma", [a, b, sum.clone()]));
            })
            .assign(name("c").index(row * u(n) + column), &sum);
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
            operands: Operands::F32,
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
    loads: [Expr; 2],
    /// `[BM, BN, BK]`.
    tile: [usize; 3],
    /// `[m, n, k]`.
    shape: [usize; 3],
}

/// How a thread reads one operand's tile: its reads, each step's place as a base computed
/// once plus a constant ([`Fragment::bases`]).
struct TileReads<'a> {
    operand: Operand,
    /// The tile layout's WGSL functions.
    layout: &'a wgsl::Functions,
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
        layout: &'a wgsl::Functions,
        reads: &'a [Read],
    ) -> TileReads<'a> {
        TileReads {
            operand,
            layout,
            words: tiled_copy::entry_words(tile, 4),
            reads,
            bases: fragment.bases(operand, tile, reads),
        }
    }

    /// The local holding read `read`'s value at one step of k: `a0` (`a0.y` its second
    /// line where it reads a vector).
    fn value(&self, read: &Read) -> Expr {
        numbered(OperandNames::of(self.operand).buffer, [read.first])
    }

    /// The local holding read `i`'s place at step `base`: `a0_at3`.
    fn base_name(&self, i: usize, base: usize) -> Expr {
        numbered(&(self.value(&self.reads[i]).to_string() + "_at"), [base])
    }

    /// The places every step's reads start from, computed once per thread.
    fn places(&self, out: &mut Block) {
        for base in fragment::roots(&self.bases) {
            let read = self.reads[base.read];
            let step = u(base.step);
            let coords = match self.operand {
                Operand::A => [fragment_row(read.first), step],
                Operand::B => [step, fragment_column(read.first)],
            };
            let offset = self.layout.offset(coords);
            let value = match (read.width, self.words) {
                (1, _) => offset,
                (_, words) => offset / u(words),
            };
            out.let_(self.base_name(base.read, base.step), value);
        }
    }

    /// Read `i` at step `k`: its entry of the tile, or its element of an entry.
    fn read(&self, i: usize, k: usize) -> Expr {
        let Base { read, step, delta } = self.bases[i][k];
        let base = self.base_name(read, step);
        let tile = name(OperandNames::of(self.operand).tile);
        let plus = |delta: usize| match delta {
            0 => base.clone(),
            delta => base.clone() + u(delta),
        };
        match (self.reads[i].width, self.words) {
            (1, 1) => tile.index(plus(delta)),
            (1, w) => {
                let at = plus(delta);
                tile.index(at.clone() / u(w)).index(at % u(w))
            }
            (_, w) => tile.index(plus(delta / w)),
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
        body.let_("at", ordered_tile([grid_m, grid_n]));
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
                body.let_(fragment_row(i), print(row));
            }
        }
        for (j, column) in fragment.columns.iter().enumerate() {
            if columns_read.contains(&j) {
                body.let_(fragment_column(j), print(column));
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
        let (m0, n0) = (name("m0"), name("n0"));
        let inside = (m0.clone() + u(bm))
            .le(u(m))
            .and((n0.clone() + u(bn)).le(u(n)));
        body.for_range("step", u(k.div_ceil(bk)), |step| {
            step.call(&self.loads[0])
                .call(&self.loads[1])
                .line("workgroupBarrier();");
            for kk in 0..bk {
                step.scope(|products| self.products(products, kk));
            }
            step.line("workgroupBarrier();");
        })
        .comment("C's tile: unguarded where it lies wholly inside C.")
        .let_(&m0, tile_row() * u(bm))
        .let_(&n0, tile_column() * u(bn))
        .if_(inside, |interior| {
            self.stores(interior, false);
            interior.line("return;");
        });
        self.stores(&mut body, true);
        (entry, body)
    }

    /// Step `kk` of a tile: A's element of each row, B's vector of each read, then the
    /// products.
    fn products(&self, out: &mut Block, kk: usize) {
        for (i, read) in self.a.reads.iter().enumerate() {
            out.let_(self.a.value(read), self.a.read(i, kk));
        }
        for (i, read) in self.b.reads.iter().enumerate() {
            out.let_(self.b.value(read), self.b.read(i, kk));
        }
        // A's element of each row: the reads cover the rows in order.
        let rows = self.a.reads.iter().flat_map(|read| {
            (0..read.width).map(|line| lane(self.a.value(read), read.width, line))
        });
        for (r, row) in rows.enumerate() {
            for read in self.b.reads {
                let acc = accumulator(r, read);
                let a = match read.width {
                    1 => row.clone(),
                    width => vec(width, [row.clone()]),
                };
                out.assign(&acc, call("fma", [a, self.b.value(read), acc.clone()]));
            }
        }
    }

    /// The stores of the accumulators into C: `guarded` by C's extents, or not (a tile
    /// wholly inside C).
    fn stores(&self, out: &mut Block, guarded: bool) {
        let [m, n, _] = self.shape;
        let (runs, c_width) = self.c;
        let b_reads = self.b.reads;
        // The accumulator lane that holds the value at row `r`, column `c`.
        let held = |r: usize, c: usize| -> Option<Expr> {
            let read = b_reads
                .iter()
                .find(|read| (read.first..read.first + read.width).contains(&c))?;
            Some(lane(accumulator(r, read), read.width, c - read.first))
        };
        for r in 0..self.fragment.rows.len() {
            for run in runs.iter() {
                let Some(parts) = (run.first..run.first + run.width)
                    .map(|c| held(r, c))
                    .collect::<Option<Vec<Expr>>>()
                else {
                    continue;
                };
                let row = name("m0") + fragment_row(r);
                let column = name("n0") + fragment_column(run.first);
                // A whole accumulator where the run is one, else its lanes gathered.
                let whole = b_reads
                    .iter()
                    .find(|read| read.first == run.first && read.width == run.width)
                    .filter(|read| read.width > 1);
                let value = match (whole, parts.as_slice()) {
                    (Some(read), _) => accumulator(r, read),
                    (None, [one]) => one.clone(),
                    (None, many) => vec(many.len(), many),
                };
                // C's element, its column's two terms added in turn.
                let element = row.clone() * u(n) + name("n0") + fragment_column(run.first);
                let index = match c_width {
                    1 => element,
                    w => element / u(w),
                };
                let place = match run.width == c_width {
                    true => name("c").index(index),
                    false => name("c").index(index).index(column.clone() % u(c_width)),
                };
                match guarded {
                    true => out.assign_when(row.lt(u(m)).and(column.lt(u(n))), place, value),
                    false => out.assign(place, value),
                };
            }
        }
    }
}

/// The WGSL names of an operand's buffer (`a`, also the stem of its reads' locals), its
/// workgroup tile (`a_tile`) and the tiled copy that fills the tile (`load_a`).
struct OperandNames {
    buffer: &'static str,
    tile: &'static str,
    load: &'static str,
}

impl OperandNames {
    fn of(operand: Operand) -> OperandNames {
        match operand {
            Operand::A => OperandNames {
                buffer: "a",
                tile: "a_tile",
                load: "load_a",
            },
            Operand::B => OperandNames {
                buffer: "b",
                tile: "b_tile",
                load: "load_b",
            },
        }
    }
}

/// The call of `operand`'s tiled copy for the tile at `place` (in tiles) of a matrix of
/// `extents`, both as the product reads it: swapped where the operand is stored
/// transposed, as its copy reads it.
fn load_call(operand: Operand, order: Stored, place: [Expr; 2], extents: [usize; 2]) -> Expr {
    let [row, column] = stored(order, place);
    let [rows, columns] = stored(order, extents);
    let args = [name("thread"), row, column, u(rows), u(columns)];
    call(OperandNames::of(operand).load, args)
}

/// The row of C's tiles this workgroup computes (`at`, the raster order's tile).
fn tile_row() -> Expr {
    name("at").field("x")
}

/// The column of C's tiles this workgroup computes.
fn tile_column() -> Expr {
    name("at").field("y")
}

/// The local holding the fragment's row `i`, in C's tile: `row0`.
fn fragment_row(i: usize) -> Expr {
    numbered("row", [i])
}

/// The local holding the fragment's column `j`, in C's tile: `col0`.
fn fragment_column(j: usize) -> Expr {
    numbered("col", [j])
}

/// The accumulator of row `r` and B's read `read`: `acc0_4`.
fn accumulator(r: usize, read: &Read) -> Expr {
    numbered("acc", [r, read.first])
}

/// Line `line` of `value`, a read `width` lines wide: a lane of the vector, or the value
/// itself.
fn lane(value: Expr, width: usize, line: usize) -> Expr {
    const LANES: [&str; 4] = ["x", "y", "z", "w"];
    match width {
        1 => value,
        _ => value.field(LANES[line]),
    }
}

/// `vec<width>(parts…)`: a vector of `width` lanes, its element type inferred from the parts
/// (one part fills every lane).
fn vec(width: usize, parts: impl IntoIterator<Item = impl Into<Expr>>) -> Expr {
    call(numbered("vec", [width]), parts)
}

/// The two lengths of a tile of rank 2.
fn shape2(tile: &Descriptor) -> Result<[usize; 2], GpuError> {
    let shape = tile.shape();
    <[usize; 2]>::try_from(shape.as_slice())
        .map_err(|_| unsupported(tile, Unsupported::Rank { rank: shape.len() }))
}
