#!/usr/bin/env bash
# Build and run the CUDA C++ transpose anchors (benches/cuda/transpose.cu).
# Usage, from the repository root:  bash benches/cuda/run.sh
# Needs nvcc and an sm_90 GPU (H100). Prints `cuda <kernel> <N> <median_ms> <GB/s>`
# lines and `#` comments on stdout; exits non-zero on a build error, a CUDA
# error or a wrong transpose.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
NVCC="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
"$NVCC" -O3 -arch=sm_90 -o /tmp/cuda_transpose benches/cuda/transpose.cu
/tmp/cuda_transpose
