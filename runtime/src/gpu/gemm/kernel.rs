//! What the GEMM kernels share: the compiled kernel and its code, which path it runs, how
//! operands are stored, and the thread coordinates of a fragment's layout. Its own module
//! so that the scalar, tensor-core and workgroup-scope kernels import it, not each other.

pub use crate::gpu::cooperative::Operands;
use swizzle_core::emit::wgsl::expr::{name, u};
use swizzle_core::emit::wgsl::module::Block;
use swizzle_core::plans::threads::ThreadValues;
#[cfg(feature = "gpu")]
use {
    crate::gpu::batch::{Batch, Pipeline},
    crate::gpu::buffer::{check_element, check_lengths},
    crate::gpu::{Buffer, Dispatch, GpuError, Word},
    swizzle_core::plans::tiled_copy::{self, Instruction},
};

/// Which kernel a [`GemmKernel`] runs.
#[cfg(feature = "gpu")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GemmPath {
    /// Workgroup-scope cooperative matrices (`VK_NV_cooperative_matrix2`): one matrix per
    /// workgroup holds its tile of C, A's and B's slices loaded through tensor layouts
    /// ([`WorkgroupMatrices`](super::WorkgroupMatrices)).
    WorkgroupMatrices,
    /// Cooperative matrices: 16 × 16 × 16 f16 multiply-adds on the tensor cores, each
    /// subgroup's fragments through the tiles of [`TensorCores`](super::TensorCores).
    TensorCores,
    /// Scalar FMAs over register fragments, and why the tensor cores were not used.
    Scalar { why: String },
}

/// A type GEMM operands may be stored as: `f32`, `half::f16` or `half::bf16`.
#[cfg(feature = "gpu")]
pub trait GemmElement: Word + sealed::Sealed {
    /// The operands a buffer of this type holds: a kernel takes buffers of its own.
    const OPERANDS: Operands;
}

/// Each GEMM element type and the operands it stores.
macro_rules! gemm_elements {
    ($($t:ty => $operands:ident),*) => {
        $(
            #[cfg(feature = "gpu")]
            impl GemmElement for $t {
                const OPERANDS: Operands = Operands::$operands;
            }
            #[cfg(feature = "gpu")]
            impl sealed::Sealed for $t {}
        )*
    };
}

gemm_elements!(f32 => F32, half::f16 => F16, half::bf16 => Bf16);

#[cfg(feature = "gpu")]
mod sealed {
    pub trait Sealed {}
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

/// A GEMM kernel's code: a WGSL module, or the SPIR-V words of one WGSL cannot say (on
/// workgroup-scope matrices).
#[cfg(feature = "gpu")]
#[derive(Debug)]
pub(super) enum Code {
    Wgsl(String),
    Spirv(Vec<u32>),
}

/// A compiled GEMM and what the analysis says of its workgroup-memory accesses.
#[cfg(feature = "gpu")]
#[derive(Debug)]
pub struct GemmKernel {
    pub(super) name: String,
    pub(super) code: Code,
    pub(super) pipeline: Pipeline,
    /// `[m, n, k]`.
    pub(super) shape: [usize; 3],
    /// What A and B hold.
    pub(super) operands: Operands,
    /// Which kernel runs, and why.
    pub(super) path: GemmPath,
    /// The instructions of A's and B's tiled copies, with their conflicts and transactions.
    pub loads: [Vec<Instruction>; 2],
    /// The worst bank conflict of the fragment reads of A's and of B's tile.
    pub fragment_conflicts: [usize; 2],
    /// What the scalar kernel's workgroup-memory traffic costs (`None` for the naive and
    /// the tensor-core kernels).
    pub(super) share_cost: Option<ShareCost>,
}

/// What a scalar GEMM's workgroup-memory traffic costs one subgroup (32 lanes) per step of
/// k, that is per tile of A and of B, counted from the plan: the model that ranks A's (or
/// B's) tile layouts for [`Gemm`](super::Gemm) ([`Gemm::share_cost`](super::Gemm::share_cost), [`GemmKernel::share_cost`]).
///
/// A step is: the tiled copies load the tiles and store them into workgroup memory, a
/// barrier, then for each k of the tile the fragment reads and the FMAs, then a barrier.
/// Two kinds of cost, weighed by where they sit:
///
/// - **Exposed: the stores.** They lie between the two barriers, after the loads they
///   store, and nothing of the workgroup runs beside them, so each of their cycles is a
///   cycle of the step: every store instruction's wavefronts (passes of the banks,
///   [`BankReport::wavefronts`](swizzle_core::analysis::banks::BankReport): a conflict-free
///   scalar store takes one, a 2-way conflicted one two, a `vec4` store four, one per
///   quarter-warp phase), once per thread-value instruction, and the operations of the
///   stores' addresses that do not fold into the instruction's immediate offset
///   ([`address_ops`](swizzle_core::emit::code::address_ops): a padded or plain tile's
///   stores are one base plus constants, and so are a swizzle's where the constants lie
///   above the XOR's bits; an XOR applied after a constant that reaches its bits costs its
///   add and XOR at every store). Both weigh
///   one cycle: a subgroup's store waits for its address and for the pipe, and the
///   barrier waits for the slowest subgroup.
/// - **Overlapped: the fragment reads.** They sit among the FMAs, which the SM issues four
///   subgroup-wide a cycle while its shared-memory pipe serves one wavefront a cycle, so
///   the reads cost the step only the wavefronts past the FMAs' cycles. Their addresses
///   cost nothing per step: the kernel computes each read's bases once per thread
///   ([`Fragment::bases`](swizzle_core::plans::fragment::Fragment::bases)) and each k adds a constant; what a swizzle keyed by k costs
///   there is registers held across the loop, [`ShareCost::read_bases`] (not cycles).
///
/// [`ShareCost::cycles`] is the sum; the tile with the fewest cycles ranks first. It counts
/// workgroup memory only: the global loads, the same for every tile of one operand order,
/// are not in it. It is a ranking, not a prediction: it puts the library's swizzled A tile
/// (20 cycles) ahead of rows padded to 132 words (26), which run as fast since the reads
/// share their bases: the cycles the padding costs hide behind the multiply-adds
/// (BENCHMARKS.md#gemm).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ShareCost {
    /// Wavefronts of the copies' stores into A's and B's tiles.
    pub store_wavefronts: [usize; 2],
    /// Address operations of those stores that do not fold into an immediate offset.
    pub store_address_ops: [usize; 2],
    /// Wavefronts of the fragment reads of A's and B's tiles, every k of the tile.
    pub read_wavefronts: [usize; 2],
    /// Addresses a thread holds across the loop for its reads of A's and B's tiles: one
    /// per distinct base ([`Fragment::bases`](swizzle_core::plans::fragment::Fragment::bases): reads a constant apart share theirs).
    pub read_bases: [usize; 2],
    /// Cycles of the subgroup's FMAs on the SM's FP32 pipes: `BK` times its values, over
    /// the four subgroup-wide FMAs an SM issues a cycle.
    pub fma_cycles: usize,
}

impl ShareCost {
    /// The exposed cycles: the stores' wavefronts and address operations.
    pub fn exposed(&self) -> usize {
        self.store_wavefronts.iter().sum::<usize>() + self.store_address_ops.iter().sum::<usize>()
    }

    /// The reads' wavefronts past the FMAs' cycles.
    pub fn unhidden_reads(&self) -> usize {
        let reads: usize = self.read_wavefronts.iter().sum();
        reads.saturating_sub(self.fma_cycles)
    }

    /// The model's cost of a step: [`exposed`](ShareCost::exposed) plus
    /// [`unhidden_reads`](ShareCost::unhidden_reads).
    pub fn cycles(&self) -> usize {
        self.exposed() + self.unhidden_reads()
    }
}

impl std::fmt::Display for ShareCost {
    /// `20 = stores 16 wf + 4 ops, reads 256 wf / 256 FMA cycles`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} = stores {} wf + {} ops, reads {} wf / {} FMA cycles",
            self.cycles(),
            self.store_wavefronts.iter().sum::<usize>(),
            self.store_address_ops.iter().sum::<usize>(),
            self.read_wavefronts.iter().sum::<usize>(),
            self.fma_cycles
        )
    }
}

#[cfg(feature = "gpu")]
impl<T: GemmElement> Dispatch<(&Buffer<T>, &Buffer<T>, &Buffer<f32>)> for GemmKernel {
    /// Records computing `c = a · b`.
    fn enqueue(
        &self,
        batch: &mut Batch,
        (a, b, c): (&Buffer<T>, &Buffer<T>, &Buffer<f32>),
    ) -> Result<(), GpuError> {
        self.check_lengths(a, b, c)?;
        self.pipeline
            .enqueue(batch, &[&a.buffer, &b.buffer, &c.buffer]);
        Ok(())
    }
}

#[cfg(feature = "gpu")]
impl GemmKernel {
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

    /// What the workgroup-memory traffic of the scalar kernel costs per step of k
    /// ([`ShareCost`]); `None` for the naive and the tensor-core kernels.
    pub fn share_cost(&self) -> Option<&ShareCost> {
        self.share_cost.as_ref()
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
    ///
    /// [`Gpu::gemm_kernel`](crate::gpu::Gpu::gemm_kernel) takes the first path that the
    /// operands, the layouts given and the adapter allow:
    /// 1. [`GemmPath::WorkgroupMatrices`]: f16 or bf16 operands and
    ///    [`TensorCores::workgroup`](super::TensorCores::workgroup) given, on a Vulkan
    ///    driver that lists `VK_NV_cooperative_matrix2` with workgroup scope and a shape, for
    ///    the operands' and sums' types and the tile's invocations, that the tile is a
    ///    multiple of (bf16 shapes only with `VK_KHR_shader_bfloat16`);
    /// 2. [`GemmPath::TensorCores`]: f16 operands and tensor-core layouts given, A and B
    ///    row-major, f32 sums, on an adapter with wgpu's cooperative matrices that lists
    ///    16 × 16 × 16 of f16 inputs and f32 sums, with subgroups of 32 lanes;
    /// 3. [`GemmPath::Scalar`] otherwise, its `why` naming what ruled out each path tried;
    ///    but bf16 operands, which WGSL cannot load, are then an error
    ///    ([`GpuError::Unsupported`](crate::gpu::GpuError::Unsupported)) with that `why`.
    ///
    /// The order is that of their speed where one device has them all (NVIDIA's):
    /// BENCHMARKS.md#tensor-core-gemm.
    pub fn path(&self) -> &GemmPath {
        &self.path
    }

    /// The whole WGSL module (empty where the kernel is SPIR-V: [`GemmKernel::spirv`]).
    pub fn wgsl(&self) -> &str {
        match &self.code {
            Code::Wgsl(wgsl) => wgsl,
            Code::Spirv(_) => "",
        }
    }

    /// The kernel's SPIR-V words, where WGSL cannot say it (on workgroup-scope matrices,
    /// [`GemmPath::WorkgroupMatrices`]); `None` for WGSL kernels.
    pub fn spirv(&self) -> Option<&[u32]> {
        match &self.code {
            Code::Wgsl(_) => None,
            Code::Spirv(words) => Some(words),
        }
    }

    fn check_lengths<T: GemmElement>(
        &self,
        a: &Buffer<T>,
        b: &Buffer<T>,
        c: &Buffer<f32>,
    ) -> Result<(), GpuError> {
        check_element::<T>(self.operands.bits())?;
        if T::OPERANDS != self.operands {
            return Err(GpuError::Operands {
                expected: self.operands,
                actual: T::OPERANDS,
            });
        }
        let [m, n, k] = self.shape;
        check_lengths([
            ("A", m * k, a.len()),
            ("B", k * n, b.len()),
            ("C", m * n, c.len()),
        ])
    }
}

/// The names of a thread-value layout's thread coordinates.
pub(super) fn thread_names(threads: &ThreadValues) -> Vec<String> {
    threads.descriptor.coords[..threads.thread_coords]
        .iter()
        .map(|&c| threads.descriptor.dims[c].name.to_string())
        .collect()
}

/// Declares the thread coordinates `names` (lengths `lens`) from the index `index`, and
/// returns the names the expressions use (the index itself where there is one coordinate).
pub(super) fn coordinates(
    out: &mut Block,
    index: &str,
    names: &[String],
    lens: &[usize],
) -> Vec<String> {
    if names.len() == 1 {
        return vec![index.to_owned()];
    }
    let total: usize = lens.iter().product();
    let index = name(index);
    let mut stride = total;
    for (coordinate, &len) in names.iter().zip(lens) {
        let outer = stride;
        stride /= len.max(1);
        let quotient = match stride {
            1 => index.clone(),
            stride => index.clone() / u(stride),
        };
        let value = match outer == total {
            true => quotient,
            false => quotient % u(len),
        };
        out.let_(coordinate, value);
    }
    names.to_vec()
}
