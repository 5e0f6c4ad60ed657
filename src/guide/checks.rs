//! # Checks: what the macro rejects, and the work budgets
//!
//! ## Compile-time checks
//!
//! Every error is spanned on the faulty token, says what to change, and is reported together
//! with all other errors of the invocation. Layouts with errors still define their type, so
//! that no cascade of follow-up errors hides the real one. The checks:
//!
//! - unknown, duplicate and unused dims, and keywords as names (said once, with the `r#` fix);
//! - two items of one name, and items named after a primitive type;
//! - a dim consumed twice;
//! - lengths that do not multiply out (`unmerge`, `morton`);
//! - non-power-of-two lengths where required (`morton`, the `xor` target, `swizzle`);
//! - `swizzle` with `|S| < B` or with bits outside the dim;
//! - `embed`, `slice` and `freeze` out of range;
//! - `bits` rows that do not give one row per bit, name a bit a dim does not have, or are not
//!   an XOR of bits (`+`, a constant 1);
//! - `xor` and `cyclic_shift` keyed by their own target, `modulo` onto an empty length;
//! - `over` a layout declared later, or with the wrong number of names, or next to `memory`;
//! - misused `dyn` dims (not outermost, consumed other than by `merge` or a dividing
//!   `unmerge`, strided), and blocks that do not divide the tile;
//! - constant overflow and division by zero;
//! - element spaces that overflow `usize`;
//! - unknown accesses, and accesses that leave the layout;
//! - failed `assert`s, with their evidence ([analysis](super::analysis));
//! - `inverse;` on a layout that is not a bijection, naming two coordinates that collide;
//! - traversals, kernels, thread-value layouts, tiled copies and rasters that do not fit their
//!   layouts (each chapter lists its errors);
//! - inputs past a budget (below): access settings, constant expressions of more than 256
//!   operators, brackets nested more than 128 deep (in text).
//!
//! ```text
//! error: `inverse` needs a bijection, but coordinates (y=0, x=2) and (y=1, x=0) both map to offset 2: remove `inverse;` or make every offset belong to exactly one coordinate
//!  --> tests/ui/inverse_collision.rs:6:9
//!   |
//! 6 |         inverse;
//!   |         ^^^^^^^
//! ```
//!
//! `ui/tests/ui/` holds the trybuild cases (the `ui` crate: trybuild builds them against
//! `swizzle` alone), one error class each (or one construct's errors), with their exact
//! messages.
//!
//! ## Budgets
//!
//! No input makes the macro, the runtime or the command line run for long or take much
//! memory: every enumeration and analysis has a work budget, all of them in one module,
//! `swizzle_core::budget`. Structural proofs cost nothing per coordinate and come first (the
//! F2 form's rank, and stage by stage: bijective transforms, `pad`, `slice` and `offset` (a
//! constant added), embeddings and strided memory whose strides dominate (a padded row
//! pitch), so a padded layout of any size is known injective), and the budgets bound only the
//! fallbacks. Past a budget a proof says "could not be proved" (an assertion that needs it
//! fails, naming the budget), an analysis is refused with an error that names the budget and
//! what to change, and code generation switches to a loop.
//!
//! | budget | value | bounds |
//! |---|---:|---|
//! | `REQUESTED_ENUMERATION` | 2²² | coordinates enumerated to prove `inverse;` or `assert bijective` without a structural proof |
//! | `DEFAULT_ENUMERATION` | 2¹⁶ | the same, for the inverse of a layout that does not ask for one |
//! | `ANALYSIS_COORDINATES` | 2²² | coordinates a whole-layout analysis (vector width, locality) visits |
//! | `ACCESS_SETTING` | 4096 | the lanes, `bytes` and vector length an `access` may set (macro and command line) |
//! | `ACCESS_ELEMENTS` | 2¹⁶ | elements one access touches (lanes × vector), for accesses built at run time |
//! | `ACCESS_BANK_WORDS` | 2²⁰ | bank words the elements of one access span |
//! | `EVIDENCE` | 16 | lanes named in a failed assertion's evidence; the rest are counted |
//! | `PICTURE_CELLS` | 2²² | cells a picture draws |
//! | `KERNEL_TILE` | 2¹⁶ | elements of one tile a copy kernel is planned for |
//! | `TRAVERSAL_UNROLL` | 1024 | accesses a traversal unrolls into a table and straight-line code |
//! | `TRAVERSAL_CONTIGUITY` | 2²² | coordinates the contiguity check of a traversal's vector evaluates |
//! | `AUTO_TIE_BREAK` | 2¹⁶ | coordinates for which `swizzle (auto …)` breaks ties by vector width |
//! | `AUTO_WORK` | 2²⁰ | candidate swizzles × access elements that `swizzle (auto …)` scores |
//! | `EXPRESSION_NODES` | 256 | operators, negations and parentheses of one constant expression (macro and command line) |
//! | `NESTING` | 128 | how deep brackets nest in layout text read by the command line or `source()` |
//! | `SYMBOLIC_NODES`, `SYMBOLIC_DEPTH` | 4096, 64 | one folded expression; past them a layout is lowered as an F2 matrix or in stages ([tour](super::tour)) |
//! | `STAGE_NODES` | 64 | an intermediate value of a staged layout before it becomes a named local |
//!
//! ## One driver
//!
//! The macro and the command line read one driver (`swizzle_syntax::driver::check`): every
//! check (layouts, auto swizzles, assertions, `inverse;`, traversals, kernels) runs once, in
//! one order, for both. `swizzle show` on a file rejects exactly what `layout!` rejects, with
//! the same message at the same line and column; `cli/tests/cli.rs` runs every `ui/tests/ui` case
//! through the command line to hold it to that.
