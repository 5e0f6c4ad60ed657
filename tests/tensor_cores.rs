//! The tensor-core GEMM's WGSL (`swizzle::gemm::tensor_cores`), without a GPU: validated by
//! naga with the cooperative-matrix capability at odd and tile-multiple sizes: the library's
//! layouts with and without prefetching, operands straight from memory, and f16
//! accumulators; and each variant's own WGSL run on the CPU (`wgsl-eval`: workgroups in
//! lockstep, cooperative matrices per subgroup, races and out-of-bounds accesses reported)
//! against a CPU GEMM at odd sizes and at a tile multiple. The designs the library did not
//! adopt are the lab's, and so are their tests (`lab/tests/designs.rs`).

use half::f16;
use swizzle::gpu::{Accumulate, DirectOperands, KLoop, TensorCores};

#[path = "common/spirv_eval.rs"]
mod spirv_eval;
#[path = "common/stored.rs"]
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

#[test]
fn the_library_loads_a_from_memory_where_its_tiles_fit_and_falls_back_elsewhere() {
    let library = swizzle::gemm::tensor_cores();
    let wgsl = library.wgsl([512, 384, 256]).expect("WGSL");
    assert!(
        !wgsl.contains("a_tile0") && wgsl.contains("b_tile0"),
        "{wgsl}"
    );
    assert!(
        wgsl.contains("coopLoadT<coop_mat16x16<f16, A>>(&a["),
        "{wgsl}"
    );
    assert!(wgsl.contains("fetch_b0("), "{wgsl}");
    // k = 96 and m = 77 are off A's 256 × 128 tiles: both operands through the tiled design.
    for shape in [[512, 384, 96], [77, 50, 38]] {
        let wgsl = library.wgsl(shape).expect("WGSL");
        assert_eq!(
            wgsl,
            swizzle::gemm::tensor_cores_tiled().wgsl(shape).unwrap()
        );
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
fn every_tensor_core_variant_computes_the_gemm_on_the_cpu_evaluator() {
    // Odd sizes (partial tiles on every side, k off the fragments and the steps), and a
    // multiple of every variant's tiles (where operands come straight from memory).
    for (shape @ [m, n, k], variants) in [
        ([37, 50, 29], variants()),
        ([130, 70, 48], variants()),
        ([256, 128, 128], variants()),
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
    let library = swizzle::gemm::workgroup_matrices();
    let [bm, bn, bk] = library.tile;
    // Nine rows of tiles: a band of 8 and one cut short; two loop iterations of k.
    let whole = [9 * bm, bn, 2 * library.unroll * bk];
    run("library", &library, whole, [Stored::RowMajor; 2]);
    for order in [
        [Stored::RowMajor; 2],
        [Stored::Transposed, Stored::RowMajor],
        [Stored::RowMajor, Stored::Transposed],
        [Stored::Transposed; 2],
    ] {
        for shape in [[bm + 3, 2 * bn - 5, 3 * bk + 7], [1, 1, 1]] {
            run("library", &library, shape, order);
        }
    }
    // The library's design summing in f16: 256 × 256 tiles, clamped at odd shapes.
    let f16_sums = swizzle::gemm::tensor_cores_f16_sums()
        .workgroup
        .expect("workgroup-scope layouts");
    let [bm16, bn16, bk16] = f16_sums.tile;
    run(
        "f16 sums",
        &f16_sums,
        [bm16 + 3, bn16 - 5, 3 * bk16 + 7],
        [Stored::RowMajor; 2],
    );
    // f16 sums round at every step: A of ones and B whose column sums reach 2048 in the
    // first step and 2049 in the second read 2048 in f16 (2049 lies between 2048 and 2050,
    // which is even) and 2049 in f32.
    let shape @ [m, n, k] = [bm, bn, 2 * bk];
    let ones = vec![f16::ONE; m * k];
    let b: Vec<f16> = (0..k * n)
        .map(|i| match i / n {
            p if p < bk => f16::from_f32(64.0),
            p if p == bk => f16::ONE,
            _ => f16::ZERO,
        })
        .collect();
    let rounded = gemm((&ones, &b), shape, bk, Accumulate::F16);
    assert_eq!(
        (rounded[0], gemm((&ones, &b), shape, bk, Accumulate::F32)[0]),
        (2048.0, 2049.0)
    );
    for sums in [Accumulate::F32, Accumulate::F16] {
        run_on(
            "library",
            &library,
            shape,
            [Stored::RowMajor; 2],
            sums,
            (&ones, &b),
        );
    }
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
            bad.spirv(whole, [Stored::RowMajor; 2], Accumulate::F32)
                .is_err(),
            "{bad:?}"
        );
    }
    // The oracle fails loudly: a workgroup past C's tiles slices past the (unclamped)
    // tensors, and an opcode outside the subset (OpKill for OpReturn) is named.
    let shape @ [m, n, k] = library.tile;
    let mut words = library
        .spirv(shape, [Stored::RowMajor; 2], Accumulate::F32)
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
}
