//! Expands one pipeline of `N` transforms (default 256) of the kind given — `xor`, `pow2` or
//! `mixed` chains, as in `benches/expansion.rs`, or `shifts` (`N / 2` pairs of cyclic shifts
//! over 6 × 5), or `file PATH` (the layout text of a file, as inside `layout! { .. }`) — once, and prints the time and the size of the expansion, and with `--print`
//! the expansion itself. Run it under `/usr/bin/time -v` for the peak memory, and in the dev profile
//! for what an unoptimized proc-macro build pays:
//! `cargo run -p swizzle-syntax --example expansion_cost -- mixed 256`.

#[path = "../tests/common/chains.rs"]
mod chains;

use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let kind = args.next().unwrap_or_else(|| "mixed".to_owned());
    let count = args.next();
    let transforms: usize = count.as_deref().and_then(|n| n.parse().ok()).unwrap_or(256);
    let print = args.next().is_some_and(|arg| arg == "--print");
    let text = match kind.as_str() {
        "file" => {
            let path = count.unwrap_or_default();
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
        }
        "xor" => chains::xor_chain(transforms),
        "pow2" => chains::rotation_chain(&[4, 8, 16], transforms, false),
        "mixed" => chains::rotation_chain(&[3, 5, 7], transforms, false),
        "shifts" => chains::shift_chain(transforms / 2),
        other => {
            eprintln!("unknown kind `{other}`: xor, pow2, mixed, shifts or file");
            std::process::exit(2);
        }
    };
    let start = Instant::now();
    let tokens: proc_macro2::TokenStream = text.parse().expect("layout text lexes");
    let expansion = swizzle_syntax::expand(tokens).to_string();
    println!(
        "{kind} × {transforms}: {:.1} ms, {} bytes of tokens",
        start.elapsed().as_secs_f64() * 1e3,
        expansion.len()
    );
    if print {
        println!("{expansion}");
    }
}
