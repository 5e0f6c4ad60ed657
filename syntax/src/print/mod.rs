//! What every item kind's expansion prints with: the Rust printer of target-neutral code
//! ([`rust`]), the paths generated code names ([`paths`]), and literals.

pub mod paths;
pub mod rust;

use proc_macro2::Literal;

/// `value` as an unsuffixed literal.
pub fn lit(value: usize) -> Literal {
    Literal::usize_unsuffixed(value)
}
