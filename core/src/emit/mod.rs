//! Code from canonical forms: the target-neutral straight-line [`code`] a layout's
//! functions are built in ([`function`], [`grid`] for layouts with run-time outer dims,
//! [`compose`] for a layout that calls its base's functions),
//! the bit-moving shift networks, and the printers that are not Rust tokens — [`wgsl`],
//! the offset [`table`] of the rustdoc, and the [`spirv`] words of kernels WGSL cannot say. The Rust printer lives in `swizzle-syntax`,
//! which owns the token types.

pub mod code;
pub mod compose;
pub mod function;
pub mod grid;
pub(crate) mod network;
pub mod spirv;
pub mod table;
pub mod wgsl;
