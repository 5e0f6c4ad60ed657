//! How kernels reach the GPU: a compiled pipeline and its grid ([`Dispatch`]), recorded
//! one pass per run into a [`Batch`], which is submitted and waited for once.
//!
//! Every submission ends in a wait for the GPU to finish and a read of wgpu's errors: a
//! round trip of about half a millisecond on an H200. A single `run` pays it once; a chain
//! of kernels recorded into one batch pays it once for all of them.

use super::{Gpu, GpuError, WARM_UP};
use std::time::{Duration, Instant};

/// Kernel runs recorded into one command buffer, submitted and waited for once by
/// [`Batch::submit`]. Runs execute in the order they were recorded, each seeing what the
/// ones before it wrote: wgpu orders the passes of one command buffer and inserts the
/// barriers between them.
///
/// Make one with [`Gpu::batch`], record runs with the kernels' `enqueue` methods
/// ([`Kernel::enqueue`](super::Kernel::enqueue),
/// [`GemmKernel::enqueue`](super::GemmKernel::enqueue),
/// [`MapKernel::enqueue`](super::MapKernel::enqueue)), which check their buffers as `run`
/// does, then submit. A batch dropped without [`Batch::submit`] runs nothing.
///
/// ```no_run
/// # // No run: doctests run where no GPU may be (the GPU tests check batches).
/// use swizzle_runtime::gpu::{Gpu, GpuError};
///
/// # fn main() -> Result<(), GpuError> {
/// let gpu = Gpu::new()?;
/// let len = 1 << 20;
/// let copy = gpu.plain_copy_kernel(len)?;
/// let data: Vec<u32> = (0..len as u32).collect();
/// let input = gpu.upload(&data)?;
/// let (middle, output) = (gpu.filled(len, 0u32)?, gpu.filled(len, 0u32)?);
///
/// let mut batch = gpu.batch();
/// copy.enqueue(&mut batch, &input, &middle)?;
/// copy.enqueue(&mut batch, &middle, &output)?; // reads what the first run wrote
/// batch.submit()?; // one submission, one wait
/// assert_eq!(gpu.download(&output)?, data);
/// # Ok(())
/// # }
/// ```
#[must_use = "a batch runs nothing until it is submitted"]
pub struct Batch<'g> {
    gpu: &'g Gpu,
    encoder: wgpu::CommandEncoder,
    runs: usize,
}

impl Gpu {
    /// An empty [`Batch`] of kernel runs on this device.
    pub fn batch(&self) -> Batch<'_> {
        let encoder = self
            .device()
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("swizzle batch"),
            });
        Batch {
            gpu: self,
            encoder,
            runs: 0,
        }
    }
}

impl Batch<'_> {
    /// How many runs are recorded.
    pub fn runs(&self) -> usize {
        self.runs
    }

    /// Whether no run is recorded.
    pub fn is_empty(&self) -> bool {
        self.runs == 0
    }

    /// Submits every recorded run at once and waits for the GPU to finish them; the first
    /// error wgpu reported while recording or running them, if any.
    pub fn submit(self) -> Result<(), GpuError> {
        self.gpu.check()?;
        self.gpu.queue().submit([self.encoder.finish()]);
        self.gpu.wait()
    }

    fn gpu(&self) -> &Gpu {
        self.gpu
    }
}

impl std::fmt::Debug for Batch<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Batch").field("runs", &self.runs).finish()
    }
}

/// Where a run's timestamps go: the query set and its two indices.
type Timestamps<'q> = (&'q wgpu::QuerySet, u32);

/// A compiled kernel's pipeline and grid: what every kernel type records, runs and times
/// the same way, given its buffers in binding order.
#[derive(Debug)]
pub(super) struct Dispatch {
    pub(super) pipeline: wgpu::ComputePipeline,
    /// Workgroups along x and y.
    pub(super) groups: [u32; 2],
}

impl Dispatch {
    /// Records one run over `buffers` (bound in order) into `batch`.
    pub(super) fn enqueue(&self, batch: &mut Batch, buffers: &[&wgpu::Buffer]) {
        self.record(batch, buffers, 1, None);
    }

    /// Runs once over `buffers` and waits for it.
    pub(super) fn run(&self, gpu: &Gpu, buffers: &[&wgpu::Buffer]) -> Result<(), GpuError> {
        let mut batch = gpu.batch();
        self.enqueue(&mut batch, buffers);
        batch.submit()
    }

    /// Runs back to back for at least `duration`, so that the GPU leaves its idle clocks.
    pub(super) fn warm_up(
        &self,
        gpu: &Gpu,
        buffers: &[&wgpu::Buffer],
        duration: Duration,
    ) -> Result<(), GpuError> {
        let start = Instant::now();
        while start.elapsed() < duration {
            let mut batch = gpu.batch();
            self.record(&mut batch, buffers, 8, None);
            batch.submit()?;
        }
        Ok(())
    }

    /// The median GPU time of `runs` runs (at least one), after [`WARM_UP`] of
    /// back-to-back runs that take the GPU off its idle clocks.
    pub(super) fn median(
        &self,
        gpu: &Gpu,
        buffers: &[&wgpu::Buffer],
        runs: usize,
    ) -> Result<Duration, GpuError> {
        // Arguments first: a warm-up before an error would waste half a second.
        timeable(gpu, runs)?;
        self.warm_up(gpu, buffers, WARM_UP)?;
        let mut times = self.time(gpu, buffers, runs)?;
        times.sort();
        Ok(times[times.len() / 2])
    }

    /// Runs `runs` times in one batch and returns the GPU time of each, from timestamp
    /// queries written at the beginning and end of each run's pass.
    pub(super) fn time(
        &self,
        gpu: &Gpu,
        buffers: &[&wgpu::Buffer],
        runs: usize,
    ) -> Result<Vec<Duration>, GpuError> {
        timeable(gpu, runs)?;
        let count = 2 * runs as u32;
        let set = gpu.device().create_query_set(&wgpu::QuerySetDescriptor {
            label: Some("swizzle timing"),
            ty: wgpu::QueryType::Timestamp,
            count,
        });
        let bytes = u64::from(count) * 8;
        let resolve = gpu.device().create_buffer(&wgpu::BufferDescriptor {
            label: Some("swizzle timestamps"),
            size: bytes,
            usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let staging = gpu.device().create_buffer(&wgpu::BufferDescriptor {
            label: Some("swizzle timestamps readback"),
            size: bytes,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut batch = gpu.batch();
        self.record(&mut batch, buffers, runs, Some((&set, 0)));
        batch.encoder.resolve_query_set(&set, 0..count, &resolve, 0);
        batch
            .encoder
            .copy_buffer_to_buffer(&resolve, 0, &staging, 0, bytes);
        batch.submit()?;
        let words = gpu.read(&staging)?;
        // Little-endian u64 ticks, read as pairs of words (a `Vec<u32>` is not 8-aligned).
        let ticks: Vec<u64> = words
            .chunks_exact(2)
            .map(|w| u64::from(w[0]) | (u64::from(w[1]) << 32))
            .collect();
        let period = f64::from(gpu.queue().get_timestamp_period());
        Ok(ticks
            .chunks_exact(2)
            .map(|pair| {
                let elapsed = pair[1].saturating_sub(pair[0]) as f64 * period;
                Duration::from_nanos(elapsed.round() as u64)
            })
            .collect())
    }

    /// Records `runs` runs over `buffers`, each its own pass, with begin and end
    /// timestamps at consecutive indices of `queries` from the one given, when given.
    fn record(
        &self,
        batch: &mut Batch,
        buffers: &[&wgpu::Buffer],
        runs: usize,
        queries: Option<Timestamps>,
    ) {
        let entries: Vec<wgpu::BindGroupEntry> = buffers
            .iter()
            .enumerate()
            .map(|(binding, buffer)| wgpu::BindGroupEntry {
                binding: binding as u32,
                resource: buffer.as_entire_binding(),
            })
            .collect();
        let bind_group = batch
            .gpu()
            .device()
            .create_bind_group(&wgpu::BindGroupDescriptor {
                label: None,
                layout: &self.pipeline.get_bind_group_layout(0),
                entries: &entries,
            });
        for run in 0..runs as u32 {
            let timestamp_writes = queries.map(|(set, first)| wgpu::ComputePassTimestampWrites {
                query_set: set,
                beginning_of_pass_write_index: Some(first + 2 * run),
                end_of_pass_write_index: Some(first + 2 * run + 1),
            });
            let mut pass = batch
                .encoder
                .begin_compute_pass(&wgpu::ComputePassDescriptor {
                    label: None,
                    timestamp_writes,
                });
            pass.set_pipeline(&self.pipeline);
            pass.set_bind_group(0, &bind_group, &[]);
            pass.dispatch_workgroups(self.groups[0], self.groups[1], 1);
        }
        batch.runs += runs;
    }
}

/// Fails unless `gpu` can time `runs` runs in one call.
fn timeable(gpu: &Gpu, runs: usize) -> Result<(), GpuError> {
    if !gpu.has_timestamps() {
        return Err(GpuError::NoTimestamps);
    }
    // wgpu caps a query set at 4096 queries: two per run.
    if runs == 0 || runs > 2048 {
        return Err(GpuError::TooLarge {
            what: "timed runs in one call (at least 1)".to_owned(),
            value: runs as u64,
            limit: 2048,
        });
    }
    Ok(())
}
