//! # CPU kernels: batches of offsets, copy kernels, views and transposes
//!
//! Measurements of everything in this chapter are in [BENCHMARKS.md].
//!
//! ## Batches of offsets
//!
//! `offset` is a `const fn` for one coordinate. For many coordinates at once,
//! [`swizzle::offsets`](crate::offsets) runs the same inlined code in a loop compiled for the
//! widest SIMD the CPU offers: AVX-512 or AVX2 on x86-64, detected at run time once per call,
//! with the baseline target everywhere else. It checks bounds and padding in the same pass, so
//! a bad coordinate is an error naming its index, never a silent wrong offset.
//!
//! ```rust
//! swizzle::layout! {
//!     layout Morton { memory [m: 256]; morton m -> [y: 16, x: 16]; coords [y, x]; }
//! }
//! let coords = [[0, 0], [1, 2], [15, 15]];
//! let mut out = [0; 3];
//! swizzle::offsets::<Morton, 2>(&coords, &mut out)?;
//! assert_eq!(out, [0, 6, 255]);
//!
//! let error = swizzle::offsets::<Morton, 2>(&[[3, 16]], &mut out[..1]).unwrap_err();
//! assert_eq!(error.to_string(), "coordinate 0: coordinate x = 16 is out of bounds 0..16");
//! # Ok::<(), swizzle::batch::BatchError>(())
//! ```
//!
//! `swizzle::batch::offsets_with(Level::Avx2, ..)` pins one level (`Level::detect()`, the widest
//! this CPU runs, is used; the SIMD levels are `kernel::Level`, which the copy kernels take too,
//! and at `Level::Neon` the loop runs the baseline). Each level is tested against the scalar
//! path.
//!
//! Narrow coordinates run more lanes at once. `batch::offsets_u32` takes rows of `u16` or `u32`
//! coordinates and `batch::offsets_columns` one array per coordinate (structure of arrays, as
//! columnar data and GPU buffers hold them); both write `u32` offsets, so the same generated
//! code runs in 32-bit lanes (8 per AVX2 register instead of 4). A layout whose element space
//! does not fit `u32` is `BatchError::Wide`; columns of different lengths are
//! `BatchError::Length`. Both have `_with` variants that pin the level. On AVX2 (no cheap
//! gather) rows are split into one column per coordinate, 512 at a time, before the
//! conversion.
//!
//! ```rust
//! # swizzle::layout! {
//! #     layout Morton { memory [m: 256]; morton m -> [y: 16, x: 16]; coords [y, x]; }
//! # }
//! use swizzle::batch::{offsets_columns, offsets_u32};
//! let (ys, xs): ([u16; 3], [u16; 3]) = ([0, 1, 15], [0, 2, 15]);
//! let mut out = [0u32; 3];
//! offsets_columns::<Morton, u16, 2>([&ys, &xs], &mut out)?;
//! assert_eq!(out, [0, 6, 255]);
//! offsets_u32::<Morton, u32, 2>(&[[1, 2]], &mut out[..1])?;
//! assert_eq!(out[0], 6);
//! # Ok::<(), swizzle::batch::BatchError>(())
//! ```
//!
//! ## Copy kernels
//!
//! `kernel K = pack(L)` copies a row-major array into layout `L`, `unpack(L)` copies back,
//! and `copy(A -> B)` moves data between two layouts over the same coordinates (the same tile
//! and grid when they are `dyn`). Options: `walk T` visits each tile in the order of
//! [traversal](super::traversals) `T` (over the tile), or `vector n` sets the run length; by
//! default the kernel walks the tile row-major with the longest run contiguous on both sides
//! (CuTe's max-common-vector), which the macro infers.
//!
//! ```rust
//! swizzle::layout! {
//!     layout MortonTiles {
//!         memory [ty: dyn, tx: dyn, m: 64];
//!         morton m -> [yi: 8, xi: 8];
//!         merge [ty, yi] -> y;
//!         merge [tx, xi] -> x;
//!         coords [y, x];
//!     }
//!     layout XorTiles {
//!         memory [ty: dyn, tx: dyn, r: 8, c: 8];
//!         xor c by r;
//!         merge [ty, r] -> y;
//!         merge [tx, c] -> x;
//!         coords [y, x];
//!     }
//!     kernel Pack = pack(MortonTiles);
//!     kernel Unpack = unpack(MortonTiles);
//!     kernel Retile = copy(MortonTiles -> XorTiles);
//! }
//! let (morton, xor) = (MortonTiles::new(100, 60)?, XorTiles::new(100, 60)?);
//! let image: Vec<f32> = (0..6000).map(|i| i as f32).collect();
//! let mut tiles = vec![0.0; morton.space()];
//! Pack::run(&morton, &image, &mut tiles)?;
//! assert_eq!(tiles[morton.offset(99, 59)], 5999.0);
//! assert_eq!(Pack::VECTOR, 2);                       // Morton keeps pairs together
//! let mut swizzled = vec![0.0; xor.space()];
//! Retile::run(&morton, &xor, &tiles, &mut swizzled)?;
//! let mut back = vec![0.0; 6000];
//! Unpack::run(&morton, &tiles, &mut back)?;
//! assert_eq!(back, image);
//! let error = Pack::run(&morton, &image[1..], &mut tiles).unwrap_err();
//! assert_eq!(error.to_string(), "the source has 5999 elements but its layout needs 6000: give a buffer of exactly 6000");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! For a fixed-size layout `run` takes just the two buffers. The macro plans one tile to check
//! the kernel and to document it (the rustdoc lists the runs and networks); `K::plan()` plans
//! it again at first use from the layouts' descriptors and the walk, so that the expansion
//! stays a few lines however large the tile. A plan holds:
//!
//! - **runs**: in the walk's order, the stretches along the last coordinate that are
//!   consecutive on both sides, cut where padding starts;
//! - **permute-and-blend networks**: for each register width that fits (4 to 64 elements:
//!   32- and 64-byte registers of 1-, 2-, 4- and 8-byte elements), every destination register
//!   of a full tile built from whole source registers, one permute and one blend per source
//!   register it draws on. Every load and every store is a full vector, even where runs are
//!   shorter than a register (Morton's runs of 2). A network is kept only where a step moves
//!   two lanes or more on average, or a register has at most four lanes (a 4 × 4 transpose
//!   of 16-byte texels is four loads, its permutes in pairs and four whole stores).
//!
//! The macro emits a kernel's full tiles as constant tables, `impl FullTiles for K`
//! (doc-hidden, through `swizzle::__private::simd`), a few lines of data per network:
//!
//! - **`NETWORKS`**: each network that the runtime unrolls (two-coordinate tiles, at most 256
//!   permute steps, no register across two image rows) once per lane count, whatever the
//!   level and element size that use it: where its registers start on each side
//!   (`every::<n>(lanes)` where they are every register of the tile in order), and per step
//!   its store, its load, the lanes it writes (a hexadecimal mask) and its lane map
//!   (each distinct map once);
//! - **`RUNS`**: for two-coordinate tiles of up to 256 runs, every run of the tile (its
//!   offsets on both sides, the image's being its row-major index in the tile, and its
//!   length): the straight-line tile, what copies full tiles of element sizes no level has a
//!   network for;
//! - **`IMAGE`**: which side is the row-major image, and the tile's columns.
//!
//! The runtime's SIMD rows (AVX-512, AVX2 and NEON, generic over the kernel and the element
//! type) unroll the network of the level's lane count for `E`'s size, and its straight-line
//! tile unrolls `RUNS`. Every step's offsets and permute control are computed at compile time,
//! once per kernel, level and element type, with `swizzle_core::simd::Permute` (the function
//! from a step to its control that the interpreted networks use too), so that after inlining
//! each tile is loads, permutes, blends and stores at constant offsets with constant
//! controls, the image's rows bound once each, as if the macro had printed them.
//! `K::code::<E>()` hands the rows of `E`'s size and the straight-line tile to the runtime.
//! The tables of an 8 × 8 tile whose columns are XOR-swizzled by the row (snapshot
//! `simd_rows`): every store of 8 lanes is one permute of one image row, in 4-lane registers
//! two image rows' halves swap:
//!
//! ```text
//! impl ::swizzle::__private::simd::FullTiles for PackXor8 {
//!     const IMAGE: Option<(usize, usize)> = Some((0, 8));
//!     const NETWORKS: &'static [::swizzle::__private::simd::Network] = &[
//!         ::swizzle::__private::simd::Network {
//!             lanes: 4,
//!             // … 16 loads, 16 stores, 16 steps
//!         },
//!         ::swizzle::__private::simd::Network {
//!             lanes: 8,
//!             loads: &::swizzle::__private::simd::every::<8>(8),
//!             stores: &::swizzle::__private::simd::every::<8>(8),
//!             steps: &[
//!                 (0, 0, 0xff, 0),
//!                 (1, 1, 0xff, 1),
//!                 // … one step per store
//!             ],
//!             maps: &[
//!                 &[0, 1, 2, 3, 4, 5, 6, 7],
//!                 &[1, 0, 3, 2, 5, 4, 7, 6],
//!                 // … one map per row
//!             ],
//!         },
//!     ];
//!     const RUNS: &'static [::swizzle::__private::simd::Run] = &[
//!         (0, 0, 1),
//!         (1, 1, 1),
//!         // … 64 runs of one element
//!     ];
//! }
//! ```
//!
//! Elements of 4 and 8 bytes move as words: AVX2 builds a register with `vpermd` per source
//! register and `vpblendd` (immediate masks); AVX-512 with one two-source `vpermt2d` for the
//! first two and a masked `vpermd` per further one. Narrower elements move as bytes: AVX-512
//! VBMI's `vpermt2b` and masked `vpermb`, and on AVX2 two in-lane `vpshufb` (of the register
//! and of its halves swapped) picked per byte, then `vpblendvb`. NEON moves bytes for every
//! size, with `tbl`/`tbx` over one or two registers. The code calls the operations of the
//! runtime's SIMD tokens (`Avx512`, `Avx2`, `Neon`, behind `swizzle::__private`), which only
//! run-time detection makes: safe functions on byte slices, so the rows hold no `unsafe`
//! (every register lies at a constant offset in its image row or tile, so the bounds checks
//! fold), and `vectorize` compiles them for the level. The compiler turns constant controls
//! into immediates where an instruction takes one (`vpermq`, `vpermpd`). The SIMD rows cost
//! compile time ([BENCHMARKS.md], "Copy kernels", has the figure).
//!
//! ## What `run` does
//!
//! `run` copies full tiles with the widest level this CPU runs that has generated rows for
//! the element size and whose registers hold the tile's source registers (past them the rows
//! would spill); without one, through the straight-line tile where the macro emitted one,
//! else through the widest interpreted network whose controls stay in the L1 cache, else in
//! runs. `K::route::<E>(options)` says which, and why, without copying: a `kernel::Route`
//! whose `level` is the SIMD level, `tiles` what copies full tiles (`TileCopy::GeneratedRows`,
//! `InterpretedNetwork`, `StraightLineTile` or `Runs`) and `reason` why (`Reason`: the widest
//! level with generated rows, the level pinned by the options, …); its `Display` says it in
//! one line. `run_with` with the same options takes that route.
//!
//! A tile may be too tall for the registers while it is a stack of small ones: a block of 16
//! Tegra X1 GOBs (`memory [by: dyn, bx: dyn, gy: 16, …]; merge [by, gy, …] -> y;`) is 16
//! tiles of 8 rows stored one after another along `y`. Where a layout's outermost digit
//! inside the tile is the first coordinate's `merge` digit right below its grid dim, and
//! read by nothing else (`swizzle::ir::Descriptor::as_stacked`, checked on the interpreter),
//! the macro plans the sub-tile too (`swizzle_core::plans::kernel::stacked`, for pack and
//! unpack with the default walk), and where the sub-tile's generated rows are taken wherever
//! the whole tile's are and somewhere they are not, the entry points and `route` copy the
//! sub-tiles, stacked (`Frame::Stacked`, `stack` tiles of `n` sub-tiles each): the same
//! bytes, the GOB's rows. The kernel's rustdoc says so. `K::plan()` and `K::code()` still
//! describe the whole tile, for copies by hand over its grid (`Frame::Tiles`).
//!
//! Where tiles lie in an order of their own, `Frame::Placed` takes one table of starts per
//! coordinate: the tile at grid coordinates `g` starts `Σ starts[i][g[i]]` elements into the
//! buffer. Any order whose offset splits into a term per coordinate fits, which is every
//! Morton or `bits` order of tiles: the PS3's squares and D3D12's 64 KB tiles are copied as
//! 16 × 16 sub-tiles and 2 KB halves of 4 KB ones placed so (`swizzle::texture`), sized for
//! their kernels' SIMD rows to fit the register file, each run of tiles equally spaced on
//! both sides in one call. A placed destination is one band: to spread the copy over
//! threads, give each thread its own part (D3D12's levels go in parts of 256 KiB or so:
//! rows of sub-tiles, runs of tiles). Such runs are short (a pair of sub-tiles side by
//! side), so a copy from placed tiles writes through the cache, never streaming.
//!
//! At run time [`swizzle::kernel`](crate::kernel) checks the buffer lengths and extents
//! (errors, never UB), walks the grid of tiles, and copies each row of full tiles with the
//! generated rows of the level, or the interpreted network where there are none: AVX-512 (F,
//! BW, VBMI: one masked `vpermb` per step), AVX2 (`vpermd` for 4- and 8-byte elements; two
//! in-lane `pshufb` and a blend otherwise); a level with neither (NEON without generated rows)
//! copies in runs. Edge tiles of images that are not multiples of the tile are copied in runs
//! cut at the extents; elements that hold no coordinate (padding, the outside of edge tiles)
//! are left as they were. Destinations of 1 MiB and more are split into bands of tiles across
//! threads (rayon): rows of tiles (of stacks, for a block-linear destination), or, where a
//! two-coordinate destination's rows are fewer than the threads (a 1024-row level of
//! 128-row blocks is eight rows) or hold more than 256 KiB, runs of consecutive tiles or
//! stacks, across rows' ends, of at most 256 KiB and at least one per thread. Where the
//! cache would not keep the destination — each of several writing
//! threads writes more than three quarters of its share of the last-level cache (its size
//! from CPUID; 8 MiB where the CPU does not say), or a lone thread more than its core's L2 —
//! the SIMD rows write around the caches (`vmovntdq`) where a tile writes whole cache lines
//! (rows that start off a line go through a small aligned stage); smaller destinations stay
//! in the cache for whatever reads them next, as `memcpy` leaves them. `Options::stores`
//! overrides the rule (`Stores::Cached`, `Stores::Streaming`). Elements are any
//! `bytemuck::Pod` type (`u8` … `u128`); sizes other than 1, 2, 4, 8 and 16 bytes copy in runs
//! (16-byte elements, such as BC blocks, have AVX-512's networks of four lanes only).
//! For a plan copied by hand, with no generated code, `kernel::route::<E>(plan, options)`
//! says the same (`kernel::interpreted_level::<E>(plan)` is the network level it detects).
//!
//! `K::run_with(&layout, options, src, dst)` takes `kernel::Options`: `.level(Level::Avx2)`
//! pins a level (one the CPU lacks is `KernelError::Unsupported`, never a silent fallback),
//! `.threads(n)` runs on at most `n` threads whatever the size (1: the calling thread; by
//! default rayon's pool from 1 MiB on). `K::run_bytes(&layout, element_size, src, dst)`
//! copies byte buffers of 1-, 2-, 3-, 4-, 6-, 8-, 12- or 16-byte elements (RGB8, RGBA16,
//! RGBA32F pixels of a file format, with no cast and no alignment needed; 1, 2, 4, 8 and 16
//! bytes keep the SIMD networks); a buffer of partial elements is `KernelError::Bytes`, another size
//! `KernelError::ElementSize`. The runtime functions behind them are public
//! (`kernel::copy_with`, `kernel::copy_bytes`) for sides built by hand.
//!
//! ```rust
//! use swizzle::kernel::{Level, Options, Reason};
//! swizzle::layout! {
//!     layout Xor8 { memory [r: 8, c: 8]; xor c by r; coords [r, c]; }
//!     kernel PackXor = pack(Xor8);
//! }
//! let image: Vec<u32> = (0..64).collect();
//! let mut tile = vec![0u32; Xor8::SPACE];
//! // A fixed-size layout takes no layout value: pin the portable level, on this thread.
//! let options = Options::default().level(Level::Scalar).threads(1);
//! PackXor::run_with(options, &image, &mut tile)?;
//! assert_eq!(tile[Xor8::offset(3, 5)], 3 * 8 + 5);
//! // The route those options give, and the one this CPU takes by default:
//! let pinned = PackXor::route::<u32>(options)?;
//! assert_eq!((pinned.level, pinned.reason), (Level::Scalar, Reason::Pinned));
//! println!("{}", PackXor::route::<u32>(Options::default())?);
//! // Pixels of 3 bytes, as a file format stores them:
//! let rgb: Vec<u8> = (0..64 * 3).map(|i| i as u8).collect();
//! let mut tiled = vec![0u8; Xor8::SPACE * 3];
//! PackXor::run_bytes(3, &rgb, &mut tiled)?;
//! assert_eq!(tiled[Xor8::offset(0, 1) * 3], 3);
//! # Ok::<(), swizzle::kernel::KernelError>(())
//! ```
//!
//! ## Views: images that are not dense row-major arrays
//!
//! Real images have rows wider than their width (texture rows, padded scanlines), are stored
//! column-major, or are a rectangle of a larger image. A `kernel::View` says where each
//! coordinate lies (`origin + Σ cᵢ · strides[i]`), and pack and unpack kernels take one for
//! the image side with `run_view`:
//!
//! ```rust
//! use swizzle::kernel::View;
//! swizzle::layout! {
//!     layout Tiles8 {
//!         memory [ty: dyn, tx: dyn, m: 64];
//!         morton m -> [yi: 8, xi: 8];
//!         merge [ty, yi] -> y;
//!         merge [tx, xi] -> x;
//!         coords [y, x];
//!     }
//!     kernel Pack8 = pack(Tiles8);
//!     kernel Unpack8 = unpack(Tiles8);
//! }
//! let tiles = Tiles8::new(30, 20)?;
//! // Rows of 20 elements, 32 apart (a texture's pitch).
//! let pitched = View::pitched(&[30, 20], 32)?;
//! let texture: Vec<u16> = (0..30 * 32).map(|i| i as u16).collect();
//! let mut packed = vec![0; tiles.space()];
//! Pack8::run_view(&tiles, &pitched, &texture, &mut packed)?;
//! assert_eq!(packed[tiles.offset(29, 19)], texture[29 * 32 + 19]);
//! // The 30 × 20 rectangle at (5, 7) of a 40 × 64 image, written back in place.
//! let mut image = vec![0u16; 40 * 64];
//! let window = View::row_major(&[40, 64])?.sub_view(&[5, 7], &[30, 20])?;
//! Unpack8::run_view(&tiles, &window, &packed, &mut image)?;
//! assert_eq!(image[(5 + 29) * 64 + 7 + 19], texture[29 * 32 + 19]);
//! // Column-major (`View::column_major`), any order (`View::in_order`), any strides
//! // (`View::strided`, checked). Errors are typed and say what to change:
//! let error = View::pitched(&[30, 20], 16).unwrap_err();
//! assert_eq!(error.to_string(), "a row pitch of 16 is smaller than the row's 20 elements: rows would overlap; give a pitch of at least 20");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A view's buffer may be longer than the view reaches; only the view's elements are read or
//! written. Views are checked when built and again by the copy: rows that overlap (a pitch
//! below the width, strides that put two coordinates on one element), a sub-view outside its
//! image, an order that is not a permutation, and a buffer shorter than the view are
//! `KernelError`s. Full tiles of a view whose rows are contiguous still use the permute
//! networks; a column-major side is copied element by element inside each tile.
//!
//! ## Transposes
//!
//! Between two views of the same extents there is no layout to plan:
//! `kernel::copy_views(&from, &to, src, dst)` copies lines where both store the same
//! coordinate fastest, and otherwise transposes:
//!
//! ```rust
//! use swizzle::kernel::{View, copy_views};
//! let (h, w) = (37, 70);
//! let matrix: Vec<f32> = (0..h * w).map(|i| i as f32).collect();
//! let mut transposed = vec![0.0f32; h * w];
//! copy_views(&View::row_major(&[h, w])?, &View::column_major(&[h, w])?, &matrix, &mut transposed)?;
//! assert_eq!(transposed[5 * h + 3], matrix[3 * w + 5]); // element (3, 5), stored column-major
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The destination is cut into bands of 64 rows (one per thread above 1 MiB) and blocks of 512
//! columns; inside a block, squares are transposed in registers: with AVX-512, 16 × 16 of
//! 4-byte elements (8 × 8 of 8-byte ones), each line of a square one 64-byte register, written
//! straight into the destination; with AVX2, 8 × 8 (4 × 4) staged through a tile in L1 so that
//! every cache line is written whole. Other element sizes, edges and non-x86 CPUs take scalar
//! code (`copy_views_with(Level::Scalar.into(), ..)` pins it). Views of more coordinates are copied plane by plane (a batch of matrices:
//! each transposed). `cargo bench --bench transpose` compares it with the `transpose` crate.
//!
//! ## Errors
//!
//! Kernel declarations are checked at compile time, and the errors name what to change: an
//! unknown layout or traversal, a copy between layouts with other coordinates, a `walk` over
//! other lengths than the tile, `vector` and `walk` together, a vector that does not divide
//! the tile's row, a tile over 65 536 elements, a layout without coordinates, and a vector or
//! walk that is not contiguous on one side:
//!
//! ```text
//! error: runs of 4 elements along `x` are not contiguous in `Morton`: `morton m -> [y, x]` breaks the run; at most 2 are contiguous on both sides: use vector 2
//! ```
//!
//! Block-linear textures (tiles stacked at run time) are in [textures](super::textures).
//!
//! [BENCHMARKS.md]: https://docs.rs/crate/swizzle-layout/latest/source/BENCHMARKS.md
