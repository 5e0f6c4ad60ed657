//! The macro's whole expansion of any token stream that lexes: checks, canonical forms,
//! inverses, assertions, WGSL and the printed Rust must return, never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    if let Ok(tokens) = text.parse::<proc_macro2::TokenStream>() {
        let _ = swizzle_syntax::expand(tokens);
    }
});
