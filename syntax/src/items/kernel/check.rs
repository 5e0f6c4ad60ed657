//! `kernel` items → [`Plan`]s: the layouts named exist and share their coordinates (and,
//! when tiled, their tiles and grid), the walk covers one tile, and every run the walk makes
//! is contiguous on both sides, or the error names the transform that breaks it.

use super::{KernelItem, KernelOption};
use crate::consts::Consts;
use crate::consts::known_names;
use crate::errors::{Errors, Reported};
use crate::items::layout::check::Checked;
use crate::items::traversal::CheckedTraversal;
use std::borrow::Cow;
use std::collections::HashMap;
use swizzle_core::analysis::runs::culprit;
use swizzle_core::budget::KERNEL_TILE;
use swizzle_core::ir::Descriptor;
use swizzle_core::plans::kernel::{self, Plan, Stacked, Storage};
use swizzle_core::plans::sfc::Sfc;
use syn::Ident;

/// What a kernel copies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Row-major array → layout.
    Pack,
    /// Layout → row-major array.
    Unpack,
    /// Layout → layout.
    Copy,
}

/// A checked kernel.
pub struct CheckedKernel<'a> {
    pub direction: Direction,
    /// The layout whose coordinates, extents and grid the kernel copies over.
    pub layout: &'a Checked,
    /// The layout read from (`None`: a row-major array).
    pub source: Option<&'a Checked>,
    /// The layout written to (`None`: a row-major array).
    pub destination: Option<&'a Checked>,
    /// The order in which a tile's elements are visited.
    pub walk: Sfc,
    /// The copy of one tile, planned here to check it and to document it; the runtime plans
    /// it again at first use, so that the expansion does not grow with the tile.
    pub plan: Plan,
    /// Where the tile is a stack of sub-tiles whose generated rows the copies take where
    /// the whole tile's are not (`simd::stacking_pays`): the sub-tile's plan, which the
    /// entry points copy with, stacked.
    pub stacked: Option<Stacked>,
}

/// Checks one kernel; `layouts` and `traversals` are those of the invocation (`Err`: one with
/// errors, already reported).
pub fn check<'a>(
    item: &KernelItem,
    layouts: &HashMap<String, Result<&'a Checked, Reported>>,
    traversals: &HashMap<String, Result<&CheckedTraversal, Reported>>,
    errors: &mut Errors,
) -> Result<CheckedKernel<'a>, Reported> {
    let mark = errors.mark();
    let direction = match item.keyword.to_string().as_str() {
        "pack" => Direction::Pack,
        "unpack" => Direction::Unpack,
        _ => Direction::Copy,
    };
    let mut find = |name: &Option<Ident>| -> Result<Option<&'a Checked>, Reported> {
        let Some(name) = name else {
            return Ok(None);
        };
        match layouts.get(&name.to_string()) {
            Some(checked) => checked.map(Some),
            None => Err(errors.error(name, unknown("layout", name, layouts.keys()))),
        }
    };
    let (source, destination) = (find(&item.source), find(&item.destination));
    let (source, destination) = (source?, destination?);
    // The parser requires a layout on one side at least.
    let layout = destination.or(source).ok_or_else(|| errors.failure(mark))?;
    let tile = layout.descriptor.shape();
    if let (Some(a), Some(b), Some(name)) = (source, destination, &item.destination) {
        same_coordinates(&a.descriptor, &b.descriptor, name, errors)?;
    }
    let name = &layout.descriptor.name;
    if tile.is_empty() {
        return Err(errors.error(
            &item.keyword,
            format!("`{name}` has no coordinates: a kernel copies a layout with at least one"),
        ));
    }
    match layout.descriptor.size() {
        Some(size) if size <= KERNEL_TILE => {}
        size => {
            let size = size.map_or("more than `usize::MAX`".to_owned(), |s| s.to_string());
            return Err(errors.error(
                &item.keyword,
                format!(
                    "a kernel copies one tile at a time, and a tile of `{name}` has {size} \
                     elements, more than {KERNEL_TILE}: give the layout run-time outer dims \
                     (`memory [ty: dyn, …]`)"
                ),
            ));
        }
    }
    let sides = [source, destination].map(|side| match side {
        Some(layout) => Storage::Layout(&layout.descriptor),
        None => Storage::RowMajor,
    });
    let walk = walk(item, &tile, sides, layouts, traversals, errors)?;
    errors.since(mark)?;
    let vector = walk.vector[tile.len() - 1];
    for layout in [source, destination].into_iter().flatten() {
        contiguous(item, &layout.descriptor, &tile, vector, sides, errors);
    }
    errors.since(mark)?;
    let plan = kernel::plan(sides[0], sides[1], &tile, &walk);
    let stacked = kernel::stacked(sides[0], sides[1], &walk)
        .filter(|stacked| super::simd::stacking_pays(&plan, &stacked.plan, direction));
    Ok(CheckedKernel {
        direction,
        layout,
        source,
        destination,
        walk,
        plan,
        stacked,
    })
}

/// "unknown layout `X`: …", with the closest known name or the list of them.
fn unknown<'n>(what: &str, name: &Ident, known: impl Iterator<Item = &'n String>) -> String {
    format!("unknown {what} `{name}`: {}", known_names(name, known))
}

/// A copy between layouts needs the same coordinates, the same tile and the same grid.
fn same_coordinates(
    a: &Descriptor,
    b: &Descriptor,
    at: &Ident,
    errors: &mut Errors,
) -> Result<(), Reported> {
    let signature = |d: &Descriptor| -> (Vec<String>, Vec<usize>) {
        let names = d.coords.iter().map(|&c| d.dims[c].name.to_string());
        let grid = d.grid.iter().map(|g| g.coord).collect();
        (names.collect(), grid)
    };
    let describe = |d: &Descriptor| {
        let dynamic: Vec<usize> = d.grid.iter().map(|g| g.coord).collect();
        let parts: Vec<String> = d
            .coords
            .iter()
            .zip(d.shape())
            .enumerate()
            .map(|(j, (&c, len))| match dynamic.contains(&j) {
                true => format!("{}: dyn × {len}", d.dims[c].name),
                false => format!("{}: {len}", d.dims[c].name),
            })
            .collect();
        format!("[{}]", parts.join(", "))
    };
    if signature(a) == signature(b) && a.shape() == b.shape() {
        return Ok(());
    }
    Err(errors.error(
        at,
        format!(
            "`{}` has coordinates {} but `{}` has {}: a copy needs the same coordinates, \
             tiles and run-time dims on both sides",
            a.name,
            describe(a),
            b.name,
            describe(b)
        ),
    ))
}

/// The walk over one tile: a named traversal, or the default walk (row-major order, runs of
/// the given or the widest common vector along the last coordinate).
fn walk(
    item: &KernelItem,
    tile: &[usize],
    sides: [Storage; 2],
    layouts: &HashMap<String, Result<&Checked, Reported>>,
    traversals: &HashMap<String, Result<&CheckedTraversal, Reported>>,
    errors: &mut Errors,
) -> Result<Sfc, Reported> {
    let mut walk: Option<Result<&Sfc, Reported>> = None;
    let mut vector: Option<(&Ident, Result<usize, Reported>)> = None;
    for option in &item.options {
        match option {
            KernelOption::Walk { keyword, .. } if walk.is_some() => {
                errors.error(keyword, "`walk` is given twice: keep one");
            }
            KernelOption::Walk { traversal, .. } => {
                walk = Some(find_walk(
                    item, traversal, tile, layouts, traversals, errors,
                ));
            }
            KernelOption::Vector { keyword, .. } if vector.is_some() => {
                errors.error(keyword, "`vector` is given twice: keep one");
            }
            KernelOption::Vector { keyword, len } => {
                let consts = Consts::new(Default::default());
                let value = errors.report(consts.eval_usize(len, "a vector length", 1));
                vector = Some((keyword, value));
            }
        }
    }
    // The caller checked that the tile has coordinates.
    let last = tile.last().copied().unwrap_or(1);
    match (walk, vector) {
        (Some(_), Some((keyword, _))) => Err(errors.error(
            keyword,
            "the walk's traversal already gives the vector: drop `vector` or change the \
             traversal's",
        )),
        (Some(sfc), None) => sfc.cloned(),
        (None, Some((_, Err(reported)))) => Err(reported),
        (None, Some((keyword, Ok(v)))) if v > last || last % v != 0 => Err(errors.error(
            keyword,
            format!(
                "vector {v} does not divide the tile's last length {last}: use a divisor of \
                 {last}"
            ),
        )),
        (None, vector) => {
            let vector = match vector {
                Some((_, Ok(v))) => v,
                _ => kernel::common_vector(sides[0], sides[1], tile),
            };
            let mut vectors = vec![1; tile.len()];
            vectors[tile.len() - 1] = vector;
            Ok(Sfc {
                lengths: Cow::Owned(tile.to_vec()),
                order: Cow::Owned((0..tile.len()).collect()),
                vector: Cow::Owned(vectors),
                snake: false,
            })
        }
    }
}

/// The curve of `walk Traversal`, which must walk one tile.
fn find_walk<'t>(
    item: &KernelItem,
    traversal: &Ident,
    tile: &[usize],
    layouts: &HashMap<String, Result<&Checked, Reported>>,
    traversals: &HashMap<String, Result<&'t CheckedTraversal, Reported>>,
    errors: &mut Errors,
) -> Result<&'t Sfc, Reported> {
    let name = traversal.to_string();
    let Some(found) = traversals.get(&name) else {
        let message = match layouts.contains_key(&name) {
            true => format!("`{traversal}` is a layout: `walk` takes a traversal"),
            false => unknown("traversal", traversal, traversals.keys()),
        };
        return Err(errors.error(traversal, message));
    };
    let sfc = &found.as_ref().map_err(|reported| *reported)?.sfc;
    if sfc.lengths[..] == *tile {
        return Ok(sfc);
    }
    let layout = item.destination.as_ref().or(item.source.as_ref());
    let lengths: Vec<String> = tile.iter().map(usize::to_string).collect();
    Err(errors.error(
        traversal,
        format!(
            "`{traversal}` walks {} but a tile is {}: walk the layout (`sfc(over {}, …)`) or \
             give `lengths [{}]`",
            shape(&sfc.lengths),
            shape(tile),
            layout.map_or(String::new(), Ident::to_string),
            lengths.join(", ")
        ),
    ))
}

/// Runs of `vector` elements along the last coordinate must be contiguous in `layout`; the
/// error names the transform that breaks them and the widest vector both sides keep.
fn contiguous(
    item: &KernelItem,
    layout: &Descriptor,
    tile: &[usize],
    vector: usize,
    sides: [Storage; 2],
    errors: &mut Errors,
) {
    let offsets: Vec<Option<usize>> = swizzle_core::ir::coordinates(tile)
        .map(|coord| layout.offset(&coord).ok())
        .collect();
    if kernel::is_contiguous(&offsets, tile, vector) {
        return;
    }
    let last = tile.len() - 1;
    let because = match culprit(layout, &[(last, vector)]) {
        Some(culprit) => format!(": `{}` breaks the run", culprit.describe(layout)),
        None => String::new(),
    };
    let widest = kernel::common_vector(sides[0], sides[1], tile);
    let along = &layout.dims[layout.coords[last]].name;
    let at = item
        .options
        .iter()
        .map(|option| match option {
            KernelOption::Walk { traversal, .. } => traversal.clone(),
            KernelOption::Vector { keyword, .. } => keyword.clone(),
        })
        .next()
        .unwrap_or_else(|| item.keyword.clone());
    let instead = match widest {
        1 => {
            format!("no two neighbours along `{along}` are contiguous on both sides: use vector 1")
        }
        _ => format!("at most {widest} are contiguous on both sides: use vector {widest}"),
    };
    errors.error(
        at,
        format!(
            "runs of {vector} elements along `{along}` are not contiguous in `{}`{because}; {instead}",
            layout.name
        ),
    );
}

fn shape(lengths: &[usize]) -> String {
    let parts: Vec<String> = lengths.iter().map(usize::to_string).collect();
    parts.join(" × ")
}
