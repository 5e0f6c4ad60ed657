//! Layout text as the command line reads it: lexing, parsing and every check of the one
//! driver must return items or errors — never panic, overflow the stack or run away.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let _ = swizzle_syntax::source(text);
});
