//! The item kinds of the language, one folder each (its syntax tree, parser, check and
//! expansion) behind one trait, [`ItemKind`], and the one list of them, `kinds!`, from
//! which the [`Item`] enum, the parser's choice of kind and the driver's iteration come.
//!
//! The kinds that other items name (accesses, layouts, traversals) are checked first, in
//! that order, by the driver, which keeps them in a [`Scope`]; every other kind is checked
//! against that scope and handed on as it is checked. A new kind is one of those: its
//! folder, one line in `kinds!`, its grammar in the `layout!` reference and a UI case.

pub mod access;
pub mod kernel;
pub mod layout;
pub mod raster;
pub mod tiled_copy;
pub mod traversal;

use crate::errors::{Errors, Reported};
use crate::{View, driver};
use proc_macro2::TokenStream;
use std::collections::HashMap;
use syn::parse::ParseStream;
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

/// An item's attributes and visibility, read before its kind is known.
pub struct Head {
    pub attrs: Vec<Attribute>,
    pub vis: Visibility,
}

/// What the items of an invocation may name: every item as written, and the accesses,
/// layouts and traversals checked (`Err`: one with errors, already reported), by name.
pub struct Scope<'c> {
    pub items: &'c [Item],
    pub accesses: access::Accesses<'c>,
    /// The layouts that passed every check, their assertions included.
    pub layouts: HashMap<String, Result<&'c layout::Checked, Reported>>,
    pub traversals: HashMap<String, Result<&'c traversal::CheckedTraversal, Reported>>,
}

impl<'c> Scope<'c> {
    /// The scope of what has been checked so far.
    pub fn new(
        items: &'c [Item],
        accesses: &'c [(&access::AccessItem, Result<access::CheckedAccess, Reported>)],
        layouts: &'c [(&layout::LayoutItem, Result<driver::Verified, Reported>)],
        traversals: &'c [(
            &traversal::TraversalItem,
            Result<traversal::CheckedTraversal, Reported>,
        )],
    ) -> Self {
        Scope {
            items,
            accesses: by_name(accesses, |item| &item.name, |checked| checked),
            layouts: by_name(layouts, |item| &item.name, |verified| &verified.checked),
            traversals: by_name(traversals, |item| &item.name, |checked| checked),
        }
    }

    /// The layout named `name`, if it passed every check.
    pub fn layout(&self, name: &str) -> Option<&'c layout::Checked> {
        self.layouts.get(name)?.ok()
    }
}

/// Checked items by name, as `part` of each.
fn by_name<'c, I: 'c, C: 'c, P: ?Sized>(
    checked: &'c [(&I, Result<C, Reported>)],
    name: impl Fn(&I) -> &Ident,
    part: impl Fn(&'c C) -> &'c P,
) -> HashMap<String, Result<&'c P, Reported>> {
    checked
        .iter()
        .map(|(item, checked)| {
            let checked = checked.as_ref().map(&part).map_err(|r| *r);
            (name(item).to_string(), checked)
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

/// Checks every item of kind `K` against `scope` and hands each to `visit`, in the order
/// written.
pub fn check_kind<'c, K: Of>(
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
pub fn visit_checked<K: ItemKind>(
    checked: &[CheckedItem<'_, '_, K>],
    scope: &Scope<'_>,
    visit: &mut impl Visit,
) {
    for (item, checked) in checked {
        visit.visit::<K>(item, checked.as_ref().map_err(|r| *r), scope);
    }
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

        /// Checks every kind that is not named against `scope`, kind after kind, and hands
        /// each item to `visit`.
        pub fn check_the_rest<'c>(
            items: &[&'c Item],
            scope: &Scope<'c>,
            errors: &mut Errors,
            visit: &mut impl Visit,
        ) {
            $(check_kind::<$then_kind>(items, scope, errors, visit);)*
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
