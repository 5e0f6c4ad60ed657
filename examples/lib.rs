//! swizzle's examples, a crate of their own so that building one builds `swizzle` and
//! nothing of its tests' and benches' dependencies: `cargo run --release --example
//! morton_texture` at the repository's root (`--features gpu` for the GPU ones).
