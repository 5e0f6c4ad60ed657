//! GEMM on wgpu (`swizzle::gpu::Gpu::gemm_kernel`) against cuBLAS SGEMM: C = A · B for
//! square f32 matrices, each tile layout of A in the same run, beside a naive WGSL GEMM.
//! Every result is checked before it is timed (small integers, so every sum is exact: whole
//! matrices up to 1024, 4096 sampled elements above). cuBLAS runs in the same device call
//! (`python3 benches/cublas_sgemm.py > cublas.txt`; `SWIZZLE_CUBLAS_RESULTS=cublas.txt`).
//!
//! Two clocks: the GPU's (timestamp queries around each run: the median of
//! `SWIZZLE_BENCH_RUNS`) and the wall clock around whole submissions, as a user chaining
//! kernels sees it: one `run` (a submission and a wait each), and a [`Batch`] of
//! `BATCH` runs submitted at once (the median of `BATCHES` batches, per run). cuBLAS is
//! timed both ways too (CUDA events, and the wall clock around `BATCH` matmuls and a
//! synchronize), and each ratio is taken against its own clock.
//!
//! Each scalar kernel's row ends with the cost model of its workgroup-memory traffic
//! (`GemmKernel::share_cost`, cycles per subgroup and step of k: the stores' wavefronts and
//! address ops, the reads' wavefronts against the FMAs' cycles), and each size with a line
//! saying which A tile the model ranks first and which measured fastest.
//!
//! `SWIZZLE_GEMM_SIZES` (default `1024,2048,4096,8192`), `SWIZZLE_BENCH_RUNS` (default 30).

use std::time::Duration;
use swizzle::gemm::{self, GemmA};
use swizzle::gpu::{
    BoundsChecks, Buffer, Dispatch, Gemm, GemmElement, GemmKernel, Gpu, GpuError, Operands, Stored,
    f16,
};
use swizzle::raster::Raster;

#[path = "../tests/common/gemm_tiles.rs"]
mod gemm_tiles;
#[path = "common/wall.rs"]
mod wall;

use gemm_tiles::{AColumns, APadded, ARows};
use wall::{BATCH, wall};

/// Checks `kernel` on A and B (whose values are `values`), times it by the GPU clock
/// (median of `runs`) and by the wall clock ([`wall`]), and checks C again: the batches
/// wrote it too.
fn measure<T: GemmElement>(
    gpu: &Gpu,
    kernel: &GemmKernel,
    [a, b]: [&Buffer<T>; 2],
    c: &Buffer<f32>,
    values: [&[f32]; 2],
    n: usize,
    runs: usize,
) -> Result<(Duration, [Duration; 2]), GpuError> {
    kernel.run(gpu, (a, b, c))?;
    check(&gpu.download(c)?, values[0], values[1], n, kernel);
    let time = kernel.median(gpu, (a, b, c), runs)?;
    let wall = wall(gpu, kernel, [a, b], c)?;
    check(&gpu.download(c)?, values[0], values[1], n, kernel);
    Ok((time, wall))
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
    let cublas_results = env("SWIZZLE_CUBLAS_RESULTS")
        .and_then(|path| std::fs::read_to_string(path).ok())
        .unwrap_or_default();
    // `cublas <n> <ms> <TFLOP/s>` by CUDA events, `cublas_wall …` by the wall clock.
    let cublas = |clock: &str| -> Vec<(usize, f64)> {
        cublas_results
            .lines()
            .filter_map(
                |line| match line.split_whitespace().collect::<Vec<_>>()[..] {
                    [name, n, _, tflops] if name == clock => {
                        Some((n.parse().ok()?, tflops.parse().ok()?))
                    }
                    _ => None,
                },
            )
            .collect()
    };
    let (cublas, cublas_wall) = (cublas("cublas"), cublas("cublas_wall"));
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
        "\n| n | kernel | median (ms) | TFLOP/s | × cuBLAS | wall, one run (ms) | \
         wall, batch of {BATCH} (ms per run) | TFLOP/s (batch) | × cuBLAS (wall) | \
         conflicts: loads (A, B) | fragment reads (A, B) | model: cycles per step |"
    );
    println!("|---:|---|---:|---:|---:|---:|---:|---:|---:|---|---|---|");
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
        let at =
            |results: &[(usize, f64)]| results.iter().find(|(size, _)| *size == n).map(|&(_, t)| t);
        let (anchor, wall_anchor) = (at(&cublas), at(&cublas_wall));
        // The A tiles' (the first `tiles.len()` kernels) model cycles and TFLOP/s.
        let mut a_tiles: Vec<(String, usize, f64)> = Vec::new();
        for (index, (kernel, operands, [a_stored, b_stored])) in kernels.iter().enumerate() {
            let runs = if kernel.name() == "naive GEMM" {
                runs.min(5)
            } else {
                runs
            };
            // Checked, then timed, on the operands' buffers.
            let values = [a.as_slice(), b.as_slice()];
            let (time, [single, batched]) = match operands {
                Operands::F32 => {
                    let buffers = [&a_buffers[*a_stored], &b_buffers[*b_stored]];
                    measure(&gpu, kernel, buffers, &c, values, n, runs)?
                }
                Operands::F16 => {
                    let buffers = [&a_halves[*a_stored], &b_halves[*b_stored]];
                    measure(&gpu, kernel, buffers, &c, values, n, runs)?
                }
                Operands::Bf16 => unreachable!("bf16 runs on workgroup-scope matrices only"),
            };
            let tflops = |time: Duration| kernel.flops() / time.as_secs_f64() / 1e12;
            let ratio = |tflops: f64, anchor: Option<f64>| {
                anchor.map_or("–".to_owned(), |t| format!("{:.2}×", tflops / t))
            };
            let ms = |time: Duration| time.as_secs_f64() * 1e3;
            let cost = kernel.share_cost();
            if let (true, Some(cost)) = (index < tiles.len(), cost) {
                let tile = configs[index].a_tile.name.to_string();
                a_tiles.push((tile, cost.cycles(), tflops(time)));
            }
            println!(
                "| {n} | {} | {:.3} | {:.2} | {} | {:.3} | {:.3} | {:.2} | {} | {:?} | {:?} | {} |",
                kernel.name(),
                ms(time),
                tflops(time),
                ratio(tflops(time), anchor),
                ms(single),
                ms(batched),
                tflops(batched),
                ratio(tflops(batched), wall_anchor),
                kernel.load_conflicts(),
                kernel.fragment_conflicts,
                cost.map_or("–".to_owned(), |cost| cost.to_string())
            );
        }
        let first = |key: &dyn Fn(&(String, usize, f64)) -> f64| {
            let best = a_tiles.iter().min_by(|x, y| key(x).total_cmp(&key(y)));
            best.map_or("–", |(tile, _, _)| tile.as_str()).to_owned()
        };
        let (model, measured) = (first(&|t| t.1 as f64), first(&|t| -t.2));
        let agree = if model == measured {
            "agree"
        } else {
            "DISAGREE"
        };
        a_tiles.sort_by_key(|t| t.1);
        let order: Vec<String> = a_tiles
            .iter()
            .map(|(tile, cycles, tflops)| format!("{tile} {cycles} ({tflops:.2})"))
            .collect();
        println!(
            "| {n} | A tiles: the model ranks `{model}` first, `{measured}` measured fastest \
             ({agree}); by model cycles (TFLOP/s): {} | | | | | | | | | | |",
            order.join(", ")
        );
        let show = |t: Option<f64>| t.map_or("–".to_owned(), |t| format!("{t:.2}"));
        println!(
            "| {n} | cuBLAS SGEMM (torch, TF32 off) | – | {} | 1.00× | – | – | {} | 1.00× | – | – | – |",
            show(anchor),
            show(wall_anchor)
        );
    }
    Ok(())
}
