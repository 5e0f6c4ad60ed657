//! The compile-fail tests of `layout!`: `tests/ui/` holds one case per error class, run by
//! trybuild (`tests/ui.rs`). A crate of its own so that trybuild builds the cases against
//! `swizzle` alone.
