//! How kernels reach the GPU: a compiled pipeline and its grid ([`Pipeline`]), recorded
//! one pass per run into a [`Batch`], which is submitted and waited for once.
//!
//! Every submission ends in a wait for the GPU to finish and a read of wgpu's errors: a round
//! trip through the driver that can cost as much as a small kernel's run (BENCHMARKS.md#gemm).
//! A single `run` pays it once; a chain of kernels recorded into one batch pays it once for
//! all of them.

use super::{Gpu, GpuError};
use std::time::Duration;

/// Kernel runs recorded into one command buffer, submitted and waited for once by
/// [`Batch::submit`]. Runs execute in the order they were recorded, each seeing what the
/// ones before it wrote: wgpu orders the passes of one command buffer and inserts the
/// barriers between them.
///
/// Make one with [`Gpu::batch`], record runs with the kernels'
/// [`Dispatch::enqueue`](super::Dispatch::enqueue), which checks their buffers as `run`
/// does, then submit. A batch dropped without [`Batch::submit`] runs nothing.
///
/// ```no_run
/// # // No run: doctests run where no GPU may be (the GPU tests check batches).
/// use swizzle_runtime::gpu::{Dispatch, Gpu, GpuError};
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
/// copy.enqueue(&mut batch, (&input, &middle))?;
/// copy.enqueue(&mut batch, (&middle, &output))?; // reads what the first run wrote
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
    /// Where the passes write their timestamps, in a timed batch.
    timestamps: Option<Timestamps>,
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
            timestamps: None,
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

/// Timestamp queries a timed batch's passes write, two per pass, in the order recorded.
#[derive(Debug)]
pub(super) struct Timestamps {
    set: wgpu::QuerySet,
    /// Passes that wrote their two queries.
    passes: u32,
}

/// The most queries wgpu allows in one query set, and so the most passes one timed batch
/// holds (two queries each) is half of it.
pub(super) const QUERIES: u32 = 4096;

impl Gpu {
    /// An empty [`Batch`] whose every pass writes timestamps at its beginning and end, read
    /// back by [`Batch::submit_timed`].
    pub(super) fn timed_batch(&self) -> Batch<'_> {
        let mut batch = self.batch();
        batch.timestamps = Some(Timestamps {
            set: self.device().create_query_set(&wgpu::QuerySetDescriptor {
                label: Some("swizzle timing"),
                ty: wgpu::QueryType::Timestamp,
                count: QUERIES,
            }),
            passes: 0,
        });
        batch
    }
}

impl Batch<'_> {
    /// Submits a timed batch ([`Gpu::timed_batch`]) and waits for it: the GPU time of each
    /// pass, in the order recorded.
    pub(super) fn submit_timed(mut self) -> Result<Vec<Duration>, GpuError> {
        let Some(Timestamps { set, passes }) = self.timestamps.take() else {
            self.submit()?;
            return Ok(Vec::new());
        };
        if self.runs > (QUERIES / 2) as usize {
            return Err(GpuError::TooLarge {
                what: "passes timed in one batch".to_owned(),
                value: self.runs as u64,
                limit: u64::from(QUERIES / 2),
            });
        }
        let gpu = self.gpu;
        let count = 2 * passes;
        let bytes = u64::from(count.max(1)) * 8;
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
        self.encoder.resolve_query_set(&set, 0..count, &resolve, 0);
        self.encoder
            .copy_buffer_to_buffer(&resolve, 0, &staging, 0, bytes);
        self.submit()?;
        let words = gpu.read(&staging)?;
        // Little-endian u64 ticks, read as pairs of words (a `Vec<u32>` is not 8-aligned).
        let ticks: Vec<u64> = words
            .chunks_exact(2)
            .map(|w| u64::from(w[0]) | (u64::from(w[1]) << 32))
            .take(count as usize)
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
}

/// A compiled kernel's pipeline and grid: what every kernel type records the same way,
/// given its buffers in binding order. The kernels' [`Dispatch`](super::Dispatch) impls
/// check their typed buffers and record through it.
#[derive(Debug)]
pub(super) struct Pipeline {
    pub(super) pipeline: wgpu::ComputePipeline,
    /// Workgroups along x and y.
    pub(super) groups: [u32; 2],
}

impl Pipeline {
    /// Records one run over `buffers` (bound in order) into `batch`, as its own pass, with
    /// timestamps at its beginning and end when the batch is timed (while its query set
    /// has room: past it, [`Batch::submit_timed`] refuses the batch).
    pub(super) fn enqueue(&self, batch: &mut Batch, buffers: &[&wgpu::Buffer]) {
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
        let queries = batch.timestamps.as_mut().and_then(|timestamps| {
            let first = 2 * timestamps.passes;
            (first + 2 <= QUERIES).then(|| {
                timestamps.passes += 1;
                (timestamps.set.clone(), first)
            })
        });
        let timestamp_writes =
            queries
                .as_ref()
                .map(|(set, first)| wgpu::ComputePassTimestampWrites {
                    query_set: set,
                    beginning_of_pass_write_index: Some(*first),
                    end_of_pass_write_index: Some(first + 1),
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
        drop(pass);
        batch.runs += 1;
    }
}
