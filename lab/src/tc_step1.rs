//! Design step 1 of the tensor-core GEMM (the first version: a 128 × 128 tile of C,
//! double-buffered), in one place for the bench that measures it (`tensor_designs`) and
//! the test that validates its WGSL (`designs`).

use swizzle::gpu::{KLoop, TensorCores};

swizzle::layout! {
    /// Design step 1 (the first version): a 128 × 128 tile of C, eight subgroups (2 × 4)
    /// of 4 × 2 fragments, A's tile 128 × 32, double-buffered.
    pub threads TcFragments1 {
        tile [fi: 8, fj: 8];
        unmerge fi -> [wr: 2, fr: 4];
        unmerge fj -> [wc: 4, fc: 2];
        threads [wr, wc];
        values [fr, fc];
    }
    /// A's 128 × 32 tile, rows padded to 40 f16.
    pub layout TcA128 {
        memory [m: 128, k: 32] strides [40, 1];
        coords [m, k];
    }
    /// A's loads for 256 threads over 128 rows: four `vec4<f16>`s each, 32 rows apart.
    pub threads TcALoads1 {
        tile [m: 128, k: 32];
        unmerge m -> [mr: 4, mh: 4, ml: 8];
        unmerge k -> [kv: 8, v: 4];
        merge [mh, kv, ml] -> thread;
        threads [thread];
        values [mr, v];
    }
}

/// A's 128 × 32 tile, as the configurations reference it.
pub static TC_A128: swizzle::ir::Descriptor = TcA128::DESCRIPTOR;

/// Step 1 over the library's tiled layouts: A's 128-row tile and its loads, eight
/// subgroups of 4 × 2 fragments, double-buffered.
pub fn step1() -> TensorCores<'static> {
    TensorCores {
        a_tile: &TC_A128,
        a_loads: TcALoads1::THREAD_VALUES,
        fragments: TcFragments1::THREAD_VALUES,
        k_loop: KLoop::DoubleBuffered,
        ..crate::tc_former::step5()
    }
}
