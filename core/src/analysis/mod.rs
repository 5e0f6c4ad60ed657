//! Analyses of a checked layout under an access pattern: shared-memory bank conflicts,
//! global-memory transactions, locality and contiguity. They work on the IR (through the
//! reference interpreter), so the macro, the runtime and the CLI share them.

pub mod access;
pub mod banks;

pub use access::{Access, AccessError, LaneExpr, Touch};
pub use banks::{BankConflict, BankReport, Banks, bank_conflicts, bank_of};
