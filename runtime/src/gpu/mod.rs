//! The wgpu backend (feature `gpu`): layouts on the GPU. Every `layout!` type carries its
//! offset functions in WGSL ([`crate::Layout::WGSL`]); this module splices them into compute
//! kernels — pack and unpack between a row-major image and any layout, layout-to-layout
//! copies, transposes through a workgroup tile that is itself a layout, and `map` over a
//! user's WGSL — and runs them with wgpu on whatever adapter the machine has (a discrete GPU
//! first, then an integrated one, then a software Vulkan such as lavapipe).
//!
//! **Which adapter.** Vulkan, Metal and DX12 by default; OpenGL only when `WGPU_BACKEND`
//! names it, and then from one thread at a time ([`Gpu`] says why). A machine with
//! no adapter gets [`GpuError::NoAdapter`], saying what to install.
//!
//! **Runs and batches.** Every kernel runs, records and times through one trait, [`Dispatch`],
//! over its buffers (`(&input, &output)`, `(&a, &b, &c)`, `&data`). Its `run` submits one run
//! and waits for it: a round trip through the driver that can cost as much as a small kernel's
//! run (BENCHMARKS.md#gemm). Work of several kernels, or many runs of one, goes into a
//! [`Batch`]: recorded with `enqueue`, submitted and waited for once, in order.
//!
//! Copies into a layout with an inverse write their output in order (four elements per
//! thread, as one `vec4<u32>`, where the output length allows), so writes are coalesced, and
//! find each input element through the layouts' functions, loading four at once where they
//! share an aligned `vec4`. Elements are 8, 16, 32 or 64 bits ([`Word`]): kernels move
//! words, and [`GpuLayout::with_element`] gives the layout of another width.
//! Everything that can go wrong is a [`GpuError`], never a panic.

mod batch;
mod buffer;
mod cooperative;
mod copy;
mod device;
mod dispatch;
mod error;
mod gemm;
mod layout;
mod shader;
mod transpose;
#[cfg(any(
    windows,
    target_os = "linux",
    target_os = "android",
    target_os = "freebsd"
))]
mod vulkan;
/// Where wgpu has no Vulkan backend, no device has `VK_NV_cooperative_matrix2`.
#[cfg(not(any(
    windows,
    target_os = "linux",
    target_os = "android",
    target_os = "freebsd"
)))]
mod vulkan {
    use super::cooperative::Granularity;

    pub(super) fn open(
        _: &wgpu::Adapter,
        _: &wgpu::DeviceDescriptor,
    ) -> Result<(wgpu::Device, wgpu::Queue, Vec<Granularity>), String> {
        Err(
            "workgroup-scope matrices need wgpu's Vulkan backend, which this platform lacks"
                .to_owned(),
        )
    }
}

pub use batch::Batch;
pub use buffer::{Buffer, Word};
pub use cooperative::{Accumulate, Granularity};
pub use copy::{BoundsChecks, Kernel, MapKernel};
pub use device::Gpu;
pub use dispatch::{Dispatch, WARM_UP};
pub use error::GpuError;
pub use gemm::{DirectOperands, KLoop, TensorCores, WorkgroupMatrices};
pub use gemm::{Gemm, GemmElement, GemmKernel, GemmPath, Operands, ShareCost, Stored};
/// IEEE half precision, for f16 GEMM operands ([`Operands::F16`]).
pub use half::f16;
pub use layout::GpuLayout;
pub use shader::assemble;
pub use transpose::{Transpose, TransposeKernel};
/// The wgpu this backend is built on, for work beyond its kernels ([`Gpu::device`],
/// [`Gpu::queue`]) in the same version.
pub use wgpu;
