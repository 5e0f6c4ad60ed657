# cuBLAS SGEMM through PyTorch, TF32 off: the GEMM anchor of benches/gemm.rs. Times C = A · B
# for square f32 matrices by CUDA events and prints `cublas <n> <median_ms> <TFLOP/s>` lines,
# then by the wall clock over a batch, as benches/gemm.rs times its batches:
# `cublas_wall <n> <ms> <TFLOP/s>` (both clocks: benches/torch_clocks.py). Checks one result
# against a float64 product first.
import torch
from torch_clocks import events, wall

torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
print(f"# {torch.cuda.get_device_name()}, torch {torch.__version__}, CUDA {torch.version.cuda}")
for n in (1024, 2048, 4096, 8192):
    a = torch.randint(-4, 5, (n, n), device="cuda").float()
    b = torch.randint(-4, 5, (n, n), device="cuda").float()
    c = a @ b
    assert torch.equal(c.double(), a.double() @ b.double()), n
    run = lambda: torch.matmul(a, b, out=c)
    ms = events(run)
    print(f"cublas {n} {ms:.4f} {2 * n**3 / (ms * 1e-3) / 1e12:.2f}")
    ms = wall(run)
    print(f"cublas_wall {n} {ms:.4f} {2 * n**3 / (ms * 1e-3) / 1e12:.2f}")
