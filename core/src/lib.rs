//! `swizzle-core`: the layout IR and everything that works on it without a Rust parser, in
//! the order of the pipeline:
//!
//! 1. [`ir`] — the checked intermediate representation, its transforms
//!    ([`ir::transform`], one file each) and the reference interpreter ([`ir::interp`]) that
//!    defines them;
//! 2. [`canon`] — canonical forms: the folded symbolic offset ([`canon::sym`]), the F2
//!    bit-matrix ([`canon::f2`]), validity and the inverse;
//! 3. [`emit`] — straight-line code from the canonical form and its non-Rust printers
//!    (WGSL, the rustdoc table);
//! 4. [`plans`] — what runs over layouts: copy kernels, thread-value layouts, tiled copies,
//!    fragments, rasters, space-filling curves;
//!
//! beside them the SIMD vocabulary that plans and generated rows share ([`simd`]), the
//! [`analysis`]es, the [`picture`]s, the text [`report`]s and the work
//! [`budget`]s every stage keeps to.
//!
//! It depends on nothing: the `layout!` macro's front end (`swizzle-syntax`, which owns
//! syn) builds the IR, and the runtime reads it, without either pulling the other in.

pub mod analysis;
pub mod budget;
pub mod canon;
pub mod emit;
pub mod ir;
pub mod picture;
pub mod plans;
pub mod report;
pub mod simd;

pub use ir::interp::CoordError;
