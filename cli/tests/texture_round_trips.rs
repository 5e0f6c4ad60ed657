//! Every container on every platform, through the binary: raw, DDS and PNG files written by
//! `swizzle texture` are read back by independent readers (the `ddsfile` and `png` crates'
//! readers, `tegra_swizzle` for the Switch's tiling) and compared byte for byte with the
//! linear surface; tiled files are compared with the library's tiling (which the root
//! crate's tests compare with each platform's reference crate).

mod common;

use common::{arg, bytes, file, run, scratch};
use std::num::NonZeroU32;
use swizzle::texture::wiiu::TileMode;
use swizzle::texture::{Format, Platform, Surface};

/// A surface, as the library makes it, and as the command line declares it.
struct Case {
    surface: Surface,
    cube: bool,
    /// The flags of the platform and its options.
    platform: Vec<&'static str>,
}

impl Case {
    fn new(platform: &[&'static str], surface: Surface) -> Case {
        Case {
            surface,
            cube: false,
            platform: platform.to_vec(),
        }
    }

    fn cube(mut self) -> Case {
        self.cube = true;
        self
    }

    /// `--platform …` and the surface's flags.
    fn flags(&self) -> Vec<String> {
        let s = &self.surface;
        let layers = if self.cube { s.layers / 6 } else { s.layers };
        let mut flags: Vec<String> = self.platform.iter().map(|s| s.to_string()).collect();
        for (flag, value) in [
            ("--width", s.width),
            ("--height", s.height),
            ("--depth", s.depth),
            ("--layers", layers),
            ("--mips", s.mips),
        ] {
            flags.extend([flag.to_owned(), value.to_string()]);
        }
        flags.extend(["--format".to_owned(), s.format.to_string()]);
        if self.cube {
            flags.push("--cube".to_owned());
        }
        flags
    }

    fn name(&self) -> String {
        let s = &self.surface;
        format!(
            "{}_{}_{}x{}x{}_{}l_{}m",
            s.platform.name(),
            s.format,
            s.width,
            s.height,
            s.depth,
            s.layers,
            s.mips
        )
    }
}

/// Runs `swizzle texture ACTION FLAGS… IN OUT`.
fn texture(action: &str, flags: &[String], files: [&std::path::Path; 2]) {
    let mut args = vec!["texture", action];
    args.extend(flags.iter().map(String::as_str));
    args.extend(files.map(arg));
    let (out, err) = run(&args, 0);
    assert_eq!(out, "", "{args:?}");
    assert!(err.starts_with("wrote "), "{args:?}: {err}");
}

fn cases() -> Vec<Case> {
    let switch = ["--platform", "switch"];
    let wiiu = ["--platform", "wiiu"];
    let on = |name: &str| Platform::parse(name).unwrap();
    vec![
        Case::new(
            &switch,
            Surface::new(Platform::SWITCH, 128, 64, Format::Bc7Unorm)
                .mips(4)
                .layers(2),
        ),
        Case::new(
            &switch,
            Surface::new(Platform::SWITCH, 64, 64, Format::Rgba8Unorm)
                .mips(3)
                .layers(6),
        )
        .cube(),
        Case::new(
            &switch,
            Surface::new(Platform::SWITCH, 32, 32, Format::Rgba8Unorm)
                .depth(8)
                .mips(2),
        ),
        Case::new(
            &["--platform", "switch", "--block-height", "4"],
            Surface::new(
                Platform::Switch {
                    block_height: Some(4),
                },
                256,
                200,
                Format::Bc1UnormSrgb,
            )
            .mips(2),
        ),
        Case::new(
            &switch,
            Surface::new(Platform::SWITCH, 100, 60, Format::astc(8, 8)).mips(3),
        ),
        Case::new(
            &wiiu,
            Surface::new(Platform::WIIU, 128, 64, Format::Bc1Unorm).mips(4),
        ),
        Case::new(
            &[
                "--platform",
                "wiiu",
                "--tile-mode",
                "1",
                "--swizzle",
                "0x500",
            ],
            Surface::new(
                Platform::WiiU {
                    tile_mode: TileMode::LinearAligned,
                    swizzle: 0x500,
                },
                128,
                64,
                Format::Rgba8Unorm,
            )
            .mips(2),
        ),
        Case::new(
            &["--platform", "3ds"],
            Surface::new(on("3ds"), 64, 64, Format::Rgba8Unorm).mips(3),
        ),
        Case::new(
            &["--platform", "3ds"],
            Surface::new(on("3ds"), 64, 32, Format::Etc1).mips(2),
        ),
        Case::new(
            &["--platform", "ps4"],
            Surface::new(on("ps4"), 128, 64, Format::Bc3Unorm)
                .mips(4)
                .layers(2),
        ),
        Case::new(
            &["--platform", "ps3"],
            Surface::new(on("ps3"), 64, 64, Format::Bc1Unorm).mips(3),
        ),
        Case::new(
            &["--platform", "xbox360"],
            Surface::new(on("xbox360"), 64, 64, Format::Rgba16Float)
                .mips(2)
                .layers(2),
        ),
        Case::new(
            &["--platform", "d3d12"],
            Surface::new(on("d3d12"), 256, 256, Format::Rgba8Unorm).mips(2),
        ),
    ]
}

/// The Switch's tiling of `surface` as `tegra_swizzle` computes it.
fn tegra(surface: &Surface, linear: &[u8]) -> Vec<u8> {
    let Platform::Switch { block_height } = surface.platform else {
        unreachable!()
    };
    let block = surface.format.block();
    let n = |v: usize| NonZeroU32::new(v as u32).unwrap();
    let dim = tegra_swizzle::surface::BlockDim {
        width: n(block.width),
        height: n(block.height),
        depth: n(block.depth),
    };
    let block_height = block_height.map(|b| tegra_swizzle::BlockHeight::new(b as u32).unwrap());
    let u = |v: usize| v as u32;
    tegra_swizzle::surface::swizzle_surface(
        u(surface.width),
        u(surface.height),
        u(surface.depth),
        linear,
        dim,
        block_height,
        u(block.bytes),
        u(surface.mips),
        u(surface.layers),
    )
    .expect("tegra_swizzle tiles it")
}

#[test]
fn raw_and_dds_round_trip_on_every_platform() {
    for case in cases() {
        let (surface, name, flags) = (&case.surface, case.name(), case.flags());
        let linear = bytes(surface.linear_size().unwrap(), surface.width + surface.mips);
        let expected = surface.swizzle_to_vec(&linear).unwrap();
        if matches!(surface.platform, Platform::Switch { .. }) {
            assert!(tegra(surface, &linear) == expected, "{name}: tegra_swizzle");
        }
        // Raw, both ways.
        let input = file(&format!("{name}.linear"), &linear);
        let (tiled, back) = (
            scratch(&format!("{name}.tiled")),
            scratch(&format!("{name}.back")),
        );
        texture("swizzle", &flags, [&input, &tiled]);
        assert!(
            std::fs::read(&tiled).unwrap() == expected,
            "{name}: raw swizzle"
        );
        texture("deswizzle", &flags, [&tiled, &back]);
        assert!(
            std::fs::read(&back).unwrap() == linear,
            "{name}: raw deswizzle"
        );
        // DDS, where the format has a DXGI number: read back by `ddsfile`.
        let Some(dxgi) = surface.format.dxgi() else {
            continue;
        };
        let dds_path = scratch(&format!("{name}.dds"));
        texture("deswizzle", &flags, [&tiled, &dds_path]);
        let dds = ddsfile::Dds::read(std::fs::File::open(&dds_path).unwrap()).unwrap();
        assert_eq!(
            (dds.get_width(), dds.get_height(), dds.get_depth()),
            (
                surface.width as u32,
                surface.height as u32,
                surface.depth as u32
            ),
            "{name}"
        );
        assert_eq!(dds.get_num_mipmap_levels(), surface.mips as u32, "{name}");
        assert_eq!(dds.get_num_array_layers(), surface.layers as u32, "{name}");
        let header10 = dds.header10.as_ref().expect("a DX10 header");
        assert_eq!(header10.dxgi_format as u32, dxgi, "{name}");
        assert_eq!(
            header10.misc_flag.contains(ddsfile::MiscFlag::TEXTURECUBE),
            case.cube,
            "{name}"
        );
        assert!(dds.data == linear, "{name}: the DDS payload");
        // And the DDS alone gives the surface: only the platform is flagged.
        let from_dds = scratch(&format!("{name}.from_dds"));
        texture(
            "swizzle",
            &case
                .platform
                .iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>(),
            [&dds_path, &from_dds],
        );
        assert!(
            std::fs::read(&from_dds).unwrap() == expected,
            "{name}: swizzle of the DDS"
        );
    }
}

/// One level of each platform as a PNG: written by `deswizzle`, read by the `png` crate,
/// and tiled back from the PNG.
#[test]
fn png_round_trips_on_every_platform() {
    let on = |name: &str| Platform::parse(name).unwrap();
    let cases = [
        ("switch", Format::R8Unorm, 100, 70),
        ("wiiu", Format::Rg8Unorm, 64, 48),
        ("3ds", Format::Rgb8Unorm, 32, 64),
        ("ps4", Format::Bgra8UnormSrgb, 40, 24),
        ("ps3", Format::Rgba8Unorm, 64, 16),
        ("xbox360", Format::Bgra8Unorm, 64, 64),
        ("d3d12", Format::Rgba8UnormSrgb, 128, 128),
    ];
    for (platform, format, width, height) in cases {
        let surface = Surface::new(on(platform), width, height, format);
        let case = Case::new(&["--platform", platform], surface);
        let (name, flags) = (case.name(), case.flags());
        let linear = bytes(surface.linear_size().unwrap(), width);
        let tiled = file(
            &format!("{name}.tiled"),
            &surface.swizzle_to_vec(&linear).unwrap(),
        );
        let png_path = scratch(&format!("{name}.png"));
        texture("deswizzle", &flags, [&tiled, &png_path]);
        let (info, pixels) = decode(&png_path);
        assert_eq!(
            (info.width, info.height),
            (width as u32, height as u32),
            "{name}"
        );
        assert_eq!(info.bit_depth, png::BitDepth::Eight, "{name}");
        let bgra = matches!(format, Format::Bgra8Unorm | Format::Bgra8UnormSrgb);
        assert_eq!(
            pixels,
            if bgra {
                swapped(&linear)
            } else {
                linear.clone()
            },
            "{name}"
        );
        assert_eq!(
            info.srgb,
            matches!(format, Format::Rgba8UnormSrgb | Format::Bgra8UnormSrgb),
            "{name}"
        );
        // Back from the PNG: the format says how its pixels are texels (bgra8 swaps back);
        // the PNG gives the size.
        let back = scratch(&format!("{name}.from_png"));
        let format_flag = format.to_string();
        texture(
            "swizzle",
            &["--platform", platform, "--format", &format_flag].map(str::to_owned),
            [&png_path, &back],
        );
        assert!(
            std::fs::read(&back).unwrap() == std::fs::read(&tiled).unwrap(),
            "{name}"
        );
    }
}

/// `--layer` and `--mip` choose the level a PNG holds.
#[test]
fn a_png_holds_the_level_asked_for() {
    let surface = Surface::new(Platform::SWITCH, 64, 32, Format::Rgba8Unorm)
        .layers(3)
        .mips(4);
    let case = Case::new(&["--platform", "switch"], surface);
    let linear = bytes(surface.linear_size().unwrap(), 9);
    let tiled = file("levels.tiled", &surface.swizzle_to_vec(&linear).unwrap());
    for (layer, mip) in [(0, 0), (2, 1), (1, 3)] {
        let png_path = scratch(&format!("level_{layer}_{mip}.png"));
        let mut flags = case.flags();
        flags.extend(["--layer", &layer.to_string(), "--mip", &mip.to_string()].map(str::to_owned));
        texture("deswizzle", &flags, [&tiled, &png_path]);
        let level = surface.level(layer, mip).unwrap();
        let (info, pixels) = decode(&png_path);
        assert_eq!(
            (info.width as usize, info.height as usize),
            (level.width, level.height)
        );
        assert!(
            pixels == linear[level.linear.clone()],
            "layer {layer} mip {mip}"
        );
    }
}

/// A DDS without the DX10 header (a DXT1 FourCC, as older tools write) is read too.
#[test]
fn a_legacy_dds_header_is_read() {
    let surface = Surface::new(Platform::SWITCH, 64, 64, Format::Bc1Unorm).mips(3);
    let linear = bytes(surface.linear_size().unwrap(), 1);
    let mut dds = ddsfile::Dds::new_d3d(ddsfile::NewD3dParams {
        height: 64,
        width: 64,
        depth: None,
        format: ddsfile::D3DFormat::DXT1,
        mipmap_levels: Some(3),
        caps2: None,
    })
    .unwrap();
    dds.data = linear.clone();
    let path = scratch("legacy.dds");
    dds.write(&mut std::fs::File::create(&path).unwrap())
        .unwrap();
    let tiled = scratch("legacy.tiled");
    texture(
        "swizzle",
        &["--platform", "switch"].map(str::to_owned),
        [&path, &tiled],
    );
    assert!(std::fs::read(&tiled).unwrap() == surface.swizzle_to_vec(&linear).unwrap());
}

/// What the `png` crate reads of a PNG.
struct Decoded {
    width: u32,
    height: u32,
    bit_depth: png::BitDepth,
    /// Whether it has an `sRGB` chunk.
    srgb: bool,
}

/// The `png` crate's reading of `path`: its header and 8-bit pixels.
fn decode(path: &std::path::Path) -> (Decoded, Vec<u8>) {
    let file = std::io::BufReader::new(std::fs::File::open(path).unwrap());
    let mut reader = png::Decoder::new(file).read_info().unwrap();
    let srgb = reader.info().srgb.is_some();
    let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut pixels).unwrap();
    pixels.truncate(info.buffer_size());
    let decoded = Decoded {
        width: info.width,
        height: info.height,
        bit_depth: info.bit_depth,
        srgb,
    };
    (decoded, pixels)
}

/// RGBA ↔ BGRA.
fn swapped(pixels: &[u8]) -> Vec<u8> {
    pixels
        .chunks_exact(4)
        .flat_map(|p| [p[2], p[1], p[0], p[3]])
        .collect()
}
