//! # Textures: tiles stacked at run time, and whole surfaces
//!
//! NVIDIA and Tegra X1 textures are *block-linear*: 64-byte × 8-row GOBs, stacked `block
//! height` GOBs high into blocks, blocks row-major. The GOB is one tile of a `dyn` layout;
//! `K::run_stacked(&layout, stack, src, dst)` stores its tiles stacked `stack` high
//! (`kernel::Frame::Stacked`), a run-time value, so one declaration serves every block height
//! (where otherwise each height would be a layout of its own).
//! `kernel::stacked_space(&tiles, tile_space, stack)` is the size of such a buffer: whole
//! stacks down, padding included. [`swizzle::texture::switch`](crate::texture::switch) is that, ready to use; its
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
//! let mut tiled = vec![0u8; swizzle::texture::switch::swizzled_size(width, height, 4, block_height).unwrap()];
//! swizzle::texture::switch::swizzle(width, height, 4, block_height, &bytes, &mut tiled)?;
//! assert!(tiled.chunks(4).zip(&texture).all(|(b, &p)| b == p.to_le_bytes()));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! `swizzle::texture::switch::{swizzle, deswizzle, swizzled_size}` take pixels of any size (multiples
//! of 4 bytes move as words, others as bytes) and any block height; `tests/tegra.rs` checks
//! them byte for byte against the `tegra_swizzle` crate at many sizes (GOB multiples and not),
//! every Tegra block height and pixels of 1 to 16 bytes. A stack of 0 is `KernelError::Stack`,
//! a byte buffer of the wrong length `KernelError::ByteLength` (in bytes). Words go through the
//! GOB kernels' generated SIMD rows ([kernels](super::kernels)). `cargo bench --bench tegra`
//! compares both directions with `tegra_swizzle`; the results are in [BENCHMARKS.md].
//!
//! [BENCHMARKS.md]: https://docs.rs/crate/swizzle-layout/latest/source/BENCHMARKS.md
//!
//! # Whole surfaces: a texture tool's workflow
//!
//! A texture file holds more than one image: a mip chain, array layers (six for a cube map),
//! depth slices, often BC or ASTC blocks. [`swizzle::texture`](crate::texture) takes the
//! whole surface: a [`Surface`](crate::texture::Surface) is a
//! [`Platform`](crate::texture::Platform) (`SWITCH`, `N3ds`, `Ps3`, `Ps4`, `Xbox360`, `D3d12`,
//! `WiiU`), a size in
//! pixels, layers, mips and a [`Format`](crate::texture::Format) (blocks of w × h pixels of
//! n bytes: `Format::Rgba8Unorm`, `Format::Bc7Unorm`, `Format::astc(6, 6)`, …). The linear side is a
//! DDS file's payload: levels tightly packed, layer by layer, mips within a layer.
//!
//! The usual round trip of a modding pipeline — untile a game's texture, edit the linear
//! data (or hand it to a DDS writer), tile it back:
//!
//! ```rust
//! use swizzle::texture::{Format, Platform, Surface};
//! // A 512² BC7 cube map with 10 mips, as a Switch game stores it.
//! let surface = Surface::new(Platform::SWITCH, 512, 512, Format::Bc7Unorm).layers(6).mips(10);
//! let tiled_file = vec![0u8; surface.swizzled_size()?]; // read from the game's file
//!
//! // Untile into a caller buffer (or `deswizzle_to_vec`).
//! let mut linear = vec![0u8; surface.linear_size()?];
//! surface.deswizzle(&tiled_file, &mut linear)?;
//!
//! // Edit one level: mip 2 of face 4 is a contiguous range of the linear buffer.
//! let level = surface.level(4, 2)?;
//! assert_eq!((level.width, level.height), (128, 128));
//! linear[level.linear.clone()].fill(0xff);
//!
//! // Tile it back, on one thread (`Options` as the kernels take them).
//! let one = swizzle::kernel::Options::default().threads(1);
//! let mut tiled = vec![0u8; surface.swizzled_size()?];
//! surface.swizzle_with(one, &linear, &mut tiled)?;
//! // The level's bytes in the tiled file, padding included:
//! assert!(tiled[level.swizzled.clone()].iter().any(|&b| b == 0xff));
//!
//! // Every level's place on both sides, for a file header or a GPU upload.
//! for level in surface.levels()?.take(3) {
//!     println!("layer {} mip {}: {}×{}, linear {:?}, tiled {:?}",
//!         level.layer, level.mip, level.width, level.height, level.linear, level.swizzled);
//! }
//! # Ok::<(), swizzle::texture::TextureError>(())
//! ```
//!
//! The Switch infers mip 0's block height from the height as `tegra_swizzle` does (or takes
//! it: `Platform::Switch { block_height: Some(16) }`), halves it for small mips, stacks 3-D
//! surfaces in depth and aligns array layers; the rules are spelled out in
//! [`texture::switch`](crate::texture::switch). Each platform's addressing is private `layout!`
//! items in its file of `swizzle-texture`: Tegra's GOBs stacked into blocks, the 3DS and PS4 8×8 Morton tiles
//! (`morton`), the PS3's Morton order over a whole level (power-of-two squares of Morton
//! tiles), the Xbox 360's 32 × 32 macro tiles and D3D12's standard swizzle as one `bits`
//! matrix per texel size. A surface a platform does not tile (3DS levels under 8×8, D3D12
//! 3-D textures, Xbox 360 texels of 1 or 2 bytes, texel sizes without a kernel) is a
//! `TextureError::Unsupported` saying why. The 3DS's ETC1 and ETC1A4 (`Format::Etc1`,
//! `Format::Etc1A4`) have tiles of their own: 8×8 texels of four 4×4 blocks in Z order,
//! each block's 64-bit word little-endian, as Citra and Panda3DS decode them and devkitPro's
//! `tex3ds` encodes them; the linear side holds standard (big-endian) ETC1 blocks, as KTX
//! files do.
//!
//! ```rust
//! use swizzle::texture::{Format, Platform, Surface};
//! // The PS3 pads each level to powers of two: a 100 × 37 RGBA8 level takes 128 × 64.
//! let ps3 = Surface::new(Platform::Ps3, 100, 37, Format::Rgba8Unorm);
//! assert_eq!(ps3.swizzled_size()?, 128 * 64 * 4);
//! // The Xbox 360 pads to whole 32 × 32 macro tiles of blocks: 25 × 10 BC1 blocks take 32 × 32.
//! let x360 = Surface::new(Platform::Xbox360, 100, 37, Format::Bc1Unorm);
//! assert_eq!(x360.swizzled_size()?, 32 * 32 * 8);
//! # Ok::<(), swizzle::texture::TextureError>(())
//! ```
//!
//! The Wii U's GX2 surfaces name a tile mode and a swizzle, as their headers store them.
//! Every mode of GX2 is there: the linear ones (`LinearGeneral`, `LinearAligned`: rows at
//! addrlib's pitch, no tiles) and every tiled one (1-D and 2-D/3-D thin-1, thin-2, thin-4
//! and thick, bank-swapped or not); array layers and cube maps are stored mip by mip (each
//! mip's layers together, as GX2 slices), 3-D surfaces with their depth in each level:
//!
//! ```rust
//! use swizzle::texture::{Format, Platform, Surface, wiiu::{self, TileMode}};
//! // A 256² BC1 texture with 8 mips, 2-D macro tiled with pipe 1, bank 2 (GX2 swizzle 0x500).
//! let platform = Platform::WiiU { tile_mode: TileMode::Tiled2DThin1, swizzle: 0x500 };
//! let surface = Surface::new(platform, 256, 256, Format::Bc1Unorm).mips(8);
//! let linear = vec![1u8; surface.linear_size()?];
//! let tiled = surface.swizzle_to_vec(&linear)?;
//! assert_eq!(surface.deswizzle_to_vec(&tiled)?, linear);
//! // Mips too small for macro tiles fall back to 1-D; the header records each pitch.
//! assert_eq!(wiiu::level_mode(&surface, 0)?, (TileMode::Tiled2DThin1, 64));
//! assert_eq!(wiiu::level_mode(&surface, 3)?, (TileMode::Tiled1DThin1, 8));
//!
//! // A cube map: mip 1's six faces follow mip 0's six on the tiled side.
//! let cube = Surface::new(platform, 64, 64, Format::Rgba8Unorm).layers(6).mips(2);
//! let (face5_mip0, face0_mip1) = (cube.level(5, 0)?, cube.level(0, 1)?);
//! assert_eq!(face5_mip0.swizzled.end, face0_mip1.swizzled.start);
//! // A 3-D texture in a thick mode: 4 slices to a micro tile.
//! let thick = Platform::WiiU { tile_mode: TileMode::Tiled2DThick, swizzle: 0 };
//! let volume = Surface::new(thick, 32, 32, Format::Rgba8Unorm).depth(8);
//! assert_eq!(wiiu::level_info(&volume, 0)?.mode, TileMode::Tiled2DThick);
//! // A linear-aligned texture: rows of whole 256-byte groups (100 texels padded to 128).
//! let aligned = Platform::WiiU { tile_mode: TileMode::LinearAligned, swizzle: 0 };
//! let rows = Surface::new(aligned, 100, 10, Format::Rgba8Unorm);
//! assert_eq!(wiiu::level_mode(&rows, 0)?, (TileMode::LinearAligned, 128));
//! assert_eq!(rows.swizzled_size()?, 128 * 10 * 4);
//! # Ok::<(), swizzle::texture::TextureError>(())
//! ```
//!
//! **Seeing a level.** Where each block of a level lands is worth a look when a texture comes
//! out scrambled: [`Surface::level_cells`](crate::texture::Surface::level_cells) finds it by
//! tiling the level's block indices with the surface's own kernels;
//! [`offset_map`](crate::texture::Surface::offset_map) prints it as the layout pictures do,
//! and [`svg`](crate::texture::Surface::svg) draws it, each block numbered with its first
//! tiled byte and coloured by its tile (a 512-byte GOB, a 256-byte pipe group):
//!
//! ```rust
//! use swizzle::texture::{Format, Platform, Surface};
//! // The PS4's 8×8 Morton tiles, one byte a texel.
//! let surface = Surface::new(Platform::Ps4, 8, 2, Format::R8Unorm);
//! assert_eq!(surface.offset_map(0, 0)?, " 0  1  4  5 16 17 20 21\n 2  3  6  7 18 19 22 23\n");
//! let svg = surface.svg(0, 0, 16)?; // colours: 16-byte tiles
//! assert!(svg.starts_with("<svg"));
//! # Ok::<(), swizzle::texture::TextureError>(())
//! ```
//!
//! # A modder's workflow on the command line
//!
//! A game stores a texture tiled, as its console's GPU reads it; texture tools open DDS and
//! PNG files. `swizzle texture` goes between the two: the tiled side is the game's raw
//! payload, the linear side a DDS (the whole surface: mips, array layers, cube faces,
//! depth, with its DXGI format), a PNG (one level of an 8-bit format) or raw bytes,
//! chosen by the file's extension or `--container`. Say what the game's header says;
//! `swizzle texture list` names every platform and format.
//!
//! ```text
//! # 1. A Switch BC7 texture of 1024² with 11 mips, untiled into a DDS any tool opens.
//! swizzle texture deswizzle --platform switch --width 1024 --height 1024 --mips 11 \
//!     --format bc7-srgb payload.bin texture.dds
//!
//! # 2. Edit texture.dds (texconv, Paint.NET, GIMP, …), keeping its format and mip count.
//!
//! # 3. Tile it back: size, format and mips come from the DDS header; a flag that
//! #    contradicts the header is an error naming both values.
//! swizzle texture swizzle --platform switch texture.dds payload.bin
//!
//! # One level as a PNG, and back (8-bit formats: r8, rg8, rgba8, bgra8 and their sRGB).
//! swizzle texture deswizzle --platform ps4 --width 256 --height 256 --format rgba8 \
//!     payload.bin mip0.png
//! swizzle texture swizzle --platform ps4 mip0.png payload.bin
//!
//! # A Wii U GX2 texture: the header's tile mode, swizzle (decimal or 0x hex), pitch and
//! # per-mip offsets, where its mips lie further apart than they need to.
//! swizzle texture deswizzle --platform wiiu --tile-mode 4 --swizzle 0x20500 --pitch 64 \
//!     --width 256 --height 256 --mips 8 --format bc1 \
//!     --mip-offsets 32768,9472,11520,12032,12544,13056,13568 gx2.bin texture.dds
//!
//! # Where every level lies, for a header or a script; a picture of one level.
//! swizzle texture info --platform switch --width 1024 --height 1024 --mips 11 \
//!     --format bc7 --json
//! swizzle texture info --platform switch texture.dds --picture mip3.svg --mip 3
//! ```
//!
//! No command loses data: the output is written to a temporary file beside it and renamed
//! into place once whole, so `IN` may be `OUT`, and a failed write (a full disk) leaves
//! every file as it was. An input's length is checked against the surface before it is
//! read; `-` is standard input or output, and status lines go to standard error.
//!
//! `tests/texture.rs` checks every platform byte for byte against its crate in property tests
//! over sizes (1×1, odd, NPOT, 2048²), formats, mips, layers and depth;
//! `cargo bench --bench texture` times each against its crate ([BENCHMARKS.md]).
