//! GEMM on wgpu (`swizzle::gpu::Gpu::gemm_kernel`) against cuBLAS SGEMM: C = A · B for
//! square f32 matrices, each tile layout of A in the same run, beside a naive WGSL GEMM.
//! Every result is checked before it is timed (small integers, so every sum is exact: whole
//! matrices up to 1024, 4096 sampled elements above). cuBLAS runs in the same device call
//! (`python3 benches/cublas_sgemm.py > cublas.txt`; `SWIZZLE_CUBLAS_RESULTS=cublas.txt`).
//!
//! `SWIZZLE_GEMM_SIZES` (default `1024,2048,4096,8192`), `SWIZZLE_BENCH_RUNS` (default 30).

use swizzle::gemm::{self, GemmA};
use swizzle::gpu::{BoundsChecks, Gemm, GemmKernel, Gpu, GpuError, Operands, Stored, f16};
use swizzle::raster::Raster;

swizzle::layout! {
    /// The library's A tile (`swizzle::gemm::GemmA`) without its XOR: k-major rows of 128
    /// words, so the loads' four groups of k collide in fours.
    pub layout AColumns { memory [k: 16, m: 128]; coords [m, k]; }
    /// k-major rows padded to 132 words: groups of k two apart still collide in pairs (no
    /// padding that keeps `vec4`s of m aligned separates all four).
    pub layout APadded { memory [k: 16, m: 128] strides [132, 1]; coords [m, k]; }
    /// Row-major, as A lies in memory: the loads write whole `vec4`s, the fragments read
    /// single elements 16 words apart.
    pub layout ARows { memory [m: 128, k: 16]; coords [m, k]; }
}

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

/// Small integers, so that every f32 sum of products is exact.
fn operands(n: usize) -> (Vec<f32>, Vec<f32>) {
    let small = |i: usize, salt: usize| ((i.wrapping_mul(2654435761) >> 7) + salt) % 9;
    let a = (0..n * n).map(|i| small(i, 1) as f32 - 4.0).collect();
    let b = (0..n * n).map(|i| small(i, 5) as f32 - 4.0).collect();
    (a, b)
}

/// Exits with a message unless C is the product.
fn check(c: &[f32], a: &[f32], b: &[f32], n: usize, kernel: &GemmKernel) {
    if !correct(c, a, b, n) {
        eprintln!("WRONG RESULT: {} at {n}", kernel.name());
        std::process::exit(1);
    }
}

/// Whole C at small sizes, 4096 elements spread over it above.
fn correct(c: &[f32], a: &[f32], b: &[f32], n: usize) -> bool {
    let element = |i: usize, j: usize| (0..n).map(|p| a[i * n + p] * b[p * n + j]).sum::<f32>();
    match n <= 1024 {
        true => (0..n * n).all(|x| c[x] == element(x / n, x % n)),
        false => (0..4096).all(|s| {
            let x = (s * 2654435761) % (n * n);
            c[x] == element(x / n, x % n)
        }),
    }
}

fn main() -> Result<(), GpuError> {
    let sizes: Vec<usize> = env("SWIZZLE_GEMM_SIZES")
        .unwrap_or("1024,2048,4096,8192".into())
        .split(',')
        .filter_map(|s| s.trim().parse().ok())
        .collect();
    let runs: usize = env("SWIZZLE_BENCH_RUNS")
        .and_then(|r| r.parse().ok())
        .unwrap_or(30);
    let gpu = match Gpu::new() {
        Ok(gpu) => gpu,
        Err(error) => {
            eprintln!("no GPU, nothing measured: {error}");
            return Ok(());
        }
    };
    println!("device: {}", gpu.describe());
    let cublas: Vec<(usize, f64)> = env("SWIZZLE_CUBLAS_RESULTS")
        .and_then(|path| std::fs::read_to_string(path).ok())
        .map(|text| {
            text.lines()
                .filter_map(
                    |line| match line.split_whitespace().collect::<Vec<_>>()[..] {
                        ["cublas", n, _, tflops] => Some((n.parse().ok()?, tflops.parse().ok()?)),
                        _ => None,
                    },
                )
                .collect()
        })
        .unwrap_or_default();
    let library = gemm::config();
    let tiles = [
        GemmA::DESCRIPTOR,
        APadded::DESCRIPTOR,
        AColumns::DESCRIPTOR,
        ARows::DESCRIPTOR,
    ];
    let mut configs: Vec<Gemm> = tiles
        .iter()
        .map(|a_tile| Gemm { a_tile, ..library })
        .collect();
    configs.push(Gemm {
        bounds_checks: BoundsChecks::On,
        ..library
    });
    configs.push(Gemm {
        order: Raster::Grouped(8),
        ..library
    });
    // Transposed operands (uploaded transposed below, so C is the same product).
    configs.push(gemm::config_for(Stored::Transposed, Stored::RowMajor));
    configs.push(gemm::config_for(Stored::RowMajor, Stored::Transposed));
    // f16 operands, f32 sums, where the adapter has 16-bit floats.
    if gpu.has_f16() {
        for stored in [Stored::RowMajor, Stored::Transposed] {
            configs.push(Gemm {
                operands: Operands::F16,
                ..gemm::config_for(stored, Stored::RowMajor)
            });
        }
    }
    println!(
        "\n| n | kernel | median (ms) | TFLOP/s | × cuBLAS | conflicts: loads (A, B) | \
         fragment reads (A, B) |"
    );
    println!("|---:|---|---:|---:|---:|---|---|");
    for &n in &sizes {
        let (a, b) = operands(n);
        let transpose =
            |m: &[f32]| -> Vec<f32> { (0..n * n).map(|i| m[(i % n) * n + i / n]).collect() };
        let half = |m: &[f32]| -> Vec<f16> { m.iter().map(|&x| f16::from_f32(x)).collect() };
        // Each operand as it is stored, row-major and transposed, in f32 and in f16.
        let (a_t, b_t) = (transpose(&a), transpose(&b));
        let a_buffers = [gpu.upload(&a)?, gpu.upload(&a_t)?];
        let b_buffers = [gpu.upload(&b)?, gpu.upload(&b_t)?];
        let a_halves = [gpu.upload(&half(&a))?, gpu.upload(&half(&a_t))?];
        let b_halves = [gpu.upload(&half(&b))?, gpu.upload(&half(&b_t))?];
        let c = gpu.filled(n * n, 0.0f32)?;
        let mut kernels: Vec<(GemmKernel, Operands, [usize; 2])> = Vec::new();
        let index = |order| match order {
            Stored::RowMajor => 0,
            Stored::Transposed => 1,
        };
        for config in &configs {
            let stored = [index(config.a_order), index(config.b_order)];
            kernels.push((gpu.gemm_kernel([n, n, n], config)?, config.operands, stored));
        }
        if n <= 4096 {
            kernels.push((gpu.naive_gemm_kernel([n, n, n])?, Operands::F32, [0, 0]));
        }
        let anchor = cublas.iter().find(|(size, _)| *size == n).map(|&(_, t)| t);
        for (kernel, operands, [a_stored, b_stored]) in &kernels {
            let runs = if kernel.name() == "naive GEMM" {
                runs.min(5)
            } else {
                runs
            };
            // Checked, then timed, on the operands' buffers.
            let time = match operands {
                Operands::F32 => {
                    let (a_buffer, b_buffer) = (&a_buffers[*a_stored], &b_buffers[*b_stored]);
                    kernel.run(&gpu, a_buffer, b_buffer, &c)?;
                    check(&gpu.download(&c)?, &a, &b, n, kernel);
                    kernel.median(&gpu, a_buffer, b_buffer, &c, runs)?
                }
                Operands::F16 => {
                    let (a_buffer, b_buffer) = (&a_halves[*a_stored], &b_halves[*b_stored]);
                    kernel.run(&gpu, a_buffer, b_buffer, &c)?;
                    check(&gpu.download(&c)?, &a, &b, n, kernel);
                    kernel.median(&gpu, a_buffer, b_buffer, &c, runs)?
                }
            };
            let tflops = kernel.flops() / time.as_secs_f64() / 1e12;
            let ratio = anchor.map_or("–".to_owned(), |t| format!("{:.2}×", tflops / t));
            println!(
                "| {n} | {} | {:.3} | {tflops:.2} | {ratio} | {:?} | {:?} |",
                kernel.name(),
                time.as_secs_f64() * 1e3,
                kernel.load_conflicts(),
                kernel.fragment_conflicts
            );
        }
        if let Some(t) = anchor {
            println!("| {n} | cuBLAS SGEMM (torch, TF32 off) | – | {t:.2} | 1.00× | – | – |");
        }
    }
    Ok(())
}
