//! The lab's GEMM designs without a GPU (the root's `tests/tensor_cores.rs` tests the
//! library's kernels): design steps 1 and 9 (`tc_step1`, `tc_wide`: the library's code
//! generator over other layouts) validated by naga and run on the CPU evaluator
//! (`wgsl-eval`) against a CPU GEMM at odd sizes and at a tile multiple; the hand-written
//! streaming designs (`tc_stream`, `tc_split`) run exactly on the evaluator; and the
//! workgroup-scope designs (`tc_cm2`) on the SPIR-V interpreter.

use swizzle::gpu::TensorCores;
use swizzle_lab::{tc_cm2, tc_split, tc_step1, tc_stream, tc_wide};
use tensor_gemm::{
    SHAPES, exact_on_the_interpreter_in_every_type, le_bytes, small_integers, validate,
    within_rounding_on_the_evaluator,
};

#[path = "../../tests/common/spirv_eval.rs"]
mod spirv_eval;
#[path = "../../tests/common/stored.rs"]
mod stored;
#[path = "../../tests/common/tensor_gemm.rs"]
mod tensor_gemm;

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

#[test]
fn every_design_computes_the_gemm_on_the_cpu_evaluator() {
    // Odd sizes (partial tiles on every side, k off the fragments and the steps), and a
    // multiple of every design's tiles (where operands come straight from memory).
    // The last: partial tiles whose rows are whole 16-byte moves (the wide copies' zeros).
    let wide = || vec![tc_wide::step9(), tc_wide::step9_tiled()];
    within_rounding_on_the_evaluator(vec![
        ([37, 50, 29], variants()),
        ([130, 70, 48], variants()),
        ([256, 128, 128], variants()),
        ([130, 72, 40], wide()),
    ]);
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
    use swizzle::gpu::Stored;
    // Each design parsed; one per raster and unrolling run at whole tiles.
    const RUN: [&str; 5] = ["e4", "e5", "e12", "e15", "e27"];
    for (label, design) in tc_cm2::designs() {
        let [bm, bn, bk] = design.tile;
        let shape = [3 * bm, 2 * bn, 2 * design.unroll * bk];
        match RUN.contains(&label.split(':').next().unwrap_or_default()) {
            true => {
                exact_on_the_interpreter_in_every_type(label, &design, shape, [Stored::RowMajor; 2])
            }
            false => {
                let words =
                    tc_cm2::words(&design, shape).unwrap_or_else(|e| panic!("{label}: {e}"));
                spirv_eval::Module::parse(&words).unwrap_or_else(|e| panic!("{label}: {e}"));
            }
        }
    }
}

/// `tensor_designs -- cm2-parts` times parts of the library's workgroup-scope kernel whose
/// k-loop reads A's or B's slice at k = 0 every step (`tc_cm2::parts`): on the SPIR-V
/// interpreter, each part computes the sums of the slices it reads (a part that still read
/// the step's slice, or fixed the wrong operand, computes other sums).
#[test]
fn the_workgroup_kernels_parts_read_the_slices_they_say() {
    use swizzle::gpu::WorkgroupMatrices;
    use swizzle::raster::Raster;
    let design = WorkgroupMatrices {
        tile: [32, 32, 16],
        invocations: 64,
        unroll: 2,
        order: Raster::RowMajor,
    };
    let [m, n, k] = [64, 64, 64];
    let bk = design.tile[2];
    let (a, b) = (small_integers(m * k, 1), small_integers(k * n, 5));
    let words = tc_cm2::words(&design, [m, n, k]).expect("words");
    let parts = tc_cm2::parts(&words);
    assert_eq!(parts.len(), 5);
    let fixed = [
        [false, false],
        [false, true],
        [true, false],
        [true, true],
        [true, true],
    ];
    for ((label, part), fixed) in parts.iter().zip(fixed) {
        let module = spirv_eval::Module::parse(part).unwrap_or_else(|e| panic!("{label}: {e}"));
        let mut buffers = vec![
            le_bytes(&a),
            le_bytes(&b),
            f32::NAN.to_le_bytes().repeat(m * n),
        ];
        let [gx, gy] = design.groups([m, n]).map(|g| g as u32);
        module
            .dispatch([gx, gy, 1], &mut buffers)
            .unwrap_or_else(|e| panic!("{label}: {e}"));
        // Step s reads A's columns and B's rows from s · BK, or from 0 where fixed.
        let from = |fixed: bool, step: usize| if fixed { 0 } else { step * bk };
        for (at, word) in buffers[2].chunks_exact(4).enumerate() {
            let (i, j) = (at / n, at % n);
            let sum: f32 = (0..k / bk)
                .flat_map(|step| (0..bk).map(move |p| (step, p)))
                .map(|(step, p)| {
                    a[i * k + from(fixed[0], step) + p].to_f32()
                        * b[(from(fixed[1], step) + p) * n + j].to_f32()
                })
                .sum();
            let got = f32::from_le_bytes(word.try_into().unwrap());
            assert_eq!(got, sum, "{label}: C[{i}][{j}]");
        }
    }
}
