//! Expansion time of `layout!` against pipeline length (issue "Never hang"): chains of 8 to
//! 256 transforms that do not fold into a small expression — alternating `xor`s (F2), and
//! `merge`/`unmerge` rotations over power-of-two and over mixed radices — each expanded by
//! the macro's front end as rustc would call it, next to a typical layout (CK Tile's
//! Morton texture example) in the same run. The summary gives each median and its ratio to the
//! typical layout. Peak memory is measured outside (see BENCHMARKS.md).

#[path = "../syntax/tests/common/chains.rs"]
mod chains;
mod common;

use chains::{rotation_chain, xor_chain};
use common::{is_benchmark_run, median_ns};
use criterion::Criterion;
use std::hint::black_box;
use std::time::SystemTime;

/// CK Tile's Morton texture example: what a typical `layout!` expands.
const TYPICAL: &str = "
layout MortonTexture {
    memory [n: 64];
    unmerge n -> [ty: 2, tx: 2, m: 16];
    morton m -> [yi: 4, xi: 4];
    merge [ty, yi] -> y;
    merge [tx, xi] -> x;
    coords [y, x];
    inverse;
}";

const LENGTHS: [usize; 6] = [8, 16, 32, 64, 128, 256];

/// A chain of `n` transforms, as layout text.
type Chain = fn(usize) -> String;

/// The chains measured, by name.
fn kinds() -> [(&'static str, Chain); 3] {
    [
        ("xor", xor_chain),
        ("pow2", |n| rotation_chain(&[4, 8, 16], n, false)),
        ("mixed", |n| rotation_chain(&[3, 5, 7], n, false)),
    ]
}

fn expand(text: &str) -> usize {
    let tokens: proc_macro2::TokenStream = text.parse().expect("layout text lexes");
    swizzle_syntax::expand(tokens).to_string().len()
}

fn bench(criterion: &mut Criterion) {
    let mut group = criterion.benchmark_group("expansion");
    group.bench_function("typical", |b| b.iter(|| expand(black_box(TYPICAL))));
    for (kind, chain) in kinds() {
        for n in LENGTHS {
            let text = chain(n);
            assert!(
                !swizzle_syntax::expand(text.parse().expect("lexes"))
                    .to_string()
                    .contains("compile_error")
            );
            group.bench_function(format!("{kind}/{n}"), |b| {
                b.iter(|| expand(black_box(&text)))
            });
        }
    }
    group.finish();
}

/// The markdown table of this run: milliseconds per expansion and the ratio to the typical
/// layout.
fn summary(since: SystemTime) -> String {
    let read = |name: &str| median_ns("expansion", name, since);
    let typical = match read("typical") {
        Ok(ns) => ns,
        Err(why) => return format!("no summary: {why}"),
    };
    let mut out = format!(
        "typical layout (CK Tile's Morton texture): {:.3} ms\n\n| transforms | xor | pow2 | mixed |\n|---:|---:|---:|---:|\n",
        typical / 1e6
    );
    for n in LENGTHS {
        let cells: Vec<String> = kinds()
            .iter()
            .map(|(kind, _)| match read(&format!("{kind}_{n}")) {
                Ok(ns) => format!("{:.2} ms ({:.1}×)", ns / 1e6, ns / typical),
                Err(why) => format!("? ({why})"),
            })
            .collect();
        out.push_str(&format!("| {n} | {} |\n", cells.join(" | ")));
    }
    out
}

fn main() {
    let started = common::started();
    let mut criterion = common::criterion(20);
    bench(&mut criterion);
    criterion.final_summary();
    if is_benchmark_run() {
        println!("{}", summary(started));
    }
}
