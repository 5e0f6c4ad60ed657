//! A tiled copy's thread program as a WGSL function, whole or split at its writes.

use super::module::{Block, Function};
use super::names::{Names, snake_case};
use super::{conjunction, expr};
use crate::emit::function::Condition;
use crate::plans::tiled_copy::{Address, Move, Program};

/// A tiled copy's thread program as a WGSL function `<name>(thread, …)` that reads the
/// module-scope array `source` and writes `destination`, both named by the caller. An image
/// side moved in vectors is an array of `vec<width>`s; every other side an array of
/// elements (the function never names the element type, so `u32`, `i32` and `f32` arrays
/// all work). A tile that lies wholly inside the image runs every move unguarded; at a
/// partial tile, a move whose elements leave the image is skipped or, with
/// [`Outside::Zero`], writes zeros (a GEMM's operand tiles: what lies past the matrix adds
/// nothing to a product).
pub fn tiled_copy(
    name: &str,
    comment: &str,
    program: &Program,
    (source, destination): (&str, &str),
    writes: Writes,
) -> String {
    let copy = Printer::new(program, (source, destination), writes);
    let put = Put::Array(&copy.destination);
    let params = program
        .params
        .iter()
        .map(|p| format!("{}: u32", copy.names.get(p)));
    Function::new(snake_case(name), params)
        .comment(comment)
        .body(copy.body(&put))
        .to_string()
}

/// A tiled copy split at its writes into the destination, from the same program as
/// [`tiled_copy`]: what `fetch` loads into an array of registers, `r`, and where each
/// register goes. A copy whose fetches are issued early (before other work) and stored
/// later is built from these.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitCopy {
    /// The copy function's parameters' names (`thread`, …), each a `u32`.
    pub params: Vec<String>,
    /// The locals every move reads (the program's prologue), as the copy binds them.
    pub prologue: Block,
    /// The copy with each write into the destination written into its register instead
    /// (`r[i] = …;`, zeros where the copy writes zeros); the caller declares `r` before it
    /// and returns it after.
    pub fetch: Block,
    /// The index into the destination of each register's entry, in the order the copy
    /// first writes them.
    pub places: Vec<String>,
}

/// [`tiled_copy`] split at its writes (see [`SplitCopy`]), with registers of the WGSL type
/// `register` (one destination entry each). `None` unless every write into the destination
/// is one whole entry and a partial tile writes no entry that a whole tile does not.
pub fn split_tiled_copy(
    program: &Program,
    (source, destination): (&str, &str),
    writes: Writes,
    register: &str,
) -> Option<SplitCopy> {
    let copy = Printer::new(program, (source, destination), writes);
    let index = |to: &Address, k: usize| -> Option<String> {
        (to.piece == to.words).then(|| expr(&to.accesses[k], &copy.names))
    };
    let written = |interior: bool| -> Option<Vec<String>> {
        let moves = program.moves_of(interior).iter();
        moves
            .flat_map(|step| (0..step.destination.accesses.len()).map(move |k| (step, k)))
            .map(|(step, k)| index(&step.destination, k))
            .collect()
    };
    let mut places: Vec<String> = Vec::new();
    for place in written(true)? {
        if !places.contains(&place) {
            places.push(place);
        }
    }
    let partial = !program.interior.is_empty();
    if places.is_empty() || (partial && written(false)?.iter().any(|p| !places.contains(p))) {
        return None;
    }
    let put = Put::Registers {
        places: &places,
        register,
    };
    Some(SplitCopy {
        params: (program.params.iter())
            .map(|p| copy.names.get(p).to_owned())
            .collect(),
        prologue: copy.prologue.clone(),
        fetch: copy.body(&put),
        places,
    })
}

/// How a tiled copy writes its destination.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Writes {
    /// What it writes where its source lies outside the image.
    pub outside: Outside,
    /// The destination's element type where it differs from the source's (`"f32"` for a
    /// tile of f32 loaded from f16): every value written is converted to it.
    pub convert: Option<&'static str>,
}

/// What a tiled copy writes where its source lies outside the image.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Outside {
    /// Nothing: the destination keeps what it held.
    #[default]
    Skip,
    /// Zeros, of the destination's element type.
    Zero,
}

/// Where a copy's function puts each value it moves.
enum Put<'a> {
    /// Into the destination array, at the move's access.
    Array(&'a str),
    /// Into the register array `r`: the entry the copy writes at `places[i]` into `r[i]`,
    /// each register of the WGSL type `register`.
    Registers {
        places: &'a [String],
        register: &'a str,
    },
}

impl Put<'_> {
    /// The place that access `k` of a move's destination `to` is written to.
    fn place(&self, to: &Address, k: usize, names: &Names) -> String {
        match self {
            Put::Array(destination) => access(destination, to, k, names),
            Put::Registers { places, .. } => {
                let index = expr(&to.accesses[k], names);
                // `split_tiled_copy` checked that every write is one of the places.
                let register = places.iter().position(|p| *p == index).unwrap_or_default();
                format!("r[{register}]")
            }
        }
    }

    /// The zero of `piece` destination elements (abstract literals, which take the
    /// destination's element type; a register wider than WGSL's vectors is its type's zero
    /// value).
    fn zero(&self, piece: usize) -> String {
        match (self, piece) {
            (_, 1) => "0".to_owned(),
            (Put::Registers { register, .. }, 5..) => format!("{register}()"),
            (_, piece) => format!("vec{piece}(0)"),
        }
    }
}

/// The comment that opens a partial tile's guarded moves (the `else` of the interior's test).
const PARTIAL_TILE: &str = "A partial tile: only the moves that can leave the image are guarded.";

/// One tiled copy's program with its names: what both the whole copy and its split print.
struct Printer<'p> {
    program: &'p Program,
    names: Names,
    /// The locals every move reads, bound.
    prologue: Block,
    /// The source's and the destination's arrays.
    source: String,
    destination: String,
    /// The loaded vectors' locals' prefix: `v` (`v0`, `v4`, …) unless a name of the
    /// program has that form.
    vector: &'static str,
    writes: Writes,
}

impl<'p> Printer<'p> {
    fn new(program: &'p Program, (source, destination): (&str, &str), writes: Writes) -> Self {
        let mut names = Names::new(&program.params);
        let mut prologue = Block::new();
        for (local, code) in &program.prologue {
            let value = expr(code, &names);
            names.add(local);
            prologue.let_(names.get(local), value);
        }
        let buffers = Names::new(&[source.to_owned(), destination.to_owned()]);
        let (source, destination) = (buffers.get(source), buffers.get(destination));
        let taken = |prefix: &str| {
            let moves = program
                .moves
                .iter()
                .chain(program.squares.iter().flat_map(|squares| &squares.moves));
            moves
                .flat_map(|m| {
                    let parts = (0..m.source.accesses.len()).map(|k| format!("_{k}"));
                    std::iter::once(String::new())
                        .chain(parts)
                        .map(move |part| format!("{prefix}{}{part}", m.first))
                })
                .any(|n| names.used.contains(&n))
        };
        let vector = ["v", "vector", "loaded"]
            .into_iter()
            .find(|prefix| !taken(prefix))
            .unwrap_or("loaded_");
        Printer {
            program,
            prologue,
            source: source.to_owned(),
            destination: destination.to_owned(),
            vector,
            writes,
            names,
        }
    }

    /// The function's body: the prologue, then the moves (an interior tile's unguarded and
    /// a partial tile's guarded on either side of an `if`, where the program tells interior
    /// tiles apart), each value put by `put`.
    ///
    /// The two sides meet at one exit rather than the interior returning early from inside
    /// the `if`: NVIDIA's Vulkan compiler ran the early-returning form of the tensor-core
    /// GEMM's prefetched copies far slower, the same moves otherwise
    /// (BENCHMARKS.md#tensor-core-gemm).
    fn body(&self, put: &Put) -> Block {
        let program = self.program;
        let mut body = self.prologue.clone();
        if program.interior.is_empty() {
            body.extend(self.moves(false, put));
        } else {
            // Bounds are not checked against u32 here: the runtime refuses images whose
            // indices do not fit.
            let interior = conjunction(&program.interior, &self.names, &None).unwrap_or_default();
            body.if_else(
                interior,
                |inside| {
                    inside.extend(self.moves(false, put));
                },
                |partial| {
                    partial.comment(PARTIAL_TILE).extend(self.moves(true, put));
                },
            );
        }
        body
    }

    /// Every move, under its guards where `guarded` (a partial tile). An interior tile runs
    /// the squares of a register transpose where the copy has them.
    fn moves(&self, guarded: bool, put: &Put) -> Block {
        let test = |tests: &[Condition]| conjunction(tests, &self.names, &None).unwrap_or_default();
        let mut out = Block::new();
        for step in self.program.moves_of(!guarded) {
            let mut tests = step.valid.clone();
            if guarded {
                tests.extend(step.bounds.iter().cloned());
            }
            let copy = |block: &mut Block| self.copy(block, step, put);
            let zero = |block: &mut Block| self.zero(block, step, put);
            let zeros = guarded && self.writes.outside == Outside::Zero && !step.bounds.is_empty();
            match (tests.is_empty(), zeros, step.valid.is_empty()) {
                (true, ..) => copy(&mut out),
                (false, false, _) => {
                    out.if_(test(&tests), copy);
                }
                (false, true, true) => {
                    out.if_else(test(&tests), copy, zero);
                }
                // A slot in the thread-value layout's padding moves nothing at all.
                (false, true, false) => {
                    out.if_(test(&step.valid), |valid| {
                        valid.if_else(test(&step.bounds), copy, zero);
                    });
                }
            }
        }
        out
    }

    /// Zeros into every destination access of one move.
    fn zero(&self, block: &mut Block, step: &Move, put: &Put) {
        let to = &step.destination;
        let zero = put.zero(to.piece);
        for k in 0..to.accesses.len() {
            block.assign(put.place(to, k, &self.names), &zero);
        }
    }

    /// The statements of one move: one assignment where both sides are one access of whole
    /// entries; otherwise the source's vector entries bound to locals (`v0`, `v0_1`, …) and
    /// the destination's accesses assembled from their components — across the locals
    /// where the move is a square that the registers transpose.
    fn copy(&self, block: &mut Block, step: &Move, put: &Put) {
        let (from, to) = (&step.source, &step.destination);
        let (names, source, width) = (&self.names, self.source.as_str(), self.program.width);
        // A value of `lanes` elements, converted where the destination's type differs.
        let converted = |value: String, lanes: usize| match (self.writes.convert, lanes) {
            (None, _) => value,
            (Some(element), 1) => format!("{element}({value})"),
            (Some(element), lanes) => format!("vec{lanes}<{element}>({value})"),
        };
        if from.is_whole() && to.is_whole() {
            block.assign(
                put.place(to, 0, names),
                converted(access(source, from, 0, names), to.piece),
            );
            return;
        }
        let lanes = ["x", "y", "z", "w"];
        // The source's elements as expressions, in the order of the move's values.
        let mut elements = vec![String::new(); from.accesses.len() * from.piece];
        for k in 0..from.accesses.len() {
            let read = access(source, from, k, names);
            match from.piece {
                1 => elements[from.position(k, 0, width)] = read,
                piece => {
                    let local = match from.accesses.len() {
                        1 => format!("{}{}", self.vector, step.first),
                        _ => format!("{}{}_{k}", self.vector, step.first),
                    };
                    block.let_(&local, read);
                    for i in 0..piece {
                        elements[from.position(k, i, width)] = format!("{local}.{}", lanes[i % 4]);
                    }
                }
            }
        }
        for k in 0..to.accesses.len() {
            let parts: Vec<String> = (0..to.piece)
                .map(|i| converted(elements[to.position(k, i, width)].clone(), 1))
                .collect();
            let value = match &parts[..] {
                [one] => one.clone(),
                parts => format!("vec{}({})", parts.len(), parts.join(", ")),
            };
            block.assign(put.place(to, k, names), value);
        }
    }
}

/// Access `k` of a side: an entry of the array, or one component of an entry.
fn access(buffer: &str, address: &Address, k: usize, names: &Names) -> String {
    let index = &address.accesses[k];
    match address.piece == address.words {
        true => format!("{buffer}[{}]", expr(index, names)),
        false => {
            let words = address.words as u128;
            let entry = index.clone().quotient(words);
            let component = index.clone().remainder(words);
            format!(
                "{buffer}[{}][{}]",
                expr(&entry, names),
                expr(&component, names)
            )
        }
    }
}
