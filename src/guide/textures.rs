//! # Textures: tiles stacked at run time (block-linear, Tegra X1)
//!
//! NVIDIA and Tegra X1 textures are *block-linear*: 64-byte × 8-row GOBs, stacked `block
//! height` GOBs high into blocks, blocks row-major. The GOB is one tile of a `dyn` layout;
//! `K::run_stacked(&layout, stack, src, dst)` stores its tiles stacked `stack` high
//! (`kernel::Frame::Stacked`), a run-time value, so one declaration serves every block height
//! (where otherwise each height would be a layout of its own).
//! `kernel::stacked_space(&tiles, tile_space, stack)` is the size of such a buffer: whole
//! stacks down, padding included. [`swizzle::tegra`](crate::tegra) is that, ready to use; its
//! GOB layouts are plain `layout!` items:
//!
//! ```rust
//! swizzle::layout! {
//!     /// One GOB of RGBA8 pixels: 16 pixels × 8 rows; the Tegra X1 TRM's byte formula
//!     /// (x / 32) · 256 + (y % 8 / 2) · 64 + (x % 32 / 16) · 32 + (y % 2) · 16 + x % 16.
//!     layout Gob {
//!         memory [gy: dyn, gx: dyn, xh: 2, yq: 4, xq: 2, y1: 2, x4: 4];
//!         merge [gy, yq, y1] -> y;
//!         merge [gx, xh, xq, x4] -> x;
//!         coords [y, x];
//!     }
//!     kernel Tile = pack(Gob);
//! }
//! let (width, height, block_height) = (100, 37, 4);
//! let gobs = Gob::new(height, width)?;
//! let pixels: Vec<u32> = (0..(width * height) as u32).collect();
//! let size = swizzle::kernel::stacked_space(&gobs.tiles(), Gob::TILE_SPACE, block_height).unwrap();
//! let mut texture = vec![0u32; size];
//! Tile::run_stacked(&gobs, block_height, &pixels, &mut texture)?;
//! // The same bytes through the library's module, for any pixel size:
//! let bytes: Vec<u8> = pixels.iter().flat_map(|p| p.to_le_bytes()).collect();
//! let mut tiled = vec![0u8; swizzle::tegra::swizzled_size(width, height, 4, block_height).unwrap()];
//! swizzle::tegra::swizzle(width, height, 4, block_height, &bytes, &mut tiled)?;
//! assert!(tiled.chunks(4).zip(&texture).all(|(b, &p)| b == p.to_le_bytes()));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! `swizzle::tegra::{swizzle, deswizzle, swizzled_size}` take pixels of any size (multiples
//! of 4 bytes move as words, others as bytes) and any block height; `tests/tegra.rs` checks
//! them byte for byte against the `tegra_swizzle` crate at many sizes (GOB multiples and not),
//! every Tegra block height and pixels of 1 to 16 bytes. A stack of 0 is `KernelError::Stack`,
//! a byte buffer of the wrong length `KernelError::ByteLength` (in bytes). Words go through the
//! GOB kernels' generated SIMD rows ([kernels](super::kernels)). `cargo bench --bench tegra`
//! compares both directions with `tegra_swizzle`; the results are in [BENCHMARKS.md].
//!
//! [BENCHMARKS.md]: https://github.com/swizzle-rs/swizzle/blob/main/BENCHMARKS.md
