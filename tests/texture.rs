//! `swizzle::texture` against each platform's reference, byte for byte: whole surfaces (mip
//! chains, array layers, depth, compressed blocks) at fixed sizes (1×1, NPOT, odd, large) and
//! in property tests over sizes, formats, mip counts, layers and depth; both directions.
//!
//! - Switch: `tegra_swizzle` 0.4's `surface` functions (sizes, swizzle, deswizzle).
//! - 3DS: `swizzle_3ds` 0.2 (`swizzle_image_into`, one level at a time; it has no
//!   deswizzle: ours must undo our swizzle).
//! - PS4: `swizzleinator` 0.2's `Ps4` (one level at a time).
//! - PS3 and Xbox 360: `swizzleinator` 0.2's `Ps3` and `Xbox360` (one level, one slice at a
//!   time; their quirks are worked around in their section).
//! - Wii U: `wiiu_swizzle` 0.3 reads our tiled surfaces back (every GX2 mode, the linear
//!   ones included; its reads are the reference, see `check_wiiu`).
//! - D3D12 64 KB standard swizzle: a `pdep` over Microsoft's interleave masks, written here.
//! - 3DS ETC1 and ETC1A4: fixed vectors worked out by hand from Citra's, Panda3DS's and
//!   `tex3ds`'s code (`fixtures/etc1_3ds.rs`); no crate tiles them.
//!
//! Hostile sizes (huge depths and layer counts with empty inputs, absurd mip counts,
//! sizes that overflow) are errors, never aborts, panics or long loops: "Hostile sizes".

use proptest::prelude::*;
use std::num::NonZeroU32;
use swizzle::texture::{Format, Platform, Surface, TextureError};

#[path = "fixtures/etc1_3ds.rs"]
mod etc1_3ds;

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
    // The allocating forms with options: the same bytes.
    let tiled_vec = surface.swizzle_to_vec_with(one, linear).unwrap();
    assert!(
        tiled_vec == tiled,
        "one-thread swizzle_to_vec_with of {surface:?}"
    );
    let back_vec = surface.deswizzle_to_vec_with(one, &tiled).unwrap();
    assert!(
        back_vec == linear,
        "one-thread deswizzle_to_vec_with of {surface:?}"
    );
    check_threads(surface, linear, &tiled);
}

/// Three threads, and every thread of rayon's pool, whatever the size (the default splits
/// only large copies): the same bytes both ways, the levels' parts shared between the
/// threads, and with the whole pool the levels copied at once.
fn check_threads(surface: &Surface, linear: &[u8], tiled: &[u8]) {
    for threads in [3, usize::MAX] {
        let options = swizzle::kernel::Options::default().threads(threads);
        let mut tiled_nt = vec![0u8; tiled.len()];
        surface
            .swizzle_with(options, linear, &mut tiled_nt)
            .unwrap();
        assert!(tiled_nt == tiled, "{threads}-thread swizzle of {surface:?}");
        let mut back_nt = vec![0u8; linear.len()];
        surface
            .deswizzle_with(options, tiled, &mut back_nt)
            .unwrap();
        assert!(
            back_nt == linear,
            "{threads}-thread deswizzle of {surface:?}"
        );
    }
}

/// `surface` is a typed error: its platform does not tile it.
fn assert_unsupported(surface: Surface) {
    assert!(
        matches!(
            surface.swizzled_size(),
            Err(TextureError::Unsupported { .. })
        ),
        "{surface:?}"
    );
}

// ---------------------------------------------------------------------------------------
// Switch

fn block_dim(format: Format) -> tegra_swizzle::surface::BlockDim {
    let n = |v: usize| NonZeroU32::new(v as u32).unwrap();
    tegra_swizzle::surface::BlockDim {
        width: n(format.block().width),
        height: n(format.block().height),
        depth: n(format.block().depth),
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
    let (mips, layers, bpp) = (u(surface.mips), u(surface.layers), u(f.bytes_per_block()));
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
    Format::R8Unorm,
    Format::Rg8Unorm,
    Format::Rgb8Unorm,
    Format::Rgba8Unorm,
    Format::Rgba32Float,
    Format::Bc1Unorm,
    Format::Bc7Unorm,
    Format::astc(8, 5),
];

#[test]
fn switch_surfaces_equal_tegra_swizzle() {
    let switch = Platform::SWITCH;
    let cases = [
        // (width, height, depth, layers, mips)
        (1, 1, 1, 1, 1),
        (8, 1, 1, 1, 4),
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
        for format in [Format::Rgba8Unorm, Format::Bc7Unorm, Format::Rgb8Unorm] {
            check_switch(Surface::new(platform, 200, 120, format).mips(5).layers(3));
        }
    }
}

#[test]
fn switch_large_surface_equals_tegra_swizzle() {
    // 2048² BC7, 12 mips: big enough for the threaded path.
    check_switch(Surface::new(Platform::SWITCH, 2048, 2048, Format::Bc7Unorm).mips(12));
    check_switch(Surface::new(Platform::SWITCH, 1024, 1000, Format::Rgba8Unorm).mips(3));
}

/// A destination larger than a core's share of the last-level cache is written with
/// streaming stores; its rows, starting off a cache line, through the runtime's stage (its
/// unit tests take every misalignment; here, whole surfaces at a few).
#[test]
fn switch_streamed_deswizzle_equals_tegra_swizzle() {
    // 32 MiB: past the threshold of CPUs whose cores' share of the cache is below it.
    let surface = Surface::new(Platform::SWITCH, 4096, 2048, Format::Rgba8Unorm);
    let (w, h, bpp) = (4096, 2048, 4);
    let dim = block_dim(surface.format);
    let linear = bytes(surface.linear_size().unwrap(), 7);
    let tiled = tegra_swizzle::surface::swizzle_surface(w, h, 1, &linear, dim, None, bpp, 1, 1)
        .expect("tegra_swizzle tiles it");
    let expected = tegra_swizzle::surface::deswizzle_surface(w, h, 1, &tiled, dim, None, bpp, 1, 1)
        .expect("tegra_swizzle untiles it");
    assert!(expected == linear);
    let one = swizzle::kernel::Options::default().threads(1);
    let mut buffer = vec![0u8; linear.len() + 64];
    for (offset, options) in [
        (0, one),
        (1, one),
        (16, one),
        (33, one),
        (48, one),
        (63, one),
    ]
    .into_iter()
    .chain([(16, swizzle::kernel::Options::default())])
    {
        buffer.fill(0xA5);
        let dst = &mut buffer[offset..][..linear.len()];
        surface.deswizzle_with(options, &tiled, dst).unwrap();
        assert!(*dst == expected[..], "offset {offset}");
        let around = buffer[..offset]
            .iter()
            .chain(&buffer[offset + linear.len()..]);
        assert!(
            around.into_iter().all(|&b| b == 0xA5),
            "offset {offset}: a stray write"
        );
    }
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
        let surface = Surface::new(platform, width, height, format).layers(layers);
        check_switch(surface.mips(mips.min(surface.max_mips())));
    }

    #[test]
    fn switch_3d_surfaces(
        width in 1usize..80,
        height in 1usize..80,
        depth in 2usize..40,
        mips in 1usize..7,
        format in format_of(&SWITCH_FORMATS),
    ) {
        let surface = Surface::new(Platform::SWITCH, width, height, format).depth(depth);
        check_switch(surface.mips(mips.min(surface.max_mips())));
    }
}

// ---------------------------------------------------------------------------------------
// Errors and bookkeeping

#[test]
fn levels_and_errors() {
    let surface = Surface::new(Platform::SWITCH, 256, 256, Format::Bc7Unorm)
        .mips(9)
        .layers(6);
    let levels: Vec<_> = surface.levels().unwrap().collect();
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
    let block_height = Some(3);
    assert_unsupported(Surface::new(
        Platform::Switch { block_height },
        8,
        8,
        Format::R8Unorm,
    ));
    assert!(matches!(
        Surface::new(Platform::SWITCH, 8, 8, Format::pixels(0)).swizzled_size(),
        Err(TextureError::Format { .. })
    ));
    assert_eq!(Format::parse("BC7"), Some(Format::Bc7Unorm));
    assert_eq!(Format::parse("astc6x5"), Some(Format::astc(6, 5)));
    assert_eq!(Format::parse("astc3x3"), None);
    assert_eq!(Platform::parse("3ds"), Some(Platform::N3ds));
}

/// Tiles each level of `surface` with `tile_level(level's linear bytes, [depth, rows,
/// columns] in blocks, level's tiled length)`, concatenated: the reference surface of a
/// crate that tiles one image at a time.
fn per_level(
    surface: &Surface,
    linear: &[u8],
    tile_level: impl Fn(&[u8], [usize; 3], usize) -> Vec<u8>,
) -> Vec<u8> {
    let mut out = Vec::new();
    for level in surface.levels().unwrap() {
        assert_eq!(level.swizzled.start, out.len());
        let tiled = tile_level(
            &linear[level.linear.clone()],
            level.blocks,
            level.swizzled.len(),
        );
        assert_eq!(tiled.len(), level.swizzled.len());
        out.extend(tiled);
    }
    out
}

// ---------------------------------------------------------------------------------------
// 3DS

const N3DS_FORMATS: [(swizzle_3ds::pix::ImageFormat, Format); 4] = [
    (swizzle_3ds::pix::ImageFormat::Rgba8, Format::Rgba8Unorm),
    (swizzle_3ds::pix::ImageFormat::Rgb8, Format::Rgb8Unorm),
    (swizzle_3ds::pix::ImageFormat::Luma8, Format::Rg8Unorm),
    (swizzle_3ds::pix::ImageFormat::Lum8, Format::R8Unorm),
];

fn check_3ds(width: usize, height: usize, layers: usize, mips: usize, which: usize) {
    let (image_format, format) = N3DS_FORMATS[which];
    assert_eq!(image_format.size_bytes(), format.bytes_per_block());
    let surface = Surface::new(Platform::N3ds, width, height, format)
        .layers(layers)
        .mips(mips);
    let linear = bytes(surface.linear_size().unwrap(), width + which);
    let expected = per_level(&surface, &linear, |level, [_, h, w], len| {
        let view = swizzle_3ds::pix::ImageView::new(level.to_vec(), w, h, image_format);
        swizzle_3ds::swizzle_image_into(&view, vec![0u8; len])
            .as_raw()
            .to_vec()
    });
    check_against(&surface, &linear, &expected);
}

#[test]
fn n3ds_surfaces_equal_swizzle_3ds() {
    for (width, height, layers, mips) in [
        (8, 8, 1, 1),
        (16, 8, 1, 1),
        (8, 64, 1, 1),
        (16, 64, 1, 2),
        (128, 128, 6, 5),
        (512, 256, 1, 6),
        (1024, 1024, 1, 8),
    ] {
        for which in 0..N3DS_FORMATS.len() {
            check_3ds(width, height, layers, mips, which);
        }
    }
    // Levels under 8×8 and 3-D textures are no 3DS textures.
    let small = Surface::new(Platform::N3ds, 16, 16, Format::Rgba8Unorm).mips(2);
    assert!(small.swizzled_size().is_ok());
    assert_unsupported(small.mips(3));
    assert_unsupported(small.depth(2));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn n3ds_surfaces(
        width_log in 3u32..9,
        height_log in 3u32..9,
        layers in 1usize..4,
        mips in 1usize..4,
        which in 0..N3DS_FORMATS.len(),
    ) {
        let (width, height) = (1 << width_log, 1 << height_log);
        // Every level at least 8×8.
        let mips = mips.min((width_log.min(height_log) - 2) as usize);
        check_3ds(width, height, layers, mips, which);
    }
}

// ---------------------------------------------------------------------------------------
// PS4

use swizzleinator::format::GcnSurfaceFormat;
use swizzleinator::swizzle::{Deswizzler, Swizzler, ps::Ps4};

const PS4_FORMATS: [(GcnSurfaceFormat, Format); 7] = [
    (GcnSurfaceFormat::Format8, Format::R8Unorm),
    (GcnSurfaceFormat::Format16, Format::Rg8Unorm),
    (GcnSurfaceFormat::Format8_8_8_8, Format::Rgba8Unorm),
    (GcnSurfaceFormat::Format16_16_16_16, Format::Rgba16Float),
    (GcnSurfaceFormat::Format32_32_32_32, Format::Rgba32Float),
    (GcnSurfaceFormat::BC1, Format::Bc1Unorm),
    (GcnSurfaceFormat::BC7, Format::Bc7Unorm),
];

fn check_ps4(width: usize, height: usize, layers: usize, mips: usize, which: usize) {
    let (gcn, format) = PS4_FORMATS[which];
    let surface = Surface::new(Platform::Ps4, width, height, format)
        .layers(layers)
        .mips(mips);
    let linear = bytes(surface.linear_size().unwrap(), width + which);
    let pixels = |blocks: usize, side: usize| blocks * side;
    let expected = per_level(&surface, &linear, |level, [_, h, w], len| {
        let (w, h) = (
            pixels(w, format.block().width),
            pixels(h, format.block().height),
        );
        let mut src = level.to_vec();
        let mut out = vec![0u8; len];
        Ps4::swizzle(&mut src, &mut out, (w, h, 1), gcn, false).expect("swizzleinator tiles it");
        // Its deswizzle undoes it.
        let mut back = vec![0u8; level.len()];
        Ps4::deswizzle(&mut out.clone(), &mut back, (w, h, 1), gcn, false).unwrap();
        assert!(back == level, "swizzleinator's round trip");
        out
    });
    check_against(&surface, &linear, &expected);
}

#[test]
fn ps4_surfaces_equal_swizzleinator() {
    for (width, height, layers, mips) in [
        (1usize, 1usize, 1, 1),
        (8, 8, 1, 1),
        (171, 171, 1, 1),
        (100, 37, 2, 3),
        (256, 256, 6, 9),
        (900, 1080, 1, 4),
    ] {
        for (which, (_, format)) in PS4_FORMATS.iter().enumerate() {
            // swizzleinator counts whole blocks only: sizes in whole blocks for BCn.
            let (w, h) = (
                width.next_multiple_of(format.block().width),
                height.next_multiple_of(format.block().height),
            );
            let mips = mips.min(if format.block().width > 1 { 1 } else { mips });
            check_ps4(w, h, layers, mips, which);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn ps4_surfaces(
        width in 1usize..300,
        height in 1usize..300,
        layers in 1usize..4,
        mips in 1usize..6,
        which in 0..PS4_FORMATS.len(),
    ) {
        let format = PS4_FORMATS[which].1;
        // Mips of whole blocks: for BCn, sizes of whole blocks at every level.
        // Of texels: as many mips as the larger side halves, where that is fewer.
        let (width, height, mips) = match format.block().width {
            1 => (width, height, mips.min(Surface::new(Platform::Ps4, width, height, format).max_mips())),
            side => (width.next_multiple_of(side << (mips - 1)), height.next_multiple_of(side << (mips - 1)), mips),
        };
        check_ps4(width, height, layers, mips, which);
    }
}

// ---------------------------------------------------------------------------------------
// PS3 and Xbox 360: swizzleinator 0.2's `Ps3` and `Xbox360`, one level (one slice) at a time.
//
// Its formats are described by its `Format` trait; ours below (`Texels`) gives a texel size
// and block side only, with no Xbox 360 byte swap (`x360_swap`: a conversion of the texels'
// bytes, which `swizzle::texture` leaves to the caller).
//
// Reference quirks worked around here (worth reporting upstream):
// - PS3: its Morton index (`swizzle::morton`) takes ⌊log2⌋ bits per side, so at a side that
//   is not a power of two texels collide and others are never written; it pads to powers of
//   two only for compressed formats with `align_resolution`. The tests call it at the padded
//   size for plain pixels (as the RSX's swizzled textures are) and with `align_resolution`
//   for BCn (its own padding), the linear image padded to the same power-of-two pitch.
// - PS3: its swizzle of a 3-D texture reads slice 0 of the source for every slice and
//   writes slice z at twice its offset; the tests call it slice by slice.
// - Xbox 360: its swizzle checks each texel's tiled offset against the length of the
//   *source* (the linear image), so a level with padding loses every texel placed past the
//   linear size; the tests give it the linear image followed by zeros up to the tiled size.
// - Xbox 360: its swizzle fills the padding of the tiles past the width with texels of the
//   next rows (x past the width wraps into the next row of the linear image); its deswizzle
//   skips texels that are all zero (so that this padding, when zero, is not copied over
//   real texels). The tests check its deswizzle of our tiled bytes (zero padding) gives the
//   linear image back exactly, and its swizzle equals ours at every texel ours writes
//   (every texel of the linear image is nonzero, and exactly that many tiled texels are).

use swizzleinator::swizzle::ps::Ps3;
use swizzleinator::swizzle::xbox::Xbox360;

/// A format as swizzleinator's `Format` trait describes it.
#[derive(Clone, Copy, Debug)]
struct Texels(Format);

impl swizzleinator::swizzle::Format for Texels {
    fn bpp(&self) -> usize {
        let f = self.0;
        f.bytes_per_block() * 8 / (f.block().width * f.block().height)
    }
    fn block_size(&self) -> usize {
        self.0.bytes_per_block()
    }
    fn pixel_block_size(&self) -> usize {
        self.0.block().width
    }
    fn is_compressed(&self) -> bool {
        self.0.block().width > 1
    }
    fn x360_swap(&self) -> bool {
        false
    }
}

const PS3_FORMATS: [Format; 7] = [
    Format::R8Unorm,
    Format::Rg8Unorm,
    Format::Rgba8Unorm,
    Format::Rgba16Float,
    Format::Rgba32Float,
    Format::Bc1Unorm,
    Format::Bc3Unorm,
];

/// A whole PS3 surface against swizzleinator's `Ps3`, level by level, slice by slice.
fn check_ps3(surface: Surface, seed: usize) {
    let format = surface.format;
    let bytes = format.bytes_per_block();
    let linear = self::bytes(surface.linear_size().unwrap(), seed);
    let expected = per_level(&surface, &linear, |level, [depth, h, w], len| {
        let (rows, columns) = (h.next_power_of_two(), w.next_power_of_two());
        let slice = h * w * bytes;
        let mut out = Vec::new();
        for z in 0..depth {
            // The slice at a power-of-two pitch, zero past its texels.
            let mut padded = vec![0u8; rows * columns * bytes];
            for (y, row) in level[z * slice..][..slice].chunks(w * bytes).enumerate() {
                padded[y * columns * bytes..][..w * bytes].copy_from_slice(row);
            }
            let (dims, align) = match format.block().width {
                1 => ((columns, rows, 1), false),
                side => ((w * side, h * side, 1), true),
            };
            let mut tiled = vec![0u8; rows * columns * bytes];
            Ps3::swizzle(&mut padded.clone(), &mut tiled, dims, Texels(format), align).unwrap();
            // Its deswizzle undoes it.
            let mut back = vec![0u8; padded.len()];
            Ps3::deswizzle(&mut tiled.clone(), &mut back, dims, Texels(format), align).unwrap();
            assert!(back == padded, "swizzleinator's round trip");
            out.extend(tiled);
        }
        assert_eq!(out.len(), len);
        out
    });
    check_against(&surface, &linear, &expected);
}

/// A fixed surface shape: width, height, depth, layers, mips.
type Shape = (usize, usize, usize, usize, usize);

/// `check(surface, seed)` on `platform`'s surface of each shape in each format.
fn check_shapes(
    platform: Platform,
    shapes: &[Shape],
    formats: &[Format],
    check: fn(Surface, usize),
) {
    for &(width, height, depth, layers, mips) in shapes {
        for (which, format) in formats.iter().enumerate() {
            let surface = Surface::new(platform, width, height, *format)
                .depth(depth)
                .layers(layers)
                .mips(mips);
            check(surface, which + width);
        }
    }
}

/// Property-test surfaces of `platform` and a seed: sides 1 to 599, 1 to 7 mips (as many as
/// the largest side halves, where that is fewer), one of `formats`, 1 to 3 slices of depth
/// or array layers.
fn drawn_surfaces(
    platform: Platform,
    formats: &'static [Format],
) -> impl Strategy<Value = (Surface, usize)> {
    let sides = (1usize..600, 1usize..600);
    let slices = (1usize..4, any::<bool>());
    (sides, slices, 1usize..8, 0..formats.len()).prop_map(
        move |((width, height), (slices, three_d), mips, which)| {
            let surface = Surface::new(platform, width, height, formats[which]);
            let surface = match three_d {
                true => surface.depth(slices),
                false => surface.layers(slices),
            };
            (
                surface.mips(mips.min(surface.max_mips())),
                which + width * height,
            )
        },
    )
}

#[test]
fn ps3_surfaces_equal_swizzleinator() {
    let shapes = [
        (1, 1, 1, 1, 1),
        (64, 64, 1, 1, 7),
        (128, 128, 1, 6, 8),
        (100, 37, 1, 2, 3),
        (17, 300, 1, 1, 4),
        (512, 16, 1, 1, 5),
        (256, 1024, 1, 1, 2),
        (24, 40, 5, 1, 2),
        // Squares of 16 × 16 sub-tiles, wide and tall, the sub-tiles at the edges cut.
        (520, 200, 1, 2, 1),
        (200, 520, 1, 2, 1),
        // Squares of several 256 × 256 blocks (a thread's part of a swizzle), wide and tall,
        // the blocks at the edges cut or wholly padding.
        (700, 600, 1, 2, 1),
        (300, 1100, 1, 1, 1),
        // A deswizzle spread over threads in bands of fewer rows than a block's, for parts of
        // 256 KiB, 4-byte texels among them.
        (1100, 300, 1, 1, 1),
    ];
    check_shapes(Platform::Ps3, &shapes, &PS3_FORMATS, check_ps3);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn ps3_surfaces((surface, seed) in drawn_surfaces(Platform::Ps3, &PS3_FORMATS)) {
        check_ps3(surface, seed);
    }
}

const XBOX360_FORMATS: [Format; 5] = [
    Format::Rgba8Unorm,
    Format::Rgba16Float,
    Format::Rgba32Float,
    Format::Bc1Unorm,
    Format::Bc3Unorm,
];

/// A whole Xbox 360 surface against swizzleinator's `Xbox360`, level by level, slice by
/// slice (see the quirks above).
fn check_xbox360(surface: Surface, seed: usize) {
    let format = surface.format;
    let bytes = format.bytes_per_block();
    // Every byte nonzero: a tiled texel that is not all zero holds a texel.
    let linear: Vec<u8> = self::bytes(surface.linear_size().unwrap(), seed)
        .into_iter()
        .map(|b| b.max(1))
        .collect();
    let tiled = surface.swizzle_to_vec(&linear).unwrap();
    for level in surface.levels().unwrap() {
        let [depth, h, w] = level.blocks;
        let dims = (w * format.block().width, h * format.block().height, 1);
        let (ours, linear) = (
            &tiled[level.swizzled.clone()],
            &linear[level.linear.clone()],
        );
        let (tiled_slice, linear_slice) = (ours.len() / depth, linear.len() / depth);
        for z in 0..depth {
            let ours = &ours[z * tiled_slice..][..tiled_slice];
            let linear = &linear[z * linear_slice..][..linear_slice];
            let mut back = vec![0u8; linear_slice];
            Xbox360::deswizzle(&mut ours.to_vec(), &mut back, dims, Texels(format), false).unwrap();
            assert!(
                back == linear,
                "swizzleinator's deswizzle of {surface:?} {level:?}"
            );
            let mut theirs = vec![0u8; tiled_slice];
            // Its swizzle bounds the tiled offset by the source's length: the source padded
            // with zeros to the tiled size.
            let mut source = linear.to_vec();
            source.resize(tiled_slice, 0);
            Xbox360::swizzle(&mut source, &mut theirs, dims, Texels(format), false).unwrap();
            let mut texels = 0;
            for (at, (a, b)) in ours.chunks(bytes).zip(theirs.chunks(bytes)).enumerate() {
                if a.iter().any(|&b| b != 0) {
                    texels += 1;
                    assert!(a == b, "{surface:?} {level:?} slice {z}: texel {at}");
                }
            }
            assert_eq!(texels, h * w, "{surface:?} {level:?}: texels written");
            if w % 32 == 0 && h % 32 == 0 {
                assert!(ours == theirs, "{surface:?} {level:?}: whole tiles");
            }
        }
    }
    let back = surface.deswizzle_to_vec(&tiled).unwrap();
    assert!(back == linear, "deswizzle of {surface:?}");
}

#[test]
fn xbox360_surfaces_equal_swizzleinator() {
    let shapes = [
        (1, 1, 1, 1, 1),
        (32, 32, 1, 1, 1),
        (128, 128, 1, 6, 8),
        (100, 37, 1, 2, 3),
        (17, 300, 1, 1, 4),
        (96, 160, 1, 1, 3),
        (1024, 512, 1, 1, 2),
        (40, 24, 5, 1, 2),
    ];
    check_shapes(Platform::Xbox360, &shapes, &XBOX360_FORMATS, check_xbox360);
    // 1- and 2-byte texels: a typed error.
    for format in [Format::R8Unorm, Format::Rg8Unorm] {
        let surface = Surface::new(Platform::Xbox360, 64, 64, format);
        assert_unsupported(surface);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn xbox360_surfaces((surface, seed) in drawn_surfaces(Platform::Xbox360, &XBOX360_FORMATS)) {
        check_xbox360(surface, seed);
    }
}

// ---------------------------------------------------------------------------------------
// D3D12 64 KB standard swizzle

/// Microsoft's interleave masks, bits 15 … 0: `X` for the byte's x (in bytes), `Y` for y.
const STANDARD_SWIZZLE: [(usize, &str); 5] = [
    (1, "XYXYXYXYYYYYXXXX"),
    (2, "XYXYXYXYXYYYXXXX"),
    (4, "XYXYXYXYXYYYXXXX"),
    (8, "XYXYXYXYXXYYXXXX"),
    (16, "XYXYXYXYXXYYXXXX"),
];

/// `_pdep_u32`: the low bits of `value` deposited at the set bits of `mask`, lowest first.
fn pdep(mut value: usize, mask: usize) -> usize {
    let mut out = 0;
    for bit in 0..16 {
        if mask >> bit & 1 == 1 {
            out |= (value & 1) << bit;
            value >>= 1;
        }
    }
    out
}

fn masks(pattern: &str) -> (usize, usize) {
    let mask = |c| {
        pattern
            .chars()
            .fold(0, |acc, p| acc << 1 | usize::from(p == c))
    };
    (mask('X'), mask('Y'))
}

/// One level tiled by the formula: tile `(y / rows, x / columns)` row-major, then
/// `pdep(x_bytes, xMask) + pdep(y, yMask)` inside it.
fn d3d12_level(level: &[u8], [_, h, w]: [usize; 3], bytes: usize, len: usize) -> Vec<u8> {
    let (_, pattern) = STANDARD_SWIZZLE.iter().find(|(b, _)| *b == bytes).unwrap();
    let (x_mask, y_mask) = masks(pattern);
    let columns = 1 << x_mask.count_ones() >> bytes.trailing_zeros();
    let rows = 1 << y_mask.count_ones();
    let tiles_x = w.div_ceil(columns);
    let mut out = vec![0u8; len];
    for y in 0..h {
        for x in 0..w {
            let tile = (y / rows) * tiles_x + x / columns;
            for b in 0..bytes {
                let inside = pdep((x % columns) * bytes + b, x_mask) + pdep(y % rows, y_mask);
                out[tile * 65536 + inside] = level[(y * w + x) * bytes + b];
            }
        }
    }
    out
}

const D3D12_FORMATS: [Format; 6] = [
    Format::R8Unorm,
    Format::Rg8Unorm,
    Format::Rgba8Unorm,
    Format::Rgba16Float,
    Format::Rgba32Float,
    Format::Bc7Unorm,
];

fn check_d3d12(width: usize, height: usize, layers: usize, mips: usize, format: Format) {
    let surface = Surface::new(Platform::D3d12, width, height, format)
        .layers(layers)
        .mips(mips);
    let linear = bytes(surface.linear_size().unwrap(), width);
    let expected = per_level(&surface, &linear, |level, blocks, len| {
        d3d12_level(level, blocks, format.bytes_per_block(), len)
    });
    check_against(&surface, &linear, &expected);
}

#[test]
fn d3d12_surfaces_equal_the_pdep_formula() {
    // The documented 32bpp masks.
    assert_eq!(
        masks(STANDARD_SWIZZLE[2].1),
        (0b1010_1010_1000_1111, 0b0101_0101_0111_0000)
    );
    for (width, height, layers, mips) in [
        (1, 1, 1, 1),
        (128, 128, 1, 1),
        (300, 200, 2, 3),
        (257, 129, 1, 9),
        (512, 512, 1, 2),
        // Wide enough that a level spread over threads goes in parts of rows of tiles:
        // rows of sub-tiles (deswizzles), runs of tiles of a row, whole and cut at its
        // texels (swizzles), and single tiles where a row's count is prime (RGBA8: 7).
        (2048, 140, 1, 1),
        (900, 260, 1, 1),
        (850, 70, 1, 1),
    ] {
        for format in D3D12_FORMATS {
            check_d3d12(width, height, layers, mips, format);
        }
    }
    assert_unsupported(Surface::new(Platform::D3d12, 8, 8, Format::Rgb8Unorm));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn d3d12_surfaces(
        width in 1usize..400,
        height in 1usize..400,
        layers in 1usize..3,
        mips in 1usize..5,
        format in format_of(&D3D12_FORMATS),
    ) {
        // As many mips as the larger side halves, where that is fewer.
        let mips = mips.min(Surface::new(Platform::D3d12, width, height, format).max_mips());
        check_d3d12(width, height, layers, mips, format);
    }
}

// ---------------------------------------------------------------------------------------
// Wii U

const WIIU_FORMATS: [Format; 7] = [
    Format::R8Unorm,
    Format::Rg8Unorm,
    Format::Rgba8Unorm,
    Format::Rgba16Float,
    Format::Rgba32Float,
    Format::Bc1Unorm,
    Format::Bc3Unorm,
];

/// `wiiu_swizzle` reads our tiled surface back: each mip (all its layers or depth slices)
/// with `deswizzle_mipmap` at the level's tile mode and pitch, and the whole surface with
/// `Gx2Surface::deswizzle`, which derives each mip's tile mode and pitch itself. (Its
/// `swizzle_mipmap` sizes a level by its last texel's address, not the level's end, so that
/// it drops or panics on texels past it: the reads are the reference.) Ours writes nothing
/// else: a swizzle of ones leaves as many ones as the linear surface has bytes.
///
/// `deswizzle_mipmap` strides from slice to slice by `pitch × height` of the height it is
/// given; addrlib's slices are padded to whole tiles (`LevelInfo::rows`), so it is given
/// the padded height and its rows past the level's are dropped. `Gx2Surface` passes the
/// level's own height: it is checked on surfaces of one slice, and on cube maps whose
/// levels' heights are whole tiles (as `D2` surfaces of 6 layers, mip by mip).
fn check_wiiu(surface: Surface) {
    use swizzle::texture::wiiu::level_info;
    use wiiu_swizzle::{AaMode, Gx2Surface, SurfaceDim, SurfaceFormat, TileMode};
    let Platform::WiiU { tile_mode, swizzle } = surface.platform else {
        unreachable!()
    };
    let f = surface.format;
    let u = |v: usize| v as u32;
    let bpp = u(f.bytes_per_block());
    let linear = bytes(surface.linear_size().unwrap(), surface.width + surface.mips);
    let tiled = surface.swizzle_to_vec(&linear).unwrap();
    assert_eq!(surface.deswizzle_to_vec(&tiled).unwrap(), linear);
    let one = swizzle::kernel::Options::default().threads(1);
    let mut tiled_1t = vec![0u8; tiled.len()];
    surface.swizzle_with(one, &linear, &mut tiled_1t).unwrap();
    assert!(tiled_1t == tiled, "one-thread swizzle of {surface:?}");
    check_threads(&surface, &linear, &tiled);
    let ones = surface.swizzle_to_vec(&vec![1; linear.len()]).unwrap();
    assert_eq!(ones.iter().filter(|&&b| b == 1).count(), linear.len());
    // The padding of a destination keeps its bytes: a texel's byte or what was there.
    let mut kept = vec![0xAB; tiled.len()];
    surface.swizzle(&vec![1; linear.len()], &mut kept).unwrap();
    assert!(
        kept.iter()
            .zip(&ones)
            .all(|(&k, &o)| k == o || (o, k) == (0, 0xAB)),
        "padding of {surface:?}"
    );
    let levels: Vec<_> = surface.levels().unwrap().collect();
    for mip in 0..surface.mips {
        let info = level_info(&surface, mip).unwrap();
        let layers: Vec<_> = levels.iter().filter(|l| l.mip == mip).collect();
        let [d, h, w] = layers[0].blocks;
        let slices = d * layers.len();
        let untiled = wiiu_swizzle::deswizzle_mipmap(
            u(w),
            u(info.rows),
            u(slices),
            &tiled[layers[0].swizzled.start..],
            swizzle,
            u(info.pitch),
            TileMode::from_repr(info.mode as u32).unwrap(),
            bpp,
            AaMode::X1,
        )
        .expect("wiiu_swizzle untiles the level");
        let slice = info.rows * w * f.bytes_per_block();
        let expected: Vec<u8> = untiled
            .chunks(slice)
            .flat_map(|rows| &rows[..h * w * f.bytes_per_block()])
            .copied()
            .collect();
        let ours: Vec<u8> = layers
            .iter()
            .flat_map(|level| &linear[level.linear.clone()])
            .copied()
            .collect();
        assert!(
            expected == ours,
            "deswizzle_mipmap of {surface:?} mip {mip} ({info:?})"
        );
    }
    // The whole surface, as a GX2 texture's header describes it.
    let cube = surface.layers == 6;
    let whole_tiles = (0..surface.mips).all(|mip| {
        let info = level_info(&surface, mip).unwrap();
        let (_, [_, h, _]) = surface.mip_size(mip);
        info.rows == h
    });
    // The reference clamps each level's pitch to the header's (mip 0's): where addrlib's
    // pitch of a later level is wider (a thick mode's level turned thin, whose pitch
    // alignment is 4 times the thick one's), it reads that level at the narrower pitch,
    // and GX2 itself does not (`wiiu_level_pitch_can_exceed_the_headers` pins it).
    let header_pitch = level_info(&surface, 0).unwrap().pitch;
    let clamped =
        (1..surface.mips).any(|mip| level_info(&surface, mip).unwrap().pitch > header_pitch);
    if clamped || !(surface.layers == 1 && surface.depth == 1 || cube && whole_tiles) {
        return;
    }
    let format = match (f.block().width, bpp) {
        (4, 8) => SurfaceFormat::Bc1Unorm,
        (4, _) => SurfaceFormat::Bc3Unorm,
        (_, 1) => SurfaceFormat::R8Unorm,
        (_, 2) => SurfaceFormat::R8G8Unorm,
        (_, 4) => SurfaceFormat::R8G8B8A8Unorm,
        (_, 8) => SurfaceFormat::R16G16B16A16Unorm,
        _ => SurfaceFormat::R32G32B32A32Float,
    };
    // Each mip's start: its first layer's.
    let starts: Vec<usize> = (0..surface.mips)
        .map(|mip| surface.level(0, mip).unwrap().swizzled.start)
        .collect();
    let mip1 = starts.get(1).copied().unwrap_or(tiled.len());
    let mut mipmap_offsets = [0u32; 13];
    mipmap_offsets[0] = u(mip1);
    for (offset, start) in mipmap_offsets[1..].iter_mut().zip(starts.iter().skip(2)) {
        *offset = u(start - mip1);
    }
    let gx2 = Gx2Surface {
        dim: SurfaceDim::D2,
        width: u(surface.width),
        height: u(surface.height),
        depth_or_array_layers: u(surface.layers),
        mipmap_count: u(surface.mips),
        format,
        aa: AaMode::X1,
        usage: 1,
        image_data: &tiled[..mip1],
        mipmap_data: &tiled[mip1..],
        tile_mode: TileMode::from_repr(tile_mode as u32).unwrap(),
        swizzle,
        alignment: 512 * bpp,
        // The header's pitch (mip 0's), to which the reference clamps its own.
        pitch: u(header_pitch),
        mipmap_offsets,
    };
    let untiled = gx2.deswizzle().expect("wiiu_swizzle untiles it");
    // Mip by mip, each mip's layers in order (its `Cube` reordering to layer by layer
    // misplaces mips past 2: it sums no offsets).
    let mip_major: Vec<u8> = (0..surface.mips)
        .flat_map(|mip| levels.iter().filter(move |l| l.mip == mip))
        .flat_map(|level| &linear[level.linear.clone()])
        .copied()
        .collect();
    assert!(untiled == mip_major, "Gx2Surface::deswizzle of {surface:?}");
}

fn wiiu(tile_mode: swizzle::texture::wiiu::TileMode, swizzle: u32) -> Platform {
    Platform::WiiU { tile_mode, swizzle }
}

/// Widths, heights and mip counts of the Wii U's 1-D and linear fixed cases: 1×1, NPOT, odd,
/// full mip chains.
const WIIU_SHAPES: [(usize, usize, usize); 7] = [
    (1, 1, 1),
    (8, 8, 4),
    (64, 64, 7),
    (100, 37, 3),
    (33, 200, 5),
    (256, 256, 9),
    (1024, 512, 3),
];

/// addrlib's fixed point where the reference's whole-surface reader departs from it: a 1-D
/// thick surface of one slice is thick at mip 0 (pitch alignment `256 / 1 / 4` = 8 texels of
/// 1 byte) and thin from mip 1 (fewer than 4 slices; alignment `256 / 1` = 32 texels), so
/// mip 1 is 32 texels wide while the header's pitch is 8. `Gx2Surface::deswizzle` reads it
/// at 8 (its pitch clamp); `deswizzle_mipmap` at addrlib's 32 agrees with ours.
#[test]
fn wiiu_level_pitch_can_exceed_the_headers() {
    use swizzle::texture::wiiu::{LevelInfo, TileMode, level_info};
    let surface = Surface::new(wiiu(TileMode::Tiled1DThick, 0), 2, 18, Format::R8Unorm).mips(2);
    let info = |mip| level_info(&surface, mip).unwrap();
    let thick = LevelInfo {
        mode: TileMode::Tiled1DThick,
        pitch: 8,
        rows: 24,
    };
    let thin = LevelInfo {
        mode: TileMode::Tiled1DThin1,
        pitch: 32,
        rows: 16,
    };
    assert_eq!((info(0), info(1)), (thick, thin));
    // Mip 1 (1 × 9 texels) fills pitch × rows bytes after mip 0's thick slice of 4.
    let mip1 = surface.level(0, 1).unwrap().swizzled;
    assert_eq!(mip1, 8 * 24 * 4..8 * 24 * 4 + 32 * 16);
    check_wiiu(surface);
}

#[test]
fn wiiu_1d_surfaces_equal_wiiu_swizzle() {
    use swizzle::texture::wiiu::TileMode::Tiled1DThin1;
    for (width, height, mips) in WIIU_SHAPES {
        for format in WIIU_FORMATS {
            check_wiiu(Surface::new(wiiu(Tiled1DThin1, 0), width, height, format).mips(mips));
        }
    }
}

#[test]
fn wiiu_2d_surfaces_equal_wiiu_swizzle() {
    use swizzle::texture::wiiu::TileMode::Tiled2DThin1;
    for (width, height, mips) in [
        (1, 1, 1),
        (64, 64, 7),
        (100, 37, 3),
        (33, 200, 5),
        (96, 48, 2),
        // Whole bands whose last chunk of 8 KB units is cut (16-byte texels).
        (250, 48, 2),
        (256, 256, 9),
        (1024, 1024, 4),
    ] {
        for format in WIIU_FORMATS {
            // The swizzles of every pipe and bank (bits 8 to 10; the others are ignored).
            for swizzle in [0, 0x100, 0x200, 0x500, 0x700, 0x20500] {
                let platform = wiiu(Tiled2DThin1, swizzle);
                check_wiiu(Surface::new(platform, width, height, format).mips(mips));
            }
        }
    }
}

/// The modes past 1-D and 2-D thin-1: the linear ones, thin-2 and thin-4 macro tiles, bank
/// swapping, 3-D rotation and thick tiles, over the sizes where their mips fall back.
#[test]
fn wiiu_other_modes_equal_wiiu_swizzle() {
    use swizzle::texture::wiiu::TileMode;
    for mode in TileMode::ALL {
        for (width, height, mips) in [(1, 1, 1), (100, 37, 3), (256, 256, 9), (640, 96, 2)] {
            for format in WIIU_FORMATS {
                for swizzle in [0, 0x300, 0x600] {
                    let platform = wiiu(mode, swizzle);
                    check_wiiu(Surface::new(platform, width, height, format).mips(mips));
                }
            }
        }
    }
}

/// Array layers (each a slice of its mip, stored mip by mip) and cube maps; depth (thin
/// modes: a slice each; thick modes: 4 slices to a tile).
#[test]
fn wiiu_layers_and_depth_equal_wiiu_swizzle() {
    use swizzle::texture::wiiu::TileMode::{self, *};
    let thin = [
        LinearGeneral,
        LinearAligned,
        Tiled1DThin1,
        Tiled2DThin1,
        Tiled2BThin2,
        Tiled3DThin1,
        Tiled3BThin1,
    ];
    for mode in thin {
        for format in WIIU_FORMATS {
            for (width, height, layers, mips) in [(64, 64, 6, 2), (128, 128, 6, 4), (50, 70, 3, 3)]
            {
                let surface = Surface::new(wiiu(mode, 0x500), width, height, format);
                check_wiiu(surface.layers(layers).mips(mips));
            }
        }
    }
    for mode in TileMode::ALL {
        for format in WIIU_FORMATS {
            for (width, height, depth, mips) in [(16, 16, 16, 1), (40, 24, 5, 3), (64, 64, 8, 4)] {
                let surface = Surface::new(wiiu(mode, 0x200), width, height, format);
                check_wiiu(surface.depth(depth).mips(mips));
            }
        }
    }
    // GX2 has no 3-D arrays, and thick tiles interleave 4 slices: typed errors.
    for (mode, depth, layers) in [(Tiled2DThin1, 4, 2), (Tiled2DThick, 1, 2)] {
        let surface = Surface::new(wiiu(mode, 0), 64, 64, Format::Rgba8Unorm);
        assert_unsupported(surface.depth(depth).layers(layers));
    }
}

/// The linear modes: every size and format, mips, layers and depth, against
/// `wiiu_swizzle`'s reads (`check_wiiu`); their pitches as addrlib aligns them
/// (`LinearGeneral`: none; `LinearAligned`: whole 256-byte groups, at least 64 texels),
/// and no tiles: each row of texels is the linear row, at its pitch.
#[test]
fn wiiu_linear_surfaces_equal_wiiu_swizzle() {
    use swizzle::texture::wiiu::{TileMode::*, level_info};
    for mode in [LinearGeneral, LinearAligned] {
        for (width, height, mips) in WIIU_SHAPES {
            for format in WIIU_FORMATS {
                // The swizzle's pipe and bank do not move linear texels.
                for swizzle in [0, 0x700] {
                    let platform = wiiu(mode, swizzle);
                    check_wiiu(Surface::new(platform, width, height, format).mips(mips));
                }
            }
        }
    }
    for (mode, format, width, pitch) in [
        (LinearGeneral, Format::R8Unorm, 100, 100),
        (LinearGeneral, Format::Rgba32Float, 3, 3),
        (LinearAligned, Format::R8Unorm, 100, 256),
        (LinearAligned, Format::Rg8Unorm, 100, 128),
        (LinearAligned, Format::Rgba8Unorm, 100, 128),
        (LinearAligned, Format::Rgba16Float, 65, 128),
        (LinearAligned, Format::Bc1Unorm, 256, 64),
    ] {
        let surface = Surface::new(wiiu(mode, 0), width, 5, format);
        let info = level_info(&surface, 0).unwrap();
        let [_, h, w] = surface.level(0, 0).unwrap().blocks;
        assert_eq!((info.mode, info.pitch, info.rows), (mode, pitch, h));
        // Row y of the level starts at y · pitch texels.
        let bytes = format.bytes_per_block();
        let linear = self::bytes(surface.linear_size().unwrap(), width);
        let tiled = surface.swizzle_to_vec(&linear).unwrap();
        for y in 0..h {
            let row = &linear[y * w * bytes..][..w * bytes];
            assert_eq!(
                &tiled[y * pitch * bytes..][..w * bytes],
                row,
                "{surface:?} row {y}"
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn wiiu_surfaces(
        width in 1usize..300,
        height in 1usize..300,
        mips in 1usize..10,
        format in format_of(&WIIU_FORMATS),
        mode in 0usize..16,
        swizzle in 0u32..8,
        (layers, depth) in prop_oneof![Just((1, 1)), (2usize..5, Just(1)), (Just(1), 2usize..10)],
    ) {
        use swizzle::texture::wiiu::TileMode;
        let mode = TileMode::ALL[mode];
        // Thick tiles hold 4 slices: their array layers are a typed error (checked above).
        let layers = if mode.is_thick() { 1 } else { layers };
        // Mips while both sides last (the reference's levels stop at a side of 0).
        let mips = mips.min(width.min(height).ilog2() as usize + 1);
        let surface = Surface::new(wiiu(mode, swizzle << 8), width, height, format)
            .mips(mips)
            .layers(layers)
            .depth(depth);
        check_wiiu(surface);
    }
}

// ---------------------------------------------------------------------------------------
// Pictures of a level

/// A level's cells say where each block's first byte lands: a whole surface's swizzle puts
/// that block's first byte there, on every platform; the text map and the SVG draw them.
#[test]
fn level_pictures_show_where_blocks_land() {
    use swizzle::texture::wiiu::TileMode;
    let platforms = [
        Platform::SWITCH,
        Platform::N3ds,
        Platform::Ps4,
        Platform::Ps3,
        Platform::Xbox360,
        Platform::D3d12,
        Platform::WIIU,
        wiiu(TileMode::Tiled2BThin4, 0x300),
        wiiu(TileMode::Tiled1DThick, 0),
        wiiu(TileMode::LinearAligned, 0),
    ];
    for platform in platforms {
        for (format, depth) in [
            (Format::Rgba8Unorm, 1),
            (Format::Bc1Unorm, 1),
            (Format::Rgb8Unorm, 1),
            (Format::R8Unorm, 5),
        ] {
            let surface = Surface::new(platform, 40, 24, format).mips(3).layers(2);
            let surface = if depth > 1 {
                surface.layers(1).depth(depth)
            } else {
                surface
            };
            let Ok(linear_len) = surface.linear_size() else {
                continue; // A format or shape the platform does not tile (a typed error).
            };
            // Every block's bytes differ from every other block's first byte.
            let bytes = format.bytes_per_block();
            let linear: Vec<u8> = (0..linear_len)
                .map(|i| (i / bytes * 31 + i % bytes) as u8)
                .collect();
            let tiled = surface.swizzle_to_vec(&linear).unwrap();
            for level in surface.levels().unwrap() {
                let cells = surface.level_cells(level.layer, level.mip).unwrap();
                assert_eq!(cells.len(), level.blocks.iter().product::<usize>());
                let mut seen = std::collections::HashSet::new();
                for block in 0..cells.len() {
                    let at = cells.offset(block).expect("every block lands somewhere");
                    assert!(seen.insert(at), "{surface:?} {level:?}: two blocks at {at}");
                    let first = linear[level.linear.start + block * bytes];
                    assert_eq!(
                        tiled[level.swizzled.start + at],
                        first,
                        "{surface:?} {level:?} block {block}"
                    );
                }
            }
            let map = surface.offset_map(0, 0).unwrap();
            let [d, h, w] = surface.level(0, 0).unwrap().blocks;
            assert_eq!(
                map.lines()
                    .filter(|l| !l.is_empty() && !l.ends_with(':'))
                    .count(),
                d * h
            );
            assert!(map.lines().next().unwrap().split_whitespace().count() == w || d > 1);
            let svg = surface.svg(0, 0, 512).unwrap();
            assert!(svg.starts_with("<svg") && svg.contains("tile of 512 elements"));
        }
    }
    // Too many blocks to draw: a typed error.
    let huge = Surface::new(Platform::SWITCH, 4096, 2048, Format::R8Unorm);
    assert!(matches!(
        huge.level_cells(0, 0),
        Err(TextureError::Picture(_))
    ));
}

// ---------------------------------------------------------------------------------------
// 3DS ETC1 and ETC1A4

/// `format`'s level of `width × height` pixels on the 3DS against a fixed vector.
fn check_etc1(format: Format, width: usize, height: usize, linear: &[u8], tiled: &[u8]) {
    let surface = Surface::new(Platform::N3ds, width, height, format);
    check_against(&surface, linear, tiled);
}

#[test]
fn n3ds_etc1_equals_fixed_vectors() {
    use etc1_3ds::*;
    check_etc1(Format::Etc1, 8, 8, &ETC1_8X8_LINEAR, &ETC1_8X8_TILED);
    check_etc1(Format::Etc1, 16, 16, &ETC1_16X16_LINEAR, &ETC1_16X16_TILED);
    check_etc1(Format::Etc1, 32, 16, &ETC1_32X16_LINEAR, &ETC1_32X16_TILED);
    check_etc1(Format::Etc1, 8, 16, &ETC1_8X16_LINEAR, &ETC1_8X16_TILED);
    check_etc1(
        Format::Etc1,
        24,
        8,
        &ETC1_24X8_NPOT_LINEAR,
        &ETC1_24X8_NPOT_TILED,
    );
    check_etc1(
        Format::Etc1A4,
        16,
        16,
        &ETC1A4_16X16_LINEAR,
        &ETC1A4_16X16_TILED,
    );
    // A mip chain: each level tiled on its own, one after the other.
    let chain = Surface::new(Platform::N3ds, 16, 16, Format::Etc1).mips(2);
    let linear = [&ETC1_MIP_16X16_L0_LINEAR[..], &ETC1_MIP_8X8_L1_LINEAR[..]].concat();
    check_against(&chain, &linear, &ETC1_MIP_16X16_2LEVELS_TILED);
}

#[test]
fn etc1_is_the_3ds_alone_and_whole_tiles() {
    for (_, platform) in Platform::NAMES.iter().filter(|(name, _)| *name != "3ds") {
        for format in [Format::Etc1, Format::Etc1A4] {
            assert_unsupported(Surface::new(*platform, 64, 64, format));
        }
    }
    // Levels of whole 8×8-texel tiles: a 4×4 mip of an 8×8 texture is refused.
    assert_unsupported(Surface::new(Platform::N3ds, 12, 8, Format::Etc1));
    assert_unsupported(Surface::new(Platform::N3ds, 8, 8, Format::Etc1).mips(2));
    assert_eq!(Format::parse("etc1"), Some(Format::Etc1));
    assert_ne!(Format::Etc1, Format::Bc1Unorm);
}

// ---------------------------------------------------------------------------------------
// Hostile sizes

/// Depth 2^40, 2^40 layers, and the largest sides: each a length error for an empty input,
/// before any buffer is allocated (`empty_inputs_under_a_memory_limit` runs this under a
/// 2 GiB address-space limit, where a blind allocation would abort the process).
fn empty_inputs_are_length_errors() {
    let rgba8 = Format::Rgba8Unorm;
    let huge = [
        Surface::new(Platform::SWITCH, 4, 4, rgba8).depth(1 << 40),
        Surface::new(Platform::SWITCH, 4, 4, rgba8).layers(1 << 40),
        Surface::new(Platform::WIIU, 4, 4, rgba8).layers(1 << 40),
        Surface::new(Platform::Ps4, 1 << 20, 1 << 20, rgba8).layers(1 << 10),
        Surface::new(Platform::N3ds, 8, 8, rgba8).layers(1 << 40),
    ];
    for surface in huge {
        for result in [surface.swizzle_to_vec(&[]), surface.deswizzle_to_vec(&[])] {
            assert!(
                matches!(result, Err(TextureError::Length { found: 0, .. })),
                "{surface:?}: {result:?}"
            );
        }
    }
}

#[test]
fn empty_inputs_of_huge_surfaces_are_length_errors() {
    empty_inputs_are_length_errors();
}

/// The child of `empty_inputs_under_a_memory_limit`, which runs it in a process of its own
/// (a limit on this one would hold for every test of the binary).
#[test]
#[ignore = "run by empty_inputs_under_a_memory_limit, in a child process under a memory limit"]
fn empty_inputs_under_a_memory_limit_child() {
    empty_inputs_are_length_errors();
}

#[cfg(target_os = "linux")]
#[test]
fn empty_inputs_under_a_memory_limit() {
    use std::os::unix::process::CommandExt;
    let mut child = std::process::Command::new(std::env::current_exe().unwrap());
    child.args([
        "--exact",
        "empty_inputs_under_a_memory_limit_child",
        "--include-ignored",
        "--test-threads=1",
    ]);
    // SAFETY: `setrlimit` is async-signal-safe and touches no memory of the parent; it
    // runs in the forked child before `exec`.
    unsafe {
        child.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: 2 << 30,
                rlim_max: 2 << 30,
            };
            match libc::setrlimit(libc::RLIMIT_AS, &limit) {
                0 => Ok(()),
                _ => Err(std::io::Error::last_os_error()),
            }
        });
    }
    let output = child.output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && stdout.contains("1 passed"),
        "{}\n{stdout}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn sizes_are_closed_form_and_checked() {
    let rgba8 = Format::Rgba8Unorm;
    // 2^40 layers: a product, not a loop (it would run for days).
    let one = Surface::new(Platform::SWITCH, 64, 64, rgba8).mips(7);
    let many = one.layers(1 << 40);
    // Each layer starts at a multiple of the GOBs' block: as two layers are laid out.
    let layer = one.layers(2).swizzled_size().unwrap() / 2;
    assert_eq!(many.swizzled_size(), Ok(layer << 40));
    assert_eq!(many.linear_size(), Ok(one.linear_size().unwrap() << 40));
    // Any level of them, without visiting the others; the iterator knows its length.
    let last = many.level((1 << 40) - 1, 6).unwrap();
    assert_eq!(last.linear.end, many.linear_size().unwrap());
    assert_eq!(many.levels().unwrap().len(), 7 << 40);
    let wiiu = Surface::new(Platform::WIIU, 64, 64, rgba8)
        .mips(3)
        .layers(16_000);
    let levels: Vec<_> = wiiu.levels().unwrap().collect();
    for level in &levels {
        assert_eq!(wiiu.level(level.layer, level.mip).as_ref(), Ok(level));
    }
    // Past usize::MAX: an error, whatever the platform.
    for platform in Platform::NAMES.map(|(_, platform)| platform) {
        for surface in [
            Surface::new(platform, 8, 8, rgba8).depth(usize::MAX),
            Surface::new(platform, 8, 8, rgba8).layers(usize::MAX),
            Surface::new(platform, usize::MAX, 8, rgba8),
        ] {
            let size = surface.swizzled_size();
            assert!(
                matches!(
                    size,
                    Err(TextureError::Overflow | TextureError::Unsupported { .. })
                ),
                "{surface:?}: {size:?}"
            );
        }
    }
}

#[test]
fn mip_counts_are_bounded_by_the_largest_side() {
    let surface = Surface::new(Platform::SWITCH, 1024, 1024, Format::Rgba8Unorm);
    assert_eq!(surface.max_mips(), 11);
    assert!(surface.mips(11).swizzled_size().is_ok());
    let error = surface.mips(1_000_000).swizzled_size().unwrap_err();
    assert_eq!(
        error,
        TextureError::Mips {
            mips: 1_000_000,
            max: 11
        }
    );
    assert!(
        error
            .to_string()
            .contains("each halving of its largest side")
    );
    // A deep 3-D texture has the mips of its depth.
    assert_eq!(surface.depth(4096).max_mips(), 13);
    // Mip 2^32 is 1×1, not mip 0 (a shift by the count's low 32 bits).
    assert_eq!(surface.mip_size(1 << 32).0, [1, 1, 1]);
}

#[test]
fn oversized_pictures_are_refused_before_drawing() {
    let surface = Surface::new(Platform::SWITCH, 8192, 8192, Format::Rgba8Unorm);
    assert!(matches!(
        surface.svg(0, 0, 512),
        Err(TextureError::Picture(_))
    ));
}
