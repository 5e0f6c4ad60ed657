//! Whole texture surfaces (`swizzle::texture`) against each platform's crate, in one run:
//! a 4096² RGBA8 surface and a 4096² BC7 surface of 13 mips, tiled and untiled.
//!
//! - Switch against `tegra_swizzle` 0.4: into caller buffers (its C API) on one thread, and
//!   allocating (its safe `swizzle_surface` / `deswizzle_surface` allocate their output,
//!   zeroed; ours then is `swizzle_to_vec_with` / `deswizzle_to_vec_with` on one thread,
//!   the allocation counted: zeroed too, advised to use huge pages).
//! - PS4, PS3 and Xbox 360 against `swizzleinator` 0.2 (caller buffers; one level per call,
//!   so its surface is a loop over our levels' ranges): PS3 RGBA8 and BC3 of 13 mips, Xbox
//!   360 RGBA8 of 1 and 8 mips (its BCn formats byte-swap the texels).
//! - 3DS against `swizzle_3ds` 0.2 (caller buffers; it only tiles): RGBA8, mip 0 and 10 mips
//!   (4096 to 8; the 3DS has no BC7).
//! - D3D12 standard swizzle: no crate; our time alone.
//! - Wii U (2-D thin-1, swizzle 0x500) against `wiiu_swizzle` 0.3's whole-surface read
//!   (`Gx2Surface::deswizzle`, allocating; RGBA8 and BC3, GX2 having no BC7).
//!
//! Every surface also runs a memcpy of its linear bytes, on one thread and across threads:
//! each of our functions' ratio to the memcpy with as many threads (`_1t`, `_alloc_1t`: one;
//! `_all`: all) says how near the memory's speed it copies.
//! Our four copies into caller buffers are also timed against that memcpy paired in time
//! (`common::paired`: rounds of one run of each, back to back), which the host's slower
//! swings move alike.
//!
//! Run with `cargo bench --bench texture`. Bytes are checked equal before timing; each
//! surface's rows (each function's ratio against the crate in the same direction, and
//! against memcpy) are printed as soon as its group has run, and `main` prints the whole
//! table at the end.

mod common;

use common::{Paired, is_benchmark_run, median_ns, paired};
use criterion::Criterion;
use std::hint::black_box;
use std::num::NonZeroU32;
use std::time::SystemTime;
use swizzle::kernel::Options;
use swizzle::texture::{Format, Platform, Surface};
use swizzleinator::format::GcmSurfaceFormat::{A8R8G8B8, COMPRESSED_DXT45};
use swizzleinator::format::GcnSurfaceFormat::{self, Format8_8_8_8};
use swizzleinator::format::XenosSurfaceFormat;
use swizzleinator::swizzle::ps::{Ps3, Ps4};
use swizzleinator::swizzle::xbox::Xbox360;
use swizzleinator::swizzle::{Deswizzler, Swizzler};

const SIDE: usize = 4096;

fn data(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 7 + i / 251) as u8).collect()
}

fn block_dim(format: Format) -> tegra_swizzle::surface::BlockDim {
    let n = |v: usize| NonZeroU32::new(v as u32).unwrap();
    tegra_swizzle::surface::BlockDim {
        width: n(format.block().width),
        height: n(format.block().height),
        depth: n(1),
    }
}

/// `tegra_swizzle`'s surface into a caller buffer (its C API), mip 0's block height as it
/// infers it.
fn tegra_into(surface: &Surface, src: &[u8], dst: &mut [u8], deswizzle: bool) {
    let f = surface.format;
    let block_height =
        tegra_swizzle::block_height_mip0(surface.height.div_ceil(f.block().height) as u32) as u32;
    let run = match deswizzle {
        false => tegra_swizzle::ffi::swizzle_surface,
        true => tegra_swizzle::ffi::deswizzle_surface,
    };
    // SAFETY: `src` and `dst` are whole slices of the sizes the crate computes for this
    // surface (checked equal to ours before timing).
    unsafe {
        run(
            surface.width as u32,
            surface.height as u32,
            1,
            src.as_ptr(),
            src.len(),
            dst.as_mut_ptr(),
            dst.len(),
            block_dim(f),
            block_height,
            f.bytes_per_block() as u32,
            surface.mips as u32,
            1,
        )
    }
}

fn tegra_alloc(surface: &Surface, src: &[u8], deswizzle: bool) -> Vec<u8> {
    let f = surface.format;
    let run = match deswizzle {
        false => tegra_swizzle::surface::swizzle_surface,
        true => tegra_swizzle::surface::deswizzle_surface,
    };
    run(
        surface.width as u32,
        surface.height as u32,
        1,
        src,
        block_dim(f),
        None,
        f.bytes_per_block() as u32,
        surface.mips as u32,
        1,
    )
    .expect("tegra_swizzle tiles it")
}

/// `swizzleinator`'s tiling `S` (PS3, PS4 or Xbox 360), level by level over our levels'
/// ranges (it tiles one level per call).
fn swizzleinator_into<S: Swizzler + Deswizzler>(
    surface: &Surface,
    format: impl swizzleinator::swizzle::Format + Copy,
    src: &mut [u8],
    dst: &mut [u8],
    deswizzle: bool,
) {
    let f = surface.format;
    for level in surface.levels().unwrap() {
        let [_, h, w] = level.blocks;
        let dims = (w * f.block().width, h * f.block().height, 1);
        let (from, to) = match deswizzle {
            false => (level.linear.clone(), level.swizzled.clone()),
            true => (level.swizzled.clone(), level.linear.clone()),
        };
        let (src, dst) = (&mut src[from], &mut dst[to]);
        let done = match deswizzle {
            false => S::swizzle(src, dst, dims, format, false),
            true => S::deswizzle(src, dst, dims, format, false),
        };
        done.expect("swizzleinator tiles it");
    }
}

/// `swizzle_3ds`'s tiling (RGBA8), level by level.
fn n3ds_into(surface: &Surface, src: &[u8], dst: &mut [u8]) {
    for level in surface.levels().unwrap() {
        let view = swizzle_3ds::pix::ImageView::new(
            &src[level.linear.clone()],
            level.width,
            level.height,
            swizzle_3ds::pix::ImageFormat::Rgba8,
        );
        swizzle_3ds::swizzle_image_into(&view, &mut dst[level.swizzled.clone()]);
    }
}

/// One case's functions: its name, and each function's name with the anchor it is
/// compared with (`None`: the anchor itself, or none).
type Names = Vec<(String, Option<String>)>;

/// A case: its group's name, its functions and, for each of ours, the memcpy with as many
/// threads over it paired in time ([`common::paired`]).
type Case = (String, Names, Vec<(String, Paired)>);

/// Times our functions in a case's group beside its anchors, closes the group and prints
/// the case's rows of the summary.
fn ours(
    (group_name, mut criterion, mut names): Group<'_>,
    surface: &Surface,
    linear: &[u8],
    tiled: &[u8],
    anchors: [Option<&str>; 2],
) -> Case {
    let (one, all) = (Options::default().threads(1), Options::default());
    // The memory's speed for the surface's bytes: memcpy of the linear bytes on one thread,
    // and split across threads (256 KiB parts, rayon's pool).
    let memcpy = |threads: Options| {
        let mut copy = vec![0u8; linear.len()];
        move || match threads.threads == std::num::NonZeroUsize::new(1) {
            true => copy.copy_from_slice(black_box(linear)),
            false => common::memcpy_threads(&mut copy, black_box(linear)),
        }
    };
    for (name, threads) in MEMCPY.into_iter().zip([one, all]) {
        let mut copy = memcpy(threads);
        criterion.bench_function(name, |b| b.iter(&mut copy));
    }
    names.extend(MEMCPY.map(|name| (name.to_owned(), None)));
    // Ours into caller buffers: each function's name, options and direction (a swizzle,
    // against the first anchor, or a deswizzle, against the second).
    let functions = [
        ("swizzle_swizzle_1t", one, true),
        ("swizzle_deswizzle_1t", one, false),
        ("swizzle_swizzle_all", all, true),
        ("swizzle_deswizzle_all", all, false),
    ];
    let (mut t, mut l) = (vec![0u8; tiled.len()], vec![0u8; linear.len()]);
    let mut run = |options: Options, swizzle: bool| match swizzle {
        true => surface.swizzle_with(options, black_box(linear), &mut t),
        false => surface.deswizzle_with(options, black_box(tiled), &mut l),
    };
    for (name, options, swizzle) in functions {
        criterion.bench_function(name, |b| b.iter(|| run(options, swizzle).unwrap()));
        let anchor = anchors[usize::from(!swizzle)];
        names.push((name.to_owned(), anchor.map(str::to_owned)));
    }
    criterion.finish();
    // Each of ours against the memcpy with as many threads, paired in time.
    let mut pairs = Vec::new();
    // (Where the command line's filter left the group out, its memcpy has no median.)
    let ran = median_ns(&group_name, MEMCPY[1], common::started()).is_ok();
    if is_benchmark_run() && ran {
        for (name, options, swizzle) in functions {
            let ratio = paired(memcpy(options), || run(options, swizzle).unwrap());
            println!("{group_name}/{name}: memcpy / function paired in time {ratio}");
            pairs.push((name.to_owned(), ratio));
        }
    }
    let case = (group_name, names, pairs);
    if is_benchmark_run() {
        println!(
            "\n{}",
            summary(std::slice::from_ref(&case), common::started())
        );
    }
    case
}

/// A case's group as it is being filled: its name, the criterion group and the names of
/// the functions measured so far.
type Group<'c> = (
    String,
    criterion::BenchmarkGroup<'c, criterion::measurement::WallTime>,
    Names,
);

/// A surface of `SIDE × SIDE` texels on `platform`, its linear data and its tiling.
fn texture(platform: Platform, format: Format, mips: usize) -> (Surface, Vec<u8>, Vec<u8>) {
    let surface = Surface::new(platform, SIDE, SIDE, format).mips(mips);
    let linear = data(surface.linear_size().unwrap());
    let tiled = surface.swizzle_to_vec(&linear).unwrap();
    (surface, linear, tiled)
}

/// One surface of `S`'s platform against `swizzleinator` (caller buffers, one thread).
fn swizzleinator_case<S: Swizzler + Deswizzler + Platformed>(
    criterion: &mut Criterion,
    cases: &mut Vec<Case>,
    (format, mips, label): (Format, usize, &str),
    theirs: impl swizzleinator::swizzle::Format + Copy,
) {
    let (surface, mut linear, mut tiled) = texture(S::PLATFORM, format, mips);
    let mut t = vec![0u8; tiled.len()];
    swizzleinator_into::<S>(&surface, theirs, &mut linear, &mut t, false);
    assert!(t == tiled, "{:?} {label}", S::PLATFORM);
    let mut l = vec![0u8; linear.len()];
    let group_name = format!("texture_{}_{label}", S::NAME);
    let mut group = criterion.benchmark_group(&group_name);
    let mut names = Names::new();
    group.bench_function("swizzleinator_swizzle_1t", |b| {
        b.iter(|| swizzleinator_into::<S>(&surface, theirs, black_box(&mut linear), &mut t, false))
    });
    group.bench_function("swizzleinator_deswizzle_1t", |b| {
        b.iter(|| swizzleinator_into::<S>(&surface, theirs, black_box(&mut tiled), &mut l, true))
    });
    names.push(("swizzleinator_swizzle_1t".into(), None));
    names.push(("swizzleinator_deswizzle_1t".into(), None));
    let anchors = [
        Some("swizzleinator_swizzle_1t"),
        Some("swizzleinator_deswizzle_1t"),
    ];
    let group = (group_name, group, names);
    cases.push(ours(group, &surface, &linear, &tiled, anchors));
}

/// Our platform for each of `swizzleinator`'s, and its name in the bench's groups.
trait Platformed {
    const PLATFORM: Platform;
    const NAME: &str;
}

impl Platformed for Ps4 {
    const PLATFORM: Platform = Platform::Ps4;
    const NAME: &str = "ps4";
}

impl Platformed for Ps3 {
    const PLATFORM: Platform = Platform::Ps3;
    const NAME: &str = "ps3";
}

impl Platformed for Xbox360 {
    const PLATFORM: Platform = Platform::Xbox360;
    const NAME: &str = "xbox360";
}

fn benches(criterion: &mut Criterion) -> Vec<Case> {
    let mut cases = Vec::new();
    let one = Options::default().threads(1);
    let rgba8 = (Format::Rgba8Unorm, 1, "rgba8");
    let bc7 = (Format::Bc7Unorm, 13, "bc7_13mips");

    // Switch.
    for (format, mips, label) in [rgba8, bc7] {
        let (surface, linear, tiled) = texture(Platform::SWITCH, format, mips);
        assert!(
            tiled == tegra_alloc(&surface, &linear, false),
            "Switch {label}"
        );
        let mut t = vec![0u8; tiled.len()];
        let mut l = vec![0u8; linear.len()];
        tegra_into(&surface, &linear, &mut t, false);
        assert!(t == tiled);
        let group_name = format!("texture_switch_{label}");
        let mut group = criterion.benchmark_group(&group_name);
        let mut names = Names::new();
        group.bench_function("tegra_swizzle_swizzle_1t", |b| {
            b.iter(|| tegra_into(&surface, black_box(&linear), &mut t, false))
        });
        group.bench_function("tegra_swizzle_deswizzle_1t", |b| {
            b.iter(|| tegra_into(&surface, black_box(&tiled), &mut l, true))
        });
        group.bench_function("tegra_swizzle_swizzle_alloc", |b| {
            b.iter(|| tegra_alloc(&surface, black_box(&linear), false))
        });
        group.bench_function("tegra_swizzle_deswizzle_alloc", |b| {
            b.iter(|| tegra_alloc(&surface, black_box(&tiled), true))
        });
        for n in [
            "swizzle_1t",
            "deswizzle_1t",
            "swizzle_alloc",
            "deswizzle_alloc",
        ] {
            names.push((format!("tegra_swizzle_{n}"), None));
        }
        // Ours allocating, as the crate's safe API does (one thread, as the crate): the
        // library's own allocating forms.
        group.bench_function("swizzle_swizzle_alloc_1t", |b| {
            b.iter(|| {
                surface
                    .swizzle_to_vec_with(one, black_box(&linear))
                    .unwrap()
            })
        });
        group.bench_function("swizzle_deswizzle_alloc_1t", |b| {
            b.iter(|| {
                surface
                    .deswizzle_to_vec_with(one, black_box(&tiled))
                    .unwrap()
            })
        });
        names.push((
            "swizzle_swizzle_alloc_1t".into(),
            Some("tegra_swizzle_swizzle_alloc".into()),
        ));
        names.push((
            "swizzle_deswizzle_alloc_1t".into(),
            Some("tegra_swizzle_deswizzle_alloc".into()),
        ));
        let anchors = [
            Some("tegra_swizzle_swizzle_1t"),
            Some("tegra_swizzle_deswizzle_1t"),
        ];
        let group = (group_name, group, names);
        cases.push(ours(group, &surface, &linear, &tiled, anchors));
    }

    // PS4, PS3 and Xbox 360 against swizzleinator (the Xbox 360: RGBA8 only, its BCn
    // formats byte-swapping; levels of whole 32 × 32 tiles, its swizzle dropping texels past
    // the linear size in padded ones).
    swizzleinator_case::<Ps4>(criterion, &mut cases, rgba8, Format8_8_8_8);
    swizzleinator_case::<Ps4>(criterion, &mut cases, bc7, GcnSurfaceFormat::BC7);
    swizzleinator_case::<Ps3>(criterion, &mut cases, rgba8, A8R8G8B8);
    let bc3 = (Format::Bc3Unorm, 13, "bc3_13mips");
    swizzleinator_case::<Ps3>(criterion, &mut cases, bc3, COMPRESSED_DXT45);
    let xenos = XenosSurfaceFormat::k_8_8_8_8;
    swizzleinator_case::<Xbox360>(criterion, &mut cases, rgba8, xenos);
    let rgba8_8mips = (Format::Rgba8Unorm, 8, "rgba8_8mips");
    swizzleinator_case::<Xbox360>(criterion, &mut cases, rgba8_8mips, xenos);

    // 3DS: RGBA8, mip 0 and 10 mips.
    for (mips, label) in [(1, "rgba8"), (10, "rgba8_10mips")] {
        let (surface, linear, tiled) = texture(Platform::N3ds, Format::Rgba8Unorm, mips);
        let mut t = vec![0u8; tiled.len()];
        n3ds_into(&surface, &linear, &mut t);
        assert!(t == tiled, "3DS {label}");
        let group_name = format!("texture_3ds_{label}");
        let mut group = criterion.benchmark_group(&group_name);
        let mut names = Names::new();
        group.bench_function("swizzle_3ds_swizzle_1t", |b| {
            b.iter(|| n3ds_into(&surface, black_box(&linear), &mut t))
        });
        names.push(("swizzle_3ds_swizzle_1t".into(), None));
        let group = (group_name, group, names);
        cases.push(ours(
            group,
            &surface,
            &linear,
            &tiled,
            [Some("swizzle_3ds_swizzle_1t"), None],
        ));
    }

    // D3D12 standard swizzle: ours alone.
    for (format, mips, label) in [rgba8, bc7] {
        let (surface, linear, tiled) = texture(Platform::D3d12, format, mips);
        let group_name = format!("texture_d3d12_{label}");
        let group = criterion.benchmark_group(&group_name);
        let group = (group_name, group, Names::new());
        cases.push(ours(group, &surface, &linear, &tiled, [None, None]));
    }
    // Wii U (2-D thin-1 macro tiles, swizzle 0x500): against `wiiu_swizzle`'s read of the
    // whole surface (`Gx2Surface::deswizzle`, which allocates; its write path drops texels,
    // so it has no swizzle to time). GX2 has no BC7: BC3, of the same 16-byte blocks.
    let bc3 = (Format::Bc3Unorm, 13, "bc3_13mips");
    for (format, mips, label) in [rgba8, bc3] {
        let platform = Platform::WiiU {
            tile_mode: swizzle::texture::wiiu::TileMode::Tiled2DThin1,
            swizzle: 0x500,
        };
        let (surface, linear, tiled) = texture(platform, format, mips);
        let gx2 = gx2_surface(&surface, &tiled);
        assert!(gx2.deswizzle().unwrap() == linear, "Wii U {label}");
        let group_name = format!("texture_wiiu_{label}");
        let mut group = criterion.benchmark_group(&group_name);
        // The reference computes every texel's address: seconds a surface.
        group.sample_size(10);
        let mut names = Names::new();
        group.bench_function("wiiu_swizzle_deswizzle_alloc", |b| {
            b.iter(|| black_box(&gx2).deswizzle().unwrap())
        });
        names.push(("wiiu_swizzle_deswizzle_alloc".into(), None));
        group.bench_function("swizzle_deswizzle_alloc_1t", |b| {
            b.iter(|| {
                surface
                    .deswizzle_to_vec_with(one, black_box(&tiled))
                    .unwrap()
            })
        });
        names.push((
            "swizzle_deswizzle_alloc_1t".into(),
            Some("wiiu_swizzle_deswizzle_alloc".into()),
        ));
        let group = (group_name, group, names);
        cases.push(ours(group, &surface, &linear, &tiled, [None, None]));
    }
    cases
}

/// `wiiu_swizzle`'s view of our tiled Wii U surface (one layer): the header GX2 files hold.
fn gx2_surface<'a>(surface: &Surface, tiled: &'a [u8]) -> wiiu_swizzle::Gx2Surface<'a> {
    use wiiu_swizzle::{AaMode, Gx2Surface, SurfaceDim, SurfaceFormat, TileMode};
    let Platform::WiiU { tile_mode, swizzle } = surface.platform else {
        unreachable!("a Wii U surface")
    };
    let u = |v: usize| v as u32;
    let starts: Vec<usize> = (0..surface.mips)
        .map(|mip| surface.level(0, mip).unwrap().swizzled.start)
        .collect();
    let mip1 = starts.get(1).copied().unwrap_or(tiled.len());
    let mut mipmap_offsets = [0u32; 13];
    mipmap_offsets[0] = u(mip1);
    for (offset, start) in mipmap_offsets[1..].iter_mut().zip(starts.iter().skip(2)) {
        *offset = u(start - mip1);
    }
    let bytes = surface.format.bytes_per_block();
    Gx2Surface {
        dim: SurfaceDim::D2,
        width: u(surface.width),
        height: u(surface.height),
        depth_or_array_layers: 1,
        mipmap_count: u(surface.mips),
        format: match bytes {
            4 => SurfaceFormat::R8G8B8A8Unorm,
            _ => SurfaceFormat::Bc3Unorm,
        },
        aa: AaMode::X1,
        usage: 1,
        image_data: &tiled[..mip1],
        mipmap_data: &tiled[mip1..],
        tile_mode: TileMode::from_repr(tile_mode as u32).unwrap(),
        swizzle,
        alignment: 512 * u(bytes),
        pitch: u(swizzle::texture::wiiu::level_info(surface, 0)
            .unwrap()
            .pitch),
        mipmap_offsets,
    }
}

/// Each case's memcpy of the surface's linear bytes: on one thread, and across threads.
const MEMCPY: [&str; 2] = ["memcpy_1t", "memcpy_all"];

/// The markdown table of this run: each function's median, its ratio against its anchor
/// (the anchor's time over ours: above 1 is faster), and against memcpy of the same bytes
/// with as many threads (`_all`: the threaded memcpy; others: one thread), from criterion's
/// medians and paired in time (the median and quartiles of the rounds).
fn summary(cases: &[Case], since: SystemTime) -> String {
    let mut out = String::from(
        "| surface | function | median ms | × anchor | memcpy / function | paired in time |\n|---|---|---:|---:|---:|---:|\n",
    );
    for (group, names, pairs) in cases {
        // A surface the command line's filter left out.
        if names
            .iter()
            .all(|(name, _)| median_ns(group, name, since).is_err())
        {
            continue;
        }
        let memcpy = MEMCPY.map(|name| median_ns(group, name, since).ok());
        for (name, anchor) in names {
            let ns = median_ns(group, name, since).ok();
            let ratio = anchor
                .as_ref()
                .and_then(|a| median_ns(group, a, since).ok())
                .zip(ns)
                .map(|(a, n)| {
                    format!(
                        "{:.2} ({anchor})",
                        a / n,
                        anchor = anchor.as_deref().unwrap_or("")
                    )
                })
                .unwrap_or_default();
            let threads = match name.ends_with("_all") {
                true => memcpy[1],
                false => memcpy[0],
            };
            let memory = match MEMCPY.contains(&name.as_str()) {
                true => String::new(),
                false => threads
                    .zip(ns)
                    .map(|(m, n)| format!("{:.2}", m / n))
                    .unwrap_or_default(),
            };
            let ms = ns.map_or("n/a".to_owned(), |ns| format!("{:.2}", ns / 1e6));
            let paired = pairs
                .iter()
                .find(|(function, _)| function == name)
                .map(|(_, ratio)| ratio.to_string())
                .unwrap_or_default();
            out.push_str(&format!(
                "| {group} | {name} | {ms} | {ratio} | {memory} | {paired} |\n"
            ));
        }
    }
    out
}

fn main() {
    let started = common::started();
    let mut criterion = common::criterion(10);
    let cases = benches(&mut criterion);
    criterion.final_summary();
    if is_benchmark_run() {
        println!("\n## Texture surfaces, 4096²\n");
        println!("{}", summary(&cases, started));
    }
}
