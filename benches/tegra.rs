//! Tegra X1 block-linear textures (`swizzle::tegra`) against the `tegra_swizzle` crate: a
//! 4096² RGBA8 texture with blocks 16 GOBs high, tiled and untiled into preallocated
//! buffers, on one thread and on all of them, beside `memcpy` of the same bytes, in one run
//! (BENCHMARKS.md).
//!
//! Run with `cargo bench --bench tegra`. Both sides' bytes are checked equal before timing;
//! `main` prints a markdown table of this run's ratios.

mod common;

use common::{is_benchmark_run, median_ns};
use criterion::{Criterion, Throughput};
use std::fmt::Write as _;
use std::hint::black_box;
use std::time::SystemTime;

const SIDE: usize = 4096;
const BYTES_PER_PIXEL: usize = 4;
const BLOCK_HEIGHT: usize = 16;

/// One thread, or all of them.
fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool")
}

/// `tegra_swizzle`'s tiling into a preallocated buffer (its C API; the safe functions
/// allocate their output).
fn tegra_swizzle_into(src: &[u8], dst: &mut [u8], deswizzle: bool) {
    let side = SIDE as u32;
    let (bpp, gobs) = (BYTES_PER_PIXEL as u32, BLOCK_HEIGHT as u32);
    let tile = match deswizzle {
        false => tegra_swizzle::ffi::swizzle_block_linear,
        true => tegra_swizzle::ffi::deswizzle_block_linear,
    };
    // SAFETY: `src` and `dst` are whole slices of the sizes the crate computes for this
    // texture (checked in `main` before timing): `deswizzled_mip_size` bytes on the linear
    // side, `swizzled_mip_size` on the tiled side, and 16 is a valid block height.
    unsafe {
        tile(
            side,
            side,
            1,
            src.as_ptr(),
            src.len(),
            dst.as_mut_ptr(),
            dst.len(),
            gobs,
            bpp,
        )
    }
}

fn benches(criterion: &mut Criterion) -> Vec<String> {
    let all = std::thread::available_parallelism().map_or(1, |n| n.get());
    let pools = [("1t", pool(1)), ("all", pool(all))];
    let linear: Vec<u8> = (0..SIDE * SIDE * BYTES_PER_PIXEL)
        .map(|i| (i * 7 + i / 251) as u8)
        .collect();
    let size = swizzle::texture::switch::swizzled_size(SIDE, SIDE, BYTES_PER_PIXEL, BLOCK_HEIGHT)
        .expect("fits");
    let mut expected = vec![0u8; size];
    tegra_swizzle_into(&linear, &mut expected, false);
    let mut tiled = vec![0u8; size];
    swizzle::texture::switch::swizzle(
        SIDE,
        SIDE,
        BYTES_PER_PIXEL,
        BLOCK_HEIGHT,
        &linear,
        &mut tiled,
    )
    .expect("fits");
    assert!(
        tiled == expected,
        "swizzle::tegra differs from tegra_swizzle"
    );
    let mut back = vec![0u8; linear.len()];
    swizzle::texture::switch::deswizzle(
        SIDE,
        SIDE,
        BYTES_PER_PIXEL,
        BLOCK_HEIGHT,
        &tiled,
        &mut back,
    )
    .expect("fits");
    assert!(
        back == linear,
        "swizzle::tegra's deswizzle does not undo its swizzle"
    );

    let mut group = criterion.benchmark_group("tegra_4096");
    group.throughput(Throughput::Bytes(linear.len() as u64));
    let mut names = Vec::new();
    let mut copy = vec![0u8; linear.len()];
    group.bench_function("memcpy_1t", |b| {
        b.iter(|| copy.copy_from_slice(black_box(&linear)))
    });
    names.push("memcpy_1t".to_owned());
    group.bench_function("tegra_swizzle_swizzle_1t", |b| {
        b.iter(|| tegra_swizzle_into(black_box(&linear), &mut tiled, false))
    });
    group.bench_function("tegra_swizzle_deswizzle_1t", |b| {
        b.iter(|| tegra_swizzle_into(black_box(&expected), &mut back, true))
    });
    names.extend(["tegra_swizzle_swizzle_1t", "tegra_swizzle_deswizzle_1t"].map(str::to_owned));
    for (threads, pool) in &pools {
        let name = format!("swizzle_swizzle_{threads}");
        group.bench_function(&name, |b| {
            b.iter(|| {
                pool.install(|| {
                    swizzle::texture::switch::swizzle(
                        SIDE,
                        SIDE,
                        BYTES_PER_PIXEL,
                        BLOCK_HEIGHT,
                        black_box(&linear),
                        &mut tiled,
                    )
                })
            })
        });
        names.push(name);
        let name = format!("swizzle_deswizzle_{threads}");
        group.bench_function(&name, |b| {
            b.iter(|| {
                pool.install(|| {
                    swizzle::texture::switch::deswizzle(
                        SIDE,
                        SIDE,
                        BYTES_PER_PIXEL,
                        BLOCK_HEIGHT,
                        black_box(&expected),
                        &mut back,
                    )
                })
            })
        });
        names.push(name);
    }
    group.finish();
    names
}

/// The markdown table: time, bandwidth (bytes read + written) and each function against
/// `tegra_swizzle` in the same direction on one thread.
fn summary(names: &[String], since: SystemTime) -> String {
    let mut out = String::from(
        "| function | median µs | GB/s (read + write) | × `tegra_swizzle` (1 thread, same direction) |\n|---|---:|---:|---:|\n",
    );
    let bytes = (SIDE * SIDE * BYTES_PER_PIXEL * 2) as f64;
    let time = |name: &str| median_ns("tegra_4096", name, since).ok();
    for name in names {
        let Some(ns) = time(name) else {
            let _ = writeln!(out, "| {name} | n/a | | |");
            continue;
        };
        let anchor = match name.contains("deswizzle") {
            true => time("tegra_swizzle_deswizzle_1t"),
            false => time("tegra_swizzle_swizzle_1t"),
        };
        let ratio = match (name.starts_with("memcpy"), anchor) {
            (false, Some(anchor)) => format!("{:.2}", anchor / ns),
            _ => String::new(),
        };
        let _ = writeln!(
            out,
            "| {name} | {:.1} | {:.1} | {ratio} |",
            ns / 1e3,
            bytes / ns
        );
    }
    out
}

fn main() {
    let started = common::started();
    let mut criterion = common::criterion(20);
    let names = benches(&mut criterion);
    criterion.final_summary();
    if is_benchmark_run() {
        println!("\n## Tegra X1 block-linear, 4096² RGBA8, block height 16\n");
        println!("{}", summary(&names, started));
    }
}
