//! The `layout!` procedural macro: a shim over `swizzle-core`, which holds all the logic.

/// Declares memory layouts as pipelines of coordinate transforms, and the items built on
/// them: traversals, copy kernels, access patterns, thread-value layouts, tiled copies and
/// workgroup orders.
///
/// This is the reference: the grammar and every statement, transform and item, each once.
/// The [guide](../swizzle/guide/index.html) teaches the same with
/// examples that run, starting with the
/// [tour](../swizzle/guide/tour/index.html). The normative
/// semantics, with the fixed points the tests check and their sources, is
/// [docs/semantics.md](https://docs.rs/crate/swizzle-layout/latest/source/docs/semantics.md);
/// the transform table below is its §2.
///
/// # Items
///
/// One invocation holds any number of items. Doc comments and visibility carry over to the
/// generated type.
///
/// | item | syntax | declares |
/// |---|---|---|
/// | layout | `layout Name { statement* }` | a layout: coordinates → offset ([tour](../swizzle/guide/tour/index.html)) |
/// | thread-value layout | `threads Name { tile [decls]; transform*; threads [names]; values [names]; }` | which thread of a workgroup holds which element of a tile, as which value ([threads](../swizzle/guide/threads/index.html)) |
/// | access | `access Name { lanes n; bytes n; vector n along c; banks (count, width); c = expr; … }` | what the lanes of a warp touch in one instruction; `vector` and `banks` optional ([analysis](../swizzle/guide/analysis/index.html)) |
/// | traversal | `traversal Name = sfc(arg, …);` | CK Tile's space-filling curve ([traversals](../swizzle/guide/traversals/index.html)) |
/// | copy kernel | `kernel Name = pack(L)` / `unpack(L)` / `copy(A -> B)`, then `, walk T` or `, vector n` | a CPU copy between a row-major image and a layout, or two layouts ([kernels](../swizzle/guide/kernels/index.html)) |
/// | tiled copy | `kernel Name = tiled_copy(From -> To, threads T, option, …);` | one tile's copy by a workgroup, as WGSL and on the CPU ([threads](../swizzle/guide/threads/index.html)) |
/// | raster | `raster Name = row_major` / `snake` / `grouped(n)` / `morton(n);` | which tile of a grid the `g`-th workgroup takes ([traversals](../swizzle/guide/traversals/index.html)) |
///
/// # Layouts
///
/// ```text
/// layout      := doc-comment* visibility? "layout" Name "{" statement* "}"
/// statement   := "const" NAME "=" expr ";"
///              | "memory" "[" decls "]" ( "strides" "[" exprs "]" )? ";"
///              | "over" Layout ( "[" names "]" )? ";"     (instead of memory: start from a layout)
///              | transform ";"
///              | "coords" "[" names "]" ";"           (required, once: every live dim, in order)
///              | "inverse" ";"                          (optional: demand a bijection)
///              | "assert" assertion ";"
/// transform   := "unmerge" dim "->" "[" decls "]"
///              | "merge" "[" names "]" "->" dim
///              | "xor" dim "by" dim
///              | "cyclic_shift" dim "by" dim
///              | "morton" dim "->" "[" decls "]"
///              | "embed" dim "->" "[" decls "]" "strides" "[" exprs "]"
///              | "pad" dim "->" dim "(" expr "," expr ")"          (left, right)
///              | "slice" dim "->" dim "(" expr ".." expr ")"      (begin..end)
///              | "offset" dim "->" dim "(" "+"? expr ")"
///              | "freeze" dim "=" expr
///              | "replicate" "->" "[" decls "]"
///              | "swizzle" dim "->" dim "(" expr "," expr "," expr ")"   (B, M, S)
///              | "swizzle" dim "->" dim "(" "auto" "for" names ")"      (the macro picks B, M, S)
///              | "modulo" dim "->" dim "(" expr ")"                    (the upper length)
///              | "bits" dim "->" "[" decls "]" "(" row,* ")"     (one row per bit, lowest first)
/// row         := dim "[" expr "]" ( "^" dim "[" expr "]" )*  |  "0"
/// decls       := ( dim ":" ( expr | "dyn" ) ),*     names := dim,*     exprs := expr,*
/// expr        := integer constant expression over literals and consts:
///                + - * / % << >> & ^ | unary - and parentheses, with Rust's precedence
/// ```
///
/// A layout starts from **memory** (the bottom) and stacks transforms on it. Each transform
/// consumes some existing dims (its *lower* dims, closer to memory) and introduces new ones
/// (its *upper* dims, closer to the user); dims it does not touch pass through. The dims left
/// at the end are the coordinates, listed by `coords [..]` in the order `offset` takes them.
/// Evaluating a layout runs the transforms newest first, each computing its lower index from
/// its upper index. A name refers to the newest dim of that name, so a transform may reuse
/// the name of a dim it consumes (`xor k0l by mr` replaces `k0l` with its swizzled self).
///
/// Each row gives the lower index as a function of the upper index: exactly what the
/// reference interpreter computes. The generated code may compute it differently (shifts and
/// masks instead of division, one folded expression instead of a chain), never to a different
/// value.
///
/// | statement | lower → upper | meaning |
/// |---|---|---|
/// | `memory [a: A, b: B, …]` | offset → N dims | `offset = row-major(a, b, …)`, last dim fastest |
/// | `memory [..] strides [s..]` | offset → N dims | `offset = Σ u_i · s_i`; element space `1 + Σ (len_i − 1) · s_i` |
/// | `memory [t: dyn, …, m: M]` | offset → N dims | run-time extents: each outer `dyn` dim counts tiles along the coordinate it becomes (directly, or as the slowest digit of a `merge`); tiles are stored row-major, each a whole copy of the tile's element space; no strides |
/// | `over Base [a, b, …]` | Base's coordinates | start from the coordinates of a layout declared before it in the invocation (renamed by the optional list): the offset is `Base`'s offset of the coordinate this pipeline computes, CuTe's composition `Base ∘ Layout` |
/// | `unmerge l -> [u0: L0, …, un: Ln]` | 1 → N | `l = row-major(u0, …, un)`; requires `Π L_i = len(l)`. Over a `dyn` base, `unmerge l -> [n: dyn, b0: B0, …]` cuts a tile-counting `l` into blocks counted at run time; the blocks must divide the tile along `l` |
/// | `merge [l0, …, ln] -> u` | N → 1 | `len(u) = Π len(l_i)`; the `l_i` are the row-major digits of `u` (division and remainder by suffix products: CK's `merge_v3_division_mod`) |
/// | `xor t by k` | 2 → 2 | `t_lower = t_upper ^ (k % len(t))`; `k` passes through; `len(t)` a power of two |
/// | `cyclic_shift t by k` | 2 → 2 | CK's cyclic shift: `t_lower = (t_upper + k) mod len(t)`; `k` passes through; any length; the inverse shifts back |
/// | `morton m -> [d0, …, dn]` | 1 → N | bit interleave: the bits of `m` are dealt round-robin from bit 0, cycling over the dims from the last to the first and skipping a dim once its bits are used up (`m = … y1 x1 y0 x0` for `[y, x]`); every length a power of two; `len(m) = Π len(d_i)` |
/// | `embed l -> [u0: L0, …] strides [s..]` | 1 → N | `l = Σ u_i · s_i`; the addressed space `1 + Σ (L_i − 1) · s_i` must fit in `len(l)` |
/// | `pad l -> u (left, right)` | 1 → 1 | `l = u − left`; `len(u) = len(l) + left + right`; valid iff `left ≤ u < len(u) − right` |
/// | `slice l -> u (b..e)` | 1 → 1 | `l = u + b`; `len(u) = e − b` |
/// | `offset l -> u (+k)` | 1 → 1 | `l = u + k`; `len(u) = len(l) − k` |
/// | `freeze l = c` | 1 → 0 | `l = c`, a constant below `len(l)` |
/// | `replicate -> [u: L]` | 0 → N | broadcast dims: no lower index |
/// | `swizzle l -> u (B, M, S)` | 1 → 1 | CuTe's `Swizzle<B, M, S>`: `l = u ^ ((u & (((1 << B) − 1) << (M + max(0, S)))) >> S)`, a left shift by `−S` for `S < 0`; requires `\|S\| ≥ B` and every moved bit inside `len(u)`, a power of two |
/// | `swizzle l -> u (auto for A, …)` | 1 → 1 | the `Swizzle<B, M, S>` (or the identity) with the fewest bank conflicts over the named accesses, then the widest contiguous vector, then the fewest bits moved; the choice shows in the type's rustdoc and its descriptor |
/// | `bits l -> [u0: L0, …, un: Ln] (r0, …, rw)` | 1 → N | GF(2)-linear (Triton's linear layouts, AMD's texture tiling): bit `j` of `l` is row `r_j`, the XOR of the upper bits it names (`y[4] ^ x[5] ^ x[4]`), or `0`. Input bits are numbered as the row-major index of the upper dims numbers them (the last dim lowest). Every length a power of two; one row per bit of `l`. Injective iff the matrix has full column rank; with `len(l) = Π L_i` a bijection whose inverse is the inverse matrix |
/// | `modulo l -> u (N)` | 1 → 1 | CK's modulo: `l = u mod len(l)`, `len(u) = N ≥ 1`; a periodic boundary when `N > len(l)`; injective iff `N ≤ len(l)` |
/// | `coords [a, b, …]` | — | the coordinates, in the order `offset` takes them: every live dim, once |
/// | `inverse;` | — | demand a bijection onto `0..SPACE` and generate `coord(offset)`; an error names two colliding coordinates otherwise |
/// | `const N = expr;` | — | a named integer constant for the lengths and arguments that follow |
///
/// Assertions (`assert …;` in a layout) are checked at compile time; a failed one names its
/// evidence (the colliding lanes, their coordinates, offsets and bank):
///
/// | assertion | holds when |
/// |---|---|
/// | `assert bijective;` | every offset of `0..SPACE` belongs to exactly one coordinate (otherwise two colliding coordinates are named) |
/// | `assert conflict_free(for A);` | no bank serves two different words in one phase of access `A` |
/// | `assert max_conflict(n, for A);` | at most `n`-way bank conflicts |
/// | `assert vector(n);` | at least `n` consecutive elements of the last coordinate are contiguous in memory |
/// | `assert transactions(<= n, for A);` | `A` takes at most `n` memory transactions (32-byte sectors; add `, cc11` or `, cc13` for the older coalescing rules) |
///
/// # What a layout generates
///
/// A zero-sized type (`#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]`) with:
///
/// | item | what it is |
/// |---|---|
/// | `SHAPE: [usize; N]`, `SIZE`, `SPACE` | coordinate lengths, their product, the element space the offsets index into |
/// | `const fn offset(c0, c1, …) -> usize` | straight-line integer code; bounds (and padding) are checked by `debug_assert!` |
/// | `const fn coord(offset) -> [usize; N]` | the inverse, when the layout is a bijection onto `0..SPACE` |
/// | `const fn is_valid(c0, …) -> bool` | for padded layouts |
/// | `DESCRIPTOR: swizzle::ir::Descriptor` | the checked IR as const data: `DESCRIPTOR.offset(&[..])` is the reference interpreter |
/// | `WGSL` | the same functions in WGSL (`<name>_offset`, `<name>_coord`, `<name>_is_valid`); using it is a compile error, saying why, when the layout does not fit 32-bit offsets |
/// | `impl swizzle::Layout<N>` | `offset([..])`, `is_valid`, and the checked `try_offset` (`Err` for out-of-bounds or padded coordinates); the facts the macro proved as constants: `INJECTIVE`, `PADDED`, `INVERSE` |
/// | `impl swizzle::Bijective<N>` | `coord` and the checked `try_coord` |
///
/// A layout with `dyn` dims is a value instead: `new(extents…)` (an `ExtentError` when the
/// space would overflow `usize`), `extents()`, `tiles()`, `space()`, `offset`, `is_valid` and,
/// with `inverse;`, `coord`; the type keeps the tile's `TILE`, `TILE_SPACE`, `DESCRIPTOR` and
/// the `const fn tile_offset` / `tile_coord`. The rustdoc of 1-D and 2-D layouts up to 16×16
/// shows the offset table.
///
/// # The other items
///
/// ```text
/// threads     := doc-comment* visibility? "threads" Name "{" "tile" "[" decls "]" ";"
///                transform;* "threads" "[" names "]" ";" "values" "[" names "]" ";" "}"
/// access      := doc-comment* visibility? "access" Name "{" access-stmt* "}"
/// access-stmt := "lanes" expr ";" | "bytes" expr ";" | "vector" expr ( "along" dim )? ";"
///              | "banks" "(" expr "," expr ")" ";"  | dim "=" lane-expr ";"
/// traversal   := doc-comment* visibility? "traversal" Name "=" "sfc" "(" arg,* ")" ";"
/// arg         := "lengths" "[" exprs "]"     the tensor's lengths, or
///              | "over" Layout                the coordinates of a layout (one tile of a dyn one)
///              | "order" "[" dims "]"         loop order, outermost first (indices, or coordinate
///                                             names over a layout); default: tensor order
///              | "vector" "[" exprs "]"       scalars per access along each dim; default: all 1
///              | "snake" ( "=" bool )?        inner loops turn back after odd outer steps;
///                                             default: true, as in CK
/// kernel      := doc-comment* visibility? "kernel" Name "=" copy ";"
/// copy        := "pack" "(" Layout ")" | "unpack" "(" Layout ")" | "copy" "(" Layout "->" Layout ")"
///                ( "," "walk" Traversal | "," "vector" expr )?
///              | "tiled_copy" "(" side "->" side "," "threads" Threads ( "," option )* ")"
/// side        := "image" | Layout
/// option      := "vector" expr | "subgroup" expr | "buffers" "(" name "," name ")"
///              | "assert" ( "conflict_free" | "max_conflict" "(" expr ")"
///                         | "transactions" "(" "<=" expr ")" )
/// raster      := doc-comment* visibility? "raster" Name "=" order ";"
/// order       := "row_major" | "snake" | "grouped" "(" expr ")" | "morton" "(" expr ")"
/// ```
///
/// | item | generates |
/// |---|---|
/// | `threads T` | everything a layout gets, plus `THREADS`, `VALUES`, `TILE`, `THREAD_VALUES` (a `swizzle::threads::ThreadValues`) and `element(threads…, values…)`, the tile coordinate a slot holds (also in its `WGSL`) |
/// | `access A` | `A::access()` (a `swizzle::analysis::Access`) and `A::BANKS` |
/// | `traversal T` | `LENGTHS`, `ORDER`, `VECTOR`, `SNAKE`, `ACCESS_LENGTHS`, `NUM_ACCESS`, the `INDICES` table, `SFC`, `const fn`s `index(i)`, `extent(i)`, `step_between(a, b)`, `forward_step(i)`, `backward_step(i)`, `WGSL`, and `for_each(\|visit\| ..)`, unrolled (over 1024 accesses: a loop, and no `INDICES`) |
/// | `kernel K = pack / unpack / copy` | `K::run`, `run_with` (options), `run_view`, `run_stacked`, `run_bytes`, `VECTOR`, `plan()`, `route::<E>(options)`, and its full tiles as constant tables (`impl FullTiles`: its networks once per lane count and, for two-coordinate tiles of up to 256 runs, its runs), which the runtime's SIMD rows and straight-line tile unroll (`code::<E>()`); where the tile is sub-tiles stacked along its first coordinate whose rows alone fit the registers, the sub-tile's plan and tables too (a private `__KSubTiles`), which the entry points copy with, stacked |
/// | `kernel K = tiled_copy(..)` | `VECTOR`, `THREADS`, `TILE`, `WGSL` (one straight-line function of the thread's index), and `run` / `run_thread` on the CPU; its rustdoc lists every instruction with its bank conflicts or transactions |
/// | `raster R` | `ORDER` (a `swizzle::raster::Raster`), `tile(group, [rows, columns])` and `WGSL` |
///
/// # Errors
///
/// Every error is spanned on the faulty token, says what to change, and is reported together
/// with all other errors of the invocation; an item with errors still defines its type, so
/// that no cascade of follow-up errors hides the real one. The list of checks is in the
/// [guide](../swizzle/guide/checks/index.html).
#[proc_macro]
pub fn layout(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    swizzle_syntax::expand(input.into()).into()
}
