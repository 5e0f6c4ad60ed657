//! Analyses of a checked layout under an access pattern: shared-memory bank conflicts,
//! global-memory transactions, locality and contiguity. They work on the IR (through the
//! reference interpreter), so the macro, the runtime and the CLI share them.

pub mod access;
pub mod banks;
pub mod contiguity;
pub mod locality;
pub mod runs;
pub mod transactions;

pub use crate::emit::code::Op;
pub use access::{Access, AccessError, LaneExpr, Touch};
pub use banks::{BankConflict, BankReport, Banks, bank_conflicts, bank_of};
pub use contiguity::vector_width;
pub use locality::{Locality, locality};
pub use transactions::{Coalescing, Transactions, transactions};

/// The coordinates of `shape` in row-major order (last fastest), at most
/// [`ANALYSIS_COORDINATES`](crate::budget::ANALYSIS_COORDINATES) of them.
fn coordinates(shape: &[usize]) -> impl Iterator<Item = Vec<usize>> + '_ {
    crate::ir::coordinates(shape).take(crate::budget::ANALYSIS_COORDINATES)
}
