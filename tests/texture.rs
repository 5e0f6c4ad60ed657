//! `swizzle::texture` against each platform's reference, byte for byte: whole surfaces (mip
//! chains, array layers, depth, compressed blocks) at fixed sizes (1×1, NPOT, odd, large) and
//! in property tests over sizes, formats, mip counts, layers and depth; both directions.
//!
//! - Switch: `tegra_swizzle` 0.4's `surface` functions (sizes, swizzle, deswizzle).
//! - 3DS: `swizzle_3ds` 0.2 (`swizzle_image_into`, one level at a time; it has no
//!   deswizzle: ours must undo our swizzle).
//! - PS4: `swizzleinator` 0.2's `Ps4` (one level at a time).
//! - D3D12 64 KB standard swizzle: a `pdep` over Microsoft's interleave masks, written here.

use proptest::prelude::*;
use std::num::NonZeroU32;
use swizzle::texture::{Format, Platform, Surface, TextureError};

/// Bytes that differ from their neighbours'.
fn bytes(len: usize, seed: usize) -> Vec<u8> {
    (0..len)
        .map(|i| (i.wrapping_mul(7) + i / 251 + seed) as u8)
        .collect()
}

/// Both directions of `surface` against the reference's tiled bytes `expected` of `linear`;
/// the swizzle into a zeroed buffer (the references' padding is zero).
fn check_against(surface: &Surface, linear: &[u8], expected: &[u8]) {
    assert_eq!(surface.linear_size().unwrap(), linear.len(), "{surface:?}");
    assert_eq!(
        surface.swizzled_size().unwrap(),
        expected.len(),
        "{surface:?}"
    );
    let tiled = surface.swizzle_to_vec(linear).unwrap();
    assert!(tiled == expected, "swizzle of {surface:?}");
    let back = surface.deswizzle_to_vec(&tiled).unwrap();
    assert!(back == linear, "deswizzle of {surface:?}");
    // One thread gives the same bytes.
    let one = swizzle::kernel::Options::default().threads(1);
    let mut tiled_1t = vec![0u8; tiled.len()];
    surface.swizzle_with(one, linear, &mut tiled_1t).unwrap();
    assert!(tiled_1t == tiled, "one-thread swizzle of {surface:?}");
}

// ---------------------------------------------------------------------------------------
// Switch

fn block_dim(format: Format) -> tegra_swizzle::surface::BlockDim {
    let n = |v: usize| NonZeroU32::new(v as u32).unwrap();
    tegra_swizzle::surface::BlockDim {
        width: n(format.block_width),
        height: n(format.block_height),
        depth: n(format.block_depth),
    }
}

fn check_switch(surface: Surface) {
    let Platform::Switch { block_height } = surface.platform else {
        unreachable!()
    };
    let block_height = block_height.map(|b| tegra_swizzle::BlockHeight::new(b as u32).unwrap());
    let f = surface.format;
    let u = |v: usize| v as u32;
    let (w, h, d) = (u(surface.width), u(surface.height), u(surface.depth));
    let (mips, layers, bpp) = (u(surface.mips), u(surface.layers), u(f.bytes_per_block));
    let linear_size =
        tegra_swizzle::surface::deswizzled_surface_size(w, h, d, block_dim(f), bpp, mips, layers);
    let linear = bytes(linear_size, surface.width);
    let expected = tegra_swizzle::surface::swizzle_surface(
        w,
        h,
        d,
        &linear,
        block_dim(f),
        block_height,
        bpp,
        mips,
        layers,
    )
    .expect("tegra_swizzle tiles it");
    let size = tegra_swizzle::surface::swizzled_surface_size(
        w,
        h,
        d,
        block_dim(f),
        block_height,
        bpp,
        mips,
        layers,
    );
    assert_eq!(size, expected.len());
    check_against(&surface, &linear, &expected);
    let untiled = tegra_swizzle::surface::deswizzle_surface(
        w,
        h,
        d,
        &expected,
        block_dim(f),
        block_height,
        bpp,
        mips,
        layers,
    )
    .expect("tegra_swizzle untiles it");
    assert!(
        untiled == linear,
        "tegra_swizzle's round trip of {surface:?}"
    );
}

const SWITCH_FORMATS: [Format; 8] = [
    Format::R8,
    Format::RG8,
    Format::RGB8,
    Format::RGBA8,
    Format::RGBA32,
    Format::BC1,
    Format::BC7,
    Format::astc(8, 5),
];

#[test]
fn switch_surfaces_equal_tegra_swizzle() {
    let switch = Platform::SWITCH;
    let cases = [
        // (width, height, depth, layers, mips)
        (1, 1, 1, 1, 1),
        (1, 1, 1, 1, 4),
        (64, 64, 1, 1, 7),
        (100, 37, 1, 1, 3),
        (300, 300, 1, 6, 9),
        (256, 256, 1, 6, 9),
        (512, 128, 1, 2, 10),
        (33, 900, 1, 1, 5),
        (16, 16, 16, 1, 5),
        (33, 17, 11, 1, 4),
        (64, 64, 5, 1, 1),
        (7, 9, 3, 1, 2),
    ];
    for (width, height, depth, layers, mips) in cases {
        for format in SWITCH_FORMATS {
            let surface = Surface::new(switch, width, height, format)
                .depth(depth)
                .layers(layers)
                .mips(mips);
            check_switch(surface);
        }
    }
    // Given block heights, every one of them.
    for block_height in [1, 2, 4, 8, 16, 32] {
        let platform = Platform::Switch {
            block_height: Some(block_height),
        };
        for format in [Format::RGBA8, Format::BC7, Format::RGB8] {
            check_switch(Surface::new(platform, 200, 120, format).mips(5).layers(3));
        }
    }
}

#[test]
fn switch_large_surface_equals_tegra_swizzle() {
    // 2048² BC7, 12 mips: big enough for the threaded path.
    check_switch(Surface::new(Platform::SWITCH, 2048, 2048, Format::BC7).mips(12));
    check_switch(Surface::new(Platform::SWITCH, 1024, 1000, Format::RGBA8).mips(3));
}

fn format_of(list: &'static [Format]) -> impl Strategy<Value = Format> {
    (0..list.len()).prop_map(move |i| list[i])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn switch_2d_surfaces(
        width in 1usize..400,
        height in 1usize..400,
        layers in 1usize..7,
        mips in 1usize..10,
        format in format_of(&SWITCH_FORMATS),
        block_height in prop::option::of(prop::sample::select(vec![1usize, 2, 4, 8, 16, 32])),
    ) {
        let platform = Platform::Switch { block_height };
        check_switch(Surface::new(platform, width, height, format).layers(layers).mips(mips));
    }

    #[test]
    fn switch_3d_surfaces(
        width in 1usize..80,
        height in 1usize..80,
        depth in 2usize..40,
        mips in 1usize..7,
        format in format_of(&SWITCH_FORMATS),
    ) {
        check_switch(Surface::new(Platform::SWITCH, width, height, format).depth(depth).mips(mips));
    }
}

// ---------------------------------------------------------------------------------------
// Errors and bookkeeping

#[test]
fn levels_and_errors() {
    let surface = Surface::new(Platform::SWITCH, 256, 256, Format::BC7)
        .mips(9)
        .layers(6);
    let levels = surface.levels().unwrap();
    assert_eq!(levels.len(), 54);
    assert_eq!(levels[0].linear, 0..65536);
    assert_eq!(levels[9].layer, 1);
    assert_eq!(levels[9].linear.start, surface.linear_size().unwrap() / 6);
    assert_eq!(surface.level(1, 0).unwrap(), levels[9]);
    assert_eq!(
        surface.level(6, 0),
        Err(TextureError::Level { layer: 6, mip: 0 })
    );
    // Empty surfaces are empty.
    assert_eq!(surface.mips(0).swizzled_size(), Ok(0));
    assert!(matches!(
        surface.swizzle(&[0; 3], &mut [0; 4]),
        Err(TextureError::Length { side: "source", .. })
    ));
    assert!(matches!(
        Surface::new(
            Platform::Switch {
                block_height: Some(3)
            },
            8,
            8,
            Format::R8
        )
        .swizzled_size(),
        Err(TextureError::Unsupported { .. })
    ));
    assert!(matches!(
        Surface::new(Platform::SWITCH, 8, 8, Format::pixels(0)).swizzled_size(),
        Err(TextureError::Format(_))
    ));
    assert_eq!(Format::parse("BC7"), Some(Format::BC7));
    assert_eq!(Format::parse("astc6x5"), Some(Format::astc(6, 5)));
    assert_eq!(Format::parse("astc3x3"), None);
    assert_eq!(Platform::parse("3ds"), Some(Platform::N3ds));
}
