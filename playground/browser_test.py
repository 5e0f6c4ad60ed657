#!/usr/bin/env python3
"""The playground in headless Chromium through WebDriver (Debian's chromium-driver), with
Python's standard library only. Run by playground/test.sh, which serves playground/dist.

    browser_test.py BASE_URL CHROMEDRIVER_URL CHROMIUM SCREENSHOT

Loads the page with a layout in the URL fragment, reads the grid, a picture and the
generated code back; types a broken layout into the editor and reads the error with its line
and column; measures re-check times in the page (performance.now(), real time); writes a
screenshot. Exits nonzero on any mismatch."""

import base64
import json
import re
import sys
import time
import urllib.error
import urllib.request

BASE, DRIVER, CHROMIUM, SCREENSHOT = sys.argv[1:5]
EXAMPLES = "playground/examples"


def request(method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(
        DRIVER + path, data=data, method=method, headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(req, timeout=120) as response:
            return json.loads(response.read())["value"]
    except urllib.error.HTTPError as error:
        raise SystemExit(f"WebDriver {method} {path}: {error.read().decode()[:2000]}")


def fail(message):
    print(f"playground browser test FAILED: {message}", file=sys.stderr)
    sys.exit(1)


def code(text):
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


session = request(
    "POST",
    "/session",
    {
        "capabilities": {
            "alwaysMatch": {
                "browserName": "chrome",
                "goog:chromeOptions": {
                    "binary": CHROMIUM,
                    "args": [
                        "--headless=new",
                        "--no-sandbox",
                        "--disable-gpu",
                        "--disable-dev-shm-usage",
                        "--window-size=1400,900",
                        "--hide-scrollbars",
                    ],
                },
            }
        }
    },
)["sessionId"]
S = f"/session/{session}"


def script(source, *args):
    return request("POST", f"{S}/execute/sync", {"script": source, "args": list(args)})


def wait(condition, what, seconds=60):
    """Polls a JavaScript expression until it is truthy; its value."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        value = script(f"return {condition};")
        if value:
            return value
        time.sleep(0.1)
    status = script("return document.getElementById('status').textContent;")
    fail(f"{what}: timed out waiting for `{condition}` (status: {status})")


def open_page(fragment):
    # A fragment-only change does not reload the page: go through a blank page first.
    request("POST", f"{S}/url", {"url": "about:blank"})
    request("POST", f"{S}/url", {"url": f"{BASE}#{fragment}"})
    wait("document.body.dataset.ready === 'true'", f"loading #{fragment[:40]}")
    return request("GET", f"{S}/source")


def expect(dom, what, pattern):
    if not re.search(pattern, dom):
        fail(f"{what}: no match for /{pattern}/ in the page")


def median(what):
    value = script("return document.getElementById('bench').dataset.median;")
    if not value:
        fail(f"{what}: no re-check time in the page")
    return float(value)


try:
    print("-- the Morton texture, given as text in the URL fragment")
    with open(f"{EXAMPLES}/morton.layout") as f:
        morton = f.read()
    dom = open_page(f"code={code(morton)}&bench=50")
    expect(dom, "status", r'id="status" class="status">ok: 2 items<')
    expect(dom, "offset(0, 0)", r'data-at="0,0">0<')
    expect(dom, "offset(1, 2)", r'data-at="1,2">6<')
    expect(dom, "offset(3, 5)", r'data-at="3,5">27<')
    expect(dom, "offset(7, 7)", r'data-at="7,7">63<')
    expect(dom, "picture", r'<svg xmlns="http://www.w3.org/2000/svg"')
    expect(dom, "visit order", r"31  \(y=0, x=6\)")
    expect(dom, "generated Rust", r"pub const fn offset\(y: usize, x: usize\) -&gt; usize")
    expect(dom, "WGSL", r"fn morton_texture_offset\(y: u32, x: u32\) -&gt; u32")
    typical = median("Morton texture")
    print(f"re-check of the Morton texture (typical: 2 items): median {typical:.2f} ms")

    print("-- a broken layout typed into the editor: the error, its line and column")
    broken = (
        "layout Broken {\n    memory [n: 64];\n    unmerge n -> [y: 8, x: 4];\n"
        "    coords [y, x];\n}"
    )
    editor = request("POST", f"{S}/element", {"using": "css selector", "value": "#editor"})
    editor = next(iter(editor.values()))
    request("POST", f"{S}/element/{editor}/clear", {})
    request("POST", f"{S}/element/{editor}/value", {"text": broken})
    # Each key re-checks the text typed so far: wait for the check of the whole text.
    wait(
        "document.getElementById('status').textContent === '1 error'"
        " && document.getElementById('errors').textContent.includes('line 3, column 19')",
        "the typed layout's error",
    )
    dom = request("GET", f"{S}/source")
    expect(dom, "error place", r'class="where">error at line 3, column 19: </span>')
    expect(
        dom,
        "error text (the macro's)",
        r"`unmerge` lengths 8 × 4 = 32 must multiply to 64, the length of `n`",
    )
    state = script("return location.hash;")
    if not state.startswith("#code="):
        fail(f"the typed layout is not in the URL fragment: {state}")

    print("-- large invocations")
    dom = open_page("example=gemm&bench=10")
    expect(dom, "status", r'id="status" class="status">ok: 8 items<')
    expect(dom, "thread.value map", r"thread.value of each tile element")
    expect(dom, "access bank map", r"on GemmA: bank map")
    expect(
        dom,
        "tiled copy instructions",
        r"values 0\.\.[0-9]+(, [0-9]+ instructions)?: reads",
    )
    gemm = median("GEMM")
    print(f"re-check of the GEMM example (8 items, auto swizzle): median {gemm:.2f} ms")
    big = (
        "layout Big {\n    memory [y: 128, x: 128];\n    xor x by y;\n    coords [y, x];\n"
        "    inverse;\n}\n"
    )
    dom = open_page(f"code={code(big)}&bench=10")
    expect(dom, "status", r'id="status" class="status">ok: 1 item<')
    large = median("128 × 128")
    print(f"re-check of a 128 × 128 XOR layout (16384 cells): median {large:.2f} ms")
    if typical > 50:
        fail(f"the typical layout re-checks in {typical:.2f} ms, over the 50 ms budget")

    print("-- screenshot")
    open_page("example=morton")
    png = request("GET", f"{S}/screenshot")
    with open(SCREENSHOT, "wb") as f:
        f.write(base64.b64decode(png))
    print(f"wrote {SCREENSHOT}")
finally:
    request("DELETE", S)
print("playground browser test passed")
