//! Compile-fail tests: every error class of `layout!` in its own file, with the exact
//! message and span checked against `tests/ui/*.stderr`.
//!
//! Regenerate with `TRYBUILD=overwrite cargo test -p swizzle-ui-tests`, then read every
//! `.stderr`.

#[test]
fn ui() {
    trybuild::TestCases::new().compile_fail("tests/ui/*.rs");
}
