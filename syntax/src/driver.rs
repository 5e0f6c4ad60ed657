//! The one driver: every check of an invocation, in one order, for every consumer. The macro
//! expands what it reports, and the command line and [`crate::source`] read from it, so that
//! a layout the macro rejects (`inverse;` on a layout that is not a bijection, a failed
//! `assert`) is rejected everywhere with the same message.

use crate::assertions;
use crate::ast::{
    AccessItem, Invocation, Item, KernelItem, LayoutItem, RasterItem, TiledCopyItem, TraversalItem,
};
use crate::auto::{self, Choice};
use crate::check::{
    self, Accesses, Checked, CheckedAccess, CheckedKernel, CheckedTiledCopy, CheckedTraversal,
};
use crate::errors::{Errors, Reported};
use std::collections::{HashMap, HashSet};
use swizzle_core::canon::{Injectivity, NoInverse, enumeration_limit};
use swizzle_core::emit::compose::{Base, Form};
use swizzle_core::emit::function::LayoutFunctions;
use swizzle_core::plans::raster::Raster;

/// A layout that passed every check, its assertions and its `inverse;` request included,
/// with its functions, built once for every printer.
pub struct Verified {
    pub checked: Checked,
    /// Its offset, validity test and (for a bijection, proved within the enumeration limit)
    /// `coord`: from its whole pipeline, or calling its base's functions where it starts
    /// `over` a staged layout (then `over_base`).
    pub functions: LayoutFunctions,
    /// Whether its functions call its base's ([`swizzle_core::emit::compose`]).
    pub over_base: bool,
    /// Whether a layout `over` this one calls its functions instead of repeating them.
    pub staged: bool,
    /// Whether distinct valid coordinates get distinct offsets (proved).
    pub injective: bool,
    /// What `swizzle (auto ...)` chose, if the layout has one.
    pub auto: Option<Choice>,
}

/// Every item of an invocation, checked (`Err`: it has errors, already reported), each list
/// in the order the items were written.
pub struct Outcome<'i> {
    pub accesses: Vec<(&'i AccessItem, Result<CheckedAccess, Reported>)>,
    pub layouts: Vec<(&'i LayoutItem, Result<Verified, Reported>)>,
    /// With the traversal's rank where it is known despite errors (for a stub).
    pub traversals: Vec<(
        &'i TraversalItem,
        Result<CheckedTraversal, Reported>,
        Option<usize>,
    )>,
    pub rasters: Vec<(&'i RasterItem, Result<Raster, Reported>)>,
}

impl Outcome<'_> {
    /// The layout named `name`, if it passed every check.
    pub fn layout(&self, name: &str) -> Option<&Verified> {
        self.layouts
            .iter()
            .find(|(item, _)| item.name == name)
            .and_then(|(_, verified)| verified.as_ref().ok())
    }
}

/// Checks `invocation` completely — accesses, layouts (with their auto swizzles, assertions
/// and inverses), traversals, kernels — with every error in `errors`. Kernels borrow the
/// layouts they copy, so each is handed to `kernel` as it is checked. Layouts are checked
/// first, whatever the order of the items: the others name them.
pub fn check<'i>(
    invocation: &'i Invocation,
    errors: &mut Errors,
    mut kernel: impl FnMut(&KernelItem, Result<&CheckedKernel, Reported>),
    mut tiled: impl FnMut(&TiledCopyItem, Result<&CheckedTiledCopy, Reported>),
) -> Outcome<'i> {
    let items = &distinct(&invocation.items, errors);
    let accesses: Vec<(&AccessItem, Result<CheckedAccess, Reported>)> = items
        .iter()
        .filter_map(|item| match item {
            Item::Access(access) => Some((access, check::check_access(access, errors))),
            _ => None,
        })
        .collect();
    let by_name: Accesses = accesses
        .iter()
        .map(|(item, checked)| (item.name.to_string(), checked.as_ref().map_err(|r| *r)))
        .collect();
    let mut checked = Vec::new();
    // Each layout may start from one before it (`over`); those after it are named only.
    let mut bases: check::Bases = items
        .iter()
        .filter_map(|item| match item {
            Item::Layout(layout) => Some((layout.name.to_string(), None)),
            _ => None,
        })
        .collect();
    for &item in items {
        let Item::Layout(layout) = item else { continue };
        let mut layout_checked = check::check(layout, &bases, errors);
        let auto = layout_checked
            .as_mut()
            .ok()
            .and_then(|checked| resolve_auto(checked, &by_name, errors));
        let descriptor = layout_checked.as_ref().map(|c| c.descriptor.clone());
        bases.insert(layout.name.to_string(), Some(descriptor.map_err(|r| *r)));
        checked.push((layout, layout_checked, auto));
    }
    let mut layouts: Vec<(&LayoutItem, Result<Verified, Reported>)> = Vec::new();
    for (layout, checked, auto) in checked {
        let verified = checked.and_then(|checked| {
            check::threads::verify(layout, &checked, errors)?;
            let base = checked.over.as_ref().and_then(|over| {
                let name = over.base.to_string();
                let (_, verified) = layouts.iter().find(|(item, _)| item.name == name)?;
                let verified = verified.as_ref().ok()?;
                let base = Base {
                    descriptor: &verified.checked.descriptor,
                    injective: verified.injective,
                    coord: verified.functions.coord.is_some(),
                };
                Some((over.stages, base, verified.staged))
            });
            let form = Form::new(&checked.descriptor, base);
            verify(checked, form, auto, &by_name, errors)
        });
        layouts.push((layout, verified));
    }
    let usable: HashMap<String, Result<&Checked, Reported>> = layouts
        .iter()
        .map(|(item, verified)| {
            let checked = verified.as_ref().map(|v| &v.checked).map_err(|r| *r);
            (item.name.to_string(), checked)
        })
        .collect();
    let traversals: Vec<(
        &TraversalItem,
        Result<CheckedTraversal, Reported>,
        Option<usize>,
    )> = items
        .iter()
        .filter_map(|item| match item {
            Item::Traversal(traversal) => Some(traversal),
            _ => None,
        })
        .map(|traversal| {
            let checked = check::check_traversal(traversal, &usable, errors);
            (
                traversal,
                checked,
                check::traversal_rank(traversal, &usable),
            )
        })
        .collect();
    let walks = traversals
        .iter()
        .map(|(item, checked, _)| (item.name.to_string(), checked.as_ref().map_err(|r| *r)))
        .collect();
    for item in items {
        match item {
            Item::Kernel(item) => kernel(
                item,
                check::check_kernel(item, &usable, &walks, errors)
                    .as_ref()
                    .map_err(|r| *r),
            ),
            Item::TiledCopy(item) => tiled(
                item,
                check::check_tiled_copy(item, &usable, errors)
                    .as_ref()
                    .map_err(|r| *r),
            ),
            _ => {}
        }
    }
    let rasters = items
        .iter()
        .filter_map(|item| match item {
            Item::Raster(raster) => Some((raster, check::check_raster(raster, errors))),
            _ => None,
        })
        .collect();
    Outcome {
        accesses,
        layouts,
        traversals,
        rasters,
    }
}

/// The items whose names are their own. Every item defines a type of its name, so a second
/// item of a name, or an item named after a primitive type (which the generated code names),
/// is an error on its name and is left out of the check and the expansion, instead of
/// dozens of rustc errors about the clash.
fn distinct<'i>(items: &'i [Item], errors: &mut Errors) -> Vec<&'i Item> {
    let mut seen = HashSet::new();
    items
        .iter()
        .filter(|item| {
            let name = item.name();
            let text = name.to_string();
            if PRIMITIVES.contains(&text.as_str()) {
                errors.error(
                    name,
                    format!(
                        "`{name}` is a primitive type, which the generated code uses: name the \
                         item otherwise"
                    ),
                );
                return false;
            }
            let fresh = seen.insert(text);
            if !fresh {
                errors.error(
                    name,
                    format!("`{name}` is already defined in this invocation: rename one of them"),
                );
            }
            fresh
        })
        .collect()
}

/// Rust's primitive types: an item of one of these names would shadow it.
const PRIMITIVES: &[&str] = &[
    "bool", "char", "str", "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64",
    "i128", "isize", "f16", "f32", "f64", "f128",
];

/// Chooses the parameters of a layout's `swizzle (auto ...)`, if it has one.
fn resolve_auto(checked: &mut Checked, accesses: &Accesses, errors: &mut Errors) -> Option<Choice> {
    let request = checked.auto.as_ref()?;
    auto::resolve(&mut checked.descriptor, request, accesses, errors)
}

/// Builds the layout's functions and verifies its assertions; an `inverse;` request on a
/// layout that is not a bijection is an error naming two colliding coordinates.
fn verify(
    checked: Checked,
    form: Form,
    auto: Option<Choice>,
    accesses: &Accesses,
    errors: &mut Errors,
) -> Result<Verified, Reported> {
    let descriptor = &checked.descriptor;
    let mark = errors.mark();
    assertions::verify(descriptor, &form, &checked.claims, accesses, errors);
    let limit = enumeration_limit(checked.inverse.is_some());
    let coord = form.coord(descriptor, limit);
    if let (Some(keyword), Err(no_inverse)) = (&checked.inverse, &coord) {
        let message = match no_inverse {
            NoInverse::NotBijective(why) => format!(
                "`inverse` needs a bijection, but {why}: remove `inverse;` or make every offset \
                 belong to exactly one coordinate"
            ),
            NoInverse::Stage { stage, why } => format!(
                "`inverse` undoes a bijection stage by stage, but `{stage}` cannot be undone \
                 ({why}): remove `inverse;` or write that stage with a transform that is \
                 one-to-one on its own"
            ),
        };
        errors.error(keyword, message);
    }
    let injective = matches!(form.injectivity(descriptor, limit), Injectivity::Injective);
    let functions = form.functions(coord.ok());
    errors.since(mark).map(|()| Verified {
        over_base: matches!(form, Form::Over(_)),
        staged: form.is_staged(),
        checked,
        functions,
        injective,
        auto,
    })
}
