//! `assert` statements, verified at expansion time on the final layout (after `auto` has
//! chosen its swizzle). A failed assertion is a compile error on the statement that names
//! the evidence: the colliding coordinates, lanes, offsets and banks.

use super::check::{Claim, Claimed};
use crate::errors::{Errors, Reported};
use crate::items::access::{Accesses, CheckedAccess};
use swizzle_core::analysis::Touch;
use swizzle_core::analysis::banks::{BankConflict, Banks, bank_conflicts};
use swizzle_core::analysis::contiguity::vector_width;
use swizzle_core::analysis::transactions::{Coalescing, transactions};
use swizzle_core::budget::{self, ANALYSIS_COORDINATES, EVIDENCE};
use swizzle_core::emit::compose::Form;
use swizzle_core::ir::Descriptor;
use syn::Ident;

/// Checks every claim of a layout; failures go to `errors`.
pub fn verify(
    descriptor: &Descriptor,
    form: &Form,
    claims: &[Claim],
    accesses: &Accesses,
    errors: &mut Errors,
) {
    for claim in claims {
        let failure = match &claim.assertion {
            Claimed::Bijective => form
                .bijectivity(descriptor, budget::REQUESTED_ENUMERATION)
                .err()
                .map(|why| {
                    format!("`assert bijective` fails: {why}: make every transform one-to-one")
                }),
            Claimed::MaxConflict { max, access } => {
                let Ok(checked) = lookup(access, accesses, errors) else {
                    continue;
                };
                let (count, width_bytes) = checked.banks;
                match bank_conflicts(descriptor, &checked.access, Banks { count, width_bytes }) {
                    Err(error) => Some(format!("`{access}` does not fit this layout: {error}")),
                    Ok(report) if report.degree <= *max => None,
                    Ok(report) => {
                        let evidence = report
                            .worst
                            .as_ref()
                            .map_or_else(String::new, |worst| conflict_evidence(descriptor, worst));
                        let lane_bytes = checked.access.element_bytes * checked.access.vector;
                        let fix = match lane_bytes > count * width_bytes {
                            true => format!(
                                "one lane's {lane_bytes} bytes span every bank more than once \
                                 whatever the layout: access fewer bytes per lane"
                            ),
                            false => format!(
                                "swizzle the colliding bits apart (`swizzle i -> s (auto for \
                                 {access})` finds one) or pad the rows"
                            ),
                        };
                        Some(format!(
                            "`{access}` has {}-way bank conflicts, more than the {max} \
                             asserted{evidence}; {fix}",
                            report.degree
                        ))
                    }
                }
            }
            // `vector_width` walks at most `ANALYSIS_COORDINATES` coordinates: beyond that its
            // answer is partial and cannot prove the claim.
            Claimed::Vector { .. }
                if descriptor
                    .size()
                    .is_none_or(|size| size > ANALYSIS_COORDINATES) =>
            {
                Some(format!(
                    "`assert vector` cannot be checked: this layout has more than {ANALYSIS_COORDINATES} coordinates, the budget of the contiguity analysis"
                ))
            }
            Claimed::Vector { min } => {
                let width = vector_width(descriptor);
                (width < *min).then(|| {
                    format!(
                        "only {width} consecutive elements of the last coordinate are contiguous in \
                         memory, fewer than the {min} asserted: keep the last coordinate's low bits \
                         innermost (no swizzle or interleave below bit {})",
                        min.trailing_zeros()
                    )
                })
            }
            Claimed::Transactions { max, access, model } => {
                let Ok(checked) = lookup(access, accesses, errors) else {
                    continue;
                };
                let Some(model) = coalescing(model.as_ref(), errors) else {
                    continue;
                };
                match transactions(descriptor, &checked.access, model) {
                    Err(error) => Some(format!("`{access}` does not fit this layout: {error}")),
                    Ok(t) if t.transactions <= *max => None,
                    Ok(t) => Some(format!(
                        "`{access}` takes {} memory transactions under {model:?} ({} bytes moved for {} \
                         requested), more than the {max} asserted: make neighbouring lanes touch \
                         neighbouring offsets",
                        t.transactions, t.transferred_bytes, t.requested_bytes
                    )),
                }
            }
        };
        if let Some(failure) = failure {
            errors.error(&claim.tokens, failure);
        }
    }
}

/// The access named `access`, or an error that says to declare it (for `assert`s and
/// `swizzle (auto for ...)` alike); the proof of its errors for an access that did not
/// check.
pub(crate) fn lookup<'a>(
    access: &Ident,
    accesses: &Accesses<'a>,
    errors: &mut Errors,
) -> Result<&'a CheckedAccess, Reported> {
    match accesses.get(&access.to_string()) {
        Some(checked) => *checked,
        None => Err(errors.error(
            access,
            format!(
                "unknown access `{access}`: declare it in this invocation with `access \
                 {access} {{ ... }}`"
            ),
        )),
    }
}

/// The coalescing model named in `transactions(.., model)`; current GPUs by default.
fn coalescing(model: Option<&Ident>, errors: &mut Errors) -> Option<Coalescing> {
    let Some(model) = model else {
        return Some(Coalescing::Sectors32);
    };
    match model.to_string().as_str() {
        "cc11" => Some(Coalescing::Cc11),
        "cc13" => Some(Coalescing::Cc13),
        "sectors32" => Some(Coalescing::Sectors32),
        other => {
            errors.error(
                model,
                format!("unknown coalescing model `{other}`: use `cc11`, `cc13` or `sectors32`"),
            );
            None
        }
    }
}

/// `: lanes 0, 8 and 16 all hit bank 3 in phase 0: (y=0, x=3) → 3, …`: the first
/// [`EVIDENCE`] lanes and elements of a conflict, each element once with the number of the
/// bank's words it spans (an element wider than a bank word spans several).
fn conflict_evidence(descriptor: &Descriptor, worst: &BankConflict) -> String {
    let elements = worst.elements();
    let mut lanes: Vec<usize> = elements.iter().map(|(touch, _)| touch.lane).collect();
    lanes.dedup();
    // The first `EVIDENCE` are named, the rest counted.
    let more = |count: usize| count.saturating_sub(EVIDENCE);
    let lanes = match lanes.as_slice() {
        [one] => format!("lane {one} hits"),
        _ => {
            let mut names: Vec<String> =
                lanes.iter().take(EVIDENCE).map(usize::to_string).collect();
            if more(lanes.len()) > 0 {
                names.push(format!("{} more", more(lanes.len())));
            }
            format!("lanes {} all hit", list(&names))
        }
    };
    let mut touches: Vec<String> = elements
        .iter()
        .take(EVIDENCE)
        .map(|(touch, words)| match words {
            1 => show_touch(descriptor, touch),
            words => format!("{} ({words} words)", show_touch(descriptor, touch)),
        })
        .collect();
    if more(elements.len()) > 0 {
        touches.push(format!("… ({} more)", more(elements.len())));
    }
    format!(
        ": {lanes} bank {} in phase {}: {}",
        worst.bank,
        worst.phase,
        touches.join(", ")
    )
}

fn show_touch(descriptor: &Descriptor, touch: &Touch) -> String {
    format!("{} → {}", descriptor.describe(&touch.coord), touch.offset)
}

/// `0, 8 and 16`.
fn list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}
