# cuBLAS SGEMM through PyTorch, TF32 off: the GEMM anchor of benches/gemm.rs. Times C = A · B
# for square f32 matrices with CUDA events (median of 30 after 1 s of warm-up) and prints
# `cublas <n> <median_ms> <TFLOP/s>` lines; then by the wall clock around a batch of 20
# matmuls and a synchronize (median of 7 batches, per matmul), as benches/gemm.rs times its
# batches: `cublas_wall <n> <ms> <TFLOP/s>`. Checks one result against a float64 product
# first.
import time
import torch

torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
print(f"# {torch.cuda.get_device_name()}, torch {torch.__version__}, CUDA {torch.version.cuda}")
for n in (1024, 2048, 4096, 8192):
    a = torch.randint(-4, 5, (n, n), device="cuda").float()
    b = torch.randint(-4, 5, (n, n), device="cuda").float()
    c = a @ b
    assert torch.equal(c.double(), a.double() @ b.double()), n
    start = time.time()
    while time.time() - start < 1.0:
        torch.matmul(a, b, out=c)
    torch.cuda.synchronize()
    times = []
    for _ in range(30):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        torch.matmul(a, b, out=c)
        e.record()
        torch.cuda.synchronize()
        times.append(s.elapsed_time(e))
    times.sort()
    ms = times[15]
    print(f"cublas {n} {ms:.4f} {2 * n**3 / (ms * 1e-3) / 1e12:.2f}")
    walls = []
    for _ in range(7):
        torch.cuda.synchronize()
        start = time.perf_counter()
        for _ in range(20):
            torch.matmul(a, b, out=c)
        torch.cuda.synchronize()
        walls.append((time.perf_counter() - start) / 20 * 1e3)
    walls.sort()
    ms = walls[3]
    print(f"cublas_wall {n} {ms:.4f} {2 * n**3 / (ms * 1e-3) / 1e12:.2f}")
