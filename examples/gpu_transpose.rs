//! A 4096×4096 f32 transpose on the GPU, built from two tiled copies: a workgroup loads a
//! 64×64 tile of the input in `vec4`s, waits, and stores the tile's transpose in `vec4`s.
//! Only the workgroup tile's layout changes between the runs — row-major, padded, or
//! XOR-swizzled — and the analysis says before each runs how many ways its accesses
//! conflict. The naive transpose (one thread per element, strided writes) is the baseline.
//! Each result is checked against the CPU; times are GPU timestamps (median of 20 runs after
//! `swizzle::gpu::WARM_UP` of warm-up).
//!
//! Run: `cargo run --release --example gpu_transpose`

use swizzle::gpu::{Dispatch, Gpu, GpuError, Transpose};
use swizzle::ir::Descriptor;

swizzle::layout! {
    /// Row-major: a subgroup reading down a column hits few banks.
    pub layout RowTile { memory [y: 64, x: 64]; coords [y, x]; }
    /// One padding word per row shifts each row by a bank.
    pub layout PaddedTile { memory [y: 64, x: 64] strides [65, 1]; coords [y, x]; }
    /// Column `x` of row `y` stored at `x ^ y`: rows and columns both span the banks.
    pub layout XorTile { memory [y: 64, x: 64]; xor x by y; coords [y, x]; }

    /// 256 threads, each four rows of one `vec4`: a subgroup covers 4 rows × 8 vectors.
    threads Movers {
        tile [r: 64, c: 64];
        unmerge c -> [tch: 2, tcl: 8, v: 4];
        unmerge r -> [k: 4, trh: 4, trl: 4];
        merge [trh, tch, trl, tcl] -> thread;
        threads [thread];
        values [k, v];
    }
}

const SIDE: usize = 4096;

/// The tiles, kept `'static` by a `const`.
const TILES: [&Descriptor; 3] = [
    &RowTile::DESCRIPTOR,
    &PaddedTile::DESCRIPTOR,
    &XorTile::DESCRIPTOR,
];

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
    let mut kernels = vec![(gpu.naive_transpose_kernel(SIDE, SIDE)?, None)];
    for tile in TILES {
        let transpose =
            gpu.transpose_kernel(SIDE, SIDE, &Transpose::new(tile, Movers::THREAD_VALUES))?;
        let conflicts = transpose.worst_conflict();
        kernels.push((transpose.kernel, Some(conflicts)));
    }
    for (kernel, conflicts) in &kernels {
        kernel.run(&gpu, (&input, &output))?;
        let correct = gpu.download(&output)? == expected;
        let timing = match gpu.has_timestamps() {
            true => {
                let median = kernel.median(&gpu, (&input, &output), 20)?;
                let gbs = kernel.bytes() as f64 / median.as_secs_f64() / 1e9;
                format!("{:8.3} ms {gbs:7.1} GB/s", median.as_secs_f64() * 1e3)
            }
            false => "(no timestamp queries on this adapter)".to_owned(),
        };
        let conflicts = conflicts.map_or(String::new(), |c| format!("  {c}-way conflicts"));
        let verdict = if correct { "correct" } else { "WRONG" };
        println!("{:80} {timing}  {verdict}{conflicts}", kernel.name());
        assert!(correct, "{} differs from the CPU transpose", kernel.name());
    }
    Ok(())
}
