//! A workgroup order ([`RasterProgram`]) as SPIR-V: straight-line `u32` arithmetic in the
//! function being written. Every case is computed and the first whose tests hold is chosen
//! with `OpSelect`, so no branch splits the workgroup (the order is uniform over it, as the
//! cooperative-matrix operations that use it must be); a case not taken may compute
//! nonsense, but never divides by zero: a divisor that is not a literal is replaced by 1
//! where it is 0.

use super::{Module, op};
use crate::emit::code::{Code, Op};
use crate::emit::function::Condition;
use crate::plans::raster::RasterProgram;
use std::collections::HashMap;

/// The ids of the types the order computes in.
#[derive(Clone, Copy, Debug)]
pub struct Types {
    /// 32-bit unsigned integers.
    pub uint: u32,
    /// Booleans.
    pub boolean: u32,
}

/// The tile `[y, x]` (row and column of the grid) of workgroup `group`, in a grid of
/// `grid` (`[rows, columns]`) tiles: ids of `u32` values, `group` and `grid` included.
pub fn tile(
    module: &mut Module,
    types: Types,
    program: &RasterProgram,
    group: u32,
    grid: [u32; 2],
) -> Result<[u32; 2], String> {
    let mut env = HashMap::from([
        (program.group.clone(), group),
        (program.grid[0].clone(), grid[0]),
        (program.grid[1].clone(), grid[1]),
    ]);
    for (name, value) in &program.prologue {
        let id = code(module, types, value, &env)?;
        env.insert(name.clone(), id);
    }
    let mut chosen: Option<[u32; 2]> = None;
    // The tiles of the cases, first to last; then chosen from the last case up.
    let mut cases = Vec::new();
    for case in &program.cases {
        let mut local = env.clone();
        for (name, value) in &case.lets {
            let id = code(module, types, value, &local)?;
            local.insert(name.clone(), id);
        }
        let holds = case
            .when
            .iter()
            .map(|test| condition(module, types, test, &local))
            .collect::<Result<Vec<u32>, String>>()?;
        let tile = [
            code(module, types, &case.tile[0], &local)?,
            code(module, types, &case.tile[1], &local)?,
        ];
        cases.push((holds, tile));
    }
    for (holds, tile) in cases.into_iter().rev() {
        chosen = Some(match (chosen, holds.split_first()) {
            (Some(rest), Some((&first, others))) => {
                let all = others.iter().fold(first, |all, &next| {
                    module.value(op::LOGICAL_AND, types.boolean, &[all, next])
                });
                [0, 1].map(|i| module.value(op::SELECT, types.uint, &[all, tile[i], rest[i]]))
            }
            // The last case, or one without tests: it holds.
            _ => tile,
        });
    }
    chosen.ok_or_else(|| "the order has no cases".to_owned())
}

/// The id of `code`'s value, its variables bound in `env`.
fn code(
    module: &mut Module,
    types: Types,
    code: &Code,
    env: &HashMap<String, u32>,
) -> Result<u32, String> {
    match code {
        Code::Var(name) => env
            .get(name)
            .copied()
            .ok_or_else(|| format!("`{name}` is not bound")),
        Code::Lit(value) | Code::Mask(value) => u32::try_from(*value)
            .map(|value| module.constant(types.uint, value))
            .map_err(|_| format!("{value} does not fit 32 bits")),
        Code::Bin(operation, a, b) => {
            let a = self::code(module, types, a, env)?;
            let mut b_id = self::code(module, types, b, env)?;
            let divides = matches!(operation, Op::Div | Op::Rem);
            match **b {
                Code::Lit(0) | Code::Mask(0) if divides => {
                    return Err("a division by zero".to_owned());
                }
                Code::Lit(_) | Code::Mask(_) => {}
                _ if divides => {
                    let [zero, one] = [0, 1].map(|v| module.constant(types.uint, v));
                    let is_zero = module.value(op::I_EQUAL, types.boolean, &[b_id, zero]);
                    b_id = module.value(op::SELECT, types.uint, &[is_zero, one, b_id]);
                }
                _ => {}
            }
            let opcode = match operation {
                Op::Add => op::I_ADD,
                Op::Sub => op::I_SUB,
                Op::Mul => op::I_MUL,
                Op::Div => op::U_DIV,
                Op::Rem => op::U_MOD,
                Op::Shl => op::SHIFT_LEFT_LOGICAL,
                Op::Shr => op::SHIFT_RIGHT_LOGICAL,
                Op::And => op::BITWISE_AND,
                Op::Or => op::BITWISE_OR,
                Op::Xor => op::BITWISE_XOR,
            };
            Ok(module.value(opcode, types.uint, &[a, b_id]))
        }
    }
}

/// The id of `test`'s truth.
fn condition(
    module: &mut Module,
    types: Types,
    test: &Condition,
    env: &HashMap<String, u32>,
) -> Result<u32, String> {
    let (opcode, a, b) = match test {
        Condition::AtLeast(a, b) => (op::U_GREATER_THAN_EQUAL, a, b),
        Condition::Below(a, b) => (op::U_LESS_THAN, a, b),
        Condition::True(name) => return Err(format!("a call's truth `{name}` in an order")),
    };
    let a = code(module, types, a, env)?;
    let b = code(module, types, b, env)?;
    Ok(module.value(opcode, types.boolean, &[a, b]))
}
