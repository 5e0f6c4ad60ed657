//! The tensor-core GEMM's WGSL (`swizzle::gemm::tensor_cores`), without a GPU: validated by
//! naga with the cooperative-matrix capability at odd and tile-multiple sizes: the library's
//! layouts with and without prefetching, operands straight from memory, and f16
//! accumulators; and each variant's own WGSL run on the CPU (`wgsl-eval`: workgroups in
//! lockstep, cooperative matrices per subgroup, races and out-of-bounds accesses reported)
//! against a CPU GEMM at odd sizes and at a tile multiple. The designs the library did not
//! adopt are the lab's, and so are their tests (`lab/tests/designs.rs`).

use swizzle::gpu::{
    Accumulate, DirectOperands, GpuError, KLoop, Operands, TensorCores, Unsupported,
};
use tensor_gemm::{
    SHAPES, exact_on_the_interpreter, exact_on_the_interpreter_in_every_type, stepped_gemm,
    validate, within_rounding_on_the_evaluator,
};

#[path = "common/spirv_eval.rs"]
mod spirv_eval;
#[path = "common/stored.rs"]
mod stored;
#[path = "common/tensor_gemm.rs"]
mod tensor_gemm;

fn variants() -> Vec<TensorCores<'static>> {
    let library = swizzle::gemm::tensor_cores_tiled();
    vec![
        swizzle::gemm::tensor_cores(),
        library,
        TensorCores {
            k_loop: KLoop::Plain,
            ..library
        },
        TensorCores {
            accumulate: Accumulate::F16,
            ..library
        },
        TensorCores {
            k_loop: KLoop::Direct {
                operands: DirectOperands::Both,
                prefetch: true,
                otherwise: None,
            },
            ..library
        },
        TensorCores {
            k_loop: KLoop::Direct {
                operands: DirectOperands::Both,
                prefetch: false,
                otherwise: None,
            },
            ..library
        },
        TensorCores {
            k_loop: KLoop::Direct {
                operands: DirectOperands::A,
                prefetch: true,
                otherwise: None,
            },
            ..library
        },
        TensorCores {
            k_loop: KLoop::Direct {
                operands: DirectOperands::B,
                prefetch: true,
                otherwise: None,
            },
            ..library
        },
    ]
}

#[test]
fn the_tensor_core_gemm_validates_with_cooperative_matrices() {
    for tc in variants() {
        for shape in SHAPES {
            validate(&tc.wgsl(shape).expect("WGSL"));
        }
    }
}

#[test]
fn the_prefetching_tensor_core_gemm_validates() {
    let tc = TensorCores {
        k_loop: KLoop::Prefetched,
        ..swizzle::gemm::tensor_cores_tiled()
    };
    for shape in SHAPES {
        validate(&tc.wgsl(shape).expect("WGSL"));
    }
    let wgsl = tc.wgsl([512, 256, 128]).expect("WGSL");
    assert!(
        wgsl.contains("fetch_a0(") && wgsl.contains("put_b0("),
        "{wgsl}"
    );
    println!("{wgsl}");
}

/// Every copy function (`load_*`, `fetch_*`) of every variant leaves at one exit: a fetch's
/// only `return` is its last statement and a load has none, a partial tile's guarded moves
/// in the `else` of the interior's test. NVIDIA's compiler ran the same moves behind an
/// interior tile's early `return` far slower (BENCHMARKS.md#tensor-core-gemm).
#[test]
fn copy_functions_leave_at_one_exit() {
    let mut checked = 0;
    for tc in variants() {
        for shape in SHAPES {
            let wgsl = tc.wgsl(shape).expect("WGSL");
            for function in wgsl.split("\nfn ").skip(1) {
                let name = function.split('(').next().unwrap_or_default();
                let body = &function[..function.find("\n}\n").unwrap_or(function.len())];
                let returns = body.matches("return").count();
                let last = body.lines().last().unwrap_or_default().trim();
                match name {
                    n if n.starts_with("fetch_") => assert!(
                        returns == 1 && last == "return r;",
                        "{name} at {shape:?} leaves early:\n{body}"
                    ),
                    n if n.starts_with("load_") => {
                        assert_eq!(returns, 0, "{name} at {shape:?} leaves early:\n{body}")
                    }
                    _ => continue,
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 0, "no copy functions found");
}

#[test]
fn operands_straight_from_memory_drop_their_tiles_and_barriers() {
    let library = swizzle::gemm::tensor_cores_tiled();
    let both = TensorCores {
        k_loop: KLoop::Direct {
            operands: DirectOperands::Both,
            prefetch: true,
            otherwise: None,
        },
        ..library
    };
    // Tile-multiple shapes: no workgroup tiles, no barriers in the k-loop.
    let wgsl = both.wgsl([512, 256, 128]).expect("WGSL");
    assert!(
        !wgsl.contains("a_tile0") && !wgsl.contains("b_tile0"),
        "{wgsl}"
    );
    assert!(
        wgsl.contains("coopLoadT<coop_mat16x16<f16, A>>(&a["),
        "{wgsl}"
    );
    let k_loop =
        &wgsl[wgsl.find("for (var step").unwrap()..wgsl.find("// C's fragments, each").unwrap()];
    assert!(!k_loop.contains("workgroupBarrier"), "{k_loop}");
    // A shape off the tiles: both operands go through their tiles.
    let wgsl = both.wgsl([77, 50, 38]).expect("WGSL");
    assert!(
        wgsl.contains("a_tile0") && wgsl.contains("b_tile0"),
        "{wgsl}"
    );
    // One operand from memory: the other's tile stays.
    let wgsl = TensorCores {
        k_loop: KLoop::Direct {
            operands: DirectOperands::A,
            prefetch: true,
            otherwise: None,
        },
        ..library
    }
    .wgsl([512, 256, 128])
    .expect("WGSL");
    assert!(
        !wgsl.contains("a_tile0") && wgsl.contains("b_tile0"),
        "{wgsl}"
    );
}

/// The library's fragment kernel (where the device has no workgroup-scope matrices) is the
/// tiled design at every shape, both operands through their tiles, its copies of whole rows
/// 16-byte moves (`mat2x4<f16>`): one a thread for A's 128 × 16 tile, two for B's 16 × 256.
#[test]
fn the_library_fragment_kernel_is_the_tiled_design_in_16_byte_moves() {
    for shape in [[512, 384, 256], [77, 50, 38]] {
        let wgsl = swizzle::gemm::tensor_cores().wgsl(shape).expect("WGSL");
        assert_eq!(
            wgsl,
            swizzle::gemm::tensor_cores_tiled().wgsl(shape).unwrap()
        );
        assert!(
            wgsl.contains("a_tile0") && wgsl.contains("b_tile0"),
            "{wgsl}"
        );
    }
    let wgsl = swizzle::gemm::tensor_cores()
        .wgsl([512, 384, 256])
        .expect("WGSL");
    for (fetch, moves) in [("fn fetch_a0(", 1), ("fn fetch_b0(", 2)] {
        let body = &wgsl[wgsl.find(fetch).expect(fetch)..];
        let signature = body.lines().next().unwrap_or_default();
        let returns = format!("-> array<mat2x4<f16>, {moves}> {{");
        assert!(signature.ends_with(&returns), "{signature}");
    }
}

#[test]
fn every_tensor_core_variant_computes_the_gemm_on_the_cpu_evaluator() {
    // Odd sizes (partial tiles on every side, k off the fragments and the steps), and a
    // multiple of every variant's tiles (where operands come straight from memory).
    within_rounding_on_the_evaluator(vec![
        ([37, 50, 29], variants()),
        ([130, 70, 48], variants()),
        ([256, 128, 128], variants()),
    ]);
}

/// The GEMM on workgroup-scope cooperative matrices (`WorkgroupMatrices::spirv`: tensor
/// loads and stores of `VK_NV_cooperative_matrix2`, written word by word) on the CPU
/// interpreter of that subset (`tests/common/spirv_eval.rs`: one logical invocation per
/// workgroup; ids, sections, matrix shapes and slices checked; an element outside an
/// unclamped tensor an error) against an exact CPU GEMM (small integers: every f32 sum is
/// exact; C starts as NaNs). The library's design runs at shapes of whole tiles (two loop
/// iterations, and a band of rows its raster cuts short), at odd shapes whose edges the
/// layouts clamp, and in every storage order (a transposed operand read through a view).
/// A bad tile is refused; an opcode outside the subset and a workgroup past an unclamped C
/// are errors of the interpreter. (The lab's tile shapes, rasters and unrollings are its
/// own test's.)
#[test]
fn workgroup_scope_matrices_compute_the_gemm_on_the_spirv_interpreter() {
    use swizzle::gpu::{Stored, WorkgroupMatrices};
    let library = swizzle::gemm::workgroup_matrices();
    let [bm, bn, bk] = library.tile;
    // Nine rows of tiles: a band of 8 and one cut short; two loop iterations of k.
    let whole = [9 * bm, bn, 2 * library.unroll * bk];
    exact_on_the_interpreter_in_every_type("library", &library, whole, [Stored::RowMajor; 2]);
    for order in [
        [Stored::RowMajor; 2],
        [Stored::Transposed, Stored::RowMajor],
        [Stored::RowMajor, Stored::Transposed],
        [Stored::Transposed; 2],
    ] {
        for shape in [[bm + 3, 2 * bn - 5, 3 * bk + 7], [1, 1, 1]] {
            exact_on_the_interpreter_in_every_type("library", &library, shape, order);
        }
    }
    // The library's design summing in f16: 256 × 256 tiles, clamped at odd shapes.
    let f16_sums = swizzle::gemm::tensor_cores_f16_sums()
        .workgroup
        .expect("workgroup-scope layouts");
    let [bm16, bn16, bk16] = f16_sums.tile;
    exact_on_the_interpreter_in_every_type(
        "f16 sums",
        &f16_sums,
        [bm16 + 3, bn16 - 5, 3 * bk16 + 7],
        [Stored::RowMajor; 2],
    );
    // f16 sums round at every step: A of ones and B whose column sums reach 2048 in the
    // first step and 2049 in the second read 2048 in f16 (2049 lies between 2048 and 2050,
    // which is even) and 2049 in f32.
    let shape @ [m, n, k] = [bm, bn, 2 * bk];
    let ones = vec![1.0; m * k];
    let b: Vec<f32> = (0..k * n)
        .map(|i| match i / n {
            p if p < bk => 64.0,
            p if p == bk => 1.0,
            _ => 0.0,
        })
        .collect();
    let rounded = stepped_gemm((&ones, &b), shape, bk, Accumulate::F16);
    assert_eq!(
        (
            rounded[0],
            stepped_gemm((&ones, &b), shape, bk, Accumulate::F32)[0]
        ),
        (2048.0, 2049.0)
    );
    for sums in [Accumulate::F32, Accumulate::F16] {
        exact_on_the_interpreter(
            "library",
            &library,
            shape,
            [Stored::RowMajor; 2],
            (Operands::F16, sums),
            (&ones, &b),
        );
    }
    // bf16 operands keep f32's exponents, which f16's overflow (65504) and flush (2⁻²⁴):
    // A of 2¹⁰⁰ and B of 2⁻¹⁰⁰ and 3 · 2⁻¹⁰⁰ sum to k and 3k, exact in f32.
    let huge = vec![2f32.powi(100); m * k];
    let tiny: Vec<f32> = (0..k * n)
        .map(|i| 2f32.powi(-100) * [1.0, 3.0][i % 2])
        .collect();
    exact_on_the_interpreter(
        "library",
        &library,
        shape,
        [Stored::RowMajor; 2],
        (Operands::Bf16, Accumulate::F32),
        (&huge, &tiny),
    );
    assert_eq!(
        stepped_gemm((&huge, &tiny), shape, bk, Accumulate::F32)[..2],
        [k as f32, 3.0 * k as f32]
    );
    for bad in [
        WorkgroupMatrices {
            tile: [128, 0, 32],
            ..library
        },
        WorkgroupMatrices {
            invocations: 0,
            ..library
        },
        WorkgroupMatrices {
            order: swizzle::raster::Raster::Morton(3),
            ..library
        },
    ] {
        assert!(
            bad.spirv(whole, [Stored::RowMajor; 2], Operands::F16, Accumulate::F32)
                .is_err(),
            "{bad:?}"
        );
    }
    // Shapes past the kernel's 32-bit indices, k among them once rounded up to whole steps.
    let past = u32::MAX as usize;
    for (shape, what) in [
        ([past + 1, 64, 64], "m"),
        ([64, 64, past + 1], "k"),
        ([64, 64, past], "k rounded up to whole steps"),
    ] {
        match library.spirv(shape, [Stored::RowMajor; 2], Operands::F16, Accumulate::F32) {
            Err(GpuError::Unsupported {
                why: Unsupported::Range { what: named, .. },
                ..
            }) => assert_eq!(named, what, "{shape:?}"),
            other => panic!("{shape:?}: {:?}", other.map(|words| words.len())),
        }
    }
    // The oracle fails loudly: a workgroup past C's tiles slices past the (unclamped)
    // tensors, and an opcode outside the subset (OpKill for OpReturn) is named.
    let shape @ [m, n, k] = library.tile;
    let mut words = library
        .spirv(shape, [Stored::RowMajor; 2], Operands::F16, Accumulate::F32)
        .expect("SPIR-V");
    let module = spirv_eval::Module::parse(&words).expect("parses");
    let mut buffers = vec![vec![0; 2 * m * k], vec![0; 2 * k * n], vec![0; 4 * m * n]];
    let past = module
        .dispatch([2, 1, 1], &mut buffers)
        .expect_err("past C");
    assert!(past.contains("outside the tensor"), "{past}");
    let ret = words
        .iter()
        .rposition(|&w| w == (1 << 16) | 253)
        .expect("OpReturn");
    words[ret] = (1 << 16) | 252;
    let kill = spirv_eval::Module::parse(&words)
        .err()
        .expect("OpKill refused");
    assert!(kill.contains("opcode 252"), "{kill}");
    // And so does a bf16 matrix without its capability (BFloat16DotProductKHR, which the
    // kernel does not need, in place of BFloat16CooperativeMatrixKHR).
    let mut words = library
        .spirv(
            shape,
            [Stored::RowMajor; 2],
            Operands::Bf16,
            Accumulate::F32,
        )
        .expect("SPIR-V");
    let capability = words
        .windows(2)
        .position(|w| w == [(2 << 16) | 17, 5118])
        .expect("OpCapability BFloat16CooperativeMatrixKHR");
    words[capability + 1] = 5117;
    let missing = spirv_eval::Module::parse(&words)
        .err()
        .expect("a bf16 matrix without its capability refused");
    assert!(
        missing.contains("BFloat16CooperativeMatrixKHR"),
        "{missing}"
    );
    // f32 operands are the scalar kernel's.
    assert!(
        library
            .spirv(shape, [Stored::RowMajor; 2], Operands::F32, Accumulate::F32)
            .is_err()
    );
}
