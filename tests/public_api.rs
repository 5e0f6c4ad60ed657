//! The public API, snapshotted: every item of `swizzle` and of `swizzle-runtime` (the home of
//! the kernels, batches and traits the facade re-exports), as `public-api` renders their
//! rustdoc JSON, must equal `tests/public-api.txt`, so that every change to the API is
//! deliberate (and goes into CHANGELOG.md). Rustdoc JSON needs the nightly toolchain: without
//! it the test says it skipped, except on CI (`CI=true`), where it must run.
//!
//! Update the snapshot with `UPDATE_SNAPSHOTS=yes cargo test -p swizzle-layout --test public_api`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The crates whose items make the snapshot, and their library names.
const CRATES: [(&str, &str); 3] = [
    ("swizzle-layout", "swizzle"),
    ("swizzle-runtime", "swizzle_runtime"),
    ("swizzle-texture", "swizzle_texture"),
];

const UPDATE: &str = "UPDATE_SNAPSHOTS=yes cargo test -p swizzle-layout --test public_api";

#[test]
fn public_api_is_the_snapshot() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    if !nightly_runs() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI must check the public API: install the nightly toolchain"
        );
        // Straight to stderr, past the test harness's capture, so that the skip shows.
        let line = "public_api: SKIPPED, no nightly toolchain to build rustdoc JSON \
                    (`rustup toolchain install nightly`)\n";
        std::io::stderr().write_all(line.as_bytes()).unwrap();
        return;
    }
    let mut api = String::new();
    for (package, library) in CRATES {
        let json = rustdoc_json(root, package, library);
        let items = public_api::Builder::from_rustdoc_json(&json)
            .build()
            .unwrap_or_else(|error| panic!("{}: {error}", json.display()));
        for item in items.items() {
            api.push_str(&item.to_string());
            api.push('\n');
        }
    }
    let snapshot = root.join("tests/public-api.txt");
    if std::env::var("UPDATE_SNAPSHOTS").as_deref() == Ok("yes") {
        std::fs::write(&snapshot, &api).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&snapshot).unwrap_or_default();
    if api != expected {
        let (old, new): (Vec<&str>, Vec<&str>) =
            (expected.lines().collect(), api.lines().collect());
        let removed = old
            .iter()
            .filter(|line| !new.contains(line))
            .map(|l| format!("- {l}"));
        let added = new
            .iter()
            .filter(|line| !old.contains(line))
            .map(|l| format!("+ {l}"));
        let diff: Vec<String> = removed.chain(added).collect();
        panic!(
            "the public API changed ({} lines):\n{}\n\nIf the change is deliberate, record it in \
             CHANGELOG.md and update the snapshot: {UPDATE}",
            diff.len(),
            diff.join("\n")
        );
    }
}

/// Whether `cargo +nightly` runs here.
fn nightly_runs() -> bool {
    Command::new("cargo")
        .args(["+nightly", "--version"])
        .output()
        .is_ok_and(|output| output.status.success())
}

/// Builds `package`'s rustdoc JSON with nightly rustdoc (default features, in a target
/// directory of its own), and returns its path.
fn rustdoc_json(root: &Path, package: &str, library: &str) -> PathBuf {
    let target = root.join("target/public-api");
    let status = Command::new("cargo")
        .args([
            "+nightly",
            "rustdoc",
            "--quiet",
            "--lib",
            "-p",
            package,
            "--target-dir",
        ])
        .arg(&target)
        .args(["--", "-Z", "unstable-options", "--output-format", "json"])
        .current_dir(root)
        .env_remove("RUSTDOCFLAGS")
        .env_remove("RUSTFLAGS")
        .status()
        .expect("cargo runs");
    assert!(status.success(), "rustdoc JSON of {package} failed");
    target.join(format!("doc/{library}.json"))
}
