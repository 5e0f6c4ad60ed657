//! The A tiles the GEMM bench times beside the library's (`swizzle::gemm::GemmA`), shared
//! by the test of the cost model that ranks them (tests/gemm_cost.rs) and the bench
//! (`#[path = "../tests/common/gemm_tiles.rs"]` in benches/gemm.rs).

swizzle::layout! {
    /// The library's A tile (`swizzle::gemm::GemmA`) without its XOR: k-major rows of 128
    /// words, so the loads' four groups of k collide in fours.
    pub layout AColumns { memory [k: 16, m: 128]; coords [m, k]; }
    /// k-major rows padded to 132 words: groups of k two apart still collide in pairs (no
    /// padding that keeps `vec4`s of m aligned separates all four).
    pub layout APadded { memory [k: 16, m: 128] strides [132, 1]; coords [m, k]; }
    /// Row-major, as A lies in memory: the loads write whole `vec4`s, the fragments read
    /// single elements 16 words apart.
    pub layout ARows { memory [m: 128, k: 16]; coords [m, k]; }
}
