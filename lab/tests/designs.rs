//! The lab's GEMM designs without a GPU (the root's `tests/tensor_cores.rs` tests the
//! library's kernels): design steps 1 and 9 (`tc_step1`, `tc_wide`: the library's code
//! generator over other layouts) validated by naga and run on the CPU evaluator
//! (`wgsl-eval`) against a CPU GEMM at odd sizes and at a tile multiple; issue 25's
//! hand-written designs (`tc_stream`, `tc_split`) run exactly on the evaluator; and the
//! workgroup-scope designs (`tc_cm2`) on the SPIR-V interpreter.

use half::f16;
use swizzle::gpu::{Accumulate, DirectOperands, KLoop, TensorCores};
use swizzle_lab::{tc_cm2, tc_split, tc_step1, tc_stream, tc_wide};

#[path = "../../tests/common/spirv_eval.rs"]
mod spirv_eval;
#[path = "../../tests/common/stored.rs"]
mod stored;

fn validate(wgsl: &str) -> naga::Module {
    let module = naga::front::wgsl::parse_str(wgsl)
        .unwrap_or_else(|e| panic!("{}\n{wgsl}", e.emit_to_string(wgsl)));
    let capabilities = naga::valid::Capabilities::default()
        | naga::valid::Capabilities::SHADER_FLOAT16
        | naga::valid::Capabilities::COOPERATIVE_MATRIX;
    naga::valid::Validator::new(naga::valid::ValidationFlags::all(), capabilities)
        .validate(&module)
        .unwrap_or_else(|e| panic!("{}\n{wgsl}", e.emit_to_string(wgsl)));
    module
}

const SHAPES: [[usize; 3]; 6] = [
    [77, 50, 38],
    [512, 256, 128],
    [128, 128, 32],
    [256, 384, 96],
    [1, 2, 2],
    [130, 36, 70],
];

/// The designs: step 1 (a 128 × 128 tile, double-buffered) and step 9's 16-byte copies,
/// from memory and through both tiles.
fn variants() -> Vec<TensorCores<'static>> {
    vec![tc_step1::step1(), tc_wide::step9(), tc_wide::step9_tiled()]
}

#[test]
fn sixteen_byte_copies_read_mat2x4_and_write_two_vec4_entries() {
    // Rows of A and B whole runs of 8 f16: the copies move 16 bytes.
    let wgsl = tc_wide::step9_tiled().wgsl([512, 256, 128]).expect("WGSL");
    assert!(
        wgsl.contains("var<storage, read> a: array<mat2x4<f16>>")
            && wgsl.contains("var<storage, read> b: array<mat2x4<f16>>"),
        "{wgsl}"
    );
    assert!(
        wgsl.contains("array<mat2x4<f16>, 4>") && wgsl.contains("][1];"),
        "{wgsl}"
    );
    assert!(wgsl.contains("a_tile0: array<vec4<f16>"), "{wgsl}");
    // A from memory keeps its `vec4<f16>` view; only B's copies widen.
    let wgsl = tc_wide::step9().wgsl([512, 256, 128]).expect("WGSL");
    assert!(
        wgsl.contains("var<storage, read> a: array<vec4<f16>>")
            && wgsl.contains("var<storage, read> b: array<mat2x4<f16>>"),
        "{wgsl}"
    );
    // n = 36 is no multiple of 8: B's copies fall back to `vec4<f16>` moves.
    let wgsl = tc_wide::step9_tiled().wgsl([130, 36, 72]).expect("WGSL");
    assert!(
        wgsl.contains("var<storage, read> a: array<mat2x4<f16>>")
            && wgsl.contains("var<storage, read> b: array<vec4<f16>>"),
        "{wgsl}"
    );
}

#[test]
fn the_designs_validate_with_cooperative_matrices() {
    for tc in variants() {
        for shape in SHAPES {
            validate(&tc.wgsl(shape).expect("WGSL"));
        }
    }
}

/// The workgroup tile `[BM, BN]` of the kernel of `[m, n, k]`: `tc`'s, or what runs
/// otherwise where an operand that `tc` reads straight from memory has tiles crossing the
/// matrix's edge (as `TensorCores::wgsl` chooses; [`evaluate`] checks the grid against the
/// WGSL).
fn tile(tc: &TensorCores, [m, n, k]: [usize; 3]) -> [usize; 2] {
    let (&[bm, bk], &[_, bn]) = (tc.a_tile.shape().as_slice(), tc.b_tile.shape().as_slice()) else {
        panic!("GEMM tiles have two coordinates");
    };
    let a_fits = m.is_multiple_of(bm) && k.is_multiple_of(bk);
    let b_fits = k.is_multiple_of(bk) && n.is_multiple_of(bn);
    match tc.k_loop {
        KLoop::Direct {
            operands,
            otherwise: Some(otherwise),
            ..
        } if !match operands {
            DirectOperands::A => a_fits,
            DirectOperands::B => b_fits,
            DirectOperands::Both => a_fits && b_fits,
        } =>
        {
            tile(otherwise, [m, n, k])
        }
        _ => [bm, bn],
    }
}

/// C of the kernel of `tc` for A (`m × k`) and B (`k × n`), row-major, run by the CPU
/// evaluator; C starts as NaNs so that an element the kernel misses fails the comparison.
fn evaluate(tc: &TensorCores, [m, n, k]: [usize; 3], a: &[f16], b: &[f16]) -> Vec<f32> {
    let wgsl = tc.wgsl([m, n, k]).expect("WGSL");
    let module = validate(&wgsl);
    let [bm, bn] = tile(tc, [m, n, k]);
    let [gm, gn] = [m.div_ceil(bm), n.div_ceil(bn)];
    assert!(
        wgsl.contains(&format!("order(group.y * {gn}u + group.x, {gm}u, {gn}u)")),
        "the kernel's grid is not {gm} × {gn}:\n{wgsl}"
    );
    let mut buffers = wgsl_eval::Buffers::new();
    buffers.bind(0, 0, le_bytes(a));
    buffers.bind(0, 1, le_bytes(b));
    buffers.bind(0, 2, f32::NAN.to_le_bytes().repeat(m * n));
    wgsl_eval::dispatch(&module, "main", [gn as u32, gm as u32, 1], &mut buffers)
        .unwrap_or_else(|e| panic!("{}, {m} × {n} × {k}: {e}", tc.a_tile.name));
    buffers
        .get(0, 2)
        .expect("C")
        .chunks_exact(4)
        .map(|word| f32::from_le_bytes(word.try_into().unwrap()))
        .collect()
}

/// `count` f16 in [-1, 1], of a fixed pseudo-random sequence.
fn operand(count: usize, seed: u64) -> Vec<f16> {
    let mut state = seed;
    (0..count)
        .map(|_| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            f16::from_f32(((state >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0)
        })
        .collect()
}

#[test]
fn every_design_computes_the_gemm_on_the_cpu_evaluator() {
    // Odd sizes (partial tiles on every side, k off the fragments and the steps), and a
    // multiple of every design's tiles (where operands come straight from memory).
    // The last: partial tiles whose rows are whole 16-byte moves (the wide copies' zeros).
    let wide = || vec![tc_wide::step9(), tc_wide::step9_tiled()];
    for (shape @ [m, n, k], variants) in [
        ([37, 50, 29], variants()),
        ([130, 70, 48], variants()),
        ([256, 128, 128], variants()),
        ([130, 72, 40], wide()),
    ] {
        let a = operand(m * k, 1);
        let b = operand(k * n, 2);
        // The CPU GEMM: f32 sums of the f16 products (each exact in f32), in order of k,
        // and the sums of their magnitudes.
        let mut expected = vec![(0f32, 0f64); m * n];
        for i in 0..m {
            for j in 0..n {
                let (sum, magnitude) = &mut expected[i * n + j];
                for p in 0..k {
                    let product = a[i * k + p].to_f32() * b[p * n + j].to_f32();
                    *sum += product;
                    *magnitude += product.abs() as f64;
                }
            }
        }
        for tc in variants {
            let c = evaluate(&tc, shape, &a, &b);
            // The kernel sums the same products in f32 (or f16) in another order: they
            // differ by at most 2 γ_k Σ|a b| (γ_k = k u / (1 - k u), u = 2⁻²⁴) for f32
            // accumulators, plus one f16 rounding (u = 2⁻¹¹) of the running sum per
            // 16-deep multiply-add for f16 ones. An indexing or barrier mistake errs by
            // the size of a product (up to 1).
            let rounding = match tc.accumulate {
                Accumulate::F32 => 0.0,
                Accumulate::F16 => k.div_ceil(16) as f64 * 2f64.powi(-11),
            };
            let u = 2f64.powi(-24);
            let gamma = k as f64 * u / (1.0 - k as f64 * u);
            for (at, (&got, &(sum, magnitude))) in c.iter().zip(&expected).enumerate() {
                let bound = (2.0 * gamma + rounding) * magnitude;
                assert!(
                    ((got - sum).abs() as f64) <= bound,
                    "{} ({:?}, direct {:?}), {m} × {n} × {k}: C[{}][{}] = {got}, the CPU says \
                     {sum} (bound {bound:e})",
                    tc.a_tile.name,
                    tc.accumulate,
                    match tc.k_loop {
                        KLoop::Direct { operands, .. } => Some(operands),
                        _ => None,
                    },
                    at / n,
                    at % n
                );
            }
        }
    }
}

/// `count` small integers (−4 to 4) as f16, varied by `salt`: every f32 sum of their
/// products in these tests is exact.
fn small_integers(count: usize, salt: usize) -> Vec<f16> {
    (0..count)
        .map(|i| f16::from_f32(((i * 7 + salt) * 2654435761 % 9) as f32 - 4.0))
        .collect()
}

/// f16 values as a buffer's little-endian bytes.
fn le_bytes(values: &[f16]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// Runs `module` on the CPU evaluator over `[x, y]` workgroups for A (`m × k`) and B
/// (`k × n`) of small integers, and asserts C equal to the CPU's (every f32 sum is exact).
fn exact_on_the_evaluator(
    label: &str,
    module: &naga::Module,
    [gx, gy]: [u32; 2],
    [m, n, k]: [usize; 3],
) {
    let (a, b) = (small_integers(m * k, 1), small_integers(k * n, 5));
    let mut buffers = wgsl_eval::Buffers::new();
    buffers.bind(0, 0, le_bytes(&a));
    buffers.bind(0, 1, le_bytes(&b));
    buffers.bind(0, 2, f32::NAN.to_le_bytes().repeat(m * n));
    wgsl_eval::dispatch(module, "main", [gx, gy, 1], &mut buffers)
        .unwrap_or_else(|e| panic!("{label}: {e}"));
    let c: Vec<f32> = buffers
        .get(0, 2)
        .expect("C")
        .chunks_exact(4)
        .map(|word| f32::from_le_bytes(word.try_into().unwrap()))
        .collect();
    for i in 0..m {
        for j in 0..n {
            let sum: f32 = (0..k)
                .map(|p| a[i * k + p].to_f32() * b[p * n + j].to_f32())
                .sum();
            assert_eq!(c[i * n + j], sum, "{label}, {m} × {n} × {k}: C[{i}][{j}]");
        }
    }
}

/// Issue 25's designs a (private regions, subgroup barriers) and b (fragments from storage,
/// two sets): validated by naga with subgroup barriers, then run on the CPU evaluator
/// against an exact CPU GEMM (small integers: every f32 sum is exact) on 3 × 2 workgroups
/// and four steps of k. The evaluator has no subgroup barriers: they run as workgroup
/// barriers, which is stronger only where a kernel's control flow is uniform over the
/// workgroup, as theirs is; the races between lanes of a subgroup that a missing barrier
/// would cause are still reported.
#[test]
fn the_streaming_designs_compute_the_gemm_on_the_cpu_evaluator() {
    for (label, design) in tc_stream::designs() {
        let [bm, bn] = design.tile();
        let [m, n, k] = [3 * bm, 2 * bn, 4 * design.ks];
        assert!(design.workgroup_bytes() <= 48 * 1024, "{label}");
        let wgsl = design.wgsl([m, n, k]);
        let module = naga::front::wgsl::parse_str(&wgsl)
            .unwrap_or_else(|e| panic!("{}\n{wgsl}", e.emit_to_string(&wgsl)));
        tc_split::validator(naga::valid::ValidationFlags::all())
            .validate(&module)
            .unwrap_or_else(|e| panic!("{}\n{wgsl}", e.emit_to_string(&wgsl)));
        let lockstep = validate(&wgsl.replace("subgroupBarrier()", "workgroupBarrier()"));
        exact_on_the_evaluator(label, &lockstep, design.groups(m, n), [m, n, k]);
    }
}

/// Issue 25's design d (producer and consumer subgroups, two stages, one workgroup barrier a
/// step): naga 30's uniformity analysis rejects its cooperative operations under the
/// role's branch (the reason the bench passes it to the driver as SPIR-V); validated with
/// every other check and written to SPIR-V, it runs on the CPU evaluator (lockstep, races
/// per barrier epoch) against an exact CPU GEMM on 3 × 2 workgroups and four steps of k.
#[test]
fn the_producer_consumer_designs_compute_the_gemm_on_the_cpu_evaluator() {
    for (label, design) in tc_split::designs() {
        let [bm, bn] = design.tile();
        let [m, n, k] = [3 * bm, 2 * bn, 4 * design.ks];
        assert!(design.workgroup_bytes() <= 48 * 1024, "{label}");
        let wgsl = design.wgsl([m, n, k]);
        let module = naga::front::wgsl::parse_str(&wgsl).expect("WGSL parses");
        let rejected = tc_split::validator(naga::valid::ValidationFlags::all())
            .validate(&module)
            .expect_err("naga's uniformity analysis accepts cooperative operations by role");
        assert!(
            format!("{rejected:?}").contains("COOP_OPS"),
            "{label}: {rejected:?}"
        );
        let (module, _) = tc_split::validate(&wgsl).unwrap_or_else(|e| panic!("{e}\n{wgsl}"));
        // The bench's route to the driver: naga writes the module's SPIR-V.
        let words = tc_split::spirv(&wgsl).unwrap_or_else(|e| panic!("{label}: {e}"));
        assert_eq!(
            words.first(),
            Some(&0x0723_0203),
            "{label}: SPIR-V's magic number"
        );
        exact_on_the_evaluator(label, &module, design.groups(m, n), [m, n, k]);
    }
}

/// The tile shapes, invocations, unrollings and rasters of workgroup-scope cooperative
/// matrices that `tensor_designs -- stream` times (`tc_cm2`, the library's SPIR-V writer at
/// other parameters), on the CPU interpreter of that subset (`tests/common/spirv_eval.rs`
/// of the root crate) against an exact CPU GEMM, as the root's test runs the library's:
/// every design parsed and checked, one per raster and per unrolling run at whole tiles.
#[test]
fn the_workgroup_scope_designs_compute_the_gemm_on_the_spirv_interpreter() {
    use swizzle::gpu::{Stored, WorkgroupMatrices};
    // The CPU GEMM of A and B (`m × k`, `k × n`, row-major): each step's `bk` products
    // summed exactly (small integers), added to C and rounded to the sums' type, as the
    // kernel's multiply-adds do. Index loops: the test builds unoptimised.
    let gemm = |(a, b): (&[f16], &[f16]), [m, n, k]: [usize; 3], bk: usize, sums: Accumulate| {
        let [fa, fb] = [a, b].map(|x| x.iter().map(|v| v.to_f32()).collect::<Vec<_>>());
        let mut c = vec![0f32; m * n];
        let mut step = vec![0f32; n];
        for i in 0..m {
            for p0 in (0..k).step_by(bk) {
                step.fill(0.0);
                for p in p0..(p0 + bk).min(k) {
                    let x = fa[i * k + p];
                    let mut j = 0;
                    while j < n {
                        step[j] += x * fb[p * n + j];
                        j += 1;
                    }
                }
                for (sum, part) in c[i * n..(i + 1) * n].iter_mut().zip(&step) {
                    *sum = match sums {
                        Accumulate::F32 => *sum + part,
                        Accumulate::F16 => f16::from_f32(*sum + part).to_f32(),
                    };
                }
            }
        }
        c
    };
    let run_on = |label: &str,
                  design: &WorkgroupMatrices,
                  [m, n, k]: [usize; 3],
                  orders: [Stored; 2],
                  sums: Accumulate,
                  (a, b): (&[f16], &[f16])| {
        let words = design
            .spirv([m, n, k], orders, sums)
            .unwrap_or_else(|e| panic!("{label}: {e}"));
        let module = spirv_eval::Module::parse(&words).unwrap_or_else(|e| panic!("{label}: {e}"));
        assert_eq!(
            module.entry(),
            ("main", Some([design.invocations as u32, 1, 1])),
            "{label}"
        );
        let expected = gemm((a, b), [m, n, k], design.tile[2], sums);
        let mut buffers = vec![
            le_bytes(&stored::as_stored(a, [m, k], orders[0])),
            le_bytes(&stored::as_stored(b, [k, n], orders[1])),
            f32::NAN.to_le_bytes().repeat(m * n),
        ];
        let [gx, gy] = design.groups([m, n]).map(|g| g as u32);
        module
            .dispatch([gx, gy, 1], &mut buffers)
            .unwrap_or_else(|e| panic!("{label}, {m} × {n} × {k}, {orders:?}: {e}"));
        for (at, (word, &sum)) in buffers[2].chunks_exact(4).zip(&expected).enumerate() {
            let got = f32::from_le_bytes(word.try_into().unwrap());
            // NaN, an element never written, equals nothing.
            assert!(
                got == sum,
                "{label}, {m} × {n} × {k}, {orders:?}, {sums:?} sums: C[{}][{}] = {got}, \
                     the CPU says {sum}",
                at / n,
                at % n
            );
        }
    };
    let run = |label: &str, design: &WorkgroupMatrices, [m, n, k]: [usize; 3], orders| {
        let (a, b) = (small_integers(m * k, 1), small_integers(k * n, 5));
        for sums in [Accumulate::F32, Accumulate::F16] {
            run_on(label, design, [m, n, k], orders, sums, (&a, &b));
        }
    };
    // Each design parsed; one per raster and unrolling run at whole tiles.
    const RUN: [&str; 5] = ["e4", "e5", "e12", "e15", "e27"];
    for (label, design) in tc_cm2::designs() {
        let [bm, bn, bk] = design.tile;
        let shape = [3 * bm, 2 * bn, 2 * design.unroll * bk];
        match RUN.contains(&label.split(':').next().unwrap_or_default()) {
            true => run(label, &design, shape, [Stored::RowMajor; 2]),
            false => {
                let words = design
                    .spirv(shape, [Stored::RowMajor; 2], Accumulate::F32)
                    .unwrap_or_else(|e| panic!("{label}: {e}"));
                spirv_eval::Module::parse(&words).unwrap_or_else(|e| panic!("{label}: {e}"));
            }
        }
    }
}
