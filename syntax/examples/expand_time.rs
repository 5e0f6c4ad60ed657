use std::time::Instant;
fn main() {
    for path in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&path).unwrap();
        let start = Instant::now();
        let tokens: proc_macro2::TokenStream = text.parse().unwrap();
        let out = swizzle_syntax::expand(tokens);
        let s = out.to_string();
        println!(
            "{path}: {:?}, {} bytes, error: {}",
            start.elapsed(),
            s.len(),
            s.contains("compile_error")
        );
    }
}
