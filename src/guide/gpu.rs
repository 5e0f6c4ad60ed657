//! # GPU: the WGSL of a layout, the wgpu backend, a GEMM
//!
//! The examples that need a GPU are `no_run`: they compile in every doctest run with the `gpu`
//! feature, and run where there is an adapter (`tests/gpu.rs` runs the same kernels on
//! lavapipe in CI). Measurements are in [BENCHMARKS.md].
//!
//! ## Every layout as WGSL
//!
//! Every layout also prints itself as WGSL, from the same canonical form as the Rust code.
//! This needs no feature:
//!
//! ```rust
//! swizzle::layout! {
//!     layout MortonTexture {
//!         memory [n: 64];
//!         unmerge n -> [ty: 2, tx: 2, m: 16];
//!         morton m -> [yi: 4, xi: 4];
//!         merge [ty, yi] -> y;
//!         merge [tx, xi] -> x;
//!         coords [y, x];
//!         inverse;
//!     }
//! }
//! assert!(MortonTexture::WGSL.contains("fn morton_texture_offset(y: u32, x: u32) -> u32 {"));
//! assert!(MortonTexture::WGSL.contains("fn morton_texture_coord(offset: u32) -> array<u32, 2> {"));
//! ```
//!
//! `MortonTexture::WGSL` (and `<L as Layout<N>>::WGSL`, for generic code) holds
//!
//! ```wgsl
//! // Layout `MortonTexture`: coords [y: 8, x: 8], 64 elements.
//!
//! fn morton_texture_offset(y: u32, x: u32) -> u32 {
//!     return (x & 1) | ((y & 1) << 1) | ((x & 0x2) << 1) | ((y & 0x2) << 2) | ((x >> 2) << 4) | ((y >> 2) << 5);
//! }
//!
//! fn morton_texture_coord(offset: u32) -> array<u32, 2> {
//!     return array<u32, 2>(((offset >> 1) & 1) | ((offset >> 2) & 0x2) | ((offset >> 5) << 2), (offset & 1) | ((offset >> 1) & 0x2) | ((offset >> 2) & 0x4));
//! }
//! ```
//!
//! - `<name>_offset` always; `<name>_coord` when the layout is a bijection; `<name>_is_valid`
//!   when it is padded. Straight-line `u32` arithmetic, no loops, no `u64`. Names WGSL reserves
//!   get a `_` suffix.
//! - Offsets are `u32` on the GPU. When a coordinate, the element space or any intermediate
//!   value of the code may exceed `u32` (each subexpression is bounded), the layout has no
//!   WGSL: its Rust code works as usual, and only *using* `WGSL` is a compile error that says
//!   why (``layout `Big` has no WGSL: its element space (4294967300) does not fit WGSL's 32-bit
//!   offsets``).
//! - A layout with run-time (`dyn`) dims gets the functions of one tile (`<name>_tile_offset`,
//!   …): its place in the grid depends on the extents. `GpuLayout::tiled(&L::DESCRIPTOR,
//!   &extents)` wraps them in functions over the whole array, with the tile counts folded in
//!   as constants: `<name>_offset`; `<name>_coord` when the tile is a bijection; and
//!   `<name>_is_valid` when a tile is partial (its cells outside the extents are padding) or
//!   the tile is padded.
//!
//! ## The wgpu backend
//!
//! `swizzle::gpu` (feature `gpu`, opt-in: `swizzle = { version = "0.1", features = ["gpu"] }`)
//! runs kernels built around those functions with wgpu, on the best adapter it finds (a
//! discrete GPU, else an integrated one, else a software Vulkan such as lavapipe) with the
//! adapter's own limits, so buffers of gigabytes work. It looks on Vulkan, Metal and DX12;
//! on OpenGL only when `WGPU_BACKEND=gl` asks for it, and a GL device must then be used from
//! one thread at a time (wgpu's GL backend can abort the process otherwise). A machine with
//! no adapter gets `GpuError::NoAdapter`, saying what to install (on Linux, Debian's
//! `mesa-vulkan-drivers` gives the lavapipe software driver):
//!
//! ```rust,no_run
//! # #[cfg(feature = "gpu")]
//! # fn main() -> Result<(), swizzle::gpu::GpuError> {
//! use swizzle::gpu::{Dispatch, Gpu, GpuLayout};
//!
//! swizzle::layout! {
//!     layout MortonTiles {
//!         memory [ty: 256, tx: 256, m: 16];
//!         morton m -> [yi: 4, xi: 4];
//!         merge [ty, yi] -> y;
//!         merge [tx, xi] -> x;
//!         coords [y, x];
//!     }
//! }
//!
//! let gpu = Gpu::new()?; // GpuError::NoAdapter, not a panic, where there is none
//! println!("{}", gpu.describe());
//! let layout = GpuLayout::of::<MortonTiles, 2>()?;
//! let image: Vec<f32> = (0..1024 * 1024).map(|i| i as f32).collect();
//! let input = gpu.upload(&image)?;
//! let tiles = gpu.filled(MortonTiles::SPACE, 0.0f32)?;
//! let pack = gpu.pack_kernel(&layout)?;
//! pack.run(&gpu, (&input, &tiles))?;
//! assert_eq!(gpu.download(&tiles)?[MortonTiles::offset(1, 2)], image[1024 + 2]);
//! let times = pack.time(&gpu, (&input, &tiles), 30)?; // GPU timestamps, one per run
//! let median = pack.median(&gpu, (&input, &tiles), 30)?; // the same after 0.5 s of warm-up
//! # Ok(())
//! # }
//! # #[cfg(not(feature = "gpu"))]
//! # fn main() {}
//! ```
//!
//! | kernel | what it does |
//! |---|---|
//! | `pack_kernel(&layout)`, `unpack_kernel(&layout)` | row-major image ↔ layout (padding unpacks as zero) |
//! | `copy_kernel(&from, &to)` | layout → layout of the same shape |
//! | `transpose_kernel(h, w, &Transpose)` | `h × w` row-major → `w × h`, through a workgroup tile in any `layout!` (row-major, padded, XOR-swizzled), loaded and stored by two tiled copies with the thread-value layouts given ([threads](super::threads)); returns a `TransposeKernel` with the analysis of every instruction |
//! | `naive_transpose_kernel(h, w)`, `plain_copy_kernel(len)` | the baselines (`plain_copy_kernel_with(len, BoundsChecks::Off)`: without wgpu's bounds checks, for measuring what they cost) |
//! | `map_kernel(&layout, body)` | the body of `fn body(value: u32, coord: array<u32, N>, offset: u32) -> u32`, in WGSL, applied in place to every valid coordinate, with the layout's functions in scope |
//! | `gemm_kernel([m, n, k], &gemm)`, `naive_gemm_kernel` | `C = A · B` (below) |
//! | `wgsl_kernel(name, &module, workgroups, lens)` | your own module ([threads](super::threads)) |
//!
//! Copies write their output in order, four words per thread as one `vec4<u32>` store where
//! the output's length allows, and find each input element through the output's `_coord` and
//! the input's `_offset`; where the four sources of a store lie in one aligned `vec4` of the
//! input (a run, or a run permuted by an XOR), they are one `vec4` load. Tiles of a bijection
//! at run-time extents (`GpuLayout::tiled`) are written the same way, and the cells of partial
//! tiles keep their contents. Any other output (padded, or with unused offsets) is written
//! coordinate by coordinate, and its other offsets keep their contents.
//!
//! Elements are any `Word` of 8, 16, 32 or 64 bits (`u8`, `i8`, `u16`, `i16`, `u32`, `i32`,
//! `f32`, `u64`, `i64`, `f64`; `f16` data travels as `u16`), and kernels move bits. A kernel
//! moves the width its layouts were built for: `layout.with_element::<f64>()` is the layout of
//! two-word elements (the low word first; its WGSL functions, `<name>_w2_offset(…, word)` and
//! so on, take the word as a last coordinate), and `with_element::<u8>()` or `::<u16>()` one
//! whose kernels pack 4 or 2 elements into each 32-bit word (a thread builds whole words of the
//! output; into an output without an inverse, a thread per element sets its bits with
//! `atomicAnd`/`atomicOr`). Their pack, unpack and copy kernels take `Buffer<T>`s of that
//! type; a buffer of another width is `GpuError::Element`. Transposes and `map` move 32-bit
//! elements.
//!
//! A pack or unpack of elements of up to 32 bits into a layout of tiles (`GpuLayout::tiled`,
//! or a fixed-size layout whose outer memory dims are merged into the coordinates as their
//! slowest digits, which `GpuLayout::of` and `from_descriptor` recognize as the same grid:
//! tiles of a bijection of rank 2, row-major over the grid, whose blocks and image rows split
//! into `vec4`s, and whose edges the image does not cut) takes one of two faster kernels. Where
//! every `vec4` of the tiles is one aligned `vec4` of the image with its lanes permuted by an
//! XOR (plain tiles; a swizzle that XORs columns by the row at element or block granularity,
//! like `xor xi by yi`: the plan proves it from the tile's offsets), each thread moves one
//! `vec4` whole and exchanges its lanes with a few shifts and swizzles (`fn permute`): a copy,
//! without workgroup memory. Otherwise (Morton tiles, cut tiles) the kernel is staged through
//! workgroup memory: a workgroup of 64 threads copies a region of tiles in with two `vec4`s
//! per thread, and each thread builds two `vec4`s of the other side from it through the
//! tile's own straight-line inverse or offset, each word of workgroup memory loaded once per
//! `vec4` (once for both where an unpack's two rows share their words, as 4 × 4 Morton blocks
//! of bytes do).
//!
//! `GpuLayout::from_descriptor(&descriptor)` takes a layout's IR from anywhere (a `DESCRIPTOR`,
//! the command line's parser, or built at run time) and prints its WGSL from the same
//! canonical form as the macro (the printer returns which functions it wrote, so no kernel
//! searches the text), `GpuLayout::row_major(extents)` a plain image, and `GpuLayout::tiled` a
//! layout with run-time dims at given extents, and `swizzle::gpu::assemble` builds a module
//! from several layouts' functions for kernels of your own. Every kernel's WGSL is readable
//! (`Kernel::wgsl`), and is validated by naga before wgpu sees it: a bad `map` body is
//! `GpuError::Shader` with naga's report quoting the line. Wrong buffer lengths, elements of
//! the wrong width, shapes that differ, sizes over the device's limits, wgpu errors and a lost
//! device are each a `GpuError` variant.
//!
//! `cargo run --release --features gpu --example gpu_transpose` transposes 4096×4096 floats the
//! four ways and `--example gpu_pack` packs 4096×4096 into Morton tiles, each checked against
//! the CPU. `cargo bench --bench gpu` measures them against a plain copy and a CUDA copy
//! (CONTRIBUTING.md says how to run it on a GPU).
//!
//! **Batches.** Every kernel runs, records and times through one trait, `gpu::Dispatch`, given
//! its buffers as one argument: `(&input, &output)`, `(&a, &b, &c)` for a GEMM, `&data` for a
//! `map`. Each `run` submits one run and waits for it, a round trip through the driver that
//! can cost as much as a small kernel's run ([BENCHMARKS.md], "GEMM"). Kernels that follow one
//! another, or many runs of one, go into a `gpu::Batch`: each kernel's `enqueue` checks its
//! buffers and records a run, and `submit` sends them all at once and waits once. Runs see
//! what the runs recorded before them wrote:
//!
//! ```rust,no_run
//! # #[cfg(feature = "gpu")]
//! # fn main() -> Result<(), swizzle::gpu::GpuError> {
//! # use swizzle::gpu::{Dispatch, Gpu, GpuLayout};
//! # swizzle::layout! {
//! #     layout MortonTiles {
//! #         memory [ty: 256, tx: 256, m: 16];
//! #         morton m -> [yi: 4, xi: 4];
//! #         merge [ty, yi] -> y;
//! #         merge [tx, xi] -> x;
//! #         coords [y, x];
//! #     }
//! # }
//! # let gpu = Gpu::new()?;
//! # let layout = GpuLayout::of::<MortonTiles, 2>()?;
//! # let image: Vec<f32> = (0..1024 * 1024).map(|i| i as f32).collect();
//! let (pack, unpack) = (gpu.pack_kernel(&layout)?, gpu.unpack_kernel(&layout)?);
//! let input = gpu.upload(&image)?;
//! let (tiles, output) = (gpu.filled(1024 * 1024, 0.0f32)?, gpu.filled(1024 * 1024, 0.0f32)?);
//! let mut batch = gpu.batch();
//! pack.enqueue(&mut batch, (&input, &tiles))?;
//! unpack.enqueue(&mut batch, (&tiles, &output))?; // reads what the pack wrote
//! batch.submit()?; // one submission, one wait
//! assert_eq!(gpu.download(&output)?, image);
//! # Ok(())
//! # }
//! # #[cfg(not(feature = "gpu"))]
//! # fn main() {}
//! ```
//!
//! **Timing.** Time kernels with `Dispatch::median`, or call `Dispatch::warm_up` before
//! `Dispatch::time`: a GPU that has been idle runs at low clocks, and a kernel timed cold
//! measures far below its bandwidth ([BENCHMARKS.md], "GPU packs, unpacks and transposes",
//! says by how much).
//!
//! ## Writing a GPU kernel with swizzle: a GEMM
//!
//! `gpu.gemm_kernel([m, n, k], &gemm)` computes `C = A · B` for row-major f32 matrices of any
//! sizes, and every index it computes comes from a layout. `swizzle::gemm` (the file
//! `src/gemm.rs`) holds the library's layouts in one `layout!` block;
//! `swizzle::gemm::config()` bundles them, and a `Gemm` of your own layouts is built the same
//! way:
//!
//! ```rust,no_run
//! # #[cfg(feature = "gpu")]
//! # fn main() -> Result<(), swizzle::gpu::GpuError> {
//! use swizzle::gpu::{Dispatch, Gpu};
//! let gpu = Gpu::new()?;
//! let (m, n, k) = (1000, 1200, 700);
//! let a = gpu.upload(&vec![1.0f32; m * k])?;
//! let b = gpu.upload(&vec![0.5f32; k * n])?;
//! let c = gpu.filled(m * n, 0.0f32)?;
//! let gemm = gpu.gemm_kernel([m, n, k], &swizzle::gemm::config())?;
//! gemm.run(&gpu, (&a, &b, &c))?;
//! assert!(gpu.download(&c)?.iter().all(|&x| x == 350.0));
//! # Ok(())
//! # }
//! # #[cfg(not(feature = "gpu"))]
//! # fn main() {}
//! ```
//!
//! A workgroup of 256 threads computes a 128 × 128 tile of C. For each step of 16 along k:
//!
//! 1. **Loads: two tiled copies.** `GemmALoads` and `GemmBLoads` (thread-value layouts) give
//!    each thread two `vec4`s of A's 128 × 16 tile and of B's 16 × 128 tile; the copies are the
//!    core's tiled copies, straight-line per thread, guard-free inside the matrices and
//!    writing zeros past their edges (so partial tiles add nothing).
//! 2. **The workgroup tiles are layouts.** `GemmB` is row-major. `GemmA` is stored k-major, so
//!    that a thread reads four consecutive rows as one `vec4`, and swizzled: the loads write
//!    four k's of one m, and unswizzled the 32 lanes of a subgroup would put four words in one
//!    bank. The macro chooses the swizzle from the two accesses, declared as `access` items
//!    (`ALoadWrite`, `AFragmentRead`): `swizzle offset -> swizzled (auto for ALoadWrite,
//!    AFragmentRead)` picks CuTe `Swizzle<2, 3, 6>` and asserts both conflict-free
//!    (`swizzle show src/gemm.rs --layout GemmA --banks`: each group of four k's lands on its
//!    own eight banks):
//!
//!    ```text
//!    banks (32 × 4 B, 4-byte elements; rows m, columns k):
//!     0  0  0  0  8  8  8  8 16 16 16 16 24 24 24 24
//!     1  1  1  1  9  9  9  9 17 17 17 17 25 25 25 25
//!    …
//!     8  8  8  8  0  0  0  0 24 24 24 24 16 16 16 16
//!    ```
//! 3. **Fragments: a thread-value layout over C's tile.** `GemmFragments` gives each thread
//!    8 × 8 values: two groups of four rows 64 apart by two groups of four columns, with a
//!    subgroup on 4 × 8 threads. From it the kernel derives which rows of A and columns of B
//!    a thread reads (`swizzle::fragment`), reads them as `vec4`s where the tile keeps
//!    them together, and computes each read's place once per thread for each group of steps
//!    whose places differ by a constant (one group for a padded or row-major tile, four for
//!    this XOR), each step adding its constant. `swizzle show src/gemm.rs --layout
//!    GemmFragments` prints, after the offset grid, the tile with `thread.value` in each cell
//!    (the command line reads the `layout!` blocks of a `.rs` file):
//!
//!    ```text
//!       0.0    0.1    0.2    0.3    1.0    1.1    1.2    1.3    2.0 …
//!       0.8    0.9   0.10   0.11    1.8    1.9   1.10   1.11    2.8 …
//!      0.16   0.17   0.18   0.19   1.16   1.17   1.18   1.19   2.16 …
//!      0.24   0.25   0.26   0.27   1.24   1.25   1.26   1.27   2.24 …
//!       8.0    8.1    8.2    8.3    9.0    9.1    9.2    9.3   10.0 …
//!    ```
//! 4. **What is hand-written** is the loop over steps of k and the multiply-accumulate: one
//!    `vec4` accumulator per row and column group, `acc = fma(vec4(a.x), b, acc)`, unrolled
//!    over the 16 steps of a tile.
//! 5. **C** is stored from the accumulators in `vec4`s along its rows where n is a multiple of
//!    4 (single elements otherwise), unguarded where the tile lies inside C, each store guarded
//!    at the edges. **Which tile** a workgroup computes is a raster order (`Gemm::order`, any
//!    `raster` item's `R::ORDER`).
//! 6. **Transposed operands** (`Gemm::a_order`, `b_order`: `Stored::Transposed`, A as
//!    `k × m` or B as `n × k` in memory) go through layouts too: the tiled copy reads the
//!    matrix as it lies and writes the tile through the tile's transpose (the same memory,
//!    coordinates swapped), so nothing after the loads changes.
//!    `swizzle::gemm::config_for(a, b)` picks loads along the stored rows, and for a
//!    transposed B a tile swizzled as A's (its loads then write as A's do; the macro picks
//!    the same `Swizzle<2, 3, 6>`).
//! 7. **f16 operands** (`Gemm { operands: Operands::F16, .. }`, buffers of
//!    `swizzle::gpu::f16`) where the adapter has `SHADER_F16` (`gpu.has_f16()`; otherwise
//!    `GpuError::MissingFeature`): the tiled copies convert to f32 as they write the tiles,
//!    so the sums are f32 and everything after the loads is unchanged. Buffers of the other
//!    element type are a `GpuError::Element` (f32) or `GpuError::Operands` (bf16).
//!
//!    **bf16 operands** (`Operands::Bf16`, buffers of `swizzle::gpu::bf16`: f32's range in
//!    16 bits) run on workgroup-scope cooperative matrices only, where the driver lists bf16
//!    shapes for them (`VK_KHR_shader_bfloat16`: NVIDIA's Vulkan driver;
//!    `gpu.workgroup_matrix_granularities()` lists them with `operands: Operands::Bf16`).
//!    WGSL has no bf16 type, so elsewhere `gpu.gemm_kernel` is a `GpuError::Unsupported`
//!    that says why, never a kernel that reads the bits as another type:
//!
//!    ```no_run
//!    use swizzle::gpu::{Dispatch, Gemm, Gpu, Operands, bf16};
//!    let gpu = Gpu::new()?;
//!    let gemm = Gemm { operands: Operands::Bf16, ..swizzle::gemm::config() };
//!    let kernel = gpu.gemm_kernel([256, 256, 256], &gemm)?;
//!    let a = gpu.upload(&vec![bf16::from_f32(1.5); 256 * 256])?;
//!    let b = gpu.upload(&vec![bf16::from_f32(2.0); 256 * 256])?;
//!    let c = gpu.filled(256 * 256, 0.0f32)?;
//!    kernel.run(&gpu, (&a, &b, &c))?;
//!    assert!(gpu.download(&c)?.iter().all(|&x| x == 768.0));
//!    # Ok::<(), swizzle::gpu::GpuError>(())
//!    ```
//!
//! 8. **Tensor cores** (`Gemm::tensor_cores`, `swizzle::gemm::tensor_cores()`, in
//!    `config()`): where the device has workgroup-scope cooperative matrices
//!    (`VK_NV_cooperative_matrix2`, NVIDIA's Vulkan driver: `gpu.workgroup_matrices()`), f16
//!    operands (and bf16 ones, where listed) run on them, any shape and storage order
//!    (`GemmPath::WorkgroupMatrices`, the fastest path); else, where the adapter has wgpu's experimental cooperative matrices
//!    (`gpu.has_cooperative_matrix()`: 16 × 16 × 16 f16 → f32 fragments), row-major f16
//!    operands run on those (`GemmPath::TensorCores`); elsewhere, for transposed operands
//!    without workgroup-scope matrices, or with f16 accumulators on the fragments (their
//!    results were wrong on the one driver tried; on workgroup-scope matrices they run
//!    where the driver lists f16 sums), the scalar kernel runs and `kernel.path()` says why
//!    (`GemmPath::Scalar { why }`). Every index still comes from `layout!` items and layout
//!    values, described in the next two sections.
//!
//! ### How the layouts make a tensor-core GEMM
//!
//! A cooperative matrix is a 16 × 16 fragment that a whole subgroup (32 lanes) loads,
//! multiplies and stores together: `coopLoadT` reads it row-major from one element of a
//! workgroup array with the row pitch as stride, `coopMultiplyAdd` is one tensor-core
//! multiply-add, `coopStoreT` writes the accumulator back. So the kernel's layouts are:
//!
//! - **the tiles** `TcA` (128 × 16 f16 over `[m, k]`) and `TcB` (16 × 256 over `[k, n]`):
//!   rows at one pitch (checked: the cooperative load needs it), padded to 24 and 264 f16 so
//!   that the eight rows a fragment load reads per phase start on eight distinct groups of
//!   four banks (`assert conflict_free` on the access items `TcAFragmentRead`,
//!   `TcBFragmentRead` — the `ldmatrix` pattern, a lane per row of 16 bytes — and on the
//!   copies' writes `TcALoadWrite`, `TcBLoadWrite`);
//! - **the copies** `TcALoads`, `TcBLoads`: thread-value layouts of 256 threads moving 16
//!   bytes (8 f16) at a time, printed by the same tiled-copy generator as every copy (unguarded
//!   inside the matrices, zeros past their edges), with their analysis in `kernel.loads`;
//!   with `KLoop::Prefetched` each is split into a fetch into registers, issued before the
//!   previous step's multiply-adds, and a put into the tile. (`KLoop::Direct` instead has
//!   subgroups `coopLoadT` their fragments of A, B or both straight from the storage
//!   buffers, with no tile, copy or barrier for them, where the tiles never cross the
//!   matrices' edges; it was no faster: the limit is the loads in flight per step.)
//! - **the fragment map** `TcFragments`: a thread-value layout whose *threads are
//!   subgroups* and whose *values are 16 × 16 fragments* of C's 128 × 256 tile (an 8 × 16
//!   grid of fragments). Subgroup `s = 4 · wr + wc` computes fragments `(4 · wr + fr,
//!   4 · wc + fc)`, 4 × 4 of them (64 × 64 of C):
//!
//! ```text
//!            fj: 0-3 | 4-7 | 8-11 | 12-15            (16 columns of C each)
//!   fi  0-3:     s0  | s1  |  s2  |  s3              values fr·4+fc: 0 1 2 3
//!       4-7:     s4  | s5  |  s6  |  s7                              4 5 6 7 …
//!                                                    (16 rows of C each)
//! ```
//!
//!   (`swizzle show src/gemm.rs --layout TcFragments` prints it with `thread.value` in every
//!   cell, `swizzle svg src/gemm.rs --layout TcFragments -o fragments.svg` draws it.) Each
//!   step of 16 along k a subgroup loads the fragments of A on its rows and of B on its
//!   columns (4 + 4) and issues 16 multiply-adds, its accumulators named by the map;
//! - **the raster order** of C's tiles (`TensorCores::order`), as in the scalar GEMM;
//! - **the epilogue** `TcCStage` and `TcCStores`: each accumulator is stored into its
//!   subgroup's 16 × 16 stage (rows padded to 20 words: the read-back is conflict-free) and
//!   read back by a thread-value layout of the subgroup's 32 lanes, two `vec4<f32>` each,
//!   stored along C's rows, guarded at the edges.
//!
//! The tiles are arrays of `vec4<f16>`: NVIDIA's compiler rejects a cooperative load from an
//! array of another element type (`vec4<u32>` of f16 pairs: "NVVM compilation failed"), and
//! naga 30 has no bitcast from `u32`s to f16 pairs. `TensorCores::wgsl(shape)` prints the
//! module without a device, and without wgpu: the kernels' text, `GpuLayout` and
//! `swizzle::gemm` need only the `wgsl` feature (CI validates it with naga's
//! cooperative-matrix capability).
//! The design is NVIDIA's own per-subgroup Vulkan kernel's (`vk_cooperative_matrix_perf`:
//! 128 × 256 × 16, tiles staged in shared memory, the next step's loads held in registers,
//! 16-byte moves), written as layouts, and runs close to it; it outruns the scalar f16
//! kernel several times over, yet stays far below cuBLAS HGEMM: the copies into the tiles
//! take most of its time, and nothing in WGSL lets them run asynchronously beside the
//! multiply-adds. Each copy function ends at one exit, the partial tile's guarded moves in
//! the `else` of the interior's test: NVIDIA's compiler ran the same moves behind an early
//! `return` far slower ([BENCHMARKS.md], "Tensor-core GEMM").
//!
//! ### Workgroup-scope matrices: the tile is one matrix
//!
//! `VK_NV_cooperative_matrix2` lets a matrix belong to the whole workgroup: the kernel
//! declares C's `BM × BN` tile as one accumulator, loads A's `BM × BK` and B's `BK × BN`
//! slices straight from the storage buffers through *tensor layouts* (the matrices'
//! dimensions, strides, a slice at the tile's corner), multiplies them in, and stores C's tile
//! through a slice of C's layout. The driver spreads the matrices over the subgroups and
//! stages the loads through workgroup memory, which the fragment kernel above writes by hand;
//! what the kernel says is the tile, the tensor layouts and the raster order
//! (`gemm::workgroup_matrices()`, `TensorCores::workgroup`):
//!
//! - **the tile** `[BM, BN, BK]` (the library's 128 × 256 × 32, 256 invocations: a multiple
//!   of a shape the driver lists, `gpu.workgroup_matrix_granularities()`, such as
//!   32 × 32 × 16 on 256 invocations) and the steps written out per loop iteration (8);
//! - **A's, B's and C's tensor layouts**: `[m, k]`, `[k, n]` and `[m, n]` as stored,
//!   *clamped* where the tiles do not divide the matrix (a load past the edge reads zeros, a
//!   store past it is dropped: any shape runs, with no guard in the kernel); a transposed
//!   operand is sliced as it lies (`[k, m]`) and read through a *tensor view* that swaps the
//!   slice's two dimensions;
//! - **the raster order** (`WorkgroupMatrices::order`, `Raster::Grouped(8)`: bands of 8 rows
//!   of tiles, so that the workgroups that run together read the same slices of A and B
//!   from L2), compiled to straight-line SPIR-V arithmetic
//!   (`swizzle_core::emit::spirv::raster`).
//!
//! WGSL has none of this, so the kernel is SPIR-V, written word by word
//! (`WorkgroupMatrices::spirv(shape, orders, operands, accumulate)` without a device,
//! `kernel.spirv()`) and passed through wgpu; CI runs it on a CPU interpreter of that subset against a CPU GEMM at odd
//! sizes and in every storage order. It outruns the fragment kernel, and runs faster again
//! with A stored column-major (the driver stages slices of long contiguous runs better; B
//! stored transposed is slower): [BENCHMARKS.md], "Tensor-core GEMM", and its git history.
//! Where the time goes: the same kernel reading the same slices every step, or loading them
//! once before the loop (probes that compute a wrong C), runs only about a fifth faster, and
//! at no tile shape tried do the multiply-adds alone reach far past half of cuBLAS HGEMM: the
//! driver's code for the multiply-adds on workgroup-scope matrices sets the ceiling, and the
//! loads, which it mostly hides behind them, cost the rest ([BENCHMARKS.md], "Tensor-core
//! GEMM").
//!
//! **Summing in f16.** `swizzle::gemm::tensor_cores_f16_sums()` gives the same kernel f16
//! accumulators (`Accumulate::F16`: each step's sums rounded to f16, C still stored as f32 — a
//! coarser result, for callers who accept it). Half the accumulators' registers let a
//! workgroup hold a 256 × 256 tile of C, which f32 sums spill; the larger tile reuses each
//! load over more of C, so from 4096 up it runs faster than the f32 kernel, and below 4096
//! slower (fewer, larger tiles than multiprocessors: [BENCHMARKS.md], "Tensor-core GEMM"). It
//! runs where the driver lists f16 sums for its tile; elsewhere the scalar kernel runs and
//! `kernel.path()` says why.
//!
//! The kernel reports what the analyses say of it before it runs: `load_conflicts()` (the
//! tiled copies' writes) and `fragment_conflicts` (the fragment reads), per operand, and
//! `share_cost()`, a model of what the workgroup-memory traffic costs a step of k (the
//! stores' wavefronts and unfoldable address ops, the reads' wavefronts past the FMAs),
//! which ranks tile layouts (`Gemm::share_cost()` computes it without a device). Bounds
//! checks are off in `config()`: every index is in range by construction (the tiles' offsets
//! lie in their spaces, the matrices' reads and C's writes under guards derived from the
//! extents, the buffers' lengths checked by `run`); [BENCHMARKS.md], "GEMM", has what they
//! would cost.
//! `gpu.naive_gemm_kernel` (one thread per element of C) is the baseline.
//! `cargo run --release --features gpu --example gemm` checks both against the CPU and times
//! them; `benches/gemm.rs` compares the tile layouts with cuBLAS. Tested on lavapipe in CI
//! against the CPU at sizes such as 67 × 129 × 33, 1 × 1 × 1 and 128 × 128 × 1, random sizes,
//! and four tile layouts.
//!
//! ## Volume rendering with layouts
//!
//! `cargo run --release --features gpu --example volume_compositing` renders a CT-like volume
//! (256 × 256 × 113, the size of Nocentino and Rhodes' experiment) with every slice stored
//! row-major or in Morton order inside blocks of 4 × 4 to 32 × 32 (four `layout!` items, `dyn`
//! extents), in workgroups of 4 × 4 to 32 × 32, threads in pixel order or, where the
//! workgroup's block is one run of memory, in memory order (the thread's pixel from the
//! layout's inverse). The kernel is the user's own WGSL around the layout's generated
//! functions; each image is checked against a CPU render and printed beside the transactions
//! [`swizzle::analysis`](crate::analysis) predicts for the same configuration. docs/paper.md
//! tells the experiment; `benches/volume.rs` times it at 1024 × 1024 × 256 ([BENCHMARKS.md],
//! "Volume compositing").
//!
//! [BENCHMARKS.md]: https://docs.rs/crate/swizzle-layout/latest/source/BENCHMARKS.md
