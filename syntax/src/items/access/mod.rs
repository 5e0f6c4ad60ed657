//! `access Name { statements }`: what the lanes of a warp touch at once, which layouts
//! assert things about and `swizzle (auto ..)` optimises for.

mod check;
mod expand;
mod parse;

pub use check::{Accesses, CheckedAccess, DEFAULT_BANKS};

use super::{Head, ItemKind, Named, Scope, View};
use crate::ast::Expr;
use crate::errors::{Errors, Reported};
use proc_macro2::TokenStream;
use syn::parse::ParseStream;
use syn::{Attribute, Ident, Visibility};

/// `/// docs  pub access Name { statements }`.
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

/// The kind of `access` items.
pub struct Kind;

impl ItemKind for Kind {
    type Item = AccessItem;
    type Checked<'c> = CheckedAccess;
    const FORMS: &'static [&'static str] = &["`access Name { ... }`"];

    fn starts(input: ParseStream) -> bool {
        input.peek(parse::kw::access)
    }

    fn parse(head: Head, input: ParseStream, errors: &mut Errors) -> syn::Result<AccessItem> {
        parse::parse(head, input, errors)
    }

    fn name(item: &AccessItem) -> &Ident {
        &item.name
    }

    fn check<'c>(
        items: &[&'c AccessItem],
        _: &Scope<'c>,
        errors: &mut Errors,
    ) -> Vec<Result<CheckedAccess, Reported>> {
        items
            .iter()
            .map(|item| check::check(item, errors))
            .collect()
    }

    fn expand(item: &AccessItem, checked: &CheckedAccess, _: &Scope<'_>) -> TokenStream {
        expand::access(item, checked)
    }

    fn stub(item: &AccessItem, _: &Scope<'_>) -> TokenStream {
        expand::access_stub(item)
    }

    fn view<'a>(
        item: &'a AccessItem,
        checked: &'a CheckedAccess,
        _: &Scope<'a>,
    ) -> Option<View<'a>> {
        Some(View::Access(item, checked))
    }
}

/// Layouts read an access whole: their assertions and auto swizzles are about it.
impl Named for Kind {
    type Read = CheckedAccess;

    fn read(checked: &CheckedAccess) -> &CheckedAccess {
        checked
    }
}
