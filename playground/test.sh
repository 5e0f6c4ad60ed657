#!/usr/bin/env bash
# The playground in a real browser: serves playground/dist on the loopback interface, loads
# the page in headless Chromium with layouts given in the URL fragment (the page's state), and
# checks the dumped DOM: the Morton texture's grid of offsets, a picture, an error with its
# line and column, and the re-check times, which it prints. Writes playground/screenshot.png
# for a person to look at. Fails on any mismatch. Without Chromium it prints a skip line,
# except in CI (CI=true), where it fails. Builds the page first if playground/dist is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

CHROMIUM=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$CHROMIUM" ]; then
    if [ "${CI:-}" = true ]; then
        echo "playground test: chromium is not installed (Debian: apt-get install chromium)" >&2
        exit 1
    fi
    echo "SKIPPED: playground browser test: no chromium here (Debian: apt-get install chromium)"
    exit 0
fi
[ -f playground/dist/index.html ] || playground/build.sh

PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server --bind 127.0.0.1 --directory playground/dist "$PORT" >/dev/null 2>&1 &
SERVER=$!
PROFILE=$(mktemp -d)
trap 'kill "$SERVER" 2>/dev/null || true; rm -rf "$PROFILE"' EXIT
for _ in $(seq 50); do
    python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$PORT/')" 2>/dev/null && break
    sleep 0.1
done
BASE="http://127.0.0.1:$PORT/"

# Chromium, headless, no network beyond the loopback server; the page's own timers run in
# virtual time, so it is given 20 s of it to load the module and check.
browse() {
    timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run \
        --user-data-dir="$PROFILE" --virtual-time-budget=20000 "$@" 2>/dev/null
}
# The text as the page's `#code=` state: base64url of its UTF-8.
code() { printf '%s' "$1" | base64 -w0 | tr '+/' '-_' | tr -d '='; }
fail() { echo "playground test FAILED: $1" >&2; exit 1; }
expect() { # DOM, what, regex
    grep -Eq -- "$3" <<<"$1" || fail "$2: no match for /$3/ in the page"
}

echo "-- the Morton texture, given as text in the URL"
MORTON=$(cat playground/examples/morton.layout)
DOM=$(browse --dump-dom "$BASE#code=$(code "$MORTON")&bench=20")
expect "$DOM" "page ready" 'data-ready="true"'
expect "$DOM" "status" 'id="status" class="status">ok: 2 items'
expect "$DOM" "offset(0, 0)" 'data-at="0,0">0<'
expect "$DOM" "offset(1, 2)" 'data-at="1,2">6<'
expect "$DOM" "offset(3, 5)" 'data-at="3,5">27<'
expect "$DOM" "offset(7, 7)" 'data-at="7,7">63<'
expect "$DOM" "picture" '<svg xmlns="http://www.w3.org/2000/svg"'
expect "$DOM" "visit order" '31  \(y=0, x=6\)'
expect "$DOM" "generated Rust" 'pub const fn offset\(y: usize, x: usize\) -&gt; usize'
expect "$DOM" "WGSL" 'fn morton_texture_offset\(y: u32, x: u32\) -&gt; u32'
typical=$(sed -n 's/.*data-median="\([0-9.]*\)".*/\1/p' <<<"$DOM")
[ -n "$typical" ] || fail "no re-check time in the page"
echo "re-check of the Morton texture (typical, 2 items): median $typical ms in Chromium"

echo "-- a broken layout: the error, its line and column"
BROKEN=$'layout Broken {\n    memory [n: 64];\n    unmerge n -> [y: 8, x: 4];\n    coords [y, x];\n}'
DOM=$(browse --dump-dom "$BASE#code=$(code "$BROKEN")")
expect "$DOM" "status" 'class="status bad">1 error<'
expect "$DOM" "error place" 'class="where">error at line 3, column 19: </span>'
expect "$DOM" "error text (the macro's)" '`unmerge` lengths 8 × 4 = 32 must multiply to 64, the length of `n`'

echo "-- a large invocation: the GEMM's tiles, fragments and tiled copy"
DOM=$(browse --dump-dom "$BASE#example=gemm&bench=5")
expect "$DOM" "status" 'id="status" class="status">ok: 8 items'
expect "$DOM" "thread.value map" 'thread.value of each tile element'
expect "$DOM" "tiled copy" 'data-kind="tiled_copy"'
large=$(sed -n 's/.*data-median="\([0-9.]*\)".*/\1/p' <<<"$DOM")
[ -n "$large" ] || fail "no re-check time in the page"
echo "re-check of the GEMM example (large, 8 items): median $large ms in Chromium"

echo "-- screenshot"
browse --hide-scrollbars --window-size=1400,900 --screenshot=playground/screenshot.png \
    "$BASE#example=cute_swizzle" >/dev/null
[ -s playground/screenshot.png ] || fail "no screenshot written"
echo "wrote playground/screenshot.png"
echo "playground browser test passed"
