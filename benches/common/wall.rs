//! The wall clock around whole submissions, as a user chaining kernels sees it: one `run`
//! (a submission and a wait each), and a [`Batch`] of [`BATCH`] runs recorded, submitted at
//! once and waited for, each the median of [`BATCHES`], per run. cuBLAS is timed the same
//! way beside it (`benches/torch_clocks.py`: the wall clock around `BATCH` matmuls and a
//! synchronize). Included by the GEMM benches (`#[path = "common/wall.rs"] mod wall;`).

use std::time::{Duration, Instant};
use swizzle::gpu::{Batch, Buffer, Dispatch, GemmElement, GemmKernel, Gpu, GpuError};

/// Runs per batch.
pub const BATCH: usize = 20;

/// Batches (and lone runs) whose median is taken.
const BATCHES: usize = 7;

/// The wall clock per run of one `run` and of a [`Batch`] of [`BATCH`] runs of `kernel`
/// into `c`, each the median of [`BATCHES`]; right after the GPU clock's measurement, so the
/// GPU is warm.
pub fn wall<T: GemmElement>(
    gpu: &Gpu,
    kernel: &GemmKernel,
    [a, b]: [&Buffer<T>; 2],
    c: &Buffer<f32>,
) -> Result<[Duration; 2], GpuError> {
    let median = |mut times: Vec<Duration>| {
        times.sort();
        times[times.len() / 2]
    };
    let mut single = Vec::new();
    let mut batched = Vec::new();
    for _ in 0..BATCHES {
        let start = Instant::now();
        kernel.run(gpu, (a, b, c))?;
        single.push(start.elapsed());
        let start = Instant::now();
        let mut batch: Batch = gpu.batch();
        for _ in 0..BATCH {
            kernel.enqueue(&mut batch, (a, b, c))?;
        }
        batch.submit()?;
        batched.push(start.elapsed() / BATCH as u32);
    }
    Ok([median(single), median(batched)])
}
