//! Hostile inputs end in a clear error, never an abort, a hang or a lost file: IN = OUT and
//! an existing OUT under a file-size limit, `/dev/zero` and wrong-size files as input
//! (checked before they are read, under a memory limit), surfaces of absurd size, mip
//! counts past the rule, depths that overflow. No timing thresholds: a limit on memory or
//! file size makes a blind read or a partial write fail loudly instead.
#![cfg(unix)]

mod common;

use common::{arg, bytes, command, file, run, run_command, scratch};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};

/// A resource limit set in the child.
#[derive(Clone, Copy)]
enum Limit {
    /// RLIMIT_FSIZE: the largest file it may write. SIGXFSZ keeps its default action
    /// (ending the process): the command itself makes a write past the limit an error
    /// (EFBIG), which removes its temporary file.
    FileSize(u64),
    /// RLIMIT_DATA: its heap (the binary's own mapped code is not counted, as it is in
    /// RLIMIT_AS).
    Heap(u64),
}

/// `command` under `limit`.
fn limited(mut command: Command, limit: Limit) -> Command {
    // SAFETY: between fork and exec the closure calls only an async-signal-safe function
    // (setrlimit) and allocates nothing.
    unsafe {
        command.pre_exec(move || {
            let set = |resource, bytes| {
                let rlimit = libc::rlimit {
                    rlim_cur: bytes,
                    rlim_max: bytes,
                };
                match libc::setrlimit(resource, &rlimit) {
                    0 => Ok(()),
                    _ => Err(std::io::Error::last_os_error()),
                }
            };
            match limit {
                Limit::FileSize(bytes) => set(libc::RLIMIT_FSIZE, bytes),
                Limit::Heap(bytes) => set(libc::RLIMIT_DATA, bytes),
            }
        });
    }
    command
}

/// A heap far smaller than a blind read or allocation would take.
const MEMORY: Limit = Limit::Heap(256 << 20);

/// A 256×256 RGBA8 surface on the PS4: 256 KiB on both sides.
const SURFACE: [&str; 8] = [
    "--platform",
    "ps4",
    "--width",
    "256",
    "--height",
    "256",
    "--format",
    "rgba8",
];
const SURFACE_BYTES: usize = 256 * 256 * 4;

fn texture(action: &str, files: [&Path; 2]) -> Command {
    let mut args = vec!["texture", action];
    args.extend(SURFACE);
    args.extend(files.map(arg));
    command(&args)
}

/// No temporary file of ours is left beside `path`.
fn no_leftovers(path: &Path) {
    let dir = path.parent().unwrap();
    let left: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with(".swizzle-"))
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}

#[test]
fn in_equals_out_survives_a_failed_write_and_works_otherwise() {
    let original = bytes(SURFACE_BYTES, 3);
    let path = file("in_place.bin", &original);
    let failing = limited(
        texture("deswizzle", [&path, &path]),
        Limit::FileSize(64 << 10),
    );
    let (_, err) = run_command(failing, &[], 1);
    assert!(
        err.starts_with(&format!("error: cannot write {}: ", path.display())),
        "{err}"
    );
    assert!(
        std::fs::read(&path).unwrap() == original,
        "the input is intact"
    );
    no_leftovers(&path);
    // Without the limit, IN = OUT is tiled in place.
    let (_, err) = run_command(texture("swizzle", [&path, &path]), &[], 0);
    assert_eq!(
        err,
        format!("wrote {} ({SURFACE_BYTES} bytes)\n", path.display())
    );
    let (_, _) = run_command(texture("deswizzle", [&path, &path]), &[], 0);
    assert!(std::fs::read(&path).unwrap() == original, "and back");
}

#[test]
fn an_existing_out_is_intact_when_the_write_fails() {
    let input = file("fails.linear", &bytes(SURFACE_BYTES, 5));
    let out = file("precious.bin", b"precious");
    let failing = limited(
        texture("swizzle", [&input, &out]),
        Limit::FileSize(64 << 10),
    );
    let (_, err) = run_command(failing, &[], 1);
    assert!(err.contains("cannot write"), "{err}");
    assert_eq!(std::fs::read(&out).unwrap(), b"precious");
    no_leftovers(&out);
}

#[test]
fn dev_zero_is_an_error_in_bounded_memory() {
    let out = scratch("zero.out");
    let zero = Path::new("/dev/zero");
    let (_, err) = run_command(limited(texture("swizzle", [zero, &out]), MEMORY), &[], 1);
    assert_eq!(
        err,
        format!(
            "error: /dev/zero holds more than {SURFACE_BYTES} bytes; the linear surface is {SURFACE_BYTES}\n"
        )
    );
    // The same through standard input.
    let mut piped = limited(texture("deswizzle", [Path::new("-"), &out]), MEMORY);
    piped.stdin(Stdio::from(std::fs::File::open(zero).unwrap()));
    let output = piped.output().unwrap();
    let err = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(err.contains("standard input holds more than"), "{err}");
    assert!(!out.exists());
}

#[test]
fn a_wrong_size_sparse_file_is_refused_before_it_is_read() {
    let path = scratch("sparse.bin");
    let sparse = std::fs::File::create(&path).unwrap();
    sparse.set_len(100_000_000).unwrap();
    let out = scratch("sparse.out");
    // 32 MiB of heap: reading the 100 MB file would fail; checking its length does not.
    let (_, err) = run_command(
        limited(texture("swizzle", [&path, &out]), Limit::Heap(32 << 20)),
        &[],
        1,
    );
    assert_eq!(
        err,
        format!(
            "error: {} holds 100000000 bytes; the linear surface is {SURFACE_BYTES}\n",
            path.display()
        )
    );
}

#[test]
fn a_surface_larger_than_the_memory_is_an_error_not_an_abort() {
    // An 8 GiB RGBA8 surface and a sparse file of exactly its size, under a heap limit: the
    // buffer it would be read into cannot be had, and the command says so.
    let path = scratch("eight_gib.bin");
    std::fs::File::create(&path)
        .unwrap()
        .set_len(8 << 30)
        .unwrap();
    let args = [
        "texture",
        "swizzle",
        "--platform",
        "switch",
        "--width",
        "32768",
        "--height",
        "65536",
        "--format",
        "rgba8",
    ];
    let err = refused_under_the_memory_limit(&args, &path);
    assert_eq!(
        err,
        format!(
            "error: no memory to read {}: 8589934592 bytes\n",
            path.display()
        )
    );
    std::fs::remove_file(&path).unwrap();
}

/// `args` with an empty IN and an OUT, under the memory limit: a Length error.
fn empty_input(args: &[&str]) -> String {
    refused_under_the_memory_limit(args, &file("empty.bin", b""))
}

/// `args` with `input` and an OUT, under the memory limit: exit 1, OUT not written; the
/// error.
fn refused_under_the_memory_limit(args: &[&str], input: &Path) -> String {
    let out = scratch("refused.out");
    let mut args = args.to_vec();
    args.extend([arg(input), arg(&out)]);
    let (_, err) = run_command(limited(command(&args), MEMORY), &[], 1);
    assert!(!out.exists());
    err
}

#[test]
fn surfaces_of_two_to_the_forty_layers_or_slices_are_length_errors() {
    let base = [
        "texture",
        "swizzle",
        "--platform",
        "ps4",
        "--width",
        "4",
        "--height",
        "4",
        "--format",
        "rgba8",
    ];
    let mut layers = base.to_vec();
    layers.extend(["--layers", "1099511627776"]);
    let err = empty_input(&layers);
    assert_eq!(
        err,
        format!(
            "error: {} holds 0 bytes; the linear surface is 70368744177664\n",
            scratch("empty.bin").display()
        )
    );
    let mut depth = base.to_vec();
    depth[3] = "switch";
    depth.extend(["--depth", "1099511627776"]);
    let err = empty_input(&depth);
    assert!(
        err.contains("holds 0 bytes; the linear surface is 70368744177664"),
        "{err}"
    );
}

#[test]
fn a_million_mips_is_an_error_that_states_the_rule() {
    let (_, err) = run(
        &[
            "texture",
            "info",
            "--platform",
            "switch",
            "--width",
            "1024",
            "--height",
            "1024",
            "--format",
            "rgba8",
            "--mips",
            "1000000",
        ],
        1,
    );
    assert!(err.contains("1000000") && err.contains("11"), "{err}");
}

#[test]
fn a_depth_of_two_to_the_sixty_four_less_one_is_an_error() {
    for platform in ["switch", "wiiu", "ps4"] {
        let (_, err) = run(
            &[
                "texture",
                "info",
                "--platform",
                platform,
                "--width",
                "4",
                "--height",
                "4",
                "--format",
                "rgba8",
                "--depth",
                "18446744073709551615",
            ],
            1,
        );
        assert!(err.starts_with("error: "), "{platform}: {err}");
    }
}

#[test]
fn etc1_is_the_3ds_format_only() {
    for platform in ["switch", "ps4", "wiiu"] {
        let (_, err) = run(
            &[
                "texture",
                "info",
                "--platform",
                platform,
                "--width",
                "16",
                "--height",
                "16",
                "--format",
                "etc1",
            ],
            1,
        );
        assert!(err.starts_with("error: "), "{platform}: {err}");
    }
    run(
        &[
            "texture",
            "info",
            "--platform",
            "3ds",
            "--width",
            "16",
            "--height",
            "16",
            "--format",
            "etc1",
        ],
        0,
    );
}
