//! What `swizzle show` and `swizzle analyze` print, and the playground shows: plain text, one fact
//! per line.

use crate::analysis::contiguity::vector_width_of;
use crate::analysis::{
    Access, Banks, Coalescing, Touch, bank_conflicts, locality, transactions, vector_width,
};
use crate::budget;
use crate::canon::Canonical;
use crate::ir::Descriptor;
use crate::picture::{self, Cells, PictureError};
use crate::plans::threads::ThreadValues;
use std::fmt::Write;

/// What [`show`] reports of a layout that its caller may have decided already, each the
/// same as [`Shown::of`] decides it: the command line takes the bijectivity the check
/// proved and builds the cells of a layout `over` another from its base's, so that a chain
/// of layouts costs each layout its own stages, not its bases' too.
pub struct Shown {
    /// Whether distinct coordinates get distinct offsets and cover the element space
    /// ([`Canonical::bijectivity`] within [`budget::REQUESTED_ENUMERATION`]): `Err` says
    /// why not.
    pub bijectivity: Result<(), String>,
    /// The offset of every coordinate ([`Cells::new`]), or why there are none.
    pub cells: Result<Cells, PictureError>,
}

impl Shown {
    /// Decides everything from the descriptor: its whole canonical form, and every
    /// coordinate through the interpreter.
    pub fn of(descriptor: &Descriptor) -> Shown {
        let canonical = Canonical::new(descriptor);
        Shown {
            bijectivity: canonical.bijectivity(descriptor, budget::REQUESTED_ENUMERATION),
            cells: Cells::new(descriptor),
        }
    }
}

/// The facts of a layout and its grid of offsets, or of banks when `banks` is given; a
/// grid that cannot be drawn (too large) is replaced by the reason.
pub fn show(descriptor: &Descriptor, banks: Option<Banks>, element_bytes: usize) -> String {
    show_with(descriptor, &Shown::of(descriptor), banks, element_bytes)
}

/// [`show`], with what `shown` says of the layout instead of deciding it again.
pub fn show_with(
    descriptor: &Descriptor,
    shown: &Shown,
    banks: Option<Banks>,
    element_bytes: usize,
) -> String {
    let mut out = String::new();
    let shape = descriptor.shape();
    let count =
        |n: Option<usize>| n.map_or_else(|| "overflows usize".to_owned(), |n| n.to_string());
    let _ = writeln!(out, "{}", descriptor.name);
    if !shape.is_empty() {
        let lens: Vec<String> = shape.iter().map(usize::to_string).collect();
        let _ = writeln!(
            out,
            "  coordinates    {} = {}",
            coordinate_names(descriptor).join(" × "),
            lens.join(" × ")
        );
    }
    let _ = writeln!(out, "  size           {}", count(descriptor.size()));
    let _ = writeln!(out, "  element space  {}", count(descriptor.space()));
    let bijective = match &shown.bijectivity {
        Ok(()) => format!("yes, onto 0..{}", descriptor.space().unwrap_or(0)),
        Err(why) => format!("no: {why}"),
    };
    let _ = writeln!(out, "  bijective      {bijective}");
    if let Some(last) = coordinate_names(descriptor).last() {
        // The cells hold every coordinate the width would evaluate; a layout too large for
        // them is evaluated, within the analyses' budget.
        let width = match &shown.cells {
            Ok(cells) => vector_width_of(cells),
            Err(_) => vector_width(descriptor),
        };
        let _ = writeln!(out, "  vector width   {width} along {last}");
    }
    let (what, mut details, grid) = match banks {
        None => (
            "offsets",
            vec![],
            shown.cells.as_ref().map(picture::cells_map),
        ),
        Some(banks) => (
            "banks",
            vec![format!(
                "{} × {} B, {element_bytes}-byte elements",
                banks.count, banks.width_bytes
            )],
            (shown.cells.as_ref())
                .map(|cells| picture::cells_bank_map(cells, element_bytes, banks)),
        ),
    };
    details.extend(axes(descriptor));
    let _ = if details.is_empty() {
        writeln!(out, "{what}:")
    } else {
        writeln!(out, "{what} ({}):", details.join("; "))
    };
    match grid {
        Ok(grid) => out.push_str(&grid),
        Err(error) => {
            let _ = writeln!(out, "  not drawn: {error}");
        }
    }
    out
}

/// Bank conflicts, transactions under the three coalescing models and the locality of the
/// layout's memory order, for one access.
pub fn analyze(
    descriptor: &Descriptor,
    access: &Access,
    banks: Banks,
    line_bytes: usize,
) -> Result<String, String> {
    let mut out = String::new();
    let along = access
        .along
        .clone()
        .or_else(|| coordinate_names(descriptor).last().map(|n| n.to_string()))
        .unwrap_or_default();
    let _ = writeln!(out, "{}, access `{}`", descriptor.name, access.name);
    let _ = writeln!(
        out,
        "  {} lanes, each {} × {}-byte element{} along {along}",
        access.lanes,
        access.vector,
        access.element_bytes,
        if access.vector == 1 { "" } else { "s" }
    );

    let report = bank_conflicts(descriptor, access, banks).map_err(|e| e.to_string())?;
    let per_phase = access.lanes.div_ceil(report.phases.max(1));
    let _ = writeln!(
        out,
        "\nbank conflicts ({} banks × {} B, {} phase{} of {per_phase} lanes):",
        banks.count,
        banks.width_bytes,
        report.phases,
        if report.phases == 1 { "" } else { "s" }
    );
    match &report.worst {
        None if report.degree == 0 => {
            let _ = writeln!(out, "  none: the access touches nothing");
        }
        None => {
            let _ = writeln!(
                out,
                "  conflict-free: no bank serves two words in one phase"
            );
        }
        Some(conflict) => {
            let first = conflict.phase * per_phase;
            let _ = writeln!(
                out,
                "  {}-way: in phase {} (lanes {first}..{}), bank {} serves {} distinct words:",
                report.degree,
                conflict.phase,
                first + per_phase,
                conflict.bank,
                conflict.touches.len()
            );
            let width = conflict.touches.iter().map(|t| t.lane).max().unwrap_or(0);
            let width = width.to_string().len();
            for touch in &conflict.touches {
                let _ = writeln!(
                    out,
                    "    lane {:>width$}  {}",
                    touch.lane,
                    touch_text(descriptor, touch)
                );
            }
        }
    }

    let _ = writeln!(
        out,
        "\nglobal-memory transactions:\n  {:<26}{:>11}{:>14}{:>13}{:>12}",
        "model", "requested", "transactions", "transferred", "efficiency"
    );
    for (model, name) in [
        (Coalescing::Cc11, "cc1.1 (per half-warp)"),
        (Coalescing::Cc13, "cc1.3 (per half-warp)"),
        (Coalescing::Sectors32, "32-byte sectors (per warp)"),
    ] {
        let cost = transactions(descriptor, access, model).map_err(|e| e.to_string())?;
        let _ = writeln!(
            out,
            "  {name:<26}{:>11}{:>14}{:>13}{:>11.0}%",
            format!("{} B", cost.requested_bytes),
            cost.transactions,
            format!("{} B", cost.transferred_bytes),
            cost.efficiency() * 100.0
        );
    }

    let locality = locality(descriptor, access.element_bytes, line_bytes);
    let _ = writeln!(
        out,
        "\nlocality of the layout's memory order ({}-byte elements, {line_bytes}-byte lines):",
        access.element_bytes
    );
    let _ = writeln!(out, "  cache lines  {}", locality.cache_lines);
    let _ = writeln!(
        out,
        "  Manhattan distance between the coordinates of consecutive offsets: pairs"
    );
    let pairs: Vec<String> = locality
        .distances
        .iter()
        .map(|(distance, pairs)| format!("{distance}: {pairs}"))
        .collect();
    for line in pairs.chunks(8) {
        let _ = writeln!(out, "    {}", line.join(", "));
    }
    Ok(out)
}

/// Which coordinates number the grid's rows, columns and blocks.
fn axes(descriptor: &Descriptor) -> Option<String> {
    Some(match coordinate_names(descriptor).as_slice() {
        [] => return None,
        [column] => format!("columns {column}"),
        [outer @ .., row, column] if !outer.is_empty() => {
            format!(
                "rows {row}, columns {column}, one block per {}",
                outer.join(", ")
            )
        }
        [.., row, column] => format!("rows {row}, columns {column}"),
    })
}

fn coordinate_names(descriptor: &Descriptor) -> Vec<&str> {
    descriptor
        .coords
        .iter()
        .map(|&c| descriptor.dims[c].name.as_ref())
        .collect()
}

/// `(m=0, k=8) → 8`.
fn touch_text(descriptor: &Descriptor, touch: &Touch) -> String {
    format!("{} → {}", descriptor.describe(&touch.coord), touch.offset)
}

/// What `show` adds for a thread-value layout: its counts and the tile with the thread and
/// value holding each element.
pub fn threads(threads: &ThreadValues<'_>) -> String {
    let mut out = format!(
        "  threads        {} × {} values each\n",
        threads.thread_count(),
        threads.value_count()
    );
    match picture::thread_grid(threads) {
        Ok(grid) => {
            out.push_str("thread.value of each tile element:\n");
            out.push_str(&grid);
        }
        Err(error) => out.push_str(&format!("(no thread picture: {error})\n")),
    }
    out
}
