//! What GEMM operands and cooperative matrices hold and sum in, and the workgroup-scope
//! shapes a device lists: what the device reports
//! ([`super::Gpu::workgroup_matrix_granularities`]) and the GEMM kernels ask for, in a
//! module of their own so that the device and the kernels both import it.

/// The element type A and B are stored in; C and every sum are f32 (or f16 sums, where
/// [`Accumulate::F16`] asks for them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Operands {
    #[default]
    F32,
    /// IEEE half precision (`half::f16`, re-exported as `swizzle::gpu::f16`), converted to
    /// f32 as the tiles are loaded: half the operands' memory traffic. Needs the adapter's
    /// `SHADER_F16` ([`Gpu::has_f16`](super::Gpu::has_f16)).
    F16,
    /// bfloat16 (`half::bf16`, re-exported as `swizzle::gpu::bf16`): f32's sign and
    /// exponent with 7 bits of fraction, so f32's range in half its bytes. Runs on
    /// workgroup-scope cooperative matrices only, where the driver lists bf16 operands for
    /// them (`VK_KHR_shader_bfloat16`,
    /// [`Gpu::workgroup_matrix_granularities`](super::Gpu::workgroup_matrix_granularities)):
    /// WGSL has no bf16 type, so the scalar and per-subgroup kernels cannot load it.
    Bf16,
}

impl Operands {
    /// Bits of one element.
    pub(crate) fn bits(self) -> usize {
        match self {
            Operands::F32 => 32,
            Operands::F16 | Operands::Bf16 => 16,
        }
    }

    /// The WGSL scalar type, where WGSL has one.
    pub(crate) fn wgsl(self) -> Option<&'static str> {
        match self {
            Operands::F32 => Some("f32"),
            Operands::F16 => Some("f16"),
            Operands::Bf16 => None,
        }
    }

    /// The name of the type, as kernels' names and errors give it.
    pub fn name(self) -> &'static str {
        match self {
            Operands::F32 => "f32",
            Operands::F16 => "f16",
            Operands::Bf16 => "bf16",
        }
    }
}

/// The accumulators' element type.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Accumulate {
    /// f32 sums (as cuBLAS HGEMM by default).
    #[default]
    F32,
    /// f16 sums: a coarser result (each step's sum rounded to f16; C still stored as f32).
    /// On workgroup-scope matrices it runs where the driver lists f16 sums for the tile
    /// ([`Gpu::workgroup_matrix_granularities`](super::Gpu::workgroup_matrix_granularities)). The fragment kernel's WGSL validates, but
    /// on the one driver tried (NVIDIA's 580) its results were wrong, so there
    /// [`Gpu::gemm_kernel`](super::Gpu::gemm_kernel) runs the scalar kernel instead and says so;
    /// [`TensorCores::wgsl`](super::TensorCores::wgsl) still prints it.
    F16,
}

impl Accumulate {
    pub(crate) fn wgsl(self) -> &'static str {
        match self {
            Accumulate::F32 => "f32",
            Accumulate::F16 => "f16",
        }
    }

    /// What a kernel's name adds for these sums: nothing for the default f32.
    pub(crate) fn in_name(self) -> &'static str {
        match self {
            Accumulate::F32 => "",
            Accumulate::F16 => ", f16 accumulators",
        }
    }
}

/// A workgroup-scope shape the driver lists: tiles of `operands` (A and B alike) summing
/// in `accumulate`'s type must be multiples of `m × n × k` at `invocations` per workgroup.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Granularity {
    pub m: usize,
    pub n: usize,
    pub k: usize,
    pub invocations: usize,
    pub operands: Operands,
    pub accumulate: Accumulate,
}
