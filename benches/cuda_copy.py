# CUDA device-to-device copies of the GPU bench's buffers, timed with CUDA events: for each
# buffer size (the bench's 8192² image of 8-, 16-, 32- and 64-bit elements: 64, 128, 256 and
# 512 MiB, or the sizes given in MiB as arguments), 0.5 s of back-to-back copies (the GPU
# leaves its idle clocks), then the median of 30. Prints `copy <buffer bytes> <GB/s>` lines,
# GB/s counting bytes read and written; `benches/gpu.rs` reads them (SWIZZLE_CUDA_COPIES)
# and sets each kernel against the copy of its own bytes.
import sys
import time

import torch

sizes_mib = [int(s) for s in sys.argv[1:]] or [64, 128, 256, 512]
for mib in sizes_mib:
    n = mib << 18  # 4-byte words
    a = torch.arange(n, dtype=torch.int32, device="cuda")
    b = torch.empty_like(a)
    start = time.perf_counter()
    while time.perf_counter() - start < 0.5:
        b.copy_(a)
        torch.cuda.synchronize()
    times = []
    for _ in range(30):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record(); b.copy_(a); e.record(); torch.cuda.synchronize()
        times.append(s.elapsed_time(e))
    assert torch.equal(a, b)
    times.sort()
    print(f"copy {n * 4} {2 * n * 4 / times[15] / 1e6:.1f}")
    del a, b
