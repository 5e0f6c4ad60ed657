//! The syntax tree of a `layout!` invocation, as written: every node keeps its tokens so
//! that errors can point at exactly the faulty transform, dim or length.

use proc_macro2::TokenStream;
use swizzle_core::emit::code::Op;
use syn::{Attribute, Ident, LitInt, Visibility};

/// Everything inside one `layout! { ... }`.
pub struct Invocation {
    pub items: Vec<Item>,
}

/// A top-level item: a layout, an access pattern that layouts assert things about, a
/// traversal, or a copy kernel between layouts.
pub enum Item {
    /// A layout, or a thread-value layout (`threads Name { .. }`).
    Layout(LayoutItem),
    Access(AccessItem),
    Traversal(TraversalItem),
    Kernel(KernelItem),
    TiledCopy(TiledCopyItem),
    Raster(RasterItem),
}

impl Item {
    /// The item's name: the type it defines.
    pub fn name(&self) -> &Ident {
        match self {
            Item::Layout(item) => &item.name,
            Item::Access(item) => &item.name,
            Item::Traversal(item) => &item.name,
            Item::Kernel(item) => &item.name,
            Item::TiledCopy(item) => &item.name,
            Item::Raster(item) => &item.name,
        }
    }
}

/// `/// docs  pub raster Name = grouped(8);`: the order in which workgroups take the tiles of
/// a grid (`swizzle_core::plans::raster`).
pub struct RasterItem {
    pub attrs: Vec<Attribute>,
    pub vis: Visibility,
    pub name: Ident,
    /// `row_major`, `snake`, `grouped` or `morton`.
    pub kind: Ident,
    /// The rows per band or the square's side, in parentheses after the kind.
    pub group: Option<Expr>,
}

/// `/// docs  pub traversal Name = sfc(arguments);`: a space-filling curve (docs/semantics.md §4).
pub struct TraversalItem {
    pub attrs: Vec<Attribute>,
    pub vis: Visibility,
    pub name: Ident,
    /// The `sfc` keyword, for errors about the whole curve.
    pub keyword: Ident,
    pub args: Vec<SfcArg>,
}

/// One argument of `sfc(...)`, with the word that introduced it.
pub struct SfcArg {
    pub keyword: Ident,
    pub kind: SfcArgKind,
}

pub enum SfcArgKind {
    /// `lengths [exprs]`: the tensor's lengths.
    Lengths(Vec<Expr>),
    /// `over Layout`: the lengths are the coordinates of a layout of this invocation.
    Over(Ident),
    /// `order [dims]`: dim indices (or coordinate names of the layout walked), outermost first.
    Order(Vec<Expr>),
    /// `vector [exprs]`: scalars per access along each dim.
    Vector(Vec<Expr>),
    /// `snake`, `snake = true` or `snake = false`.
    Snake(Option<syn::LitBool>),
}

/// `/// docs  pub kernel Name = pack(Layout, options);`: a copy between two layouts over the
/// same coordinates, unrolled over one tile and looped over the grid of tiles at run time.
pub struct KernelItem {
    pub attrs: Vec<Attribute>,
    pub vis: Visibility,
    pub name: Ident,
    /// `pack`, `unpack` or `copy`.
    pub keyword: Ident,
    /// The layout read from; `None` for `pack`, which reads a row-major array.
    pub source: Option<Ident>,
    /// The layout written to; `None` for `unpack`, which writes a row-major array.
    pub destination: Option<Ident>,
    pub options: Vec<KernelOption>,
}

pub enum KernelOption {
    /// `walk Traversal`: the order and vector of the accesses inside a tile.
    Walk { keyword: Ident, traversal: Ident },
    /// `vector n`: the elements each access moves, along the coordinate of the runs.
    Vector { keyword: Ident, len: Expr },
}

/// `/// docs  pub kernel Name = tiled_copy(From -> To, threads T, options);`: a workgroup
/// copies one tile between the image (`image`, a row-major array of run-time extents in
/// global memory) and a layout in workgroup memory, or between two layouts, each thread the
/// values the thread-value layout `T` gives it.
pub struct TiledCopyItem {
    pub attrs: Vec<Attribute>,
    pub vis: Visibility,
    pub name: Ident,
    /// `tiled_copy`.
    pub keyword: Ident,
    /// A layout, or `image`.
    pub source: Ident,
    pub destination: Ident,
    pub options: Vec<TiledCopyOption>,
}

pub enum TiledCopyOption {
    /// `threads T`: the thread-value layout.
    Threads { keyword: Ident, layout: Ident },
    /// `vector n`: values per move (otherwise the widest both sides allow).
    Vector { keyword: Ident, len: Expr },
    /// `subgroup n`: lanes per subgroup for the analyses (default 32).
    Subgroup { keyword: Ident, len: Expr },
    /// `buffers(source, destination)`: the WGSL arrays the copy reads and writes.
    Buffers {
        keyword: Ident,
        source: Ident,
        destination: Ident,
    },
    /// `assert conflict_free`, `assert max_conflict(n)`, `assert transactions(<= n)`:
    /// claims about every instruction, checked at compile time.
    Assert {
        keyword: Ident,
        claim: CopyClaim,
        tokens: TokenStream,
    },
}

/// What a tiled copy asserts about each of its instructions.
pub enum CopyClaim {
    /// At most `max`-way bank conflicts (`None`: conflict-free) in workgroup memory.
    MaxConflict(Option<Expr>),
    /// At most `max` 32-byte transactions per subgroup in global memory.
    Transactions(Expr),
}

/// `/// docs  pub access Name { statements }`: what the lanes of a warp touch at once.
pub struct AccessItem {
    pub attrs: Vec<Attribute>,
    pub vis: Visibility,
    pub name: Ident,
    pub body: Vec<AccessStmt>,
}

/// One `;`-terminated statement of an access body, with its source tokens.
pub struct AccessStmt {
    pub kind: AccessStmtKind,
    pub tokens: TokenStream,
}

pub enum AccessStmtKind {
    /// `const NAME = expr;`
    Const { name: Ident, value: Expr },
    /// `lanes 32;`
    Lanes(Expr),
    /// `bytes 2;`: bytes per element.
    Bytes(Expr),
    /// `vector 8 (along k)?;`
    Vector { len: Expr, along: Option<Ident> },
    /// `banks (32, 4);`: bank count and width in bytes.
    Banks { count: Expr, width: Expr },
    /// `coordinate = expression of lane;`
    Coord { name: Ident, value: Expr },
}

/// What `assert` claims about a layout (checked at expansion time).
pub enum Assertion {
    /// `assert bijective;`
    Bijective,
    /// `assert conflict_free(for A);` (`max: None`) or `assert max_conflict(n, for A);`
    MaxConflict { max: Option<Expr>, access: Ident },
    /// `assert vector(n);`: at least `n` elements contiguous along the last coordinate.
    Vector { min: Expr },
    /// `assert transactions(<= n, for A (, model)?);`
    Transactions {
        max: Expr,
        access: Ident,
        model: Option<Ident>,
    },
}

/// `/// docs  pub layout Name { statements }`, or `threads Name { statements }`.
pub struct LayoutItem {
    pub attrs: Vec<Attribute>,
    pub vis: Visibility,
    /// `Some(threads)` for a thread-value layout: it starts from `tile [..]` and ends with
    /// `threads [..]; values [..];` instead of `memory` and `coords`.
    pub threads: Option<Ident>,
    pub name: Ident,
    pub body: Vec<Stmt>,
}

/// One `;`-terminated statement of a layout body, with its source tokens.
pub struct Stmt {
    pub kind: StmtKind,
    pub tokens: TokenStream,
}

pub enum StmtKind {
    /// `const NAME = expr;`
    Const { name: Ident, value: Expr },
    /// `memory [dims] (strides [exprs])?;`
    Memory {
        dims: Vec<DimDecl>,
        strides: Option<Vec<Expr>>,
    },
    /// `over Base (names)?;`: the layout starts from the coordinates of the layout `Base`
    /// (named `names`, or as `Base` names them) instead of memory; its offset is `Base`'s
    /// offset of the coordinates its own pipeline computes.
    Over {
        keyword: Ident,
        base: Ident,
        names: Option<Vec<Ident>>,
    },
    /// A transform stage; `keyword` is the word that introduced it.
    Transform { keyword: Ident, stage: Stage },
    /// `coords [names];`
    Coords { names: Vec<Ident> },
    /// `tile [dims];`: a thread-value layout's start, the tile's coordinates (row-major).
    Tile { dims: Vec<DimDecl> },
    /// `threads [names];`: a thread-value layout's thread coordinates, outermost first.
    Threads { names: Vec<Ident> },
    /// `values [names];`: a thread-value layout's value coordinates, outermost first.
    Values { names: Vec<Ident> },
    /// `inverse;`: the layout must be a bijection and gets `coord(offset)`.
    Inverse { keyword: Ident },
    /// `assert ...;`
    Assert {
        keyword: Ident,
        assertion: Assertion,
    },
}

/// `name: length`, a dim introduced by a statement.
pub struct DimDecl {
    pub name: Ident,
    pub len: Length,
}

/// The length of a declared dim.
pub enum Length {
    /// A constant expression.
    Fixed(Expr),
    /// `dyn`: known only at run time (outer memory dims that count tiles).
    Dyn(syn::Token![dyn]),
}

/// A transform statement, in the positions its module's check reads
/// (`swizzle_core::ir::transform::Context`): every transform's statement is one of these, and
/// what each position means is the transform's business.
#[derive(Default)]
pub struct Stage {
    /// The dims it consumes (closer to memory).
    pub lower: Vec<Ident>,
    /// The dims it declares, closer to the user.
    pub upper: Vec<Upper>,
    /// Live dims it reads without consuming them (`xor`'s key).
    pub keys: Vec<Ident>,
    /// Its constant arguments, in the order its check reads them.
    pub args: Vec<Expr>,
    /// `(auto for A, …)`: the accesses whose parameters the macro is to choose.
    pub auto: Option<Vec<Ident>>,
}

/// A dim a transform declares, with its length where the statement writes one (otherwise
/// the transform computes it).
pub struct Upper {
    pub name: Ident,
    pub len: Option<Length>,
}

impl Upper {
    /// A dim whose length the transform computes.
    pub fn inferred(name: Ident) -> Upper {
        Upper { name, len: None }
    }
}

impl From<DimDecl> for Upper {
    fn from(decl: DimDecl) -> Upper {
        Upper {
            name: decl.name,
            len: Some(decl.len),
        }
    }
}

/// An integer constant expression over literals and named constants.
pub enum Expr {
    Lit(LitInt),
    Const(Ident),
    Neg {
        minus: syn::Token![-],
        operand: Box<Expr>,
    },
    Binary {
        lhs: Box<Expr>,
        op: BinOp,
        rhs: Box<Expr>,
    },
    Paren {
        paren: syn::token::Paren,
        inner: Box<Expr>,
    },
    /// `x[3]`: bit 3 of the dim `x`, in the rows of `bits`.
    Bit {
        dim: Ident,
        bracket: syn::token::Bracket,
        index: Box<Expr>,
    },
}

/// A binary operator of a constant expression, with its tokens for error spans.
pub struct BinOp {
    pub kind: Op,
    pub tokens: TokenStream,
}

impl quote::ToTokens for Expr {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        match self {
            Self::Lit(lit) => lit.to_tokens(tokens),
            Self::Const(name) => name.to_tokens(tokens),
            Self::Neg { minus, operand } => {
                minus.to_tokens(tokens);
                operand.to_tokens(tokens);
            }
            Self::Binary { lhs, op, rhs } => {
                lhs.to_tokens(tokens);
                tokens.extend(op.tokens.clone());
                rhs.to_tokens(tokens);
            }
            Self::Paren { paren, inner } => paren.surround(tokens, |t| inner.to_tokens(t)),
            Self::Bit {
                dim,
                bracket,
                index,
            } => {
                dim.to_tokens(tokens);
                bracket.surround(tokens, |t| index.to_tokens(t));
            }
        }
    }
}

impl quote::ToTokens for DimDecl {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        self.name.to_tokens(tokens);
        self.len.to_tokens(tokens);
    }
}

impl quote::ToTokens for Upper {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        self.name.to_tokens(tokens);
        self.len.to_tokens(tokens);
    }
}

impl quote::ToTokens for Length {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        match self {
            Self::Fixed(expr) => expr.to_tokens(tokens),
            Self::Dyn(token) => token.to_tokens(tokens),
        }
    }
}
