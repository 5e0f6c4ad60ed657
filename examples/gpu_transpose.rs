//! A 4096×4096 f32 transpose on the GPU, four ways: naive (one thread per element, writes
//! strided), and through a 32×32 workgroup tile laid out three ways — row-major (column
//! reads hit one bank 32 times), padded to 33 words a row, and XOR-swizzled (CK's LDS
//! preshuffle: no conflicts, no padding). Each result is checked against the CPU; times are
//! GPU timestamps (median of 20 runs after `swizzle::gpu::WARM_UP` of warm-up).
//!
//! Run: `cargo run --release --example gpu_transpose`

use swizzle::gpu::{Gpu, GpuError, GpuLayout};

swizzle::layout! {
    /// Row-major tile: the column reads of a transpose conflict 32 ways.
    pub layout RowTile { memory [y: 32, x: 32]; coords [y, x]; }
    /// One padding word per row shifts each row by a bank.
    pub layout PaddedTile { memory [y: 32, x: 32] strides [33, 1]; coords [y, x]; }
    /// Column `x` of row `y` stored at `x ^ y`: every column spans all 32 banks.
    pub layout XorTile { memory [y: 32, x: 32]; xor x by y; coords [y, x]; }
}

const SIDE: usize = 4096;

fn main() -> Result<(), GpuError> {
    let gpu = match Gpu::new() {
        Ok(gpu) => gpu,
        Err(error) => {
            eprintln!("no GPU to run on: {error}");
            return Ok(());
        }
    };
    println!("{}", gpu.describe());
    let image: Vec<f32> = (0..SIDE * SIDE).map(|i| i as f32 * 0.5).collect();
    let mut expected = vec![0.0; image.len()];
    for y in 0..SIDE {
        for x in 0..SIDE {
            expected[x * SIDE + y] = image[y * SIDE + x];
        }
    }
    let input = gpu.upload(&image)?;
    let output = gpu.filled(image.len(), f32::NAN)?;
    let mut kernels = vec![gpu.naive_transpose_kernel(SIDE, SIDE)?];
    for tile in [
        GpuLayout::of::<RowTile, 2>()?,
        GpuLayout::of::<PaddedTile, 2>()?,
        GpuLayout::of::<XorTile, 2>()?,
    ] {
        kernels.push(gpu.transpose_kernel(SIDE, SIDE, &tile)?);
    }
    for kernel in &kernels {
        kernel.run(&gpu, &input, &output)?;
        let correct = gpu.download(&output)? == expected;
        let timing = match gpu.has_timestamps() {
            true => {
                let median = kernel.median(&gpu, &input, &output, 20)?;
                let gbs = kernel.bytes() as f64 / median.as_secs_f64() / 1e9;
                format!("{:8.3} ms {gbs:7.1} GB/s", median.as_secs_f64() * 1e3)
            }
            false => "(no timestamp queries on this adapter)".to_owned(),
        };
        let verdict = if correct { "correct" } else { "WRONG" };
        println!("{:32} {timing}  {verdict}", kernel.name());
        assert!(correct, "{} differs from the CPU transpose", kernel.name());
    }
    Ok(())
}
