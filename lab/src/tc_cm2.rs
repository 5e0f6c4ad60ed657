//! Issue 25's design e: the product on **workgroup-scope** cooperative matrices
//! (`VK_NV_cooperative_matrix2`), the route llama.cpp's Vulkan backend takes on NVIDIA, now
//! the library's ([`swizzle::gpu::WorkgroupMatrices`], `runtime/src/gpu/gemm/workgroup.rs`): one
//! workgroup computes a `BM × BN` tile of C as one accumulator matrix of the whole
//! workgroup; each step loads A's `BM × BK` slice and B's `BK × BN` slice straight from the
//! storage buffers through tensor layouts and multiplies them in; the driver chooses how the
//! matrices are spread over the subgroups and how the loads are staged.
//!
//! These are the tile shapes, invocations, unrolling and rasters the stream bench compares
//! (`tensor_designs -- stream`). Designs e16, e19, e20 (loads marked 16-byte aligned) and
//! e22–e26 (each step's operands loaded one step ahead), which the library does not write,
//! were measured with the bench's own SPIR-V writer, at f52852e (BENCHMARKS.md).

use swizzle::gpu::WorkgroupMatrices;
use swizzle::raster::Raster;

/// The designs `-- stream` runs (label, design).
pub fn designs() -> Vec<(&'static str, WorkgroupMatrices)> {
    let d = |bm, bn, bk, unroll, invocations| WorkgroupMatrices {
        tile: [bm, bn, bk],
        invocations,
        unroll,
        order: Raster::RowMajor,
    };
    let grouped = |design: WorkgroupMatrices, rows| WorkgroupMatrices {
        order: Raster::Grouped(rows),
        ..design
    };
    vec![
        (
            "e1: workgroup-scope matrices (cooperative_matrix2), 128×256 of C, 64 of k, 256 invocations",
            d(128, 256, 64, 4, 256),
        ),
        ("e2: e1 at 128×128 of C", d(128, 128, 64, 4, 256)),
        ("e3: e1 at 256×128 of C", d(256, 128, 64, 4, 256)),
        ("e4: e1 with 32 of k", d(128, 256, 32, 8, 256)),
        ("e5: e1 without unrolling", d(128, 256, 64, 1, 256)),
        ("e6: e2 with 128 invocations", d(128, 128, 64, 4, 128)),
        ("e7: 256×256 of C, 32 of k", d(256, 256, 32, 4, 256)),
        (
            "e8 (library): e4 in groups of 8 rows of tiles",
            grouped(d(128, 256, 32, 8, 256), 8),
        ),
        (
            "e9: e4 in groups of 16 rows of tiles",
            grouped(d(128, 256, 32, 8, 256), 16),
        ),
        ("e10: e4 with 16 of k", d(128, 256, 16, 16, 256)),
        ("e11: e4 unrolled twice", d(128, 256, 32, 2, 256)),
        (
            "e12: e4 in groups of 4 rows of tiles",
            grouped(d(128, 256, 32, 8, 256), 4),
        ),
        ("e13: 64×256 of C, 32 of k", d(64, 256, 32, 8, 256)),
        (
            "e14: 128×128 of C, 32 of k, groups of 8",
            grouped(d(128, 128, 32, 8, 256), 8),
        ),
        (
            "e15: 128×256 of C, 32 of k, 128 invocations",
            d(128, 256, 32, 8, 128),
        ),
        ("e17: e4 unrolled 16 times", d(128, 256, 32, 16, 256)),
        ("e18: 256×128 of C, 32 of k", d(256, 128, 32, 8, 256)),
        ("e21: 128×256 of C, 128 of k", d(128, 256, 128, 2, 256)),
        ("e28: 128×192 of C, 32 of k", d(128, 192, 32, 8, 256)),
        ("e29: 192×256 of C, 32 of k", d(192, 256, 32, 8, 256)),
        ("e30: 96×256 of C, 32 of k", d(96, 256, 32, 8, 256)),
        ("e31: 160×256 of C, 32 of k", d(160, 256, 32, 8, 256)),
        ("e32: e4 unrolled 4 times", d(128, 256, 32, 4, 256)),
        (
            "e33: 128×256 of C, 48 of k, 4 steps an iteration",
            d(128, 256, 48, 4, 256),
        ),
        (
            "e34: e8 (bands of 8 rows) unrolled 4 times",
            grouped(d(128, 256, 32, 4, 256), 8),
        ),
        (
            "e27: e4 in Morton squares of 8 (bands of 8 rows)",
            WorkgroupMatrices {
                order: Raster::Morton(8),
                ..d(128, 256, 32, 8, 256)
            },
        ),
    ]
}
