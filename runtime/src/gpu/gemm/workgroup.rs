//! The f16 and bf16 GEMM on **workgroup-scope** cooperative matrices (`VK_NV_cooperative_matrix2`):
//! one accumulator matrix per workgroup holds its whole tile of C; each step loads A's
//! `BM × BK` and B's `BK × BN` slices straight from the storage buffers through tensor
//! layouts and multiplies them in; the driver spreads the matrices over the subgroups and
//! stages the loads, which the fragment kernel (`tensor.rs`) writes by hand. At C's edges
//! the layouts clamp (loads past A's or B's edge read zeros, stores past C's are dropped),
//! so any shape runs; a transposed operand is read through a tensor view that swaps its
//! two dimensions. Which tile a workgroup computes is its raster order.
//!
//! WGSL has none of these operations, so the kernel is SPIR-V
//! ([`swizzle_core::emit::spirv`]), passed through wgpu on a device opened with the
//! extension (`vulkan.rs`).

use super::kernel::Stored;
use crate::gpu::cooperative::{Accumulate, Operands};
use crate::gpu::{GpuError, Unsupported};
use std::ops::RangeInclusive;
use swizzle_core::emit::spirv::raster::{self, Types};
use swizzle_core::emit::spirv::{Module, Section, op, string, value};
use swizzle_core::plans::raster::Raster;
#[cfg(feature = "gpu")]
use {
    super::kernel::{Code, GemmKernel, GemmPath},
    crate::gpu::Gpu,
    crate::gpu::batch::Pipeline,
    crate::gpu::cooperative::Granularity,
};

/// The layouts of the GEMM on workgroup-scope cooperative matrices
/// ([`TensorCores::workgroup`](super::TensorCores::workgroup)): the tile of C a workgroup
/// accumulates, the k of each step, the workgroup's invocations and the raster order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WorkgroupMatrices {
    /// `[BM, BN, BK]`: C's `BM × BN` tile, one matrix of the workgroup, and the k of each
    /// step (A's `BM × BK` slice, B's `BK × BN`). Multiples of a granularity the driver
    /// lists for [`invocations`](WorkgroupMatrices::invocations)
    /// ([`Gpu::workgroup_matrix_granularities`]).
    pub tile: [usize; 3],
    /// Invocations per workgroup; the driver chooses which subgroup holds which part of the
    /// matrices.
    pub invocations: usize,
    /// Steps of k written out in one iteration of the loop (the largest count up to this
    /// that divides the steps; at most 64).
    pub unroll: usize,
    /// Which tile of C each workgroup computes.
    pub order: Raster,
}

/// The most steps of k one loop iteration writes out (each is two loads and a
/// multiply-add in the words).
const MAX_UNROLL: usize = 64;

impl WorkgroupMatrices {
    /// The kernel's SPIR-V for A `m × k` and B `k × n` of `operands` (f16 or bf16) stored
    /// as `orders` say, summing in `accumulate`'s type (no device needed: for inspection,
    /// and for the tests' interpreter). A and B are bound at 0 and 1, C at 2 (f32: f16 sums
    /// are converted as they are stored); the dispatch is [`WorkgroupMatrices::groups`].
    pub fn spirv(
        &self,
        [m, n, k]: [usize; 3],
        orders: [Stored; 2],
        operands: Operands,
        accumulate: Accumulate,
    ) -> Result<Vec<u32>, GpuError> {
        self.check()?;
        if operands == Operands::F32 {
            return Err(self.unsupported("f32 operands run on the scalar kernel".into()));
        }
        let [bm, bn, bk] = self.tile.map(|x| x as u32);
        // The loop runs k0 up to `steps · BK`, a u32 of the kernel.
        let rounded = k.div_ceil(self.tile[2]).saturating_mul(self.tile[2]);
        let [m, n, k, rounded] = [
            ("m", m),
            ("n", n),
            ("k", k),
            ("k rounded up to whole steps", rounded),
        ]
        .map(|(what, value)| self.within(what, value, 0..=u32::MAX as usize));
        let [m, n, k, _] = [m?, n?, k?, rounded?].map(|x| x as u32);
        let steps = k.div_ceil(bk);
        let unroll = (1..=(self.unroll as u32).min(steps.max(1)))
            .rev()
            .find(|u| steps.is_multiple_of(*u))
            .unwrap_or(1);
        Kernel {
            shape: [m, n, k],
            tile: [bm, bn, bk],
            invocations: self.invocations as u32,
            unroll,
            steps,
            order: self.order,
            orders,
            operands,
            accumulate,
        }
        .words()
        .map_err(|why| self.unsupported(Unsupported::Order(why)))
    }

    /// The workgroups of C `m × n`: `[x, y]`, x along C's columns of tiles.
    pub fn groups(&self, [m, n]: [usize; 2]) -> [usize; 2] {
        [n.div_ceil(self.tile[1]), m.div_ceil(self.tile[0])]
    }

    /// Why these layouts cannot make a kernel, whatever the device.
    pub(super) fn check(&self) -> Result<(), GpuError> {
        const SIDE: RangeInclusive<usize> = 1..=1 << 16;
        let [bm, bn, bk] = self.tile;
        for (what, value, range) in [
            ("BM", bm, SIDE),
            ("BN", bn, SIDE),
            ("BK", bk, SIDE),
            ("the invocations", self.invocations, SIDE),
            ("the steps a loop iteration", self.unroll, 1..=MAX_UNROLL),
        ] {
            self.within(what, value, range)?;
        }
        self.order
            .check()
            .map_err(|why| self.unsupported(Unsupported::Order(why)))
    }

    /// `value` where it lies in `range`, else the error that `what` is out of it.
    fn within(
        &self,
        what: &'static str,
        value: usize,
        range: RangeInclusive<usize>,
    ) -> Result<usize, GpuError> {
        match range.contains(&value) {
            true => Ok(value),
            false => Err(self.unsupported(Unsupported::Range { what, value, range })),
        }
    }

    /// The error of layouts this cannot make a kernel of, on any device: malformed
    /// ([`WorkgroupMatrices::check`]) or a shape past 32 bits.
    fn unsupported(&self, why: Unsupported) -> GpuError {
        GpuError::unsupported(format_args!("WorkgroupMatrices {:?}", self.tile), why)
    }
}

/// Why `gpu` cannot run `wm` (checked well-formed) on `operands` summed in `accumulate`,
/// if it cannot.
#[cfg(feature = "gpu")]
pub(super) fn unavailable(
    gpu: &Gpu,
    wm: &WorkgroupMatrices,
    (operands, accumulate): Elements,
) -> Option<String> {
    if let Err(why) = gpu.workgroup_matrices() {
        return Some(why.to_owned());
    }
    let granularities: Vec<Granularity> = gpu
        .workgroup_matrix_granularities()
        .iter()
        .filter(|g| (g.operands, g.accumulate) == (operands, accumulate))
        .copied()
        .collect();
    let [bm, bn, bk] = wm.tile;
    let fits = granularities.iter().any(|g| {
        g.invocations == wm.invocations
            && bm.is_multiple_of(g.m)
            && bn.is_multiple_of(g.n)
            && bk.is_multiple_of(g.k)
    });
    (!fits).then(|| {
        let listed: Vec<String> = granularities
            .iter()
            .map(|g| {
                format!(
                    "{} × {} × {} on {} invocations",
                    g.m, g.n, g.k, g.invocations
                )
            })
            .collect();
        format!(
            "a {bm} × {bn} × {bk} tile on {} invocations is no multiple of a workgroup-scope \
             shape the driver lists for {} operands and {} sums ({})",
            wm.invocations,
            operands.name(),
            accumulate.wgsl(),
            match listed.is_empty() {
                true => "none".to_owned(),
                false => listed.join(", "),
            }
        )
    })
}

#[cfg(feature = "gpu")]
impl Gpu {
    /// The GEMM of `[m, n, k]` on workgroup-scope matrices through `wm`; `unavailable`
    /// must have passed.
    pub(super) fn workgroup_gemm_kernel(
        &self,
        [m, n, k]: [usize; 3],
        wm: &WorkgroupMatrices,
        orders: [Stored; 2],
        (operands, accumulate): Elements,
    ) -> Result<GemmKernel, GpuError> {
        let words = wm.spirv([m, n, k], orders, operands, accumulate)?;
        self.check_workgroup(wm.invocations, 0, "the workgroup-scope matrices'")?;
        let groups = self.workgroups(wm.groups([m, n]))?;
        let [bm, bn, bk] = wm.tile;
        let name = format!(
            "GEMM {} on workgroup-scope matrices, {bm} × {bn} of C, {bk} of k, {} invocations, \
             {} order{}{}",
            operands.name(),
            wm.invocations,
            wm.order,
            match orders {
                [Stored::RowMajor, Stored::RowMajor] => "",
                [Stored::Transposed, Stored::RowMajor] => ", A transposed",
                [Stored::RowMajor, Stored::Transposed] => ", B transposed",
                [Stored::Transposed, Stored::Transposed] => ", A and B transposed",
            },
            accumulate.in_name()
        );
        let pipeline = self.spirv_pipeline(&name, &words)?;
        Ok(GemmKernel {
            name,
            code: Code::Spirv(words),
            pipeline: Pipeline { pipeline, groups },
            shape: [m, n, k],
            operands,
            path: GemmPath::WorkgroupMatrices,
            loads: [Vec::new(), Vec::new()],
            fragment_conflicts: [0, 0],
            share_cost: None,
        })
    }

    /// A compute pipeline of SPIR-V `words` (entry point `main`) over three storage buffers:
    /// A and B read-only at bindings 0 and 1, C at 2.
    fn spirv_pipeline(&self, name: &str, words: &[u32]) -> Result<wgpu::ComputePipeline, GpuError> {
        let device = self.device();
        // SAFETY: the words are `WorkgroupMatrices::spirv`'s, a module of the subset the
        // tests' SPIR-V interpreter checks (sections, ids, types, the Vulkan memory model,
        // matrix shapes) and runs against a CPU GEMM; every tensor load and store is
        // addressed through a layout of exactly A's, B's or C's dimensions, clamped where a
        // slice reaches past them, over buffers whose lengths `GemmKernel::run` checks.
        let module = unsafe {
            device.create_shader_module_passthrough(wgpu::ShaderModuleDescriptorPassthrough {
                label: Some(name),
                entry_points: std::borrow::Cow::Borrowed(&[wgpu::PassthroughShaderEntryPoint {
                    name: std::borrow::Cow::Borrowed("main"),
                    workgroup_size: (0, 0, 0),
                }]),
                spirv: Some(std::borrow::Cow::Borrowed(words)),
                ..Default::default()
            })
        };
        // A passthrough shader is not reflected: its bindings are spelled out.
        let entry = |binding, read_only| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Storage { read_only },
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        };
        let group = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some(name),
            entries: &[entry(0, true), entry(1, true), entry(2, false)],
        });
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some(name),
            bind_group_layouts: &[Some(&group)],
            immediate_size: 0,
        });
        self.compute_pipeline(name, Some(&layout), &module)
    }
}

/// What a kernel's A and B hold, and what it sums in.
pub(super) type Elements = (Operands, Accumulate);

/// The cooperative matrix types of one kernel, and its matrices of zeros (A, B, sums).
struct Matrices {
    a: u32,
    b: u32,
    sum: u32,
    /// C as stored: the sums' type with f32 sums, else its f32 twin.
    c: u32,
    zeros: [u32; 3],
}

/// One kernel: everything its words depend on.
struct Kernel {
    shape: [u32; 3],
    tile: [u32; 3],
    invocations: u32,
    /// Steps of k per loop iteration, dividing `steps`.
    unroll: u32,
    /// Steps of k in all: `ceil(k / BK)`.
    steps: u32,
    order: Raster,
    orders: [Stored; 2],
    /// F16 or Bf16 (`WorkgroupMatrices::spirv` turns F32 away).
    operands: Operands,
    accumulate: Accumulate,
}

impl Kernel {
    fn words(&self) -> Result<Vec<u32>, String> {
        use Section::{Annotation, EntryPoint, ExecutionMode, Function, Global};
        let [bm, bn, bk] = self.tile;
        let mut s = Module::new();
        self.preamble(&mut s);

        // Types: the operands' element, the sums' and C's.
        let void = s.def(Global, op::TYPE_VOID, None, &[]);
        let boolean = s.def(Global, op::TYPE_BOOL, None, &[]);
        let uint = s.def(Global, op::TYPE_INT, None, &[32, 0]);
        let f32_ = s.def(Global, op::TYPE_FLOAT, None, &[32]);
        let mut f16_ = None;
        let mut f16 = |s: &mut Module| {
            *f16_.get_or_insert_with(|| s.def(Global, op::TYPE_FLOAT, None, &[16]))
        };
        let element = match self.operands {
            Operands::Bf16 => s.def(
                Global,
                op::TYPE_FLOAT,
                None,
                &[16, value::BFLOAT16_ENCODING],
            ),
            _ => f16(&mut s),
        };
        let sum = match self.accumulate {
            Accumulate::F32 => f32_,
            Accumulate::F16 => f16(&mut s),
        };
        let uvec3 = s.def(Global, op::TYPE_VECTOR, None, &[uint, 3]);
        let function = s.def(Global, op::TYPE_FUNCTION, None, &[void]);
        let c = |s: &mut Module, v: u32| s.constant(uint, v);
        let Matrices {
            a: mat_a,
            b: mat_b,
            sum: mat_sum,
            c: mat_c,
            zeros: [zero_a, zero_b, zero_sum],
        } = self.matrices(&mut s, [uint, element, sum, f32_]);
        let ([layout_a, layout_b, layout_c], transposed) =
            self.tensor_layouts(&mut s, Types { uint, boolean });

        // The buffers: A and B of the operands, C of f32, each a block of one runtime array.
        let (a, a_element) = storage_buffer(&mut s, element, 2, 0, true);
        let (b, b_element) = storage_buffer(&mut s, element, 2, 1, true);
        let (cc, c_element) = storage_buffer(&mut s, f32_, 4, 2, false);
        let input = s.def(Global, op::TYPE_POINTER, None, &[value::INPUT, uvec3]);
        let workgroup_id = s.def(Global, op::VARIABLE, Some(input), &[value::INPUT]);
        s.op(
            Annotation,
            op::DECORATE,
            &[workgroup_id, value::BUILT_IN, value::WORKGROUP_ID],
        );
        let uint_local = s.def(Global, op::TYPE_POINTER, None, &[value::FUNCTION, uint]);
        let mat_sum_local = s.def(Global, op::TYPE_POINTER, None, &[value::FUNCTION, mat_sum]);

        // The entry point.
        let main = s.id();
        let mut entry = vec![value::GL_COMPUTE, main];
        entry.extend(string("main"));
        entry.extend([workgroup_id, a, b, cc]);
        s.op(EntryPoint, op::ENTRY_POINT, &entry);
        s.op(
            ExecutionMode,
            op::EXECUTION_MODE,
            &[main, value::LOCAL_SIZE, self.invocations, 1, 1],
        );
        s.op(Function, op::FUNCTION, &[void, main, 0, function]);
        let [start, header, check, body, next, merge] = std::array::from_fn(|_| s.id());
        s.op(Function, op::LABEL, &[start]);
        let sum_var = s.def(
            Function,
            op::VARIABLE,
            Some(mat_sum_local),
            &[value::FUNCTION],
        );
        let k_var = s.def(Function, op::VARIABLE, Some(uint_local), &[value::FUNCTION]);

        let [tile_m, tile_n] =
            self.workgroup_tile(&mut s, Types { uint, boolean }, (workgroup_id, uvec3))?;
        let [bm_id, bn_id, bk_id] = [bm, bn, bk].map(|v| c(&mut s, v));
        let m0 = s.value(op::I_MUL, uint, &[tile_m, bm_id]);
        let n0 = s.value(op::I_MUL, uint, &[tile_n, bn_id]);

        let [tensor_a, tensor_b, tensor_c] =
            self.tensors(&mut s, uint, [layout_a, layout_b, layout_c]);
        let view = transposed.map(|ty| s.value(op::CREATE_TENSOR_VIEW, ty, &[]));
        let zero = c(&mut s, 0);
        let pointer =
            |s: &mut Module, ty, buffer| s.value(op::ACCESS_CHAIN, ty, &[buffer, zero, zero]);
        let [pa, pb, pc] = [(a_element, a), (b_element, b), (c_element, cc)]
            .map(|(ty, buffer)| pointer(&mut s, ty, buffer));
        // An operand's slice at (row, column) of its matrix, `rows × cols`, and its load:
        // a transposed operand's slice is taken with the dimensions swapped and read
        // through the view.
        let load = |s: &mut Module,
                    order,
                    (ty, zero_matrix, pointer, layout, tensor),
                    [row, rows, col, cols]: [u32; 4]| {
            let (slice, addressing) = match (order, view) {
                (Stored::Transposed, Some(view)) => {
                    ([col, cols, row, rows], vec![value::TENSOR_VIEW, view])
                }
                _ => ([row, rows, col, cols], vec![value::NO_TENSOR_ADDRESSING]),
            };
            let mut operands = vec![tensor];
            operands.extend(slice);
            let sliced = s.value(op::TENSOR_LAYOUT_SLICE, layout, &operands);
            let mut operands = vec![pointer, zero_matrix, sliced, 0];
            operands.extend(addressing);
            s.value(op::COOPERATIVE_MATRIX_LOAD_TENSOR, ty, &operands)
        };
        let operand_a = (mat_a, zero_a, pa, layout_a, tensor_a);
        let operand_b = (mat_b, zero_b, pb, layout_b, tensor_b);

        s.op(Function, op::STORE, &[sum_var, zero_sum]);
        s.op(Function, op::STORE, &[k_var, zero]);
        s.op(Function, op::BRANCH, &[header]);
        // for (k0 = 0; k0 < steps · BK; k0 += unroll · BK): `unroll` steps.
        s.op(Function, op::LABEL, &[header]);
        s.op(Function, op::LOOP_MERGE, &[merge, next, 0]);
        s.op(Function, op::BRANCH, &[check]);
        s.op(Function, op::LABEL, &[check]);
        let k0 = s.value(op::LOAD, uint, &[k_var]);
        let end = c(&mut s, self.steps * bk);
        let more = s.value(op::U_LESS_THAN, boolean, &[k0, end]);
        s.op(Function, op::BRANCH_CONDITIONAL, &[more, body, merge]);
        s.op(Function, op::LABEL, &[body]);
        let mut sum = s.value(op::LOAD, mat_sum, &[sum_var]);
        for step in 0..self.unroll {
            let offset = c(&mut s, step * bk);
            let kk = s.value(op::I_ADD, uint, &[k0, offset]);
            let fa = load(&mut s, self.orders[0], operand_a, [m0, bm_id, kk, bk_id]);
            let fb = load(&mut s, self.orders[1], operand_b, [kk, bk_id, n0, bn_id]);
            sum = s.value(op::COOPERATIVE_MATRIX_MUL_ADD, mat_sum, &[fa, fb, sum]);
        }
        s.op(Function, op::STORE, &[sum_var, sum]);
        s.op(Function, op::BRANCH, &[next]);
        s.op(Function, op::LABEL, &[next]);
        let stride = c(&mut s, self.unroll * bk);
        let k1 = s.value(op::I_ADD, uint, &[k0, stride]);
        s.op(Function, op::STORE, &[k_var, k1]);
        s.op(Function, op::BRANCH, &[header]);

        // C's tile, through a slice of its layout.
        s.op(Function, op::LABEL, &[merge]);
        let sum = s.value(op::LOAD, mat_sum, &[sum_var]);
        let sum = match self.accumulate {
            Accumulate::F32 => sum,
            Accumulate::F16 => s.value(op::F_CONVERT, mat_c, &[sum]),
        };
        let slice = s.value(
            op::TENSOR_LAYOUT_SLICE,
            layout_c,
            &[tensor_c, m0, bm_id, n0, bn_id],
        );
        s.op(
            Function,
            op::COOPERATIVE_MATRIX_STORE_TENSOR,
            &[pc, sum, slice, 0, value::NO_TENSOR_ADDRESSING],
        );
        s.op(Function, op::RETURN, &[]);
        s.op(Function, op::FUNCTION_END, &[]);
        Ok(s.words())
    }

    /// The cooperative matrix types of A's, B's slices (of `element`), the sums (of `sum`)
    /// and C, and the matrices of zeros the loads and sums start from.
    fn matrices(&self, s: &mut Module, [uint, element, sum_element, f32_]: [u32; 4]) -> Matrices {
        use Section::Global;
        let [bm, bn, bk] = self.tile;
        let c = |s: &mut Module, v: u32| s.constant(uint, v);
        let scope = c(s, value::SCOPE_WORKGROUP);
        let matrix = |s: &mut Module, element, rows, cols, usage| {
            let [rows, cols, usage] = [rows, cols, usage].map(|v| c(s, v));
            s.def(
                Global,
                op::TYPE_COOPERATIVE_MATRIX,
                None,
                &[element, scope, rows, cols, usage],
            )
        };
        let mat_a = matrix(s, element, bm, bk, value::MATRIX_A);
        let mat_b = matrix(s, element, bk, bn, value::MATRIX_B);
        // The sums, and C as stored: f32 (f16 sums are converted at the store).
        let mat_sum = matrix(s, sum_element, bm, bn, value::MATRIX_ACCUMULATOR);
        let mat_c = match self.accumulate {
            Accumulate::F32 => mat_sum,
            Accumulate::F16 => matrix(s, f32_, bm, bn, value::MATRIX_ACCUMULATOR),
        };
        let filled = |s: &mut Module, matrix, element| {
            let zero = s.constant(element, 0);
            s.def(Global, op::CONSTANT_COMPOSITE, Some(matrix), &[zero])
        };
        let zero_a = filled(s, mat_a, element);
        let zero_b = filled(s, mat_b, element);
        let zero_sum = filled(s, mat_sum, sum_element);
        Matrices {
            a: mat_a,
            b: mat_b,
            sum: mat_sum,
            c: mat_c,
            zeros: [zero_a, zero_b, zero_sum],
        }
    }

    /// The tensor layout types of A, B and C, and the view a transposed operand is read
    /// through (where one is).
    fn tensor_layouts(
        &self,
        s: &mut Module,
        Types { uint, boolean }: Types,
    ) -> ([u32; 3], Option<u32>) {
        use Section::Global;
        let [m, n, k] = self.shape;
        let [bm, bn, bk] = self.tile;
        let c = |s: &mut Module, v: u32| s.constant(uint, v);
        // Tensor layouts of two dimensions: clamped (zeros read past the edge, stores past
        // it dropped) for a tensor the tiles do not divide.
        let two = c(s, 2);
        let mut layout_types = [None, None];
        let mut layout_type = |s: &mut Module, clamped: bool| {
            *layout_types[clamped as usize].get_or_insert_with(|| {
                let mode = c(
                    s,
                    match clamped {
                        true => value::CLAMP_CONSTANT,
                        false => value::CLAMP_UNDEFINED,
                    },
                );
                s.def(Global, op::TYPE_TENSOR_LAYOUT, None, &[two, mode])
            })
        };
        let whole = |len: u32, tile: u32| len.is_multiple_of(tile);
        let clamp_a = !(whole(m, bm) && whole(k, bk));
        let clamp_b = !(whole(k, bk) && whole(n, bn));
        let clamp_c = !(whole(m, bm) && whole(n, bn));
        let [layout_a, layout_b, layout_c] =
            [clamp_a, clamp_b, clamp_c].map(|clamped| layout_type(s, clamped));
        // A transposed operand is read through a view that swaps the slice's dimensions.
        let transposed = self.orders.contains(&Stored::Transposed).then(|| {
            let no = s.def(Global, op::CONSTANT_FALSE, Some(boolean), &[]);
            let [p0, p1] = [1, 0].map(|v| c(s, v));
            s.def(Global, op::TYPE_TENSOR_VIEW, None, &[two, no, p0, p1])
        });
        ([layout_a, layout_b, layout_c], transposed)
    }

    /// The workgroup's tile of C, `[row, column]` in tiles: its index in the dispatch (x
    /// along C's columns of tiles), then the raster order's tile of the grid.
    fn workgroup_tile(
        &self,
        s: &mut Module,
        Types { uint, boolean }: Types,
        (workgroup_id, uvec3): (u32, u32),
    ) -> Result<[u32; 2], String> {
        let [m, n, _] = self.shape;
        let [bm, bn, _] = self.tile;
        let c = |s: &mut Module, v: u32| s.constant(uint, v);
        let grid = [m.div_ceil(bm), n.div_ceil(bn)];
        let ids = s.value(op::LOAD, uvec3, &[workgroup_id]);
        let [x, y] = [0, 1].map(|i| s.value(op::COMPOSITE_EXTRACT, uint, &[ids, i]));
        let columns = c(s, grid[1]);
        let row_start = s.value(op::I_MUL, uint, &[y, columns]);
        let group = s.value(op::I_ADD, uint, &[row_start, x]);
        let grid_ids = grid.map(|g| c(s, g));
        let program = self.order.program();
        raster::tile(s, Types { uint, boolean }, &program, group, grid_ids)
    }

    /// A's, B's and C's tensor layouts: each its dimensions as stored (the strides follow:
    /// rows of the last dimension's length), of the layout types `layouts`.
    fn tensors(
        &self,
        s: &mut Module,
        uint: u32,
        [layout_a, layout_b, layout_c]: [u32; 3],
    ) -> [u32; 3] {
        let [m, n, k] = self.shape;
        let c = |s: &mut Module, v: u32| s.constant(uint, v);
        let tensor = |s: &mut Module, ty: u32, rows: u32, cols: u32| {
            let created = s.value(op::CREATE_TENSOR_LAYOUT, ty, &[]);
            let [rows, cols] = [rows, cols].map(|v| c(s, v));
            s.value(op::TENSOR_LAYOUT_SET_DIMENSION, ty, &[created, rows, cols])
        };
        let stored = |order: Stored, rows: u32, cols: u32| match order {
            Stored::RowMajor => (rows, cols),
            Stored::Transposed => (cols, rows),
        };
        let (a_rows, a_cols) = stored(self.orders[0], m, k);
        let (b_rows, b_cols) = stored(self.orders[1], k, n);
        let tensor_a = tensor(s, layout_a, a_rows, a_cols);
        let tensor_b = tensor(s, layout_b, b_rows, b_cols);
        let tensor_c = tensor(s, layout_c, m, n);
        [tensor_a, tensor_b, tensor_c]
    }
}

impl Kernel {
    /// The module's capabilities, extensions and memory model: cooperative matrices need
    /// the Vulkan memory model beside Shader; f16 (operands or sums) needs Float16, bf16
    /// operands `SPV_KHR_bfloat16`'s two capabilities.
    fn preamble(&self, s: &mut Module) {
        use Section::{Capability, Extension};
        let bf16 = self.operands == Operands::Bf16;
        let f16 = self.operands == Operands::F16 || self.accumulate == Accumulate::F16;
        let capabilities = [
            (value::SHADER, true),
            (value::FLOAT16, f16),
            (value::BFLOAT16_TYPE, bf16),
            (value::BFLOAT16_COOPERATIVE_MATRIX, bf16),
            (value::STORAGE_BUFFER_16_BIT_ACCESS, true),
            (value::COOPERATIVE_MATRIX, true),
            (value::TENSOR_ADDRESSING, true),
            (value::COOPERATIVE_MATRIX_TENSOR_ADDRESSING, true),
            (value::VULKAN_MEMORY_MODEL, true),
        ];
        for (capability, _) in capabilities.iter().filter(|(_, needed)| *needed) {
            s.op(Capability, op::CAPABILITY, &[*capability]);
        }
        let extensions = [
            ("SPV_KHR_cooperative_matrix", true),
            ("SPV_NV_cooperative_matrix2", true),
            ("SPV_NV_tensor_addressing", true),
            ("SPV_KHR_bfloat16", bf16),
        ];
        for (extension, _) in extensions.iter().filter(|(_, needed)| *needed) {
            s.op(Extension, op::EXTENSION, &string(extension));
        }
        s.op(
            Section::MemoryModel,
            op::MEMORY_MODEL,
            &[value::LOGICAL, value::VULKAN],
        );
    }
}

/// A storage buffer of `element`s (`bytes` each) at `binding` of set 0, read-only where
/// asked: a block of one runtime array. Returns the variable and the type of a pointer to
/// one element.
fn storage_buffer(
    s: &mut Module,
    element: u32,
    bytes: u32,
    binding: u32,
    read_only: bool,
) -> (u32, u32) {
    use Section::{Annotation, Global};
    let array = s.def(Global, op::TYPE_RUNTIME_ARRAY, None, &[element]);
    s.op(
        Annotation,
        op::DECORATE,
        &[array, value::ARRAY_STRIDE, bytes],
    );
    let block = s.def(Global, op::TYPE_STRUCT, None, &[array]);
    s.op(Annotation, op::DECORATE, &[block, value::BLOCK]);
    s.op(
        Annotation,
        op::MEMBER_DECORATE,
        &[block, 0, value::OFFSET, 0],
    );
    if read_only {
        s.op(
            Annotation,
            op::MEMBER_DECORATE,
            &[block, 0, value::NON_WRITABLE],
        );
    }
    let pointer = s.def(
        Global,
        op::TYPE_POINTER,
        None,
        &[value::STORAGE_BUFFER, block],
    );
    let variable = s.def(
        Global,
        op::VARIABLE,
        Some(pointer),
        &[value::STORAGE_BUFFER],
    );
    s.op(
        Annotation,
        op::DECORATE,
        &[variable, value::DESCRIPTOR_SET, 0],
    );
    s.op(
        Annotation,
        op::DECORATE,
        &[variable, value::BINDING, binding],
    );
    let element_pointer = s.def(
        Global,
        op::TYPE_POINTER,
        None,
        &[value::STORAGE_BUFFER, element],
    );
    (variable, element_pointer)
}
