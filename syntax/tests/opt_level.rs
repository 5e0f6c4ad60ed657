//! Generated code optimizes in time linear in its pipeline at every opt-level (issue "Never
//! hang, round two", item 3: chains of dependent `%` were reported to take rustc 24 s at 42
//! cyclic shifts and over 200 s at 50, at opt-level 1). The staged `offset` and `coord` of 50
//! cyclic shifts over 6 × 5 are compiled by a child `rustc` at every opt-level.
//!
//! This is the suite's one timing test: each child is killed after [`DEADLINE`], generous
//! for a loaded 2-core machine (each build takes about a second).

#[path = "common/chains.rs"]
mod chains;

use quote::quote;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const DEADLINE: Duration = Duration::from_secs(60);

/// The functions of the layout's inherent impl named in `names`, as free functions of a
/// library: their bodies need nothing else.
fn free_functions(expansion: proc_macro2::TokenStream, names: &[&str]) -> String {
    let file: syn::File = syn::parse2(expansion).expect("the expansion parses");
    let functions = file
        .items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Impl(block) if block.trait_.is_none() => Some(&block.items),
            _ => None,
        })
        .flatten()
        .filter_map(|item| match item {
            syn::ImplItem::Fn(function) => Some(function),
            _ => None,
        })
        .filter(|function| names.contains(&function.sig.ident.to_string().as_str()))
        .map(|function| {
            let syn::ImplItemFn {
                vis, sig, block, ..
            } = function;
            let (name, inputs, output) = (&sig.ident, &sig.inputs, &sig.output);
            quote!(#vis fn #name(#inputs) #output #block)
        });
    quote!(#(#functions)*).to_string()
}

#[test]
fn fifty_cyclic_shifts_build_at_every_opt_level() {
    let tokens: proc_macro2::TokenStream = chains::shift_chain(25).parse().expect("tokens");
    let library = free_functions(swizzle_syntax::expand(tokens), &["offset", "coord"]);
    assert!(library.contains("fn offset") && library.contains("fn coord"));
    let dir = std::env::temp_dir().join(format!("swizzle-opt-level-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let source = dir.join("shifts.rs");
    std::fs::write(&source, library).expect("the library is written");
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    for level in ["0", "1", "2", "3", "s"] {
        let mut child = Command::new(&rustc)
            .args(["--edition", "2024", "--crate-type", "lib", "-C"])
            .arg(format!("opt-level={level}"))
            .arg("--out-dir")
            .arg(&dir)
            .arg(&source)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("rustc runs");
        let start = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().expect("rustc is waited for") {
                break status;
            }
            if start.elapsed() > DEADLINE {
                let _ = child.kill();
                let _ = child.wait();
                panic!("opt-level {level}: rustc took more than {DEADLINE:?}");
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        assert!(status.success(), "opt-level {level}: rustc failed");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
