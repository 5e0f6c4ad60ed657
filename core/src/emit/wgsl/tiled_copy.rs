//! A tiled copy's thread program as a WGSL function.

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
    let mut names = Names::new(&program.params);
    let params: Vec<String> = program
        .params
        .iter()
        .map(|p| format!("{}: u32", names.get(p)))
        .collect();
    let mut body = Block::new();
    for (local, code) in &program.prologue {
        let value = expr(code, &names);
        names.add(local);
        body.let_(names.get(local), value);
    }
    let buffers = Names::new(&[source.to_owned(), destination.to_owned()]);
    let (source, destination) = (buffers.get(source), buffers.get(destination));
    // The loaded vectors' locals: `v0`, `v4`, … unless a name of the program has that form.
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
    // Bounds are not checked against u32 here: the runtime refuses images whose indices do
    // not fit.
    let test = |tests: &[Condition]| conjunction(tests, &names, &None).unwrap_or_default();
    // An interior tile runs the squares of a register transpose where the copy has them.
    let moves = |guarded: bool| -> Block {
        let mut out = Block::new();
        for step in program.moves_of(!guarded) {
            let mut tests = step.valid.clone();
            if guarded {
                tests.extend(step.bounds.iter().cloned());
            }
            let copy = |block: &mut Block| {
                let buffers = (source, destination);
                let width = program.width;
                copy_statements(
                    block,
                    step,
                    buffers,
                    (vector, width),
                    writes.convert,
                    &names,
                );
            };
            let zero = |block: &mut Block| zero_statements(block, step, destination, &names);
            let zeros = guarded && writes.outside == Outside::Zero && !step.bounds.is_empty();
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
    };
    if program.interior.is_empty() {
        body.extend(moves(false));
    } else {
        let interior = conjunction(&program.interior, &names, &None).unwrap_or_default();
        body.if_(interior, |inside| {
            inside.extend(moves(false)).line("return;");
        })
        .comment("A partial tile: only the moves that can leave the image are guarded.")
        .extend(moves(true));
    }
    Function::new(snake_case(name), params)
        .comment(comment)
        .body(body)
        .to_string()
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

/// Zeros into every destination access of one move (abstract literals, which take the
/// array's element type).
fn zero_statements(block: &mut Block, step: &Move, destination: &str, names: &Names) {
    let to = &step.destination;
    let zero = match to.piece {
        1 => "0".to_owned(),
        piece => format!("vec{piece}(0)"),
    };
    for k in 0..to.accesses.len() {
        block.assign(access(destination, to, k, names), &zero);
    }
}

/// The WGSL statements of one move: one assignment where both sides are one access of
/// whole entries; otherwise the source's vector entries bound to locals (`v0`, `v0_1`, …)
/// and the destination's accesses assembled from their components — across the locals
/// where the move is a square that the registers transpose. `width` is the program's
/// values per vector.
fn copy_statements(
    block: &mut Block,
    step: &Move,
    (source, destination): (&str, &str),
    (vector, width): (&str, usize),
    convert: Option<&str>,
    names: &Names,
) {
    let (from, to) = (&step.source, &step.destination);
    // A value of `lanes` elements, converted where the destination's type differs.
    let converted = |value: String, lanes: usize| match (convert, lanes) {
        (None, _) => value,
        (Some(element), 1) => format!("{element}({value})"),
        (Some(element), lanes) => format!("vec{lanes}<{element}>({value})"),
    };
    if from.is_whole() && to.is_whole() {
        block.assign(
            access(destination, to, 0, names),
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
                    1 => format!("{vector}{}", step.first),
                    _ => format!("{vector}{}_{k}", step.first),
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
        block.assign(access(destination, to, k, names), value);
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
