#!/usr/bin/env bash
# The playground in a real browser: serves playground/dist on the loopback interface and
# drives headless Chromium through WebDriver (Debian's chromium and chromium-driver) with
# playground/browser_test.py: a layout given in the URL fragment, its grid of offsets, a
# picture and the generated code read back; a broken layout typed into the editor and its
# error, line and column read back; the re-check times measured in the page and printed; a
# screenshot written to playground/screenshot.png. Fails on any mismatch. Without Chromium or
# its driver it prints a skip line, except in CI (CI=true), where it fails. Builds the page
# first if playground/dist is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

CHROMIUM=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
DRIVER=$(command -v chromedriver || true)
if [ -z "$CHROMIUM" ] || [ -z "$DRIVER" ]; then
    if [ "${CI:-}" = true ]; then
        echo "playground test: chromium or chromedriver is not installed" \
            "(Debian: apt-get install chromium chromium-driver)" >&2
        exit 1
    fi
    echo "SKIPPED: playground browser test: no chromium or chromedriver here" \
        "(Debian: apt-get install chromium chromium-driver)"
    exit 0
fi
[ -f playground/dist/index.html ] || playground/build.sh

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
PORT=$(free_port)
DRIVER_PORT=$(free_port)
python3 -m http.server --bind 127.0.0.1 --directory playground/dist "$PORT" >/dev/null 2>&1 &
SERVER=$!
"$DRIVER" --port="$DRIVER_PORT" --allowed-ips=127.0.0.1 >/dev/null 2>&1 &
DRIVING=$!
trap 'kill "$SERVER" "$DRIVING" 2>/dev/null || true' EXIT
for url in "http://127.0.0.1:$PORT/" "http://127.0.0.1:$DRIVER_PORT/status"; do
    for _ in $(seq 100); do
        python3 -c "import urllib.request; urllib.request.urlopen('$url')" 2>/dev/null && break
        sleep 0.1
    done
done

python3 playground/browser_test.py "http://127.0.0.1:$PORT/" "http://127.0.0.1:$DRIVER_PORT" \
    "$CHROMIUM" playground/screenshot.png
