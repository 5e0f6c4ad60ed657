//! # Threads: thread-value layouts, tiled copies, your own WGSL kernel
//!
//! ## Thread-value layouts
//!
//! A `threads` item says which thread of a workgroup holds which elements of a tile (CuTe's
//! TV layouts, CK Tile's tile distributions). It is a layout that starts from the tile's
//! coordinates (`tile [..]`, row-major) and ends with thread coordinates and value
//! coordinates instead of `coords`; its pipeline is any pipeline of transforms. The macro
//! checks that every element of the tile is held by exactly one slot (two slots holding one
//! element are allowed only where a `replicate` stage declares it) and that the workgroup has
//! at most 1024 threads; the errors name a missing or twice-held element and the slots.
//!
//! ## Tiled copies
//!
//! `kernel K = tiled_copy(From -> To, threads T, ..)` copies one tile between `image` (a
//! row-major array in global memory whose extents are known at run time, cut into tiles of
//! `T`'s tile) and a fixed-size layout over the tile's coordinates in workgroup memory
//! (row-major, padded, XOR-swizzled: any layout), or between two such layouts. Each thread
//! moves its values in vectors as wide as `T` and the image allow (at most 16 bytes), inferred;
//! a workgroup tile whose layout breaks the vector's run takes it in the pieces it allows
//! (whole entries of its array, or single elements), and each piece is analysed as its own
//! instruction. A tile's WGSL array holds entries of as many words as every aligned run of its
//! layout along some coordinate keeps together (`array<vec4<u32>>` for a row-major or a
//! four-word XOR tile, `array<u32>` for a word XOR or a 33-word padding); the WGSL comment of a
//! copy says how it reads and writes each side. A declared `vector n` asks for whole vectors on
//! every side: one that does not fit is an error naming the side and the transform that breaks
//! the run. Options: `subgroup n` (lanes per subgroup for the analyses, default 32),
//! `buffers(src, dst)` (the WGSL arrays it reads and writes, default `source` and
//! `destination`), and assertions checked for every instruction, with the lanes as evidence:
//! `assert conflict_free`, `assert max_conflict(n)` (workgroup memory) and
//! `assert transactions(<= n)` (32-byte sectors per subgroup in global memory).
//!
//! ```rust
//! swizzle::layout! {
//!     /// The workgroup's tile, XOR-swizzled: rows and columns both conflict-free.
//!     layout XorTile {
//!         memory [y: 32, x: 32];
//!         xor x by y;
//!         coords [y, x];
//!     }
//!     /// The same tile with its coordinates swapped: how the stores read it.
//!     layout XorTileT {
//!         over XorTile [r, c];
//!         coords [c, r];
//!     }
//!     /// 128 threads: a warp reads 32 consecutive elements of a row, 8 rows per thread.
//!     threads Rows {
//!         tile [y: 32, x: 32];
//!         unmerge y -> [ty: 4, v: 8];
//!         merge [ty, x] -> thread;
//!         threads [thread];
//!         values [v];
//!     }
//!     kernel LoadTile = tiled_copy(image -> XorTile, threads Rows, buffers(input, tile),
//!         assert conflict_free, assert transactions(<= 4));
//!     kernel StoreTile = tiled_copy(XorTileT -> image, threads Rows, buffers(tile, output),
//!         assert conflict_free);
//! }
//! assert_eq!(Rows::element(33, 2), [10, 1]); // thread 33 holds (y=10, x=1) as its value 2
//! // A 40 × 70 transpose on the CPU, tile by tile, with partial tiles at the edges.
//! let (h, w) = (40, 70);
//! let input: Vec<u32> = (0..h * w).map(|i| i as u32).collect();
//! let (mut tile, mut output) = (vec![0; XorTile::SPACE], vec![0; h * w]);
//! for ty in 0..h.div_ceil(32) {
//!     for tx in 0..w.div_ceil(32) {
//!         LoadTile::run([ty, tx], [h, w], &input, &mut tile)?;
//!         StoreTile::run([tx, ty], [w, h], &tile, &mut output)?;
//!     }
//! }
//! assert_eq!(output[5 * h + 3], input[3 * w + 5]);
//! assert!(LoadTile::WGSL.contains("fn load_tile(thread: u32, tile_y: u32, tile_x: u32"));
//! # Ok::<(), swizzle::tiled_copy::CopyError>(())
//! ```
//!
//! A thread-value layout gets everything a layout gets, plus `THREADS`, `VALUES`, `TILE`,
//! `THREAD_VALUES` (the `swizzle::threads::ThreadValues` that `swizzle::gpu` and the
//! [pictures](super::analysis) take) and `element(threads…, values…)`, the tile coordinate a
//! slot holds (also in its `WGSL`).
//!
//! A tiled copy gets `VECTOR`, `THREADS`, `TILE`, and `WGSL`: one straight-line function of
//! the thread's index (every value's address a folded expression of it) and, with an image
//! side, of the tile's place and the image's extents (`fn load_tile(thread, tile_y, tile_x,
//! extent_y, extent_x)`). A tile that lies wholly inside the image runs every move unguarded;
//! at a partial tile only the moves whose element can leave the image are guarded, each by a
//! test derived from the layout. An image side moved in vectors is read as an array of
//! `vecN`s, whose rows must then be a multiple of `N` long. The generated code binds the
//! thread's own coordinates once (`let tr = thread >> 3; let tc = thread & 7;`, named after the
//! thread-value layout's dims) where the moves use them more than once. `K::run` and
//! `K::run_thread` run the same program on the CPU (thread after thread, or one thread), for
//! stepping through a kernel and testing it; bad buffers, tiles outside the image or
//! misaligned rows are `CopyError`s. The rustdoc of a tiled copy lists every instruction with
//! its bank conflicts or transactions.
//!
//! Where a workgroup tile's entries run across a thread's vectors instead of along them — a
//! tile XOR-swizzled on groups of four read through its transpose, or a column-major tile
//! written from rows — and each thread holds squares of four consecutive rows of four, the
//! copy moves a square at once: four whole entries across its rows, transposed in registers
//! (`let v0_0 = tile[…]; … output[…] = vec4(v0_0.x, v0_1.x, v0_2.x, v0_3.x);`), as CUDA's
//! `float4` transposes do, instead of sixteen single words. Interior tiles run the squares,
//! partial tiles the guarded moves; `TiledCopy::crossing` (swizzle-core) says when it
//! applies, and the copy's rustdoc says it did. The analysis (and `assert conflict_free`)
//! judges the squares, which every whole tile runs; `K::run` on the CPU moves the same
//! elements one by one.
//!
//! `swizzle show FILE` draws a thread-value layout as its tile with `thread.value` in every
//! cell, and `swizzle svg FILE --layout T` colours the tile by thread; for the `Rows` layout
//! above:
//!
//! ```text
//! thread.value of each tile element:
//!   0.0   1.0   2.0   3.0 …  31.0
//!   0.1   1.1   2.1   3.1 …  31.1
//!   …
//!   0.7   1.7   2.7   3.7 …  31.7
//!  32.0  33.0  34.0  35.0 …  63.0
//!   …
//! ```
//!
//! ## Transposes on the GPU from tiled copies
//!
//! `swizzle::gpu` (feature `gpu`, see [gpu](super::gpu)) builds its transposes from these
//! pieces: `gpu.transpose_kernel(h, w, &Transpose::new(&Tile::DESCRIPTOR,
//! Threads::THREAD_VALUES))` loads each tile of the input with a tiled copy into a workgroup
//! tile in `Tile`'s layout, and stores the tile read through its transpose; the loads and the
//! stores may have their own thread-value layouts, and the workgroups may take the tiles in any
//! [`raster`](super::traversals) order (`Transpose { tile, loads, stores, bounds_checks, order
//! }`). It returns the kernel with the vector widths and every instruction's bank conflicts and
//! transactions (`worst_conflict()`), known before it runs; `transpose.wgsl(h, w)` prints the
//! same module without a device (feature `wgsl`). `examples/gpu_transpose.rs` runs
//! three tiles side by side; how the reported conflicts show in the measured speed is in
//! [BENCHMARKS.md], "GPU packs, unpacks and transposes".
//!
//! ## Your own WGSL kernel from generated pieces
//!
//! A kernel of your own pastes the generated functions into its module and calls them; the
//! same pieces run on the CPU, so the kernel can be checked there first.
//! `examples/user_kernel.rs` (also a test on lavapipe) builds `output = 2 · inputᵀ` this way:
//! a `raster` picks each workgroup's tile, a tiled copy loads it into an XOR-swizzled
//! workgroup tile in `vec4`s (`assert conflict_free` holds at compile time), the kernel's own
//! code doubles the tile, and a second tiled copy stores it transposed:
//!
//! ```wgsl
//! @group(0) @binding(0) var<storage, read> input: array<vec4<u32>>;
//! @group(0) @binding(1) var<storage, read_write> output: array<vec4<u32>>;
//! var<workgroup> tile: array<vec4<u32>, 256>;   // `Tile` holds whole vec4 entries
//!
//! // LoadTile::WGSL, StoreTile::WGSL and Order::WGSL, pasted here
//!
//! @compute @workgroup_size(64)                  // Movers::THREADS
//! fn main(@builtin(local_invocation_index) thread: u32,
//!         @builtin(workgroup_id) group: vec3<u32>) {
//!     let at = order(group.x, GRID_Y, GRID_X);  // the raster: which tile
//!     load_tile(thread, at.x, at.y, HEIGHT, WIDTH);
//!     workgroupBarrier();
//!     for (var k = 0u; k < 4u; k += 1u) {       // the kernel's own work
//!         tile[thread * 4u + k] = tile[thread * 4u + k] * 2u;
//!     }
//!     workgroupBarrier();
//!     store_tile(thread, at.y, at.x, WIDTH, HEIGHT);
//! }
//! ```
//!
//! `gpu.wgsl_kernel(name, &module, workgroups, [input_len, output_len])` compiles such a
//! module (validated by naga first: an error quotes the line) into a `Kernel` that runs and
//! times like the library's own. On the CPU the same kernel is `Order::tile(g, grid)`,
//! `LoadTile::run(tile, extents, &input, &mut tile)`, the work, and `StoreTile::run(..)`,
//! workgroup after workgroup.
//!
//! [BENCHMARKS.md]: https://docs.rs/crate/swizzle-layout/latest/source/BENCHMARKS.md
