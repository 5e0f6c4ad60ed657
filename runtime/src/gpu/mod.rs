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
//!
//! **Which feature.** The kernels' text needs no device: with `wgsl` alone (naga, no wgpu),
//! [`GpuLayout`], the GEMM's and the transpose's layouts ([`Gemm`], [`TensorCores`],
//! [`WorkgroupMatrices`], [`Transpose`]) and the WGSL and SPIR-V printed from them are here,
//! for inspection and validation; `gpu` adds the device, its buffers and the compiled
//! kernels that run them.

#![cfg_attr(
    not(feature = "gpu"),
    allow(
        dead_code,
        reason = "without wgpu, the crate-private plans only a device consumes are built by the tests alone"
    ),
    allow(
        rustdoc::broken_intra_doc_links,
        reason = "the text's docs link the device that runs it, which docs.rs documents (feature `gpu`)"
    )
)]

#[cfg(feature = "gpu")]
mod batch;
mod buffer;
mod cooperative;
mod copy;
#[cfg(feature = "gpu")]
mod device;
#[cfg(feature = "gpu")]
mod dispatch;
mod error;
mod gemm;
mod layout;
mod shader;
mod transpose;
#[cfg(all(
    feature = "gpu",
    any(
        windows,
        target_os = "linux",
        target_os = "android",
        target_os = "freebsd"
    )
))]
mod vulkan;
/// Where wgpu has no Vulkan backend, no device has `VK_NV_cooperative_matrix2`.
#[cfg(all(
    feature = "gpu",
    not(any(
        windows,
        target_os = "linux",
        target_os = "android",
        target_os = "freebsd"
    ))
))]
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

// The kernels' text: WGSL and SPIR-V, with what they are built from.
pub use buffer::Word;
pub use cooperative::{Accumulate, Granularity, Operands};
pub use copy::BoundsChecks;
pub use error::{GpuError, Unsupported};
pub use gemm::{DirectOperands, KLoop, TensorCores, WorkgroupMatrices};
pub use gemm::{Gemm, ShareCost, Stored};
pub use layout::GpuLayout;
pub use shader::assemble;
pub use transpose::Transpose;

// The device: buffers, compiled kernels, runs.
/// bfloat16, for bf16 GEMM operands ([`Operands::Bf16`]).
#[cfg(feature = "gpu")]
pub use half::bf16;
/// IEEE half precision, for f16 GEMM operands ([`Operands::F16`]).
#[cfg(feature = "gpu")]
pub use half::f16;
/// The wgpu this backend is built on, for work beyond its kernels ([`Gpu::device`],
/// [`Gpu::queue`]) in the same version.
#[cfg(feature = "gpu")]
pub use wgpu;
#[cfg(feature = "gpu")]
pub use {
    batch::Batch,
    buffer::Buffer,
    copy::{Kernel, MapKernel},
    device::Gpu,
    dispatch::{Dispatch, WARM_UP},
    gemm::{GemmElement, GemmKernel, GemmPath},
    transpose::TransposeKernel,
};
