//! The tensor-core GEMM's design history: every design step of the f16 GEMM on cooperative
//! matrices (tensor cores) beside the library's kernels (`swizzle::gemm::tensor_cores`),
//! against cuBLAS HGEMM (`python3 benches/cublas_hgemm.py > hgemm.txt` at the root;
//! `SWIZZLE_HGEMM_RESULTS=hgemm.txt`) and against the scalar f16 kernel (the same `Gemm`
//! without tensor-core layouts). The library's kernels alone are the root's
//! `benches/tensor_gemm.rs`. Run with `cargo bench -p swizzle-lab --bench tensor_designs`
//! (`-- <mode>` for the modes below). Prints the adapter's cooperative-matrix configurations
//! first. Every result is checked against the CPU before it is timed (small integers, so
//! every f32 sum is exact: the whole of C up to 2^21 elements, 4096 sampled elements above);
//! the f16-accumulator variant is not exact, and its largest error is printed instead.
//!
//! `SWIZZLE_TC_SHAPES` (default `1024,2048,4096,8192,8192x8192x1024`), `SWIZZLE_BENCH_RUNS`
//! (default 20). `-- probe`: which cooperative-matrix constructs the driver takes;
//! `-- profile`: step 3's kernel with a stage left out; `-- ceiling` (then nothing else):
//! the path's ceiling at 4096 and 8192 (multiply-adds on fragments in registers, fragment
//! loads from workgroup tiles, and the library's and the tiled designs without their
//! copies or multiply-adds; `src/tc_probe.rs`); `-- stream` (then nothing else): issue
//! 25's designs with private workgroup regions per subgroup and with fragments straight
//! from storage (`src/tc_stream.rs`), and with producer and consumer subgroups
//! (`src/tc_split.rs`, passed to the driver as SPIR-V) beside the library's kernel, each
//! checked exact and timed at 4096³ and 8192³ on one harness (`SWIZZLE_TC_VARIANTS` picks
//! them by label up to its ':', `SWIZZLE_TC_PROFILE` names those to time without their
//! multiply-adds and without their fetches); `-- stats` (then nothing else): what the
//! driver made of the workgroup-scope kernels, registers, shared and local memory
//! (`src/driver_stats.rs`; Vulkan drivers with `VK_KHR_pipeline_executable_properties`),
//! the library's fragment kernels and, where `SWIZZLE_VK_COOPMAT_PERF` names a build of it,
//! NVIDIA's per-subgroup reference kernel; `-- wgsl` (no device): the library's fragment
//! kernels' and design r1's WGSL at 4096³; `-- spirv IN OUT` (no device): a WGSL file's
//! SPIR-V as the library's kernels reach the driver, to read beside another compiler's;
//! `-- cm2-parts` (then nothing else): the library's workgroup-scope kernel at 4096³ and
//! 8192³ (or `SWIZZLE_TC_SHAPES`) beside its parts, each timed alone: A's loads only, B's
//! only, the multiply-adds only, with their loads from the L1 cache or before the loop
//! (`tc_cm2::parts`); the `tc_cm2` designs `SWIZZLE_TC_VARIANTS` names, whole and as
//! multiply-adds alone.

use swizzle::gemm;
use swizzle::gpu::{
    Accumulate, DirectOperands, Gemm, GpuError, KLoop, Operands, Stored, TensorCores, f16,
};
use swizzle::raster::Raster;

swizzle::layout! {
    /// Design step 2: four subgroups (2 × 2) of 4 × 4 fragments each (64 × 64 of C per
    /// subgroup: 8 fragment loads for 16 multiply-adds per 16 of k), 128 threads.
    pub threads TcFragments4 {
        tile [fi: 8, fj: 8];
        unmerge fi -> [wr: 2, fr: 4];
        unmerge fj -> [wc: 2, fc: 4];
        threads [wr, wc];
        values [fr, fc];
    }
    /// A's loads for 128 threads: eight `vec4<f16>`s each, 16 rows apart.
    pub threads TcALoads128 {
        tile [m: 128, k: 32];
        unmerge m -> [mr: 8, mh: 2, ml: 8];
        unmerge k -> [kv: 8, v: 4];
        merge [mh, kv, ml] -> thread;
        threads [thread];
        values [mr, v];
    }
    /// B's loads for 128 threads: eight `vec4<f16>`s each, 4 rows apart.
    pub threads TcBLoads128 {
        tile [k: 32, n: 128];
        unmerge k -> [kr: 8, ks: 4];
        unmerge n -> [nv: 32, v: 4];
        merge [ks, nv] -> thread;
        threads [thread];
        values [kr, v];
    }
    /// Four subgroups' stages.
    pub layout TcCStage4 {
        memory [s: 4, r: 16, c: 16] strides [320, 20, 1];
        coords [s, r, c];
    }


    /// Design step 4: the library's 256 × 128 tile and fragments with k in steps of 16,
    /// double-buffered (two copies of both tiles fit 48 KiB at this depth). A's tile rows
    /// padded to 24 f16 (12 words: eight rows on banks 0, 12, 24, 4, 16, 28, 8, 20).
    pub layout TcA16 {
        memory [m: 256, k: 16] strides [24, 1];
        coords [m, k];
    }
    pub layout TcB16 {
        memory [k: 16, n: 128] strides [136, 1];
        coords [k, n];
    }
    pub threads TcALoads16 {
        tile [m: 256, k: 16];
        unmerge m -> [mr: 4, mh: 8, ml: 8];
        unmerge k -> [kv: 4, v: 4];
        merge [mh, kv, ml] -> thread;
        threads [thread];
        values [mr, v];
    }
    pub threads TcBLoads16 {
        tile [k: 16, n: 128];
        unmerge k -> [kr: 2, ks: 8];
        unmerge n -> [nv: 32, v: 4];
        merge [ks, nv] -> thread;
        threads [thread];
        values [kr, v];
    }

    /// Design step 7: 64 of k per step (the tiles' k; with A straight from memory only
    /// B's tile is in workgroup memory, 17 KiB). B's rows padded to 136 f16 as the
    /// library's, A's to 72 (36 words: eight rows on banks 0, 4, …, 28).
    pub layout TcA64 {
        memory [m: 256, k: 64] strides [72, 1];
        coords [m, k];
    }
    pub layout TcB64 {
        memory [k: 64, n: 128] strides [136, 1];
        coords [k, n];
    }
    /// Step 9s: B's 64 × 128 tile (step 7a) loaded in 16-byte moves, four each.
    pub threads TcBLoads64Wide {
        tile [k: 64, n: 128];
        unmerge k -> [kr: 4, ks: 16];
        unmerge n -> [nv: 16, v: 8];
        merge [ks, nv] -> thread;
        threads [thread];
        values [kr, v];
    }
    pub threads TcALoads64 {
        tile [m: 256, k: 64];
        unmerge m -> [mr: 16, mh: 2, ml: 8];
        unmerge k -> [kv: 16, v: 4];
        merge [mh, kv, ml] -> thread;
        threads [thread];
        values [mr, v];
    }
    pub threads TcBLoads64 {
        tile [k: 64, n: 128];
        unmerge k -> [kr: 8, ks: 8];
        unmerge n -> [nv: 32, v: 4];
        merge [ks, nv] -> thread;
        threads [thread];
        values [kr, v];
    }

    // Design r: NVIDIA's per-subgroup reference kernel's shape (`vk_cooperative_matrix_perf`'s
    // `shmem` shader with f32 sums: 16 of k a step, both operands through tiles whose next
    // step's loads are held in registers, eight subgroups 2 high and 4 wide) from layouts:
    // the library's tiles (`gemm::TcA`, `gemm::TcB`), fragments (`gemm::TcFragments`, at
    // 128 × 256) and 16-byte moves (r2w is the library's kernel), and these.

    /// A's loads for 256 threads over 128 × 16: two `vec4<f16>`s each, 64 rows apart.
    pub threads TcALoads128x16 {
        tile [m: 128, k: 16];
        unmerge m -> [mr: 2, mh: 8, ml: 8];
        unmerge k -> [kv: 4, v: 4];
        merge [mh, kv, ml] -> thread;
        threads [thread];
        values [mr, v];
    }
    /// B's loads over 16 × 128 in 16-byte moves, one a thread.
    pub threads TcBLoads16Wide {
        tile [k: 16, n: 128];
        unmerge n -> [nv: 16, v: 8];
        merge [k, nv] -> thread;
        threads [thread];
        values [v];
    }
    /// B's loads over 16 × 256: four `vec4<f16>`s each, 4 rows apart.
    pub threads TcBLoads16x256 {
        tile [k: 16, n: 256];
        unmerge k -> [kr: 4, ks: 4];
        unmerge n -> [nv: 64, v: 4];
        merge [ks, nv] -> thread;
        threads [thread];
        values [kr, v];
    }
}

/// The library's A tile (128 × 16) and B tile (16 × 256): the reference's.
static TC_A128X16: swizzle::ir::Descriptor = gemm::TcA::DESCRIPTOR;
static TC_B16X256: swizzle::ir::Descriptor = gemm::TcB::DESCRIPTOR;
static TC_A64: swizzle::ir::Descriptor = TcA64::DESCRIPTOR;
static TC_B64: swizzle::ir::Descriptor = TcB64::DESCRIPTOR;
static TC_A16: swizzle::ir::Descriptor = TcA16::DESCRIPTOR;
static TC_B16: swizzle::ir::Descriptor = TcB16::DESCRIPTOR;
static TC_C4: swizzle::ir::Descriptor = TcCStage4::DESCRIPTOR;

#[path = "../../tests/common/stored.rs"]
mod stored;
#[path = "../../benches/common/tensor_gemm.rs"]
mod tensor_gemm;
#[path = "../../benches/common/wall.rs"]
mod wall;
use swizzle_lab::spv_memory::{self, Accesses};
use swizzle_lab::tc_step1::{self, TC_A128};
use swizzle_lab::tc_wide::{step9, step9_tiled};
use swizzle_lab::{driver_stats, tc_cm2, tc_former, tc_probe, tc_split, tc_stream};
use tensor_gemm::{cublas, env, errors, operand, shapes};

/// `operands` straight from memory, the others through their tiles at every shape (no
/// other layouts to fall back to).
/// Design r1: NVIDIA's per-subgroup reference kernel's shape from layouts, 128 × 128 of C
/// and 16 of k a step.
fn reference_128() -> TensorCores<'static> {
    TensorCores {
        a_tile: &TC_A128X16,
        b_tile: &TC_B16,
        a_loads: TcALoads128x16::THREAD_VALUES,
        b_loads: TcBLoads16::THREAD_VALUES,
        fragments: tc_step1::TcFragments1::THREAD_VALUES,
        k_loop: KLoop::Prefetched,
        ..tc_former::step5()
    }
}

/// Design r2: r1 at 128 × 256 of C.
fn reference_128x256() -> TensorCores<'static> {
    TensorCores {
        b_tile: &TC_B16X256,
        b_loads: TcBLoads16x256::THREAD_VALUES,
        fragments: gemm::TcFragments::THREAD_VALUES,
        ..reference_128()
    }
}

fn from_memory(operands: DirectOperands, prefetch: bool) -> KLoop<'static> {
    KLoop::Direct {
        operands,
        prefetch,
        otherwise: None,
    }
}

/// `tc` with its next step's loads issued after this step's multiply-adds (its fallback
/// unchanged).
fn without_prefetch(tc: TensorCores<'static>) -> TensorCores<'static> {
    let k_loop = match tc.k_loop {
        KLoop::Prefetched => KLoop::Plain,
        KLoop::Direct {
            operands,
            otherwise,
            ..
        } => KLoop::Direct {
            operands,
            prefetch: false,
            otherwise,
        },
        other => other,
    };
    TensorCores { k_loop, ..tc }
}

/// The library's f16 GEMM with A stored as `a_order` and the workgroup-scope matrices of
/// `tile` and `unroll` (the library's raster).
fn workgroup_variant(a_order: Stored, tile: [usize; 3], unroll: usize) -> Gemm<'static> {
    let library = gemm::config_for(a_order, Stored::RowMajor);
    Gemm {
        operands: Operands::F16,
        tensor_cores: library.tensor_cores.map(|tc| TensorCores {
            workgroup: Some(swizzle::gpu::WorkgroupMatrices {
                tile,
                unroll,
                ..gemm::workgroup_matrices()
            }),
            ..tc
        }),
        ..library
    }
}

/// The largest error of C against the CPU over the whole of C or 4096 samples.
fn error(c: &[f32], a: &[f32], b: &[f32], shape: [usize; 3]) -> f32 {
    errors(c, a, b, shape).0
}

/// `gemm` summing in f16 on workgroup-scope matrices (a labelled variant: a coarser C).
fn f16_sums(gemm: Gemm<'static>) -> Gemm<'static> {
    Gemm {
        tensor_cores: gemm.tensor_cores.map(|tc| TensorCores {
            accumulate: Accumulate::F16,
            ..tc
        }),
        ..gemm
    }
}

/// Parts of a design's kernel for a profile (their C is wrong: timed only): without the
/// multiply-adds, and without the k-loop's fetches from storage (the puts store the
/// prologue's registers or fragments again).
fn parts(wgsl: &str) -> [(&'static str, String); 2] {
    let keep = |drop: &dyn Fn(&str) -> bool| -> String {
        wgsl.lines()
            .filter(|l| !drop(l.trim_start()))
            .map(|l| format!("{l}\n"))
            .collect()
    };
    [
        (
            "without the multiply-adds",
            keep(&|l| l.contains("coopMultiplyAdd")),
        ),
        (
            "without the k-loop's fetches",
            keep(&|l| {
                ["ra", "rb", "fa", "fb"].iter().any(|r| l.starts_with(r)) && l.contains("step")
            }),
        ),
    ]
}

/// A kernel's code for a shape: WGSL, or `tc_cm2`'s SPIR-V words.
enum Code {
    Wgsl(String),
    /// SPIR-V words for the passthrough route.
    Spirv(Vec<u32>),
    Coopmat2(Vec<u32>),
}

/// A kernel's code and dispatch (`[x, y]` workgroups) for a shape.
type KernelAt = dyn Fn([usize; 3]) -> (Code, [u32; 2]);

/// A design of `-- stream`: its label, whether its WGSL goes to the driver as SPIR-V
/// (`tc_split::spirv`, for the WGSL that naga's uniformity analysis rejects), and its
/// kernel.
type Design = (String, bool, Box<KernelAt>);

/// `code` run on `groups` (`tc_probe::run_and_time`), WGSL through SPIR-V where
/// `passthrough`.
fn run_design(
    code: &Code,
    passthrough: bool,
    groups: [u32; 2],
    shape: [usize; 3],
    (a, b): (&[f16], &[f16]),
    timed: bool,
) -> Result<(Vec<f32>, Option<f64>), String> {
    let words;
    let shader = match code {
        Code::Wgsl(wgsl) if !passthrough => tc_probe::Shader::Wgsl(wgsl),
        Code::Wgsl(wgsl) => {
            words = tc_split::spirv(wgsl)?;
            tc_probe::Shader::Spirv(&words)
        }
        Code::Spirv(words) => tc_probe::Shader::Spirv(words),
        Code::Coopmat2(words) => tc_probe::Shader::Coopmat2(words),
    };
    tc_probe::run_and_time(shader, groups, shape, a, b, timed)
}

/// The library's fragment kernel at `shape` and its dispatch (128 × 256 tiles of C).
fn library_fragments([m, n, k]: [usize; 3]) -> (String, [u32; 2]) {
    let wgsl = gemm::tensor_cores().wgsl([m, n, k]).expect("library WGSL");
    (wgsl, [(n / 256) as u32, (m / 128) as u32])
}

/// `wgsl`'s SPIR-V as wgpu-hal writes it (no bounds checks), its workgroup `accesses`
/// marked as glslang marks them where given.
fn naga_words(wgsl: &str, accesses: Option<Accesses>) -> Vec<u32> {
    let words = driver_stats::spirv_as_wgpu_writes(wgsl, false).expect("SPIR-V");
    match accesses {
        Some(accesses) => spv_memory::mark_workgroup_accesses(&words, accesses).expect("marked"),
        None => words,
    }
}

/// `-- stream`: the streaming designs a and b (`src/tc_stream.rs`), d (`src/tc_split.rs`,
/// producer and consumer subgroups, run as SPIR-V; "a1s" is a1 on that route) and the
/// library's kernel, on one harness (`tc_probe::run_and_time`, wall clock): each checked
/// exact against the CPU at 256 × 256 × 128 (the whole of C) and at each timed shape (4096
/// sampled elements) before it is timed at 4096³ and 8192³.
fn stream(hgemm: &str) -> Result<(), GpuError> {
    // The timed shapes: `SWIZZLE_TC_SHAPES` where given, else 4096³ and 8192³.
    let timed_shapes = match env("SWIZZLE_TC_SHAPES") {
        Some(_) => shapes(),
        None => vec![[4096; 3], [8192; 3]],
    };
    let half = |v: &[f32]| -> Vec<f16> { v.iter().map(|&x| f16::from_f32(x)).collect() };
    let mut designs: Vec<Design> = Vec::new();
    designs.push((
        "8: the library's fragment kernel".into(),
        false,
        Box::new(|shape: [usize; 3]| {
            let (wgsl, groups) = library_fragments(shape);
            (Code::Wgsl(wgsl), groups)
        }),
    ));
    // The same kernel as naga's SPIR-V passed through (as wgpu-hal writes it), bare and with
    // glslang's memory operands on its workgroup accesses (`spv_memory`).
    for (tag, accesses) in [
        ("s", None),
        ("c", Some(Accesses::Cooperative)),
        ("a", Some(Accesses::All)),
    ] {
        designs.push((
            format!("8{tag}: the library's fragment kernel as SPIR-V, marked: {accesses:?}"),
            false,
            Box::new(move |shape: [usize; 3]| {
                let (wgsl, groups) = library_fragments(shape);
                (Code::Spirv(naga_words(&wgsl, accesses)), groups)
            }),
        ));
        designs.push((
            format!("r1{tag}: r1 as SPIR-V, marked: {accesses:?}"),
            false,
            Box::new(move |[m, n, k]: [usize; 3]| {
                let wgsl = reference_128().wgsl([m, n, k]).expect("r1 WGSL");
                let words = naga_words(&wgsl, accesses);
                (Code::Spirv(words), [(n / 128) as u32, (m / 128) as u32])
            }),
        ));
    }
    // Any kernel's WGSL from a file (`SWIZZLE_TC_WGSL`: `PATH` and the C tile it computes
    // per workgroup, `PATH:MxN`), `{{M}}`, `{{N}}` and `{{K}}` replaced by the shape: a
    // kernel written outside the repository, timed on this harness beside the designs.
    if let Some((path, tile)) = env("SWIZZLE_TC_WGSL")
        .as_deref()
        .and_then(|f| f.split_once(':'))
    {
        let text = std::fs::read_to_string(path).expect("SWIZZLE_TC_WGSL's file");
        let (tm, tn) = tile.split_once('x').expect("SWIZZLE_TC_WGSL's tile: MxN");
        let [tm, tn]: [usize; 2] = [tm.parse().expect("M"), tn.parse().expect("N")];
        designs.push((
            format!("file: {path}"),
            false,
            Box::new(move |[m, n, k]: [usize; 3]| {
                let wgsl = text
                    .replace("{{M}}", &m.to_string())
                    .replace("{{N}}", &n.to_string())
                    .replace("{{K}}", &k.to_string());
                (Code::Wgsl(wgsl), [(n / tn) as u32, (m / tm) as u32])
            }),
        ));
    }
    designs.push((
        "r1: the reference's 128×128×16 from layouts".into(),
        false,
        Box::new(|[m, n, k]: [usize; 3]| {
            let wgsl = reference_128().wgsl([m, n, k]).expect("r1 WGSL");
            (Code::Wgsl(wgsl), [(n / 128) as u32, (m / 128) as u32])
        }),
    ));
    for (label, design) in tc_stream::designs() {
        println!(
            "{label}: {} bytes of workgroup memory",
            design.workgroup_bytes()
        );
        let kernel = move |shape: [usize; 3]| {
            (
                Code::Wgsl(design.wgsl(shape)),
                design.groups(shape[0], shape[1]),
            )
        };
        if label.starts_with("a1:") {
            designs.push((
                "a1s: a1 as SPIR-V passed through (design d's route)".into(),
                true,
                Box::new(kernel),
            ));
        }
        designs.push((label.into(), false, Box::new(kernel)));
    }
    for (label, design) in tc_split::designs() {
        println!(
            "{label}: {} bytes of workgroup memory, {} invocations",
            design.workgroup_bytes(),
            design.threads()
        );
        designs.push((
            label.into(),
            true,
            Box::new(move |shape: [usize; 3]| {
                (
                    Code::Wgsl(design.wgsl(shape)),
                    design.groups(shape[0], shape[1]),
                )
            }),
        ));
    }
    for (label, design) in tc_cm2::designs() {
        designs.push((
            label.into(),
            false,
            Box::new(move |[m, n, k]: [usize; 3]| {
                let words = tc_cm2::words(&design, [m, n, k]).expect("the design's words");
                (
                    Code::Coopmat2(words),
                    design.groups([m, n]).map(|g| g as u32),
                )
            }),
        ));
    }
    let key = |label: &str| -> String {
        let key = label.split(':').next().unwrap_or(label);
        key.trim_end_matches(" (library)").to_owned()
    };
    let wanted = env("SWIZZLE_TC_VARIANTS");
    println!(
        "\n| kernel | 4096³ TFLOP/s | × cuBLAS | 8192³ TFLOP/s | × cuBLAS |\n|---|---:|---:|---:|---:|"
    );
    for (label, passthrough, design) in &designs {
        if wanted
            .as_ref()
            .is_some_and(|w| !w.split(',').any(|w| w.trim() == key(label)))
        {
            continue;
        }
        let mut cells = String::new();
        for shape in std::iter::once([256, 256, 128]).chain(timed_shapes.iter().copied()) {
            let [m, n, k] = shape;
            let (a, b) = (operand(m * k, 1), operand(k * n, 5));
            let (code, groups) = design(shape);
            let timed = m > 256;
            if !timed {
                println!("{label}: dispatch {groups:?} at {shape:?}");
            }
            let ran = run_design(
                &code,
                *passthrough,
                groups,
                shape,
                (&half(&a), &half(&b)),
                timed,
            );
            match ran {
                Err(e) => {
                    println!("{label} at {shape:?}: {e}");
                    cells.push_str(" – | – |");
                    if !timed {
                        break;
                    }
                }
                Ok((c, ms)) => {
                    let err = error(&c, &a, &b, shape);
                    let nan = c.iter().any(|x| x.is_nan());
                    println!("check {m}x{n}x{k} {label}: max error {err}, NaN left: {nan}");
                    if err != 0.0 || nan {
                        println!("WRONG RESULT: {label} at {shape:?}");
                        cells.push_str(" wrong | – |");
                        break;
                    }
                    if let Some(ms) = ms {
                        let t = 2.0 * (m * n * k) as f64 / (ms * 1e-3) / 1e12;
                        let ratio = cublas(hgemm, "hgemm", shape)
                            .map_or("–".into(), |h| format!("{:.2}×", t / h));
                        println!("time {m}x{n}x{k} {label}: {ms:.3} ms, {t:.1} TFLOP/s, {ratio}");
                        cells.push_str(&format!(" {t:.1} | {ratio} |"));
                    }
                }
            }
        }
        println!("| {label} |{cells}");
    }
    // Profiles (timed only; their C is wrong): the designs `SWIZZLE_TC_PROFILE` names.
    let profiled = env("SWIZZLE_TC_PROFILE").unwrap_or_default();
    for (label, passthrough, design) in &designs {
        let key = key(label);
        if !profiled.split(',').any(|w| w.trim() == key) {
            continue;
        }
        for n in [4096, 8192] {
            let shape = [n, n, n];
            let (a, b) = (half(&operand(n * n, 1)), half(&operand(n * n, 5)));
            let (Code::Wgsl(wgsl), groups) = design(shape) else {
                println!("profile {n} {key}: WGSL designs only");
                continue;
            };
            for (part, wgsl) in parts(&wgsl) {
                let code = Code::Wgsl(wgsl);
                match run_design(&code, *passthrough, groups, shape, (&a, &b), true) {
                    Ok((_, Some(ms))) => println!(
                        "profile {n} {key} {part}: {ms:.3} ms ({:.1} TFLOP/s equivalent)",
                        2.0 * (n as f64).powi(3) / (ms * 1e-3) / 1e12
                    ),
                    Ok(_) => {}
                    Err(e) => println!("profile {n} {key} {part}: {e}"),
                }
            }
        }
    }
    Ok(())
}

/// `-- stats`: what the driver made of the workgroup-scope kernels at 4096³ (registers,
/// shared and local memory: `src/driver_stats.rs`), the library's and the designs the
/// tables above measured beside it, spills suspected where they collapsed.
/// `-- cm2-parts`: where the workgroup-scope kernel's time goes (`tc_cm2::parts`), each
/// part timed alone on the designs' harness, by the GPU's clock and the wall clock; the
/// whole kernel's C is checked on samples.
fn cm2_parts() {
    // The library's kernel in all its parts; the designs `SWIZZLE_TC_VARIANTS` names (by
    // label up to its ':') whole and as multiply-adds alone.
    let wanted = env("SWIZZLE_TC_VARIANTS").unwrap_or_default();
    let mut designs = vec![("library", gemm::workgroup_matrices(), usize::MAX)];
    designs.extend(
        tc_cm2::designs()
            .into_iter()
            .filter(|(label, _)| {
                let key = label.split(':').next().unwrap_or(label);
                wanted.split(',').any(|w| w.trim() == key)
            })
            .map(|(label, design)| (label, design, 1)),
    );
    let timed_shapes = match env("SWIZZLE_TC_SHAPES") {
        Some(_) => shapes(),
        None => vec![[4096; 3], [8192; 3]],
    };
    let half = |v: &[f32]| -> Vec<f16> { v.iter().map(|&x| f16::from_f32(x)).collect() };
    for shape in timed_shapes {
        let [m, n, k] = shape;
        let (a, b) = (operand(m * k, 1), operand(k * n, 5));
        for (design_label, design, loads) in &designs {
            let words = tc_cm2::words(design, shape).expect("the design's words");
            let groups = design.groups([m, n]).map(|g| g as u32);
            let parts = tc_cm2::parts(&words);
            let last = parts.len() - 1;
            // The whole kernel, the parts with loads (all of them for the library), and
            // the multiply-adds on slices loaded before the loop.
            let picked = parts
                .into_iter()
                .enumerate()
                .filter(|(i, _)| *i == 0 || *i == last || i <= loads);
            for (_, (label, words)) in picked {
                let ran = tc_probe::run_and_clock(
                    tc_probe::Shader::Coopmat2(&words),
                    groups,
                    shape,
                    &half(&a),
                    &half(&b),
                    true,
                );
                let design_label = design_label.split(':').next().unwrap_or(design_label);
                match ran {
                    Ok((c, Some(times))) => {
                        let checked = match label {
                            "whole kernel" => {
                                format!(", largest error {}", errors(&c, &a, &b, shape).0)
                            }
                            _ => String::new(),
                        };
                        let clocks = tc_probe::clocks(shape, times);
                        println!(
                            "cm2 parts {m}x{n}x{k}, {design_label}: {label}: {clocks}{checked}"
                        );
                    }
                    Ok((_, None)) => unreachable!("timed runs return a time"),
                    Err(e) => println!("cm2 parts {m}x{n}x{k}, {design_label}: {label}: {e}"),
                }
            }
        }
    }
}

fn driver_statistics() {
    use swizzle::gpu::{Accumulate, WorkgroupMatrices};
    let driver = match driver_stats::Driver::open() {
        Ok(driver) => driver,
        Err(why) => return println!("no driver statistics: {why}"),
    };
    let library = gemm::workgroup_matrices();
    let design = |tile, unroll| WorkgroupMatrices {
        tile,
        unroll,
        ..library
    };
    let rows = [Stored::RowMajor; 2];
    let a_transposed = [Stored::Transposed, Stored::RowMajor];
    let b_transposed = [Stored::RowMajor, Stored::Transposed];
    let (f32_sums, f16_sums) = (Accumulate::F32, Accumulate::F16);
    let kernels = [
        ("10 (library): 128×256×32", library, rows, f32_sums),
        ("10a: A stored transposed", library, a_transposed, f32_sums),
        ("10b: B stored transposed", library, b_transposed, f32_sums),
        ("10e: 64 of k", design([128, 256, 64], 2), rows, f32_sums),
        ("e2: 128×128×64", design([128, 128, 64], 4), rows, f32_sums),
        (
            "e3: 256×128×64 (0.14×)",
            design([256, 128, 64], 4),
            rows,
            f32_sums,
        ),
        (
            "e7: 256×256×32 (0.05×)",
            design([256, 256, 32], 4),
            rows,
            f32_sums,
        ),
        (
            "e21: 128×256×128 (0.09×)",
            design([128, 256, 128], 2),
            rows,
            f32_sums,
        ),
        (
            "10k: 256×256×32, f16 sums",
            design([256, 256, 32], 8),
            rows,
            f16_sums,
        ),
        ("10h: 128×256×32, f16 sums", library, rows, f16_sums),
    ];
    println!("| kernel (4096³) | driver statistics |");
    println!("|---|---|");
    for (label, design, orders, sums) in kernels {
        let statistics = design
            .spirv([4096; 3], orders, Operands::F16, sums)
            .map_err(|error| error.to_string())
            .and_then(|words| driver.spirv(&words, c"main"));
        driver.print(label, statistics);
    }

    println!("| fragment kernel (4096³) | driver statistics |");
    println!("|---|---|");
    for (label, tc) in [
        ("8 (library, fragments)", gemm::tensor_cores()),
        (
            "8f (the former library's: A from memory)",
            tc_former::step8(),
        ),
        ("5 (both tiles, 32 of k)", tc_former::step5()),
        ("r1 (the reference's 128×128×16)", reference_128()),
        ("r2 (the reference's 128×256×16)", reference_128x256()),
    ] {
        let statistics = tc
            .wgsl([4096; 3])
            .map_err(|error| error.to_string())
            .and_then(|wgsl| driver.wgsl(&wgsl, false));
        driver.print(label, statistics);
    }
    reference_statistics(&driver);
}

/// What the driver made of NVIDIA's per-subgroup reference kernel
/// (`vk_cooperative_matrix_perf`'s `shmem` shader, f16 → f32, from the build
/// `SWIZZLE_VK_COOPMAT_PERF` names: `benches/vk_coopmat_perf.py`) at 4096³, B row-major, at
/// each tile its program tries for f32 sums, specialized as the program specializes it.
fn reference_statistics(driver: &driver_stats::Driver) {
    let Some(folder) = env("SWIZZLE_VK_COOPMAT_PERF") else {
        return println!("no reference statistics: SWIZZLE_VK_COOPMAT_PERF is not set");
    };
    let path = std::path::Path::new(&folder).join("shaders/shmemfp16_fp32.spv");
    // ash's reader refuses a file that is not whole words or lacks SPIR-V's magic number.
    let read = std::fs::File::open(&path).and_then(|mut file| ash::util::read_spv(&mut file));
    let words = match read {
        Ok(words) => words,
        Err(why) => return println!("no reference statistics: {}: {why}", path.display()),
    };
    let n = 4096;
    for [tile_m, tile_n] in [[128, 128], [128, 256], [256, 128]] {
        let tile_k = 16;
        // The program's specialization data, constant ids 0 to 21 in order.
        let constants = [
            16,
            16,
            16,
            tile_m,
            tile_n,
            tile_k,
            n,
            n,
            n,
            n,
            n,
            2.0f32.to_bits(),
            3.0f32.to_bits(),
            0,
            tile_k,
            tile_m,
            tile_n,
            tile_k,
            256,
            n,
            n,
            32,
        ];
        let statistics =
            driver.specialized(&words, c"main", &constants, driver_stats::Bindings::Uniform);
        driver.print(
            &format!("NVIDIA shmem {tile_m}×{tile_n}×{tile_k}"),
            statistics,
        );
    }
}

fn main() -> Result<(), GpuError> {
    if let [_, mode, wgsl, out, ..] = &std::env::args().collect::<Vec<_>>()[..]
        && mode == "spirv"
    {
        // A WGSL file's SPIR-V as the library's kernels reach the driver (naga, SPIR-V 1.6,
        // no bounds checks: `BoundsChecks::Off`), for reading beside another compiler's.
        let text = std::fs::read_to_string(wgsl).expect("the WGSL file");
        let accesses = match std::env::var("SWIZZLE_TC_MARK").as_deref() {
            Ok("cooperative") => Some(Accesses::Cooperative),
            Ok("all") => Some(Accesses::All),
            _ => None,
        };
        let words = naga_words(&text, accesses);
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        std::fs::write(out, bytes).expect("the SPIR-V file");
        return Ok(());
    }
    if std::env::args().any(|a| a == "wgsl") {
        // The library's fragment kernels as the driver receives them (no device needed).
        for tc in [
            gemm::tensor_cores(),
            gemm::tensor_cores_tiled(),
            reference_128(),
        ] {
            println!("{}", tc.wgsl([4096; 3])?);
        }
        return Ok(());
    }
    let Some(gpu) = tensor_gemm::device() else {
        return Ok(());
    };
    if std::env::args().any(|a| a == "stats") {
        driver_statistics();
        return Ok(());
    }
    if std::env::args().any(|a| a == "probe") {
        tc_probe::run_all();
    }
    if std::env::args().any(|a| a == "profile") {
        for n in [4096, 8192] {
            // Step 3's kernel (plain copies: the profile moves them out of the k-loop).
            let step3 = TensorCores {
                k_loop: KLoop::Plain,
                ..tc_former::step5()
            };
            let wgsl = step3.wgsl([n, n, n])?;
            tc_probe::profile(n, [(n / 128) as u32, (n / 256) as u32], &wgsl);
        }
    }
    if std::env::args().any(|a| a == "ceiling") {
        // What the path allows: parts of the library's kernel shape, each timed alone.
        for n in [4096, 8192] {
            let mut kernels: Vec<(String, String)> = tc_probe::ceiling_kernels(n)
                .into_iter()
                .map(|(label, wgsl)| (label.to_owned(), wgsl))
                .collect();
            for (label, tc) in [
                ("8 (fragment kernel)", gemm::tensor_cores()),
                ("9 (step 8, 16-byte copies)", step9()),
                ("5 (both tiles, 32 of k)", tc_former::step5()),
                ("9t (step 5, 16-byte copies)", step9_tiled()),
            ] {
                kernels.extend(tc_probe::library_parts(label, &tc.wgsl([n, n, n])?));
            }
            tc_probe::ceiling(n, kernels);
        }
        return Ok(());
    }
    if std::env::args().any(|a| a == "cm2-parts") {
        cm2_parts();
        return Ok(());
    }
    if std::env::args().any(|a| a == "stream") {
        stream(
            &env("SWIZZLE_HGEMM_RESULTS")
                .and_then(|p| std::fs::read_to_string(p).ok())
                .unwrap_or_default(),
        )?;
        return Ok(());
    }
    if std::env::args().any(|a| a == "probe-only") {
        tc_probe::run_all();
        return Ok(());
    }
    let library = tc_former::step5();
    let step1 = tc_step1::step1();
    let step2 = TensorCores {
        a_tile: &TC_A128,
        c_stage: &TC_C4,
        a_loads: TcALoads128::THREAD_VALUES,
        b_loads: TcBLoads128::THREAD_VALUES,
        fragments: TcFragments4::THREAD_VALUES,
        k_loop: KLoop::DoubleBuffered,
        ..library
    };
    let step4 = TensorCores {
        a_tile: &TC_A16,
        b_tile: &TC_B16,
        a_loads: TcALoads16::THREAD_VALUES,
        b_loads: TcBLoads16::THREAD_VALUES,
        k_loop: KLoop::DoubleBuffered,
        ..library
    };
    let step7 = TensorCores {
        a_tile: &TC_A64,
        b_tile: &TC_B64,
        a_loads: TcALoads64::THREAD_VALUES,
        b_loads: TcBLoads64::THREAD_VALUES,
        ..library
    };
    let step8 = tc_former::step8();
    let (r1, r2) = (reference_128(), reference_128x256());
    // The fragment kernels: without workgroup-scope matrices, which run instead where the
    // device has them (variant 10).
    let tc = |label, tensor_cores: TensorCores<'static>| {
        (
            label,
            Gemm {
                operands: Operands::F16,
                tensor_cores: Some(TensorCores {
                    workgroup: None,
                    ..tensor_cores
                }),
                ..gemm::config()
            },
        )
    };
    let variants: Vec<(&str, Gemm)> = vec![
        (
            "10 (library): workgroup-scope matrices, 128×256 of C, 32 of k, bands of 8 rows",
            Gemm {
                operands: Operands::F16,
                ..gemm::config()
            },
        ),
        (
            "10a: step 10 with A stored transposed (k × m)",
            Gemm {
                operands: Operands::F16,
                ..gemm::config_for(Stored::Transposed, Stored::RowMajor)
            },
        ),
        (
            "10c: step 10a at 64 of k, 4 steps an iteration",
            workgroup_variant(Stored::Transposed, [128, 256, 64], 4),
        ),
        (
            "10d: step 10a at 256×128 of C",
            workgroup_variant(Stored::Transposed, [256, 128, 32], 8),
        ),
        (
            "10e: step 10 at 64 of k, 2 steps an iteration",
            workgroup_variant(Stored::RowMajor, [128, 256, 64], 2),
        ),
        (
            "10h: step 10 summing in f16 (a coarser C: each step's sums rounded to f16)",
            f16_sums(Gemm {
                operands: Operands::F16,
                ..gemm::config()
            }),
        ),
        (
            "10i: step 10h with A stored transposed",
            f16_sums(Gemm {
                operands: Operands::F16,
                ..gemm::config_for(Stored::Transposed, Stored::RowMajor)
            }),
        ),
        (
            "10j: step 10h at 64 of k, 4 steps an iteration",
            f16_sums(workgroup_variant(Stored::RowMajor, [128, 256, 64], 4)),
        ),
        (
            "10k (library, f16 sums): step 10h at 256×256 of C (`gemm::tensor_cores_f16_sums()`)",
            Gemm {
                operands: Operands::F16,
                tensor_cores: Some(gemm::tensor_cores_f16_sums()),
                ..gemm::config()
            },
        ),
        (
            "10l: step 10h at 256×128 of C",
            f16_sums(workgroup_variant(Stored::RowMajor, [256, 128, 32], 8)),
        ),
        (
            "10m: step 10k with A stored transposed",
            Gemm {
                operands: Operands::F16,
                tensor_cores: Some(gemm::tensor_cores_f16_sums()),
                ..gemm::config_for(Stored::Transposed, Stored::RowMajor)
            },
        ),
        (
            "10n: step 10k at 64 of k, 4 steps an iteration",
            f16_sums(workgroup_variant(Stored::RowMajor, [256, 256, 64], 4)),
        ),
        (
            "10b: step 10 with B stored transposed (n × k)",
            Gemm {
                operands: Operands::F16,
                ..gemm::config_for(Stored::RowMajor, Stored::Transposed)
            },
        ),
        tc(
            "r1: the reference's 128×128×16, loads held in registers",
            r1,
        ),
        tc(
            "r2: the reference's 128×256×16, loads held in registers",
            r2,
        ),
        tc(
            "r1w: r1 in 16-byte moves",
            TensorCores {
                a_loads: gemm::TcALoads::THREAD_VALUES,
                b_loads: TcBLoads16Wide::THREAD_VALUES,
                ..r1
            },
        ),
        tc(
            "r2w: r2 in 16-byte moves (the library's fragment kernel)",
            gemm::tensor_cores_tiled(),
        ),
        tc(
            "r1d: r1 double-buffered",
            TensorCores {
                k_loop: KLoop::DoubleBuffered,
                ..r1
            },
        ),
        tc(
            "r2d: r2 double-buffered",
            TensorCores {
                k_loop: KLoop::DoubleBuffered,
                ..r2
            },
        ),
        tc(
            "1: 8 subgroups × 4×2 fragments, 128×128×32, double-buffered",
            step1,
        ),
        tc(
            "1b: step 1, one buffer",
            TensorCores {
                k_loop: KLoop::Plain,
                ..step1
            },
        ),
        tc(
            "2: 4 subgroups × 4×4 fragments, 128×128×32, double-buffered",
            step2,
        ),
        tc(
            "2b: step 2, grouped order (8)",
            TensorCores {
                order: Raster::Grouped(8),
                ..step2
            },
        ),
        tc(
            "3: 8 subgroups × 4×4 fragments, 256×128×32, one buffer",
            library,
        ),
        tc(
            "3b: step 3, grouped order (8)",
            TensorCores {
                order: Raster::Grouped(8),
                k_loop: KLoop::Plain,
                ..library
            },
        ),
        tc("4: step 3 with k in steps of 16, double-buffered", step4),
        tc(
            "5: step 3, the next step's loads held in registers (the library's before r1w)",
            library,
        ),
        tc(
            "5b: step 1b (128×128, one buffer), loads held in registers",
            TensorCores {
                k_loop: KLoop::Prefetched,
                ..step1
            },
        ),
        tc(
            "6: step 5 with A and B straight from memory (no tiles, no barriers)",
            TensorCores {
                k_loop: from_memory(DirectOperands::Both, false),
                ..library
            },
        ),
        tc(
            "6p: step 6, the next step's fragments loaded before this step's multiply-adds",
            TensorCores {
                k_loop: from_memory(DirectOperands::Both, true),
                ..library
            },
        ),
        tc(
            "6q: step 6p with 16 of k per step",
            TensorCores {
                k_loop: from_memory(DirectOperands::Both, true),
                ..step4
            },
        ),
        tc(
            "6a: step 5 with A from memory, B's tile",
            TensorCores {
                k_loop: from_memory(DirectOperands::A, true),
                ..library
            },
        ),
        tc(
            "6b: step 5 with B from memory, A's tile",
            TensorCores {
                k_loop: from_memory(DirectOperands::B, true),
                ..library
            },
        ),
        tc(
            "6c: step 2 (4 subgroups × 4×4, 128×128) from memory, fragments prefetched",
            TensorCores {
                k_loop: from_memory(DirectOperands::Both, true),
                ..step2
            },
        ),
        tc(
            "6d: step 1 (8 subgroups × 4×2, 128×128) from memory, fragments prefetched",
            TensorCores {
                k_loop: from_memory(DirectOperands::Both, true),
                ..step1
            },
        ),
        tc(
            "7: step 6 with 64 of k per step",
            TensorCores {
                k_loop: from_memory(DirectOperands::Both, false),
                ..step7
            },
        ),
        tc(
            "7a: step 6a with 64 of k per step (B's tile 64×128)",
            TensorCores {
                k_loop: from_memory(DirectOperands::A, true),
                ..step7
            },
        ),
        tc(
            "7b: step 6b with 64 of k per step (A's tile 256×64)",
            TensorCores {
                k_loop: from_memory(DirectOperands::B, true),
                ..step7
            },
        ),
        tc(
            "7c: step 7a, B's copies not held in registers",
            TensorCores {
                k_loop: from_memory(DirectOperands::A, false),
                ..step7
            },
        ),
        tc(
            "7d: step 7a, grouped order (8)",
            TensorCores {
                k_loop: from_memory(DirectOperands::A, true),
                order: Raster::Grouped(8),
                ..step7
            },
        ),
        tc(
            "8: the library's fragment kernel: A from memory, B's tile 128×128, 128 of k per step",
            step8,
        ),
        tc(
            "8b: step 8, B's copies not held in registers",
            without_prefetch(step8),
        ),
        tc(
            "9: step 8, B's copies in 16-byte moves (mat2x4<f16> from memory)",
            step9(),
        ),
        tc(
            "9b: step 9, B's copies not held in registers",
            without_prefetch(step9()),
        ),
        tc(
            "9s: step 7a (B's tile 64×128), B's copies in 16-byte moves",
            TensorCores {
                k_loop: from_memory(DirectOperands::A, true),
                b_loads: TcBLoads64Wide::THREAD_VALUES,
                ..step7
            },
        ),
        tc(
            "9t: step 5 (both tiles, 32 of k), both copies in 16-byte moves",
            step9_tiled(),
        ),
        (
            "scalar f16",
            Gemm {
                operands: Operands::F16,
                tensor_cores: None,
                ..gemm::config()
            },
        ),
    ];
    tensor_gemm::compare(&gpu, variants)
}
