//! The tensor-core GEMM's WGSL (`swizzle::gemm::tensor_cores`), without a GPU: validated by
//! naga with the cooperative-matrix capability at odd and tile-multiple sizes: the library's
//! layouts with and without `prefetch`, a double-buffered 128 × 128 variant, and f16
//! accumulators.

use swizzle::gpu::{Accumulate, TensorCores};

#[path = "../benches/common/tc_step1.rs"]
mod tc_step1;

fn validate(wgsl: &str) {
    let module = naga::front::wgsl::parse_str(wgsl)
        .unwrap_or_else(|e| panic!("{}\n{wgsl}", e.emit_to_string(wgsl)));
    let capabilities = naga::valid::Capabilities::default()
        | naga::valid::Capabilities::SHADER_FLOAT16
        | naga::valid::Capabilities::COOPERATIVE_MATRIX;
    naga::valid::Validator::new(naga::valid::ValidationFlags::all(), capabilities)
        .validate(&module)
        .unwrap_or_else(|e| panic!("{}\n{wgsl}", e.emit_to_string(wgsl)));
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
            prefetch: false,
            ..library
        },
        tc_step1::step1(),
        TensorCores {
            accumulate: Accumulate::F16,
            ..library
        },
        TensorCores {
            direct: [true, true],
            ..library
        },
        TensorCores {
            direct: [true, true],
            prefetch: false,
            ..library
        },
        TensorCores {
            direct: [true, false],
            ..library
        },
        TensorCores {
            direct: [false, true],
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
        prefetch: true,
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
        direct: [true, true],
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
        direct: [true, false],
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
