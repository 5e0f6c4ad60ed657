//! Design step 9 of the tensor-core GEMM: 16-byte copies (each thread moves runs of 8 f16,
//! read from memory as one `mat2x4<f16>` and written as two `vec4<f16>` entries of the
//! tile), in one place for the bench that measures it (`tensor_designs`) and the test
//! that evaluates its WGSL (`designs`). Only the copies' thread-value layouts change: runs
//! of 8 along the tile's rows (`v: 8`) instead of 4, half as many moves per thread.

use swizzle::gpu::TensorCores;

swizzle::layout! {
    /// Who loads the library's B tile (`TcBDeep`, 128 × 128) in 16-byte moves: 256
    /// threads, eight moves each, 16 rows apart; a subgroup reads two whole rows of 256
    /// bytes, and eight lanes write 128 consecutive bytes of one row.
    pub threads TcBLoadsDeepWide {
        tile [k: 128, n: 128];
        unmerge k -> [kr: 8, ks: 16];
        unmerge n -> [nv: 16, v: 8];
        merge [ks, nv] -> thread;
        threads [thread];
        values [kr, v];
    }
    /// Who loads the tiled design's A tile (`TcA`, 256 × 32, rows of 40 f16) in 16-byte
    /// moves: four each, 64 rows apart; eight consecutive threads take eight rows of one
    /// column of moves (rows 80 bytes apart: eight distinct groups of four banks).
    pub threads TcALoadsWide {
        tile [m: 256, k: 32];
        unmerge m -> [mr: 4, mh: 8, ml: 8];
        unmerge k -> [kv: 4, v: 8];
        merge [mh, kv, ml] -> thread;
        threads [thread];
        values [mr, v];
    }
    /// Who loads the tiled design's B tile (`TcB`, 32 × 128) in 16-byte moves: two each,
    /// 16 rows apart.
    pub threads TcBLoadsWide {
        tile [k: 32, n: 128];
        unmerge k -> [kr: 2, ks: 16];
        unmerge n -> [nv: 16, v: 8];
        merge [ks, nv] -> thread;
        threads [thread];
        values [kr, v];
    }
}

/// Step 9: the library's design (step 8: A from memory, B's 128 × 128 tile, 128 of k per
/// step, B's next step held in registers) with B's copies in 16-byte moves.
pub fn step9() -> TensorCores<'static> {
    TensorCores {
        b_loads: TcBLoadsDeepWide::THREAD_VALUES,
        ..crate::tc_former::step8()
    }
}

/// Step 9t: the tiled design (step 5: both tiles, 32 of k per step) with both copies in
/// 16-byte moves.
pub fn step9_tiled() -> TensorCores<'static> {
    TensorCores {
        a_loads: TcALoadsWide::THREAD_VALUES,
        b_loads: TcBLoadsWide::THREAD_VALUES,
        ..crate::tc_former::step5()
    }
}
