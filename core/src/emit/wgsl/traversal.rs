//! A traversal's `index` as a WGSL function.

use super::expr;
use super::module::{Block, Function};
use super::names::{Names, snake_case};
use crate::plans::sfc::IndexProgram;

/// A traversal's `index(i)` as a WGSL function `fn <name>_index(i: u32) -> array<u32, N>`:
/// where access `i` starts, each dim a `let` (a snake's backward passes through `select`).
pub fn sfc_index(name: &str, comment: &str, program: &IndexProgram) -> String {
    let mut names = Names::new(std::slice::from_ref(&program.param));
    let param = names.get(&program.param).to_owned();
    let mut body = Block::new();
    for step in &program.steps {
        let digit = expr(&step.digit, &names);
        let value = match &step.reverse {
            Some((odd, last)) => format!(
                "select({digit}, {last}u - ({digit}), ({}) == 1u)",
                expr(odd, &names)
            ),
            None => digit,
        };
        let value = match step.vector {
            1 => value,
            vector => format!("({value}) * {vector}u"),
        };
        names.add(&step.name);
        body.let_(names.get(&step.name), value);
    }
    let results: Vec<&str> = program.results.iter().map(|r| names.get(r)).collect();
    let coordinate = format!("array<u32, {}>", program.results.len());
    body.ret(format_args!("{coordinate}({})", results.join(", ")));
    Function::new(
        format_args!("{}_index", snake_case(name)),
        [format_args!("{param}: u32")],
    )
    .returns(&coordinate)
    .comment(comment)
    .body(body)
    .to_string()
}
