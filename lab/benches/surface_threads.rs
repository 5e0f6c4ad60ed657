//! Where a texture surface's copy on all threads loses to the threaded memcpy of the same
//! bytes: the texture bench's 4096² surfaces, each copy and variants of it paired in time
//! with `common::memcpy_threads` of its linear bytes (`common::paired`), with both sides'
//! median times.
//!
//! Variants: the default options; stores forced cached or streaming; mip 0 alone; the
//! levels past mip 0 alone (the surface of half the side and one mip fewer); the threads
//! given as a count (the levels one after another, each spread over them). Run with
//! `cargo bench -p swizzle-lab --bench surface_threads` (`SWIZZLE_PROBE_SURFACES`: a
//! comma-separated subset of the labels).

#[path = "../../benches/common/mod.rs"]
#[allow(dead_code)]
mod common;

use swizzle::kernel::{Options, Stores};
use swizzle::texture::wiiu::TileMode;
use swizzle::texture::{Format, Platform, Surface};

const SIDE: usize = 4096;

/// One copy of `surface` in one direction with `options`, paired with the threaded memcpy
/// of its linear bytes.
fn probe(label: &str, surface: Surface, options: Options) {
    let linear: Vec<u8> = (0..surface.linear_size().unwrap())
        .map(|i| (i * 7 + i / 251) as u8)
        .collect();
    let tiled = surface.swizzle_to_vec(&linear).unwrap();
    let (mut l, mut t) = (vec![0u8; linear.len()], vec![0u8; tiled.len()]);
    let mut copy = vec![0u8; linear.len()];
    let mut memcpy = || common::memcpy_threads(&mut copy, &linear);
    let swizzle = common::paired(&mut memcpy, || {
        surface.swizzle_with(options, &linear, &mut t).unwrap()
    });
    let deswizzle = common::paired(&mut memcpy, || {
        surface.deswizzle_with(options, &tiled, &mut l).unwrap()
    });
    assert!(l == linear && t == tiled, "{label}");
    let us = |s: f64| s * 1e6;
    println!(
        "| {label} | {swizzle} | {:.0} / {:.0} | {deswizzle} | {:.0} / {:.0} |",
        us(swizzle.seconds[1]),
        us(swizzle.seconds[0]),
        us(deswizzle.seconds[1]),
        us(deswizzle.seconds[0]),
    );
}

fn main() {
    let wiiu = Platform::WiiU {
        tile_mode: TileMode::Tiled2DThin1,
        swizzle: 0x500,
    };
    let surfaces = [
        ("ps3_bc3_13mips", Platform::Ps3, Format::Bc3Unorm, 13),
        ("ps3_rgba8", Platform::Ps3, Format::Rgba8Unorm, 1),
        ("wiiu_bc3_13mips", wiiu, Format::Bc3Unorm, 13),
        ("wiiu_rgba8", wiiu, Format::Rgba8Unorm, 1),
        ("d3d12_bc7_13mips", Platform::D3d12, Format::Bc7Unorm, 13),
        ("n3ds_rgba8_10mips", Platform::N3ds, Format::Rgba8Unorm, 10),
    ];
    let only = std::env::var("SWIZZLE_PROBE_SURFACES").ok();
    let threads = rayon::current_num_threads();
    println!("{threads} threads; memcpy / copy, paired (quartiles); µs copy / memcpy\n");
    println!("| surface, variant | swizzle | µs | deswizzle | µs |\n|---|---:|---:|---:|---:|");
    for (name, platform, format, mips) in surfaces {
        if only
            .as_ref()
            .is_some_and(|only| !only.split(',').any(|o| o == name))
        {
            continue;
        }
        let surface = Surface::new(platform, SIDE, SIDE, format).mips(mips);
        let default = Options::default();
        probe(&format!("{name}, default"), surface, default);
        for (what, stores) in [("cached", Stores::Cached), ("streaming", Stores::Streaming)] {
            probe(&format!("{name}, {what}"), surface, default.stores(stores));
        }
        if mips > 1 {
            probe(&format!("{name}, mip 0 alone"), surface.mips(1), default);
            let rest = Surface::new(platform, SIDE / 2, SIDE / 2, format).mips(mips - 1);
            probe(&format!("{name}, mips past 0 alone"), rest, default);
        }
        probe(
            &format!("{name}, threads({threads})"),
            surface,
            default.threads(threads),
        );
    }
}
