//! One way to run, record and time every kernel: the [`Dispatch`] trait.

use super::batch::QUERIES;
use super::{Batch, Gpu, GpuError};
use std::time::{Duration, Instant};

/// How long [`Dispatch::median`] runs a kernel before timing it. A GPU lowers its clocks
/// when idle and raises them only under sustained load, which takes a few hundred
/// milliseconds of work, so a warm-up counted in runs can end before the clocks are up:
/// timed cold, a copy measures far below its bandwidth
/// (BENCHMARKS.md#gpu-packs-unpacks-and-transposes).
pub const WARM_UP: Duration = Duration::from_millis(500);

/// A compiled kernel that runs over buffers `B`: running once, recording into a [`Batch`],
/// warming up and timing are the same for every kernel, given how one run is recorded.
///
/// `B` is what one run binds, in the kernel's order: `(&input, &output)` for a
/// [`Kernel`](super::Kernel) or a [`TransposeKernel`](super::TransposeKernel),
/// `(&a, &b, &c)` for a [`GemmKernel`](super::GemmKernel), `&data` for a
/// [`MapKernel`](super::MapKernel). Every method checks the buffers against the kernel
/// (element width, lengths) before anything runs: a mismatch is a [`GpuError`].
///
/// ```no_run
/// # // No run: doctests run where no GPU may be (the GPU tests run kernels).
/// use swizzle_runtime::gpu::{Dispatch, Gpu, GpuError};
///
/// # fn main() -> Result<(), GpuError> {
/// let gpu = Gpu::new()?;
/// let len = 1 << 20;
/// let copy = gpu.plain_copy_kernel(len)?;
/// let (input, output) = (gpu.upload(&vec![7u32; len])?, gpu.filled(len, 0u32)?);
/// copy.run(&gpu, (&input, &output))?;
/// let median = copy.median(&gpu, (&input, &output), 30)?; // after `WARM_UP`
/// # Ok(())
/// # }
/// ```
///
/// A type of one's own that records runs of library kernels (two passes of a pipeline,
/// say) gets the rest by implementing [`Dispatch::enqueue`]; its time is the sum of the
/// GPU times of the passes one run records.
pub trait Dispatch<B: Copy> {
    /// Records one run over `buffers` into `batch`, after the runs recorded before it;
    /// [`Batch::submit`] runs them all. Nothing is recorded if the buffers do not fit.
    fn enqueue(&self, batch: &mut Batch, buffers: B) -> Result<(), GpuError>;

    /// Runs once over `buffers` and waits for it. To run several kernels with one wait,
    /// record them into a [`Batch`] with [`Dispatch::enqueue`].
    fn run(&self, gpu: &Gpu, buffers: B) -> Result<(), GpuError> {
        let mut batch = gpu.batch();
        self.enqueue(&mut batch, buffers)?;
        batch.submit()
    }

    /// Runs back to back for at least `duration`, so that the GPU leaves its idle clocks
    /// before it is timed.
    fn warm_up(&self, gpu: &Gpu, buffers: B, duration: Duration) -> Result<(), GpuError> {
        let start = Instant::now();
        while start.elapsed() < duration {
            let mut batch = gpu.batch();
            for _ in 0..8 {
                self.enqueue(&mut batch, buffers)?;
            }
            batch.submit()?;
        }
        Ok(())
    }

    /// Runs `runs` times (at least one) in one batch and returns the GPU time of each,
    /// from timestamp queries written at the beginning and end of each pass. A GPU that was
    /// idle runs at low clocks: see [`Dispatch::warm_up`] and [`Dispatch::median`].
    fn time(&self, gpu: &Gpu, buffers: B, runs: usize) -> Result<Vec<Duration>, GpuError> {
        timeable(gpu, runs)?;
        let mut batch = gpu.timed_batch();
        let mut passes = Vec::with_capacity(runs);
        for _ in 0..runs {
            let before = batch.runs();
            self.enqueue(&mut batch, buffers)?;
            passes.push(batch.runs() - before);
        }
        let mut times = batch.submit_timed()?.into_iter();
        Ok(passes
            .into_iter()
            .map(|count| times.by_ref().take(count).sum())
            .collect())
    }

    /// The median GPU time of `runs` runs (at least one), after [`WARM_UP`] of
    /// back-to-back runs that take the GPU off its idle clocks.
    fn median(&self, gpu: &Gpu, buffers: B, runs: usize) -> Result<Duration, GpuError> {
        // Arguments first: a warm-up before an error would waste half a second.
        timeable(gpu, runs)?;
        self.warm_up(gpu, buffers, WARM_UP)?;
        let mut times = self.time(gpu, buffers, runs)?;
        times.sort();
        Ok(times[times.len() / 2])
    }
}

/// Fails unless `gpu` can time `runs` runs in one call.
fn timeable(gpu: &Gpu, runs: usize) -> Result<(), GpuError> {
    if !gpu.has_timestamps() {
        return Err(GpuError::NoTimestamps);
    }
    // A query set holds at most `QUERIES` queries: two per run.
    let limit = (QUERIES / 2) as usize;
    if runs == 0 || runs > limit {
        return Err(GpuError::TooLarge {
            what: "timed runs in one call (at least 1)".to_owned(),
            value: runs as u64,
            limit: limit as u64,
        });
    }
    Ok(())
}
