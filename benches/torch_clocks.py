# The two clocks the cuBLAS anchors (benches/cublas_sgemm.py, benches/cublas_hgemm.py) time a
# matmul by, as the Rust GEMM benches time their kernels: CUDA events around each run (the
# median of 30 after 1 s of warm-up), and the wall clock around a batch of 20 runs and a
# synchronize (the median of 7 batches, per run; benches/common/wall.rs). Milliseconds.
import time
import torch


def events(run):
    start = time.time()
    while time.time() - start < 1.0:
        run()
    torch.cuda.synchronize()
    times = []
    for _ in range(30):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        run()
        e.record()
        torch.cuda.synchronize()
        times.append(s.elapsed_time(e))
    times.sort()
    return times[15]


def wall(run):
    walls = []
    for _ in range(7):
        torch.cuda.synchronize()
        start = time.perf_counter()
        for _ in range(20):
            run()
        torch.cuda.synchronize()
        walls.append((time.perf_counter() - start) / 20 * 1e3)
    walls.sort()
    return walls[3]
