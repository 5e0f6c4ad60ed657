//! `traversal` items → [`Sfc`]s: lengths (given, or a layout's coordinates), a dim order that
//! is a permutation, vectors no wider than their dims, and, for a traversal over a layout,
//! vectors that are contiguous in it (each access one run of consecutive offsets).

use super::{SfcArg, SfcArgKind, TraversalItem};
use crate::ast::Expr;
use crate::consts::Consts;
use crate::consts::known_names;
use crate::errors::{Errors, Reported};
use crate::items::layout::check::Checked;
use quote::quote;
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use swizzle_core::analysis::runs::culprit;
use swizzle_core::budget::TRAVERSAL_CONTIGUITY;
use swizzle_core::ir::{Descriptor, List, coordinates};
use swizzle_core::plans::sfc::Sfc;
use syn::Ident;

/// A checked traversal.
pub struct CheckedTraversal {
    pub sfc: Sfc,
    /// The layout it walks, if it walks one.
    pub over: Option<Ident>,
    /// Names of the dims (the layout's coordinates, or `d0`, `d1`, …).
    pub dims: Vec<String>,
}

/// The rank a traversal has, as far as its arguments tell, for a stub that stands in for it
/// when it has errors.
pub fn rank(
    item: &TraversalItem,
    layouts: &HashMap<String, Result<&Checked, Reported>>,
) -> Option<usize> {
    item.args.iter().find_map(|arg| match &arg.kind {
        SfcArgKind::Lengths(list) | SfcArgKind::Order(list) | SfcArgKind::Vector(list) => {
            Some(list.len())
        }
        SfcArgKind::Over(layout) => layouts
            .get(&layout.to_string())?
            .as_ref()
            .ok()
            .map(|l| l.coords.len()),
        SfcArgKind::Snake(_) => None,
    })
}

/// A dim as messages name it: a coordinate of the walked layout, or its index.
fn label(dims: &[String], named: bool, dim: usize) -> String {
    match named {
        true => format!("`{}`", dims[dim]),
        false => format!("dim {dim}"),
    }
}

/// Checks one traversal; `layouts` are the layouts of the invocation (`Err`: one that did
/// not check, whose errors are already reported).
pub fn check(
    item: &TraversalItem,
    layouts: &HashMap<String, Result<&Checked, Reported>>,
    errors: &mut Errors,
) -> Result<CheckedTraversal, Reported> {
    let mark = errors.mark();
    let consts = Consts::new(errors.unparsed_names(&item.name));
    let mut seen: HashMap<String, &Ident> = HashMap::new();
    let (mut lengths, mut over, mut order, mut vector, mut snake) = (None, None, None, None, true);
    for SfcArg { keyword, kind } in &item.args {
        // `lengths` and `over` say the same thing, so each excludes the other.
        let slot = match kind {
            SfcArgKind::Over(_) => "lengths".to_owned(),
            _ => keyword.to_string(),
        };
        if let Some(first) = seen.insert(slot, keyword) {
            let message = if first == keyword {
                format!("`{keyword}` is given twice: keep one")
            } else {
                "give either `lengths [..]` or `over Layout`, not both".to_owned()
            };
            errors.error(keyword, message);
            continue;
        }
        match kind {
            SfcArgKind::Lengths(exprs) => {
                lengths = Some(evaluate(exprs, &consts, "a length", 1, errors))
            }
            SfcArgKind::Over(layout) => over = Some(layout),
            SfcArgKind::Order(exprs) => order = Some((keyword, exprs)),
            SfcArgKind::Vector(exprs) => vector = Some((keyword, exprs)),
            SfcArgKind::Snake(value) => snake = value.as_ref().is_none_or(|v| v.value),
        }
    }
    let incomplete = errors.unparsed_in(&item.name);
    // The lengths and dim names: given, or the walked layout's (one tile of a tiled layout).
    let (lengths, dims, layout): (Vec<Option<usize>>, Vec<String>, Option<&Checked>) =
        match (lengths, over) {
            (Some(lengths), _) => {
                let dims = (0..lengths.len()).map(|d| format!("d{d}")).collect();
                (lengths, dims, None)
            }
            (None, Some(name)) => match layouts.get(&name.to_string()) {
                Some(Ok(checked)) => {
                    let descriptor = &checked.descriptor;
                    let lengths = descriptor.shape().into_iter().map(Some).collect();
                    let dims = checked.coords.iter().map(Ident::to_string).collect();
                    (lengths, dims, Some(*checked))
                }
                Some(Err(reported)) => return Err(*reported),
                None => {
                    let hint = known_names(name, layouts.keys());
                    return Err(errors.error(
                        name,
                        format!(
                            "unknown layout `{name}`: `over` walks a layout of this \
                             invocation; {hint}"
                        ),
                    ));
                }
            },
            (None, None) => {
                return Err(incomplete.unwrap_or_else(|| {
                    errors.error(
                        &item.keyword,
                        "say what the curve walks: `lengths [..]` or `over Layout`",
                    )
                }));
            }
        };
    let rank = lengths.len();
    if rank == 0 {
        return Err(errors.error(&item.keyword, "a traversal needs at least one dim"));
    }
    let order = match order {
        Some((keyword, exprs)) => {
            permutation(keyword, exprs, &dims, layout.is_some(), &consts, errors)
        }
        None => Some(Cow::Owned((0..rank).collect())),
    };
    let vector: Vec<Option<usize>> = match vector {
        Some((keyword, exprs)) if exprs.len() != rank => {
            errors.error(
                quote!(#keyword #(#exprs)*),
                format!(
                    "`vector` has {} entries for {rank} dims: give one per dim",
                    exprs.len()
                ),
            );
            vec![None; rank]
        }
        Some((_, exprs)) => evaluate(exprs, &consts, "a vector length", 1, errors),
        None => vec![Some(1); rank],
    };
    errors.since(mark)?;
    if let Some(reported) = incomplete {
        return Err(reported);
    }
    let lengths: Option<Vec<usize>> = lengths.into_iter().collect();
    let vector: Option<Vec<usize>> = vector.into_iter().collect();
    let (Some(lengths), Some(vector)) = (lengths, vector) else {
        return Err(errors.failure(mark));
    };
    let vector_exprs = item.args.iter().find_map(|arg| match &arg.kind {
        SfcArgKind::Vector(exprs) => Some((&arg.keyword, exprs)),
        _ => None,
    });
    if let Some((_, exprs)) = vector_exprs {
        for (d, ((&len, &v), expr)) in lengths.iter().zip(&vector).zip(exprs).enumerate() {
            if v > len {
                errors.error(
                    expr,
                    format!(
                        "vector {v} along {} is wider than its length {len}: use at most {len}",
                        label(&dims, layout.is_some(), d)
                    ),
                );
            }
        }
    }
    let accesses = lengths
        .iter()
        .zip(&vector)
        .try_fold(1usize, |acc, (&len, &v)| acc.checked_mul(len.div_ceil(v)));
    if accesses.is_none() {
        errors.error(&item.keyword, "this traversal has more than `usize::MAX` accesses: use shorter lengths or wider vectors");
    }
    errors.since(mark)?;
    let Some(order) = order else {
        return Err(errors.failure(mark));
    };
    let sfc = Sfc {
        lengths: Cow::Owned(lengths),
        order,
        vector: Cow::Owned(vector),
        snake,
    };
    if let (Some(layout), Some((keyword, exprs))) = (layout, vector_exprs) {
        contiguous(
            &layout.descriptor,
            &sfc,
            &dims,
            quote!(#keyword #(#exprs)*),
            errors,
        )
        .ok_or_else(|| errors.failure(mark))?;
    }
    Ok(CheckedTraversal {
        sfc,
        over: over.cloned(),
        dims,
    })
}

/// Each expression's value (at least `min`), `None` where it has an error.
fn evaluate(
    exprs: &[Expr],
    consts: &Consts,
    what: &str,
    min: usize,
    errors: &mut Errors,
) -> Vec<Option<usize>> {
    exprs
        .iter()
        .map(|expr| errors.report(consts.eval_usize(expr, what, min)).ok())
        .collect()
}

/// `order [..]`: every dim exactly once, by index or (over a layout) by coordinate name.
fn permutation(
    keyword: &Ident,
    exprs: &[Expr],
    dims: &[String],
    named: bool,
    consts: &Consts,
    errors: &mut Errors,
) -> Option<List<usize>> {
    let rank = dims.len();
    let mut order = Vec::with_capacity(exprs.len());
    for expr in exprs {
        let dim = match expr {
            Expr::Const(name) if named => match dims.iter().position(|d| name == d) {
                Some(dim) => dim,
                None => {
                    errors.error(
                        name,
                        format!(
                            "`{name}` is not a coordinate here; the coordinates are: {}",
                            dims.join(", ")
                        ),
                    );
                    return None;
                }
            },
            expr => {
                let dim = errors
                    .report(consts.eval_usize(expr, "a dim index", 0))
                    .ok()?;
                if dim >= rank {
                    errors.error(
                        expr,
                        format!("dim {dim} does not exist: the dims are 0..{rank}"),
                    );
                    return None;
                }
                dim
            }
        };
        order.push(dim);
    }
    let distinct: HashSet<usize> = order.iter().copied().collect();
    if order.len() != rank || distinct.len() != rank {
        let all: Vec<String> = (0..rank)
            .map(|d| {
                if named {
                    dims[d].clone()
                } else {
                    d.to_string()
                }
            })
            .collect();
        let written: Vec<String> = order.iter().map(|&d| all[d].clone()).collect();
        errors.error(
            quote!(#keyword #(#exprs)*),
            format!(
                "`order` must name every dim exactly once (a permutation of [{}]), found [{}]",
                all.join(", "),
                written.join(", ")
            ),
        );
        return None;
    }
    Some(Cow::Owned(order))
}

/// Every access of a traversal over `layout` must be one run: its in-bounds elements at the
/// access's offset plus their row-major place in the vector block. An error names the first
/// access that is not, and the transform that breaks it.
fn contiguous(
    layout: &Descriptor,
    sfc: &Sfc,
    dims: &[String],
    at: proc_macro2::TokenStream,
    errors: &mut Errors,
) -> Option<()> {
    let block: Vec<(usize, usize)> = sfc.vector.iter().copied().enumerate().collect();
    let blamed = culprit(layout, &block);
    let size = layout.size().unwrap_or(usize::MAX);
    let broken = if size <= TRAVERSAL_CONTIGUITY {
        first_broken_access(layout, sfc)
    } else {
        // Too large to evaluate: the walk's verdict stands, with no access to show.
        blamed.map(|_| String::new())
    };
    let Some(evidence) = broken else {
        return Some(());
    };
    let vector: Vec<String> = sfc.vector.iter().map(usize::to_string).collect();
    let because = match blamed {
        Some(culprit) => format!(": `{}` breaks the run", culprit.describe(layout)),
        None => String::new(),
    };
    let widest = widest(layout, sfc, dims);
    errors.error(
        at,
        format!(
            "vector [{}] is not contiguous in `{}`{because}{evidence}; {widest}",
            vector.join(", "),
            layout.name
        ),
    );
    None
}

/// A description of the first access whose elements are not one run, if any.
fn first_broken_access(layout: &Descriptor, sfc: &Sfc) -> Option<String> {
    for i in 0..sfc.num_access() {
        let (start, extent) = (sfc.index(i), sfc.extent(i));
        let Ok(base) = layout.offset(&start) else {
            continue;
        };
        let block: Vec<usize> = sfc.vector.to_vec();
        for (place, inside) in coordinates(&block).enumerate() {
            if inside.iter().zip(&extent).any(|(b, e)| b >= e) {
                continue;
            }
            let coord: Vec<usize> = start.iter().zip(&inside).map(|(s, b)| s + b).collect();
            match layout.offset(&coord) {
                Ok(offset) if offset == base + place => {}
                Ok(offset) => {
                    return Some(format!(
                        " (access {i} starts at {} → {base}, but {} → {offset}, not {})",
                        layout.describe(&start),
                        layout.describe(&coord),
                        base + place
                    ));
                }
                Err(_) => {}
            }
        }
    }
    None
}

/// What to write instead: the widest vector along the innermost vector dim that is
/// contiguous, the others scalar.
fn widest(layout: &Descriptor, sfc: &Sfc, dims: &[String]) -> String {
    let along = sfc
        .order
        .iter()
        .rev()
        .find(|&&d| sfc.vector[d] > 1)
        .copied()
        .unwrap_or(dims.len() - 1);
    let mut v = sfc.vector[along];
    while v > 1 {
        v = if v.is_power_of_two() {
            v / 2
        } else {
            1 << v.ilog2()
        };
        if culprit(layout, &[(along, v)]).is_none() {
            return format!(
                "at most {v} elements along `{}` are contiguous",
                dims[along]
            );
        }
    }
    format!(
        "no two elements along `{}` are contiguous: use vector 1",
        dims[along]
    )
}
