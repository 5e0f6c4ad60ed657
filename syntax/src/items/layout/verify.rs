//! A layout's checks beyond its own statements, once every layout of the invocation is
//! checked: its auto swizzle (against the accesses), its thread-value checks, its assertions
//! and its `inverse;`, and the functions every printer prints, built once.

use super::LayoutItem;
use super::assertions;
use super::auto::{self, Choice};
use super::check::{self, Checked};
use crate::errors::{Errors, Reported};
use crate::items::access::Accesses;
use swizzle_core::canon::{Collision, Injectivity, NoInverse, enumeration_limit};
use swizzle_core::emit::compose::{Base, Form};
use swizzle_core::emit::function::LayoutFunctions;
use swizzle_core::emit::table;
use swizzle_core::ir::Descriptor;
use swizzle_core::picture::Cells;

/// A layout that passed every check, its assertions and its `inverse;` request included,
/// with its functions, built once for every printer.
pub struct Verified {
    pub checked: Checked,
    /// Its offset, validity test and (for a bijection, proved within the enumeration limit)
    /// `coord`: from its whole pipeline, or calling its base's functions where it starts
    /// `over` a staged layout (then its [`Verified::form`] is [`Form::Over`]).
    pub functions: LayoutFunctions,
    /// The form its functions and verdicts come from: its whole pipeline's canonical form,
    /// or its own stages over its base's functions. What else is decided of it (`swizzle
    /// show`'s bijectivity) is decided from this, as the macro decides it.
    pub form: Form,
    /// Whether distinct valid coordinates get distinct offsets (proved).
    pub injective: bool,
    /// Two coordinates with one offset, where it was proved not injective.
    pub collision: Option<Collision>,
    /// What `swizzle (auto ...)` chose, if the layout has one.
    pub auto: Option<Choice>,
    /// The offsets its rustdoc table shows, for a layout that has one
    /// ([`table::has_table`]): from its base's, where it starts `over` a layout that has
    /// them, so that a chain of small layouts is tabulated in time linear in its length.
    pub table: Option<Cells>,
}

/// Checks the layouts of an invocation (`layouts`, in the order written): each one, then
/// its auto swizzle (with the `accesses`), then, once every layout is checked, its
/// thread-value checks, assertions and inverse.
pub fn verify_all(
    layouts: &[&LayoutItem],
    by_name: &Accesses,
    errors: &mut Errors,
) -> Vec<Result<Verified, Reported>> {
    let mut checked = Vec::new();
    // Each layout may start from one before it (`over`); those after it are named only.
    let mut bases: check::Bases = layouts
        .iter()
        .map(|layout| (layout.name.to_string(), None))
        .collect();
    for &layout in layouts {
        let mut layout_checked = check::check(layout, &bases, errors);
        let auto = layout_checked
            .as_mut()
            .ok()
            .and_then(|checked| resolve_auto(checked, by_name, errors));
        let descriptor = layout_checked.as_ref().map(|c| c.descriptor.clone());
        bases.insert(layout.name.to_string(), Some(descriptor.map_err(|r| *r)));
        checked.push((layout, layout_checked, auto));
    }
    let mut verified: Vec<Result<Verified, Reported>> = Vec::with_capacity(checked.len());
    for (layout, checked, auto) in checked {
        let outcome = checked.and_then(|checked| {
            check::threads::verify(layout, &checked, errors)?;
            // A layout `over` one checked before it composes the base's verdicts.
            let over = checked.over.as_ref().and_then(|over| {
                let at = layouts.iter().position(|item| item.name == over.base)?;
                Some((over.stages, verified.get(at)?.as_ref().ok()?))
            });
            let base = over.map(|(stages, base)| {
                let form = Base {
                    descriptor: &base.checked.descriptor,
                    injective: base.injective,
                    collision: base.collision.as_ref(),
                    coord: base.functions.coord.is_some(),
                    f2: match &base.form {
                        Form::Whole(canonical) => canonical.f2.as_ref(),
                        Form::Over(_) => None,
                    },
                };
                (stages, form, base.form.is_staged())
            });
            let form = Form::new(&checked.descriptor, base);
            let table = table_cells(&checked.descriptor, over);
            verify(checked, form, table, auto, by_name, errors)
        });
        verified.push(outcome);
    }
    verified
}

/// The offsets of `descriptor`'s rustdoc table, if it has one: its own stages run over its
/// base's cells where it starts `over` (after that many stages) a layout whose cells are
/// kept, else every coordinate run through the whole pipeline.
fn table_cells(descriptor: &Descriptor, over: Option<(usize, &Verified)>) -> Option<Cells> {
    if !table::has_table(descriptor) {
        return None;
    }
    let over_base = over.and_then(|(stages, base)| {
        let base_cells = base.table.as_ref()?;
        Cells::over(descriptor, stages, &base.checked.descriptor, base_cells)
    });
    over_base.unwrap_or_else(|| Cells::new(descriptor)).ok()
}

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
    table: Option<Cells>,
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
    let injectivity = form.injectivity(descriptor, limit);
    let injective = matches!(injectivity, Injectivity::Injective);
    let collision = match injectivity {
        Injectivity::Collides(collision) => Some(collision),
        _ => None,
    };
    let functions = form.functions(coord.ok());
    errors.since(mark).map(|()| Verified {
        checked,
        functions,
        form,
        injective,
        collision,
        auto,
        table,
    })
}
