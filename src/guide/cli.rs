//! # The command line
//!
//! The `swizzle` binary (crate `swizzle-cli`) reads layouts from a file, written as inside
//! `layout! { }`, with the same parser and the same checks as the macro, or from a Rust file
//! (`.rs`), whose `layout! { .. }` invocations it reads, errors located in the file
//! (`swizzle show src/gemm.rs --layout GemmA`). Run it with
//! `cargo run --release -p swizzle-cli -- show FILE`, or after `cargo install --path cli`,
//! `swizzle show FILE`:
//!
//! ```text
//! $ swizzle show lds.layout --layout LdsA --banks --element-bytes 2
//! LdsA
//!   coordinates    m × k = 128 × 32
//!   size           4096
//!   element space  4096
//!   bijective      yes, onto 0..4096
//!   vector width   8 along k
//! banks (32 × 4 B, 2-byte elements; rows m, columns k):
//!  0  0  1  1  2  2  3  3  4  4  5  5  6  6  7  7  8  8  9  9 10 10 11 11 12 12 13 13 14 14 15 15
//! 16 16 17 17 18 18 19 19 20 20 21 21 22 22 23 23 24 24 25 25 26 26 27 27 28 28 29 29 30 30 31 31
//!  4  4  5  5  6  6  7  7  0  0  1  1  2  2  3  3 12 12 13 13 14 14 15 15  8  8  9  9 10 10 11 11
//! 20 20 21 21 22 22 23 23 16 16 17 17 18 18 19 19 28 28 29 29 30 30 31 31 24 24 25 25 26 26 27 27
//! …
//!
//! $ swizzle analyze lds.layout --layout LdsA --access "lanes 32; bytes 2; vector 8 along k; m = lane % 16; k = lane / 16 * 8;"
//! LdsA, access `lanes 32; bytes 2; vector 8 along k; m = lane % 16; k = lane / 16 * 8;`
//!   32 lanes, each 8 × 2-byte elements along k
//!
//! bank conflicts (32 banks × 4 B, 4 phases of 8 lanes):
//!   conflict-free: no bank serves two words in one phase
//!
//! global-memory transactions:
//!   model                       requested  transactions  transferred  efficiency
//!   cc1.1 (per half-warp)           512 B            32       1024 B         50%
//!   cc1.3 (per half-warp)           512 B            16       2048 B         25%
//!   32-byte sectors (per warp)      512 B            16        512 B        100%
//! …
//! ```
//!
//! (`lds.layout` holds the `LdsA` layout of the [tour](super::tour).) The same access on a
//! row-major `RowMajorA` names the colliding lanes:
//!
//! ```text
//! bank conflicts (32 banks × 4 B, 4 phases of 8 lanes):
//!   4-way: in phase 0 (lanes 0..8), bank 0 serves 4 distinct words:
//!     lane 0  (m=0, k=0) → 0
//!     lane 2  (m=2, k=0) → 64
//!     lane 4  (m=4, k=0) → 128
//!     lane 6  (m=6, k=0) → 192
//! ```
//!
//! | command | prints |
//! |---|---|
//! | `show FILE [--layout NAME] [--banks[=COUNTxWIDTH]] [--element-bytes N]` | each layout's shape, size, element space, bijectivity (or two colliding coordinates), vector width, and its grid or bank map; for a `threads` item, the tile with `thread.value` in every cell |
//! | `analyze FILE [--layout NAME] --access SPEC\|NAME [--banks COUNTxWIDTH] [--line-bytes N]` | bank conflicts with the colliding lanes, transactions under the three coalescing models, locality of the memory order |
//! | `svg FILE [--layout NAME] [--color bank\|lane] [--access SPEC\|NAME] [--path memory\|NAME] [-o OUT.svg]` | the SVG, to `OUT.svg` or standard output; `--access` alone colours by lane; `--path memory` draws the memory order as arrows, `--path NAME` the accesses of the file's `traversal NAME = sfc(..)`, over the layout it walks `over` unless `--layout` says otherwise |
//!
//! `--access` takes an inline SPEC or the name of an `access NAME { ... }` item of the file.
//! A `SPEC` is the body of an `access` item, read by the macro's own parser and checks, so
//! the command line accepts what `layout!` accepts and fails with its messages
//! (`"lanes 32; bytes 2; m = lane % 16; k = lane / 16 * 8;"`; `vector 8 along k;`,
//! `banks (64, 4);` and `const` as in the item). Either way the access's banks are used
//! unless `--banks` says otherwise. `--layout` may be left out when the file holds
//! one layout. A file that does not parse prints every error as rustc would, with
//! `--> FILE:LINE:COLUMN` and a caret under the faulty tokens, and exits with 1, as do an
//! unknown layout or traversal, an access that leaves the layout and a traversal of other
//! lengths than the layout's; a wrong command line exits with 2 and the failing
//! subcommand's usage (`swizzle help COMMAND` or `--help` on any subcommand prints it;
//! `--version` the version). (`--path memory` always means memory order, even in a file
//! with a traversal named `memory`.) `FILE` and `-o OUT` may be `-`: standard input and
//! output.
//!
//! `swizzle texture swizzle|deswizzle|info|list` tile and untile texture surfaces between a
//! game's raw payload and DDS, PNG or raw files, describe a surface's levels (`--json` for
//! scripts) and list the platforms and formats: [textures](super::textures) walks through
//! a modder's workflow.
//!
//! The command line and the macro read one driver: `swizzle show` on a file rejects exactly
//! what `layout!` rejects, with the same message at the same line and column
//! ([checks](super::checks)). The pictures it prints and draws are those of
//! [`swizzle::picture`](crate::picture) ([analysis](super::analysis)).
