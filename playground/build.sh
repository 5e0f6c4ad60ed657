#!/usr/bin/env bash
# Builds the playground into playground/dist: a folder of static files (index.html, app.js,
# worker.js, style.css and the WebAssembly module with its glue) that any static file server serves, and
# that works offline. Needs the wasm32-unknown-unknown target and wasm-bindgen-cli of the
# version playground/Cargo.toml pins. (No wasm-opt: Debian 12's binaryen 108 breaks the
# externref table that wasm-bindgen's glue fills, and saves only ~15% gzipped.)
set -euo pipefail
cd "$(dirname "$0")/.."

WASM_BINDGEN_VERSION=$(sed -n 's/^wasm-bindgen = "=\(.*\)"$/\1/p' playground/Cargo.toml)
DIST=playground/dist

rustup target add wasm32-unknown-unknown >/dev/null 2>&1 || true
if ! wasm-bindgen --version 2>/dev/null | grep -q " $WASM_BINDGEN_VERSION\$"; then
    echo "wasm-bindgen-cli $WASM_BINDGEN_VERSION is needed:" \
        "cargo install wasm-bindgen-cli --version $WASM_BINDGEN_VERSION" >&2
    exit 1
fi

# Small and fast: size-optimised, one codegen unit, LTO, no unwinding (a panic is caught in
# the page, which starts the module again). Set for this build only, so that the workspace's
# release profile (benches) stays as it is.
export CARGO_PROFILE_RELEASE_OPT_LEVEL=${CARGO_PROFILE_RELEASE_OPT_LEVEL:-s}
export CARGO_PROFILE_RELEASE_LTO=true
export CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1
export CARGO_PROFILE_RELEASE_PANIC=abort
export CARGO_PROFILE_RELEASE_DEBUG=false
cargo build --release --target wasm32-unknown-unknown -p swizzle-playground
TARGET_DIR=$(cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')

rm -rf "$DIST"
mkdir -p "$DIST"
wasm-bindgen --target web --no-typescript --out-dir "$DIST" \
    "$TARGET_DIR/wasm32-unknown-unknown/release/swizzle_playground.wasm"
cp playground/web/index.html playground/web/app.js playground/web/worker.js playground/web/style.css "$DIST/"

raw=$(stat -c %s "$DIST/swizzle_playground_bg.wasm")
gz=$(gzip -9 -c "$DIST/swizzle_playground_bg.wasm" | wc -c)
echo "built $DIST: swizzle_playground_bg.wasm $raw bytes, $gz bytes gzipped"
echo "serve it with: python3 -m http.server -d $DIST 8000  (then open http://127.0.0.1:8000/)"
