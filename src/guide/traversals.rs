//! # Traversals: space-filling curves and workgroup orders
//!
//! ## Space-filling curves
//!
//! `traversal T = sfc(..)` is CK Tile's `space_filling_curve`, exactly (docs/semantics.md §4):
//! `lengths [..]` (or `over L`, the coordinates of a layout, one tile of a `dyn` one), `order
//! [..]` (loop order, outermost first), `vector [..]` (scalars per access along each dim) and
//! `snake` (inner loops turn back after odd outer steps; on by default, as in CK). The grammar
//! is in [`layout!`](crate::layout)'s reference.
//!
//! ```rust
//! swizzle::layout! {
//!     /// CK's test: lengths [16, 10, 9], order [2, 0, 1], vector [4, 2, 3], snake.
//!     traversal Ck = sfc(lengths [16, 10, 9], order [2, 0, 1], vector [4, 2, 3]);
//!     /// CK Tile's non-divisible case: 5 × 7 in 2 × 3 accesses.
//!     traversal Ragged = sfc(lengths [5, 7], vector [2, 3], snake = false);
//! }
//! assert_eq!(Ck::NUM_ACCESS, 60);
//! assert_eq!(Ck::index(5), [4, 8, 0]);            // CK's get_index
//! assert_eq!(Ck::forward_step(4), [4, 0, 0]);     // get_forward_step
//! assert_eq!(Ck::backward_step(20), [0, 0, -3]);  // get_backward_step
//! const START: [usize; 3] = Ck::index(25);        // const fn, straight-line code
//! assert_eq!(START, [8, 8, 3]);
//! // Where a vector does not divide its length, the last access is partial.
//! assert_eq!((Ragged::NUM_ACCESS, Ragged::extent(8)), (9, [1, 1]));
//! let mut offsets = Vec::new();
//! Ragged::for_each(|visit| offsets.push((visit.offset, visit.extent)));  // unrolled: constants
//! assert_eq!(offsets[2], (6, [2, 1]));
//! ```
//!
//! Each traversal is a unit type with `LENGTHS`, `ORDER`, `VECTOR`, `SNAKE`, `ACCESS_LENGTHS`,
//! `NUM_ACCESS`, the `INDICES` table, `SFC` (the curve as data, for pictures and analyses),
//! `const fn`s `index(i)`, `extent(i)` (how many scalars of access `i` are in bounds: the
//! vector, cut at the end of a dim it does not divide), `step_between(a, b)`,
//! `forward_step(i)` and `backward_step(i)`, `WGSL` (`fn <name>_index(i: u32) -> array<u32,
//! N>`, the same straight-line code as `index`, for a kernel's own loop over accesses), and
//! `for_each(|visit| ..)`: one call per access, unrolled, whose `Visit { access, index,
//! offset, extent }` fields are constants. The offset is in the walked layout for `over`,
//! row-major otherwise. Traversals over 1024 accesses loop instead of unrolling and have no
//! `INDICES`. A traversal over a tile is also how a [copy kernel](super::kernels) walks it
//! (`walk T`).
//!
//! Over a layout, every access's block must be one run of consecutive offsets; otherwise the
//! error names the transform that breaks the run and the widest vector that works:
//!
//! ```text
//! error: vector [1, 4] is not contiguous in `MortonTexture`: `morton m -> [yi, xi]` breaks the run (access 0 starts at (y=0, x=0) → 0, but (y=0, x=2) → 4, not 2); at most 2 elements along `x` are contiguous
//! ```
//!
//! Other errors: zero lengths, an `order` that is not a permutation, a vector wider than its
//! dim, a missing `lengths`/`over`, an unknown layout.
//!
//! ## Workgroup orders: `raster`
//!
//! `raster R = grouped(8);` says which tile of a grid of tiles the `g`-th workgroup works on.
//! GPUs start workgroups roughly in index order, so the order decides which tiles are in flight
//! together and how much of what they read is still in L2 (CUTLASS's threadblock swizzles,
//! Triton's `GROUP_SIZE_M`). Every order is a bijection from `0..rows × columns` onto the grid
//! for any grid size known only at run time, partial bands and squares included
//! (docs/semantics.md §7):
//!
//! | order | which tile workgroup `g` takes |
//! |---|---|
//! | `row_major` | along each row of tiles, row after row |
//! | `snake` | the same, every other row right to left: consecutive workgroups are neighbours |
//! | `grouped(n)` | bands of `n` rows of tiles; inside a band, column by column (Triton's grouped ordering, exactly); the last band has the rows that are left |
//! | `morton(n)` | the same bands cut into `n × n` squares (`n` a power of two) walked in Morton order; a square cut short by the last columns, and the last band, column by column |
//!
//! ```rust
//! swizzle::layout! {
//!     /// Bands of 4 rows of tiles, each in 4 × 4 Morton squares.
//!     raster Squares = morton(4);
//! }
//! // Workgroup 11 = 0b1011: x from the even bits (0b01), y from the odd ones (0b11).
//! assert_eq!(Squares::tile(11, [8, 8]), Some([3, 1]));
//! assert_eq!(Squares::tile(64, [8, 8]), None); // past the grid
//! assert!(Squares::WGSL.contains("fn squares(group: u32, grid_y: u32, grid_x: u32) -> vec2<u32>"));
//! ```
//!
//! A raster gets `ORDER` (the [`Raster`](crate::raster::Raster), which `swizzle::gpu`'s
//! transposes and GEMM take), `tile(group, [rows, columns])` in Rust and `WGSL`, the same
//! straight-line code as a WGSL function returning `vec2(y, x)`; its rustdoc draws the order on
//! an 8 × 8 grid. Errors: an unknown order, a group missing or given where none is taken, a
//! Morton side that is not a power of two, a group past 256.
