//! `layout Name { statements }` and `threads Name { statements }`: a layout (memory, a
//! pipeline of transforms, coordinates) or a thread-value layout, checked into a
//! `swizzle_core::ir::Descriptor` and expanded into a type with its functions.

mod assertions;
mod auto;
pub mod check;
mod expand;
mod parse;
mod verify;

pub use check::Checked;
pub use verify::Verified;

use super::{Head, ItemKind, Named, Scope, View, access};
use crate::ast::{DimDecl, Expr, Length};
use crate::errors::{Errors, Reported};
use proc_macro2::TokenStream;
use syn::parse::ParseStream;
use syn::{Attribute, Ident, Visibility};

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

impl quote::ToTokens for Upper {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        self.name.to_tokens(tokens);
        self.len.to_tokens(tokens);
    }
}

/// The kind of `layout` and `threads` items.
pub struct Kind;

impl ItemKind for Kind {
    type Item = LayoutItem;
    type Checked<'c> = Verified;
    const FORMS: &'static [&'static str] = &["`layout Name { ... }`", "`threads Name { ... }`"];

    fn starts(input: ParseStream) -> bool {
        parse::starts(input)
    }

    fn parse(head: Head, input: ParseStream, errors: &mut Errors) -> syn::Result<LayoutItem> {
        parse::parse(head, input, errors)
    }

    fn name(item: &LayoutItem) -> &Ident {
        &item.name
    }

    fn check<'c>(
        items: &[&'c LayoutItem],
        scope: &Scope<'c>,
        errors: &mut Errors,
    ) -> Vec<Result<Verified, Reported>> {
        verify::verify_all(items, scope.of::<access::Kind>(), errors)
    }

    fn expand(item: &LayoutItem, verified: &Verified, _: &Scope<'_>) -> TokenStream {
        expand::Expansion::new(item, verified).to_tokens()
    }

    fn stub(item: &LayoutItem, _: &Scope<'_>) -> TokenStream {
        expand::stub(item)
    }

    fn view<'a>(item: &'a LayoutItem, verified: &'a Verified, _: &Scope<'a>) -> Option<View<'a>> {
        Some(View::Layout(item, verified))
    }
}

/// Later items (traversals, kernels, tiled copies) read a layout's checked form.
impl Named for Kind {
    type Read = Checked;

    fn read(verified: &Verified) -> &Checked {
        &verified.checked
    }
}
