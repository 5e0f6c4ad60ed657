//! `swizzle texture`'s command line: help and the format list, `info` as a table and as
//! JSON, standard input and output, and the errors a user meets (usage errors exit 2 with
//! the subcommand's usage; input errors exit 1 naming both values).

mod common;

use common::{arg, bytes, command, file, run, run_command, scratch};
use swizzle::texture::wiiu::TileMode;
use swizzle::texture::{Format, Platform, Surface};

#[test]
fn help_lists_every_format_and_the_platform_options() {
    let (help, _) = run(&["texture", "swizzle", "--help"], 0);
    assert!(
        help.contains("Usage: swizzle texture swizzle [OPTIONS] --platform <PLATFORM> <IN> <OUT>"),
        "{help}"
    );
    let flat = help.split_whitespace().collect::<Vec<_>>().join(" ");
    for format in Format::all() {
        assert!(
            flat.contains(&format!(" {format},")) || flat.contains(&format!(" {format};")),
            "{format}: {help}"
        );
    }
    for heading in [
        "Surface:",
        "Switch:",
        "Wii U (the GX2 header's values):",
        "Level (PNG, picture):",
        "Files:",
    ] {
        assert!(help.contains(heading), "{heading}");
    }
    for flag in [
        "--block-height",
        "--tile-mode",
        "--swizzle",
        "--pitch",
        "--mip-offsets",
        "--cube",
        "--container",
    ] {
        assert!(help.contains(flag), "{flag}");
    }
    let (help, _) = run(&["texture", "--help"], 0);
    for command in ["swizzle", "deswizzle", "info", "list"] {
        assert!(
            help.contains(&format!("\n  {command} ")),
            "{command}: {help}"
        );
    }
}

#[test]
fn list_gives_platforms_and_each_formats_blocks_and_dxgi_number() {
    let (list, _) = run(&["texture", "list"], 0);
    for (name, _) in Platform::NAMES {
        assert!(list.contains(&format!("\n  {name} ")), "{name}");
    }
    for format in Format::all() {
        let line = list
            .lines()
            .find(|line| line.split_whitespace().next() == Some(&format.to_string()))
            .unwrap_or_else(|| panic!("{format} is listed"));
        let dxgi = format.dxgi().map_or("-".to_owned(), |n| n.to_string());
        let block = format.block();
        let fields: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(
            fields[1],
            format!("{}×{}", block.width, block.height),
            "{line}"
        );
        assert_eq!(fields[2], block.bytes.to_string(), "{line}");
        assert_eq!(fields[3], dxgi, "{line}");
    }
    assert!(
        list.contains("\n  bc7             4×4          16    98  dds raw\n"),
        "{list}"
    );
    assert!(
        list.contains("\n  bgra8           1×1           4    87  dds png raw\n"),
        "{list}"
    );
    assert!(
        list.contains("\n  etc1            4×4           8     -  raw\n"),
        "{list}"
    );
}

#[test]
fn info_lists_every_level() {
    let (out, err) = run(
        &[
            "texture",
            "info",
            "--platform",
            "wiiu",
            "--width",
            "64",
            "--height",
            "32",
            "--mips",
            "3",
            "--format",
            "bc1",
        ],
        0,
    );
    assert_eq!(err, "");
    assert_eq!(
        out,
        "\
wiiu (Tiled2DThin1, swizzle 0x0) 64×32×1, 1 layer(s), 3 mip(s): linear 1344 bytes, tiled 5120 bytes
format bc1: blocks of 4×4×1 pixels, 8 bytes each, DXGI format 71
layer mip  pixels          blocks          linear                tiled
    0   0  64×32×1         16×8×1          0+1024                0+4096
    0   1  32×16×1         8×4×1           1024+256              4096+512
    0   2  16×8×1          4×2×1           1280+64               4608+512
"
    );
}

/// `--json` parses back into what the library says; a surface of 2^40 layers lists its
/// first layers and its last, and counts the rest.
#[test]
fn info_json_parses_back_and_stays_small() {
    let (out, _) = run(
        &[
            "texture",
            "info",
            "--json",
            "--platform",
            "switch",
            "--block-height",
            "0x10",
            "--width",
            "256",
            "--height",
            "128",
            "--mips",
            "3",
            "--layers",
            "1099511627776",
            "--format",
            "bc7-srgb",
        ],
        0,
    );
    let json: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let surface = Surface::new(
        Platform::Switch {
            block_height: Some(16),
        },
        256,
        128,
        Format::Bc7UnormSrgb,
    )
    .mips(3)
    .layers(1 << 40);
    assert_eq!(json["platform"], "switch");
    assert_eq!(json["layers"], 1u64 << 40);
    assert_eq!(json["format"]["name"], "bc7-srgb");
    assert_eq!(json["format"]["dxgi"], 99);
    assert_eq!(json["linear_size"], surface.linear_size().unwrap() as u64);
    assert_eq!(
        json["swizzled_size"],
        surface.swizzled_size().unwrap() as u64
    );
    let levels = json["levels"].as_array().unwrap();
    assert_eq!(levels.len(), 3 * 3);
    assert_eq!(json["levels_omitted"], ((1u64 << 40) - 3) * 3);
    let last = &levels[8];
    let level = surface.level((1 << 40) - 1, 2).unwrap();
    assert_eq!(last["layer"], (1u64 << 40) - 1);
    assert_eq!(last["swizzled"]["offset"], level.swizzled.start as u64);
    assert_eq!(last["linear"]["len"], level.linear.len() as u64);
    // The table says what it leaves out.
    let (table, _) = run(
        &[
            "texture",
            "info",
            "--platform",
            "ps4",
            "--width",
            "4",
            "--height",
            "4",
            "--format",
            "rgba8",
            "--layers",
            "1000000",
        ],
        0,
    );
    assert_eq!(table.lines().count(), 3 + 3 + 1);
    assert!(
        table.contains("… 999997 more layers (2 to 999998)"),
        "{table}"
    );
}

/// `--picture` draws a level as the library does; `--swizzle` takes hex.
#[test]
fn info_draws_a_level() {
    let svg = scratch("level.svg");
    let (out, err) = run(
        &[
            "texture",
            "info",
            "--platform",
            "wiiu",
            "--tile-mode",
            "9",
            "--swizzle",
            "0x500",
            "--width",
            "64",
            "--height",
            "64",
            "--mips",
            "2",
            "--format",
            "rgba8",
            "--picture",
            arg(&svg),
            "--mip",
            "1",
            "--tile",
            "256",
        ],
        0,
    );
    assert!(
        out.starts_with("wiiu (Tiled2BThin2, swizzle 0x500)"),
        "{out}"
    );
    assert!(
        err.starts_with(&format!("wrote {}", svg.display())),
        "{err}"
    );
    let platform = Platform::WiiU {
        tile_mode: TileMode::Tiled2BThin2,
        swizzle: 0x500,
    };
    let surface = Surface::new(platform, 64, 64, Format::Rgba8Unorm).mips(2);
    let expected = surface.svg(0, 1, 256).unwrap();
    assert_eq!(std::fs::read_to_string(&svg).unwrap(), expected);
    // To standard output: the picture alone; the table goes with the status.
    let (out, err) = run(
        &[
            "texture",
            "info",
            "--platform",
            "wiiu",
            "--tile-mode",
            "9",
            "--swizzle",
            "1280",
            "--width",
            "64",
            "--height",
            "64",
            "--mips",
            "2",
            "--format",
            "rgba8",
            "--picture",
            "-",
            "--mip",
            "1",
            "--tile",
            "256",
        ],
        0,
    );
    assert_eq!(out, expected);
    assert!(
        err.starts_with("wiiu (Tiled2BThin2, swizzle 0x500)"),
        "{err}"
    );
}

/// `-` is standard input and output; the status line goes to standard error.
#[test]
fn standard_input_and_output() {
    let surface = Surface::new(Platform::SWITCH, 64, 64, Format::Bc1Unorm).mips(2);
    let linear = bytes(surface.linear_size().unwrap(), 2);
    let flags = [
        "texture",
        "swizzle",
        "--platform",
        "switch",
        "--width",
        "64",
        "--height",
        "64",
        "--mips",
        "2",
        "--format",
        "bc1",
        "-",
        "-",
    ];
    let (tiled, err) = run_command(command(&flags), &linear, 0);
    assert!(tiled == surface.swizzle_to_vec(&linear).unwrap());
    assert_eq!(
        err,
        format!("wrote standard output ({} bytes)\n", tiled.len())
    );
    // A DDS on standard output, and back through standard input with --container.
    let mut args = flags.to_vec();
    args[1] = "deswizzle";
    args.extend(["--container", "dds"]);
    let (dds, _) = run_command(command(&args), &tiled, 0);
    let read = ddsfile::Dds::read(&dds[..]).unwrap();
    assert!(read.data == linear);
    let (again, _) = run_command(
        command(&[
            "texture",
            "swizzle",
            "--platform",
            "switch",
            "--container",
            "dds",
            "-",
            "-",
        ]),
        &dds,
        0,
    );
    assert!(again == tiled);
}

#[test]
fn flags_that_contradict_a_header_name_both_values() {
    let dds = scratch("contradicted.dds");
    let tiled = file("contradicted.tiled", &vec![0; 64 * 64 * 4]);
    run(
        &[
            "texture",
            "deswizzle",
            "--platform",
            "ps4",
            "--width",
            "64",
            "--height",
            "64",
            "--format",
            "rgba8",
            arg(&tiled),
            arg(&dds),
        ],
        0,
    );
    let out = scratch("contradicted.out");
    for (flags, message) in [
        (vec!["--width", "32"], "--width 32 contradicts"),
        (vec!["--mips", "2"], "--mips 2 contradicts"),
        (vec!["--format", "bc1"], "--format bc1 contradicts"),
        (vec!["--cube"], "--cube contradicts"),
    ] {
        let mut args = vec!["texture", "swizzle", "--platform", "ps4"];
        args.extend(flags);
        args.extend([arg(&dds), arg(&out)]);
        let (_, err) = run(&args, 1);
        assert!(err.contains(message), "{err}");
        assert!(
            err.contains(&format!("{}'s header, which gives", dds.display())),
            "{err}"
        );
    }
    // A flag that agrees is fine.
    run(
        &[
            "texture",
            "swizzle",
            "--platform",
            "ps4",
            "--width",
            "64",
            arg(&dds),
            arg(&out),
        ],
        0,
    );
}

#[test]
fn what_a_png_cannot_hold_is_an_error() {
    let tiled = file("png_limits.tiled", &vec![0; 1 << 16]);
    let png_out = scratch("limits.png");
    for (flags, message) in [
        (
            vec!["--format", "bc1", "--width", "64", "--height", "64"],
            "a PNG holds 8-bit uncompressed pixels",
        ),
        (
            vec!["--format", "rgba16f", "--width", "64", "--height", "32"],
            "not rgba16f",
        ),
        (
            vec![
                "--format", "r8", "--width", "8", "--height", "8", "--mip", "1",
            ],
            "no layer 0, mip 1",
        ),
    ] {
        let mut args = vec!["texture", "deswizzle", "--platform", "switch"];
        args.extend(flags);
        args.extend([arg(&tiled), arg(&png_out)]);
        let (_, err) = run(&args, 1);
        assert!(err.contains(message), "{err}");
    }
    // A PNG IN is one level of one layer.
    let png_path = file("one_level.png", &[]);
    let mut encoder = png::Encoder::new(std::fs::File::create(&png_path).unwrap(), 8, 8);
    encoder.set_color(png::ColorType::Rgba);
    encoder
        .write_header()
        .unwrap()
        .write_image_data(&[7; 256])
        .unwrap();
    let out = scratch("one_level.out");
    let (_, err) = run(
        &[
            "texture",
            "swizzle",
            "--platform",
            "ps4",
            "--mips",
            "2",
            arg(&png_path),
            arg(&out),
        ],
        1,
    );
    assert!(
        err.contains("--mips 2 contradicts") && err.contains("a PNG holds one level of one layer"),
        "{err}"
    );
    let (_, err) = run(
        &[
            "texture",
            "swizzle",
            "--platform",
            "ps4",
            "--format",
            "r8",
            arg(&png_path),
            arg(&out),
        ],
        1,
    );
    assert!(err.contains("--format r8 contradicts"), "{err}");
    // Not a PNG at all.
    let fake = file("fake.png", b"not a png, but long enough to hold a header.");
    let (_, err) = run(
        &[
            "texture",
            "swizzle",
            "--platform",
            "ps4",
            arg(&fake),
            arg(&out),
        ],
        1,
    );
    assert!(err.contains("is not a PNG file"), "{err}");
}

#[test]
fn formats_without_a_dxgi_number_are_refused_for_dds() {
    let tiled = file("no_dxgi.tiled", &vec![0; 1 << 12]);
    for (platform, format) in [("3ds", "rgb8"), ("3ds", "etc1"), ("ps4", "4x4:16")] {
        let out = scratch("no_dxgi.dds");
        let (_, err) = run(
            &[
                "texture",
                "deswizzle",
                "--platform",
                platform,
                "--width",
                "64",
                "--height",
                "64",
                "--format",
                format,
                arg(&tiled),
                arg(&out),
            ],
            1,
        );
        assert!(
            err.contains(&format!("{format} has no DXGI format: use a raw file")),
            "{err}"
        );
    }
}

#[test]
fn texture_usage_errors_exit_with_two_and_show_the_usage() {
    let some = file("usage.bin", &[0; 64]);
    for (args, message, usage) in [
        (
            vec!["texture", "info", "--platform", "gamecube"],
            "unknown platform `gamecube` (one of switch, 3ds, ps3, ps4, xbox360, d3d12, wiiu)",
            "swizzle texture info",
        ),
        (
            vec!["texture", "info", "--platform", "ps4", "--format", "rgb9"],
            "unknown format `rgb9`",
            "swizzle texture info",
        ),
        (
            vec!["texture", "info", "--platform", "ps4", "--format", "r8"],
            "`texture info` needs --width",
            "swizzle texture info",
        ),
        (
            vec!["texture", "info", "--platform", "wiiu", "--tile-mode", "16"],
            "--tile-mode takes 0 to 15, not 16",
            "swizzle texture info",
        ),
        (
            vec![
                "texture",
                "info",
                "--platform",
                "wiiu",
                "--swizzle",
                "0x100000000",
            ],
            "does not fit in 32 bits",
            "swizzle texture info",
        ),
        (
            vec![
                "texture",
                "info",
                "--platform",
                "switch",
                "--block-height",
                "3",
            ],
            "--block-height takes 1, 2, 4, 8, 16 or 32, not 3",
            "swizzle texture info",
        ),
        (
            vec![
                "texture",
                "info",
                "--platform",
                "ps4",
                "--block-height",
                "4",
            ],
            "--block-height is the Switch's",
            "swizzle texture info",
        ),
        (
            vec!["texture", "info", "--platform", "ps4", "--tile-mode", "4"],
            "are the Wii U's",
            "swizzle texture info",
        ),
        (
            vec!["texture", "swizzle", "--platform", "ps4", "IN"],
            "required arguments were not provided",
            "swizzle texture swizzle",
        ),
        (
            vec!["texture", "mirror"],
            "unrecognized subcommand 'mirror'",
            "swizzle texture",
        ),
        (
            vec![
                "texture",
                "swizzle",
                "--platform",
                "ps4",
                arg(&some),
                "out.dds",
            ],
            "OUT is the tiled surface, which is raw",
            "swizzle texture swizzle",
        ),
        (
            vec!["texture", "deswizzle", "--platform", "ps4", "--width", "4"],
            "required arguments",
            "swizzle texture deswizzle",
        ),
    ] {
        let (out, err) = run(&args, 2);
        assert_eq!(out, "");
        assert!(
            err.starts_with("error: ") && err.contains(message),
            "{args:?}: {err}"
        );
        assert!(err.contains(&format!("Usage: {usage}")), "{args:?}: {err}");
    }
}

/// Input errors exit 1 with the library's reason or both lengths.
#[test]
fn texture_input_errors_exit_with_one() {
    let short = file("short.bin", b"not a texture");
    let out = scratch("short.out");
    for (args, message) in [
        (
            vec![
                "texture",
                "swizzle",
                "--platform",
                "ps4",
                "--width",
                "8",
                "--height",
                "8",
                "--format",
                "rgba8",
                arg(&short),
                arg(&out),
            ],
            "holds 13 bytes; the linear surface is 256",
        ),
        (
            vec![
                "texture",
                "deswizzle",
                "--platform",
                "switch",
                "--width",
                "8",
                "--height",
                "8",
                "--format",
                "r8",
                arg(&short),
                arg(&out),
            ],
            "holds 13 bytes; the tiled surface is 512",
        ),
        (
            vec![
                "texture",
                "info",
                "--platform",
                "d3d12",
                "--width",
                "8",
                "--height",
                "8",
                "--format",
                "r8",
                "--depth",
                "2",
            ],
            "does not tile this surface",
        ),
        (
            vec![
                "texture",
                "info",
                "--platform",
                "ps4",
                "--width",
                "8",
                "--height",
                "8",
                "--format",
                "r8",
                "--picture",
                arg(&out),
                "--layer",
                "3",
            ],
            "no layer 3",
        ),
    ] {
        let (_, err) = run(&args, 1);
        assert!(
            err.starts_with("error: ") && err.contains(message),
            "{args:?}: {err}"
        );
        assert!(!out.exists(), "{args:?}");
    }
}

/// A DDS cut short says where it ends: inside its headers, or in its payload (both
/// lengths).
#[test]
fn a_truncated_dds_says_where_it_ends() {
    let tiled = file("whole.tiled", &bytes(128 * 128 * 4, 4));
    let dds = scratch("whole.dds");
    run(
        &[
            "texture",
            "deswizzle",
            "--platform",
            "switch",
            "--width",
            "128",
            "--height",
            "128",
            "--format",
            "rgba8",
            arg(&tiled),
            arg(&dds),
        ],
        0,
    );
    let whole = std::fs::read(&dds).unwrap();
    let out = scratch("truncated.out");
    for (len, message) in [
        (50, "ends after 50 bytes, inside its DDS header"),
        (140, "ends after 140 bytes, inside its DX10 header"),
        (
            1000,
            "holds 852 bytes after its 148-byte header; the linear surface is 65536",
        ),
    ] {
        let cut = file("truncated.dds", &whole[..len]);
        let (_, err) = run(
            &[
                "texture",
                "swizzle",
                "--platform",
                "switch",
                arg(&cut),
                arg(&out),
            ],
            1,
        );
        assert!(err.contains(message), "{len}: {err}");
    }
}
