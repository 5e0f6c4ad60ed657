# NVIDIA's Vulkan reference GEMMs, jeffbolznv/vk_cooperative_matrix_perf: the anchor of
# benches/tensor_gemm.rs on the same API, beside cuBLAS HGEMM (benches/cublas_hgemm.py). Runs
# that program, unmodified, on f16 A and B with f32 sums, n × n × n for each size (default
# 4096 and 8192): its per-subgroup VK_KHR_cooperative_matrix kernel, which stages its tiles
# in shared memory (`shmem`), and its VK_NV_cooperative_matrix2 workgroup-scope kernel
# (`workgroup`), each at every tile, cooperative-matrix shape and workgroup size the program
# tries, with B row-major (as the library's bench and torch.matmul store it) and
# column-major. The program times, by the wall clock, one submit of 10 dispatches separated
# by barriers, after 5 (`shmem`) or 2 (`workgroup`) such submits to warm up; its inputs are
# small random values, which it writes on one CPU thread for each configuration: most of a
# run's time. One process per size.
#
# Usage: python3 benches/vk_coopmat_perf.py [FOLDER] [N ...]
# FOLDER (else SWIZZLE_VK_COOPMAT_PERF) holds a build of the program, carried beside the
# repository and never part of it: the binary `vk_cooperative_matrix_perf` (or
# `vk_cooperative_matrix_perf-dynamic`, tried when the first does not start) and shaders/
# with shmemfp16_fp32.spv and workgroupfp16_fp32.spv alone. The program skips every type
# whose shader is missing, so only f16 -> f32 runs. Build it on x86-64 Linux, from a checkout
# of the program and Vulkan-Headers 1.3.255 or later (the first with VK_KHR_cooperative_matrix):
#   g++ -std=c++17 -O2 -DNDEBUG -I HEADERS/include src/vk_cooperative_matrix_perf.cpp \
#       -l:libvulkan.so.1 -static-libstdc++ -static-libgcc -o FOLDER/vk_cooperative_matrix_perf
#   mkdir FOLDER/shaders
#   cp shaders/shmemfp16_fp32.spv shaders/workgroupfp16_fp32.spv FOLDER/shaders/
# (the `-dynamic` binary: the same without -static-libstdc++ -static-libgcc). It needs the
# Vulkan loader (libvulkan.so.1) and a driver with VK_KHR_cooperative_matrix; without
# VK_NV_cooperative_matrix2 only `shmem` runs. A file FOLDER/VERSION, if there, is echoed.
#
# Prints `#` comments, a `vk_coopmat <kernel> <n> <B order> <TFLOP/s> <configuration>` line
# for each configuration as it is measured (TFLOP/s as the program prints it), then a table
# of the best of each kernel, size and B order. SWIZZLE_VK_COOPMAT_BUDGET (seconds, default
# 170) bounds the whole run: at the deadline the program is stopped and the table holds what
# was measured. Exits non-zero when a size gave no row for a kernel the device has.
import os
import queue
import re
import shutil
import subprocess
import sys
import threading
import time

BINARIES = ("vk_cooperative_matrix_perf", "vk_cooperative_matrix_perf-dynamic")
KERNELS = {
    "shmem": "VK_KHR_cooperative_matrix, per subgroup, tiles in shared memory",
    "workgroup": "VK_NV_cooperative_matrix2, workgroup scope",
}
ORDERS = ("row-major", "column-major")  # the program's BColMajor=0 and 1
USAGE = "python3 benches/vk_coopmat_perf.py [FOLDER] [N ...]"

SHADER = re.compile(r"^shader: shaders/(shmem|workgroup)")
MATRIX = re.compile(
    r"^cooperativeMatrixProps = (\d+x\d+x\d+)\s+"
    r"A = (\S+) B = (\S+) C = (\S+) D = (\S+) scope = (\S+)"
)
ROW = re.compile(
    r"^TILE_M=(\d+) TILE_N=(\d+), TILE_K=(\d+) BColMajor=([01]) workgroupSize=(\d+)"
    r"\s+(\S+) TFlops"
)


def usage(message):
    sys.exit(f"vk_coopmat_perf: {message}\nusage: {USAGE}")


def arguments():
    args = sys.argv[1:]
    folder = os.environ.get("SWIZZLE_VK_COOPMAT_PERF")
    if args and not args[0].isdigit():
        folder = args.pop(0)
    if not folder:
        usage("no build of vk_cooperative_matrix_perf: give FOLDER or SWIZZLE_VK_COOPMAT_PERF")
    sizes = [int(n) for n in args] or [4096, 8192]
    # The program rounds other sizes up to a multiple of 256 without saying so in its rows.
    if any(n <= 0 or n % 256 for n in sizes):
        usage(f"sizes must be positive multiples of 256: {sizes}")
    return os.path.abspath(folder), sizes


def binary(folder):
    """The first of BINARIES in `folder` that starts (`--help` loads libvulkan.so.1 and exits)."""
    for name in BINARIES:
        path = os.path.join(folder, name)
        if not os.access(path, os.X_OK):
            continue
        started = subprocess.run([path, "--help"], capture_output=True, text=True)
        if started.returncode == 0:
            return path
        print(f"# {name} does not start: {started.stderr.strip()}", file=sys.stderr)
    usage(f"none of {', '.join(BINARIES)} in {folder} starts (is the Vulkan loader installed?)")


def lines_until(command, cwd, deadline):
    """The program's stdout, line by line, until it exits or `deadline` (then it is killed)."""
    # Line-buffered, so that a stopped run keeps every row it printed.
    if shutil.which("stdbuf"):
        command = ["stdbuf", "-oL"] + command
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, text=True)
    lines = queue.Queue()

    def read():
        for line in process.stdout:
            lines.put(line.rstrip("\n"))
        lines.put(None)

    threading.Thread(target=read, daemon=True).start()
    while True:
        try:
            line = lines.get(timeout=max(deadline - time.monotonic(), 0))
        except queue.Empty:
            process.kill()
            process.wait()
            yield None  # stopped at the deadline
            return
        if line is None:
            break
        yield line
    if process.wait() != 0:
        print(f"# the program exited with status {process.returncode}")


def run(path, folder, n, deadline):
    """Every row of one size: (kernel, B order, TFLOP/s as printed, configuration)."""
    rows, kernels, kernel, matrix = [], set(), None, None
    for line in lines_until([path, f"--dim={n}"], folder, deadline):
        if line is None:
            print(f"# {n}: stopped at the time budget; what follows the last row did not run")
            break
        if line.startswith(("using physical device", "couldn't find", "selected physical device")):
            print(f"# {n}: {line}")
        if line.startswith("VK_NV_cooperative_matrix2 supported"):
            kernels.add("workgroup")
        if line.startswith("VK_KHR_cooperative_matrix supported"):
            kernels.add("shmem")
        if m := SHADER.match(line):
            kernel, matrix = m.group(1), None
        elif m := MATRIX.match(line):
            shape, a, b, c, d, scope = m.groups()
            # Only f16 -> f32, should a fuller build carry other shaders.
            f16_to_f32 = a == b == "float16_t" and c == d == "float32_t"
            matrix = f"{shape} {scope}" if f16_to_f32 else None
        elif (m := ROW.match(line)) and kernel and matrix:
            tile_m, tile_n, tile_k, column_major, invocations, tflops = m.groups()
            order = ORDERS[int(column_major)]
            tile = f"{tile_m}x{tile_n}x{tile_k}"
            config = f"tile {tile}, matrices {matrix}, {invocations} invocations"
            rows.append((kernel, order, tflops, config))
            print(f"vk_coopmat {kernel} {n} {order} {tflops} {config}")
    return rows, kernels


def main():
    sys.stdout.reconfigure(line_buffering=True)  # rows appear as they are measured
    folder, sizes = arguments()
    path = binary(folder)
    version = os.path.join(folder, "VERSION")
    if os.path.exists(version):
        print(f"# {open(version).read().strip()}")
    print(f"# {os.path.basename(path)}: f16 A and B, f32 C; TFLOP/s of one submit of 10 GEMMs")
    budget = float(os.environ.get("SWIZZLE_VK_COOPMAT_BUDGET", "170"))
    deadline = time.monotonic() + budget
    best, missing = {}, []
    for n in sizes:
        rows, kernels = run(path, folder, n, deadline)
        for kernel, order, tflops, config in rows:
            key = (kernel, n, order)
            if key not in best or float(tflops) > float(best[key][0]):
                best[key] = (tflops, config)
        measured = {row[0] for row in rows}
        missing += [f"{kernel} at {n}" for kernel in sorted(kernels - measured)]
        if not kernels:
            missing.append(f"a device with VK_KHR_cooperative_matrix at {n}")

    print("\n# best of each kernel, size and B order: TFLOP/s (configuration)")
    print("| kernel | n³ | B row-major | B column-major |")
    print("|---|---:|---|---|")
    for kernel in KERNELS:
        for n in sizes:
            cells = [best.get((kernel, n, order)) for order in ORDERS]
            if any(cells):
                text = [f"{cell[0]} ({cell[1]})" if cell else "–" for cell in cells]
                print(f"| `{kernel}`: {KERNELS[kernel]} | {n} | {text[0]} | {text[1]} |")
    if missing:
        sys.exit(f"vk_coopmat_perf: no rows for {', '.join(missing)}")


main()
