#![doc = include_str!("../README.md")]

pub use swizzle_macros::layout;
#[doc(hidden)]
pub use swizzle_runtime::__private;
#[cfg(feature = "gpu")]
pub use swizzle_runtime::gpu;
pub use swizzle_runtime::{
    Bijective, CoordError, ExtentError, Indexing, Layout, RowMajor, Traversal, analysis, batch, ir,
    kernel, offsets, picture, raster, sfc, threads, tiled_copy, transform,
};
