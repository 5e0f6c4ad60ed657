//! What cooperative matrices sum in, and the workgroup-scope shapes a device lists: what
//! the device reports ([`super::Gpu::workgroup_matrix_granularities`]) and the GEMM kernels
//! ask for, in a module of their own so that the device and the kernels both import it.

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

/// A workgroup-scope shape the driver lists for f16 × f16 operands: tiles summing in
/// `accumulate`'s type must be multiples of `m × n × k` at `invocations` per workgroup.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Granularity {
    pub m: usize,
    pub n: usize,
    pub k: usize,
    pub invocations: usize,
    pub accumulate: Accumulate,
}
