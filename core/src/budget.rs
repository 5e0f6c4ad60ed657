//! Work budgets: the most work any enumeration or analysis may do for one input, so that no
//! input — however large its lengths — makes the macro, the runtime or the command line run
//! for long or take much memory. Every budget lives here, with what it bounds and what
//! happens past it:
//!
//! - an enumeration that *proves* something (injectivity, a vector width, a contiguous
//!   traversal) gives up past its budget and says "could not be proved", or an assertion
//!   that needs the proof fails with an error naming the budget;
//! - an analysis that *reports* (bank conflicts, transactions, pictures) refuses an input
//!   past its budget with an error naming the budget and what to change;
//! - a generator of code (unrolled traversals, kernel plans) switches to a loop or refuses.
//!
//! Structural proofs (the affine and F2 canonical forms) cost nothing per coordinate and are
//! always tried first; the budgets bound only the fallbacks.

/// Coordinates enumerated to prove that a layout which asks for `inverse;` (or asserts
/// `bijective`) is a bijection, when no structural argument applies (about 4 million).
pub const REQUESTED_ENUMERATION: usize = 1 << 22;

/// Coordinates enumerated to find the inverse of a layout that does not ask for one: its
/// `coord` is emitted only when this proves it cheaply.
pub const DEFAULT_ENUMERATION: usize = 1 << 16;

/// Coordinates an analysis that walks a whole layout (vector width, locality) visits; larger
/// layouts are analysed on their first coordinates in row-major order.
pub const ANALYSIS_COORDINATES: usize = 1 << 22;

/// Elements one access touches in all (lanes × vector): far more than any warp, wave or
/// vector instruction moves.
pub const ACCESS_ELEMENTS: usize = 1 << 16;

/// Shared-memory bank words the elements of one access span in all (an element wider than
/// a bank word spans several).
pub const ACCESS_BANK_WORDS: usize = 1 << 20;

/// The lanes, bytes and vector length an access may set (`access` items and the command
/// line's `--access`).
pub const ACCESS_SETTING: usize = 4096;

/// Lanes named as evidence in a failed assertion; the rest are counted.
pub const EVIDENCE: usize = 16;

/// Cells a picture draws (a 2048 × 2048 tile).
pub const PICTURE_CELLS: usize = 1 << 22;

/// Elements of one tile a copy kernel is planned for.
pub const KERNEL_TILE: usize = 1 << 16;

/// Elements of the tile a tiled copy moves (a 256 × 256 tile): its instructions are
/// analysed and its code derived element by element.
pub const COPY_TILE: usize = 1 << 16;

/// Moves one thread of a tiled copy makes (its values over its vector width): its code is
/// written out move by move, in WGSL and in Rust (1024 moves of one thread holding a
/// 64 × 64 tile in vectors of 4).
pub const COPY_MOVES: usize = 1024;

/// Accesses a traversal unrolls into an `INDICES` table and a straight-line `for_each`;
/// longer traversals compute each access in a loop.
pub const TRAVERSAL_UNROLL: usize = 1024;

/// Coordinates the contiguity check of a traversal's vector evaluates; larger layouts are
/// judged by the structural walk alone.
pub const TRAVERSAL_CONTIGUITY: usize = 1 << 22;

/// Coordinates of a layout for which `swizzle (auto ...)` breaks ties between equally
/// conflict-free swizzles by vector width.
pub const AUTO_TIE_BREAK: usize = 1 << 16;

/// Element evaluations `swizzle (auto ...)` may spend: candidate swizzles × the elements of
/// the accesses each is scored on (a 64 × 64 tile and a warp of 8-wide vectors take about
/// 80 000).
pub const AUTO_WORK: usize = 1 << 20;

/// Operators, negations and parentheses in one constant expression: everything after the
/// parser (evaluation, printing, dropping) recurses on an expression's depth.
pub const EXPRESSION_NODES: usize = 256;

/// How deep brackets, braces and parentheses nest in layout text given to the command line
/// or `source()`: the lexer and the parser recurse on nested groups.
pub const NESTING: usize = 128;

/// Nodes of one symbolic expression while a layout's pipeline is folded into one expression
/// per coordinate. Past it (chains of transforms that do not simplify, which grow
/// exponentially) the layout is lowered as an F2 bit matrix when it is one, else in stages:
/// every intermediate value larger than [`STAGE_NODES`] becomes a named local, so that the
/// expansion grows linearly with the pipeline.
pub const SYMBOLIC_NODES: usize = 4096;

/// Nodes an intermediate value of a staged layout may have before it becomes a named local.
pub const STAGE_NODES: usize = 64;

/// How deep a symbolic expression may nest, folded or staged: every pass over one recurses
/// on its depth.
pub const SYMBOLIC_DEPTH: usize = 64;
