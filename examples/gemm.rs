//! C = A · B on the GPU from layouts: the library's GEMM (`swizzle::gemm`, whose tiles,
//! copies, fragments and order are `layout!` items) against a naive WGSL GEMM, at sizes
//! that leave partial tiles on every side. Both results are checked against the CPU;
//! times are GPU timestamps (median of 10 runs after `swizzle::gpu::WARM_UP`), and the wall
//! clock per run of a batch of 10 runs (one submission and one wait for all of them).
//!
//! Run: `cargo run --release --features gpu --example gemm`

use swizzle::gpu::{Dispatch, GemmKernel, Gpu, GpuError};

const SHAPE: [usize; 3] = [1000, 1200, 700];

fn main() -> Result<(), GpuError> {
    let gpu = match Gpu::new() {
        Ok(gpu) => gpu,
        Err(error) => {
            eprintln!("no GPU to run on: {error}");
            return Ok(());
        }
    };
    println!("{}", gpu.describe());
    let [m, n, k] = SHAPE;
    // Small integers: every f32 sum of products is exact, so the GPU must match exactly.
    let a: Vec<f32> = (0..m * k).map(|i| (i * 7 % 9) as f32 - 4.0).collect();
    let b: Vec<f32> = (0..k * n).map(|i| (i * 5 % 7) as f32 - 3.0).collect();
    let mut expected = vec![0.0f32; m * n];
    for i in 0..m {
        for p in 0..k {
            let a_ip = a[i * k + p];
            for j in 0..n {
                expected[i * n + j] += a_ip * b[p * n + j];
            }
        }
    }
    let (a_buffer, b_buffer) = (gpu.upload(&a)?, gpu.upload(&b)?);
    let c = gpu.filled(m * n, f32::NAN)?;
    let kernels: [GemmKernel; 2] = [
        gpu.gemm_kernel(SHAPE, &swizzle::gemm::config())?,
        gpu.naive_gemm_kernel(SHAPE)?,
    ];
    println!("{m} × {k} times {k} × {n}, f32");
    for kernel in &kernels {
        kernel.run(&gpu, (&a_buffer, &b_buffer, &c))?;
        let verdict = match gpu.download(&c)? == expected {
            true => "correct",
            false => "WRONG",
        };
        let timing = match gpu.has_timestamps() {
            true => {
                let median = kernel.median(&gpu, (&a_buffer, &b_buffer, &c), 10)?;
                let tflops = kernel.flops() / median.as_secs_f64() / 1e12;
                format!("{:8.3} ms {tflops:6.2} TFLOP/s", median.as_secs_f64() * 1e3)
            }
            false => "(no timestamp queries on this adapter)".to_owned(),
        };
        let mut batch = gpu.batch();
        for _ in 0..10 {
            kernel.enqueue(&mut batch, (&a_buffer, &b_buffer, &c))?;
        }
        let start = std::time::Instant::now();
        batch.submit()?;
        let wall = start.elapsed().as_secs_f64() / 10.0;
        let timing = format!("{timing}, batch of 10: {:8.3} ms per run", wall * 1e3);
        let [a_loads, b_loads] = kernel.load_conflicts();
        let [a_reads, b_reads] = kernel.fragment_conflicts;
        println!(
            "{:70} {timing}  {verdict}  (bank conflicts: loads {a_loads}/{b_loads}, \
             fragment reads {a_reads}/{b_reads})",
            kernel.name()
        );
    }
    Ok(())
}
