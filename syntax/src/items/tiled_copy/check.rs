//! `kernel K = tiled_copy(From -> To, threads T, ..)` items: the thread-value layout exists
//! and is one, each side is the image or a fixed-size layout over the tile's coordinates,
//! the vector fits (or the widest that fits is chosen), the code folds, and every
//! `assert` about the instructions holds — or the error names the instruction, the lanes
//! and their banks or sectors.

use super::{CopyClaim, TiledCopyItem, TiledCopyOption};
use crate::consts::Consts;
use crate::consts::known_names;
use crate::errors::{Errors, Reported};
use crate::items::layout::check::Checked;
use proc_macro2::TokenStream;
use std::collections::HashMap;
use swizzle_core::analysis::banks::BankReport;
use swizzle_core::budget::{ACCESS_SETTING, COPY_MOVES, COPY_TILE, EVIDENCE};
use swizzle_core::plans::tiled_copy::{Cost, Instruction, Part, Program, Side, TiledCopy};
use syn::Ident;

/// A tiled copy that passed every check.
pub struct CheckedTiledCopy<'a> {
    /// The thread-value layout.
    pub threads: &'a Checked,
    /// The layouts read and written (`None`: the image).
    pub source: Option<&'a Checked>,
    pub destination: Option<&'a Checked>,
    /// Values per move.
    pub width: usize,
    pub program: Program,
    pub instructions: Vec<Instruction>,
    /// The WGSL arrays read and written.
    pub buffers: (String, String),
    pub subgroup: usize,
}

impl CheckedTiledCopy<'_> {
    /// The copy as the core sees it.
    pub fn copy(&self) -> TiledCopy<'_> {
        tiled_copy(self.threads, self.source, self.destination, self.subgroup)
    }
}

fn tiled_copy<'a>(
    threads: &'a Checked,
    source: Option<&'a Checked>,
    destination: Option<&'a Checked>,
    subgroup: usize,
) -> TiledCopy<'a> {
    let side = |layout: Option<&'a Checked>| match layout {
        Some(layout) => Side::Tile(&layout.descriptor),
        None => Side::Image,
    };
    TiledCopy {
        threads: threads
            .thread_values()
            .expect("checked to be a thread-value layout"),
        source: side(source),
        destination: side(destination),
        element_bytes: 4,
        subgroup,
    }
}

/// The word for the row-major array in global memory.
const IMAGE: &str = "image";

/// Checks one tiled copy; `layouts` are those of the invocation (`Err`: one with errors,
/// already reported).
pub fn check<'a>(
    item: &TiledCopyItem,
    layouts: &HashMap<String, Result<&'a Checked, Reported>>,
    errors: &mut Errors,
) -> Result<CheckedTiledCopy<'a>, Reported> {
    let mark = errors.mark();
    let consts = Consts::new(Default::default());
    let find = |name: &Ident, errors: &mut Errors| -> Result<&'a Checked, Reported> {
        match layouts.get(&name.to_string()) {
            Some(checked) => *checked,
            None => {
                let hint = known_names(name, layouts.keys());
                Err(errors.error(name, format!("unknown layout `{name}`: {hint}")))
            }
        }
    };
    let mut threads = None;
    let mut vector = None;
    let mut subgroup = 32;
    let mut buffers = ("source".to_owned(), "destination".to_owned());
    let mut claims = Vec::new();
    for option in &item.options {
        match option {
            TiledCopyOption::Threads { layout, .. } => {
                threads = Some((layout, find(layout, errors)));
            }
            TiledCopyOption::Vector { len, .. } => {
                let value = consts.eval_usize(len, "the vector", 1);
                vector = errors.report(value).ok().map(|value| (value, len));
            }
            TiledCopyOption::Subgroup { len, .. } => {
                let value = consts.eval_usize(len, "the subgroup", 1);
                if let Ok(value) = errors.report(value) {
                    if value > ACCESS_SETTING {
                        errors.error(
                            len,
                            format!("a subgroup has at most {ACCESS_SETTING} lanes"),
                        );
                    }
                    subgroup = value;
                }
            }
            TiledCopyOption::Buffers {
                source,
                destination,
                ..
            } => buffers = (source.to_string(), destination.to_string()),
            TiledCopyOption::Assert { claim, tokens, .. } => {
                let max = match claim {
                    CopyClaim::MaxConflict(None) => Ok(1),
                    CopyClaim::MaxConflict(Some(max)) => {
                        errors.report(consts.eval_usize(max, "the conflict degree", 1))
                    }
                    CopyClaim::Transactions(max) => {
                        errors.report(consts.eval_usize(max, "the transaction count", 0))
                    }
                };
                if let Ok(max) = max {
                    claims.push((claim, max, tokens));
                }
            }
        }
    }
    let side = |name: &Ident, errors: &mut Errors| match name == IMAGE {
        true => Ok(None),
        false => find(name, errors).map(Some),
    };
    let source = side(&item.source, errors);
    let destination = side(&item.destination, errors);
    let Some((threads_name, threads)) = threads else {
        return Err(errors.error(
            &item.keyword,
            "a tiled copy needs its thread-value layout: add `threads T` (a `threads T { .. }` \
             item of this invocation)",
        ));
    };
    let (threads, source, destination) = (threads?, source?, destination?);
    if threads.thread_coords.is_none() {
        return Err(errors.error(
            threads_name,
            format!(
                "`{threads_name}` is a layout, not a thread-value layout: declare it with \
                 `threads {threads_name} {{ tile [..]; ..; threads [..]; values [..]; }}`"
            ),
        ));
    }
    if source.is_none() && destination.is_none() {
        return Err(errors.error(
            &item.destination,
            "both sides are the image: a tiled copy moves a tile between the image and a \
             layout in workgroup memory, or between two layouts",
        ));
    }
    for (name, layout) in [(&item.source, source), (&item.destination, destination)] {
        let Some(layout) = layout else { continue };
        if layout.descriptor.is_tiled() {
            errors.error(
                name,
                format!(
                    "`{name}` has run-time (`dyn`) dims: a side of a tiled copy is `image` (the \
                     row-major array in global memory) or a fixed-size layout over the tile"
                ),
            );
        }
    }
    errors.since(mark)?;
    let copy = tiled_copy(threads, source, destination, subgroup);
    if let Some((part, shape)) = copy.mismatch() {
        let name = match part {
            Part::Destination => &item.destination,
            _ => &item.source,
        };
        return Err(errors.error(
            name,
            format!(
                "`{name}` has coordinates of lengths {} but `{threads_name}` distributes a tile \
                 of {}: a side's coordinates are the tile's",
                lengths(&shape),
                lengths(&copy.threads.tile())
            ),
        ));
    }
    let tile = copy.threads.tile();
    let elements = tile
        .iter()
        .try_fold(1usize, |acc, &len| acc.checked_mul(len))
        .unwrap_or(usize::MAX);
    if elements > COPY_TILE {
        return Err(errors.error(
            threads_name,
            format!(
                "`{threads_name}` distributes a tile of {} = {} elements, more than a tiled \
                 copy moves (its budget `COPY_TILE` = {COPY_TILE}, a 256 × 256 tile): use a \
                 smaller tile, and copy the image in more of them",
                lengths(&tile),
                elements
            ),
        ));
    }
    let width = match vector {
        Some((width, expr)) => {
            if let Err(broken) = copy.fits(width) {
                let widest = copy.widest_whole();
                let part = match broken.part {
                    Part::Threads => format!("`{threads_name}`"),
                    Part::Source => format!("the source `{}`", item.source),
                    Part::Destination => format!("the destination `{}`", item.destination),
                };
                return Err(errors.error(
                    expr,
                    format!(
                        "vectors of {width} values do not fit {part}: {}; at most {widest} fit \
                         every side: use `vector {widest}`, or leave the width to the macro, \
                         which splits the vectors where a workgroup tile breaks them",
                        broken.why
                    ),
                ));
            }
            width
        }
        None => copy.widest(),
    };
    let values = copy.threads.value_count();
    let moves = values.div_ceil(width.max(1));
    if moves > COPY_MOVES {
        return Err(errors.error(
            threads_name,
            format!(
                "each thread of `{threads_name}` moves {values} values in vectors of {width}: \
                 {moves} moves, more than the code of a tiled copy writes out for one thread \
                 (its budget `COPY_MOVES` = {COPY_MOVES}): give the workgroup more threads, \
                 each thread fewer values, or the copy wider vectors"
            ),
        ));
    }
    let Some(program) = copy.program(width) else {
        return Err(errors.error(
            &item.name,
            "the elements of this copy do not fold into expressions of the thread small \
             enough to unroll: use a simpler thread-value layout",
        ));
    };
    let instructions = copy.instructions(width);
    for (claim, max, tokens) in claims {
        verify_claim(item, claim, max, tokens, &instructions, errors);
    }
    errors.since(mark)?;
    Ok(CheckedTiledCopy {
        threads,
        source,
        destination,
        width,
        program,
        instructions,
        buffers,
        subgroup,
    })
}

/// Checks one `assert` against every instruction, with the worst one as evidence.
fn verify_claim(
    item: &TiledCopyItem,
    claim: &CopyClaim,
    max: usize,
    tokens: &TokenStream,
    instructions: &[Instruction],
    errors: &mut Errors,
) {
    let sides = [
        (format!("reads of `{}`", item.source), true),
        (format!("writes of `{}`", item.destination), false),
    ];
    let cost = |instruction: &Instruction, source: bool| match source {
        true => instruction.source.clone(),
        false => instruction.destination.clone(),
    };
    let mut applies = false;
    for (what, source) in sides {
        for instruction in instructions {
            let values = format!(
                "values {}..{}",
                instruction.first,
                instruction.first + instruction.width
            );
            match (claim, cost(instruction, source)) {
                (CopyClaim::MaxConflict(_), Cost::Banks(report)) => {
                    applies = true;
                    if report.degree > max {
                        errors.error(
                            tokens,
                            format!(
                                "the {what} ({values} of each thread) have {}-way bank \
                                 conflicts, more than the {max} asserted: {}",
                                report.degree,
                                evidence(&report)
                            ),
                        );
                        return;
                    }
                }
                (CopyClaim::Transactions(_), Cost::Memory(memory)) => {
                    applies = true;
                    if memory.transactions > max {
                        errors.error(
                            tokens,
                            format!(
                                "the {what} ({values} of each thread) take {} transactions of \
                                 32 bytes per subgroup, more than the {max} asserted: they \
                                 move {} bytes for {} requested",
                                memory.transactions,
                                memory.transferred_bytes,
                                memory.requested_bytes
                            ),
                        );
                        return;
                    }
                }
                _ => {}
            }
        }
    }
    if !applies {
        let kind = match claim {
            CopyClaim::MaxConflict(_) => {
                "bank conflicts are about workgroup memory, and neither \
                                          side is a layout there"
            }
            CopyClaim::Transactions(_) => {
                "transactions are about global memory, and neither \
                                           side is the image"
            }
        };
        errors.error(
            tokens,
            format!("this assertion has nothing to check: {kind}"),
        );
    }
}

/// The lanes of the worst bank, as a failed assertion names them.
fn evidence(report: &BankReport) -> String {
    let Some(worst) = &report.worst else {
        return "no witness".to_owned();
    };
    let lanes: Vec<String> = worst
        .touches
        .iter()
        .take(EVIDENCE)
        .map(|touch| {
            let coord: Vec<String> = touch.coord.iter().map(usize::to_string).collect();
            format!(
                "lane {} at ({}) → {}",
                touch.lane,
                coord.join(", "),
                touch.offset
            )
        })
        .collect();
    let rest = worst.touches.len().saturating_sub(EVIDENCE);
    let more = match rest {
        0 => String::new(),
        n => format!(" and {n} more"),
    };
    format!(
        "{}{more} all hit bank {} in phase {}",
        lanes.join(", "),
        worst.bank,
        worst.phase
    )
}

/// `32 × 32`.
fn lengths(shape: &[usize]) -> String {
    let parts: Vec<String> = shape.iter().map(usize::to_string).collect();
    parts.join(" × ")
}
