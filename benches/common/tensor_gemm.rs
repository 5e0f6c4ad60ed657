//! What the tensor-core GEMM benches share, the library's (`benches/tensor_gemm.rs`) and the
//! lab's designs' (`lab/benches/tensor_designs.rs`): the device and the environment they
//! read, the operands, the check of C against the CPU, cuBLAS's figures, and the comparison
//! of a list of `Gemm` variants (checked at small and odd shapes, then timed by the GPU clock
//! and by the wall clock over a batch). Included with
//! `#[path = "common/tensor_gemm.rs"] mod tensor_gemm;` (from lab/,
//! `../../benches/common/..`) beside `tests/common/stored.rs` and `common/wall.rs`, which it
//! names as `crate::stored` and `crate::wall`.

use crate::stored;
use crate::wall::{self, BATCH};
use std::time::Duration;
use swizzle::gpu::{
    Accumulate, Buffer, Dispatch, Gemm, GemmKernel, GemmPath, Gpu, GpuError, Operands, bf16, f16,
};

pub fn env(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

pub fn shapes() -> Vec<[usize; 3]> {
    env("SWIZZLE_TC_SHAPES")
        .unwrap_or("1024,2048,4096,8192,8192x8192x1024".into())
        .split(',')
        .filter_map(|s| {
            let parts: Vec<usize> = s.split('x').filter_map(|p| p.trim().parse().ok()).collect();
            match parts[..] {
                [n] => Some([n, n, n]),
                [m, n, k] => Some([m, n, k]),
                _ => None,
            }
        })
        .collect()
}

/// A and B on the device, of the type a `Gemm`'s operands name.
pub enum Uploaded {
    F16([Buffer<f16>; 2]),
    Bf16([Buffer<bf16>; 2]),
}

impl Uploaded {
    /// Runs `kernel` once into `c`.
    pub fn run(&self, gpu: &Gpu, kernel: &GemmKernel, c: &Buffer<f32>) -> Result<(), GpuError> {
        match self {
            Uploaded::F16([a, b]) => kernel.run(gpu, (a, b, c)),
            Uploaded::Bf16([a, b]) => kernel.run(gpu, (a, b, c)),
        }
    }

    /// The wall clock per run of `kernel` into `c`: one run, and a batch ([`wall::wall`]).
    pub fn wall(
        &self,
        gpu: &Gpu,
        kernel: &GemmKernel,
        c: &Buffer<f32>,
    ) -> Result<[Duration; 2], GpuError> {
        match self {
            Uploaded::F16([a, b]) => wall::wall(gpu, kernel, [a, b], c),
            Uploaded::Bf16([a, b]) => wall::wall(gpu, kernel, [a, b], c),
        }
    }

    /// The median of `runs` timed runs of `kernel` into `c`.
    pub fn median(
        &self,
        gpu: &Gpu,
        kernel: &GemmKernel,
        c: &Buffer<f32>,
        runs: usize,
    ) -> Result<Duration, GpuError> {
        match self {
            Uploaded::F16([a, b]) => kernel.median(gpu, (a, b, c), runs),
            Uploaded::Bf16([a, b]) => kernel.median(gpu, (a, b, c), runs),
        }
    }
}

/// A (`m × k`) and B (`k × n`), row-major in f32, uploaded as `gemm`'s operands (f16 or
/// bf16) in the storage orders `gemm` reads them in.
pub fn operands_as_stored(
    gpu: &Gpu,
    gemm: &Gemm,
    (a, b): (&[f32], &[f32]),
    [m, n, k]: [usize; 3],
) -> Result<Uploaded, GpuError> {
    let (a, b) = (
        stored::as_stored(a, [m, k], gemm.a_order),
        stored::as_stored(b, [k, n], gemm.b_order),
    );
    fn upload<T: swizzle::gpu::GemmElement>(
        gpu: &Gpu,
        matrices: [&[f32]; 2],
        convert: fn(f32) -> T,
    ) -> Result<[Buffer<T>; 2], GpuError> {
        let [a, b] = matrices.map(|m| m.iter().map(|&x| convert(x)).collect::<Vec<T>>());
        Ok([gpu.upload(&a)?, gpu.upload(&b)?])
    }
    Ok(match gemm.operands {
        Operands::Bf16 => Uploaded::Bf16(upload(gpu, [&a, &b], bf16::from_f32)?),
        _ => Uploaded::F16(upload(gpu, [&a, &b], f16::from_f32)?),
    })
}

/// The name of cuBLAS's line for `gemm`'s operands in `benches/cublas_hgemm.py`'s output:
/// `hgemm` for f16, `bgemm` for bf16.
pub fn cublas_name(gemm: &Gemm) -> &'static str {
    match gemm.operands {
        Operands::Bf16 => "bgemm",
        _ => "hgemm",
    }
}

/// Small integers, so that every f32 sum of products is exact.
pub fn operand(len: usize, salt: usize) -> Vec<f32> {
    (0..len)
        .map(|i| (((i.wrapping_mul(2654435761) >> 7) + salt) % 9) as f32 - 4.0)
        .collect()
}

/// The largest error of C against the CPU over the whole of C or 4096 samples, and the
/// largest magnitude of an exact sum there.
pub fn errors(c: &[f32], a: &[f32], b: &[f32], [m, n, k]: [usize; 3]) -> (f32, f32) {
    let element = |i: usize, j: usize| (0..k).map(|p| a[i * k + p] * b[p * n + j]).sum::<f32>();
    let samples: Vec<usize> = match m * n <= 1 << 21 {
        true => (0..m * n).collect(),
        false => (0..4096).map(|s| (s * 2654435761) % (m * n)).collect(),
    };
    samples.into_iter().fold((0.0, 0.0), |(err, most), x| {
        let exact = element(x / n, x % n);
        (err.max((c[x] - exact).abs()), most.max(exact.abs()))
    })
}

/// Whether C's error is within what its sums' type allows: none for f32 sums (every sum of
/// these small integers is exact); for f16 sums, one rounding per multiply-add of 16 k, each
/// at most half an f16 ulp of a partial sum, taken as twice the largest exact sum (these
/// mixed-sign operands' partial sums stay near their totals).
pub fn acceptable(gemm: &Gemm, (err, most): (f32, f32), k: usize) -> bool {
    let sums = gemm.tensor_cores.map(|tc| tc.accumulate);
    match sums {
        Some(Accumulate::F16) => {
            let ulp = |x: f32| 2f32.powi((2.0 * x).max(1.0).log2().floor() as i32 - 10);
            err <= k.div_ceil(16) as f32 * ulp(most) / 2.0
        }
        _ => err == 0.0,
    }
}

/// cuBLAS's TFLOP/s at `shape` from `benches/cublas_hgemm.py`'s output (`results`): its line
/// `<name> <m> <n> <k> <median ms> <TFLOP/s>`, `name` `hgemm` (torch's defaults, CUDA
/// events), `hgemm_f32reduce` or `hgemm_wall` (torch's defaults, the wall clock per matmul
/// over a batch), likewise `bgemm…`.
pub fn cublas(results: &str, name: &str, shape: [usize; 3]) -> Option<f64> {
    results.lines().find_map(
        |line| match line.split_whitespace().collect::<Vec<_>>()[..] {
            [clock, m, n, k, _, tflops] if clock == name => {
                let at: [usize; 3] = [m.parse().ok()?, n.parse().ok()?, k.parse().ok()?];
                (at == shape).then(|| tflops.parse().ok()).flatten()
            }
            _ => None,
        },
    )
}

/// The device, described with its subgroups and cooperative matrices; `None`, said on
/// stderr, where there is none (nothing is measured then).
pub fn device() -> Option<Gpu> {
    let gpu = match Gpu::new() {
        Ok(gpu) => gpu,
        Err(error) => {
            eprintln!("no GPU, nothing measured: {error}");
            return None;
        }
    };
    println!("device: {}", gpu.describe());
    let info = gpu.info();
    println!(
        "subgroups {}..{}; cooperative matrices: {}; f16: {}",
        info.subgroup_min_size,
        info.subgroup_max_size,
        gpu.has_cooperative_matrix(),
        gpu.has_f16()
    );
    for p in gpu.cooperative_matrix_properties() {
        println!("  {p:?}");
    }
    Some(gpu)
}

/// Runs `variants` (those `SWIZZLE_TC_VARIANTS` names, where it is set): whether f16 sums
/// round as f16 does on this device, each checked against the CPU at small and odd shapes,
/// then timed (`SWIZZLE_BENCH_RUNS` runs, default 20, then by the wall clock over a batch)
/// at each of [`shapes`] against cuBLAS HGEMM (`SWIZZLE_HGEMM_RESULTS`, each clock against
/// its own) and the scalar f16 kernel; C is checked again after the batches.
pub fn compare(gpu: &Gpu, variants: Vec<(&str, Gemm)>) -> Result<(), GpuError> {
    let runs: usize = env("SWIZZLE_BENCH_RUNS")
        .and_then(|r| r.parse().ok())
        .unwrap_or(20);
    let hgemm_results = env("SWIZZLE_HGEMM_RESULTS")
        .and_then(|path| std::fs::read_to_string(path).ok())
        .unwrap_or_default();
    let anchor = |name: &str, shape: [usize; 3]| cublas(&hgemm_results, name, shape);
    // `SWIZZLE_TC_VARIANTS`: the labels (up to their ':') to run, e.g. `5,6,scalar f16`
    // (each in its own process: a kernel the driver rejects loses the device).
    let variants: Vec<(&str, Gemm)> = match env("SWIZZLE_TC_VARIANTS") {
        None => variants,
        Some(list) => {
            let wanted: Vec<String> = list.split(',').map(|s| s.trim().to_owned()).collect();
            variants
                .into_iter()
                .filter(|(label, _)| {
                    let key = label.split(':').next().unwrap_or(label);
                    let key = key.split(" (library").next().unwrap_or(key);
                    wanted.iter().any(|w| w == key)
                })
                .collect()
        }
    };
    // Whether a kernel summing in f16 rounds as f16 does on this device: A of ones and B
    // whose columns sum to 2048 over the first 32 of k and to 2049 over the first 33 read
    // 2048 with f16 sums (2049 lies between 2048 and 2050, which is even), 2049 in f32.
    for (label, config) in &variants {
        if config.tensor_cores.map(|tc| tc.accumulate) != Some(Accumulate::F16) {
            continue;
        }
        let shape @ [m, n, k] = [256, 256, 64];
        let b: Vec<f32> = (0..k * n)
            .map(|i| match i / n {
                p if p < 32 => 64.0,
                32 => 1.0,
                _ => 0.0,
            })
            .collect();
        let operands = operands_as_stored(gpu, config, (&vec![1.0; m * k], &b), shape)?;
        let c = gpu.filled(m * n, f32::NAN)?;
        let kernel = gpu.gemm_kernel(shape, config)?;
        operands.run(gpu, &kernel, &c)?;
        let sums = gpu.download(&c)?;
        let rounded = sums.iter().filter(|&&x| x == 2048.0).count();
        let exact = sums.iter().filter(|&&x| x == 2049.0).count();
        println!(
            "f16 sums of {label}: path {:?}; of C's {} elements, {rounded} read 2048 (f16 \
             sums), {exact} read 2049 (f32 sums), the rest neither",
            kernel.path(),
            m * n
        );
    }
    // Small and odd shapes first: the kernels must be right before anything is timed.
    for shape in [[16, 16, 16], [77, 50, 38], [130, 36, 70], [256, 256, 256]] {
        let [m, n, k] = shape;
        let (a, b) = (operand(m * k, 1), operand(k * n, 5));
        let c = gpu.filled(m * n, f32::NAN)?;
        for (label, config) in &variants {
            let operands = operands_as_stored(gpu, config, (&a, &b), shape)?;
            let kernel = match gpu.gemm_kernel(shape, config) {
                Ok(kernel) => kernel,
                Err(e) => {
                    println!("check {m}x{n}x{k} {label}: FAILED TO BUILD: {e}");
                    continue;
                }
            };
            operands.run(gpu, &kernel, &c)?;
            let err = errors(&gpu.download(&c)?, &a, &b, shape);
            println!(
                "check {m}x{n}x{k} {label}: path {:?}, max error {}",
                kernel.path(),
                err.0
            );
            if !acceptable(config, err, k) {
                println!("WRONG RESULT\n{}", kernel.wgsl());
                std::process::exit(1);
            }
        }
    }
    println!(
        "\n| shape (m × n × k) | kernel | median (ms) | TFLOP/s | × cuBLAS (HGEMM, or BF16 for bf16) | × cuBLAS (f32 reductions) | wall, batch of {BATCH} (ms per run) | TFLOP/s (batch) | × cuBLAS (wall) | × scalar f16 | max error | conflicts: loads (A, B) | fragment loads (A, B) |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|");
    for shape in shapes() {
        let [m, n, k] = shape;
        let (a, b) = (operand(m * k, 1), operand(k * n, 5));
        let c = gpu.filled(m * n, 0.0f32)?;
        let mut rows: Vec<(String, GemmKernel, [Duration; 2], f32, &str)> = Vec::new();
        for (label, config) in &variants {
            let Ok(kernel) = gpu.gemm_kernel(shape, config) else {
                continue;
            };
            let operands = operands_as_stored(gpu, config, (&a, &b), shape)?;
            operands.run(gpu, &kernel, &c)?;
            let errs = errors(&gpu.download(&c)?, &a, &b, shape);
            if !acceptable(config, errs, k) {
                println!("WRONG RESULT: {label} at {shape:?}: max error {}", errs.0);
                std::process::exit(1);
            }
            let err = errs.0;
            let time = operands.median(gpu, &kernel, &c, runs)?;
            let [_, batched] = operands.wall(gpu, &kernel, &c)?;
            if !acceptable(config, errors(&gpu.download(&c)?, &a, &b, shape), k) {
                println!("WRONG RESULT after the batches: {label} at {shape:?}");
                std::process::exit(1);
            }
            let anchor = cublas_name(config);
            rows.push((label.to_string(), kernel, [time, batched], err, anchor));
        }
        let scalar = rows.iter().find(|r| r.0 == "scalar f16").map(|r| r.2[0]);
        let tflops =
            |kernel: &GemmKernel, time: Duration| kernel.flops() / time.as_secs_f64() / 1e12;
        let ratio = |t: f64, anchor: Option<f64>| {
            anchor.map_or("–".to_owned(), |a| format!("{:.2}×", t / a))
        };
        for (label, kernel, [time, batched], err, cublas) in &rows {
            let (t, batch) = (tflops(kernel, *time), tflops(kernel, *batched));
            let path = match kernel.path() {
                GemmPath::WorkgroupMatrices | GemmPath::TensorCores => String::new(),
                GemmPath::Scalar { why } => format!(" (scalar: {why})"),
            };
            println!(
                "| {m} × {n} × {k} | {label}{path} | {:.3} | {:.1} | {} | {} | {:.3} | {batch:.1} | {} | {} | {err} | {:?} | {:?} |",
                time.as_secs_f64() * 1e3,
                t,
                ratio(t, anchor(cublas, shape)),
                ratio(t, anchor(&format!("{cublas}_f32reduce"), shape)),
                batched.as_secs_f64() * 1e3,
                ratio(batch, anchor(&format!("{cublas}_wall"), shape)),
                scalar.map_or("–".into(), |s| format!(
                    "{:.2}×",
                    s.as_secs_f64() / time.as_secs_f64()
                )),
                kernel.load_conflicts(),
                kernel.fragment_conflicts,
            );
        }
        let show = |t: Option<f64>| t.map_or("–".to_owned(), |t| format!("{t:.1}"));
        let anchors = [
            ("hgemm", "cuBLAS HGEMM (torch f16, defaults)"),
            ("bgemm", "cuBLAS BF16 GEMM (torch bf16, defaults)"),
        ];
        for (name, what) in anchors {
            if name == "bgemm" && !rows.iter().any(|row| row.4 == "bgemm") {
                continue;
            }
            println!(
                "| {m} × {n} × {k} | {what} | – | {} | 1.00× | – | – | {} | 1.00× | – | – | – | – |",
                show(anchor(name, shape)),
                show(anchor(&format!("{name}_wall"), shape)),
            );
        }
        println!(
            "| {m} × {n} × {k} | cuBLAS HGEMM (f32 reductions) | – | {} | – | 1.00× | – | – | – | – | – | – | – |",
            show(anchor("hgemm_f32reduce", shape))
        );
    }
    Ok(())
}
