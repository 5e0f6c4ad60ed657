//! The wgpu backend against the CPU: every kernel on random layouts and sizes (non-powers
//! of two, partial tiles) must write exactly what the reference interpreter (or the
//! generated `offset`) says, into output buffers poisoned so that unwritten or stray
//! elements show. Runs on any Vulkan adapter (lavapipe in CI).
//!
//! Its own harness (libtest-mimic, as `cargo test` prints it) looks for the device once:
//! without one every test is reported *ignored*, with the reason on the first line, never
//! passed — unless `SWIZZLE_REQUIRE_GPU=1` (set by .ci/run), where the run fails. On wgpu's
//! GL backend (only when `WGPU_BACKEND` asks for it) the tests run on one thread, as that
//! backend must be used (`swizzle::gpu::Gpu::is_gl`).

#[path = "../syntax/tests/common/generator.rs"]
mod generator;
#[path = "common/stored.rs"]
mod stored;
use stored::as_stored;

use generator::Generator;
use libtest_mimic::{Arguments, Trial};
use proptest::prelude::*;
use std::process::ExitCode;
use std::sync::OnceLock;
use swizzle::Layout;
use swizzle::gpu::{
    Batch, BoundsChecks, Buffer, Dispatch, Gemm, GemmElement, GemmKernel, Gpu, GpuError, GpuLayout,
    Kernel, Operands, Stored, Transpose, Unsupported, Word, bf16, f16,
};
use swizzle::ir::{Descriptor, coordinates};
use swizzle::raster::Raster;
use swizzle::threads::ThreadValues;

/// What no kernel writes.
const POISON: u32 = 0xDEAD_BEEF;

#[path = "common/fixtures.rs"]
mod fixtures;
#[path = "common/transposes.rs"]
mod transposes;

use fixtures::{LdsA, MortonTexture};
use transposes::{PaddedTile, Squares64, TILES, Threads64, Threads256};

swizzle::layout! {
    /// CuTe's Swizzle<3,3,3> over the same 128×32 shape as `LdsA`.
    pub layout Cute {
        memory [row: 128, col: 32];
        merge [row, col] -> i;
        swizzle i -> s (3, 3, 3);
        unmerge s -> [m: 128, k: 32];
        coords [m, k];
        inverse;
    }

    /// A column-major 3 × 15 image: 45 elements, the shape of `Padded`.
    pub layout Odd {
        memory [c: 15, r: 3];
        coords [r, c];
    }

    /// A padded row, non-power-of-two.
    pub layout Padded {
        memory [r: 3, c: 10];
        pad c -> x (2, 3);
        coords [r, x];
    }

    /// Run-time extents: 8×8 Morton tiles, and tiles of padded rows.
    pub layout DynMorton {
        memory [ty: dyn, tx: dyn, m: 64];
        morton m -> [yi: 8, xi: 8];
        merge [ty, yi] -> y;
        merge [tx, xi] -> x;
        coords [y, x];
    }
    pub layout DynXor {
        memory [ty: dyn, tx: dyn, yi: 8, xi: 8];
        xor xi by yi;
        merge [ty, yi] -> y;
        merge [tx, xi] -> x;
        coords [y, x];
    }
    /// 32 × 32 XOR tiles: one `vec4` a thread would give short region rows.
    pub layout DynXor32 {
        memory [ty: dyn, tx: dyn, yi: 32, xi: 32];
        xor xi by yi;
        merge [ty, yi] -> y;
        merge [tx, xi] -> x;
        coords [y, x];
    }
    /// Plain row-major tiles: every image `vec4` lands whole, lanes in order.
    pub layout DynRowTiles {
        memory [ty: dyn, tx: dyn, yi: 4, xi: 16];
        merge [ty, yi] -> y;
        merge [tx, xi] -> x;
        coords [y, x];
    }
    /// Columns XOR-swizzled by the low bits of the row only (two of five).
    pub layout DynXorNarrow {
        memory [ty: dyn, tx: dyn, yi: 4, xi: 32];
        xor xi by yi;
        merge [ty, yi] -> y;
        merge [tx, xi] -> x;
        coords [y, x];
    }
    /// Blocks of four elements XOR-swizzled by the row, elements in order inside.
    pub layout DynXorBlocks {
        memory [ty: dyn, tx: dyn, yi: 8, xb: 8, xl: 4];
        xor xb by yi;
        merge [xb, xl] -> xi;
        merge [ty, yi] -> y;
        merge [tx, xi] -> x;
        coords [y, x];
    }
    /// `DynMorton` cut into blocks of 4 × 2 counted at run time (a divide over a `dyn` base).
    pub layout DynMortonBlocks {
        over DynMorton;
        unmerge y -> [by: dyn, iy: 4];
        unmerge x -> [bx: dyn, ix: 2];
        coords [by, bx, iy, ix];
    }
    /// Three coordinates, run-time dims on the first and the last.
    pub layout Dyn3 {
        memory [tz: dyn, tx: dyn, zi: 2, c: 3, xi: 4];
        xor xi by zi;
        merge [tz, zi] -> z;
        merge [tx, xi] -> x;
        coords [z, c, x];
    }
    /// Run-time dims in the opposite order to the coordinates.
    pub layout DynSwap {
        memory [tx: dyn, ty: dyn, yi: 4, xi: 4];
        xor xi by yi;
        merge [ty, yi] -> y;
        merge [tx, xi] -> x;
        coords [y, x];
    }
    /// A run-time dim that is a coordinate itself: tiles of length 1 along it.
    pub layout DynRow {
        memory [n: dyn, m: 6];
        coords [n, m];
    }
    /// 3×3 tiles: 9 elements, never whole words of narrow elements.
    pub layout Dyn3x3 {
        memory [ty: dyn, tx: dyn, yi: 3, xi: 3];
        merge [ty, yi] -> y;
        merge [tx, xi] -> x;
        coords [y, x];
    }
    pub layout DynPadded {
        memory [ty: dyn, r: 4, c: 4];
        pad c -> x (1, 1);
        merge [ty, r] -> y;
        coords [y, x];
    }
}

swizzle::layout! {
    /// GEMM tiles of 32 × 8 (A, over [m, k]) and 8 × 32 (B, over [k, n]): row-major,
    /// k-major (the fragment reads A in vectors along m), k-major XOR-swizzled, padded.
    pub layout ARows { memory [m: 32, k: 8]; coords [m, k]; }
    pub layout AColumns { memory [k: 8, m: 32]; coords [m, k]; }
    pub layout AXor {
        memory [k: 8, mo: 8, mi: 4];
        xor mo by k;
        merge [mo, mi] -> m;
        coords [m, k];
    }
    pub layout APadded { memory [k: 8, m: 32] strides [36, 1]; coords [m, k]; }
    pub layout BRows { memory [k: 8, n: 32]; coords [k, n]; }
    /// 64 threads load A's tile in vectors along k, and B's along n.
    threads ALoads {
        tile [m: 32, k: 8];
        unmerge k -> [kv: 2, v: 4];
        merge [m, kv] -> thread;
        threads [thread];
        values [v];
    }
    threads BLoads {
        tile [k: 8, n: 32];
        unmerge n -> [nv: 8, v: 4];
        merge [k, nv] -> thread;
        threads [thread];
        values [v];
    }
    /// Each of 8 × 8 threads accumulates 4 × 4 elements of C's 32 × 32 tile.
    threads Fragments {
        tile [m: 32, n: 32];
        unmerge m -> [tr: 8, vm: 4];
        unmerge n -> [tc: 8, vn: 4];
        threads [tr, tc];
        values [vm, vn];
    }
}

#[path = "../examples/volume_compositing/render.rs"]
mod volume;

/// The paper's volume compositing (Nocentino and Rhodes): every slice layout, workgroup side
/// and thread order renders what the CPU renders.
fn volume_compositing_matches_the_cpu() {
    let gpu = gpu();
    let volume = volume::Volume::ct_like(64, 9);
    let rows = volume::experiment(gpu, &volume, None).unwrap_or_else(|why| panic!("{why}"));
    // Row-major in pixel order at four sides, each Morton layout at four sides, and in
    // memory order wherever the workgroup's block is one run of memory.
    assert_eq!(rows.len(), 4 + 4 * 4 + (1 + 2 + 3 + 4));
    for row in &rows {
        // The analysis counts every voxel of the pass once, under both models.
        for predicted in &row.predicted {
            assert_eq!(
                predicted.requested_bytes, row.bytes,
                "{} {}",
                row.layout, row.block
            );
        }
        // Checked, not timed.
        assert_eq!(row.seconds, None, "{:?}", row.threads);
    }
    assert_eq!(volume::table(&rows).lines().count(), rows.len() + 2);
}

/// `m × k` times `k × n`, row-major, on the CPU: small integers, so every f32 sum is exact
/// and the GPU's result must equal it.
fn cpu_gemm(a: &[f32], b: &[f32], [m, n, k]: [usize; 3]) -> Vec<f32> {
    let mut c = vec![0.0; m * n];
    for i in 0..m {
        for p in 0..k {
            for j in 0..n {
                c[i * n + j] += a[i * k + p] * b[p * n + j];
            }
        }
    }
    c
}

/// `matrix` rounded to f16.
fn to_f16(matrix: &[f32]) -> Vec<f16> {
    matrix.iter().map(|&x| f16::from_f32(x)).collect()
}

/// `matrix` rounded to bf16.
fn to_bf16(matrix: &[f32]) -> Vec<bf16> {
    matrix.iter().map(|&x| bf16::from_f32(x)).collect()
}

/// That `kernel`, built for operands `expected`, refuses A and B (`matrices`) of the other
/// 16-bit type `actual` with the typed error.
fn refuses_operands<T: GemmElement>(
    gpu: &Gpu,
    kernel: &GemmKernel,
    matrices: [Vec<T>; 2],
    c: &Buffer<f32>,
    [expected, actual]: [Operands; 2],
) {
    let [a, b] = matrices.map(|m| gpu.upload(&m).expect("A and B"));
    assert_eq!(
        kernel.run(gpu, (&a, &b, c)).map(drop),
        Err(GpuError::Operands { expected, actual })
    );
}

/// Runs `kernel` on small integers (every f32 sum exact) and checks C against the CPU.
fn check_gemm(gpu: &Gpu, kernel: &GemmKernel, shape: [usize; 3]) {
    check_gemm_stored(gpu, kernel, shape, [Stored::RowMajor; 2]);
}

/// [`check_gemm`] with A and B uploaded as `stored` says.
fn check_gemm_stored(gpu: &Gpu, kernel: &GemmKernel, [m, n, k]: [usize; 3], stored: [Stored; 2]) {
    let small = |i: usize, salt: usize| ((i * 7 + salt) % 9) as f32 - 4.0;
    let a: Vec<f32> = (0..m * k).map(|i| small(i, 1)).collect();
    let b: Vec<f32> = (0..k * n).map(|i| small(i, 5)).collect();
    let (a_buffer, b_buffer) = (
        gpu.upload(&as_stored(&a, [m, k], stored[0])).expect("A"),
        gpu.upload(&as_stored(&b, [k, n], stored[1])).expect("B"),
    );
    // Poisoned: every element of C must be written.
    let c = gpu.filled(m * n, f32::NAN).expect("C");
    kernel.run(gpu, (&a_buffer, &b_buffer, &c)).expect("run");
    assert_eq!(
        gpu.download(&c).expect("download"),
        cpu_gemm(&a, &b, [m, n, k]),
        "{} at {m} × {n} × {k}\n{}",
        kernel.name(),
        kernel.wgsl()
    );
}

const GEMM_SIZES: [[usize; 3]; 6] = [
    [67, 129, 33],
    [1, 1, 1],
    [128, 128, 1],
    [64, 64, 64],
    [33, 31, 17],
    [96, 40, 100],
];

fn gemm_matches_the_cpu_for_every_tile_layout() {
    let gpu = gpu();
    let a_tiles = [
        &ARows::DESCRIPTOR,
        &AColumns::DESCRIPTOR,
        &AXor::DESCRIPTOR,
        &APadded::DESCRIPTOR,
    ];
    for shape in GEMM_SIZES {
        check_gemm(gpu, &gpu.naive_gemm_kernel(shape).expect("naive"), shape);
        for a_tile in a_tiles {
            let gemm = Gemm {
                a_tile,
                b_tile: &BRows::DESCRIPTOR,
                operands: Operands::F32,
                a_order: Stored::RowMajor,
                b_order: Stored::RowMajor,
                a_loads: ALoads::THREAD_VALUES,
                b_loads: BLoads::THREAD_VALUES,
                fragments: Fragments::THREAD_VALUES,
                order: Raster::RowMajor,
                bounds_checks: BoundsChecks::On,
                tensor_cores: None,
            };
            check_gemm(gpu, &gpu.gemm_kernel(shape, &gemm).expect("GEMM"), shape);
        }
    }
}

fn the_library_gemm_matches_the_cpu() {
    let gpu = gpu();
    for shape in GEMM_SIZES
        .into_iter()
        .chain([[200, 136, 48], [129, 257, 20]])
    {
        for order in [Raster::RowMajor, Raster::Grouped(2)] {
            let gemm = Gemm {
                order,
                ..swizzle::gemm::config()
            };
            check_gemm(gpu, &gpu.gemm_kernel(shape, &gemm).expect("GEMM"), shape);
        }
    }
}

fn transposed_operands_are_loaded_through_the_tiles_transposes() {
    let gpu = gpu();
    for shape in [[67, 129, 33], [1, 1, 1], [130, 20, 36]] {
        for stored in [
            [Stored::Transposed, Stored::RowMajor],
            [Stored::RowMajor, Stored::Transposed],
            [Stored::Transposed, Stored::Transposed],
        ] {
            let gemm = swizzle::gemm::config_for(stored[0], stored[1]);
            let kernel = gpu.gemm_kernel(shape, &gemm).expect("GEMM");
            check_gemm_stored(gpu, &kernel, shape, stored);
        }
    }
}

/// f16 operands with the library's tensor-core layouts: where the device has
/// workgroup-scope matrices (`VK_NV_cooperative_matrix2`) the kernel runs on them, else on
/// an adapter with cooperative matrices on those; either matches the CPU at odd sizes and
/// partial tiles (small integers: every f32 sum exact); elsewhere (lavapipe) the scalar
/// kernel runs, matches too, and says why. Transposed operands take the workgroup-scope
/// kernel where the device has it, else the scalar one.
fn tensor_core_gemm_matches_the_cpu_or_says_why_not() {
    use swizzle::gpu::GemmPath;
    let gpu = gpu();
    if !gpu.has_f16() {
        eprintln!(
            "SKIPPED tensor_core_gemm_matches_the_cpu_or_says_why_not: {} has no SHADER_F16",
            gpu.describe()
        );
        return;
    }
    for [m, n, k] in [[77, 50, 38], [1, 1, 1], [257, 130, 70], [256, 128, 64]] {
        let small = |i: usize, salt: usize| ((i * 7 + salt) % 9) as f32 - 4.0;
        let a: Vec<f32> = (0..m * k).map(|i| small(i, 1)).collect();
        let b: Vec<f32> = (0..k * n).map(|i| small(i, 5)).collect();
        let (a_buffer, b_buffer) = (
            gpu.upload(&to_f16(&a)).expect("A"),
            gpu.upload(&to_f16(&b)).expect("B"),
        );
        // The library's GEMM, and the one summing in f16 (exact too: these sums stay far
        // below 2048).
        for tensor_cores in [
            swizzle::gemm::tensor_cores(),
            swizzle::gemm::tensor_cores_f16_sums(),
        ] {
            let gemm = Gemm {
                operands: Operands::F16,
                tensor_cores: Some(tensor_cores),
                ..swizzle::gemm::config()
            };
            let kernel = gpu.gemm_kernel([m, n, k], &gemm).expect("f16 GEMM");
            let f16_sums = tensor_cores.accumulate == swizzle::gpu::Accumulate::F16;
            match kernel.path() {
                GemmPath::WorkgroupMatrices => assert!(gpu.workgroup_matrices().is_ok()),
                GemmPath::TensorCores => assert!(
                    !f16_sums && gpu.has_cooperative_matrix() && gpu.workgroup_matrices().is_err()
                ),
                GemmPath::Scalar { why } if gpu.has_cooperative_matrix() => {
                    eprintln!("{}: scalar kernel: {why}", gpu.describe())
                }
                GemmPath::Scalar { why } => assert!(why.contains("cooperative"), "{why}"),
            }
            let c = gpu.filled(m * n, f32::NAN).expect("C");
            kernel.run(gpu, (&a_buffer, &b_buffer, &c)).expect("run");
            assert_eq!(
                gpu.download(&c).expect("download"),
                cpu_gemm(&a, &b, [m, n, k]),
                "{} ({:?}) at {m} × {n} × {k}\n{}",
                kernel.name(),
                kernel.path(),
                kernel.wgsl()
            );
        }
    }
    let transposed = swizzle::gemm::config_for(Stored::Transposed, Stored::RowMajor);
    let kernel = gpu
        .gemm_kernel(
            [64, 64, 64],
            &Gemm {
                operands: Operands::F16,
                ..transposed
            },
        )
        .expect("f16 GEMM");
    match gpu.workgroup_matrices() {
        Ok(()) => assert_eq!(kernel.path(), &GemmPath::WorkgroupMatrices),
        Err(_) => assert!(
            matches!(kernel.path(), GemmPath::Scalar { .. }),
            "{:?}",
            kernel.path()
        ),
    }
    // Workgroup-scope layouts no device could run are an error everywhere, never a quiet
    // fallback to another kernel.
    let library = swizzle::gemm::tensor_cores();
    for (tile, unroll) in [([0, 256, 32], 8), ([128, 256, 32], 65)] {
        let malformed = swizzle::gpu::WorkgroupMatrices {
            tile,
            unroll,
            ..swizzle::gemm::workgroup_matrices()
        };
        let gemm = Gemm {
            operands: Operands::F16,
            tensor_cores: Some(swizzle::gpu::TensorCores {
                workgroup: Some(malformed),
                ..library
            }),
            ..swizzle::gemm::config()
        };
        match gpu.gemm_kernel([64, 64, 64], &gemm) {
            Err(GpuError::Unsupported { layout, why }) => {
                assert!(layout.starts_with("WorkgroupMatrices"), "{layout}");
                assert!(matches!(why, Unsupported::Range { .. }), "{why}");
            }
            other => panic!(
                "{tile:?}, {unroll} steps: {:?}",
                other.map(|k| k.path().clone())
            ),
        }
    }
}

/// f16 operands (exact for small integers) accumulated in f32, in every storage order;
/// f32 or bf16 buffers given to an f16 kernel are a typed error.
fn f16_operands_match_the_cpu() {
    let gpu = gpu();
    if !gpu.has_f16() {
        eprintln!(
            "SKIPPED f16_operands_match_the_cpu: {} has no SHADER_F16",
            gpu.describe()
        );
        return;
    }
    for [m, n, k] in [[67, 129, 33], [1, 1, 1], [130, 20, 36]] {
        let small = |i: usize, salt: usize| ((i * 7 + salt) % 9) as f32 - 4.0;
        let a: Vec<f32> = (0..m * k).map(|i| small(i, 1)).collect();
        let b: Vec<f32> = (0..k * n).map(|i| small(i, 5)).collect();
        for stored in [
            [Stored::RowMajor; 2],
            [Stored::Transposed; 2],
            [Stored::Transposed, Stored::RowMajor],
            [Stored::RowMajor, Stored::Transposed],
        ] {
            let gemm = Gemm {
                operands: Operands::F16,
                ..swizzle::gemm::config_for(stored[0], stored[1])
            };
            let kernel = gpu.gemm_kernel([m, n, k], &gemm).expect("f16 GEMM");
            match kernel.path() {
                swizzle::gpu::GemmPath::WorkgroupMatrices => assert!(kernel.spirv().is_some()),
                _ => assert!(
                    kernel.wgsl().starts_with("enable f16;"),
                    "{}",
                    kernel.wgsl()
                ),
            }
            let a_buffer = gpu
                .upload(&to_f16(&as_stored(&a, [m, k], stored[0])))
                .expect("A");
            let b_buffer = gpu
                .upload(&to_f16(&as_stored(&b, [k, n], stored[1])))
                .expect("B");
            let c = gpu.filled(m * n, f32::NAN).expect("C");
            kernel.run(gpu, (&a_buffer, &b_buffer, &c)).expect("run");
            assert_eq!(gpu.download(&c).expect("C"), cpu_gemm(&a, &b, [m, n, k]));
            let wrong = gpu.upload(&a).expect("f32 A");
            let wrong_b = gpu.upload(&b).expect("f32 B");
            assert!(matches!(
                kernel.run(gpu, (&wrong, &wrong_b, &c)),
                Err(GpuError::Element {
                    expected: 16,
                    actual: 32
                })
            ));
            let bf16s = [to_bf16(&a), to_bf16(&b)];
            refuses_operands(gpu, &kernel, bf16s, &c, [Operands::F16, Operands::Bf16]);
        }
    }
}

/// bf16 operands on workgroup-scope matrices where the driver lists them: small integers,
/// and magnitudes past f16's range (2¹⁰⁰ times 2⁻¹⁰⁰), in every storage order, against the
/// CPU; f16 buffers given to the bf16 kernel are a typed error. Elsewhere building the
/// kernel is a typed error that says why (WGSL has no bf16), never a kernel of another type.
fn bf16_operands_match_the_cpu_or_say_why_not() {
    let gpu = gpu();
    let listed = gpu
        .workgroup_matrix_granularities()
        .iter()
        .any(|g| g.operands == Operands::Bf16);
    let gemm = |stored: [Stored; 2]| Gemm {
        operands: Operands::Bf16,
        ..swizzle::gemm::config_for(stored[0], stored[1])
    };
    if !listed {
        match gpu.gemm_kernel([64, 64, 64], &gemm([Stored::RowMajor; 2])) {
            Err(GpuError::Unsupported { why, .. }) => {
                assert!(why.to_string().contains("workgroup-scope"), "{why}")
            }
            other => panic!(
                "bf16 without bf16 matrices: {:?}",
                other.map(|k| k.path().clone())
            ),
        }
        eprintln!(
            "SKIPPED bf16_operands_match_the_cpu_or_say_why_not (the run; the refusal was \
             checked): {} lists no bf16 workgroup-scope matrices",
            gpu.describe()
        );
        return;
    }
    for [m, n, k] in [[67, 129, 33], [1, 1, 1], [300, 260, 70]] {
        let small = |i: usize, salt: usize| ((i * 7 + salt) % 9) as f32 - 4.0;
        let a: Vec<f32> = (0..m * k).map(|i| small(i, 1)).collect();
        let b: Vec<f32> = (0..k * n).map(|i| small(i, 5)).collect();
        let huge: Vec<f32> = a.iter().map(|x| x * 2f32.powi(100)).collect();
        let tiny: Vec<f32> = b.iter().map(|x| x * 2f32.powi(-100)).collect();
        for stored in [
            [Stored::RowMajor; 2],
            [Stored::Transposed; 2],
            [Stored::Transposed, Stored::RowMajor],
            [Stored::RowMajor, Stored::Transposed],
        ] {
            let kernel = gpu
                .gemm_kernel([m, n, k], &gemm(stored))
                .expect("bf16 GEMM");
            assert_eq!(kernel.path(), &swizzle::gpu::GemmPath::WorkgroupMatrices);
            let c = gpu.filled(m * n, f32::NAN).expect("C");
            for (a, b) in [(&a, &b), (&huge, &tiny)] {
                let a_buffer = gpu
                    .upload(&to_bf16(&as_stored(a, [m, k], stored[0])))
                    .expect("A");
                let b_buffer = gpu
                    .upload(&to_bf16(&as_stored(b, [k, n], stored[1])))
                    .expect("B");
                kernel.run(gpu, (&a_buffer, &b_buffer, &c)).expect("run");
                assert_eq!(
                    gpu.download(&c).expect("C"),
                    cpu_gemm(a, b, [m, n, k]),
                    "{} at {m} × {n} × {k}",
                    kernel.name()
                );
            }
            let f16s = [to_f16(&a), to_f16(&b)];
            refuses_operands(gpu, &kernel, f16s, &c, [Operands::Bf16, Operands::F16]);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8))]

    /// Random sizes, partial tiles on every side, against the CPU.
        fn random_gemms_match_the_cpu(m in 1usize..300, n in 1usize..300, k in 1usize..80) {
        let gpu = gpu();
        let kernel = gpu.gemm_kernel([m, n, k], &swizzle::gemm::config()).expect("GEMM");
        check_gemm(gpu, &kernel, [m, n, k]);
    }
}

/// The shared device, or why there is none.
fn device() -> &'static Result<Gpu, GpuError> {
    static GPU: OnceLock<Result<Gpu, GpuError>> = OnceLock::new();
    GPU.get_or_init(Gpu::new)
}

/// The shared device of a test that runs: the harness ignores every test where there is
/// none.
fn gpu() -> &'static Gpu {
    device()
        .as_ref()
        .expect("the harness runs GPU tests only on a device")
}

/// `[(name, test)]` of the functions named.
macro_rules! tests {
    ($($test:ident),* $(,)?) => {
        [$((stringify!($test), $test as fn())),*]
    };
}

/// Every test, by name.
const TESTS: &[(&str, fn())] = &tests![
    volume_compositing_matches_the_cpu,
    gemm_matches_the_cpu_for_every_tile_layout,
    the_library_gemm_matches_the_cpu,
    transposed_operands_are_loaded_through_the_tiles_transposes,
    f16_operands_match_the_cpu,
    bf16_operands_match_the_cpu_or_say_why_not,
    tensor_core_gemm_matches_the_cpu_or_says_why_not,
    random_gemms_match_the_cpu,
    reference_layouts_pack_and_unpack,
    large_morton_tiles_pack_and_unpack_against_generated_offsets,
    run_time_extents_pack_and_unpack_with_partial_tiles,
    padded_layouts_past_the_enumeration_budget_are_injective,
    absurd_extents_are_too_large,
    elements_of_every_width_pack_and_unpack,
    staged_narrow_packs_match_the_interpreter,
    permuted_packs_match_the_interpreter,
    tiled_layouts_of_every_shape_copy_both_ways,
    layout_to_layout_copy_matches_the_offsets,
    transposes_match_the_cpu_on_partial_tiles,
    transpose_verdicts_and_vectors,
    map_runs_a_users_wgsl_with_the_layouts_functions,
    bad_input_is_a_typed_error,
    timing_returns_one_duration_per_run,
    a_type_of_ones_own_runs_and_times_through_dispatch,
    random_layouts_pack_and_unpack,
    random_tiled_transposes_match_the_cpu,
    a_lost_device_is_an_error,
    the_user_kernel_example_agrees_with_the_cpu,
    batches_run_chained_kernels_in_order,
];

fn main() -> ExitCode {
    let mut arguments = Arguments::from_args();
    let skip = match device() {
        Ok(gpu) => {
            eprintln!("GPU tests on {}", gpu.describe());
            if gpu.is_gl() {
                eprintln!("wgpu's GL backend: the tests run on one thread");
                arguments.test_threads = Some(1);
            }
            false
        }
        Err(error) if std::env::var("SWIZZLE_REQUIRE_GPU").as_deref() == Ok("1") => {
            eprintln!("SWIZZLE_REQUIRE_GPU=1 but {error}");
            return ExitCode::FAILURE;
        }
        Err(error) => {
            eprintln!(
                "skipping {} GPU tests, reported as ignored: {error} \
                 (set SWIZZLE_REQUIRE_GPU=1 to fail instead)",
                TESTS.len()
            );
            true
        }
    };
    let trials = TESTS
        .iter()
        .map(|&(name, test)| {
            Trial::test(name, move || {
                test();
                Ok(())
            })
            .with_ignored_flag(skip)
        })
        .collect();
    libtest_mimic::run(&arguments, trials).exit_code()
}

/// Packs a row-major image into `layout` and unpacks it again, on the GPU, and checks both
/// against `descriptor`'s interpreter.
fn check_pack_unpack(gpu: &Gpu, layout: &GpuLayout, descriptor: &Descriptor) {
    check_elements::<u32>(gpu, layout, |c| descriptor.offset(c).ok());
}

/// An element type the tests fill buffers with: distinct values in every word, and a poison.
trait Element: Word + PartialEq + std::fmt::Debug {
    const POISON: Self;
    const ZERO: Self;
    fn nth(i: usize) -> Self;
}

impl Element for u32 {
    const POISON: u32 = POISON;
    const ZERO: u32 = 0;
    fn nth(i: usize) -> u32 {
        i as u32 + 1
    }
}

impl Element for u8 {
    const POISON: u8 = 0xA5;
    const ZERO: u8 = 0;
    fn nth(i: usize) -> u8 {
        (i % 251) as u8 + 1
    }
}

impl Element for u16 {
    const POISON: u16 = 0xBEEF;
    const ZERO: u16 = 0;
    fn nth(i: usize) -> u16 {
        (i % 65521) as u16 + 1
    }
}

impl Element for u64 {
    const POISON: u64 = u64::from_le_bytes([0xEF, 0xBE, 0xAD, 0xDE, 0xFE, 0xCA, 0xAD, 0xDE]);
    const ZERO: u64 = 0;
    /// The low word and the high word differ, so swapped or repeated words show.
    fn nth(i: usize) -> u64 {
        (i as u64 + 1) | (0xA000_0000 + i as u64) << 32
    }
}

/// Packs a row-major image of `T` into `layout` (for elements of `T`) and unpacks it again,
/// on the GPU, against `offset`; the pack's unwritten offsets must keep their poison.
fn check_elements<T: Element>(
    gpu: &Gpu,
    layout: &GpuLayout,
    offset: impl Fn(&[usize]) -> Option<usize>,
) {
    let layout = layout.with_element::<T>().expect("element layout");
    let shape = layout.shape().to_vec();
    let image: Vec<T> = (0..layout.size()).map(T::nth).collect();
    let offsets: Vec<Option<usize>> = coordinates(&shape).map(|c| offset(&c)).collect();

    let pack = match gpu.pack_kernel(&layout) {
        Ok(kernel) => kernel,
        Err(GpuError::Unsupported { .. }) if !layout.is_injective() => return,
        Err(error) => panic!("{error}"),
    };
    let input = gpu.upload(&image).expect("upload");
    let packed = gpu.filled(layout.space(), T::POISON).expect("buffer");
    pack.run(gpu, (&input, &packed)).expect("pack");
    let packed = gpu.download(&packed).expect("download");
    let mut expected = vec![T::POISON; layout.space()];
    for (i, offset) in offsets.iter().enumerate() {
        if let Some(offset) = offset {
            expected[*offset] = image[i];
        }
    }
    assert_eq!(
        packed,
        expected,
        "pack into {}\n{}",
        layout.name(),
        pack.wgsl()
    );

    let unpack = gpu.unpack_kernel(&layout).expect("unpack kernel");
    let stored: Vec<T> = (0..layout.space()).map(|o| T::nth(o + 100)).collect();
    let input = gpu.upload(&stored).expect("upload");
    let image_out = gpu.filled(layout.size(), T::POISON).expect("buffer");
    unpack.run(gpu, (&input, &image_out)).expect("unpack");
    let expected: Vec<T> = offsets
        .iter()
        .map(|offset| offset.map_or(T::ZERO, |o| stored[o]))
        .collect();
    let image_out = gpu.download(&image_out).expect("download");
    assert_eq!(
        image_out,
        expected,
        "unpack of {}\n{}",
        layout.name(),
        unpack.wgsl()
    );
}

/// A layout given as text, for the GPU and for the interpreter.
fn parse(text: &str) -> (GpuLayout, Descriptor) {
    let checked = swizzle_syntax::layouts(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let descriptor = checked[0].descriptor.clone();
    let layout = GpuLayout::from_descriptor(&descriptor).unwrap_or_else(|e| panic!("{e}\n{text}"));
    (layout, descriptor)
}

fn check_type<L: Layout<2>>(gpu: &Gpu) {
    let layout = GpuLayout::of::<L, 2>().expect("has WGSL");
    check_pack_unpack(gpu, &layout, &L::DESCRIPTOR);
}

fn reference_layouts_pack_and_unpack() {
    let gpu = gpu();
    check_type::<MortonTexture>(gpu);
    check_type::<LdsA>(gpu);
    check_type::<Cute>(gpu);
    check_type::<Padded>(gpu);
    check_type::<PaddedTile>(gpu);
}

fn large_morton_tiles_pack_and_unpack_against_generated_offsets() {
    let gpu = gpu();
    // 4×4 Morton tiles over a 96×160 image, vectorised (the space is a multiple of 4).
    let (layout, descriptor) = parse(
        "layout Tiles { memory [ty: 24, tx: 40, m: 16]; morton m -> [yi: 4, xi: 4]; \
         merge [ty, yi] -> y; merge [tx, xi] -> x; coords [y, x]; }",
    );
    assert!(layout.is_bijective());
    check_pack_unpack(gpu, &layout, &descriptor);
}

fn run_time_extents_pack_and_unpack_with_partial_tiles() {
    let gpu = gpu();
    for (y, x) in [(37, 70), (8, 8), (1, 13), (16, 24)] {
        // Whole tiles of a bijection make a bijection; partial ones have padding.
        let whole = y % 8 == 0 && x % 8 == 0;
        let morton = DynMorton::new(y, x).expect("extents");
        let (layout, offset) = tiled(&DynMorton::DESCRIPTOR, &[y, x]);
        assert_eq!(layout.space(), morton.space());
        assert!(layout.has_inverse());
        assert_eq!(layout.is_bijective(), whole, "{y} × {x}");
        check_elements::<u32>(gpu, &layout, offset);
        let (layout, offset) = tiled(&DynXor::DESCRIPTOR, &[y, x]);
        assert_eq!(layout.is_bijective(), whole, "{y} × {x}");
        check_elements::<u32>(gpu, &layout, offset);
    }
    let (padded, offset) = tiled(&DynPadded::DESCRIPTOR, &[9, 6]);
    assert!(!padded.has_inverse());
    check_elements::<u32>(gpu, &padded, offset);
    // The fixed coordinate keeps its tile's length.
    assert!(matches!(
        GpuLayout::tiled(&DynPadded::DESCRIPTOR, &[9, 5]),
        Err(GpuError::Shape { .. })
    ));
}

/// Padding an injective layout keeps it injective, proved from its structure however large:
/// at `b: 65536` (past the enumeration budget) the pack kernel once refused this layout.
fn padded_layouts_past_the_enumeration_budget_are_injective() {
    for b in [1000, 65536, 1 << 24] {
        let text =
            format!("layout P {{ memory [a: 3, b: {b}]; pad b -> x (1, 2); coords [a, x]; }}");
        let (layout, _) = parse(&text);
        assert!(layout.is_injective(), "{text}");
        assert!(layout.is_padded() && !layout.has_inverse(), "{text}");
    }
    // A replicated dim is not, and an overlapping embedding is not either.
    for text in [
        "layout R { memory [n: 4]; replicate -> [r: 2]; coords [r, n]; }",
        "layout E { memory [n: 64]; embed n -> [y: 8, x: 8] strides [7, 1]; coords [y, x]; }",
    ] {
        assert!(!parse(text).0.is_injective(), "{text}");
    }
}

/// Absurd extents are a typed error, never an overflow: 2^40 × 2^40 once panicked in debug
/// builds and wrapped in release. Building a layout needs no adapter.
fn absurd_extents_are_too_large() {
    let huge = 1usize << 40;
    let layout = GpuLayout::tiled(&DynMorton::DESCRIPTOR, &[huge, huge]);
    assert!(
        matches!(
            layout,
            Err(GpuError::TooLarge {
                value: u64::MAX,
                limit: 0x1_0000_0000,
                ..
            })
        ),
        "{layout:?}"
    );
}

/// Every element width through layouts with and without an inverse, padded or not, and
/// `dyn` layouts at whole and partial extents.
fn check_element_width<T: Element>(gpu: &Gpu) {
    let check_type = |layout: GpuLayout, descriptor: &Descriptor| {
        check_elements::<T>(gpu, &layout, |c| descriptor.offset(c).ok());
    };
    check_type(
        GpuLayout::of::<MortonTexture, 2>().expect("WGSL"),
        &MortonTexture::DESCRIPTOR,
    );
    check_type(GpuLayout::of::<LdsA, 2>().expect("WGSL"), &LdsA::DESCRIPTOR);
    check_type(
        GpuLayout::of::<Padded, 2>().expect("WGSL"),
        &Padded::DESCRIPTOR,
    );
    for (y, x) in [(37, 70), (16, 24), (3, 5)] {
        let (layout, offset) = tiled(&DynXor::DESCRIPTOR, &[y, x]);
        check_elements::<T>(gpu, &layout, offset);
    }
    let (padded, offset) = tiled(&DynPadded::DESCRIPTOR, &[9, 6]);
    check_elements::<T>(gpu, &padded, offset);
    // An image whose length is not a multiple of the elements in a word.
    check_type(GpuLayout::of::<Odd, 2>().expect("WGSL"), &Odd::DESCRIPTOR);
}

fn elements_of_every_width_pack_and_unpack() {
    let gpu = gpu();
    check_element_width::<u8>(gpu);
    check_element_width::<u16>(gpu);
    check_element_width::<u64>(gpu);
    let layout = GpuLayout::of::<Cute, 2>().expect("WGSL");
    let wide = layout.with_element::<f64>().expect("64-bit layout");
    assert_eq!(
        (wide.shape(), wide.space(), wide.element_bits()),
        (layout.shape(), layout.space(), 64)
    );
    assert!(
        wide.wgsl()
            .contains("fn cute_w2_coord(offset: u32) -> array<u32, 3>")
    );
    let narrow = layout.with_element::<i8>().expect("8-bit layout");
    assert_eq!(
        (narrow.shape(), narrow.space(), narrow.element_bits()),
        (layout.shape(), layout.space(), 8)
    );
}

/// Where a layout puts a coordinate (`None` for padding).
type Offset<'a> = &'a dyn Fn(&[usize]) -> Option<usize>;

/// Copies `from` into `to` for elements of `T` on the GPU, against both layouts' offsets:
/// into a poisoned buffer, so that offsets holding no element must keep the poison.
fn check_copy<T: Element>(
    gpu: &Gpu,
    (from, from_offset): (&GpuLayout, Offset),
    (to, to_offset): (&GpuLayout, Offset),
) {
    let from = from.with_element::<T>().expect("element layout");
    let to = to.with_element::<T>().expect("element layout");
    let kernel = gpu
        .copy_kernel(&from, &to)
        .unwrap_or_else(|e| panic!("{e}"));
    let data: Vec<T> = (0..from.space()).map(|o| T::nth(o + 7)).collect();
    let input = gpu.upload(&data).expect("upload");
    let output = gpu.filled(to.space(), T::POISON).expect("buffer");
    kernel.run(gpu, (&input, &output)).expect("copy");
    let mut expected = vec![T::POISON; to.space()];
    for c in coordinates(from.shape()) {
        if let Some(o) = to_offset(&c) {
            expected[o] = from_offset(&c).map_or(T::ZERO, |s| data[s]);
        }
    }
    let output = gpu.download(&output).expect("download");
    assert_eq!(output, expected, "{}\n{}", kernel.name(), kernel.wgsl());
}

/// A `dyn` layout (its descriptor) at `extents`, and where it puts a coordinate.
fn tiled(
    descriptor: &Descriptor,
    extents: &[usize],
) -> (GpuLayout, impl Fn(&[usize]) -> Option<usize> + use<>) {
    let layout = GpuLayout::tiled(descriptor, extents).expect("tiled layout");
    let (descriptor, extents) = (descriptor.clone(), extents.to_vec());
    (layout, move |c: &[usize]| {
        descriptor.offset_in(&extents, c).ok()
    })
}

/// Packs, unpacks and copies both ways between `a` and `b`, for elements of every width.
fn check_every_width(gpu: &Gpu, a: (&GpuLayout, Offset), b: (&GpuLayout, Offset)) {
    fn check<T: Element>(gpu: &Gpu, a: (&GpuLayout, Offset), b: (&GpuLayout, Offset)) {
        check_elements::<T>(gpu, a.0, a.1);
        check_copy::<T>(gpu, a, b);
        check_copy::<T>(gpu, b, a);
    }
    check::<u8>(gpu, a, b);
    check::<u16>(gpu, a, b);
    check::<u32>(gpu, a, b);
    check::<u64>(gpu, a, b);
}

/// Packs and unpacks of narrow elements staged through workgroup memory (tiles of a
/// bijection whose rows split into `vec4`s): against the interpreter, with partial tiles,
/// several tiles per workgroup and regions that run past the grid.
fn staged_narrow_packs_match_the_interpreter() {
    let gpu = gpu();
    for extents in [[37, 48], [8, 16], [64, 96], [5, 32], [24, 272]] {
        let descriptors = [
            &DynMorton::DESCRIPTOR,
            &DynXor::DESCRIPTOR,
            &DynXor32::DESCRIPTOR,
        ];
        for descriptor in descriptors {
            let (layout, offset) = tiled(descriptor, &extents);
            for staged in [layout.with_element::<u8>(), layout.with_element::<u16>()] {
                let staged = staged.expect("narrow layout");
                let kernels = [
                    ("pack", gpu.pack_kernel(&staged)),
                    ("unpack", gpu.unpack_kernel(&staged)),
                ];
                for (direction, kernel) in kernels {
                    let wgsl = kernel.expect("kernel").wgsl().to_owned();
                    // XOR tiles the image's edges do not cut, whose rows split into
                    // `vec4`s, move each `vec4` whole with its lanes permuted instead
                    // (`permuted_packs_match_the_interpreter`).
                    let bits = staged.element_bits();
                    let side = if descriptor.name == "DynXor32" { 32 } else { 8 };
                    let permuted = descriptor.name != "DynMorton"
                        && extents.iter().all(|e| e % side == 0)
                        && side % (128 / bits) == 0;
                    assert_eq!(
                        wgsl.contains("fn permute("),
                        permuted,
                        "{extents:?}\n{wgsl}"
                    );
                    if permuted {
                        continue;
                    }
                    assert!(
                        wgsl.contains("var<workgroup> region"),
                        "{extents:?}\n{wgsl}"
                    );
                    // Each region word is loaded once: four loads for each of a thread's
                    // vec4s where each word's elements share a word on the other side (the
                    // XOR; four bytes of a row of Morton's 4 × 4 blocks), eight where they
                    // come in pairs (an unpack of Morton bytes, whose rows 2r and 2r + 1
                    // share every word: a thread writes both from one set of loads). Each
                    // of 64 threads moves two vec4s where one vec4 each covers whole tiles;
                    // a tile larger than that (32 × 32 of 16-bit elements) takes a
                    // workgroup of its own, one vec4 a thread.
                    let loads = wgsl.matches("= region[padded(").count();
                    let pairs =
                        descriptor.name == "DynMorton" && bits == 8 && direction == "unpack";
                    let per_vec4 = if pairs { 8 } else { 4 };
                    let elements_per_vec4 = 128 / bits;
                    let whole_tiles = (64 * elements_per_vec4).is_multiple_of(side * side);
                    let quads = if whole_tiles { 2 } else { 1 };
                    let sets = if pairs { 1 } else { quads };
                    assert_eq!(loads, sets * per_vec4, "{direction}\n{wgsl}");
                    assert_eq!(
                        wgsl.contains("dst[(y + 1u) * WIDTH_QUADS + x_quad]"),
                        pairs,
                        "{direction}\n{wgsl}"
                    );
                    // And one inverse or offset per word: the word's other elements lie at
                    // its first element's place XOR a constant.
                    let computed =
                        wgsl.matches("_coord(first").count() + wgsl.matches("_offset(row").count();
                    assert_eq!(computed, loads, "{direction}\n{wgsl}");
                }
            }
            check_elements::<u8>(gpu, &layout, &offset);
            check_elements::<u16>(gpu, &layout, &offset);
        }
    }
}

/// Packs and unpacks of tiles whose every `vec4` is an image `vec4` with its lanes permuted
/// by an XOR (plain tiles, element-wise and block-wise XOR swizzles): one `vec4` moved whole
/// per thread, for every element width that splits a tile row into `vec4`s, against the
/// interpreter.
fn permuted_packs_match_the_interpreter() {
    let gpu = gpu();
    let descriptors = [
        &DynRowTiles::DESCRIPTOR,
        &DynXor32::DESCRIPTOR,
        &DynXorNarrow::DESCRIPTOR,
        &DynXorBlocks::DESCRIPTOR,
    ];
    for descriptor in descriptors {
        for extents in [[32, 64], [64, 96]] {
            let (layout, offset) = tiled(descriptor, &extents);
            let widths = [
                layout.with_element::<u8>(),
                layout.with_element::<u16>(),
                layout.with_element::<u32>(),
            ];
            for narrowed in widths {
                let narrowed = narrowed.expect("element layout");
                for kernel in [gpu.pack_kernel(&narrowed), gpu.unpack_kernel(&narrowed)] {
                    let wgsl = kernel.expect("kernel").wgsl().to_owned();
                    assert!(wgsl.contains("fn permute("), "{extents:?}\n{wgsl}");
                    assert!(!wgsl.contains("var<workgroup>"), "{extents:?}\n{wgsl}");
                }
            }
            check_elements::<u8>(gpu, &layout, &offset);
            check_elements::<u16>(gpu, &layout, &offset);
            check_elements::<u32>(gpu, &layout, &offset);
        }
    }
}

fn tiled_layouts_of_every_shape_copy_both_ways() {
    let gpu = gpu();
    for extents in [[5, 3, 7], [4, 3, 8], [1, 3, 1]] {
        let (layout, offset) = tiled(&Dyn3::DESCRIPTOR, &extents);
        let rows = GpuLayout::row_major(&extents).expect("rows");
        let row_major = |c: &[usize]| Some((c[0] * 3 + c[1]) * extents[2] + c[2]);
        check_every_width(gpu, (&layout, &offset), (&rows, &row_major));
    }
    for extents in [[3, 5, 4, 2], [4, 8, 4, 2], [1, 1, 4, 2]] {
        let (layout, offset) = tiled(&DynMortonBlocks::DESCRIPTOR, &extents);
        let rows = GpuLayout::row_major(&extents).expect("rows");
        let row_major = |c: &[usize]| Some(((c[0] * extents[1] + c[1]) * 4 + c[2]) * 2 + c[3]);
        check_every_width(gpu, (&layout, &offset), (&rows, &row_major));
    }
    // [8, 16] and [12, 32]: rows that split into `vec4`s of every width, which the staged
    // and permuted kernels would take were the tiles row-major over the grid.
    for extents in [[5, 7], [8, 12], [1, 1], [3, 2], [8, 16], [12, 32]] {
        let (swapped, swapped_offset) = tiled(&DynSwap::DESCRIPTOR, &extents);
        let (small, small_offset) = tiled(&Dyn3x3::DESCRIPTOR, &extents);
        check_every_width(gpu, (&swapped, &swapped_offset), (&small, &small_offset));
    }
    for rows in [5, 1, 7] {
        let (layout, offset) = tiled(&DynRow::DESCRIPTOR, &[rows, 6]);
        let (padded, padded_offset) = tiled(&DynPadded::DESCRIPTOR, &[rows, 6]);
        check_every_width(gpu, (&layout, &offset), (&padded, &padded_offset));
    }
    let (odd, padded) = (
        GpuLayout::of::<Odd, 2>().expect("WGSL"),
        GpuLayout::of::<Padded, 2>().expect("WGSL"),
    );
    let odd_offset = |c: &[usize]| Odd::DESCRIPTOR.offset(c).ok();
    let padded_offset = |c: &[usize]| Padded::DESCRIPTOR.offset(c).ok();
    check_every_width(gpu, (&odd, &odd_offset), (&padded, &padded_offset));
}

fn layout_to_layout_copy_matches_the_offsets() {
    let gpu = gpu();
    let (from, to) = (
        GpuLayout::of::<LdsA, 2>().expect("WGSL"),
        GpuLayout::of::<Cute, 2>().expect("WGSL"),
    );
    let kernel = gpu.copy_kernel(&from, &to).expect("kernel");
    let data: Vec<u32> = (0..LdsA::SPACE as u32).map(|o| o * 3 + 1).collect();
    let input = gpu.upload(&data).expect("upload");
    let output = gpu.filled(Cute::SPACE, POISON).expect("buffer");
    kernel.run(gpu, (&input, &output)).expect("copy");
    let output = gpu.download(&output).expect("download");
    for m in 0..128 {
        for k in 0..32 {
            assert_eq!(
                output[Cute::offset(m, k)],
                data[LdsA::offset(m, k)],
                "({m}, {k})"
            );
        }
    }
}

/// Transposes through every tile layout, in vectors and single elements, at sizes with
/// partial tiles (and rows that are no multiple of four), against the CPU.
fn transposes_match_the_cpu_on_partial_tiles() {
    let gpu = gpu();
    let transposes = transposes::transposes();
    for (height, width) in transposes::SIZES {
        let image = transposes::image(height, width);
        let expected = transposes::transposed(&image, height, width);
        let input = gpu.upload(&image).expect("upload");
        let mut kernels = vec![gpu.naive_transpose_kernel(height, width).expect("naive")];
        for transpose in &transposes {
            let tiled = gpu.transpose_kernel(height, width, transpose);
            kernels.push(tiled.expect("tiled").kernel);
        }
        for kernel in kernels {
            let output = gpu.filled(image.len(), POISON).expect("buffer");
            kernel.run(gpu, (&input, &output)).expect("transpose");
            let output = gpu.download(&output).expect("download");
            assert!(
                output == expected,
                "{} of {height}×{width}:\n{}",
                kernel.name(),
                kernel.wgsl()
            );
        }
    }
}

/// The analysis of each tile agrees with the bank arithmetic: the row-major tile's column
/// reads conflict, the padded and XOR tiles' do not; the vectors are what the rows allow.
fn transpose_verdicts_and_vectors() {
    let gpu = gpu();
    let kernel = |tile: &'static Descriptor, threads: ThreadValues<'static>, side| {
        let transpose = Transpose::new(tile, threads);
        gpu.transpose_kernel(side, side, &transpose)
            .expect("kernel")
    };
    let row = kernel(TILES[0], Threads256::THREAD_VALUES, 64);
    assert_eq!(row.widths, [4, 4]);
    assert_eq!(row.worst_conflict(), 8);
    for tile in [TILES[1], TILES[2]] {
        assert_eq!(
            kernel(tile, Threads64::THREAD_VALUES, 64).worst_conflict(),
            1
        );
    }
    let xor4 = kernel(TILES[3], Threads64::THREAD_VALUES, 64);
    assert_eq!(xor4.worst_conflict(), 1);
    assert!(
        xor4.kernel
            .wgsl()
            .contains("var<workgroup> tile: array<vec4<u32>, 256>")
    );
    // Squares of four rows read `Xor4Tile`'s transpose in whole entries across them: the
    // store transposes each square in registers, conflict-free.
    let squares = kernel(TILES[3], Squares64::THREAD_VALUES, 64);
    assert_eq!((squares.widths, squares.worst_conflict()), ([4, 4], 1));
    assert!(squares.kernel.wgsl().contains("let v0_3 = tile["));
    assert!(!xor4.kernel.wgsl().contains("let v0_3 = tile["));
    // Rows of 66 split into pairs only.
    assert_eq!(
        kernel(TILES[2], Threads256::THREAD_VALUES, 66).widths,
        [2, 2]
    );
}

fn map_runs_a_users_wgsl_with_the_layouts_functions() {
    let gpu = gpu();
    let layout = GpuLayout::of::<Padded, 2>().expect("WGSL");
    // The body may call the layout's own functions.
    let kernel = gpu
        .map_kernel(
            &layout,
            "    return value * 2u + coord[0] * 1000u + padded_offset(coord[0], coord[1]) - offset;",
        )
        .expect("map");
    let data: Vec<u32> = (0..Padded::SPACE as u32).collect();
    let buffer = gpu.upload(&data).expect("upload");
    kernel.run(gpu, &buffer).expect("map");
    let output = gpu.download(&buffer).expect("download");
    let mut expected = data.clone();
    for r in 0..3 {
        for x in 2..12 {
            let o = Padded::offset(r, x);
            expected[o] = data[o] * 2 + r as u32 * 1000;
        }
    }
    assert_eq!(output, expected);
}

fn bad_input_is_a_typed_error() {
    let gpu = gpu();
    let layout = GpuLayout::of::<MortonTexture, 2>().expect("WGSL");
    let pack = gpu.pack_kernel(&layout).expect("kernel");
    let short = gpu.filled(63, 0u32).expect("buffer");
    let right = gpu.filled(64, 0u32).expect("buffer");
    assert_eq!(
        pack.run(gpu, (&short, &right)),
        Err(GpuError::Length {
            buffer: "input",
            expected: 64,
            actual: 63
        })
    );
    let other = GpuLayout::of::<LdsA, 2>().expect("WGSL");
    assert!(matches!(
        gpu.copy_kernel(&layout, &other),
        Err(GpuError::Shape { .. })
    ));
    let Err(GpuError::Shader(report)) = gpu.map_kernel(&layout, "    return value + nope;") else {
        panic!("an unknown identifier must not validate");
    };
    assert!(report.contains("return value + nope;"), "{report}");
    let tiled = swizzle_syntax::layouts(
        "layout T { memory [ty: dyn, m: 16]; merge [ty, m] -> y; coords [y]; }",
    )
    .expect("checks");
    let tiled = GpuLayout::from_descriptor(&tiled[0].descriptor);
    assert!(
        matches!(tiled, Err(GpuError::Unsupported { .. })),
        "{tiled:?}"
    );
    // A transpose the layouts cannot make (tests/transposes.rs has every such error
    // without a device): thread-value layouts over another tile than the transpose's.
    let mismatched = Transpose {
        tile: TILES[4],
        ..Transpose::new(TILES[2], Threads256::THREAD_VALUES)
    };
    assert!(matches!(
        gpu.transpose_kernel(64, 64, &mismatched),
        Err(GpuError::Unsupported {
            why: Unsupported::Shape { .. },
            ..
        })
    ));
    let empty = Transpose::new(TILES[2], Threads256::THREAD_VALUES);
    assert!(matches!(
        gpu.transpose_kernel(0, 64, &empty),
        Err(GpuError::TooLarge { .. })
    ));

    // Elements of the wrong width: a kernel moves the width its layouts were built for.
    let wide = layout.with_element::<u64>().expect("64-bit layout");
    let wide_pack = gpu.pack_kernel(&wide).expect("kernel");
    let element = Err(GpuError::Element {
        expected: 64,
        actual: 32,
    });
    assert_eq!(wide_pack.run(gpu, (&right, &right)), element);
    let words = gpu.filled(64, 0u64).expect("buffer");
    assert_eq!(
        pack.run(gpu, (&words, &words)),
        Err(GpuError::Element {
            expected: 32,
            actual: 64
        })
    );
    assert_eq!(gpu.copy_kernel(&layout, &wide).map(drop), element);
    for narrower in [wide.with_element::<u16>(), wide.with_element::<u32>()] {
        assert!(matches!(narrower, Err(GpuError::Unsupported { .. })));
    }
    assert!(matches!(
        gpu.filled(usize::MAX / 2 + 1, 0u64),
        Err(GpuError::TooLarge { .. })
    ));
    let bytes = gpu.filled(64, 0u8).expect("buffer");
    assert_eq!(
        pack.run(gpu, (&bytes, &bytes)),
        Err(GpuError::Element {
            expected: 32,
            actual: 8
        })
    );
    assert!(matches!(
        gpu.map_kernel(&wide, "    return value;"),
        Err(GpuError::Unsupported { .. })
    ));
    let map = gpu.map_kernel(&layout, "    return value;").expect("map");
    assert!(matches!(
        map.run(gpu, &words),
        Err(GpuError::Element { .. })
    ));
}

fn timing_returns_one_duration_per_run() {
    let gpu = gpu();
    let kernel = gpu.plain_copy_kernel(4096).expect("kernel");
    let (input, output) = (
        gpu.filled(4096, 1u32).expect("buffer"),
        gpu.filled(4096, 0u32).expect("buffer"),
    );
    match kernel.time(gpu, (&input, &output), 3) {
        Ok(times) => assert_eq!(times.len(), 3),
        Err(error) => assert!(!gpu.has_timestamps(), "{error}"),
    }
    if gpu.has_timestamps() {
        let median = kernel.median(gpu, (&input, &output), 5).expect("median");
        assert!(median > std::time::Duration::ZERO);
        assert!(matches!(
            kernel.median(gpu, (&input, &output), 0),
            Err(GpuError::TooLarge { .. })
        ));
    }
    assert_eq!(gpu.download(&output).expect("download"), vec![1; 4096]);
}

/// Two library kernels behind one `Dispatch` impl of the test's own: a pack into a scratch
/// buffer and the unpack out of it.
struct RoundTrip {
    pack: Kernel,
    unpack: Kernel,
}

impl<'b> Dispatch<(&'b Buffer<u32>, &'b Buffer<u32>, &'b Buffer<u32>)> for RoundTrip {
    fn enqueue(
        &self,
        batch: &mut Batch,
        (input, scratch, output): (&'b Buffer<u32>, &'b Buffer<u32>, &'b Buffer<u32>),
    ) -> Result<(), GpuError> {
        self.pack.enqueue(batch, (input, scratch))?;
        self.unpack.enqueue(batch, (scratch, output))
    }
}

/// `run` and `time` come with `enqueue`, for the library's kernels (here a `map`, which had
/// no timing of its own) and for a type of one's own that records two passes a run: it runs both, and
/// times one duration a run (the sum of its passes).
fn a_type_of_ones_own_runs_and_times_through_dispatch() {
    let gpu = gpu();
    let layout = GpuLayout::of::<MortonTexture, 2>().expect("layout");
    let round_trip = RoundTrip {
        pack: gpu.pack_kernel(&layout).expect("pack"),
        unpack: gpu.unpack_kernel(&layout).expect("unpack"),
    };
    let image: Vec<u32> = (1..=64).collect();
    let input = gpu.upload(&image).expect("upload");
    let (scratch, output) = (
        gpu.filled(64, POISON).expect("buffer"),
        gpu.filled(64, POISON).expect("buffer"),
    );
    let buffers = (&input, &scratch, &output);
    round_trip.run(gpu, buffers).expect("round trip");
    assert_eq!(gpu.download(&output).expect("download"), image);
    let short = gpu.filled(63, POISON).expect("buffer");
    assert!(matches!(
        round_trip.run(gpu, (&input, &short, &output)),
        Err(GpuError::Length { .. })
    ));

    let map = gpu.map_kernel(&layout, "return value + 1u;").expect("map");
    match (round_trip.time(gpu, buffers, 4), map.time(gpu, &output, 3)) {
        (Ok(trips), Ok(maps)) => {
            assert_eq!((trips.len(), maps.len()), (4, 3));
            assert!(trips.iter().all(|t| *t > std::time::Duration::ZERO));
        }
        (trips, maps) => assert!(!gpu.has_timestamps(), "{trips:?} {maps:?}"),
    }
    // The timed runs ran too: the map added one per run to the round trip's output.
    assert_eq!(
        gpu.download(&output).expect("download"),
        image.iter().map(|v| v + 3).collect::<Vec<u32>>()
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Random pipelines of every transform, non-power-of-two lengths included.
        fn random_layouts_pack_and_unpack(seed in any::<u64>(), power_of_two in any::<bool>()) {
        let gpu = gpu();
        let source = Generator::generate(seed, power_of_two);
        // A layout without coordinates has nothing to move (and the GPU refuses it).
        if source.contains("coords [];") {
            return Ok(());
        }
        let (layout, descriptor) = parse(&source);
        let offset = |c: &[usize]| descriptor.offset(c).ok();
        match seed % 4 {
            0 => check_elements::<u32>(gpu, &layout, offset),
            1 => check_elements::<u64>(gpu, &layout, offset),
            2 => check_elements::<u16>(gpu, &layout, offset),
            _ => check_elements::<u8>(gpu, &layout, offset),
        }
    }
}

/// A random transpose: a square tile of side `side` in one of four layouts, loads and stores
/// by random thread-value layouts (a row split into vectors of `vector`, rows per thread
/// `rows`, the thread index merged either way), over a random image.
fn random_transpose(side: usize, kind: usize, vector: usize, rows: usize, swap: bool) -> String {
    let tile = match kind {
        0 => format!("memory [y: {side}, x: {side}];"),
        1 => format!("memory [y: {side}, x: {side}] strides [{}, 1];", side + 1),
        2 => format!("memory [y: {side}, x: {side}]; xor x by y;"),
        _ => format!(
            "memory [y: {side}, xo: {}, xi: 2]; xor xo by y; merge [xo, xi] -> x;",
            side / 2
        ),
    };
    let order = match swap {
        true => "[tc, tr]",
        false => "[tr, tc]",
    };
    format!(
        "layout Work {{ {tile} coords [y, x]; }}
        threads Random {{
            tile [r: {side}, c: {side}];
            unmerge c -> [tc: {}, v: {vector}];
            unmerge r -> [k: {rows}, tr: {}];
            merge {order} -> thread;
            threads [thread];
            values [k, v];
        }}",
        side / vector,
        side / rows
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Transposes from random tiled copies on the GPU, against the CPU, into poisoned output.
        fn random_tiled_transposes_match_the_cpu(
        side in prop::sample::select(vec![4usize, 8, 16, 32]),
        kind in 0usize..4,
        vector in prop::sample::select(vec![1usize, 2, 4]),
        rows in prop::sample::select(vec![1usize, 2, 4]),
        swap in any::<bool>(),
        height in 1usize..100,
        width in 1usize..100,
    ) {
        let gpu = gpu();
        let text = random_transpose(side, kind, vector, rows, swap);
        let checked = swizzle_syntax::layouts(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        let threads = checked[1].thread_values().expect("a thread-value layout");
        let transpose = Transpose::new(&checked[0].descriptor, threads);
        let kernel = gpu.transpose_kernel(height, width, &transpose).expect("kernel").kernel;
        let image: Vec<u32> = (0..(height * width) as u32).map(|v| v.wrapping_mul(2_654_435_761)).collect();
        let input = gpu.upload(&image).expect("upload");
        let output = gpu.filled(image.len(), POISON).expect("buffer");
        kernel.run(gpu, (&input, &output)).expect("transpose");
        let output = gpu.download(&output).expect("download");
        prop_assert!(output == transposes::transposed(&image, height, width), "{}\n{}", text, kernel.wgsl());
    }
}

fn a_lost_device_is_an_error() {
    // A device of its own, destroyed: what a driver reset looks like.
    let gpu = Gpu::new().expect("a second device");
    let input = gpu.upload(&[1u32, 2, 3, 4]).expect("upload");
    let output = gpu.filled(4, 0u32).expect("buffer");
    let kernel = gpu.plain_copy_kernel(4).expect("kernel");
    gpu.device().destroy();
    let result = kernel.run(&gpu, (&input, &output));
    assert!(matches!(result, Err(GpuError::DeviceLost(_))), "{result:?}");
}

#[path = "../examples/user_kernel.rs"]
mod user_kernel;

/// The guide's user kernel (`swizzle::guide::threads`: generated tiled copies and a raster
/// in a hand-written WGSL kernel) computes on the GPU what its pieces compute on the CPU.
fn the_user_kernel_example_agrees_with_the_cpu() {
    user_kernel::main().expect("the example runs");
}

/// A batch runs its kernels in the order recorded, each seeing what the one before wrote,
/// with one wait: pack, unpack and a map, then a GEMM twice into the same C; an empty
/// batch submits; a wrong buffer is refused when recorded, and records nothing.
fn batches_run_chained_kernels_in_order() {
    let gpu = gpu();
    let layout = GpuLayout::of::<MortonTexture, 2>().expect("layout");
    let (pack, unpack) = (
        gpu.pack_kernel(&layout).expect("pack"),
        gpu.unpack_kernel(&layout).expect("unpack"),
    );
    let map = gpu.map_kernel(&layout, "return value * 2u;").expect("map");
    let image: Vec<u32> = (1..=64).collect();
    let input = gpu.upload(&image).expect("upload");
    let packed = gpu.filled(64, POISON).expect("buffer");
    let output = gpu.filled(64, POISON).expect("buffer");
    let short = gpu.filled(63, POISON).expect("buffer");

    assert!(gpu.batch().submit().is_ok(), "an empty batch");
    let mut batch = gpu.batch();
    pack.enqueue(&mut batch, (&input, &packed)).expect("pack");
    map.enqueue(&mut batch, &packed).expect("map");
    let refused = unpack.enqueue(&mut batch, (&packed, &short));
    assert!(
        matches!(refused, Err(GpuError::Length { .. })),
        "{refused:?}"
    );
    unpack
        .enqueue(&mut batch, (&packed, &output))
        .expect("unpack");
    assert_eq!(batch.runs(), 3);
    batch.submit().expect("the batch runs");
    let doubled: Vec<u32> = image.iter().map(|v| v * 2).collect();
    assert_eq!(gpu.download(&output).expect("download"), doubled);

    let [m, n, k] = [70, 50, 30];
    let kernel = gpu
        .gemm_kernel([m, n, k], &swizzle::gemm::config())
        .expect("GEMM");
    let a: Vec<f32> = (0..m * k).map(|i| (i % 7) as f32 - 3.0).collect();
    let b: Vec<f32> = (0..k * n).map(|i| (i % 5) as f32 - 2.0).collect();
    let (a_buffer, b_buffer) = (gpu.upload(&a).expect("A"), gpu.upload(&b).expect("B"));
    let c = gpu.filled(m * n, f32::NAN).expect("C");
    let mut batch = gpu.batch();
    for _ in 0..2 {
        kernel
            .enqueue(&mut batch, (&a_buffer, &b_buffer, &c))
            .expect("GEMM");
    }
    batch.submit().expect("the batch runs");
    assert_eq!(
        gpu.download(&c).expect("download"),
        cpu_gemm(&a, &b, [m, n, k])
    );
}
