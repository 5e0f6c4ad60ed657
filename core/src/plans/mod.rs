//! Plans for work over layouts, decided at expansion time and run by the generated code or
//! the runtime: copy [`kernel`]s between two layouts, [`threads`] (thread-value layouts),
//! [`tiled_copy`]s of a workgroup, a product's register [`fragment`]s, workgroup
//! [`raster`] orders and CK's space-filling curves ([`sfc`]).

pub mod fragment;
pub mod kernel;
pub mod raster;
pub mod sfc;
pub mod threads;
pub mod tiled_copy;
