//! Tiled copies: a workgroup moves one tile between two sides, each thread the values a
//! thread-value layout gives it (CuTe's `make_tiled_copy_tv`, CK Tile's distributed
//! loads and stores).
//!
//! A side is either the *image* — a row-major array in global memory whose extents are
//! known only at run time, cut into tiles of the thread-value layout's tile — or a
//! fixed-size layout over the tile's coordinates in workgroup memory (row-major, padded,
//! XOR-swizzled: any layout). What is decided here, once, for the macro, the command line
//! and the runtime alike:
//!
//! - **the vector width**: each thread moves its values in vectors as wide as the thread
//!   layout and both sides allow ([`TiledCopy::widest`]), and a declared width that does
//!   not fit is refused with the side and the slot that break it ([`TiledCopy::fits`]);
//! - **the register transpose**: where a workgroup tile's entries run across the thread's
//!   vectors instead of along them (the store of a transpose), a thread moves a square of
//!   vectors at once and reads or writes that side in whole entries across its rows,
//!   transposing the square in registers ([`TiledCopy::crossing`]);
//! - **what each instruction costs**: the bank conflicts of each workgroup-memory
//!   instruction for a subgroup, the global-memory transactions of each image instruction
//!   ([`TiledCopy::instructions`]), with the lanes as witnesses;
//! - **the code**: one straight-line [`Program`] per thread — every value's address a
//!   folded expression of the thread index — with the guards of partial tiles derived from
//!   the extents: interior tiles run without any, and at the edge only the moves whose
//!   element can lie outside the image are guarded. The WGSL and Rust printers print it.

use crate::analysis::access::Touch;
use crate::analysis::banks::{self, BankReport, Banks};
use crate::analysis::runs::culprit;
use crate::analysis::transactions::{self, Coalescing, Transactions};
use crate::canon::sym::{Sym, Vars};
use crate::canon::sym_code;
use crate::emit::code::{Code, Op, fresh};
use crate::emit::function::Condition;
use crate::ir::Descriptor;
use crate::plans::threads::{Slot, ThreadValues};
use std::collections::{HashMap, HashSet};
use std::fmt;

/// The widest vector a thread moves: four 32-bit words (`vec4<u32>`, 16 bytes, what one
/// global or shared-memory instruction moves per thread on current GPUs).
pub const MAX_VECTOR_BYTES: usize = 16;

/// The image's row pitch, in elements, that the transaction analysis assumes: rows far
/// apart, each starting on a 128-byte boundary, as in any image wider than the tile.
const MODEL_PITCH: usize = 1 << 16;

/// One side of a tiled copy.
#[derive(Clone, Copy, Debug)]
pub enum Side<'d> {
    /// A row-major array in global memory, of run-time extents, cut into tiles.
    Image,
    /// A fixed-size layout over the tile's coordinates, in workgroup memory.
    Tile(&'d Descriptor),
}

/// Which part of a tiled copy something is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    Threads,
    Source,
    Destination,
}

impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Part::Threads => "the thread-value layout",
            Part::Source => "the source",
            Part::Destination => "the destination",
        })
    }
}

/// Why vectors of `width` values do not fit: the part that breaks them, a slot that shows
/// it, and what goes wrong there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VectorBreak {
    pub part: Part,
    pub width: usize,
    pub slot: Slot,
    pub why: String,
}

/// A register transpose ([`TiledCopy::crossing`]): each thread moves its values in squares
/// of `rows` vectors whose first elements are consecutive along the tile's coordinate
/// `axis`, and accesses the crossed side in whole entries across the square's rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Crossing {
    /// The side accessed across the rows.
    pub part: Part,
    /// Vectors per square: the crossed side's entry, in elements, and the vector width.
    pub rows: usize,
    /// The tile coordinate along which the square's rows follow each other.
    pub axis: usize,
}

/// A tiled copy: a thread-value layout and the two sides it moves between.
#[derive(Clone, Copy, Debug)]
pub struct TiledCopy<'d> {
    pub threads: ThreadValues<'d>,
    pub source: Side<'d>,
    pub destination: Side<'d>,
    /// Bytes per element.
    pub element_bytes: usize,
    /// Lanes per subgroup (warp, wave), which the analyses take as one instruction's lanes.
    pub subgroup: usize,
}

/// What one side of one instruction costs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cost {
    /// A workgroup-memory instruction: its bank conflicts (the worst subgroup's).
    Banks(BankReport),
    /// A global-memory instruction: its 32-byte sector transactions (the worst subgroup's).
    Memory(Transactions),
}

/// One instruction of the copy: the values `first..first + width` of every thread. Where
/// the copy crosses a side ([`TiledCopy::crossing`]), that side's instruction is the
/// square's access across its rows at the same place: the `k`-th vector of a square is
/// reported with the `k`-th entry read or written across the square.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instruction {
    pub first: usize,
    pub width: usize,
    pub source: Cost,
    pub destination: Cost,
}

impl<'d> TiledCopy<'d> {
    /// The side of a part (`None` for the thread layout).
    fn side(&self, part: Part) -> Option<Side<'d>> {
        match part {
            Part::Threads => None,
            Part::Source => Some(self.source),
            Part::Destination => Some(self.destination),
        }
    }

    /// The shape a side's layout has where the tile's is expected: `None` when every side
    /// that is a layout has the tile's shape.
    pub fn mismatch(&self) -> Option<(Part, Vec<usize>)> {
        let tile = self.threads.tile();
        [Part::Source, Part::Destination]
            .into_iter()
            .find_map(|part| match self.side(part) {
                Some(Side::Tile(layout)) if layout.shape() != tile => Some((part, layout.shape())),
                _ => None,
            })
    }

    /// The widths worth trying, widest first: powers of two up to [`MAX_VECTOR_BYTES`]
    /// that divide the values per thread.
    fn candidate_widths(&self) -> impl Iterator<Item = usize> + '_ {
        let widest = (MAX_VECTOR_BYTES / self.element_bytes.max(1)).max(1);
        let values = self.threads.value_count();
        (0..=widest.trailing_zeros())
            .rev()
            .map(|shift| 1usize << shift)
            .filter(move |&width| values.is_multiple_of(width))
    }

    /// The width the copy moves its values in when none is declared: the widest vector
    /// that the thread-value layout and the image sides fit. The image is what the vectors
    /// are for (global memory moves 16 bytes per lane in one instruction); a workgroup
    /// tile that breaks the run is read or written in the narrower pieces it allows
    /// ([`TiledCopy::piece`]), each analysed as its own instruction. A copy between two
    /// tiles keeps whole vectors on both ([`TiledCopy::widest_whole`]).
    pub fn widest(&self) -> usize {
        let image = [self.source, self.destination]
            .iter()
            .any(|side| matches!(side, Side::Image));
        match image {
            true => self
                .candidate_widths()
                .find(|&width| self.check_width(width, false).is_ok())
                .unwrap_or(1),
            false => self.widest_whole(),
        }
    }

    /// The widest vector every thread's values fit as whole vectors on both sides.
    pub fn widest_whole(&self) -> usize {
        self.candidate_widths()
            .find(|&width| self.fits(width).is_ok())
            .unwrap_or(1)
    }

    /// Whether every thread can move its values in whole vectors of `width` on both sides:
    /// each group of `width` values (aligned) is `width` consecutive elements along the
    /// tile's last coordinate, consecutive and aligned in a workgroup layout, aligned in
    /// the image. What a declared `vector` asks for.
    pub fn fits(&self, width: usize) -> Result<(), VectorBreak> {
        self.check_width(width, true)
    }

    /// [`TiledCopy::fits`], with the workgroup sides' runs checked only when `tiles`.
    fn check_width(&self, width: usize, tiles: bool) -> Result<(), VectorBreak> {
        let values = self.threads.value_count();
        let tile = self.threads.tile();
        let last = tile.len().saturating_sub(1);
        let broken = |part, slot, why: String| {
            Err(VectorBreak {
                part,
                width,
                slot,
                why,
            })
        };
        if width <= 1 {
            return Ok(());
        }
        if !values.is_multiple_of(width) {
            let slot = Slot {
                thread: 0,
                value: values - values % width,
            };
            return broken(
                Part::Threads,
                slot,
                format!("{values} values per thread do not split into vectors of {width}"),
            );
        }
        for part in [Part::Source, Part::Destination] {
            if let Some(Side::Image) = self.side(part)
                && tile.get(last).is_some_and(|len| !len.is_multiple_of(width))
            {
                let slot = Slot {
                    thread: 0,
                    value: 0,
                };
                let why = format!(
                    "the tile's rows of {} elements do not split into aligned vectors of \
                     {width} in the image",
                    tile[last]
                );
                return broken(part, slot, why);
            }
        }
        for thread in 0..self.threads.thread_count() {
            for first in (0..values).step_by(width) {
                let slot = Slot {
                    thread,
                    value: first,
                };
                let Some(start) = self.threads.element(slot) else {
                    continue;
                };
                for i in 1..width {
                    let next = Slot {
                        thread,
                        value: first + i,
                    };
                    let mut expected = start.clone();
                    expected[last] += i;
                    let held = self.threads.element(next);
                    if held.as_ref() != Some(&expected) {
                        let why = match held {
                            Some(held) => format!(
                                "it holds {} as {next} after {} as {slot}: not the next \
                                 element along the tile's last coordinate",
                                show(&held),
                                show(&start)
                            ),
                            None => format!("{next} holds no element"),
                        };
                        return broken(Part::Threads, slot, why);
                    }
                }
                for part in [Part::Source, Part::Destination] {
                    match self.side(part) {
                        Some(Side::Image) if !start[last].is_multiple_of(width) => {
                            let why = format!(
                                "{slot} starts at {} in the tile, not at a multiple of {width}",
                                show(&start)
                            );
                            return broken(part, slot, why);
                        }
                        Some(Side::Tile(layout)) if tiles => {
                            if let Err(why) = contiguous(layout, &start, width, last) {
                                return broken(part, slot, why);
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
        Ok(())
    }

    /// The instructions of the copy with vectors of `width` (which must fit), with what
    /// each side of each costs for the worst subgroup: where a side takes a move in several
    /// pieces ([`TiledCopy::piece`]), the worst of its pieces.
    pub fn instructions(&self, width: usize) -> Vec<Instruction> {
        let values = self.threads.value_count();
        // Each side's piece once: finding it walks the whole tile.
        let pieces = [self.source, self.destination].map(|side| self.piece(side, width));
        let crossing = self.crossing(width);
        let cost = |part: Part, side: Side<'_>, piece: usize, first: usize| match crossing {
            Some(crossing) if crossing.part == part => {
                // The square's entry across its rows at this vector's place.
                let square = first - first % (width * width);
                let column = (first - square) / width;
                let values: Vec<usize> = (0..width)
                    .map(|row| square + row * width + column)
                    .collect();
                self.access_cost(side, &values, width)
            }
            _ => self.cost(side, first, width, piece),
        };
        (0..values)
            .step_by(width.max(1))
            .map(|first| Instruction {
                first,
                width,
                source: cost(Part::Source, self.source, pieces[0], first),
                destination: cost(Part::Destination, self.destination, pieces[1], first),
            })
            .collect()
    }

    /// What the values `first..first + width` of every thread cost on `side`, accessed in
    /// pieces of `piece`: the worst subgroup of the worst of the side's pieces.
    fn cost(&self, side: Side<'_>, first: usize, width: usize, piece: usize) -> Cost {
        let piece = piece.max(1);
        let mut worst: Option<Cost> = None;
        for start in (first..first + width).step_by(piece) {
            let values: Vec<usize> = (start..start + piece).collect();
            let cost = self.access_cost(side, &values, piece);
            worst = Some(match worst {
                Some(old) if cost_rank(&old) >= cost_rank(&cost) => old,
                _ => cost,
            });
        }
        worst.unwrap_or(Cost::Memory(Transactions::default()))
    }

    /// What one access of `piece` elements, the thread's `values`, costs on `side` for the
    /// worst subgroup.
    fn access_cost(&self, side: Side<'_>, values: &[usize], piece: usize) -> Cost {
        let threads = self.threads.thread_count();
        let subgroup = self.subgroup.clamp(1, threads.max(1));
        let mut worst: Option<Cost> = None;
        for start in (0..threads).step_by(subgroup) {
            let mut touches = Vec::new();
            for thread in start..(start + subgroup).min(threads) {
                for &value in values {
                    let slot = Slot { thread, value };
                    let Some(element) = self.threads.element(slot) else {
                        continue;
                    };
                    let offset = match side {
                        Side::Image => Some(image_offset(&element, MODEL_PITCH)),
                        Side::Tile(layout) => layout.offset(&element).ok(),
                    };
                    if let Some(offset) = offset {
                        touches.push(Touch {
                            lane: thread - start,
                            coord: element,
                            offset,
                        });
                    }
                }
            }
            let cost = match side {
                Side::Image => Cost::Memory(transactions::transactions_of(
                    &touches,
                    piece,
                    self.element_bytes,
                    Coalescing::Sectors32,
                )),
                Side::Tile(_) => Cost::Banks(banks::conflicts_of(
                    &touches,
                    subgroup,
                    piece,
                    self.element_bytes,
                    Banks::default(),
                )),
            };
            worst = Some(match worst {
                Some(old) if cost_rank(&old) >= cost_rank(&cost) => old,
                _ => cost,
            });
        }
        worst.unwrap_or(Cost::Memory(Transactions::default()))
    }

    /// Elements per entry of a side's array: the image's entries are the copy's vectors
    /// of `width`, a workgroup tile's are its layout's [`entry_words`].
    pub fn words(&self, side: Side<'_>, width: usize) -> usize {
        match side {
            Side::Image => width.max(1),
            Side::Tile(layout) => entry_words(layout, self.element_bytes),
        }
    }

    /// Elements per access of a side in moves of `width`: the image is read and written in
    /// whole vectors; a workgroup tile in whole entries where every move starts on one and
    /// covers whole entries, else element by element (a component of an entry).
    pub fn piece(&self, side: Side<'_>, width: usize) -> usize {
        let words = self.words(side, width);
        if matches!(side, Side::Image) || words == 1 {
            return words;
        }
        let last = self.threads.tile().len().saturating_sub(1);
        let along_last = match side {
            Side::Tile(layout) => run_words(layout, last, self.element_bytes) >= words,
            Side::Image => true,
        };
        let aligned = || {
            let values = self.threads.value_count();
            (0..self.threads.thread_count()).all(|thread| {
                (0..values).step_by(width.max(1)).all(|value| {
                    self.threads
                        .element(Slot { thread, value })
                        .is_none_or(|element| element[last].is_multiple_of(words))
                })
            })
        };
        match along_last && width >= words && width.is_multiple_of(words) && aligned() {
            true => words,
            false => 1,
        }
    }

    /// Whether the copy moves its values with vectors of `width` as a register transpose:
    /// in squares of `width` vectors, one workgroup side accessed in whole entries across
    /// each square's rows, the square transposed in registers (the store of a transpose,
    /// as CUDA's `float4` transposes move it). It applies where that side would otherwise
    /// be taken element by element ([`TiledCopy::piece`] is 1 there) because its entries
    /// of `width` elements run along another coordinate than the vectors, the other side
    /// moves whole entries, and every thread's values come in squares: `width` vectors
    /// whose first elements are consecutive along that coordinate, each run across the
    /// square one aligned entry. `None` where any of it fails.
    pub fn crossing(&self, width: usize) -> Option<Crossing> {
        let tile = self.threads.tile();
        let last = tile.len().checked_sub(1)?;
        let (threads, values) = (self.threads.thread_count(), self.threads.value_count());
        if width <= 1 || !values.is_multiple_of(width * width) {
            return None;
        }
        let element_wise = |side: Side<'_>| {
            matches!(side, Side::Tile(_))
                && self.words(side, width) == width
                && self.piece(side, width) == 1
        };
        let whole = |side: Side<'_>| self.piece(side, width) == self.words(side, width);
        let (part, layout) = match (self.source, self.destination) {
            (Side::Tile(layout), other) if element_wise(self.source) && whole(other) => {
                (Part::Source, layout)
            }
            (other, Side::Tile(layout)) if element_wise(self.destination) && whole(other) => {
                (Part::Destination, layout)
            }
            _ => return None,
        };
        let slot = |thread, value| Slot { thread, value };
        // The axis the first square's rows step along.
        let (first, second) = (
            self.threads.element(slot(0, 0))?,
            self.threads.element(slot(0, width))?,
        );
        let axis = (0..last).find(|&axis| {
            let mut next = first.clone();
            next[axis] += 1;
            next == second
        })?;
        for thread in 0..threads {
            for square in (0..values).step_by(width * width) {
                let start = self.threads.element(slot(thread, square))?;
                for row in 0..width {
                    for column in 0..width {
                        let mut expected = start.clone();
                        expected[axis] += row;
                        expected[last] += column;
                        let held = self
                            .threads
                            .element(slot(thread, square + row * width + column));
                        if held != Some(expected) {
                            return None;
                        }
                    }
                }
                for column in 0..width {
                    let mut entry = start.clone();
                    entry[last] += column;
                    contiguous(layout, &entry, width, axis).ok()?;
                }
            }
        }
        Some(Crossing {
            part,
            rows: width,
            axis,
        })
    }

    /// The straight-line code of one thread with vectors of `width` (which must fit):
    /// `None` where an element's expression passes the symbolic budget.
    pub fn program(&self, width: usize) -> Option<Program> {
        let tile = self.threads.tile();
        let tile_names = self.threads.tile_names();
        let (thread_names, thread_lens) = self.thread_coordinates();
        let image = matches!(self.source, Side::Image) || matches!(self.destination, Side::Image);
        let mut used: HashSet<String> = HashSet::new();
        let thread = fresh("thread", &mut used);
        let mut params = vec![thread.clone()];
        let mut prologue = Vec::new();
        // The thread coordinates, from the thread's index in the workgroup.
        let mut names = Vec::new();
        let mut stride: u128 = thread_lens.iter().map(|&l| l as u128).product();
        for (name, &len) in thread_names.iter().zip(&thread_lens) {
            stride /= len.max(1) as u128;
            if thread_names.len() == 1 {
                names.push(thread.clone());
                break;
            }
            let local = fresh(name, &mut used);
            let value = Code::var(&thread).quotient(stride).remainder(len as u128);
            prologue.push((local.clone(), value));
            names.push(local);
        }
        // The image: the tile's place, the extents and the row strides.
        let mut image_vars = ImageVars::default();
        if image {
            for name in &tile_names {
                let tile_param = fresh(&format!("tile_{name}"), &mut used);
                let extent = fresh(&format!("extent_{name}"), &mut used);
                params.push(tile_param.clone());
                image_vars.tiles.push(tile_param);
                image_vars.extents.push(extent);
            }
            params.extend(image_vars.extents.iter().cloned());
            for (i, (name, &len)) in tile_names.iter().zip(&tile).enumerate() {
                let origin = fresh(&format!("{name}0"), &mut used);
                let value = Code::var(&image_vars.tiles[i]).times(len as u128);
                prologue.push((origin.clone(), value));
                image_vars.origins.push(origin);
            }
            image_vars.strides = self.strides(&image_vars.extents, width, &mut used, &mut prologue);
        }
        let vars = Vars { lens: &thread_lens };
        // Each side's entry and piece once: finding them walks the whole tile.
        let shape = |side: Side<'_>| (self.words(side, width), self.piece(side, width).max(1));
        let shapes = [shape(self.source), shape(self.destination)];
        let mut moves: Vec<Move> = Vec::new();
        for first in (0..self.threads.value_count()).step_by(width.max(1)) {
            let lowered = self.threads.element_of_thread(first)?;
            let element: Vec<Code> = lowered
                .memory
                .iter()
                .map(|sym| sym_code(sym, &names))
                .collect();
            let valid = lowered
                .valid
                .iter()
                .filter(|(sym, lo, hi)| {
                    let (min, max) = sym.range(vars);
                    min < *lo || max >= *hi
                })
                .flat_map(|(sym, lo, hi)| {
                    let code = sym_code(sym, &names);
                    [
                        Condition::AtLeast(code.clone(), Code::Lit(*lo as u128)),
                        Condition::Below(code, Code::Lit(*hi as u128)),
                    ]
                })
                .collect();
            let address = |side: Side<'_>, (words, piece): (usize, usize)| -> Option<Address> {
                Some(match side {
                    Side::Image => image_vars.address(&lowered.memory, &names, vars, width),
                    Side::Tile(layout) => {
                        let steps = (0..width.max(1)).step_by(piece);
                        let entries = (piece > 1).then_some(words);
                        let accesses =
                            tile_accesses(layout, &lowered.memory, steps, entries, vars, &names)?;
                        Address {
                            words,
                            piece,
                            accesses,
                            direction: Direction::Along,
                        }
                    }
                })
            };
            let bounds = match image {
                true => image_vars.bounds(&element, &lowered.memory, vars),
                false => Vec::new(),
            };
            moves.push(Move {
                first,
                rows: 1,
                element,
                source: address(self.source, shapes[0])?,
                destination: address(self.destination, shapes[1])?,
                valid,
                bounds,
            });
        }
        let mut squares = self.crossing(width).and_then(|crossing| {
            let moves = self.squares(&moves, crossing, width, vars, &names)?;
            Some(Squares { crossing, moves })
        });
        let mut interior = match image {
            true => image_vars.interior(&tile),
            false => Vec::new(),
        };
        for (name, code) in self.thread_parts(&names, &mut used)? {
            let mut count = 0;
            for step in &moves {
                count += step.codes().map(|c| occurrences(c, &code)).sum::<usize>();
            }
            count += interior
                .iter()
                .flat_map(Condition::codes)
                .map(|c| occurrences(c, &code))
                .sum::<usize>();
            if count < 2 {
                continue;
            }
            for step in moves
                .iter_mut()
                .chain(squares.iter_mut().flat_map(|s| &mut s.moves))
            {
                step.replace(&code, &name);
            }
            for condition in &mut interior {
                condition.replace(&code, &name);
            }
            prologue.push((name, code));
        }
        Some(Program {
            params,
            thread,
            tiles: image_vars.tiles,
            extents: image_vars.extents,
            width,
            prologue,
            interior,
            moves,
            squares,
        })
    }

    /// The moves of a register transpose: each `width` consecutive moves of `moves` as one
    /// square, its crossed side one whole entry per column across the rows, its other side
    /// the rows' accesses in turn. `None` where a move is under a padding test or an
    /// entry's expression passes the budget.
    fn squares(
        &self,
        moves: &[Move],
        crossing: Crossing,
        width: usize,
        vars: Vars<'_>,
        names: &[String],
    ) -> Option<Vec<Move>> {
        moves
            .chunks(width)
            .map(|rows| {
                if rows.iter().any(|step| !step.valid.is_empty()) {
                    return None;
                }
                let first = rows[0].first;
                let crossed = |side: Side<'_>| -> Option<Address> {
                    let Side::Tile(layout) = side else {
                        return None;
                    };
                    let element = self.threads.element_of_thread(first)?.memory;
                    let accesses =
                        tile_accesses(layout, &element, 0..width, Some(width), vars, names)?;
                    Some(Address {
                        words: width,
                        piece: width,
                        accesses,
                        direction: Direction::Across,
                    })
                };
                let along = |address: fn(&Move) -> &Address| {
                    let accesses = rows.iter().flat_map(|step| address(step).accesses.clone());
                    Address {
                        accesses: accesses.collect(),
                        ..address(&rows[0]).clone()
                    }
                };
                let (source, destination) = match crossing.part {
                    Part::Source => (crossed(self.source)?, along(|step| &step.destination)),
                    _ => (along(|step| &step.source), crossed(self.destination)?),
                };
                Some(Move {
                    first,
                    rows: width,
                    element: rows[0].element.clone(),
                    source,
                    destination,
                    valid: Vec::new(),
                    bounds: Vec::new(),
                })
            })
            .collect()
    }

    /// The thread-value layout's own dims that depend on the thread alone (the parts a
    /// thread index is merged from: a row and a column of threads), as code over the thread
    /// coordinates, smallest first, each with a fresh local name after its dim: what the
    /// program binds once where its moves use it twice or more. `None` past the budget.
    fn thread_parts(
        &self,
        names: &[String],
        used: &mut HashSet<String>,
    ) -> Option<Vec<(String, Code)>> {
        let values = self.threads.value_count();
        let first = self.threads.element_of_thread(0)?;
        let last = self.threads.element_of_thread(values.saturating_sub(1))?;
        let descriptor = self.threads.descriptor;
        let skip: HashSet<usize> = descriptor
            .coords
            .iter()
            .chain(descriptor.memory.dims.iter())
            .copied()
            .collect();
        let mut parts: Vec<(String, Code)> = Vec::new();
        for (dim, (a, b)) in first.dims.iter().zip(&last.dims).enumerate() {
            let (Some(a), Some(b)) = (a, b) else { continue };
            let code = sym_code(a, names);
            let same = code == sym_code(b, names);
            let compound = matches!(code, Code::Bin(..));
            let known = parts.iter().any(|(_, c)| *c == code);
            if skip.contains(&dim) || !same || !compound || known {
                continue;
            }
            parts.push((descriptor.dims[dim].name.to_string(), code));
        }
        parts.sort_by_key(|(_, code)| code.size());
        // Each part in terms of the smaller ones bound before it.
        let mut named: Vec<(String, Code)> = Vec::new();
        for (name, mut code) in parts {
            for (earlier, smaller) in &named {
                code.replace(smaller, earlier);
            }
            named.push((fresh(&name, used), code));
        }
        Some(named)
    }

    /// The thread coordinates' names and lengths.
    fn thread_coordinates(&self) -> (Vec<String>, Vec<usize>) {
        let descriptor = self.threads.descriptor;
        let coords = &descriptor.coords[..self.threads.thread_coords];
        let names = coords.iter().map(|&c| descriptor.dims[c].name.to_string());
        let lens = coords.iter().map(|&c| descriptor.dims[c].len);
        (names.collect(), lens.collect())
    }

    /// The image's row strides, in elements or (with vectors) in vectors: the extent of the
    /// last coordinate, then products outwards, each bound to a local.
    fn strides(
        &self,
        extents: &[String],
        width: usize,
        used: &mut HashSet<String>,
        prologue: &mut Vec<(String, Code)>,
    ) -> Vec<Code> {
        let rank = extents.len();
        let mut strides = vec![Code::Lit(1); rank];
        let mut below: Option<Code> = None;
        for i in (0..rank.saturating_sub(1)).rev() {
            let extent = Code::var(&extents[i + 1]);
            let value = match below.take() {
                None if width > 1 => extent.quotient(width as u128),
                None => extent,
                Some(below) => Code::bin(Op::Mul, below, extent),
            };
            let name = fresh(&format!("stride_{}", i), used);
            prologue.push((name.clone(), value));
            strides[i] = Code::var(&name);
            below = Some(Code::var(&name));
        }
        strides
    }
}

/// The accesses of a workgroup tile to the elements `steps` past `element` along the tile's
/// last coordinate: the entries of `words` elements that start there where `entries` is
/// `Some(words)`, else the elements' own offsets. `None` past the symbolic budget.
fn tile_accesses(
    layout: &Descriptor,
    element: &[Sym],
    steps: impl Iterator<Item = usize>,
    entries: Option<usize>,
    vars: Vars<'_>,
    names: &[String],
) -> Option<Vec<Code>> {
    let last = element.len().saturating_sub(1);
    steps
        .map(|step| {
            let mut element = element.to_vec();
            if step > 0 {
                element[last] = element[last].clone().plus(Sym::constant(step as i128));
            }
            let at = crate::canon::lower_at(layout, &element, vars.lens)?;
            let offset = at.offset.constants_outside_xor(vars);
            let index = match entries {
                Some(words) => offset.div(words as i128, vars),
                None => offset,
            };
            Some(sym_code(&index, names))
        })
        .collect()
}

/// The run-time names a program over the image reads.
#[derive(Default)]
struct ImageVars {
    tiles: Vec<String>,
    extents: Vec<String>,
    /// The tile's first element, per coordinate.
    origins: Vec<String>,
    /// Row strides in the program's units.
    strides: Vec<Code>,
}

impl ImageVars {
    /// The image address of the element at `element` (over the thread): in vectors when
    /// `width > 1` (the element is then the first of an aligned vector).
    fn address(&self, element: &[Sym], names: &[String], vars: Vars<'_>, width: usize) -> Address {
        let rank = element.len();
        let mut index: Option<Code> = None;
        for (i, sym) in element.iter().enumerate() {
            let within = match (i + 1 == rank, width > 1) {
                (true, true) => sym.clone().div(width as i128, vars),
                _ => sym.clone(),
            };
            let origin = match (i + 1 == rank, width > 1) {
                (true, true) => Code::var(&self.origins[i]).quotient(width as u128),
                _ => Code::var(&self.origins[i]),
            };
            let coordinate = plus(origin, sym_code(&within, names));
            let term = match &self.strides[i] {
                Code::Lit(1) => coordinate,
                stride => Code::bin(Op::Mul, coordinate, stride.clone()),
            };
            index = Some(match index {
                None => term,
                Some(sum) => Code::bin(Op::Add, sum, term),
            });
        }
        Address {
            words: width.max(1),
            piece: width.max(1),
            accesses: vec![index.unwrap_or(Code::Lit(0))],
            direction: Direction::Along,
        }
    }

    /// The tests that keep a move inside the image at a partial tile: one per coordinate
    /// along which the element can lie past the tile's first element.
    fn bounds(&self, element: &[Code], syms: &[Sym], vars: Vars<'_>) -> Vec<Condition> {
        element
            .iter()
            .zip(syms)
            .enumerate()
            .filter(|(_, (_, sym))| sym.range(vars).1 > 0)
            .map(|(i, (code, _))| {
                let at = plus(Code::var(&self.origins[i]), code.clone());
                Condition::Below(at, Code::var(&self.extents[i]))
            })
            .collect()
    }

    /// The test that the whole tile lies inside the image.
    fn interior(&self, tile: &[usize]) -> Vec<Condition> {
        tile.iter()
            .enumerate()
            .map(|(i, &len)| {
                let end = plus(Code::var(&self.origins[i]), Code::Lit(len as u128));
                Condition::AtLeast(Code::var(&self.extents[i]), end)
            })
            .collect()
    }
}

/// `a + b`, without adding a zero.
fn plus(a: Code, b: Code) -> Code {
    match (&a, &b) {
        (_, Code::Lit(0)) => a,
        (Code::Lit(0), _) => b,
        _ => Code::bin(Op::Add, a, b),
    }
}

/// Where one side of a move reads or writes, as accesses to the side's array, whose
/// entries are `words` elements each (`array<vec4<u32>>` for four).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Address {
    /// Elements per entry of the side's array.
    pub words: usize,
    /// Elements per access: `words` (whole entries) or 1 (one element; a component of its
    /// entry when `words > 1`).
    pub piece: usize,
    /// The accesses, in the order of the move's elements: each the index of an entry when
    /// `piece == words`, else the element's offset.
    pub accesses: Vec<Code>,
    /// Which of the move's values each access holds.
    pub direction: Direction,
}

/// Which of a move's values an access holds, the values numbered row by row (a move is
/// one vector, or a square of them: [`Move::rows`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Access `k` holds the values `k · piece .. (k + 1) · piece`: a run along a row.
    Along,
    /// Access `k` holds value `k` of every row: a run across the rows of a square, which
    /// the registers transpose.
    Across,
}

impl Address {
    /// Whether the side is one access of whole entries.
    pub fn is_whole(&self) -> bool {
        self.piece == self.words && self.accesses.len() == 1
    }

    /// The place among the move's values (rows of `width`) of element `i` of access `k`.
    pub fn position(&self, k: usize, i: usize, width: usize) -> usize {
        match self.direction {
            Direction::Along => k * self.piece + i,
            Direction::Across => k + i * width,
        }
    }

    /// The first element of each access, evaluated.
    fn starts(&self, env: &HashMap<String, u64>) -> Option<Vec<u64>> {
        let scale = match self.piece == self.words {
            true => self.words as u64,
            false => 1,
        };
        self.accesses
            .iter()
            .map(|access| Some(access.eval(env)? * scale))
            .collect()
    }

    /// The element indices the side touches, in the order of the move's values (rows of
    /// `width`).
    fn elements(&self, env: &HashMap<String, u64>, width: usize) -> Option<Vec<u64>> {
        let starts = self.starts(env)?;
        let mut elements = vec![0; starts.len() * self.piece];
        for (k, start) in starts.into_iter().enumerate() {
            for i in 0..self.piece {
                elements[self.position(k, i, width)] = start + i as u64;
            }
        }
        Some(elements)
    }
}

/// One move of a thread: `width` values from the source to the destination, or a square of
/// `width` such rows that a register transpose moves at once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Move {
    /// The first value moved.
    pub first: usize,
    /// Vectors moved: 1, or the `width` rows of a square ([`TiledCopy::crossing`]), values
    /// `first .. first + rows · width`.
    pub rows: usize,
    /// The tile coordinates of its first element, over the thread coordinates.
    pub element: Vec<Code>,
    pub source: Address,
    pub destination: Address,
    /// The thread-value layout's padding tests: a slot that holds no element moves nothing.
    pub valid: Vec<Condition>,
    /// At a partial tile, the tests that keep the element inside the image.
    pub bounds: Vec<Condition>,
}

impl Move {
    /// Every expression of the move: its element, both sides' accesses and its tests.
    fn codes(&self) -> impl Iterator<Item = &Code> {
        self.element
            .iter()
            .chain(&self.source.accesses)
            .chain(&self.destination.accesses)
            .chain(
                self.valid
                    .iter()
                    .chain(&self.bounds)
                    .flat_map(Condition::codes),
            )
    }

    /// Every occurrence of `code` in the move replaced by the local `name`.
    fn replace(&mut self, code: &Code, name: &str) {
        let codes = self
            .element
            .iter_mut()
            .chain(&mut self.source.accesses)
            .chain(&mut self.destination.accesses);
        for c in codes {
            c.replace(code, name);
        }
        for condition in self.valid.iter_mut().chain(&mut self.bounds) {
            condition.replace(code, name);
        }
    }
}

/// How often `code` occurs in `within`, counting no occurrence inside another.
fn occurrences(within: &Code, code: &Code) -> usize {
    if within == code {
        return 1;
    }
    match within {
        Code::Bin(_, a, b) => occurrences(a, code) + occurrences(b, code),
        _ => 0,
    }
}

/// The straight-line code of one thread of a tiled copy, before it is printed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// `thread`, then (with an image side) the tile's place and the image's extents.
    pub params: Vec<String>,
    /// The thread's index in the workgroup.
    pub thread: String,
    pub tiles: Vec<String>,
    pub extents: Vec<String>,
    /// Elements per move.
    pub width: usize,
    /// Locals every move reads: the thread coordinates, the tile's origin, the strides.
    pub prologue: Vec<(String, Code)>,
    /// Whether the tile lies wholly inside the image (empty: no image side), which lets
    /// every move run unguarded.
    pub interior: Vec<Condition>,
    /// One vector per move: what a partial tile runs, under its guards.
    pub moves: Vec<Move>,
    /// The same values in the squares of a register transpose, where the copy crosses a
    /// side: what an interior tile (or a copy without an image) runs instead of `moves`.
    pub squares: Option<Squares>,
}

/// The squares of a register transpose in a [`Program`]: the side they cross
/// ([`TiledCopy::crossing`], found once as the program is made) and one move per square.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Squares {
    pub crossing: Crossing,
    pub moves: Vec<Move>,
}

/// One element copy as a program performs it: element indices on both sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Copied {
    pub source: u64,
    pub destination: u64,
}

impl Program {
    /// The operations one run of the program computes for its destination's addresses
    /// ([`address_ops`](crate::emit::code::address_ops): each distinct one once, a literal
    /// added last folded into the access), beyond the prologue's thread coordinates.
    pub fn destination_address_ops(&self) -> usize {
        let moves = self.moves_of(true).iter();
        crate::emit::code::address_ops(moves.flat_map(|m| &m.destination.accesses))
    }

    /// The moves a tile runs: the squares of a register transpose where the tile lies
    /// wholly inside the image (`interior`), else one vector per move.
    pub fn moves_of(&self, interior: bool) -> &[Move] {
        match (&self.squares, interior) {
            (Some(squares), true) => &squares.moves,
            _ => &self.moves,
        }
    }

    /// Runs the program for one thread on 64-bit integers as the printed code does: the
    /// element copies it performs, in order. `None` where a value does not compute.
    pub fn run(&self, thread: u64, tiles: &[u64], extents: &[u64]) -> Option<Vec<Copied>> {
        let mut env: HashMap<String, u64> = HashMap::new();
        env.insert(self.thread.clone(), thread);
        env.extend(self.tiles.iter().cloned().zip(tiles.iter().copied()));
        env.extend(self.extents.iter().cloned().zip(extents.iter().copied()));
        for (name, code) in &self.prologue {
            let value = code.eval(&env)?;
            env.insert(name.clone(), value);
        }
        let holds = Condition::all_hold;
        let interior = holds(&self.interior, &env)?;
        let mut copied = Vec::new();
        for step in self.moves_of(interior) {
            if !holds(&step.valid, &env)? || (!interior && !holds(&step.bounds, &env)?) {
                continue;
            }
            let sources = step.source.elements(&env, self.width)?;
            let destinations = step.destination.elements(&env, self.width)?;
            copied.extend(
                sources
                    .into_iter()
                    .zip(destinations)
                    .map(|(source, destination)| Copied {
                        source,
                        destination,
                    }),
            );
        }
        Some(copied)
    }
}

/// Why a tiled copy cannot run on the buffers and extents it was given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CopyError {
    /// A buffer's length is not what its side needs.
    Length {
        side: Part,
        needed: usize,
        found: usize,
    },
    /// The tile lies outside the image.
    Tile { tile: Vec<usize>, grid: Vec<usize> },
    /// The thread is not one of the workgroup's.
    Thread { thread: usize, threads: usize },
    /// The image's rows do not split into the copy's vectors.
    Unaligned { extent: usize, width: usize },
    /// The image's element count overflows `usize`.
    Overflow,
}

impl fmt::Display for CopyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CopyError::Length {
                side,
                needed,
                found,
            } => write!(
                f,
                "{side} has {found} elements but needs {needed}: give a buffer of {needed}"
            ),
            CopyError::Tile { tile, grid } => write!(
                f,
                "tile {tile:?} is outside the image's grid of {grid:?} tiles"
            ),
            CopyError::Thread { thread, threads } => write!(
                f,
                "thread {thread} is not one of the workgroup's {threads} threads"
            ),
            CopyError::Unaligned { extent, width } => write!(
                f,
                "the image's rows of {extent} elements do not split into the copy's vectors of \
                 {width}: pad the rows to a multiple of {width}, or declare the copy with \
                 `vector 1`"
            ),
            CopyError::Overflow => write!(f, "the image has more than `usize::MAX` elements"),
        }
    }
}

impl std::error::Error for CopyError {}

/// Checks what one run of a tiled copy is given: the tile lies in the image, the image's
/// rows split into the copy's vectors, and each buffer has exactly the image's elements or
/// at least its layout's space. `spaces` are the layout sides' spaces (`None`: the image).
pub fn check_run(
    tile_shape: &[usize],
    width: usize,
    spaces: [Option<usize>; 2],
    tile: &[usize],
    extents: &[usize],
    lengths: [usize; 2],
) -> Result<(), CopyError> {
    let image = spaces.iter().any(Option::is_none);
    if image {
        let grid: Vec<usize> = extents
            .iter()
            .zip(tile_shape)
            .map(|(&extent, &len)| extent.div_ceil(len.max(1)))
            .collect();
        if tile.iter().zip(&grid).any(|(t, g)| t >= g) {
            return Err(CopyError::Tile {
                tile: tile.to_vec(),
                grid,
            });
        }
        if let Some(&last) = extents.last()
            && width > 1
            && !last.is_multiple_of(width)
        {
            return Err(CopyError::Unaligned {
                extent: last,
                width,
            });
        }
    }
    let elements = extents
        .iter()
        .try_fold(1usize, |acc, &e| acc.checked_mul(e))
        .ok_or(CopyError::Overflow)?;
    for ((space, found), side) in spaces
        .into_iter()
        .zip(lengths)
        .zip([Part::Source, Part::Destination])
    {
        let (needed, fits) = match space {
            None => (elements, found == elements),
            Some(space) => (space, found >= space),
        };
        if !fits {
            return Err(CopyError::Length {
                side,
                needed,
                found,
            });
        }
    }
    Ok(())
}

/// Elements per entry of a workgroup layout's WGSL array (`array<u32>`, `vec2`, `vec4`):
/// the widest run, up to [`MAX_VECTOR_BYTES`], such that along some coordinate every
/// aligned run of that many elements lies at consecutive offsets starting on a multiple of
/// it. It does not depend on the order of the coordinates, so a tile and its transposed
/// view (the same memory) agree on how the tile is declared; a copy whose vectors cover
/// whole entries along its last coordinate moves them at once (one 16-byte access per
/// lane), and one that does not, element by element.
pub fn entry_words(layout: &Descriptor, element_bytes: usize) -> usize {
    let rank = layout.shape().len();
    (0..rank)
        .map(|axis| run_words(layout, axis, element_bytes))
        .max()
        .unwrap_or(1)
}

/// The widest run, up to [`MAX_VECTOR_BYTES`], such that every aligned run of that many
/// elements along coordinate `axis` lies at consecutive offsets starting on a multiple of
/// it; 1 for none (or past the enumeration budget).
fn run_words(layout: &Descriptor, axis: usize, element_bytes: usize) -> usize {
    let shape = layout.shape();
    let (Some(&len), Some(space)) = (shape.get(axis), layout.space()) else {
        return 1;
    };
    let elements: usize = shape.iter().product();
    if elements > crate::budget::ACCESS_ELEMENTS {
        // Workgroup memory holds far fewer; a tile this large is refused elsewhere.
        return 1;
    }
    let widest = (MAX_VECTOR_BYTES / element_bytes.max(1)).max(1);
    let runs_hold = |width: usize| {
        (0..elements).all(|index| {
            let start = crate::plans::threads::digits(index, &shape);
            !start[axis].is_multiple_of(width) || contiguous(layout, &start, width, axis).is_ok()
        })
    };
    (0..=widest.trailing_zeros())
        .rev()
        .map(|shift| 1usize << shift)
        .find(|&width| {
            width == 1
                || (len.is_multiple_of(width) && space.is_multiple_of(width) && runs_hold(width))
        })
        .unwrap_or(1)
}

/// Whether `width` elements from `start` along coordinate `axis` are consecutive and
/// aligned in `layout`; otherwise why not, naming the transform that breaks the run.
fn contiguous(
    layout: &Descriptor,
    start: &[usize],
    width: usize,
    axis: usize,
) -> Result<(), String> {
    let first = layout.offset(start).map_err(|e| e.to_string())?;
    let name = &layout.name;
    let breaker = || {
        let mut block: Vec<(usize, usize)> = (0..start.len()).map(|c| (c, 1)).collect();
        if let Some(part) = block.get_mut(axis) {
            *part = (axis, width);
        }
        match culprit(layout, &block) {
            Some(culprit) => format!("`{}` breaks the run", culprit.describe(layout)),
            None => "its offsets are not consecutive".to_owned(),
        }
    };
    for i in 1..width {
        let mut next = start.to_vec();
        next[axis] += i;
        let offset = layout.offset(&next).map_err(|e| e.to_string())?;
        if offset != first + i {
            return Err(format!(
                "in `{name}`, {} → {first} but {} → {offset}, not {}: {}",
                show(start),
                show(&next),
                first + i,
                breaker()
            ));
        }
    }
    if !first.is_multiple_of(width) {
        return Err(format!(
            "in `{name}`, {} → {first}, which is not a multiple of {width}: the vector is \
             not aligned",
            show(start)
        ));
    }
    Ok(())
}

/// The offset of an element of the image when rows are `pitch` elements apart.
fn image_offset(element: &[usize], pitch: usize) -> usize {
    element.iter().fold(0usize, |acc, &c| {
        acc.saturating_mul(pitch).saturating_add(c)
    })
}

/// Orders costs: more conflicts or more transactions rank higher.
fn cost_rank(cost: &Cost) -> (usize, usize) {
    match cost {
        Cost::Banks(report) => (report.degree, 0),
        Cost::Memory(t) => (t.transactions, t.transferred_bytes),
    }
}

/// A tile coordinate as messages show it: `(1, 4)`.
fn show(element: &[usize]) -> String {
    let parts: Vec<String> = element.iter().map(usize::to_string).collect();
    format!("({})", parts.join(", "))
}

#[cfg(test)]
mod tests;
