//! # The guide
//!
//! Chapters that teach swizzle with examples; every Rust example is a doctest that runs. The
//! reference for the language itself (grammar, every transform, every item and what it
//! generates) is [`layout!`](crate::layout)'s documentation.
//!
//! | chapter | what it covers |
//! |---|---|
//! | [`tour`] | what a layout is, transforms, bit matrices, layouts over layouts (composition), run-time extents, what the macro generates and how it folds the code |
//! | [`kernels`] | CPU work: batches of offsets on SIMD, copy kernels (pack, unpack, retile) and their generated SIMD rows, views, transposes |
//! | [`textures`] | whole texture surfaces (mips, layers, blocks) for the Switch, Wii U, 3DS, PS3, PS4, Xbox 360 and D3D12 with `swizzle::texture`, and a modder's round trip |
//! | [`traversals`] | CK Tile's space-filling curves (snake, vectors, partial accesses) and workgroup orders (`raster`) |
//! | [`analysis`] | access patterns, bank conflicts, memory transactions, assertions, automatic swizzles, pictures |
//! | [`threads`] | thread-value layouts, tiled copies, and your own WGSL kernel from generated pieces |
//! | [`gpu`] | the WGSL of a layout, the wgpu backend (feature `gpu`), its kernels, and a GEMM whose every index comes from a layout |
//! | [`cli`] | the `swizzle` command line: `show`, `analyze`, `svg` on layouts; `texture` between a game's payload and DDS, PNG or raw files |
//! | [`checks`] | what the macro rejects, the work budgets, and the one driver behind the macro and the command line |
//! | [`cookbook`] | short recipes for common tasks |

pub mod analysis;
pub mod checks;
pub mod cli;
pub mod cookbook;
pub mod gpu;
pub mod kernels;
pub mod textures;
pub mod threads;
pub mod tour;
pub mod traversals;
