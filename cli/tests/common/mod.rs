//! What the texture tests share: the binary run as a user runs it, and scratch files.
// Each test file uses a part of these.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// A fresh path in the test's scratch directory (a folder per test file, so that files of
/// one name in two tests never meet).
pub fn scratch(name: &str) -> PathBuf {
    let test = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .unwrap_or_default();
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(test);
    std::fs::create_dir_all(&dir).expect("the scratch directory is writable");
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

/// Writes `bytes` to a scratch file.
pub fn file(name: &str, bytes: &[u8]) -> PathBuf {
    let path = scratch(name);
    std::fs::write(&path, bytes).expect("writable");
    path
}

/// Bytes that differ from their neighbours'.
pub fn bytes(len: usize, seed: usize) -> Vec<u8> {
    (0..len)
        .map(|i| (i.wrapping_mul(7) + i / 251 + seed) as u8)
        .collect()
}

/// The binary, with `args`.
pub fn command(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_swizzle"));
    command.args(args);
    command
}

/// Runs `command` with `stdin` on standard input, expecting exit code `code`; its standard
/// output and error.
pub fn run_command(mut command: Command, stdin: &[u8], code: i32) -> (Vec<u8>, String) {
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = command.spawn().expect("the binary runs");
    let mut input = child.stdin.take().expect("piped");
    // A command that fails before reading closes its end: the write may see a broken pipe.
    let _ = input.write_all(stdin);
    drop(input);
    let Output {
        status,
        stdout,
        stderr,
    } = child.wait_with_output().expect("the binary ends");
    let stderr = String::from_utf8(stderr).expect("UTF-8 messages");
    assert_eq!(
        status.code(),
        Some(code),
        "{command:?}\n{stderr}\n{}",
        String::from_utf8_lossy(&stdout)
    );
    (stdout, stderr)
}

/// Runs `swizzle args`, expecting exit code `code`; its standard output and error.
pub fn run(args: &[&str], code: i32) -> (String, String) {
    let (out, err) = run_command(command(args), &[], code);
    (String::from_utf8(out).expect("UTF-8 output"), err)
}

/// `path` as an argument.
pub fn arg(path: &Path) -> &str {
    path.to_str().expect("UTF-8 scratch paths")
}
