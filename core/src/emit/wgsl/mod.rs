//! WGSL for a layout: the canonical form that the Rust code is printed from, printed again as
//! WGSL functions over `u32`. Offsets are `u32` in WGSL (docs/semantics.md §5), so a layout whose
//! coordinates, offsets or intermediate values may not fit 32 bits has no WGSL: [`layout`]
//! says why instead, and the macro turns that into a compile error on use of `WGSL`.
//!
//! For a layout `MortonTexture` with coords `[y, x]` the functions are
//! `morton_texture_offset(y: u32, x: u32) -> u32`, `morton_texture_coord(offset: u32) ->
//! array<u32, 2>` when it is a bijection and `morton_texture_is_valid(y: u32, x: u32) -> bool`
//! when it is padded. A layout with run-time (`dyn`) outer dims gets the functions of one
//! tile, `…_tile_offset` and so on: a kernel adds `tile · TILE_SPACE` itself.

use crate::canon::{Canonical, enumeration_limit};
use crate::emit::code::{Code, Op};
use crate::emit::function::{Condition, Function, Kind, LayoutFunctions, Stmt, Value};
use crate::ir::Descriptor;
use std::collections::{HashMap, HashSet};

pub mod expr;
pub mod module;
mod names;
mod raster;
mod tiled_copy;
mod traversal;

use module::{Block, Module};
use names::Names;
pub use names::snake_case;
pub use raster::raster;
pub use tiled_copy::{Outside, SplitCopy, Writes, split_tiled_copy, tiled_copy};
pub use traversal::sfc_index;

/// A layout's WGSL functions, and which of them exist: what kernels assemble their modules
/// from, so that none has to search the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Functions {
    pub text: String,
    /// The functions' common prefix: `<prefix>_offset`, ….
    pub prefix: String,
    /// Whether `<prefix>_coord` exists: the layout is a bijection onto its element space.
    pub coord: bool,
    /// Whether `<prefix>_is_valid` exists: the layout is padded.
    pub is_valid: bool,
}

impl Functions {
    /// The call `<prefix>_offset(coords…)`: where the layout keeps the element at `coords`.
    pub fn offset<C: Into<expr::Expr>>(&self, coords: impl IntoIterator<Item = C>) -> expr::Expr {
        layout_call(&self.prefix, "offset", coords)
    }
}

/// `<prefix>_<function>(args…)`: a call of one of the WGSL functions (`offset`, `coord`,
/// `is_valid`) of the layout, or tile, whose functions are named after `prefix`.
pub fn layout_call<A: Into<expr::Expr>>(
    prefix: &str,
    function: &str,
    args: impl IntoIterator<Item = A>,
) -> expr::Expr {
    expr::call([prefix, function].join("_"), args)
}

/// The WGSL of the layout `descriptor` named `name` (its Rust type name), as the macro emits
/// it; `inverse_requested` when the layout says `inverse;` (its inverse is then searched
/// harder, as for the Rust code).
pub fn layout(
    name: &str,
    descriptor: &Descriptor,
    inverse_requested: bool,
) -> Result<Functions, String> {
    let canonical = Canonical::new(descriptor);
    let inverse = canonical.inverse_block(descriptor, enumeration_limit(inverse_requested));
    let functions = LayoutFunctions::new(&canonical, inverse.as_ref());
    self::functions(name, descriptor, &functions, None)
}

/// The WGSL functions of a layout from its functions; `base` names the layout whose
/// functions they call, for a layout built over its base's ([`crate::emit::compose`]): the
/// module then needs the base's WGSL too.
pub fn functions(
    name: &str,
    descriptor: &Descriptor,
    functions: &LayoutFunctions,
    base: Option<&str>,
) -> Result<Functions, String> {
    let prefix = match descriptor.is_tiled() {
        true => format!("{}_tile", snake_case(name)),
        false => snake_case(name),
    };
    let callee = base.map_or_else(|| prefix.clone(), snake_case);
    let coords: Vec<String> = descriptor
        .coords
        .iter()
        .map(|&c| descriptor.dims[c].name.to_string())
        .collect();
    let coords = &coords;
    let shape = &descriptor.shape();
    let space = descriptor
        .space()
        .ok_or("its element space overflows `usize`")?;
    fits("its element space", space as u128)?;
    let mut maxima: HashMap<String, u128> = HashMap::new();
    for (coord, &len) in coords.iter().zip(shape) {
        fits(&format!("the length of `{coord}`"), len as u128)?;
        maxima.insert(coord.clone(), (len as u128).saturating_sub(1));
    }

    let described: Vec<String> = coords
        .iter()
        .zip(shape)
        .map(|(c, l)| format!("{c}: {l}"))
        .collect();
    let whole = match descriptor.is_tiled() {
        true => ", one tile",
        false => "",
    };
    let mut out = Module::new();
    out.note(format_args!(
        "Layout `{name}`{whole}: coords [{}], {space} elements.",
        described.join(", ")
    ));
    if let Some(base) = base {
        out.note(format_args!(
            "Calls the functions of layout `{base}` (`{callee}_…`): add its WGSL to the module."
        ));
    }
    out.text(&print(&prefix, &functions.offset, &callee, Some(&maxima))?);
    if let Some(is_valid) = &functions.is_valid {
        out.text(&print(&prefix, is_valid, &callee, Some(&maxima))?);
    }
    let coord = functions.coord.as_ref().filter(|_| !coords.is_empty());
    if let Some(coord) = coord {
        let maxima = HashMap::from([("offset".to_owned(), (space as u128).saturating_sub(1))]);
        out.text(&print(&prefix, coord, &callee, Some(&maxima))?);
    }
    if let Some(element) = &functions.element {
        out.text(&print(&prefix, element, &prefix, Some(&maxima))?);
    }
    Ok(Functions {
        text: out.finish(),
        prefix,
        coord: coord.is_some(),
        is_valid: functions.is_valid.is_some(),
    })
}

/// `function` as WGSL, named `<prefix>_<kind>`; the tile functions it calls are
/// `<callee>_<kind>`. With `maxima` (the largest value of each parameter), every value it
/// computes is checked to fit `u32`, where WGSL would wrap: an error says which does not.
pub fn print(
    prefix: &str,
    function: &Function,
    callee: &str,
    maxima: Option<&HashMap<String, u128>>,
) -> Result<String, String> {
    let mut names = Names::new(&function.params);
    let mut maxima = maxima.cloned();
    let checked = |code: &Code, maxima: &Option<HashMap<String, u128>>| match maxima {
        Some(maxima) => bound(code, maxima),
        None => Ok(0),
    };
    let params: Vec<String> = function
        .params
        .iter()
        .map(|p| format!("{}: u32", names.get(p)))
        .collect();
    let returns = match &function.result {
        Value::Index(_) => "u32".to_owned(),
        Value::Holds(_) => "bool".to_owned(),
        Value::Coordinate(codes) => format!("array<u32, {}>", codes.len()),
    };
    let mut body = Block::new();
    for stmt in &function.body {
        match stmt {
            Stmt::Let(name, code) => {
                let largest = checked(code, &maxima)?;
                let value = expr(code, &names);
                names.add(name);
                if let Some(maxima) = &mut maxima {
                    maxima.insert(name.clone(), largest);
                }
                // A constant alone would be an abstract integer, which WGSL makes `i32`.
                let mut read = HashSet::new();
                code.collect_vars(&mut read);
                let typed = if read.is_empty() { ": u32" } else { "" };
                body.line(format_args!("let {}{typed} = {value};", names.get(name)));
            }
            Stmt::Call {
                names: results,
                kind,
                args,
            } => {
                // A callee's `coord` inverts a bijection onto `0..space`, the range of the
                // offset it is given: each coordinate it returns is below its length, at most
                // that space. Other results are below bounds their own printing checked,
                // which the caller does not know: what it computes from them is not bounded.
                let coordinate_bound = match (*kind, args.as_slice(), &maxima) {
                    (Kind::Coord, [offset], Some(known)) => bound(offset, known).ok(),
                    _ => None,
                };
                let args: Vec<String> = args.iter().map(|a| expr(a, &names)).collect();
                let call = format!("{callee}_{}({})", kind.name(), args.join(", "));
                // A coordinate is an array, even of one index.
                if let ([single], false) = (results.as_slice(), *kind == Kind::Coord) {
                    names.add(single);
                    body.let_(names.get(single), call);
                } else {
                    // WGSL has no destructuring: the array, then its elements.
                    let all = format!("{}_all", results.first().map_or("tile", String::as_str));
                    names.add(&all);
                    let all = names.get(&all).to_owned();
                    body.let_(&all, call);
                    for (i, name) in results.iter().enumerate() {
                        names.add(name);
                        body.let_(names.get(name), format_args!("{all}[{i}]"));
                    }
                }
                match (coordinate_bound, &mut maxima) {
                    (Some(largest), Some(known)) => {
                        known.extend(results.iter().map(|name| (name.clone(), largest)));
                    }
                    _ => maxima = None,
                }
            }
            Stmt::Require(conditions) => {
                let tested = conjunction(conditions, &names, &maxima)?;
                body.when(format_args!("!({tested})"), "return false;");
            }
        }
    }
    let result = match &function.result {
        Value::Index(code) => {
            checked(code, &maxima)?;
            expr(code, &names)
        }
        Value::Holds(conditions) if conditions.is_empty() => "true".to_owned(),
        Value::Holds(conditions) => conjunction(conditions, &names, &maxima)?,
        Value::Coordinate(codes) => {
            let mut parts = Vec::with_capacity(codes.len());
            for code in codes {
                checked(code, &maxima)?;
                parts.push(expr(code, &names));
            }
            format!("{returns}({})", parts.join(", "))
        }
    };
    body.ret(result);
    let name = format!("{prefix}_{}", function.kind.name());
    Ok(module::Function::new(name, params)
        .returns(returns)
        .body(body)
        .to_string())
}

/// `a && b && …`, each comparison's bitwise operand parenthesised (WGSL does not order a
/// comparison against a bitwise operator).
pub(crate) fn conjunction(
    conditions: &[Condition],
    names: &Names,
    maxima: &Option<HashMap<String, u128>>,
) -> Result<String, String> {
    let operand = |code: &Code| -> Result<String, String> {
        if let Some(maxima) = maxima {
            bound(code, maxima)?;
        }
        let text = expr(code, names);
        Ok(match code {
            Code::Bin(Op::And | Op::Or | Op::Xor, ..) => format!("({text})"),
            _ => text,
        })
    };
    let tests = conditions
        .iter()
        .map(|condition| {
            Ok(match condition {
                Condition::AtLeast(code, lo) => format!("{} >= {}", operand(code)?, operand(lo)?),
                Condition::Below(code, hi) => format!("{} < {}", operand(code)?, operand(hi)?),
                Condition::True(name) => names.get(name).to_owned(),
            })
        })
        .collect::<Result<Vec<String>, String>>()?;
    Ok(tests.join(" && "))
}

fn fits(what: &str, value: u128) -> Result<(), String> {
    if value > u128::from(u32::MAX) + 1 {
        return Err(format!(
            "{what} ({value}) does not fit WGSL's 32-bit offsets (at most 2^32)"
        ));
    }
    Ok(())
}

/// The largest value `code` takes, and every subexpression of it, when its variables are at
/// most `maxima`; an error when one may not fit `u32`, where WGSL would wrap.
fn bound(code: &Code, maxima: &HashMap<String, u128>) -> Result<u128, String> {
    let value = match code {
        Code::Var(name) => maxima.get(name).copied().unwrap_or(u128::MAX),
        Code::Lit(value) | Code::Mask(value) => *value,
        Code::Bin(op, a, b) => {
            let (a, b) = (bound(a, maxima)?, bound(b, maxima)?);
            let spread = |m: u128| m.checked_next_power_of_two().map_or(u128::MAX, |p| p - 1);
            match op {
                Op::Add => a.saturating_add(b),
                Op::Sub => a,
                Op::Mul => a.saturating_mul(b),
                Op::Div => a,
                Op::Rem => a.min(b.saturating_sub(1)),
                Op::Shl if b < 32 => a.checked_shl(b as u32).unwrap_or(u128::MAX),
                Op::Shr if b < 32 => a >> b,
                Op::Shl | Op::Shr => {
                    return Err(format!(
                        "a shift by {b} bits does not fit WGSL's 32-bit integers"
                    ));
                }
                Op::And => a.min(b),
                Op::Or | Op::Xor => spread(a.max(b).saturating_add(1)),
            }
        }
    };
    if value > u128::from(u32::MAX) {
        return Err(format!(
            "an intermediate value of its offset code may reach {value}, which does not fit \
             WGSL's 32-bit integers"
        ));
    }
    Ok(value)
}

/// `code` as a WGSL expression. WGSL wants parentheses around every operand of a shift or a
/// bitwise operator that is itself an operation of another kind; the Rust printer's rule
/// (parenthesise across classes, except products in sums) gives all of them but shift
/// chains, which WGSL does not have either.
pub(crate) fn expr(code: &Code, names: &Names) -> String {
    match code {
        Code::Var(name) => names.get(name).to_owned(),
        Code::Lit(value) => value.to_string(),
        // As in Rust, low masks up to 255 in decimal; WGSL has no binary literals, so any
        // other mask reads in hex.
        Code::Mask(mask) if *mask <= 255 && (*mask + 1).is_power_of_two() => mask.to_string(),
        Code::Mask(mask) => format!("{mask:#x}"),
        Code::Bin(op, lhs, rhs) => {
            let operand = |child: &Code, right: bool| {
                let text = expr(child, names);
                let shift = matches!(op, Op::Shl | Op::Shr) && matches!(child, Code::Bin(..));
                if shift || Code::needs_parens(*op, child, right) {
                    format!("({text})")
                } else {
                    text
                }
            };
            let symbol = match op {
                Op::Add => "+",
                Op::Sub => "-",
                Op::Mul => "*",
                Op::Div => "/",
                Op::Rem => "%",
                Op::Shl => "<<",
                Op::Shr => ">>",
                Op::And => "&",
                Op::Or => "|",
                Op::Xor => "^",
            };
            format!("{} {symbol} {}", operand(lhs, false), operand(rhs, true))
        }
    }
}

/// `code` as a WGSL expression over variables named `names` (each renamed as the printers
/// rename parameters, where WGSL reserves it).
pub fn expression(code: &Code, names: &[String]) -> String {
    expr(code, &Names::new(names))
}

#[cfg(test)]
mod tests {
    use super::Functions;
    use super::expr::{name, u};

    #[test]
    fn a_layouts_offset_is_a_call_of_its_prefixed_function() {
        let functions = Functions {
            text: String::new(),
            prefix: "a_tile".to_owned(),
            coord: false,
            is_valid: false,
        };
        let offset = functions.offset([name("row0"), u(3)]);
        assert_eq!((offset / u(4)).to_string(), "a_tile_offset(row0, 3u) / 4u");
    }
}
