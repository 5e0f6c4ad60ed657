//! The library's fragment designs before NVIDIA's reference design replaced them (the lab's
//! `r1w`, now `swizzle::gemm::tensor_cores_tiled()`): step 5, both operands through
//! 256 × 32 and 32 × 128 tiles, 32 of k a step; and step 8, A's fragments straight from
//! memory and B through a 128 × 128 tile, 128 of k a step, falling back to step 5 where A's
//! tiles would cross its edge. Most of the lab's designs are variations of these two.

use swizzle::gpu::{DirectOperands, KLoop, TensorCores};
use swizzle::ir::Descriptor;

swizzle::layout! {
    /// Step 5's A tile: 256 × 32 f16, rows padded to 40 f16 (eight rows on eight distinct
    /// groups of four banks).
    pub layout TcA256 {
        memory [m: 256, k: 32] strides [40, 1];
        coords [m, k];
    }
    /// Step 5's B tile: 32 × 128 f16, rows padded to 136 f16.
    pub layout TcB32 {
        memory [k: 32, n: 128] strides [136, 1];
        coords [k, n];
    }
    /// Step 5's A loads: 256 threads, eight `vec4<f16>`s each, 32 rows apart.
    pub threads TcALoads256 {
        tile [m: 256, k: 32];
        unmerge m -> [mr: 8, mh: 4, ml: 8];
        unmerge k -> [kv: 8, v: 4];
        merge [mh, kv, ml] -> thread;
        threads [thread];
        values [mr, v];
    }
    /// Step 5's B loads: 256 threads, four `vec4<f16>`s each, 8 rows apart.
    pub threads TcBLoads32 {
        tile [k: 32, n: 128];
        unmerge k -> [kr: 4, ks: 8];
        unmerge n -> [nv: 32, v: 4];
        merge [ks, nv] -> thread;
        threads [thread];
        values [kr, v];
    }
    /// 256 × 128 of C: eight subgroups (4 × 2) of 4 × 4 fragments.
    pub threads TcFragments256 {
        tile [fi: 16, fj: 8];
        unmerge fi -> [wr: 4, fr: 4];
        unmerge fj -> [wc: 2, fc: 4];
        threads [wr, wc];
        values [fr, fc];
    }
    /// Step 8's A tile shape at 128 of k (A comes from memory: only its shape counts).
    pub layout TcADeep {
        memory [m: 256, k: 128] strides [136, 1];
        coords [m, k];
    }
    /// Step 8's B tile: 128 × 128 f16, rows padded to 136.
    pub layout TcBDeep {
        memory [k: 128, n: 128] strides [136, 1];
        coords [k, n];
    }
    /// Who would load `TcADeep`: 256 threads, 32 `vec4<f16>`s each, 8 rows apart.
    pub threads TcALoadsDeep {
        tile [m: 256, k: 128];
        unmerge m -> [mr: 32, ml: 8];
        unmerge k -> [kv: 32, v: 4];
        merge [kv, ml] -> thread;
        threads [thread];
        values [mr, v];
    }
    /// Who loads `TcBDeep`: 256 threads, 16 `vec4<f16>`s each, 8 rows apart.
    pub threads TcBLoadsDeep {
        tile [k: 128, n: 128];
        unmerge k -> [kr: 16, ks: 8];
        unmerge n -> [nv: 32, v: 4];
        merge [ks, nv] -> thread;
        threads [thread];
        values [kr, v];
    }
}

static TC_A256: Descriptor = TcA256::DESCRIPTOR;
static TC_B32: Descriptor = TcB32::DESCRIPTOR;
/// Step 8's B tile, as the designs built on it reference it.
pub static TC_B_DEEP: Descriptor = TcBDeep::DESCRIPTOR;
static TC_A_DEEP: Descriptor = TcADeep::DESCRIPTOR;

/// Step 5: both operands through tiles, 256 × 128 of C, 32 of k a step, the next step's
/// loads held in registers (the library's stage and stores of C).
pub fn step5() -> TensorCores<'static> {
    TensorCores {
        a_tile: &TC_A256,
        b_tile: &TC_B32,
        a_loads: TcALoads256::THREAD_VALUES,
        b_loads: TcBLoads32::THREAD_VALUES,
        fragments: TcFragments256::THREAD_VALUES,
        k_loop: KLoop::Prefetched,
        workgroup: None,
        ..swizzle::gemm::tensor_cores_tiled()
    }
}

static STEP5: std::sync::LazyLock<TensorCores<'static>> = std::sync::LazyLock::new(step5);

/// Step 8: A's fragments straight from memory, B through a 128 × 128 tile, 128 of k a
/// step; step 5 where A's tiles would cross its edge.
pub fn step8() -> TensorCores<'static> {
    TensorCores {
        a_tile: &TC_A_DEEP,
        b_tile: &TC_B_DEEP,
        a_loads: TcALoadsDeep::THREAD_VALUES,
        b_loads: TcBLoadsDeep::THREAD_VALUES,
        k_loop: KLoop::Direct {
            operands: DirectOperands::A,
            prefetch: true,
            otherwise: Some(&*STEP5),
        },
        ..step5()
    }
}
