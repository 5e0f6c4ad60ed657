#![doc = include_str!("../README.md")]

pub use swizzle_macros::layout;
pub use swizzle_runtime::{Bijective, CoordError, Layout, analysis, batch, ir, offsets, picture};
