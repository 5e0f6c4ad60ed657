#![doc = include_str!("../README.md")]

// The crate's own `layout!` blocks name it `::swizzle`, as users' do.
extern crate self as swizzle;

#[cfg(feature = "gpu")]
pub mod gemm;
pub mod guide;
pub use swizzle_macros::layout;
pub mod tegra;
pub mod texture;
#[doc(hidden)]
pub use swizzle_runtime::__private;
#[cfg(feature = "gpu")]
pub use swizzle_runtime::gpu;
pub use swizzle_runtime::{
    Bijective, CoordError, ExtentError, Indexing, Layout, RowMajor, Traversal, analysis, batch,
    fragment, ir, kernel, offsets, picture, raster, sfc, threads, tiled_copy, transform,
};
