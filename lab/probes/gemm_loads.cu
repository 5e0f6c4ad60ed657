// The loads of the library's workgroup-scope GEMM alone, in CUDA: each block reads, step by
// step, the slices of A (128 × 32 f16) and B (32 × 256 f16) that one workgroup of
// `swizzle::gemm::workgroup_matrices()` reads (row-major A and B, tiles of C in bands of 8
// rows), in 16-byte loads, and folds them so that none is dropped. No multiply-adds: the
// time is what the memory system takes for the kernel's traffic, with as many blocks a
// multiprocessor as fit ("any") and with one (as the library's kernel, at 255 registers, runs).
// Build: nvcc -O3 -arch=sm_90 -o gemm_loads gemm_loads.cu; run: ./gemm_loads 4096 8192.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <chrono>
#include <cuda_runtime.h>

constexpr int BM = 128, BN = 256, BK = 32, THREADS = 256, GROUP = 8;

__global__ void __launch_bounds__(THREADS) loads(const uint4* a, const uint4* b, unsigned* out, int m, int n, int k) {
    extern __shared__ unsigned pad[];  // only to limit the blocks a multiprocessor holds
    const int tiles_n = n / BN, id = blockIdx.x;
    // Bands of GROUP rows of tiles, column by column within a band.
    const int band = id / (GROUP * tiles_n), in_band = id % (GROUP * tiles_n);
    const int tm = band * GROUP + in_band % GROUP, tn = in_band / GROUP;
    const int m0 = tm * BM, n0 = tn * BN;
    unsigned acc = 0;
    for (int k0 = 0; k0 < k; k0 += BK) {
#pragma unroll
        for (int e = threadIdx.x; e < BM * BK / 8; e += THREADS) {
            const int r = e / (BK / 8), c = e % (BK / 8);
            const uint4 v = a[((size_t)(m0 + r) * k + k0) / 8 + c];
            acc ^= v.x ^ v.y ^ v.z ^ v.w;
        }
#pragma unroll
        for (int e = threadIdx.x; e < BK * BN / 8; e += THREADS) {
            const int r = e / (BN / 8), c = e % (BN / 8);
            const uint4 v = b[((size_t)(k0 + r) * n + n0) / 8 + c];
            acc ^= v.x ^ v.y ^ v.z ^ v.w;
        }
    }
    if (acc == 0x9e3779b9u) out[0] = acc + pad[0];
}

int main(int argc, char** argv) {
    for (int arg = 1; arg < argc; arg++) {
        const int s = atoi(argv[arg]);
        const size_t elems = (size_t)s * s;
        uint4 *a, *b; unsigned* out;
        cudaMalloc(&a, elems * 2); cudaMalloc(&b, elems * 2); cudaMalloc(&out, 4);
        cudaMemset(a, 1, elems * 2); cudaMemset(b, 2, elems * 2);
        const int blocks = (s / BM) * (s / BN);
        for (int one : {0, 1}) {
            // One block a multiprocessor: ask for more shared memory than two could hold.
            const int shared = one ? 120 * 1024 : 0;
            cudaFuncSetAttribute(loads, cudaFuncAttributeMaxDynamicSharedMemorySize, shared);
            cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
            auto wall = std::chrono::steady_clock::now();
            while (std::chrono::duration<double>(std::chrono::steady_clock::now() - wall).count() < 0.5) {
                loads<<<blocks, THREADS, shared>>>(a, b, out, s, s, s);
                cudaDeviceSynchronize();
            }
            const int runs = 20;
            float best = 1e30f, total = 0;
            for (int r = 0; r < runs; r++) {
                cudaEventRecord(e0);
                loads<<<blocks, THREADS, shared>>>(a, b, out, s, s, s);
                cudaEventRecord(e1); cudaEventSynchronize(e1);
                float ms; cudaEventElapsedTime(&ms, e0, e1);
                best = ms < best ? ms : best; total += ms;
            }
            const double bytes = (double)blocks * (s / BK) * (BM * BK + BK * BN) * 2;
            printf("gemm loads %d^3, %s: best %.3f ms, mean %.3f ms: %.2f TB/s of slices, %.1f TFLOP/s of a GEMM in that time (%s)\n",
                   s, one ? "one block a multiprocessor" : "any blocks a multiprocessor", best, total / runs,
                   bytes / (best * 1e-3) / 1e12, 2.0 * s * (double)s * s / (best * 1e-3) / 1e12,
                   cudaGetErrorString(cudaGetLastError()));
        }
        cudaFree(a); cudaFree(b); cudaFree(out);
    }
}
