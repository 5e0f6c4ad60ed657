//! The lab: GEMM designs the library did not adopt, probes of what a driver takes, and the
//! driver's statistics of a kernel. Not published and not a default workspace member, so
//! that `cargo build` and `cargo test` at the root build none of it; the shipped crates never
//! depend on it. Its benches (`cargo bench -p swizzle-lab`) time the designs beside the
//! library's kernels (and, in `surface_threads`, a texture surface's copy and its variants
//! beside the threaded memcpy), its tests (`cargo test -p swizzle-lab`) run their WGSL on
//! the CPU evaluator. Results, and why each design lost, are in BENCHMARKS.md.

pub mod driver_stats;
pub mod spv_memory;
pub mod tc_cm2;
pub mod tc_former;
pub mod tc_probe;
pub mod tc_split;
pub mod tc_step1;
pub mod tc_stream;
pub mod tc_wide;
