//! The copy family: layout-to-layout copies, packs and unpacks, plain copies and `map`
//! over a layout, with the compiled one-input, one-output [`Kernel`] they and the
//! transpose run as. [`plan`] holds what the front ([`kernel`]) and the specialised copies
//! (narrow elements, permuted planes, staged tiles) share, so that none imports another.

mod kernel;
mod narrow;
mod permuted;
mod plan;
mod staged;

pub use kernel::BoundsChecks;
pub(super) use kernel::image_len;
#[cfg(feature = "gpu")]
pub use kernel::{Kernel, MapKernel};
