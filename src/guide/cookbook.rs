//! # Cookbook
//!
//! Short recipes; each links to the chapter that explains it.
//!
//! ## Demand a bijection and get the inverse
//!
//! `inverse;` makes the macro prove the layout is a bijection onto `0..SPACE` (or fail,
//! naming two coordinates that collide) and generate `coord`. See the [tour](super::tour).
//!
//! ```rust
//! swizzle::layout! {
//!     /// 16 × 16, Morton order inside 4 × 4 tiles, tiles row-major.
//!     layout Tiled {
//!         memory [ty: 4, tx: 4, m: 16];
//!         morton m -> [yi: 4, xi: 4];
//!         merge [ty, yi] -> y;
//!         merge [tx, xi] -> x;
//!         coords [y, x];
//!         inverse;
//!     }
//! }
//! for offset in 0..Tiled::SPACE {
//!     let [y, x] = Tiled::coord(offset);
//!     assert_eq!(Tiled::offset(y, x), offset);
//! }
//! ```
//!
//! ## Make rows and columns of a shared-memory tile conflict-free
//!
//! Declare the two accesses and let `swizzle (auto for ..)` pick the CuTe swizzle; the
//! assertions keep it that way. See [analysis](super::analysis).
//!
//! ```rust
//! swizzle::layout! {
//!     /// A warp reads one row of a 32 × 32 tile of floats, or one column.
//!     access Row { lanes 32; bytes 4; y = 7; x = lane; }
//!     access Column { lanes 32; bytes 4; y = lane; x = 7; }
//!     layout Tile {
//!         memory [m: 1024];
//!         swizzle m -> s (auto for Row, Column);
//!         unmerge s -> [y: 32, x: 32];
//!         coords [y, x];
//!         assert conflict_free(for Row);
//!         assert conflict_free(for Column);
//!         inverse;
//!     }
//! }
//! let column: Vec<usize> = (0..32).map(|y| Tile::offset(y, 7) % 32).collect();
//! let mut banks = column.clone();
//! banks.sort();
//! banks.dedup();
//! assert_eq!(banks.len(), 32); // 32 lanes, 32 different banks
//! ```
//!
//! ## Tile an image of any size, with 3-byte pixels
//!
//! `dyn` dims give a grid of tiles sized at run time; `run_bytes` copies pixels of a file
//! format without a cast. See [kernels](super::kernels).
//!
//! ```rust
//! swizzle::layout! {
//!     layout Tiles { memory [ty: dyn, tx: dyn, m: 64]; morton m -> [yi: 8, xi: 8];
//!                    merge [ty, yi] -> y; merge [tx, xi] -> x; coords [y, x]; }
//!     kernel Pack = pack(Tiles);
//!     kernel Unpack = unpack(Tiles);
//! }
//! let (height, width) = (20, 30);
//! let tiles = Tiles::new(height, width)?;
//! let rgb: Vec<u8> = (0..height * width * 3).map(|i| (i % 251) as u8).collect();
//! let mut tiled = vec![0u8; tiles.space() * 3];
//! Pack::run_bytes(&tiles, 3, &rgb, &mut tiled)?;
//! let mut back = vec![0u8; rgb.len()];
//! Unpack::run_bytes(&tiles, 3, &tiled, &mut back)?;
//! assert_eq!(back, rgb);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Transpose a matrix on the CPU
//!
//! No layout needed: two views of the same extents. See [kernels](super::kernels).
//!
//! ```rust
//! use swizzle::kernel::{View, copy_views};
//! let (h, w) = (3, 4);
//! let a: Vec<u32> = (0..12).collect();
//! let mut t = vec![0u32; 12];
//! copy_views(&View::row_major(&[h, w])?, &View::column_major(&[h, w])?, &a, &mut t)?;
//! assert_eq!(t, [0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Print a layout's offsets and banks
//!
//! See [analysis](super::analysis) for SVG pictures and the [command line](super::cli) for the
//! same from a file.
//!
//! ```rust
//! swizzle::layout! {
//!     layout Xor4 { memory [y: 4, x: 4]; xor x by y; coords [y, x]; }
//! }
//! use swizzle::picture::{bank_map, grid};
//! use swizzle::analysis::Banks;
//! assert_eq!(grid(&Xor4::DESCRIPTOR)?, " 0  1  2  3\n 5  4  7  6\n10 11  8  9\n15 14 13 12\n");
//! let banks = Banks { count: 4, width_bytes: 4 };
//! assert_eq!(bank_map(&Xor4::DESCRIPTOR, 4, banks)?, "0 1 2 3\n1 0 3 2\n2 3 0 1\n3 2 1 0\n");
//! # Ok::<(), swizzle::picture::PictureError>(())
//! ```
//!
//! ## Walk a tile in vector accesses
//!
//! A traversal over a layout unrolls into constants; a vector that is not contiguous is a
//! compile error. See [traversals](super::traversals).
//!
//! ```rust
//! swizzle::layout! {
//!     layout Rows { memory [y: 4, x: 8]; coords [y, x]; }
//!     traversal Walk = sfc(over Rows, vector [1, 4]);
//! }
//! let mut starts = Vec::new();
//! Walk::for_each(|visit| starts.push(visit.offset));
//! assert_eq!(starts, [0, 4, 12, 8, 16, 20, 28, 24]); // snake: odd rows turn back
//! ```
//!
//! ## Use a layout in your own WGSL
//!
//! Paste `L::WGSL` into your module; the functions are `<name>_offset` and, for a bijection,
//! `<name>_coord`. See [gpu](super::gpu) and [threads](super::threads).
//!
//! ```rust
//! swizzle::layout! {
//!     layout Swizzled { memory [y: 8, x: 8]; xor x by y; coords [y, x]; inverse; }
//! }
//! let shader = format!("{}\n@compute @workgroup_size(64) fn main() {{ }}\n", Swizzled::WGSL);
//! assert!(shader.contains("fn swizzled_offset(y: u32, x: u32) -> u32"));
//! assert!(shader.contains("fn swizzled_coord(offset: u32)"));
//! ```
//!
//! ## Check a layout file from the command line
//!
//! ```text
//! $ cargo install --path cli
//! $ swizzle show lds.layout --layout LdsA --banks --element-bytes 2
//! $ swizzle analyze lds.layout --layout LdsA --access "lanes 32; bytes 2; vector 8 along k; m = lane % 16; k = lane / 16 * 8;"
//! $ swizzle svg lds.layout --layout LdsA --color bank -o lds.svg
//! ```
//!
//! See [the command line](super::cli).
