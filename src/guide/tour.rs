//! # A tour: layouts, transforms, composition, run-time extents
//!
//! The reference for every statement is [`layout!`](crate::layout)'s documentation (the grammar
//! and the transform table); this chapter shows them at work. The normative semantics, with
//! the fixed points the tests check, is [docs/semantics.md].
//!
//! ## What a layout is
//!
//! A layout starts from **memory** (the bottom) and stacks transforms on it. Each transform
//! consumes some existing dims (its *lower* dims, closer to memory) and introduces new ones
//! (its *upper* dims, closer to you). Dims a transform does not touch pass through unchanged.
//! The dims left at the end are your **coordinates**, listed by `coords [..]` in the order
//! `offset` takes them. Evaluating a layout runs the transforms newest first, each computing
//! its lower index from its upper index, until the memory offset is reached. This is CK Tile's
//! tensor-descriptor model, and its names are kept (`unmerge`, `merge`, `xor`, `embed`, `pad`).
//!
//! CK Tile's universal-GEMM A tile in LDS (fp16, M = 128, K = 32, KPack = 8), XOR-preshuffled
//! against bank conflicts, reads like this:
//!
//! ```rust
//! swizzle::layout! {
//!     pub layout LdsA {
//!         const M = 128; const K = 32; const KPACK = 8;
//!         const L = 2; const K0 = K / KPACK;
//!         memory [k0l: K0 * L, mr: M / L, k1: KPACK] strides [KPACK, K * L, 1];
//!         xor k0l by mr;
//!         unmerge k0l -> [l: L, k0: K0];
//!         merge [mr, l] -> m;
//!         merge [k0, k1] -> k;
//!         coords [m, k];
//!     }
//! }
//! assert_eq!(LdsA::offset(64, 9), 2057);
//! ```
//!
//! It compiles to `k ^ ((m & 0b1110) << 2) ^ (m << 5)`. A name refers to the newest dim of
//! that name, so `xor k0l by mr` replaces `k0l` with its swizzled self. Several layouts may
//! share one invocation; doc comments and visibility carry over to the generated type.
//!
//! ## Bit matrices and shifts
//!
//! A GF(2) map (`bits`) states each address bit as the XOR of coordinate bits, as Triton's
//! linear layouts and AMD's texture tiling do; its matrix decides bijectivity, and `inverse;`
//! gets the inverse matrix as straight-line code. `cyclic_shift` is CK's rotation:
//!
//! ```rust
//! swizzle::layout! {
//!     /// A 32×64 surface: bits interleaved, then a pipe bit y[4] ^ x[5] ^ x[4].
//!     layout Tiled {
//!         memory [a: 2048];
//!         bits a -> [y: 32, x: 64] (
//!             x[0], y[0], x[1], y[1], x[2], y[2], x[3], y[3], x[4], y[4] ^ x[5] ^ x[4], x[5]
//!         );
//!         coords [y, x];
//!         inverse;
//!     }
//!
//!     /// Row r of a 6×5 tile rotated by r (CK's cyclic shift): the columns a thread reads
//!     /// down a column land in different banks.
//!     layout Rotated {
//!         memory [r: 6, c: 5];
//!         cyclic_shift c by r;
//!         coords [r, c];
//!         inverse;
//!     }
//! }
//!
//! assert_eq!(Tiled::offset(16, 16), 1 << 8); // bit 8 is x[4]; bit 9 is 1 ^ 0 ^ 1 = 0
//! assert_eq!(Tiled::coord(Tiled::offset(21, 37)), [21, 37]);
//! assert_eq!(Rotated::offset(2, 4), 2 * 5 + (4 + 2) % 5);
//! ```
//!
//! ## Layouts over layouts
//!
//! `over Base;` starts a layout from the coordinates of a layout declared before it in the
//! invocation, instead of from memory (renamed with `over Base [a, b];`). Its pipeline maps its
//! own coordinates onto `Base`'s, and its offset is `Base`'s offset of those: CuTe's
//! composition, CK's chained adaptors. Splitting `Base`'s coordinates into tiles and places in
//! them is CuTe's zipped divide:
//!
//! ```rust
//! swizzle::layout! {
//!     /// CK Tile's LDS tile (fp16, M = 128, K = 32, KPack = 8).
//!     layout LdsA {
//!         const KPACK = 8; const L = 2; const K0 = 4;
//!         memory [k0l: K0 * L, mr: 64, k1: KPACK] strides [KPACK, 32 * L, 1];
//!         xor k0l by mr;
//!         unmerge k0l -> [l: L, k0: K0];
//!         merge [mr, l] -> m;
//!         merge [k0, k1] -> k;
//!         coords [m, k];
//!     }
//!
//!     /// The same tile as 8 × 4 tiles of 16 × 8 elements.
//!     layout LdsTiles {
//!         over LdsA [m, k];
//!         unmerge m -> [tm: 8, im: 16];
//!         unmerge k -> [tk: 4, ik: 8];
//!         coords [tm, tk, im, ik];
//!     }
//! }
//!
//! assert_eq!(LdsTiles::offset(4, 1, 0, 1), LdsA::offset(64, 9));
//! ```
//!
//! The composed layout is one pipeline (`Base`'s stages, then its own), so everything a layout
//! gets (straight-line code, inverse, WGSL, analyses, pictures) it gets too.
//!
//! ## Run-time extents: tiles in a grid
//!
//! A layout usually describes one tile whose lengths are known at compile time. Real images
//! are as large as they are at run time. Mark the outer memory dims `dyn`: each one counts
//! tiles, along the coordinate it becomes (directly, or as the slowest digit of a `merge`).
//! The tile keeps its straight-line, compile-time code; the grid is a run-time loop.
//!
//! ```rust
//! swizzle::layout! {
//!     /// An image of any size stored as 8×8 tiles, Morton order inside each tile.
//!     pub layout MortonTiles {
//!         memory [ty: dyn, tx: dyn, m: 64];
//!         morton m -> [yi: 8, xi: 8];
//!         merge [ty, yi] -> y;
//!         merge [tx, xi] -> x;
//!         coords [y, x];
//!         inverse;
//!     }
//! }
//! let image = MortonTiles::new(13, 20)?;     // 13 × 20 pixels: 2 × 3 tiles, the last ones partial
//! assert_eq!(image.tiles(), [2, 3]);
//! assert_eq!(image.space(), 6 * 64);         // whole tiles: a buffer of this many elements
//! assert_eq!(image.offset(9, 17), 5 * 64 + MortonTiles::tile_offset(1, 1)); // tile (1, 2) is 5th
//! assert_eq!(image.coord(5 * 64 + 3), [9, 17]);
//! assert!(image.is_valid(12, 19) && !image.is_valid(13, 0));
//! # Ok::<(), swizzle::ExtentError>(())
//! ```
//!
//! A `dyn` layout is a value (`new(extents…)` fails with [`ExtentError`](crate::ExtentError)
//! when the space would overflow `usize`) with `extents()`, `tiles()`, `space()`, `offset`,
//! `is_valid` and, with `inverse;`, `coord`; the type keeps the tile's `TILE`, `TILE_SPACE`,
//! `DESCRIPTOR` and the `const fn tile_offset` / `tile_coord`. Tiles are stored row-major over
//! the grid, each a whole copy of the tile's element space. `dyn` dims must be the outermost
//! memory dims, be consumed only by `merge` (as its slowest digit), by an `unmerge` that divides
//! them into blocks counted at run time (below), or become coordinates, and cannot have
//! strides; each misuse is a compile error.
//!
//! ### Blocks counted at run time
//!
//! A base with `dyn` dims keeps its grid of tiles, and a run-time coordinate of it can be
//! divided into blocks counted at run time (CuTe's `zipped_divide` with a dynamic rest mode):
//! `unmerge y -> [by: dyn, iy: 4];` cuts `y` into blocks of 4, `by` says which. The block must
//! divide the base's tile along `y` (4 divides 8 below), so every block lies in one tile and
//! the composed layout is again a grid of tiles: a value built with `new` from the block
//! counts, with the base's offsets at the blocks' coordinates.
//!
//! ```rust
//! swizzle::layout! {
//!     /// An image of any size stored as 8 × 8 tiles, Morton order inside each tile.
//!     layout MortonTiles {
//!         memory [ty: dyn, tx: dyn, m: 64];
//!         morton m -> [yi: 8, xi: 8];
//!         merge [ty, yi] -> y;
//!         merge [tx, xi] -> x;
//!         coords [y, x];
//!     }
//!
//!     /// The same image as blocks of 4 × 2 pixels: which block, and where in it.
//!     layout MortonBlocks {
//!         over MortonTiles;
//!         unmerge y -> [by: dyn, iy: 4];
//!         unmerge x -> [bx: dyn, ix: 2];
//!         coords [by, bx, iy, ix];
//!     }
//! }
//!
//! let image = MortonTiles::new(20, 34)?;
//! let blocks = MortonBlocks::new(5, 17)?;            // ceil(20 / 4) × ceil(34 / 2) blocks
//! assert_eq!(blocks.extents(), [5, 17, 4, 2]);
//! assert_eq!(blocks.offset(3, 9, 1, 1), image.offset(3 * 4 + 1, 9 * 2 + 1));
//! # Ok::<(), swizzle::ExtentError>(())
//! ```
//!
//! A block that does not divide the tile, a divided part other than the outermost marked
//! `dyn`, or a run-time dim split without one are compile errors.
//!
//! ## What you get
//!
//! Each layout becomes a zero-sized type with `SHAPE`, `SIZE`, `SPACE`, a `const fn offset`
//! (no loops, calls or run-time divisions; bounds and padding checked by `debug_assert!`), its
//! inverse `coord` when the layout is a bijection, `is_valid` for padded layouts, the checked
//! IR as `DESCRIPTOR` (whose `offset` is the reference interpreter), the same functions as
//! `WGSL`, and the [`Layout`](crate::Layout) and [`Bijective`](crate::Bijective) traits with
//! checked `try_offset` / `try_coord`. The full list is in [`layout!`](crate::layout)'s
//! reference. Offsets are `const fn`, so they work in constants:
//!
//! ```rust
//! swizzle::layout! {
//!     layout Morton4 { memory [n: 16]; morton n -> [y: 4, x: 4]; coords [y, x]; inverse; }
//! }
//! use swizzle::{Bijective, Layout};
//! const CORNER: usize = Morton4::offset(3, 3);
//! assert_eq!(CORNER, 15);
//! assert_eq!(Morton4::SHAPE, [4, 4]);
//! assert!(<Morton4 as Layout<2>>::try_offset([4, 0]).is_err()); // out of bounds: an error
//! assert_eq!(<Morton4 as Bijective<2>>::try_coord(6).unwrap(), [1, 2]);
//! assert_eq!(Morton4::DESCRIPTOR.offset(&[1, 2]).unwrap(), 6); // the reference interpreter
//! ```
//!
//! The rustdoc of 1-D and 2-D layouts up to 16×16 shows the offset table; read the code with
//! `cargo expand` (`cargo install cargo-expand`).
//!
//! ## How the code is folded
//!
//! The macro lowers the pipeline symbolically, newest transform first, into a normal form.
//! Affine sums collect like terms, a division or remainder that ranges prove redundant
//! disappears, `x / m · m + x % m` becomes `x` again, and power-of-two factors and divisors
//! become shifts and masks. A chain of `unmerge`/`merge`/`embed` therefore becomes one
//! multiply-add per coordinate.
//!
//! When the whole map is affine over F2 (every offset bit an XOR of coordinate bits, as in
//! Triton's linear layouts), the macro uses that bit matrix instead. This covers power-of-two
//! `unmerge`, `merge`, `xor`, `morton`, `swizzle` and bit-disjoint strides. The matrix:
//!
//! - decides bijectivity exactly (its kernel names two colliding coordinates);
//! - is inverted by Gauss–Jordan elimination to give `coord`;
//! - is emitted as one mask-and-shift term per (coordinate, shift) pair.
//!
//! Mixed pipelines keep integer arithmetic and get their inverse by running each transform
//! upwards. Subexpressions used twice become locals named after the dim they compute
//! (`let i = a * 10 + b;`).
//!
//! Expansion grows linearly with the pipeline, however long. Most pipelines fold into a small
//! expression; some never simplify (alternating `xor a by b; xor b by a;`, or `merge` and
//! `unmerge` over rotating mixed radices), and their folded form would double every few
//! transforms. When one expression passes the symbolic budget (4096 nodes, or 64 levels of
//! nesting; see [the checks](super::checks)), the macro lowers the layout another way: as an F2
//! matrix computed transform by transform on bit vectors when the layout is F2-affine (so a
//! chain of 256 `xor`s becomes one mask-and-shift expression, with its inverse), else in
//! stages: every intermediate value past 64 nodes becomes a `let` named after its dim, in the
//! Rust and the WGSL alike. Expansion times are in [BENCHMARKS.md], "Expansion time".
//!
//! The snapshots in `syntax/tests/snapshots/` show the expansions of the reference layouts,
//! formatted as `cargo expand` prints them.
//!
//! [docs/semantics.md]: https://docs.rs/crate/swizzle-layout/latest/source/docs/semantics.md
//! [BENCHMARKS.md]: https://docs.rs/crate/swizzle-layout/latest/source/BENCHMARKS.md
