//! Wii U files as GX2 headers describe them, read back exactly: `wiiu_swizzle`'s own test
//! surfaces (the GX2 files its package ships in `src/data`, read where Cargo unpacked the
//! dev-dependency), whose mips lie at the header's offsets (`--mip-offsets`), padded
//! further apart than the library packs them; `--pitch` checked against the surface's.

mod common;

use common::{arg, file, run, scratch};
use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

/// One of the GX2 surfaces of `wiiu_swizzle`'s package (a dev-dependency, so Cargo has
/// unpacked it): each name gives the size, format, tile mode (`tm`), pitch (`p`), swizzle
/// (`s`) and mip count; `_swizzled` is the tiled surface, `_deswizzled` its linear one.
fn data(name: &str) -> PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    let dir = DIR.get_or_init(|| {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let metadata = Command::new(cargo)
            .args(["metadata", "--format-version", "1", "--locked"])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .expect("cargo metadata runs");
        assert!(metadata.status.success(), "cargo metadata failed");
        let metadata: serde_json::Value = serde_json::from_slice(&metadata.stdout).unwrap();
        let manifest = metadata["packages"]
            .as_array()
            .unwrap()
            .iter()
            .find(|package| package["name"] == "wiiu_swizzle")
            .and_then(|package| package["manifest_path"].as_str())
            .expect("wiiu_swizzle is a dev-dependency");
        PathBuf::from(manifest).with_file_name("src/data")
    });
    dir.join(name)
}

/// The header of `256x256_bc1_tm4_p64_s132352_mips8`, as `wiiu_swizzle`'s test gives it.
const MIPS8: [&str; 14] = [
    "--platform",
    "wiiu",
    "--swizzle",
    "0x20500",
    "--width",
    "256",
    "--height",
    "256",
    "--mips",
    "8",
    "--format",
    "bc1",
    "--pitch",
    "64",
];
const MIPS8_OFFSETS: &str = "32768,9472,11520,12032,12544,13056,13568";

fn with(command: &str, options: &[&str], files: [&str; 2]) -> Vec<String> {
    ["texture", command]
        .iter()
        .chain(options)
        .chain(&files)
        .map(|s| s.to_string())
        .collect()
}

fn run_owned(args: &[String], code: i32) -> (String, String) {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    run(&args, code)
}

#[test]
fn mips_padded_apart_deswizzle_exactly_and_swizzle_back_into_place() {
    let tiled = data("256x256_bc1_tm4_p64_s132352_mips8_swizzled.bin");
    let expected = std::fs::read(data("256x256_bc1_tm4_p64_s132352_mips8_deswizzled.bin")).unwrap();
    let (linear, back) = (scratch("mips8.linear"), scratch("mips8.tiled"));
    let mut options = MIPS8.to_vec();
    options.extend(["--mip-offsets", MIPS8_OFFSETS]);
    run_owned(&with("deswizzle", &options, [arg(&tiled), arg(&linear)]), 0);
    assert!(std::fs::read(&linear).unwrap() == expected);
    // Back: each mip at the header's offset, zeros elsewhere. The file's padding (between
    // mips, and inside the tiles of the small mips, around their blocks) held other bytes,
    // which no reader looks at; the large mips fill their tiles and are equal whole.
    run_owned(&with("swizzle", &options, [arg(&linear), arg(&back)]), 0);
    let (original, ours) = (
        std::fs::read(&tiled).unwrap(),
        std::fs::read(&back).unwrap(),
    );
    assert_eq!(ours.len(), original.len());
    let whole_mips = [
        (0, 32768),
        (32768, 8192),
        (32768 + 9472, 2048),
        (32768 + 11520, 512),
    ];
    for (start, size) in whole_mips {
        assert!(
            ours[start..][..size] == original[start..][..size],
            "mip at {start}"
        );
    }
    assert!(ours.iter().zip(&original).all(|(&b, &o)| b == o || b == 0));
}

#[test]
fn mip_offsets_come_from_a_file_too() {
    let offsets = file(
        "offsets.txt",
        format!("{}\n", MIPS8_OFFSETS.replace(',', " ")).as_bytes(),
    );
    let linear = scratch("from_file.linear");
    let tiled = data("256x256_bc1_tm4_p64_s132352_mips8_swizzled.bin");
    let at = format!("@{}", offsets.display());
    let mut options = MIPS8.to_vec();
    options.extend(["--mip-offsets", &at]);
    run_owned(&with("deswizzle", &options, [arg(&tiled), arg(&linear)]), 0);
    let expected = std::fs::read(data("256x256_bc1_tm4_p64_s132352_mips8_deswizzled.bin")).unwrap();
    assert!(std::fs::read(&linear).unwrap() == expected);
    // A header's 13 offsets, the unused ones 0, are taken as they are.
    let all = format!("{MIPS8_OFFSETS},0,0,0,0,0,0");
    let mut options = MIPS8.to_vec();
    options.extend(["--mip-offsets", &all]);
    run_owned(&with("deswizzle", &options, [arg(&tiled), arg(&linear)]), 0);
}

#[test]
fn a_cube_map_and_a_volume_deswizzle_exactly() {
    let cube = scratch("cube.linear");
    let args = [
        "texture",
        "deswizzle",
        "--platform",
        "wiiu",
        "--swizzle",
        "67328",
        "--width",
        "64",
        "--height",
        "64",
        "--mips",
        "2",
        "--cube",
        "--format",
        "bc1",
        "--pitch",
        "32",
        "--mip-offsets",
        "24576",
    ];
    let tiled = data("64x64_cube_bc1_tm4_p32_s67328_swizzled.bin");
    let mut cube_args = args.to_vec();
    cube_args.extend([arg(&tiled), arg(&cube)]);
    run(&cube_args, 0);
    let expected = std::fs::read(data("64x64_cube_bc1_tm4_p32_s67328_deswizzled.bin")).unwrap();
    assert!(std::fs::read(&cube).unwrap() == expected);

    let volume = scratch("volume.linear");
    let tiled = data("16x16x16_rgba8_tm7_p32_s852224_swizzled.bin");
    run(
        &[
            "texture",
            "deswizzle",
            "--platform",
            "wiiu",
            "--tile-mode",
            "7",
            "--swizzle",
            "852224",
            "--width",
            "16",
            "--height",
            "16",
            "--depth",
            "16",
            "--format",
            "rgba8",
            "--pitch",
            "32",
            arg(&tiled),
            arg(&volume),
        ],
        0,
    );
    let expected = std::fs::read(data("16x16x16_rgba8_tm7_p32_s852224_deswizzled.bin")).unwrap();
    assert!(std::fs::read(&volume).unwrap() == expected);
}

#[test]
fn header_values_that_do_not_fit_the_surface_are_errors() {
    let tiled = data("256x256_bc1_tm4_p64_s132352_mips8_swizzled.bin");
    let out = scratch("unfit.linear");
    let files = [arg(&tiled), arg(&out)];
    // The pitch of another width: both named.
    let mut options = MIPS8.to_vec();
    options[13] = "32";
    let (_, err) = run_owned(&with("deswizzle", &options, files), 1);
    assert!(
        err.contains("--pitch 32 is not the surface's: its mip 0 has a pitch of 64 blocks"),
        "{err}"
    );
    // Offsets that overlap, too few, or one past the mips.
    for (offsets, message) in [
        (
            "32768,100,11520,12032,12544,13056,13568",
            "mip 2 would start at byte 32868, inside mip 1",
        ),
        (
            "32768,9472",
            "2 offset(s) given; the surface's 8 mips need 7",
        ),
        (
            "32768,9472,11520,12032,12544,13056,13568,14080",
            "offset 7 is 14080, but the surface has only 8 mips",
        ),
    ] {
        let mut options = MIPS8.to_vec();
        options.extend(["--mip-offsets", offsets]);
        let (_, err) = run_owned(&with("deswizzle", &options, files), 1);
        assert!(err.contains(message), "{offsets}: {err}");
    }
    // Without the offsets, the file is longer than the library's packing: both lengths.
    let (_, err) = run_owned(&with("deswizzle", &MIPS8, files), 1);
    assert!(
        err.contains("holds 46848 bytes; the tiled surface is 45568"),
        "{err}"
    );
    assert!(!out.exists(), "nothing is written on an error");
    // The Wii U's options on another platform are a usage error.
    let (_, err) = run(
        &[
            "texture",
            "info",
            "--platform",
            "switch",
            "--width",
            "8",
            "--height",
            "8",
            "--format",
            "r8",
            "--mip-offsets",
            "1,2",
        ],
        2,
    );
    assert!(err.contains("are the Wii U's (--platform wiiu)"), "{err}");
    assert!(err.contains("Usage: swizzle texture info"), "{err}");
}
