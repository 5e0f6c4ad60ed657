//! What the tensor-core GEMM's tests share, the library's (`tests/tensor_cores.rs`) and the
//! lab's designs' (`lab/tests/designs.rs`): naga's validation with cooperative matrices, the
//! shapes, the CPU evaluator's run of a `TensorCores` kernel against a CPU GEMM, and the SPIR-V
//! interpreter's run of a `WorkgroupMatrices` kernel against an exact one. Included with
//! `#[path = "common/tensor_gemm.rs"] mod tensor_gemm;` (from lab/,
//! `../../tests/common/..`) beside `spirv_eval` and `stored`, which it names as
//! `crate::spirv_eval` and `crate::stored`.

use crate::{spirv_eval, stored};
use half::{bf16, f16};
use swizzle::gpu::{
    Accumulate, DirectOperands, KLoop, Operands, Stored, TensorCores, WorkgroupMatrices,
};

/// Parses `wgsl` and validates it with the capabilities of the tensor-core kernels (f16,
/// cooperative matrices).
pub fn validate(wgsl: &str) -> naga::Module {
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

/// The shapes every design's WGSL is validated at: odd sizes and tile multiples.
pub const SHAPES: [[usize; 3]; 6] = [
    [77, 50, 38],
    [512, 256, 128],
    [128, 128, 32],
    [256, 384, 96],
    [1, 2, 2],
    [130, 36, 70],
];

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

/// Runs the kernel of each of `cases`' designs at its shape on the CPU evaluator, A and B
/// pseudo-random, and asserts C within the rounding bound of a CPU GEMM.
pub fn within_rounding_on_the_evaluator(cases: Vec<([usize; 3], Vec<TensorCores>)>) {
    for (shape @ [m, n, k], variants) in cases {
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
pub fn small_integers(count: usize, salt: usize) -> Vec<f16> {
    (0..count)
        .map(|i| f16::from_f32(((i * 7 + salt) * 2654435761 % 9) as f32 - 4.0))
        .collect()
}

/// f16 values as a buffer's little-endian bytes.
pub fn le_bytes(values: &[f16]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// Values as a buffer of `operands`' little-endian bytes (f16 or bf16), each rounded to it.
pub fn operand_bytes(values: &[f32], operands: Operands) -> Vec<u8> {
    match operands {
        Operands::F16 => le_bytes(&values.iter().map(|&v| f16::from_f32(v)).collect::<Vec<_>>()),
        Operands::Bf16 => values
            .iter()
            .flat_map(|&v| bf16::from_f32(v).to_le_bytes())
            .collect(),
        Operands::F32 => values.iter().flat_map(|v| v.to_le_bytes()).collect(),
    }
}

/// The element types the kernel on workgroup-scope matrices runs: f16 operands summed in
/// f32 and in f16, bf16 operands in f32.
pub const WORKGROUP_ELEMENTS: [(Operands, Accumulate); 3] = [
    (Operands::F16, Accumulate::F32),
    (Operands::F16, Accumulate::F16),
    (Operands::Bf16, Accumulate::F32),
];

/// The CPU GEMM of A and B (`m × k`, `k × n`, row-major): each step's `bk` products summed
/// exactly (small integers), added to C and rounded to the sums' type, as the kernel's
/// multiply-adds do. Index loops: the tests build unoptimised.
pub fn stepped_gemm(
    (fa, fb): (&[f32], &[f32]),
    [m, n, k]: [usize; 3],
    bk: usize,
    sums: Accumulate,
) -> Vec<f32> {
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
}

/// `design`'s SPIR-V for `[m, n, k]`, A and B of `operands` (`a` and `b`, which that type
/// holds exactly) stored as `orders` say, summing in `sums`' type, run on the SPIR-V
/// interpreter: C equals [`stepped_gemm`]'s, every element written.
pub fn exact_on_the_interpreter(
    label: &str,
    design: &WorkgroupMatrices,
    [m, n, k]: [usize; 3],
    orders: [Stored; 2],
    (operands, sums): (Operands, Accumulate),
    (a, b): (&[f32], &[f32]),
) {
    let words = design
        .spirv([m, n, k], orders, operands, sums)
        .unwrap_or_else(|e| panic!("{label}: {e}"));
    let module = spirv_eval::Module::parse(&words).unwrap_or_else(|e| panic!("{label}: {e}"));
    assert_eq!(
        module.entry(),
        ("main", Some([design.invocations as u32, 1, 1])),
        "{label}"
    );
    let expected = stepped_gemm((a, b), [m, n, k], design.tile[2], sums);
    let mut buffers = vec![
        operand_bytes(&stored::as_stored(a, [m, k], orders[0]), operands),
        operand_bytes(&stored::as_stored(b, [k, n], orders[1]), operands),
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
            "{label}, {m} × {n} × {k}, {orders:?}, {operands:?} operands, {sums:?} sums: \
             C[{}][{}] = {got}, the CPU says {sum}",
            at / n,
            at % n
        );
    }
}

/// [`exact_on_the_interpreter`] with A and B small integers, in each of
/// [`WORKGROUP_ELEMENTS`].
pub fn exact_on_the_interpreter_in_every_type(
    label: &str,
    design: &WorkgroupMatrices,
    [m, n, k]: [usize; 3],
    orders: [Stored; 2],
) {
    let to_f32 = |values: Vec<f16>| values.iter().map(|v| v.to_f32()).collect::<Vec<_>>();
    let (a, b) = (
        to_f32(small_integers(m * k, 1)),
        to_f32(small_integers(k * n, 5)),
    );
    for elements in WORKGROUP_ELEMENTS {
        exact_on_the_interpreter(label, design, [m, n, k], orders, elements, (&a, &b));
    }
}
