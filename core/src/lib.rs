//! `swizzle-core`: the layout IR and everything that works on it without a Rust parser —
//! the reference [`interp`]reter, the canonical forms ([`canon`], [`f2`], [`sym`]), the
//! target-neutral straight-line [`code`] and its WGSL printer, the [`analysis`]es, CK's
//! space-filling curves ([`sfc`]), copy-kernel plans ([`kernel`]) and [`picture`]s.
//!
//! It depends on nothing: the `layout!` macro's front end (`swizzle-syntax`, which owns
//! syn) builds the IR, and the runtime reads it, without either pulling the other in.

pub mod analysis;
pub mod budget;
pub mod canon;
pub mod code;
pub mod compose;
pub mod f2;
pub mod f2_pipeline;
pub mod fragment;
pub mod function;
pub mod grid;
pub mod interp;
pub mod ir;
pub mod kernel;
mod network;
pub mod picture;
pub mod raster;
pub mod report;
pub mod sfc;
pub mod sym;
pub mod table;
pub mod threads;
pub mod tiled_copy;
pub mod transform;
pub mod wgsl;

pub use interp::CoordError;
