//! A CPU evaluator of WGSL over naga's IR, for this workspace's tests: the GPU kernels'
//! own WGSL checked against CPU references on machines without a GPU (CI), and the layout
//! printer's functions checked against the reference interpreter.
//!
//! # What it runs
//!
//! - [`call`]: one function of a module for one invocation, with `u32` arguments (the
//!   layout printer's offset, validity and coordinate functions).
//! - [`dispatch`]: a compute entry point over a grid of workgroups, with storage and
//!   uniform buffers as byte vectors ([`Buffers`]).
//!
//! The module is taken as naga parsed it; validate it with naga first (the evaluator
//! assumes a valid module and reports what it does not support rather than checking
//! types).
//!
//! # How it runs a dispatch
//!
//! The workgroups run one after another; within one, every invocation runs in lockstep:
//! each statement is evaluated for all active invocations under a mask (SIMT), so that a
//! `workgroupBarrier` is reached by all of them together and a subgroup's cooperative
//! matrix operation sees the whole subgroup. Subgroups are consecutive runs of
//! [`SUBGROUP_SIZE`] invocations in `local_invocation_index` order (as the kernels assume).
//! `if`, `switch`, loops with `break`, `continue` and `break if`, early `return` and calls
//! split and merge the mask. A barrier reached by only part of the workgroup, and a
//! cooperative operation by part of a subgroup (non-uniform control flow), are errors.
//!
//! Because lockstep hides a missing barrier, memory accesses are checked for races: a
//! workgroup variable's byte read or written by one invocation and written by another
//! since the last barrier (or read by another and then written), and a storage byte
//! written by one invocation and touched by another without a barrier between them
//! (always, across workgroups), is an error naming both. A subgroup's cooperative load or
//! store counts as one more party, distinct from its lanes.
//!
//! # Semantics followed
//!
//! - Types: `bool`, `u32`, `i32`, `f32`, `f16` (through the `half` crate), their vectors,
//!   arrays and structures, pointers, and `coop_mat<R>x<C><T, role>` with `T` `f16` or
//!   `f32`; matrices (`matCxR`) as values of their columns (loaded, stored, indexed,
//!   built from columns or zero: no matrix arithmetic). Host-shareable memory is laid out as naga lays it out (array strides, member
//!   offsets), little-endian; workgroup memory starts zeroed in every workgroup,
//!   function variables at their initializer or zero.
//! - Arithmetic as WGSL defines it: `u32`/`i32` wrap, shift amounts are taken modulo 32,
//!   integer division by zero gives the dividend and its remainder 0, float-to-integer
//!   conversions clamp, f16 operations round once to f16.
//! - An index or address outside its array or buffer is an error (WGSL would clamp or
//!   drop it; a kernel that relies on that is reported, not run).
//! - Cooperative matrices (naga's `wgpu_cooperative_matrix` extension, as its SPIR-V
//!   writer lowers it to `OpCooperativeMatrix*KHR`): `coopLoad`/`coopStore` address
//!   column-major memory, `coopLoadT`/`coopStoreT` row-major; the pointer is an element of
//!   an array and the stride counts that array's elements (a `vec4<f16>` array's stride is
//!   in `vec4`s), the elements of one row (column) being consecutive scalars from the
//!   pointer. `coopMultiplyAdd(a, b, c)` is `a · b + c` with f16 products (exact in f32)
//!   summed in f32 in order of k from `c`, the sum rounded once to f16 for f16
//!   accumulators; a driver may sum in another order, which a test's tolerance covers.
//! - Not supported (an error saying so): textures and samplers, atomics, subgroup
//!   operations other than cooperative matrices, matrix arithmetic, 64-bit and 16-bit
//!   integers, overrides, `discard` and most math built-ins (`min`, `max`, `clamp`, `abs`,
//!   `fma`, `floor`, `ceil`, `trunc`, `sqrt` and `dot` are there).

mod machine;
mod value;

pub use machine::{Buffers, SUBGROUP_SIZE, call, dispatch};
pub use value::{Matrix, Pointer, Scalar, Value};

/// Why evaluation stopped: what is unsupported or went wrong, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error(String);

impl Error {
    pub(crate) fn new(message: impl Into<String>) -> Error {
        Error(message.into())
    }

    /// The message with `context` in front.
    pub(crate) fn context(self, context: impl std::fmt::Display) -> Error {
        Error(format!("{context}: {}", self.0))
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

impl From<Error> for String {
    fn from(error: Error) -> String {
        error.0
    }
}
