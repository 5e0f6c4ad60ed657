//! The checks particular to thread-value layouts (`threads Name { .. }`), after the layout
//! checks they share with every layout: the workgroup's thread count fits any GPU, and every
//! element of the tile is held by exactly one slot — or by at least one, where the pipeline
//! declares replication with a `replicate` stage.

use super::super::{LayoutItem, StmtKind};
use super::Checked;
use crate::errors::{Errors, Reported};
use proc_macro2::TokenStream;
use swizzle_core::ir::Transform;
use swizzle_core::ir::transform::show;
use swizzle_core::plans::threads::{Coverage, MAX_WORKGROUP_THREADS, ThreadValues};

/// Verifies a checked thread-value layout; `Ok` for other layouts.
pub fn verify(item: &LayoutItem, checked: &Checked, errors: &mut Errors) -> Result<(), Reported> {
    let Some(thread_coords) = checked.thread_coords else {
        return Ok(());
    };
    // The statement an error is about, or the item's name if it did not parse.
    let statement = |wanted: fn(&StmtKind) -> bool| -> TokenStream {
        let found = item.body.iter().find(|stmt| wanted(&stmt.kind));
        let name = &item.name;
        found.map_or_else(|| quote::quote!(#name), |stmt| stmt.tokens.clone())
    };
    let threads = ThreadValues::new(&checked.descriptor, thread_coords);
    let mark = errors.mark();
    let count = threads.thread_count();
    if count > MAX_WORKGROUP_THREADS {
        errors.error(
            statement(|kind| matches!(kind, StmtKind::Threads { .. })),
            format!(
                "{} threads are more than a workgroup allows ({MAX_WORKGROUP_THREADS} on every \
                 GPU API; WebGPU's default limit is 256): give each thread more values",
                show(count as u128)
            ),
        );
    }
    let replicated = checked
        .descriptor
        .stages
        .iter()
        .any(|stage| matches!(stage, Transform::Replicate(_)));
    let names = threads.tile_names();
    let element = |element: &[usize]| -> String {
        let parts: Vec<String> = names
            .iter()
            .zip(element)
            .map(|(name, value)| format!("{name}={value}"))
            .collect();
        format!("({})", parts.join(", "))
    };
    let values = statement(|kind| matches!(kind, StmtKind::Values { .. }));
    match threads.coverage(replicated) {
        Ok(()) => {}
        Err(Coverage::Missing { element: missing }) => {
            errors.error(
                values,
                format!(
                    "no thread holds the tile's element {}: every element of the tile must be \
                     held, so give the threads more values or the workgroup more threads",
                    element(&missing)
                ),
            );
        }
        Err(Coverage::Repeated {
            element: held,
            a,
            b,
        }) => {
            errors.error(
                values,
                format!(
                    "{a} and {b} both hold the tile's element {}: each element is held \
                     exactly once, unless the pipeline declares replication with a \
                     `replicate` stage",
                    element(&held)
                ),
            );
        }
        Err(Coverage::TooLarge { elements }) => {
            errors.error(
                values,
                format!(
                    "{} slots and elements are more than the check that each element is held \
                     exactly once may enumerate: use a smaller tile",
                    show(elements as u128)
                ),
            );
        }
    }
    errors.since(mark)
}
