//! A workgroup order as a WGSL function.

use super::module::{Block, Function};
use super::names::{Names, snake_case};
use super::{conjunction, expr};
use crate::emit::code::Code;
use crate::plans::raster::RasterProgram;

/// A workgroup order as a WGSL function of the workgroup's index and the grid's rows and
/// columns of tiles, returning the tile's `vec2(y, x)`; `group` must lie in the grid.
pub fn raster(name: &str, comment: &str, program: &RasterProgram) -> String {
    let mut params = vec![program.group.clone()];
    params.extend(program.grid.iter().cloned());
    let mut names = Names::new(&params);
    let signature: Vec<String> = params
        .iter()
        .map(|p| format!("{}: u32", names.get(p)))
        .collect();
    let mut body = Block::new();
    let bind = |lets: &[(String, Code)], names: &mut Names, body: &mut Block| {
        for (local, code) in lets {
            let value = expr(code, names);
            names.add(local);
            body.let_(names.get(local), value);
        }
    };
    bind(&program.prologue, &mut names, &mut body);
    for case in &program.cases {
        let tile = |names: &Names| {
            format!(
                "vec2<u32>({}, {})",
                expr(&case.tile[0], names),
                expr(&case.tile[1], names)
            )
        };
        match conjunction(&case.when, &names, &None) {
            Ok(test) if !case.when.is_empty() => {
                body.if_(test, |then| {
                    let mut inner = names.clone();
                    bind(&case.lets, &mut inner, then);
                    then.ret(tile(&inner));
                });
            }
            _ => {
                bind(&case.lets, &mut names, &mut body);
                body.ret(tile(&names));
            }
        }
    }
    Function::new(snake_case(name), signature)
        .returns("vec2<u32>")
        .comment(comment)
        .body(body)
        .to_string()
}
