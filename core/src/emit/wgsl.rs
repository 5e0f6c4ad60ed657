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
use crate::plans::raster::RasterProgram;
use crate::plans::sfc::IndexProgram;
use crate::plans::tiled_copy::{Address, Move, Program};
use std::collections::{HashMap, HashSet};
use std::fmt::Write;

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
/// functions they call, for a layout built over its base's ([`crate::emit::compose`]): the module
/// then needs the base's WGSL too.
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

    let mut out = String::new();
    let described: Vec<String> = coords
        .iter()
        .zip(shape)
        .map(|(c, l)| format!("{c}: {l}"))
        .collect();
    let _ = writeln!(
        out,
        "// Layout `{name}`{}: coords [{}], {space} elements.",
        if descriptor.is_tiled() {
            ", one tile"
        } else {
            ""
        },
        described.join(", ")
    );
    if let Some(base) = base {
        let _ = writeln!(
            out,
            "// Calls the functions of layout `{base}` (`{callee}_…`): add its WGSL to the module."
        );
    }

    out.push('\n');
    out.push_str(&print(&prefix, &functions.offset, &callee, Some(&maxima))?);
    if let Some(is_valid) = &functions.is_valid {
        out.push('\n');
        out.push_str(&print(&prefix, is_valid, &callee, Some(&maxima))?);
    }
    let coord = functions.coord.as_ref().filter(|_| !coords.is_empty());
    if let Some(coord) = coord {
        let maxima = HashMap::from([("offset".to_owned(), (space as u128).saturating_sub(1))]);
        out.push('\n');
        out.push_str(&print(&prefix, coord, &callee, Some(&maxima))?);
    }
    if let Some(element) = &functions.element {
        out.push('\n');
        out.push_str(&print(&prefix, element, &prefix, Some(&maxima))?);
    }
    Ok(Functions {
        text: out,
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
    let mut body = String::new();
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
                let _ = writeln!(body, "    let {}{typed} = {value};", names.get(name));
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
                    let _ = writeln!(body, "    let {} = {call};", names.get(single));
                } else {
                    // WGSL has no destructuring: the array, then its elements.
                    let all = format!("{}_all", results.first().map_or("tile", String::as_str));
                    names.add(&all);
                    let all = names.get(&all).to_owned();
                    let _ = writeln!(body, "    let {all} = {call};");
                    for (i, name) in results.iter().enumerate() {
                        names.add(name);
                        let _ = writeln!(body, "    let {} = {all}[{i}];", names.get(name));
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
                let _ = writeln!(body, "    if (!({tested})) {{ return false; }}");
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
    let name = format!("{prefix}_{}", function.kind.name());
    Ok(format!(
        "fn {name}({}) -> {returns} {{\n{body}    return {result};\n}}\n",
        params.join(", ")
    ))
}

/// `a && b && …`, each comparison's bitwise operand parenthesised (WGSL does not order a
/// comparison against a bitwise operator).
fn conjunction(
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

/// `MortonTexture` → `morton_texture`: the prefix of a layout's WGSL functions (`__X` →
/// `v__x`, since WGSL reserves names that start with `__`).
pub fn snake_case(name: &str) -> String {
    let name = name.strip_prefix("r#").unwrap_or(name);
    let mut out = String::with_capacity(name.len() + 4);
    let chars: Vec<char> = name.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii_uppercase() {
            let after_lower =
                i > 0 && (chars[i - 1].is_ascii_lowercase() || chars[i - 1].is_ascii_digit());
            let ends_acronym = i > 0
                && chars[i - 1].is_ascii_uppercase()
                && chars.get(i + 1).is_some_and(char::is_ascii_lowercase);
            if after_lower || ends_acronym {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    unreserved_prefix(&out)
}

/// `name`, prefixed with `v` if WGSL reserves it for its own start: WGSL rejects `_` and
/// every identifier that begins with `__`, which Rust allows.
fn unreserved_prefix(name: &str) -> String {
    match name == "_" || name.starts_with("__") {
        true => format!("v{name}"),
        false => name.to_owned(),
    }
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
fn expr(code: &Code, names: &Names) -> String {
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

/// WGSL names for the Rust names of one function: raw identifiers lose their `r#`, and names
/// that WGSL reserves (or that clash after that) get a `_` suffix.
#[derive(Clone)]
struct Names {
    map: HashMap<String, String>,
    used: HashSet<String>,
}

impl Names {
    fn new(names: &[String]) -> Names {
        let mut out = Names {
            map: HashMap::new(),
            used: HashSet::new(),
        };
        for name in names {
            out.add(name);
        }
        out
    }

    fn add(&mut self, name: &str) {
        let bare = name.strip_prefix("r#").unwrap_or(name);
        // Appending `_` cannot fix a name that starts with `__` (the loop below would never
        // end), so such names are prefixed first; after that, appending only ever resolves
        // clashes and keywords, which are finitely many.
        let mut candidate = unreserved_prefix(bare);
        while RESERVED.contains(&candidate.as_str()) || self.used.contains(&candidate) {
            candidate.push('_');
        }
        self.used.insert(candidate.clone());
        self.map.insert(name.to_owned(), candidate);
    }

    fn get<'a>(&'a self, name: &'a str) -> &'a str {
        self.map.get(name).map_or(name, String::as_str)
    }
}

/// WGSL's keywords, reserved words and the predeclared names a generated function uses.
const RESERVED: &[&str] = &[
    "_",
    "alias",
    "break",
    "case",
    "const",
    "const_assert",
    "continue",
    "continuing",
    "default",
    "diagnostic",
    "discard",
    "else",
    "enable",
    "false",
    "fn",
    "for",
    "if",
    "let",
    "loop",
    "override",
    "requires",
    "return",
    "struct",
    "switch",
    "true",
    "var",
    "while",
    "NULL",
    "Self",
    "abstract",
    "active",
    "alignas",
    "alignof",
    "as",
    "asm",
    "asm_fragment",
    "async",
    "attribute",
    "auto",
    "await",
    "become",
    "cast",
    "catch",
    "class",
    "co_await",
    "co_return",
    "co_yield",
    "coherent",
    "column_major",
    "common",
    "compile",
    "compile_fragment",
    "concept",
    "const_cast",
    "consteval",
    "constexpr",
    "constinit",
    "crate",
    "debugger",
    "decltype",
    "delete",
    "demote",
    "demote_to_helper",
    "do",
    "dynamic_cast",
    "enum",
    "explicit",
    "export",
    "extends",
    "extern",
    "external",
    "fallthrough",
    "filter",
    "final",
    "finally",
    "friend",
    "from",
    "fxgroup",
    "get",
    "goto",
    "groupshared",
    "highp",
    "impl",
    "implements",
    "import",
    "inline",
    "instanceof",
    "interface",
    "layout",
    "lowp",
    "macro",
    "macro_rules",
    "match",
    "mediump",
    "meta",
    "mod",
    "module",
    "move",
    "mut",
    "mutable",
    "namespace",
    "new",
    "nil",
    "noexcept",
    "noinline",
    "nointerpolation",
    "non_coherent",
    "noncoherent",
    "noperspective",
    "null",
    "nullptr",
    "of",
    "operator",
    "package",
    "packoffset",
    "partition",
    "pass",
    "patch",
    "pixelfragment",
    "precise",
    "precision",
    "premerge",
    "priv",
    "protected",
    "pub",
    "public",
    "readonly",
    "ref",
    "regardless",
    "register",
    "reinterpret_cast",
    "require",
    "resource",
    "restrict",
    "self",
    "set",
    "shared",
    "sizeof",
    "smooth",
    "snorm",
    "static",
    "static_assert",
    "static_cast",
    "std",
    "subroutine",
    "super",
    "target",
    "template",
    "this",
    "thread_local",
    "throw",
    "trait",
    "try",
    "type",
    "typedef",
    "typeid",
    "typename",
    "typeof",
    "union",
    "unless",
    "unorm",
    "unsafe",
    "unsized",
    "use",
    "using",
    "varying",
    "virtual",
    "volatile",
    "wgsl",
    "where",
    "with",
    "writeonly",
    "yield",
    "array",
    "bool",
    "f16",
    "f32",
    "i32",
    "u32",
    "vec2",
    "vec3",
    "vec4",
    "ptr",
    "atomic",
    "sampler",
    "select",
];

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
    let mut body = String::new();
    for (local, code) in &program.prologue {
        let value = expr(code, &names);
        names.add(local);
        let _ = writeln!(body, "    let {} = {value};", names.get(local));
    }
    let buffers = Names::new(&[source.to_owned(), destination.to_owned()]);
    let (source, destination) = (buffers.get(source), buffers.get(destination));
    // The loaded vectors' locals: `v0`, `v4`, … unless a name of the program has that form.
    let taken = |prefix: &str| {
        let moves = program.moves.iter();
        moves
            .map(|m| format!("{prefix}{}", m.first))
            .any(|n| names.used.contains(&n))
    };
    let vector = ["v", "vector", "loaded"]
        .into_iter()
        .find(|prefix| !taken(prefix))
        .unwrap_or("loaded_");
    let moves = |indent: &str, guarded: bool| -> String {
        let mut out = String::new();
        for step in &program.moves {
            let mut tests = step.valid.clone();
            if guarded {
                tests.extend(step.bounds.iter().cloned());
            }
            let statements =
                copy_statements(step, (source, destination), vector, writes.convert, &names);
            if tests.is_empty() {
                for statement in statements {
                    let _ = writeln!(out, "{indent}{statement}");
                }
                continue;
            }
            // Bounds are not checked against u32 here: the runtime refuses images whose
            // indices do not fit.
            let test = |tests: &[Condition]| conjunction(tests, &names, &None).unwrap_or_default();
            let zeros = guarded && writes.outside == Outside::Zero && !step.bounds.is_empty();
            match zeros && !step.valid.is_empty() {
                // A slot in the thread-value layout's padding moves nothing at all.
                true => {
                    let _ = writeln!(out, "{indent}if ({}) {{", test(&step.valid));
                    let _ = writeln!(out, "{indent}    if ({}) {{", test(&step.bounds));
                }
                false => {
                    let _ = writeln!(out, "{indent}if ({}) {{", test(&tests));
                }
            }
            let inner = match zeros && !step.valid.is_empty() {
                true => format!("{indent}    "),
                false => indent.to_owned(),
            };
            for statement in statements {
                let _ = writeln!(out, "{inner}    {statement}");
            }
            if zeros {
                let _ = writeln!(out, "{inner}}} else {{");
                for statement in zero_statements(step, destination, &names) {
                    let _ = writeln!(out, "{inner}    {statement}");
                }
            }
            let _ = writeln!(out, "{inner}}}");
            if inner != indent {
                let _ = writeln!(out, "{indent}}}");
            }
        }
        out
    };
    if program.interior.is_empty() {
        body.push_str(&moves("    ", false));
    } else {
        let interior = conjunction(&program.interior, &names, &None).unwrap_or_default();
        let _ = writeln!(body, "    if ({interior}) {{");
        body.push_str(&moves("        ", false));
        body.push_str("        return;\n    }\n");
        body.push_str(
            "    // A partial tile: only the moves that can leave the image are guarded.\n",
        );
        body.push_str(&moves("    ", true));
    }
    format!(
        "// {comment}\nfn {}({}) {{\n{body}}}\n",
        snake_case(name),
        params.join(", ")
    )
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
fn zero_statements(step: &Move, destination: &str, names: &Names) -> Vec<String> {
    let to = &step.destination;
    let zero = match to.piece {
        1 => "0".to_owned(),
        piece => format!("vec{piece}(0)"),
    };
    (0..to.accesses.len())
        .map(|k| format!("{} = {zero};", access(destination, to, k, names)))
        .collect()
}

/// The WGSL statements of one move: one assignment where both sides are one access of
/// whole entries; otherwise the source's vector entries bound to locals (`v0`, `v0_1`, …)
/// and the destination's accesses assembled from their components.
fn copy_statements(
    step: &Move,
    (source, destination): (&str, &str),
    vector: &str,
    convert: Option<&str>,
    names: &Names,
) -> Vec<String> {
    let (from, to) = (&step.source, &step.destination);
    // A value of `lanes` elements, converted where the destination's type differs.
    let converted = |value: String, lanes: usize| match (convert, lanes) {
        (None, _) => value,
        (Some(element), 1) => format!("{element}({value})"),
        (Some(element), lanes) => format!("vec{lanes}<{element}>({value})"),
    };
    if from.is_whole() && to.is_whole() {
        return vec![format!(
            "{} = {};",
            access(destination, to, 0, names),
            converted(access(source, from, 0, names), to.piece)
        )];
    }
    let lanes = ["x", "y", "z", "w"];
    let mut statements = Vec::new();
    // The source's elements, in order, as expressions.
    let mut elements = Vec::new();
    for k in 0..from.accesses.len() {
        let read = access(source, from, k, names);
        match from.piece {
            1 => elements.push(read),
            piece => {
                let local = match from.accesses.len() {
                    1 => format!("{vector}{}", step.first),
                    _ => format!("{vector}{}_{k}", step.first),
                };
                statements.push(format!("let {local} = {read};"));
                elements.extend((0..piece).map(|i| format!("{local}.{}", lanes[i % 4])));
            }
        }
    }
    for (k, parts) in elements.chunks(to.piece.max(1)).enumerate() {
        let value = match parts {
            [one] => converted(one.clone(), 1),
            parts => {
                let parts: Vec<String> = parts.iter().map(|p| converted(p.clone(), 1)).collect();
                format!("vec{}({})", parts.len(), parts.join(", "))
            }
        };
        statements.push(format!("{} = {value};", access(destination, to, k, names)));
    }
    statements
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
    let mut body = String::new();
    let bind = |indent: &str, lets: &[(String, Code)], names: &mut Names, body: &mut String| {
        for (local, code) in lets {
            let value = expr(code, names);
            names.add(local);
            let _ = writeln!(body, "{indent}let {} = {value};", names.get(local));
        }
    };
    bind("    ", &program.prologue, &mut names, &mut body);
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
                let _ = writeln!(body, "    if ({test}) {{");
                let mut inner = names.clone();
                bind("        ", &case.lets, &mut inner, &mut body);
                let _ = writeln!(body, "        return {};", tile(&inner));
                body.push_str("    }\n");
            }
            _ => {
                bind("    ", &case.lets, &mut names, &mut body);
                let _ = writeln!(body, "    return {};", tile(&names));
            }
        }
    }
    format!(
        "// {comment}\nfn {}({}) -> vec2<u32> {{\n{body}}}\n",
        snake_case(name),
        signature.join(", ")
    )
}

/// A traversal's `index(i)` as a WGSL function `fn <name>_index(i: u32) -> array<u32, N>`:
/// where access `i` starts, each dim a `let` (a snake's backward passes through `select`).
pub fn sfc_index(name: &str, comment: &str, program: &IndexProgram) -> String {
    let mut names = Names::new(std::slice::from_ref(&program.param));
    let param = names.get(&program.param).to_owned();
    let mut body = String::new();
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
        let _ = writeln!(body, "    let {} = {value};", names.get(&step.name));
    }
    let results: Vec<&str> = program.results.iter().map(|r| names.get(r)).collect();
    format!(
        "// {comment}\nfn {}_index({param}: u32) -> array<u32, {rank}> {{\n{body}    return array<u32, {rank}>({});\n}}\n",
        snake_case(name),
        results.join(", "),
        rank = program.results.len(),
    )
}
