//! The f16 GEMM on cooperative matrices (tensor cores, `swizzle::gemm::tensor_cores`)
//! against cuBLAS HGEMM (`python3 benches/cublas_hgemm.py > hgemm.txt`;
//! `SWIZZLE_HGEMM_RESULTS=hgemm.txt`; bf16 against cuBLAS's bf16 GEMM from the same file)
//! and against the scalar f16 kernel (the same `Gemm` without tensor-core layouts): the
//! library's kernels, on workgroup-scope matrices (f32 and f16 sums, each operand also
//! stored transposed, and bf16 operands) and on fragments (the kernel that
//! runs where the device has no workgroup-scope matrices). Prints
//! the adapter's cooperative-matrix configurations first, then each shape's rows as it is
//! measured. Every result is checked against the CPU before it is timed (small integers, so
//! every f32 sum is exact: the whole of C up to 2^21 elements, 4096 sampled elements
//! above); the f16 sums are not exact, and their largest error is bounded instead.
//!
//! `SWIZZLE_TC_SHAPES` (default `1024,2048,4096,8192,8192x8192x1024`), `SWIZZLE_BENCH_RUNS`
//! (default 20), `SWIZZLE_TC_VARIANTS` (the labels up to their ':' to run). The designs
//! that lost, and the probes of the driver, are the lab's: `cargo bench -p swizzle-lab
//! --bench tensor_designs` (lab/).

use swizzle::gemm;
use swizzle::gpu::{Gemm, GpuError, Operands, Stored, TensorCores};

#[path = "../tests/common/stored.rs"]
mod stored;
#[path = "common/tensor_gemm.rs"]
mod tensor_gemm;
#[path = "common/wall.rs"]
mod wall;

fn main() -> Result<(), GpuError> {
    let Some(gpu) = tensor_gemm::device() else {
        return Ok(());
    };
    // The fragment kernel: without workgroup-scope matrices, which run instead where the
    // device has them (variant 10).
    let fragments = |label, tensor_cores: TensorCores<'static>| {
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
    let f16_sums = |a_order| Gemm {
        operands: Operands::F16,
        tensor_cores: Some(gemm::tensor_cores_f16_sums()),
        ..gemm::config_for(a_order, Stored::RowMajor)
    };
    let stored = |a_order, b_order| Gemm {
        operands: Operands::F16,
        ..gemm::config_for(a_order, b_order)
    };
    let (rows, transposed) = (Stored::RowMajor, Stored::Transposed);
    let variants: Vec<(&str, Gemm)> = vec![
        (
            "10 (library): workgroup-scope matrices, 128×256 of C, 32 of k, bands of 8 rows",
            stored(rows, rows),
        ),
        (
            "10a: 10 with A stored transposed (k × m)",
            stored(transposed, rows),
        ),
        (
            "10b: 10 with B stored transposed (n × k)",
            stored(rows, transposed),
        ),
        (
            "10k (library, f16 sums): 256×256 of C (`gemm::tensor_cores_f16_sums()`)",
            f16_sums(rows),
        ),
        ("10m: 10k with A stored transposed", f16_sums(transposed)),
        (
            "10f (library, bf16): 10 on bf16 operands (`Operands::Bf16`)",
            Gemm {
                operands: Operands::Bf16,
                ..gemm::config()
            },
        ),
        fragments(
            "8 (library, fragments): 128×256 of C, 16 of k a step, both tiles, 16-byte moves",
            gemm::tensor_cores(),
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
