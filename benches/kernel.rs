//! Throughput of the copy kernels (BENCHMARKS.md): packing a row-major image into tiled
//! layouts and back, against `memcpy` of the same bytes (single-threaded `copy_from_slice`
//! and the same split across threads with rayon) and the Switch surface of the same bytes
//! (RGBA8, `swizzle::texture`, all threads: the block-linear copy that Block16's generic
//! kernels are held to), all in one run. The byte forms (`run_bytes_with`, 4-byte
//! elements) of Morton8 and Block16 run beside their typed forms.
//!
//! Each kernel runs through its generated `run_with` at every level that has a network (so
//! with its generated SIMD rows there) and at `Scalar` (its straight-line full tile); in
//! cache, also on one thread.
//!
//! Past the caches (4096² and 8192²), each kernel's default route is also timed against
//! the threaded memcpy and the Switch surface paired in time (`common::paired`: rounds of
//! one run of each, back to back), which the host's slower swings move alike.
//!
//! Run with `cargo bench --bench kernel`. Every kernel is checked against the reference
//! interpreter before it is timed; each layout's rows of the markdown tables of this run's
//! ratios are printed as soon as its functions have run, and `main` prints the whole tables
//! at the end.

mod common;

use common::{Paired, fastest, is_benchmark_run, median_ns, medians, paired};
use criterion::{BenchmarkGroup, Criterion, Throughput, measurement::WallTime};
use rayon::prelude::*;
use std::fmt::Write as _;
use std::hint::black_box;
use std::time::SystemTime;
use swizzle::kernel::{self, Frame, KernelError, Level, Options, Plan, Route, Side};
use swizzle::texture::{Format, Platform, Surface};

#[path = "../tests/common/kernels.rs"]
#[macro_use]
mod kernels;

kernel_layouts!(swizzle::layout);

/// Square images: 1 MiB of `u32` (cache-resident), 64 MiB and 256 MiB (memory-bound).
const SIDES: [usize; 3] = [512, 4096, 8192];

/// A tiled layout's sides for the runtime: row-major image and tiles.
struct Tiled {
    name: &'static str,
    /// The image's sides: rows, columns.
    extents: [usize; 2],
    space: usize,
    /// The pack kernel's plan: which levels have networks.
    pack: Plan,
    /// The generated `run_with` of the pack and unpack kernels (with their straight-line
    /// full tiles where the macro unrolled them), at a level.
    run_pack: Box<Runner>,
    run_unpack: Box<Runner>,
    descriptor: swizzle::ir::Descriptor,
    /// The route each direction (pack, unpack) takes with default options.
    routes: [Box<Router>; 2],
}

type Runner = dyn Fn(Options, &[u32], &mut [u32]) -> Result<(), KernelError>;

/// The route a kernel takes with some options.
type Router = dyn Fn(Options) -> Result<Route, KernelError>;

/// A kernel's generated forms over elements of `$element`: `u32` (the typed `run_with`), or
/// `[u8; 4]`, the byte forms (`run_bytes_with` over the image's bytes as 4-byte elements, the
/// pixels of a file format), which must run as fast as the typed ones.
macro_rules! tiled {
    (@run u32, $kernel:ident, $layout:expr, $options:expr, $src:expr, $dst:expr) => {
        $kernel::run_with($layout, $options, $src, $dst)
    };
    (@run [u8; 4], $kernel:ident, $layout:expr, $options:expr, $src:expr, $dst:expr) => {{
        let (src, dst) = (bytemuck::cast_slice($src), bytemuck::cast_slice_mut($dst));
        $kernel::run_bytes_with($layout, $options, 4, src, dst)
    }};
    ($name:literal, $layout:ident, $pack:ident, $unpack:ident, $side:expr) => {
        tiled!($name as u32, $layout, $pack, $unpack, $side)
    };
    ($name:literal as $element:tt, $layout:ident, $pack:ident, $unpack:ident, $side:expr) => {{
        let layout = $layout::new($side, $side).expect("fits");
        let unpack_layout = layout.clone();
        Tiled {
            name: $name,
            extents: layout.extents(),
            space: layout.space(),
            pack: $pack::plan().clone(),
            descriptor: $layout::DESCRIPTOR,
            routes: [
                Box::new(|options| $pack::route::<$element>(options)),
                Box::new(|options| $unpack::route::<$element>(options)),
            ],
            run_pack: Box::new(move |options: Options, src: &[u32], dst: &mut [u32]| {
                tiled!(@run $element, $pack, &layout, options, src, dst)
            }),
            run_unpack: Box::new(move |options: Options, src: &[u32], dst: &mut [u32]| {
                tiled!(@run $element, $unpack, &unpack_layout, options, src, dst)
            }),
        }
    }};
}

/// The same kernel written by hand: its plan copied through `swizzle::kernel::copy_with`,
/// with none of the code `layout!` generates for it (the runtime's interpreted networks
/// and runs).
macro_rules! by_hand {
    ($name:literal, $layout:ident, $pack:ident, $unpack:ident, $side:expr) => {{
        let layout = $layout::new($side, $side).expect("fits");
        let (extents, tiles) = (layout.extents(), layout.tiles());
        // The two sides, image first; built per call, as they borrow the tile counts.
        let copy = move |pack: bool, options, plan, src: &[u32], dst: &mut [u32]| {
            let image = Side {
                extents: &extents,
                frame: Frame::RowMajor,
            };
            let tiled = Side {
                extents: &extents,
                frame: Frame::Tiles {
                    tiles: &tiles,
                    tile_space: $layout::TILE_SPACE,
                },
            };
            let (from, to) = if pack { (image, tiled) } else { (tiled, image) };
            kernel::copy_with(options, plan, from, to, src, dst)
        };
        Tiled {
            name: $name,
            extents,
            space: layout.space(),
            pack: $pack::plan().clone(),
            descriptor: $layout::DESCRIPTOR,
            routes: [
                Box::new(|options| kernel::route::<u32>($pack::plan(), options)),
                Box::new(|options| kernel::route::<u32>($unpack::plan(), options)),
            ],
            run_pack: Box::new(move |options: Options, src: &[u32], dst: &mut [u32]| {
                copy(true, options, $pack::plan(), src, dst)
            }),
            run_unpack: Box::new(move |options: Options, src: &[u32], dst: &mut [u32]| {
                copy(false, options, $unpack::plan(), src, dst)
            }),
        }
    }};
}

impl Tiled {
    /// The image packed by the interpreter: every element at its offset.
    fn expected(&self, image: &[u32]) -> Vec<u32> {
        // The interpreter's offsets across threads, row by row (it is slow at 8192²).
        let (descriptor, extents) = (&self.descriptor, self.extents);
        let [rows, cols] = extents;
        let offsets: Vec<usize> = (0..rows)
            .into_par_iter()
            .flat_map_iter(|y| {
                (0..cols).map(move |x| descriptor.offset_in(&extents, &[y, x]).expect("valid"))
            })
            .collect();
        let mut packed = vec![u32::MAX; self.space];
        for (offset, value) in offsets.into_iter().zip(image) {
            packed[offset] = *value;
        }
        packed
    }

    /// Packs and unpacks with `level`, checking against the interpreter's packing.
    fn verify(&self, level: Level, image: &[u32], expected: &[u32]) {
        let mut packed = vec![u32::MAX; self.space];
        (self.run_pack)(level.into(), image, &mut packed).expect("fits");
        assert!(packed == expected, "{} pack at {level:?}", self.name);
        let mut back = vec![u32::MAX; image.len()];
        (self.run_unpack)(level.into(), &packed, &mut back).expect("fits");
        assert!(back == image, "{} unpack at {level:?}", self.name);
    }
}

/// Every level this CPU runs that has a network for `u32` in `plan`, plus plain runs.
fn levels(plan: &Plan) -> Vec<Level> {
    Level::ALL
        .into_iter()
        .filter(|level| {
            level.is_available()
                && (*level == Level::Scalar || level.network::<u32>(plan).is_some())
        })
        .collect()
}

/// One direction of one kernel in one group: the level its default options choose, and the
/// levels it ran at (for the summary of the choice).
struct Choice {
    /// `morton8_pack`, …: the functions' names without the level.
    kernel: String,
    route: Route,
    levels: Vec<Level>,
}

/// Times `layout`'s kernels in `group` (named `group_name`), then prints their rows of the
/// summary tables.
fn bench_layout(
    (group_name, group): (&str, &mut BenchmarkGroup<WallTime>),
    layout: &Tiled,
    image: &[u32],
    names: &mut Vec<String>,
    choices: &mut Vec<Choice>,
) {
    let (first_name, first_choice) = (names.len(), choices.len());
    for (direction, route) in ["pack", "unpack"].into_iter().zip(&layout.routes) {
        choices.push(Choice {
            kernel: format!("{}_{direction}", layout.name),
            route: route(Options::default()).expect("the default options run"),
            levels: levels(&layout.pack),
        });
    }
    let expected = layout.expected(image);
    // The unpacks read the packed image whether or not a pack ran before them: a buffer
    // never written (`vec![0; n]`) reads the kernel's one zero page, from L1.
    let mut packed = expected.clone();
    let mut back = vec![0u32; image.len()];
    for level in levels(&layout.pack) {
        layout.verify(level, image, &expected);
        // In cache, one thread beside the default (threads from 1 MiB on).
        let threads: &[Option<usize>] = match image.len() * 4 <= 1 << 20 {
            true => &[None, Some(1)],
            false => &[None],
        };
        for &threads in threads {
            let (options, suffix) = match threads {
                None => (Options::from(level), String::new()),
                Some(n) => (Options::from(level).threads(n), format!("_{n}t")),
            };
            let name = format!("{}_pack_{level:?}{suffix}", layout.name);
            group.bench_function(&name, |b| {
                b.iter(|| (layout.run_pack)(options, black_box(image), &mut packed))
            });
            names.push(name);
            let name = format!("{}_unpack_{level:?}{suffix}", layout.name);
            group.bench_function(&name, |b| {
                b.iter(|| (layout.run_unpack)(options, black_box(&packed), &mut back))
            });
            names.push(name);
        }
    }
    if is_benchmark_run() {
        let since = common::started();
        let ran = [(group_name, &names[first_name..], &choices[first_choice..])];
        println!("\n{}\n{}", summary(&ran, since), self::choices(&ran, since));
    }
}

/// What one group ran: its name, its functions, and the kernels' default choices.
type Ran = (String, Vec<String>, Vec<Choice>);

/// What a part of a group ran (a layout's kernels, or the whole group), for the tables.
type Part<'a> = (&'a str, &'a [String], &'a [Choice]);

/// The groups and the functions each ran, for the summary.
fn benches(criterion: &mut Criterion, pairs: &mut Vec<String>) -> Vec<Ran> {
    let mut ran = Vec::new();
    for side in common::sides(&SIDES) {
        let image: Vec<u32> = (0..(side * side) as u32).collect();
        let group_name = format!("kernel_{side}");
        let mut group = criterion.benchmark_group(&group_name);
        group.throughput(Throughput::Bytes((image.len() * 4) as u64));
        let mut copy = vec![0u32; image.len()];
        group.bench_function("memcpy", |b| {
            b.iter(|| copy.copy_from_slice(black_box(&image)))
        });
        group.bench_function("memcpy_threads", |b| {
            b.iter(|| common::memcpy_threads(&mut copy, black_box(&image)))
        });
        // The Switch surface of the same bytes (RGBA8, one level, all threads): the
        // block-linear copy Block16's generic kernels are held to.
        let surface = Surface::new(Platform::SWITCH, side, side, Format::Rgba8Unorm);
        let linear: &[u8] = bytemuck::cast_slice(&image);
        let mut tiled = surface.swizzle_to_vec(linear).expect("fits");
        group.bench_function(SWITCH[0], |b| {
            b.iter(|| surface.swizzle(black_box(linear), &mut tiled))
        });
        let mut back = vec![0u8; linear.len()];
        group.bench_function(SWITCH[1], |b| {
            b.iter(|| surface.deswizzle(black_box(&tiled), &mut back))
        });
        let mut names = vec!["memcpy".to_owned(), "memcpy_threads".to_owned()];
        names.extend(SWITCH.map(str::to_owned));
        if is_benchmark_run() {
            let copies = [(group_name.as_str(), &names[..], &[][..])];
            println!("\n{}", summary(&copies, common::started()));
        }
        let layouts = [
            tiled!("morton8", Morton8, PackMorton8, UnpackMorton8, side),
            tiled!("morton16", Morton16, PackMorton16, UnpackMorton16, side),
            tiled!("xor8", Xor8, PackXor8, UnpackXor8, side),
            tiled!("block16", Block16, PackBlock16, UnpackBlock16, side),
            by_hand!("morton8_by_hand", Morton8, PackMorton8, UnpackMorton8, side),
            by_hand!(
                "morton16_by_hand",
                Morton16,
                PackMorton16,
                UnpackMorton16,
                side
            ),
            by_hand!("block16_by_hand", Block16, PackBlock16, UnpackBlock16, side),
            tiled!(
                "morton8_bytes" as [u8; 4],
                Morton8,
                PackMorton8,
                UnpackMorton8,
                side
            ),
            tiled!(
                "block16_bytes" as [u8; 4],
                Block16,
                PackBlock16,
                UnpackBlock16,
                side
            ),
        ];
        // `SWIZZLE_BENCH_KERNELS` (comma-separated names) keeps those alone.
        let only = std::env::var("SWIZZLE_BENCH_KERNELS").ok();
        let chosen = |name: &str| {
            only.as_ref()
                .is_none_or(|only| only.split(',').any(|o| o == name))
        };
        let mut choices = Vec::new();
        for layout in layouts.iter().filter(|layout| chosen(layout.name)) {
            let group = (group_name.as_str(), &mut group);
            bench_layout(group, layout, &image, &mut names, &mut choices);
        }
        group.finish();
        // Past the caches' reach, each layout's default route against the anchors again,
        // paired in time.
        if is_benchmark_run() && image.len() * 4 > 1 << 20 {
            for layout in layouts.iter().filter(|layout| chosen(layout.name)) {
                for row in paired_rows(layout, &image, (&surface, &tiled)) {
                    println!("{group_name}: {row}");
                    pairs.push(format!("| {side}² u32 | {row} |"));
                }
            }
        }
        ran.push((group_name, names, choices));
    }
    ran
}

/// `layout`'s pack and unpack on their default route against the threaded memcpy and the
/// Switch surface of the same bytes (`switch`: the surface and its tiled bytes), paired in
/// time ([`common::paired`]): a table row's cells for each direction.
fn paired_rows(layout: &Tiled, image: &[u32], (surface, switch): (&Surface, &[u8])) -> [String; 2] {
    let options = Options::default();
    let mut copy = vec![0u32; image.len()];
    let mut memcpy = || common::memcpy_threads(&mut copy, black_box(image));
    let linear: &[u8] = bytemuck::cast_slice(image);
    let (mut switch_tiled, mut switch_linear) = (switch.to_vec(), vec![0u8; linear.len()]);
    let mut packed = vec![0u32; layout.space];
    let mut back = vec![0u32; image.len()];
    let pack = |packed: &mut [u32]| {
        (layout.run_pack)(options, black_box(image), packed).expect("the pack runs")
    };
    let pack_ratios: [Paired; 2] = [
        paired(&mut memcpy, || pack(&mut packed)),
        paired(
            || {
                surface
                    .swizzle(black_box(linear), &mut switch_tiled)
                    .expect("fits")
            },
            || pack(&mut packed),
        ),
    ];
    let mut unpack =
        || (layout.run_unpack)(options, black_box(&packed), &mut back).expect("the unpack runs");
    let unpack_ratios: [Paired; 2] = [
        paired(&mut memcpy, &mut unpack),
        paired(
            || {
                surface
                    .deswizzle(black_box(&switch_tiled), &mut switch_linear)
                    .expect("fits")
            },
            &mut unpack,
        ),
    ];
    [("pack", pack_ratios), ("unpack", unpack_ratios)].map(|(direction, [threads, switch])| {
        format!("{}_{direction} | {threads} | {switch}", layout.name)
    })
}

/// The Switch surface's functions in each group: swizzle (a pack's bytes), deswizzle (an
/// unpack's).
const SWITCH: [&str; 2] = ["switch_surface_swizzle", "switch_surface_deswizzle"];

/// The markdown table: time, bandwidth (bytes read + written), the ratio of the best
/// memcpy's time to each function's and of the threaded memcpy's, and, for packs and
/// unpacks, the Switch surface's time for the same bytes and direction over the function's
/// (the targets of a block-linear layout such as Block16).
fn summary(ran: &[Part], since: SystemTime) -> String {
    let mut out = String::from(
        "| image | function | median µs | GB/s (read + write) | memcpy / function | memcpy_threads / function | Switch surface / function |\n|---|---|---:|---:|---:|---:|---:|\n",
    );
    for &(group, names, _) in ran {
        let side: usize = group.trim_start_matches("kernel_").parse().unwrap_or(0);
        let bytes = (side * side * 4 * 2) as f64;
        let times = medians(group, names, since);
        // The anchors of the group, which ran first (also for a layout's rows alone).
        let copies = ["memcpy".to_owned(), "memcpy_threads".to_owned()];
        let best_copy = fastest(&medians(group, &copies, since), "memcpy");
        let threaded_copy = median_ns(group, "memcpy_threads", since).ok();
        let switch = SWITCH.map(|name| median_ns(group, name, since).ok());
        let ratio = |anchor: Option<f64>, ns: f64| {
            anchor.map_or(String::new(), |a| format!("{:.2}", a / ns))
        };
        for (name, ns) in times {
            let Some(ns) = ns else {
                let _ = writeln!(out, "| {side}² u32 | {name} | n/a | | | | |");
                continue;
            };
            let switch = match (name.contains("_pack_"), name.contains("_unpack_")) {
                (true, _) => switch[0],
                (_, true) => switch[1],
                _ => None,
            };
            let _ = writeln!(
                out,
                "| {side}² u32 | {name} | {:.1} | {:.1} | {:.2} | {} | {} |",
                ns / 1e3,
                bytes / ns,
                best_copy / ns,
                ratio(threaded_copy, ns),
                ratio(switch, ns),
            );
        }
    }
    out
}

/// The markdown table of the default level: for each kernel and direction (on all threads),
/// the level its default options choose, the fastest level of this run, and how much slower
/// the chosen one ran (the rule: never more than 10 %).
fn choices(ran: &[Part], since: SystemTime) -> String {
    let mut out = String::from(
        "| image | kernel | default route | its µs | best level | best µs | default / best |\n|---|---|---|---:|---|---:|---:|\n",
    );
    for &(group, _, choices) in ran {
        let side = group.trim_start_matches("kernel_");
        for choice in choices {
            let time = |level: &Level| {
                median_ns(group, &format!("{}_{level:?}", choice.kernel), since).ok()
            };
            let timed: Vec<(Level, f64)> = choice
                .levels
                .iter()
                .filter_map(|level| Some((*level, time(level)?)))
                .collect();
            let best = timed.iter().copied().min_by(|a, b| a.1.total_cmp(&b.1));
            let chosen = timed.iter().find(|(level, _)| *level == choice.route.level);
            let (Some((best_level, best)), Some(&(_, chosen))) = (best, chosen) else {
                continue;
            };
            let route = &choice.route;
            let _ = writeln!(
                out,
                "| {side}² u32 | {} | {} {} | {:.1} | {best_level} | {:.1} | {:.2} |",
                choice.kernel,
                route.level,
                route.tiles,
                chosen / 1e3,
                best / 1e3,
                chosen / best
            );
        }
    }
    out
}

fn main() {
    let started = common::started();
    let mut criterion = common::criterion(20);
    let mut pairs = Vec::new();
    let ran = benches(&mut criterion, &mut pairs);
    criterion.final_summary();
    if is_benchmark_run() {
        let ran: Vec<Part> = ran
            .iter()
            .map(|(group, names, choices)| (group.as_str(), &names[..], &choices[..]))
            .collect();
        println!("\n## Copy kernels, u32 images\n");
        println!("{}", summary(&ran, started));
        println!("\n## The default level against the best\n");
        println!("{}", choices(&ran, started));
        println!("\n## Default routes paired in time with the anchors\n");
        println!(
            "| image | function | memcpy_threads / function | Switch surface / function |\n|---|---|---:|---:|"
        );
        for row in &pairs {
            println!("{row}");
        }
    }
}
