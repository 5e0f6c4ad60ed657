# cuBLAS HGEMM through PyTorch: the anchor of benches/tensor_gemm.rs. C = A · B for float16
# A and B (f32 accumulation); times each shape by CUDA events and prints
# `hgemm <m> <n> <k> <median_ms> <TFLOP/s>` (torch's defaults) and `hgemm_f32reduce …`
# (allow_fp16_reduced_precision_reduction off: f32 accumulation all the way, split-k
# reductions included), then torch's defaults by the wall clock over a batch, `hgemm_wall …`
# (both clocks: benches/torch_clocks.py); then the same for bfloat16 A and B, `bgemm …`
# (allow_bf16_reduced_precision_reduction). Checks each type's result against a float64
# product first.
import sys
import torch
from torch_clocks import events, wall

print(f"# {torch.cuda.get_device_name()}, torch {torch.__version__}, CUDA {torch.version.cuda}")
shapes = [(n, n, n) for n in (1024, 2048, 4096, 8192)] + [(8192, 8192, 1024)]
matmul = torch.backends.cuda.matmul
# Per operand type: its name and the switch of its reduced-precision reductions.
types = (
    ("hgemm", torch.float16, "allow_fp16_reduced_precision_reduction", 2e-3),
    ("bgemm", torch.bfloat16, "allow_bf16_reduced_precision_reduction", 1.6e-2),
)
for prefix, dtype, switch, rtol in types:
    for m, n, k in shapes:
        a = torch.randint(-4, 5, (m, k), device="cuda").to(dtype)
        b = torch.randint(-4, 5, (k, n), device="cuda").to(dtype)
        c = a @ b
        # C is of the operands' type: exact while every sum fits its bits, close after.
        assert torch.allclose(c.double(), a.double() @ b.double(), rtol=rtol, atol=1), (m, n, k)
        run = lambda: torch.matmul(a, b, out=c)
        for name, reduced in ((prefix, True), (prefix + "_f32reduce", False)):
            setattr(matmul, switch, reduced)
            ms = events(run)
            print(f"{name} {m} {n} {k} {ms:.4f} {2 * m * n * k / (ms * 1e-3) / 1e12:.2f}")
            if reduced:
                ms = wall(run)
                print(f"{name}_wall {m} {n} {k} {ms:.4f} {2 * m * n * k / (ms * 1e-3) / 1e12:.2f}")
        sys.stdout.flush()
    setattr(matmul, switch, True)
