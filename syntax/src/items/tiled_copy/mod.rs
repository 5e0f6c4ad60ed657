//! `kernel Name = tiled_copy(From -> To, threads T, options);`: a workgroup copies one tile
//! between the image (`image`, a row-major array of run-time extents in global memory) and
//! a layout in workgroup memory, or between two layouts, each thread the values the
//! thread-value layout `T` gives it.

mod check;
mod expand;
mod parse;

pub use check::CheckedTiledCopy;

use super::{Head, ItemKind, Scope, View, layout};
use crate::ast::Expr;
use crate::errors::{Errors, Reported};
use proc_macro2::TokenStream;
use syn::parse::ParseStream;
use syn::{Attribute, Ident, Visibility};

/// `/// docs  pub kernel Name = tiled_copy(From -> To, threads T, options);`.
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

/// The kind of `kernel … = tiled_copy(..)` items.
pub struct Kind;

impl ItemKind for Kind {
    type Item = TiledCopyItem;
    type Checked<'c> = CheckedTiledCopy<'c>;
    const FORMS: &'static [&'static str] = &[];

    fn starts(input: ParseStream) -> bool {
        parse::starts(input)
    }

    fn parse(head: Head, input: ParseStream, _: &mut Errors) -> syn::Result<TiledCopyItem> {
        parse::parse(head, input)
    }

    fn name(item: &TiledCopyItem) -> &Ident {
        &item.name
    }

    fn check<'c>(
        items: &[&'c TiledCopyItem],
        scope: &Scope<'c>,
        errors: &mut Errors,
    ) -> Vec<Result<CheckedTiledCopy<'c>, Reported>> {
        items
            .iter()
            .map(|item| check::check(item, scope.of::<layout::Kind>(), errors))
            .collect()
    }

    fn expand(item: &TiledCopyItem, checked: &CheckedTiledCopy<'_>, _: &Scope<'_>) -> TokenStream {
        expand::tokens(item, checked)
    }

    fn stub(item: &TiledCopyItem, _: &Scope<'_>) -> TokenStream {
        expand::stub(item)
    }

    fn view<'a>(
        item: &'a TiledCopyItem,
        checked: &'a CheckedTiledCopy<'_>,
        _: &Scope<'a>,
    ) -> Option<View<'a>> {
        Some(View::TiledCopy(item, checked, expand::doc_lines(checked)))
    }
}
