//! Transposes of square `f32` matrices through `swizzle::kernel::copy_views` (a row-major
//! view copied into a column-major one), against the `transpose` crate and `memcpy` of the
//! same bytes, on one thread and on all of them, in one run (BENCHMARKS.md).
//!
//! Run with `cargo bench --bench transpose` (`SWIZZLE_BENCH_SIDES=4096`, comma-separated,
//! narrows the sides; `SWIZZLE_BENCH_HUGE_PAGES=1` backs both matrices with huge pages
//! where the system has them). Every transpose is checked before it is timed;
//! `main` prints a markdown table of this run's ratios.

mod common;

use common::{fastest, is_benchmark_run, medians};
use criterion::{Criterion, Throughput};
use std::fmt::Write as _;
use std::hint::black_box;
use std::time::SystemTime;
use swizzle::kernel::{Level, View, copy_views_with};

/// Square matrices: 1 MiB (cache-resident) and 64 MiB (memory-bound) of `f32`.
const SIDES: [usize; 2] = [512, 4096];

/// A zeroed matrix of `side²` `f32`, as bytes (viewed as `f32` with `bytemuck`, which
/// checks the allocator's alignment): `SWIZZLE_BENCH_HUGE_PAGES=1` advises it to be backed
/// by huge pages before its first touch, as the allocating texture copies do; else plain
/// `vec!` (4 KiB pages where transparent huge pages are `madvise` only). Both the memcpy
/// anchors and the transposes use the same two buffers.
fn buffer(side: usize) -> Vec<u8> {
    let len = side * side * size_of::<f32>();
    match std::env::var("SWIZZLE_BENCH_HUGE_PAGES").as_deref() {
        Ok("1") => swizzle::kernel::zeroed_output(len).expect("memory for the bench"),
        _ => vec![0; len],
    }
}

/// One thread, or all of them.
fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool")
}

fn benches(criterion: &mut Criterion) -> Vec<(String, Vec<String>)> {
    let all = std::thread::available_parallelism().map_or(1, |n| n.get());
    let pools = [("1t", pool(1)), ("all", pool(all))];
    let mut ran = Vec::new();
    for side in common::sides(&SIDES) {
        let (mut matrix_bytes, mut out_bytes) = (buffer(side), buffer(side));
        let matrix: &mut [f32] = bytemuck::cast_slice_mut(&mut matrix_bytes);
        for (i, x) in matrix.iter_mut().enumerate() {
            *x = i as f32;
        }
        let matrix: &[f32] = matrix;
        let mut expected = vec![0f32; side * side];
        transpose::transpose(matrix, &mut expected, side, side);
        let (rows, columns) = (
            View::row_major(&[side, side]).expect("fits"),
            View::column_major(&[side, side]).expect("fits"),
        );
        let group_name = format!("transpose_{side}");
        let mut group = criterion.benchmark_group(&group_name);
        group.throughput(Throughput::Bytes((matrix.len() * 4) as u64));
        let out: &mut [f32] = bytemuck::cast_slice_mut(&mut out_bytes);
        let mut names = Vec::new();
        group.bench_function("memcpy_1t", |b| {
            b.iter(|| out.copy_from_slice(black_box(matrix)))
        });
        group.bench_function("memcpy_all", |b| {
            b.iter(|| {
                pools[1]
                    .1
                    .install(|| common::memcpy_threads(out, black_box(matrix)))
            })
        });
        names.extend(["memcpy_1t", "memcpy_all"].map(str::to_owned));
        group.bench_function("transpose_crate_1t", |b| {
            b.iter(|| transpose::transpose(black_box(matrix), out, side, side))
        });
        names.push("transpose_crate_1t".to_owned());
        for level in Level::ALL.into_iter().filter(|l| l.is_available()) {
            for (threads, pool) in &pools {
                out.fill(0.0);
                pool.install(|| copy_views_with(level.into(), &rows, &columns, matrix, out))
                    .expect("views fit");
                assert!(
                    *out == expected[..],
                    "swizzle's transpose at {level:?} differs"
                );
                let name = format!("swizzle_{level:?}_{threads}");
                group.bench_function(&name, |b| {
                    b.iter(|| {
                        pool.install(|| {
                            copy_views_with(level.into(), &rows, &columns, black_box(matrix), out)
                        })
                    })
                });
                names.push(name);
            }
        }
        group.finish();
        ran.push((group_name, names));
    }
    ran
}

/// The markdown table: time, bandwidth (bytes read + written), and each function against
/// the `transpose` crate on one thread and against the best memcpy.
fn summary(ran: &[(String, Vec<String>)], since: SystemTime) -> String {
    let mut out = String::from(
        "| matrix | function | median µs | GB/s (read + write) | × `transpose` (1 thread) | × best memcpy |\n|---|---|---:|---:|---:|---:|\n",
    );
    for (group, names) in ran {
        let side: usize = group.trim_start_matches("transpose_").parse().unwrap_or(0);
        let bytes = (side * side * 4 * 2) as f64;
        let times = medians(group, names, since);
        let anchor = fastest(&times, "transpose_crate_1t");
        let best_copy = fastest(&times, "memcpy");
        for (name, ns) in &times {
            let Some(ns) = ns else {
                let _ = writeln!(out, "| {side}² f32 | {name} | n/a | | | |");
                continue;
            };
            let _ = writeln!(
                out,
                "| {side}² f32 | {name} | {:.1} | {:.1} | {:.2} | {:.2} |",
                ns / 1e3,
                bytes / ns,
                anchor / ns,
                best_copy / ns
            );
        }
    }
    out
}

fn main() {
    let started = common::started();
    let mut criterion = common::criterion(20);
    let ran = benches(&mut criterion);
    criterion.final_summary();
    if is_benchmark_run() {
        println!("\n## Transposes, f32 matrices\n");
        println!("{}", summary(&ran, started));
    }
}
