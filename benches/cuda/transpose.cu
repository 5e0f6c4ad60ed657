// CUDA C++ transpose anchors for the swizzle benches.
//
// Build and run from the repository root:  bash benches/cuda/run.sh
// (nvcc -O3 -arch=sm_90 -o /tmp/cuda_transpose benches/cuda/transpose.cu)
//
// What it measures
// ----------------
// For N in {4096, 8192}: a row-major N x N matrix of 32-bit words is transposed
// into a second N x N buffer (out[c][r] = in[r][c]).  Every kernel moves the
// same bytes: N*N*4 read + N*N*4 written, so
//     GB/s = 2 * N*N*4 / median_time.
// The anchors are:
//   memcpy                 cudaMemcpyAsync device-to-device of the same bytes:
//                          what the memory system can do for a pure stream.
//   copy_float4            a plain copy kernel with 16-byte (float4-sized)
//                          loads and stores: what a simple kernel can do.
//   transpose_naive        one thread per element; reads coalesced, writes
//                          strided by N words.
//   transpose_smem         32x32 shared-memory tile, unpadded (the classic
//                          NVIDIA blog kernel): 32-way bank conflicts on the
//                          column reads.
//   transpose_smem_padded  the same with tile[32][33]: conflict-free.
//   transpose_smem_xor     tile[32][32] indexed with an XOR swizzle: conflict-
//                          free without wasting the padding column.
//   transpose_float4_xor   16-byte global loads and stores, a 4x4 transpose in
//                          registers, and an XOR-swizzled tile of float4 slots
//                          in shared memory: the "best CUDA C++" anchor.  Several
//                          tile shapes are timed (printed as '#' comments) and
//                          the fastest is reported under this name.
//
// Method: cudaMalloc'd buffers; input filled with in[i] = i (as uint32, so
// every value is exact: N*N = 2^26 is beyond float's 24-bit mantissa).  The
// kernels only move bits, so the element type is immaterial; uint32/uint4 are
// used for exact comparison (uint4 is the same 16-byte vector as float4).
// For each kernel: the output is filled with 0xFFFFFFFF (never a valid value),
// the kernel is warmed up BY TIME (>= 0.5 s of back-to-back launches, since
// GPUs idle at low clocks), then 30 launches are timed, each between its own
// pair of cudaEvents, and the median is taken.  Afterwards a checking kernel
// compares every output element with the expected value on the GPU; any
// mismatch prints a message to stderr and exits non-zero.
//
// Output: stdout holds only lines
//     cuda <kernel> <N> <median_ms> <GB/s>
// and comment lines starting with '#'.  Errors go to stderr.
//
// Shared memory banks, briefly (this is what the tile kernels are about):
// shared memory is split into 32 banks of 4 bytes; word address w lives in
// bank w % 32.  A warp's access is served in one pass if its 32 threads hit 32
// different banks (or the same word); k threads hitting k different words of
// the same bank cost k passes ("k-way bank conflict").  For 16-byte accesses
// the warp is served in four phases of 8 threads; each phase covers 128 bytes,
// so it is conflict-free if its 8 threads hit 8 different 16-byte bank groups.

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

// ---------------------------------------------------------------------------
// Error checking: every CUDA call goes through CK; a failure prints where and
// why, and exits non-zero.
// ---------------------------------------------------------------------------
#define CK(call)                                                              \
    do {                                                                      \
        cudaError_t err_ = (call);                                            \
        if (err_ != cudaSuccess) {                                            \
            fprintf(stderr, "CUDA error %s (%d) at %s:%d: %s\n",              \
                    cudaGetErrorName(err_), (int)err_, __FILE__, __LINE__,    \
                    #call);                                                   \
            fprintf(stderr, "  %s\n", cudaGetErrorString(err_));              \
            exit(2);                                                          \
        }                                                                     \
    } while (0)

// ---------------------------------------------------------------------------
// Kernels
// ---------------------------------------------------------------------------

// Fill: in[i] = i.
__global__ void fill_iota(uint32_t* __restrict__ p, size_t n) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        p[i] = (uint32_t)i;
}

// copy_float4: a plain streaming copy with 16-byte accesses.  Each thread
// moves COPY_PER float4s, spaced blockDim.x apart so that each load/store
// instruction of a warp covers 512 contiguous bytes; all loads are issued
// before the first store so that several are in flight per thread.
// 16-byte accesses matter because the number of memory instructions (and the
// load/store unit and L1 work per byte) drops 4x against 4-byte accesses;
// with few bytes per instruction, a kernel runs out of instruction issue or
// outstanding-request slots before it saturates HBM.
constexpr int COPY_THREADS = 256;
constexpr int COPY_PER = 4;
__global__ void __launch_bounds__(COPY_THREADS)
copy_float4(const uint4* __restrict__ in, uint4* __restrict__ out) {
    size_t base = (size_t)blockIdx.x * (COPY_THREADS * COPY_PER) + threadIdx.x;
    uint4 v[COPY_PER];
#pragma unroll
    for (int k = 0; k < COPY_PER; k++) v[k] = in[base + k * COPY_THREADS];
#pragma unroll
    for (int k = 0; k < COPY_PER; k++) out[base + k * COPY_THREADS] = v[k];
}

// transpose_naive: one thread per element.  A warp (32 consecutive x) reads 32
// consecutive words of one input row: coalesced, 128 bytes.  It writes them to
// 32 different output rows, N words apart: every 4-byte store touches its own
// 32-byte sector, so the write traffic to L2/DRAM is up to 8x the useful bytes
// (L2 may merge some of it before it reaches DRAM, which is why this is not
// 8x slower in practice).
__global__ void transpose_naive(const uint32_t* __restrict__ in,
                                uint32_t* __restrict__ out, int n) {
    int x = blockIdx.x * 32 + threadIdx.x;  // input column
    int y = blockIdx.y * 8 + threadIdx.y;   // input row
    out[(size_t)x * n + y] = in[(size_t)y * n + x];
}

// The three 32x32-tile kernels below follow NVIDIA's blog post "An Efficient
// Matrix Transpose in CUDA C/C++": a block of 32x8 threads moves a 32x32 tile,
// each thread 4 elements (rows ty, ty+8, ty+16, ty+24).  The tile is read
// from global memory row by row (coalesced), stored into shared memory, and
// after a barrier read back column by column so that the global writes are
// also row by row (coalesced).  They differ only in the shared-memory layout.
constexpr int TILE = 32;
constexpr int BLOCK_ROWS = 8;

// transpose_smem: tile[32][32], unpadded.  Writing tile[ty+j][tx]: a warp's 32
// threads (tx = 0..31) hit words row*32 + tx -> 32 different banks, fine.
// Reading tile[tx][ty+j]: words tx*32 + c -> all in bank c: a 32-way bank
// conflict, so every column read costs 32 shared-memory passes.
__global__ void __launch_bounds__(TILE * BLOCK_ROWS)
transpose_smem(const uint32_t* __restrict__ in, uint32_t* __restrict__ out, int n) {
    __shared__ uint32_t tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
#pragma unroll
    for (int j = 0; j < TILE; j += BLOCK_ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;  // output column = input row
    y = blockIdx.x * TILE + threadIdx.y;  // output row = input column
#pragma unroll
    for (int j = 0; j < TILE; j += BLOCK_ROWS)
        out[(size_t)(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

// transpose_smem_padded: tile[32][33].  Row stride 33 words: element (r, c)
// lives in bank (33r + c) % 32 = (r + c) % 32, so a column (fixed c, r = 0..31)
// spans all 32 banks and so does a row: both phases are conflict-free.  Costs
// 32 words of shared memory per tile.
__global__ void __launch_bounds__(TILE * BLOCK_ROWS)
transpose_smem_padded(const uint32_t* __restrict__ in, uint32_t* __restrict__ out,
                      int n) {
    __shared__ uint32_t tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
#pragma unroll
    for (int j = 0; j < TILE; j += BLOCK_ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
#pragma unroll
    for (int j = 0; j < TILE; j += BLOCK_ROWS)
        out[(size_t)(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

// transpose_smem_xor: tile[32][32], unpadded, but logical element (r, c) is
// stored at physical column c ^ r (an XOR swizzle; a bijection on 0..31 for
// each row, so nothing collides and no space is wasted).  Bank = c ^ r.
//   write (r fixed, c = tx = 0..31): banks tx ^ r, a permutation of 0..31;
//   read  (c fixed, r = tx = 0..31): banks c ^ tx, again a permutation.
// Both phases are conflict-free.  This is the layout swizzle expresses.
__global__ void __launch_bounds__(TILE * BLOCK_ROWS)
transpose_smem_xor(const uint32_t* __restrict__ in, uint32_t* __restrict__ out, int n) {
    __shared__ uint32_t tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
#pragma unroll
    for (int j = 0; j < TILE; j += BLOCK_ROWS) {
        int r = threadIdx.y + j, c = threadIdx.x;
        tile[r][c ^ r] = in[(size_t)(y + j) * n + x];
    }
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
#pragma unroll
    for (int j = 0; j < TILE; j += BLOCK_ROWS) {
        int r = threadIdx.x, c = threadIdx.y + j;  // logical tile element (r, c)
        out[(size_t)(y + j) * n + x] = tile[r][c ^ r];
    }
}

// transpose_float4_xor<T, THREADS>: a T x T tile (T = 32 or 64), 16-byte
// global accesses in both directions.
//
// The tile is cut into (T/4) x (T/4) micro-blocks of 4x4 words; micro-block
// (a, b) covers tile rows 4a..4a+3 and columns 4b..4b+3.
//  1. Load: a thread reads its micro-block as four float4s (one per row).
//     Consecutive threads take consecutive b, so a warp reads whole 128- or
//     256-byte row segments: coalesced.  All loads are issued before any use.
//  2. In registers, the 4x4 block is transposed: w_j = column 4b+j of the
//     micro-block = output-tile row 4b+j, output float4 slot a.
//  3. w_j goes to shared memory s[row = 4b+j][slot], where s holds the OUTPUT
//     tile as T rows of T/4 float4 slots.  Unswizzled, the 8 threads of a
//     16-byte access phase (same a, b = 8 consecutive values) would all write
//     slot a of 8 different rows; with T/4 = 8 or 16 slots per row that is the
//     same 16-byte bank group in every row: an 8-way conflict.  So logical
//     slot a of row `row` is stored at physical slot a ^ (row >> 2) (= a ^ b):
//     the 8 threads then hit slots a ^ b for 8 consecutive b: 8 different bank
//     groups, conflict-free.
//  4. After a barrier, each thread reads float4s of the output tile row by row
//     (8 threads of a phase: same row r, 8 consecutive logical slots c ->
//     physical c ^ (r >> 2): 8 different bank groups, conflict-free) and
//     writes them to global memory as float4s, consecutive threads writing
//     consecutive 16-byte pieces of one output row: coalesced.
// THREADS < (T/4)^2 makes each thread handle several micro-blocks (more
// bytes in flight per thread, fewer threads).
template <int T, int THREADS>
__global__ void __launch_bounds__(THREADS)
transpose_float4_xor(const uint4* __restrict__ in, uint4* __restrict__ out, int n) {
    constexpr int Q = T / 4;                // float4 slots per tile row
    constexpr int MB = Q * Q / THREADS;     // micro-blocks per thread
    constexpr int ST = T * Q / THREADS;     // float4 stores per thread
    static_assert((Q & (Q - 1)) == 0 && Q >= 8, "T/4 must be a power of 2, >= 8");
    static_assert(Q * Q % THREADS == 0 && THREADS % 32 == 0, "bad THREADS");
    __shared__ uint4 s[T][Q];               // output tile, swizzled slots

    const int n4 = n / 4;                   // float4s per matrix row
    const int r0 = blockIdx.y * T;          // first input row of this tile
    const int c0 = blockIdx.x * T;          // first input column of this tile
    const int t = threadIdx.x;

    // 1. Load micro-blocks (all loads first, for memory-level parallelism).
    uint4 v[MB][4];
#pragma unroll
    for (int m = 0; m < MB; m++) {
        int mb = t + m * THREADS;
        int a = mb / Q, b = mb % Q;
        const uint4* src = in + (size_t)(r0 + 4 * a) * n4 + (c0 / 4 + b);
#pragma unroll
        for (int k = 0; k < 4; k++) v[m][k] = src[(size_t)k * n4];
    }

    // 2 + 3. Transpose each 4x4 micro-block in registers; store swizzled.
#pragma unroll
    for (int m = 0; m < MB; m++) {
        int mb = t + m * THREADS;
        int a = mb / Q, b = mb % Q;
        uint4 w[4];
        w[0] = make_uint4(v[m][0].x, v[m][1].x, v[m][2].x, v[m][3].x);
        w[1] = make_uint4(v[m][0].y, v[m][1].y, v[m][2].y, v[m][3].y);
        w[2] = make_uint4(v[m][0].z, v[m][1].z, v[m][2].z, v[m][3].z);
        w[3] = make_uint4(v[m][0].w, v[m][1].w, v[m][2].w, v[m][3].w);
#pragma unroll
        for (int j = 0; j < 4; j++) {
            int row = 4 * b + j;            // row >> 2 == b
            s[row][a ^ b] = w[j];
        }
    }
    __syncthreads();

    // 4. Read the output tile row by row, write float4s.  Output row c0 + r,
    //    output float4 column r0/4 + c.
#pragma unroll
    for (int i = 0; i < ST; i++) {
        int idx = t + i * THREADS;
        int r = idx / Q, c = idx % Q;
        out[(size_t)(c0 + r) * n4 + (r0 / 4 + c)] = s[r][c ^ (r >> 2)];
    }
}

// Verification: counts elements that differ from the expected value
// (transposed: out[y][x] = x*n + y; copy: out[i] = i) and keeps the first
// wrong index.
__global__ void check_output(const uint32_t* __restrict__ out, int n, int transposed,
                             unsigned long long* bad, unsigned long long* first) {
    size_t total = (size_t)n * n;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < total;
         i += (size_t)gridDim.x * blockDim.x) {
        size_t y = i / n, x = i % n;
        uint32_t expect = transposed ? (uint32_t)(x * n + y) : (uint32_t)i;
        if (out[i] != expect) {
            atomicAdd(bad, 1ULL);
            atomicMin(first, (unsigned long long)i);
        }
    }
}

// ---------------------------------------------------------------------------
// Harness
// ---------------------------------------------------------------------------

struct Bench {
    std::string name;
    bool transposed;                 // expected output: transpose or copy
    std::function<void()> launch;    // enqueues one run on the default stream
    const void* func;                // kernel, for attributes (nullptr: memcpy)
};

static double now_s() {
    using namespace std::chrono;
    return duration<double>(steady_clock::now().time_since_epoch()).count();
}

// Warm up by time, then time `runs` launches, each between its own events;
// returns the median in milliseconds.
static double time_median_ms(const std::function<void()>& launch, int runs = 30,
                             double warm_s = 0.5) {
    double t0 = now_s();
    long warm_iters = 0;
    do {
        for (int i = 0; i < 10; i++) launch();
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        warm_iters += 10;
    } while (now_s() - t0 < warm_s);

    std::vector<cudaEvent_t> start(runs), stop(runs);
    for (int i = 0; i < runs; i++) {
        CK(cudaEventCreate(&start[i]));
        CK(cudaEventCreate(&stop[i]));
    }
    for (int i = 0; i < runs; i++) {
        CK(cudaEventRecord(start[i]));
        launch();
        CK(cudaEventRecord(stop[i]));
    }
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<double> ms(runs);
    for (int i = 0; i < runs; i++) {
        float f = 0;
        CK(cudaEventElapsedTime(&f, start[i], stop[i]));
        ms[i] = f;
        CK(cudaEventDestroy(start[i]));
        CK(cudaEventDestroy(stop[i]));
    }
    std::sort(ms.begin(), ms.end());
    return runs % 2 ? ms[runs / 2] : 0.5 * (ms[runs / 2 - 1] + ms[runs / 2]);
}

static void verify_or_die(const std::string& name, int n, bool transposed,
                          const uint32_t* d_out, unsigned long long* d_bad,
                          unsigned long long* d_first) {
    unsigned long long zero = 0, maxv = ~0ULL;
    CK(cudaMemcpy(d_bad, &zero, sizeof zero, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_first, &maxv, sizeof maxv, cudaMemcpyHostToDevice));
    check_output<<<1024, 256>>>(d_out, n, transposed ? 1 : 0, d_bad, d_first);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    unsigned long long bad = 0, first = 0;
    CK(cudaMemcpy(&bad, d_bad, sizeof bad, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&first, d_first, sizeof first, cudaMemcpyDeviceToHost));
    if (bad != 0) {
        uint32_t got = 0;
        CK(cudaMemcpy(&got, d_out + first, sizeof got, cudaMemcpyDeviceToHost));
        size_t y = first / n, x = first % n;
        uint32_t expect = transposed ? (uint32_t)(x * n + y) : (uint32_t)first;
        fprintf(stderr,
                "VERIFY FAILED: %s N=%d: %llu wrong elements; first at row %zu col %zu: "
                "got %u, expected %u\n",
                name.c_str(), n, bad, y, x, got, expect);
        exit(1);
    }
}

static void print_attrs(const char* name, const void* func) {
    cudaFuncAttributes fa;
    CK(cudaFuncGetAttributes(&fa, func));
    printf("# kernel %s: %d regs, %zu B static smem, %zu B local\n", name, fa.numRegs,
           fa.sharedSizeBytes, fa.localSizeBytes);
}

int main() {
    int dev = 0;
    CK(cudaSetDevice(dev));
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, dev));
    int rt = 0, drv = 0;
    CK(cudaRuntimeGetVersion(&rt));
    CK(cudaDriverGetVersion(&drv));
    printf("# device: %s, sm_%d%d, %d SMs, L2 %d MB, %.1f GiB\n", prop.name, prop.major,
           prop.minor, prop.multiProcessorCount, prop.l2CacheSize >> 20,
           prop.totalGlobalMem / 1073741824.0);
    printf("# cuda runtime %d, driver %d\n", rt, drv);
    printf("# format: cuda <kernel> <N> <median_ms> <GB/s>  (GB/s = 2*N*N*4 bytes / "
           "median, 1 GB = 1e9 B; median of 30 after >=0.5 s warm-up)\n");

    const int sizes[] = {4096, 8192};
    const int nmax = 8192;
    const size_t max_bytes = (size_t)nmax * nmax * sizeof(uint32_t);
    uint32_t *d_in = nullptr, *d_out = nullptr;
    unsigned long long *d_bad = nullptr, *d_first = nullptr;
    CK(cudaMalloc(&d_in, max_bytes));
    CK(cudaMalloc(&d_out, max_bytes));
    CK(cudaMalloc(&d_bad, sizeof(unsigned long long)));
    CK(cudaMalloc(&d_first, sizeof(unsigned long long)));

    // Kernel attributes (registers / spills) once, as comments.
    print_attrs("copy_float4", (const void*)copy_float4);
    print_attrs("transpose_naive", (const void*)transpose_naive);
    print_attrs("transpose_smem", (const void*)transpose_smem);
    print_attrs("transpose_smem_padded", (const void*)transpose_smem_padded);
    print_attrs("transpose_smem_xor", (const void*)transpose_smem_xor);
    print_attrs("transpose_float4_xor<32,64>", (const void*)transpose_float4_xor<32, 64>);
    print_attrs("transpose_float4_xor<64,256>", (const void*)transpose_float4_xor<64, 256>);
    print_attrs("transpose_float4_xor<64,128>", (const void*)transpose_float4_xor<64, 128>);
    fflush(stdout);

    for (int n : sizes) {
        if (n % 64 != 0) {
            fprintf(stderr, "N must be a multiple of 64\n");
            return 1;
        }
        const size_t elems = (size_t)n * n;
        const size_t bytes = elems * sizeof(uint32_t);
        const double gbytes = 2.0 * bytes / 1e9;
        fill_iota<<<2048, 256>>>(d_in, elems);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());

        const uint4* in4 = reinterpret_cast<const uint4*>(d_in);
        uint4* out4 = reinterpret_cast<uint4*>(d_out);
        const dim3 tgrid(n / TILE, n / TILE), tblock(TILE, BLOCK_ROWS);

        std::vector<Bench> benches = {
            {"memcpy", false,
             [=] { CK(cudaMemcpyAsync(d_out, d_in, bytes, cudaMemcpyDeviceToDevice)); },
             nullptr},
            {"copy_float4", false,
             [=] {
                 copy_float4<<<(unsigned)(elems / 4 / (COPY_THREADS * COPY_PER)),
                               COPY_THREADS>>>(in4, out4);
             },
             (const void*)copy_float4},
            {"transpose_naive", true,
             [=] { transpose_naive<<<dim3(n / 32, n / 8), dim3(32, 8)>>>(d_in, d_out, n); },
             (const void*)transpose_naive},
            {"transpose_smem", true,
             [=] { transpose_smem<<<tgrid, tblock>>>(d_in, d_out, n); },
             (const void*)transpose_smem},
            {"transpose_smem_padded", true,
             [=] { transpose_smem_padded<<<tgrid, tblock>>>(d_in, d_out, n); },
             (const void*)transpose_smem_padded},
            {"transpose_smem_xor", true,
             [=] { transpose_smem_xor<<<tgrid, tblock>>>(d_in, d_out, n); },
             (const void*)transpose_smem_xor},
        };
        // transpose_float4_xor candidates; the fastest is reported.
        std::vector<Bench> f4 = {
            {"transpose_float4_xor/tile32x32/64thr", true,
             [=] {
                 transpose_float4_xor<32, 64><<<dim3(n / 32, n / 32), 64>>>(in4, out4, n);
             },
             (const void*)transpose_float4_xor<32, 64>},
            {"transpose_float4_xor/tile64x64/256thr", true,
             [=] {
                 transpose_float4_xor<64, 256><<<dim3(n / 64, n / 64), 256>>>(in4, out4, n);
             },
             (const void*)transpose_float4_xor<64, 256>},
            {"transpose_float4_xor/tile64x64/128thr", true,
             [=] {
                 transpose_float4_xor<64, 128><<<dim3(n / 64, n / 64), 128>>>(in4, out4, n);
             },
             (const void*)transpose_float4_xor<64, 128>},
        };

        auto run_one = [&](const Bench& b) {
            CK(cudaMemset(d_out, 0xFF, bytes));  // sentinel: no stale results
            CK(cudaDeviceSynchronize());
            double ms = time_median_ms(b.launch);
            verify_or_die(b.name, n, b.transposed, d_out, d_bad, d_first);
            return ms;
        };

        double memcpy_ms = 0;
        for (const Bench& b : benches) {
            double ms = run_one(b);
            if (b.name == "memcpy") memcpy_ms = ms;
            printf("cuda %s %d %.4f %.1f\n", b.name.c_str(), n, ms, gbytes / (ms * 1e-3));
            printf("#   %s N=%d: %.3fx memcpy\n", b.name.c_str(), n, memcpy_ms / ms);
            fflush(stdout);
        }
        double best_ms = 1e30;
        std::string best;
        for (const Bench& b : f4) {
            double ms = run_one(b);
            printf("# variant %s %d %.4f %.1f (%.3fx memcpy)\n", b.name.c_str(), n, ms,
                   gbytes / (ms * 1e-3), memcpy_ms / ms);
            if (ms < best_ms) {
                best_ms = ms;
                best = b.name;
            }
        }
        printf("# transpose_float4_xor N=%d: fastest variant %s, %.3fx memcpy\n", n,
               best.c_str(), memcpy_ms / best_ms);
        printf("cuda transpose_float4_xor %d %.4f %.1f\n", n, best_ms,
               gbytes / (best_ms * 1e-3));
        fflush(stdout);
    }

    CK(cudaFree(d_in));
    CK(cudaFree(d_out));
    CK(cudaFree(d_bad));
    CK(cudaFree(d_first));
    return 0;
}
