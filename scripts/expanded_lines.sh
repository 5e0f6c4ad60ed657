#!/usr/bin/env bash
# Counts the lines of `layout!` expansions as `cargo rustc -- -Zunpretty=expanded` prints
# them (issue 23's "lean expansions" measure): a scratch crate under target/ that depends on
# this repository's `swizzle`, holding the kernel bench's 16×16 Morton layout with
#   pair: its pack and unpack kernels;   pack: its pack kernel;   layout: neither.
# Needs a nightly toolchain (`-Zunpretty`). Usage: scripts/expanded_lines.sh [pair|pack|layout]...
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
scratch="$root/target/expanded-lines"
mkdir -p "$scratch/src"
cat >"$scratch/Cargo.toml" <<TOML
[package]
name = "expanded-lines"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
swizzle = { path = "$root" }

[workspace]
TOML
layout='
    /// 16×16 Morton tiles: rows fill 64-byte registers of 4-byte elements.
    pub layout Morton16 {
        memory [ty: dyn, tx: dyn, m: 256];
        morton m -> [yi: 16, xi: 16];
        merge [ty, yi] -> y;
        merge [tx, xi] -> x;
        coords [y, x];
    }'
for what in "${@:-pair pack layout}"; do
    case "$what" in
        pair) kernels='pub kernel PackMorton16 = pack(Morton16); pub kernel UnpackMorton16 = unpack(Morton16);' ;;
        pack) kernels='pub kernel PackMorton16 = pack(Morton16);' ;;
        layout) kernels='' ;;
        *) echo "unknown case $what (pair, pack or layout)" >&2; exit 2 ;;
    esac
    printf 'swizzle::layout! {%s\n    %s\n}\n' "$layout" "$kernels" >"$scratch/src/lib.rs"
    lines=$(cd "$scratch" && cargo +nightly rustc --quiet --lib -- -Zunpretty=expanded | wc -l)
    echo "$what: $lines lines"
done
