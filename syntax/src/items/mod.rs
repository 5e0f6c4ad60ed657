//! The item kinds of the language, one folder each (its syntax tree, parser, check and
//! expansion) behind one trait, [`ItemKind`], and the one list of them, `kinds!`, from
//! which the [`Item`] enum, the parser's choice of kind, the [`Scope`] and the order of the
//! checks come.
//!
//! The kinds that other items name (accesses, layouts, traversals: [`Named`]) are checked
//! first, in that order, and kept in the [`Scope`], by kind; every other kind is checked
//! against that scope and handed on as it is checked. A new kind is one of those: its
//! folder, one line in `kinds!`, its grammar in the `layout!` reference and a UI case.

pub mod access;
pub mod kernel;
pub mod layout;
pub mod raster;
pub mod tiled_copy;
pub mod traversal;

use crate::errors::{Errors, Reported};
use proc_macro2::TokenStream;
use std::collections::HashMap;
use syn::parse::{ParseStream, Parser};
use syn::{Attribute, Ident, Visibility};

/// One kind of item: how it is written, checked and generated.
pub trait ItemKind {
    /// The item as written.
    type Item;
    /// The item checked; it may borrow the layouts and traversals it names (`'c`).
    type Checked<'c>;
    /// How an item of this kind is written, for the error on an item of no kind.
    const FORMS: &'static [&'static str];
    /// Whether the item at `input` (past its attributes and visibility) is of this kind.
    fn starts(input: ParseStream) -> bool;
    /// Parses the item at `input`: its keyword, name and the rest, up to its end.
    fn parse(head: Head, input: ParseStream, errors: &mut Errors) -> syn::Result<Self::Item>;
    /// The item's name: the type it defines.
    fn name(item: &Self::Item) -> &Ident;
    /// Checks the items of this kind, in the order written, against the items they name
    /// (`Err`: with errors, already reported).
    fn check<'c>(
        items: &[&'c Self::Item],
        scope: &Scope<'c>,
        errors: &mut Errors,
    ) -> Vec<Result<Self::Checked<'c>, Reported>>;
    /// The generated items of an item that checked.
    fn expand(item: &Self::Item, checked: &Self::Checked<'_>, scope: &Scope<'_>) -> TokenStream;
    /// Stands in for an item with errors, so that its uses raise no further errors.
    fn stub(item: &Self::Item, scope: &Scope<'_>) -> TokenStream;
    /// What a tool that shows more than the expansion (the playground) is shown of it.
    fn view<'a>(
        item: &'a Self::Item,
        checked: &'a Self::Checked<'_>,
        scope: &Scope<'a>,
    ) -> Option<View<'a>> {
        let _ = (item, checked, scope);
        None
    }
}

/// Everything inside one `layout! { ... }`.
pub struct Invocation {
    pub items: Vec<Item>,
}

impl Invocation {
    /// Parses a whole invocation. Syntax errors are collected into `errors`; the items that
    /// parsed are returned so that later stages can still check (and stub) them.
    pub fn parse(tokens: TokenStream, errors: &mut Errors) -> Invocation {
        let mut items = Vec::new();
        let parser = |input: ParseStream| {
            while !input.is_empty() {
                let head = Head {
                    attrs: input.call(Attribute::parse_outer)?,
                    vis: input.parse()?,
                };
                items.push(Item::parse(head, input, errors)?);
            }
            Ok(())
        };
        if let Err(error) = parser.parse2(tokens) {
            errors.push(error);
        }
        Invocation { items }
    }
}

/// An item's attributes and visibility, read before its kind is known.
pub struct Head {
    pub attrs: Vec<Attribute>,
    pub vis: Visibility,
}

/// A kind whose items later items name: its checked items are kept in the [`Scope`], by
/// name, as what those items read of them ([`Named::Read`]).
pub trait Named: ItemKind {
    /// What a later item reads of a checked item of this kind.
    type Read: ?Sized;
    /// What later items read of `checked`.
    fn read<'a>(checked: &'a Self::Checked<'_>) -> &'a Self::Read;
}

/// The checked items of the named kind `K` (`Err`: one with errors, already reported), by
/// name.
pub type ByName<'c, K> = HashMap<String, Result<&'c <K as Named>::Read, Reported>>;

impl<'c> Scope<'c> {
    /// The checked items of the named kind `K`, by name; none of a kind not yet checked.
    pub fn of<K: Kept>(&self) -> &ByName<'c, K> {
        K::in_scope(self)
    }

    /// The item of the named kind `K` called `name`, if it passed every check.
    pub fn get<K: Kept>(&self, name: &str) -> Option<&'c K::Read> {
        self.of::<K>().get(name)?.ok()
    }
}

/// Checked items by name, as what later items read of each.
fn by_name<'c, K: Named>(checked: &'c [CheckedItem<'_, '_, K>]) -> ByName<'c, K> {
    checked
        .iter()
        .map(|(item, checked)| {
            let read = checked
                .as_ref()
                .map(|checked| K::read(checked))
                .map_err(|r| *r);
            (K::name(item).to_string(), read)
        })
        .collect()
}

/// An item of kind `K` as written (`'i`) and its check, which may borrow what it names
/// (`'c`; `Err`: with errors, already reported).
pub type CheckedItem<'i, 'c, K> = (
    &'i <K as ItemKind>::Item,
    Result<<K as ItemKind>::Checked<'c>, Reported>,
);

/// What is done with each item once it is checked: the macro expands it, the command line
/// only wants its errors.
pub trait Visit {
    fn visit<K: ItemKind>(
        &mut self,
        item: &K::Item,
        checked: Result<&K::Checked<'_>, Reported>,
        scope: &Scope<'_>,
    );
}

/// One item that passed every check, as the driver checked it: what a tool that shows more
/// than the expansion (the playground) reads, from the same pass that expands it.
pub enum View<'a> {
    Access(&'a access::AccessItem, &'a access::CheckedAccess),
    Layout(&'a layout::LayoutItem, &'a layout::Verified),
    /// With the layout it walks, if it walks one.
    Traversal(
        &'a traversal::TraversalItem,
        &'a traversal::CheckedTraversal,
        Option<&'a layout::Checked>,
    ),
    Raster(
        &'a raster::RasterItem,
        &'a swizzle_core::plans::raster::Raster,
    ),
    /// With the rustdoc lines of its type: the plan of a tile's copy.
    Kernel(
        &'a kernel::KernelItem,
        &'a kernel::CheckedKernel<'a>,
        Vec<String>,
    ),
    /// With the rustdoc lines of its type: each instruction's conflicts or transactions.
    TiledCopy(
        &'a tiled_copy::TiledCopyItem,
        &'a tiled_copy::CheckedTiledCopy<'a>,
        Vec<String>,
    ),
}

/// Checks every item of kind `K` against `scope` and hands each to `visit`, in the order
/// written.
fn check_kind<'c, K: Of>(
    items: &[&'c Item],
    scope: &Scope<'c>,
    errors: &mut Errors,
    visit: &mut impl Visit,
) {
    let of_kind: Vec<&K::Item> = items.iter().filter_map(|item| K::of(item)).collect();
    let checked = K::check(&of_kind, scope, errors);
    for (item, checked) in of_kind.into_iter().zip(&checked) {
        visit.visit::<K>(item, checked.as_ref().map_err(|r| *r), scope);
    }
}

/// Hands each item of kind `K` that the driver checked to `visit`.
fn visit_checked<K: ItemKind>(
    checked: &[CheckedItem<'_, '_, K>],
    scope: &Scope<'_>,
    visit: &mut impl Visit,
) {
    for (item, checked) in checked {
        visit.visit::<K>(item, checked.as_ref().map_err(|r| *r), scope);
    }
}

/// Where a [`Named`] kind's checked items are kept (from `kinds!`).
pub trait Kept: Named {
    /// Its checked items in `scope`, by name.
    fn in_scope<'s, 'c>(scope: &'s Scope<'c>) -> &'s ByName<'c, Self>;
    /// Its items with their checks, taken out of `outcome`.
    fn take<'i>(outcome: &mut Outcome<'i>) -> Vec<CheckedItem<'i, 'static, Self>>;
}

impl<'i> Outcome<'i> {
    /// The items of the named kind `K` with their checks, in the order written, taken out.
    pub fn take<K: Kept>(&mut self) -> Vec<CheckedItem<'i, 'static, K>> {
        K::take(self)
    }
}

/// The items of kind `K` among `items`, each with its check.
fn check_of<'i, 'c, K: Of>(
    items: &[&'i Item],
    scope: &Scope<'c>,
    errors: &mut Errors,
) -> Vec<CheckedItem<'i, 'c, K>>
where
    'i: 'c,
{
    let of_kind: Vec<&'i K::Item> = items.iter().filter_map(|item| K::of(item)).collect();
    let checked = K::check(&of_kind, scope, errors);
    of_kind.into_iter().zip(checked).collect()
}

/// An [`ItemKind`]'s items among all items of an invocation.
pub trait Of: ItemKind {
    /// `item`, if it is of this kind.
    fn of(item: &Item) -> Option<&Self::Item>;
}

/// The one list of item kinds: each variant of [`Item`], the type of its [`ItemKind`], and
/// whether the driver checks it before the others (`named`: other items name it, and it is
/// kept in the [`Scope`]) or after them (`then`, in this order, each kind after the one
/// before). The parser tries each kind's [`ItemKind::starts`]; the expansion is in this
/// order.
macro_rules! kinds {
    (
        named { $($named:ident($named_kind:ty),)* }
        then { $($then:ident($then_kind:ty),)* }
    ) => {
        /// A top-level item of an invocation, of one of the kinds of `kinds!`.
        pub enum Item {
            $($named(<$named_kind as ItemKind>::Item),)*
            $($then(<$then_kind as ItemKind>::Item),)*
        }

        impl Item {
            /// The item's name: the type it defines.
            pub fn name(&self) -> &Ident {
                match self {
                    $(Item::$named(item) => <$named_kind>::name(item),)*
                    $(Item::$then(item) => <$then_kind>::name(item),)*
                }
            }

            /// Parses one item of any kind, after its attributes and visibility.
            pub(crate) fn parse(
                head: Head,
                input: ParseStream,
                errors: &mut Errors,
            ) -> syn::Result<Item> {
                $(if <$named_kind>::starts(input) {
                    return <$named_kind>::parse(head, input, errors).map(Item::$named);
                })*
                $(if <$then_kind>::starts(input) {
                    return <$then_kind>::parse(head, input, errors).map(Item::$then);
                })*
                let forms: Vec<&str> = [$(<$named_kind>::FORMS,)* $(<$then_kind>::FORMS,)*]
                    .concat();
                Err(input.error(format!("expected {}", crate::parse::one_of(&forms))))
            }
        }

        $(impl Of for $named_kind {
            fn of(item: &Item) -> Option<&Self::Item> {
                match item {
                    Item::$named(item) => Some(item),
                    _ => None,
                }
            }
        })*
        $(impl Of for $then_kind {
            fn of(item: &Item) -> Option<&Self::Item> {
                match item {
                    Item::$then(item) => Some(item),
                    _ => None,
                }
            }
        })*

        /// What the items of an invocation may name: every item as written, and the
        /// checked items of each [`Named`] kind, by name.
        #[allow(non_snake_case)] // a field per named kind, called as its variant of `Item`
        pub struct Scope<'c> {
            pub items: &'c [Item],
            $($named: ByName<'c, $named_kind>,)*
        }

        impl<'c> Scope<'c> {
            /// The scope of what `outcome` holds (none of a kind not yet checked).
            fn new(items: &'c [Item], outcome: &'c Outcome<'_>) -> Self {
                Scope {
                    items,
                    $($named: by_name::<$named_kind>(&outcome.$named),)*
                }
            }
        }

        /// The items of the named kinds, each with its check, in the order written.
        #[allow(non_snake_case)] // a field per named kind, called as its variant of `Item`
        pub struct Outcome<'i> {
            $($named: Vec<CheckedItem<'i, 'static, $named_kind>>,)*
        }

        $(impl Kept for $named_kind {
            fn in_scope<'s, 'c>(scope: &'s Scope<'c>) -> &'s ByName<'c, Self> {
                &scope.$named
            }

            fn take<'i>(outcome: &mut Outcome<'i>) -> Vec<CheckedItem<'i, 'static, Self>> {
                std::mem::take(&mut outcome.$named)
            }
        })*

        /// Checks `items` (those of the invocation `all` whose names are their own): every
        /// named kind first, in the order of the list, each against the kinds before it;
        /// then hands their items to `visit`, and checks every other kind against them,
        /// kind after kind, handing each item to `visit` as it is checked.
        pub fn check<'i>(
            all: &'i [Item],
            items: &[&'i Item],
            errors: &mut Errors,
            visit: &mut impl Visit,
        ) -> Outcome<'i> {
            let mut outcome = Outcome {
                $($named: Vec::new(),)*
            };
            $(
                let scope = Scope::new(all, &outcome);
                let of_kind = check_of::<$named_kind>(items, &scope, errors);
                outcome.$named = of_kind;
            )*
            let scope = Scope::new(all, &outcome);
            $(visit_checked::<$named_kind>(&outcome.$named, &scope, visit);)*
            $(check_kind::<$then_kind>(items, &scope, errors, visit);)*
            outcome
        }
    };
}

kinds! {
    named {
        Access(access::Kind),
        Layout(layout::Kind),
        Traversal(traversal::Kind),
    }
    then {
        Raster(raster::Kind),
        Kernel(kernel::Kind),
        TiledCopy(tiled_copy::Kind),
    }
}
