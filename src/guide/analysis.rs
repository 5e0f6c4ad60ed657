//! # Analysis: access patterns, bank conflicts, transactions, assertions, pictures
//!
//! ## Access patterns and assertions
//!
//! An `access` item declares what the lanes of a warp (32) or wave (64) touch in one
//! instruction:
//!
//! - `lanes` and the element size in `bytes`;
//! - optionally `vector n along c`: each lane touches `n` consecutive elements along coordinate
//!   `c` (by default the last one);
//! - optionally the shared-memory `banks (count, width)`, by default 32 banks of 4 bytes;
//! - one expression of `lane` per coordinate, with `+ - * / % ^ & | << >>`.
//!
//! A layout then states what must hold (`assert …;`, listed in [`layout!`](crate::layout)'s
//! reference), and the build fails when it does not. A failed assertion names its evidence:
//! the colliding lanes, their coordinates, their offsets and the bank.
//!
//! ```rust
//! swizzle::layout! {
//!     /// 8 lanes read one column of an 8×8 tile of 4-byte words.
//!     access Column { lanes 8; bytes 4; y = lane; x = 3; }
//!     /// 8 lanes read one row.
//!     access Row { lanes 8; bytes 4; y = 5; x = lane; }
//!
//!     /// The macro picks the swizzle: conflict-free for both accesses.
//!     layout Tile {
//!         memory [m: 64];
//!         swizzle m -> s (auto for Row, Column);
//!         unmerge s -> [y: 8, x: 8];
//!         coords [y, x];
//!         assert conflict_free(for Row);
//!         assert conflict_free(for Column);
//!         assert bijective;
//!     }
//! }
//! let report = swizzle::analysis::bank_conflicts(&Tile::DESCRIPTOR, &Column::access(), Column::BANKS);
//! assert_eq!(report.map(|r| r.degree), Ok(1));
//! ```
//!
//! A failing `conflict_free` reads like this:
//!
//! ```text
//! error: `Column` has 8-way bank conflicts, more than the 1 asserted: lanes 0, 1, 2, 3, 4, 5, 6 and 7 all hit bank 0 in phase 0: (y=0, x=0) → 0, (y=1, x=0) → 32, …
//! ```
//!
//! ## Automatic swizzles
//!
//! `swizzle l -> u (auto for A, B)` asks the macro to choose CuTe `Swizzle<B, M, S>`
//! parameters for the declared accesses. It tries every swizzle whose bits fit the dim, plus
//! the identity, the same family Triton's linear-layout swizzle synthesis picks from. The
//! winner has the fewest bank conflicts over all the accesses, then the widest contiguous
//! vector, then the fewest bits moved. If no candidate is conflict-free, the best degree
//! reached is kept, and a `conflict_free` assertion fails with that degree. The choice shows in
//! the type's rustdoc ("`swizzle (auto)` chose `(3, 0, 3)` … bank conflicts `Column` 1-way …")
//! and in `cargo expand`, where the descriptor holds the chosen `(bits, base, shift)`.
//!
//! ## Analyses
//!
//! [`swizzle::analysis`](crate::analysis) (re-exported from `swizzle-core`, so the macro, the
//! runtime and the command line share it) analyses any layout's `DESCRIPTOR` through the
//! reference interpreter. An `Access` comes from an `access` item or is built in Rust:
//!
//! ```rust
//! use swizzle::analysis::{
//!     Access, Banks, Coalescing, LaneExpr, bank_conflicts, transactions, vector_width,
//! };
//!
//! swizzle::layout! {
//!     layout RowMajorA { memory [m: 128, k: 32]; coords [m, k]; }
//! }
//! // 64 lanes each read one 8×fp16 vector along k: m = lane % 32, k = lane / 32 · 8.
//! let lane = LaneExpr::lane;
//! let read = Access::new("mfma_a", 64, 2)
//!     .vector(8, Some("k"))
//!     .coord("m", lane() % 32)
//!     .coord("k", lane() / 32 * 8);
//! let banks = bank_conflicts(&RowMajorA::DESCRIPTOR, &read, Banks::default())?;
//! assert_eq!((banks.degree, banks.phases), (4, 8)); // rows 0, 2, 4 and 6 share banks 0..4
//! let lanes: Vec<usize> = banks.worst.unwrap().touches.iter().map(|t| t.lane).collect();
//! assert_eq!(lanes, [0, 2, 4, 6]);
//! let cost = transactions(&RowMajorA::DESCRIPTOR, &read, Coalescing::Sectors32)?;
//! assert_eq!((cost.transactions, cost.requested_bytes), (64, 1024)); // one sector per row and warp
//! assert_eq!(vector_width(&RowMajorA::DESCRIPTOR), 32);
//! # Ok::<(), swizzle::analysis::AccessError>(())
//! ```
//!
//! | analysis | what it computes, and the model behind it |
//! |---|---|
//! | `bank_conflicts(layout, access, Banks { count, width_bytes })` | Lanes are split into phases so that one phase asks for at most `count · width_bytes` bytes (`max(1, min(lanes, count·width / (vector·bytes)))` lanes: half-warps for 64-bit, quarter-warps for 128-bit accesses, as NVIDIA does). In a phase, a bank's degree is the number of *distinct* words asked of it: lanes reading one word are a broadcast. `degree` is the worst bank of the worst phase (1 = conflict-free); `worst` names its phase, bank and one touch (lane, coordinate, offset) per word. With distinct words this is CK Tile's "count accesses per bank" analyser. |
//! | `transactions(layout, access, Coalescing::…)` | `Cc11`: per half-warp, coalesced into one segment of 16 words when lane k reads word k of it (split into ≤ 128-byte transactions), else one transaction per lane. `Cc13`: per half-warp, one transaction per 32/64/128-byte segment (1-byte / 2-byte / larger words), halved while only its lower or upper half is used, down to 32 bytes. `Sectors32`: per warp, one per 32-byte sector. A lane's word is its whole vector when that is contiguous in memory, else each element is its own instruction. Reports requested and transferred bytes too. |
//! | `locality(layout, element_bytes, line_bytes)` | CK Tile's Morton-texture walk: the valid coordinates sorted by offset, a histogram of the Manhattan distance between consecutive ones, and the cache lines the elements lie in. |
//! | `vector_width(layout)` | The widest power-of-two run `v` along the last coordinate such that every aligned run of `v` elements is valid, contiguous and in order in memory: the widest vector load. |
//!
//! The whole-layout walks (`locality`, `vector_width`) stop after 2²² coordinates (the
//! budget `ANALYSIS_COORDINATES`, see [checks](super::checks)). The cases checked by hand in
//! `syntax/tests/analysis.rs` (the sources are named in docs/semantics.md):
//!
//! | case | result |
//! |---|---|
//! | CK Tile's Morton texture, 32 lanes, 4×4 tiles of floats | row-major 1-way; Morton (`morton_decode(tid % 16)`): CK Tile's counter says 2-way, but lanes 16–31 re-read the words of lanes 0–15, a broadcast: 1-way |
//! | the same texture's locality, 4×4 | Morton {1: 8, 2: 6, 4: 1}, row-major {1: 12, 4: 3}; the 8×8 tiled texture {1: 32, 2: 24, 4: 6, 8: 1} |
//! | CK Tile's LDS tile `LdsA`, the read above | conflict-free (8 rows of a phase hit the 8 groups of 4 banks once each); row-major 4-way |
//! | CuTe `Swizzle<3,0,3>`, 8 lanes read a column of 8×8 | 4-byte elements: 2-way → 1-way; 16-byte elements (or 8 banks): 8-way → 1-way |
//! | a warp reading 32 aligned floats | 1.1: 2 × 64 B; 1.3: 2 × 64 B (per half-warp, segment halved); sectors: 4 × 32 B |
//! | the same, one float further | 1.1: 32 × 32 B; 1.3: 128 + 64 + 32 B; sectors: 5 |
//! | vector width | row-major 8×8: 8; Morton 4×4: 2; `LdsA`: 8 (KPack); `Swizzle<3,0,3>`: 1 |
//!
//! The transaction models are put against a published experiment, Nocentino and Rhodes'
//! Morton-ordered volume rendering, in [docs/paper.md]
//! (`cargo run --release --example paper_transactions`).
//!
//! ## Pictures
//!
//! [`swizzle::picture`](crate::picture) draws any layout's `DESCRIPTOR` through the reference
//! interpreter, so a picture shows what the layout means, whatever the generated code does.
//! Rows are the second-to-last coordinate, columns the last; a 1-D layout is one row, and a
//! layout with more coordinates gets one block per value of the outer ones.
//!
//! ```rust
//! swizzle::layout! {
//!     layout Morton4 { memory [n: 16]; morton n -> [y: 4, x: 4]; coords [y, x]; }
//!     layout Tile { memory [y: 4, x: 8]; coords [y, x]; }
//!     traversal Snake = sfc(over Tile, vector [1, 4]);
//! }
//! use swizzle::picture::{Coloring, Path, bank_map, grid, svg, svg_with_path};
//! use swizzle::analysis::Banks;
//!
//! // CK Tile's 4×4 Morton table, exactly.
//! assert_eq!(grid(&Morton4::DESCRIPTOR)?, " 0  1  4  5\n 2  3  6  7\n 8  9 12 13\n10 11 14 15\n");
//! // The bank of each element: 8-byte elements on 4 banks of 4 bytes.
//! let banks = Banks { count: 4, width_bytes: 4 };
//! assert_eq!(bank_map(&Morton4::DESCRIPTOR, 8, banks)?, "0 2 0 2\n0 2 0 2\n0 2 0 2\n0 2 0 2\n");
//! let by_bank = Coloring::Bank { element_bytes: 4, banks };
//! let picture = svg(&Morton4::DESCRIPTOR, &by_bank)?;
//! assert!(picture.starts_with("<svg"));
//! // A snake over a 4 × 8 tile: eight framed accesses of four cells, seven arrows between them.
//! let walk = svg_with_path(&Tile::DESCRIPTOR, &by_bank, &Path::Traversal(Snake::SFC))?;
//! assert_eq!(walk.matches("<line ").count(), 7);
//! // A traversal is drawn over a layout of its lengths only.
//! assert!(svg_with_path(&Morton4::DESCRIPTOR, &by_bank, &Path::Traversal(Snake::SFC)).is_err());
//! # Ok::<(), swizzle::picture::PictureError>(())
//! ```
//!
//! | picture | what it shows |
//! |---|---|
//! | `grid(layout)` | the offset of every coordinate, right-aligned like CK Tile's Morton table; `·` for padding |
//! | `bank_map(layout, element_bytes, banks)` | the same grid with the bank of each element's first byte |
//! | `svg(layout, &Coloring::Bank { .. })` | cells coloured by bank, offsets written in cells that are large enough, row and column indices, a legend; padding grey |
//! | `svg(layout, &Coloring::Lane(access))` | cells coloured by the lane of the `Access` that touches them; cells no lane touches light grey |
//! | `svg_with_path(layout, &coloring, &Path::MemoryOrder)` | the same, with arrows from cell to cell in the order memory runs through them (the Z-curve of a Morton layout); `Path::Coords(..)` draws any list of coordinates in order (`swizzle svg FILE --path memory`) |
//! | `thread_grid(&T::THREAD_VALUES)` | a thread-value layout's tile, each cell `thread.value`: which thread holds the element, as which value (`swizzle show FILE` prints it for `threads` items) |
//! | `thread_svg(&T::THREAD_VALUES)` | the same tile coloured by thread and numbered by value (`swizzle svg FILE --layout T`, or `--color thread`) |
//! | `svg_with_path(layout, &coloring, &Path::Traversal(T::SFC))` | the accesses of a `traversal T = sfc(..)` in visiting order: each vector access framed as one block of cells (a partial access at the end of a dim that its vector does not divide as large as it is; a block across outer coordinates framed in each of its planes), arrows from block centre to block centre; the traversal's lengths must be the layout's shape, else `PictureError::TraversalShape` (`swizzle svg FILE --path T`) |
//!
//! Cells are sized so the grid's longest side is about 1024 pixels (4 to 40 pixels a cell); a
//! 128 × 128 tile has 8-pixel cells without numbers, about 1 MB of SVG. `picture::Geometry`
//! says where each cell lies, for anything drawn over the cells. The tests render the SVG
//! with `resvg` and check the colours of known cells. The [command line](super::cli) prints and
//! draws the same pictures from a file.
//!
//! [docs/paper.md]: https://docs.rs/crate/swizzle-layout/latest/source/docs/paper.md
