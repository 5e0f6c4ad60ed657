//! A WGSL module built from its parts: declarations (bindings, workgroup arrays, constants),
//! functions and one compute entry point, each function a [`Block`] of statements whose
//! nesting (guards, `if`s, loops, scopes) is structure, not indentation written by hand, and
//! whose expressions are [`Expr`](super::expr::Expr) values, not formatted strings.
//! Every kernel of the runtime and every function the printers of this module emit goes
//! through it, so that all of them are laid out alike: four spaces a level, one blank line
//! between items, declarations of one kind together.
//!
//! ```
//! use swizzle_core::emit::wgsl::module::{Access, Block, Builtin, Entry, Module};
//!
//! let mut module = Module::new();
//! module
//!     .storage("src", Access::Read, "array<u32>")
//!     .storage("dst", Access::ReadWrite, "array<u32>");
//! let mut body = Block::new();
//! body.let_("t", "id.x")
//!     .guard("(t < 64u)", "return;")
//!     .assign("dst[t]", "src[t]");
//! module.entry(Entry::new(64).builtin(Builtin::GlobalInvocationId, "id"), body);
//! assert!(module.finish().contains("    dst[t] = src[t];\n"));
//! ```

use std::fmt::{Display, Write};

/// One WGSL module: paragraphs of declarations, functions and text printed elsewhere (a
/// layout's functions), one blank line apart.
#[derive(Clone, Debug, Default)]
pub struct Module {
    paragraphs: Vec<String>,
    /// Whether the last paragraph takes further declarations.
    open: bool,
    /// Storage buffers declared so far: the next one's binding.
    bindings: usize,
}

/// How a kernel's storage buffer is bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Access {
    Read,
    ReadWrite,
}

impl Module {
    pub fn new() -> Module {
        Module::default()
    }

    /// `enable <extension>;` (its own paragraph; consecutive ones share it).
    pub fn enable(&mut self, extension: &str) -> &mut Module {
        self.declare(format_args!("enable {extension};"))
    }

    /// A comment line among the declarations (`text` may hold several lines).
    pub fn note(&mut self, text: impl Display) -> &mut Module {
        for line in text.to_string().lines() {
            self.declare(format_args!("// {line}"));
        }
        self
    }

    /// The next storage buffer of group 0: `@group(0) @binding(<n>) var<storage, …> name: ty;`,
    /// bindings numbered in the order they are declared.
    pub fn storage(&mut self, name: &str, access: Access, ty: impl Display) -> &mut Module {
        let binding = self.bindings;
        self.bindings += 1;
        let access = match access {
            Access::Read => "read",
            Access::ReadWrite => "read_write",
        };
        self.declare(format_args!(
            "@group(0) @binding({binding}) var<storage, {access}> {name}: {ty};"
        ))
    }

    /// `var<workgroup> name: ty;`
    pub fn workgroup(&mut self, name: &str, ty: impl Display) -> &mut Module {
        self.declare(format_args!("var<workgroup> {name}: {ty};"))
    }

    /// `const NAME = value;`
    pub fn constant(&mut self, name: &str, value: impl Display) -> &mut Module {
        self.declare(format_args!("const {name} = {value};"))
    }

    /// Ends the current paragraph of declarations: the next one starts after a blank line.
    pub fn paragraph(&mut self) -> &mut Module {
        self.open = false;
        self
    }

    /// WGSL printed elsewhere (a layout's functions, a tiled copy), as its own paragraph.
    pub fn text(&mut self, text: &str) -> &mut Module {
        let text = text.trim_end_matches('\n');
        if !text.is_empty() {
            self.paragraphs.push(format!("{text}\n"));
        }
        self.open = false;
        self
    }

    /// A function as its own paragraph.
    pub fn function(&mut self, function: &Function) -> &mut Module {
        self.text(&function.to_string())
    }

    /// The compute entry point `main` with `body`.
    pub fn entry(&mut self, entry: Entry, body: Block) -> &mut Module {
        let mut head = format!("@compute @workgroup_size({})\nfn main(\n", entry.size);
        for (builtin, name) in &entry.builtins {
            let _ = writeln!(
                head,
                "    @builtin({}) {name}: {},",
                builtin.name(),
                builtin.ty()
            );
        }
        head.push_str(") {\n");
        body.print(1, &mut head);
        head.push_str("}\n");
        self.text(&head)
    }

    /// The module's text.
    pub fn finish(&self) -> String {
        self.paragraphs.join("\n")
    }

    fn declare(&mut self, line: impl Display) -> &mut Module {
        match self.paragraphs.last_mut() {
            Some(last) if self.open => {
                let _ = writeln!(last, "{line}");
            }
            _ => self.paragraphs.push(format!("{line}\n")),
        }
        self.open = true;
        self
    }
}

/// A compute entry point's workgroup size and the builtins it reads.
#[derive(Clone, Debug)]
pub struct Entry {
    size: String,
    builtins: Vec<(Builtin, String)>,
}

impl Entry {
    /// `@workgroup_size(<size>)`: a count, or `"16, 16"`.
    pub fn new(size: impl Display) -> Entry {
        Entry {
            size: size.to_string(),
            builtins: Vec::new(),
        }
    }

    /// A parameter `name` holding `builtin`.
    pub fn builtin(mut self, builtin: Builtin, name: &str) -> Entry {
        self.builtins.push((builtin, name.to_owned()));
        self
    }
}

/// The compute builtins the kernels read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Builtin {
    /// The thread's index in its workgroup (`u32`).
    LocalInvocationIndex,
    /// The workgroup's place in the grid (`vec3<u32>`).
    WorkgroupId,
    /// The grid's size in workgroups (`vec3<u32>`).
    NumWorkgroups,
    /// The thread's place in the whole grid (`vec3<u32>`).
    GlobalInvocationId,
}

impl Builtin {
    fn name(self) -> &'static str {
        match self {
            Builtin::LocalInvocationIndex => "local_invocation_index",
            Builtin::WorkgroupId => "workgroup_id",
            Builtin::NumWorkgroups => "num_workgroups",
            Builtin::GlobalInvocationId => "global_invocation_id",
        }
    }

    fn ty(self) -> &'static str {
        match self {
            Builtin::LocalInvocationIndex => "u32",
            _ => "vec3<u32>",
        }
    }
}

/// A function other than the entry point: `fn name(params) -> returns { body }`, after its
/// comment.
#[derive(Clone, Debug)]
pub struct Function {
    comment: Vec<String>,
    name: String,
    params: Vec<String>,
    returns: Option<String>,
    pub body: Block,
}

impl Function {
    /// `fn name(params)` with an empty body; `params` as WGSL writes them (`o: u32`).
    pub fn new<P: Display>(name: impl Display, params: impl IntoIterator<Item = P>) -> Function {
        Function {
            comment: Vec::new(),
            name: name.to_string(),
            params: params.into_iter().map(|p| p.to_string()).collect(),
            returns: None,
            body: Block::new(),
        }
    }

    /// Its result type.
    pub fn returns(mut self, ty: impl Display) -> Function {
        self.returns = Some(ty.to_string());
        self
    }

    /// The comment printed above it (`text` may hold several lines, each marked `// ` or
    /// not).
    pub fn comment(mut self, text: impl Display) -> Function {
        let text = text.to_string();
        let lines = text.lines().map(|l| l.strip_prefix("// ").unwrap_or(l));
        self.comment.extend(lines.map(str::to_owned));
        self
    }

    /// With `body`.
    pub fn body(mut self, body: Block) -> Function {
        self.body = body;
        self
    }
}

impl Display for Function {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for line in &self.comment {
            writeln!(f, "// {line}")?;
        }
        let returns = match &self.returns {
            Some(ty) => format!(" -> {ty}"),
            None => String::new(),
        };
        writeln!(
            f,
            "fn {}({}){returns} {{",
            self.name,
            self.params.join(", ")
        )?;
        let mut body = String::new();
        self.body.print(1, &mut body);
        write!(f, "{body}}}")?;
        writeln!(f)
    }
}

/// Statements, each at its block's depth.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Block {
    statements: Vec<Statement>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Statement {
    /// One line: a statement with its `;`, or a comment.
    Line(String),
    /// WGSL written elsewhere (a user's function body), printed as written.
    Verbatim(String),
    If {
        condition: String,
        then: Block,
        otherwise: Option<Block>,
    },
    For {
        header: String,
        body: Block,
    },
    Scope(Block),
}

impl Block {
    pub fn new() -> Block {
        Block::default()
    }

    /// Whether it has no statement.
    pub fn is_empty(&self) -> bool {
        self.statements.is_empty()
    }

    /// Any one-line statement, written with its `;` (`workgroupBarrier();`).
    pub fn line(&mut self, statement: impl Display) -> &mut Block {
        self.statements.push(Statement::Line(statement.to_string()));
        self
    }

    /// WGSL written elsewhere (a user's function body), printed as written, unindented.
    pub fn verbatim(&mut self, text: impl Display) -> &mut Block {
        self.statements.push(Statement::Verbatim(text.to_string()));
        self
    }

    /// A comment (`text` may hold several lines).
    pub fn comment(&mut self, text: impl Display) -> &mut Block {
        for line in text.to_string().lines() {
            self.line(format_args!("// {line}"));
        }
        self
    }

    /// `let name = value;`
    pub fn let_(&mut self, name: impl Display, value: impl Display) -> &mut Block {
        self.line(format_args!("let {name} = {value};"))
    }

    /// `var name = value;`
    pub fn var(&mut self, name: impl Display, value: impl Display) -> &mut Block {
        self.line(format_args!("var {name} = {value};"))
    }

    /// `var name: ty;` (zero-initialised).
    pub fn declare(&mut self, name: impl Display, ty: impl Display) -> &mut Block {
        self.line(format_args!("var {name}: {ty};"))
    }

    /// `place = value;`
    pub fn assign(&mut self, place: impl Display, value: impl Display) -> &mut Block {
        self.line(assignment(place, value))
    }

    /// `place op= value;`: a compound assignment (`word |= bits;` where `op` is `|`).
    pub fn compound(&mut self, place: impl Display, op: &str, value: impl Display) -> &mut Block {
        self.line(format_args!("{place} {op}= {value};"))
    }

    /// `call;`: a function called for its effect (`stage(0u, loaded0);`).
    pub fn call(&mut self, call: impl Display) -> &mut Block {
        self.calls([call])
    }

    /// `a(…); b(…);`: calls that belong together (a step's copies), on one line.
    pub fn calls<C: Display>(&mut self, calls: impl IntoIterator<Item = C>) -> &mut Block {
        let calls: Vec<String> = calls.into_iter().map(|c| format!("{c};")).collect();
        self.line(calls.join(" "))
    }

    /// `return value;`
    pub fn ret(&mut self, value: impl Display) -> &mut Block {
        self.line(format_args!("return {value};"))
    }

    /// `if (!condition) { exit }`: `condition` as WGSL writes it after `!` (a call, or
    /// parenthesised).
    pub fn guard(&mut self, condition: impl Display, exit: impl Display) -> &mut Block {
        let mut then = Block::new();
        then.line(exit);
        self.push_if(format!("!{condition}"), then, None)
    }

    /// `if (condition) { … }`
    pub fn if_(&mut self, condition: impl Display, then: impl FnOnce(&mut Block)) -> &mut Block {
        self.push_if(condition.to_string(), Block::build(then), None)
    }

    /// `if (condition) { … } else { … }`
    pub fn if_else(
        &mut self,
        condition: impl Display,
        then: impl FnOnce(&mut Block),
        otherwise: impl FnOnce(&mut Block),
    ) -> &mut Block {
        let otherwise = Block::build(otherwise);
        self.push_if(condition.to_string(), Block::build(then), Some(otherwise))
    }

    /// `if (condition) { statement }` on one line: a guarded store among many alike.
    pub fn when(&mut self, condition: impl Display, statement: impl Display) -> &mut Block {
        self.line(format_args!("if ({condition}) {{ {statement} }}"))
    }

    /// `if (condition) { place = value; }` on one line: a guarded store among many alike.
    pub fn assign_when(
        &mut self,
        condition: impl Display,
        place: impl Display,
        value: impl Display,
    ) -> &mut Block {
        self.when(condition, assignment(place, value))
    }

    /// `for (var counter = 0u; condition; counter++) { … }`, `counter += stride` where
    /// `stride` is not 1: a loop over a `u32` counter.
    pub fn for_counter(
        &mut self,
        counter: &str,
        condition: impl Display,
        stride: usize,
        body: impl FnOnce(&mut Block),
    ) -> &mut Block {
        let step = match stride {
            1 => format!("{counter}++"),
            stride => format!("{counter} += {stride}u"),
        };
        self.for_(
            format_args!("var {counter} = 0u; {condition}; {step}"),
            body,
        )
    }

    /// `for (header) { … }`, the header as WGSL writes it (`var i = 0u; i < 4u; i++`).
    pub fn for_(&mut self, header: impl Display, body: impl FnOnce(&mut Block)) -> &mut Block {
        let body = Block::build(body);
        self.statements.push(Statement::For {
            header: header.to_string(),
            body,
        });
        self
    }

    /// `for (var counter = 0u; counter < end; counter++) { … }`: `body` once for each
    /// `counter` below `end`.
    pub fn for_range(
        &mut self,
        counter: &str,
        end: impl Display,
        body: impl FnOnce(&mut Block),
    ) -> &mut Block {
        self.for_counter(counter, format_args!("{counter} < {end}"), 1, body)
    }

    /// `{ … }`: a scope of its own.
    pub fn scope(&mut self, body: impl FnOnce(&mut Block)) -> &mut Block {
        self.statements.push(Statement::Scope(Block::build(body)));
        self
    }

    /// The statements of `other`, after these.
    pub fn extend(&mut self, other: Block) -> &mut Block {
        self.statements.extend(other.statements);
        self
    }

    /// A block filled by `fill`.
    pub fn build(fill: impl FnOnce(&mut Block)) -> Block {
        let mut block = Block::new();
        fill(&mut block);
        block
    }

    fn push_if(&mut self, condition: String, then: Block, otherwise: Option<Block>) -> &mut Block {
        self.statements.push(Statement::If {
            condition,
            then,
            otherwise,
        });
        self
    }

    /// The statements at `depth` levels of indentation.
    pub fn print(&self, depth: usize, out: &mut String) {
        let indent = "    ".repeat(depth);
        for statement in &self.statements {
            match statement {
                Statement::Line(line) => {
                    let _ = writeln!(out, "{indent}{line}");
                }
                Statement::Verbatim(text) => {
                    let _ = writeln!(out, "{text}");
                }
                Statement::If {
                    condition,
                    then,
                    otherwise,
                } => {
                    let _ = writeln!(out, "{indent}if ({condition}) {{");
                    then.print(depth + 1, out);
                    if let Some(otherwise) = otherwise {
                        let _ = writeln!(out, "{indent}}} else {{");
                        otherwise.print(depth + 1, out);
                    }
                    let _ = writeln!(out, "{indent}}}");
                }
                Statement::For { header, body } => {
                    let _ = writeln!(out, "{indent}for ({header}) {{");
                    body.print(depth + 1, out);
                    let _ = writeln!(out, "{indent}}}");
                }
                Statement::Scope(body) => {
                    let _ = writeln!(out, "{indent}{{");
                    body.print(depth + 1, out);
                    let _ = writeln!(out, "{indent}}}");
                }
            }
        }
    }
}

/// `place = value;`: the statement of [`Block::assign`] and [`Block::assign_when`].
fn assignment(place: impl Display, value: impl Display) -> String {
    format!("{place} = {value};")
}

/// `array<element, len>`, or the runtime-sized `array<element>` where `len` is `None`.
pub fn array(element: impl Display, len: Option<usize>) -> String {
    match len {
        Some(len) => format!("array<{element}, {len}>"),
        None => format!("array<{element}>"),
    }
}

/// `name<args…>`: a type, or a built-in function, with its template list
/// (`coop_mat16x16<f16, A>`, `coopLoadT<coop_mat16x16<f16, A>>`).
pub fn template<A: Display>(name: &str, args: impl IntoIterator<Item = A>) -> String {
    let args: Vec<String> = args.into_iter().map(|a| a.to_string()).collect();
    format!("{name}<{}>", args.join(", "))
}

/// A function's parameter, `name: ty`.
pub fn param(name: impl Display, ty: impl Display) -> String {
    format!("{name}: {ty}")
}

/// `vec<width><element>`, or the element alone where `width` is 1.
pub fn vector(element: &str, width: usize) -> String {
    match width {
        1 => element.to_owned(),
        width => format!("vec{width}<{element}>"),
    }
}

#[cfg(test)]
mod tests {
    use super::{Access, Block, Builtin, Entry, Function, Module, array, param, template};
    use crate::emit::wgsl::expr::{call, name, u};

    #[test]
    fn counted_loops_guarded_stores_calls_on_one_line_templates_and_parameters() {
        let mut body = Block::new();
        let step = name("step");
        body.for_counter("step", step.clone().lt(u(4)), 1, |each| {
            each.calls([call("f", [step.clone()]), call("g", [step.clone() + u(1)])]);
        })
        .for_counter("i", (name("i") + u(1)).lt(u(5)), 2, |each| {
            each.assign_when(name("i").lt(u(3)), name("c").index(name("i")), u(0));
        });
        let mut printed = String::new();
        body.print(0, &mut printed);
        assert_eq!(
            printed,
            "for (var step = 0u; step < 4u; step++) {
    f(step); g(step + 1u);
}
for (var i = 0u; i + 1u < 5u; i += 2u) {
    if (i < 3u) { c[i] = 0u; }
}
"
        );
        let matrix = template("coop_mat16x16", ["f16", "A"]);
        assert_eq!(matrix, "coop_mat16x16<f16, A>");
        assert_eq!(
            template("coopLoadT", [matrix]),
            "coopLoadT<coop_mat16x16<f16, A>>"
        );
        assert_eq!(param("r", "array<u32, 4>"), "r: array<u32, 4>");
    }

    #[test]
    fn a_module_prints_declarations_together_and_items_a_blank_line_apart() {
        let mut module = Module::new();
        module
            .storage("src", Access::Read, "array<u32>")
            .storage("dst", Access::ReadWrite, "array<u32>")
            .workgroup("tile", array("u32", Some(4)));
        let mut helper = Function::new("twice", [param("v", "u32")])
            .returns("u32")
            .comment("Doubles.");
        helper.body.ret("v * 2u");
        module.function(&helper);
        let mut body = Block::new();
        body.let_("t", "lane")
            .guard("(t < 4u)", "return;")
            .for_("var i = 0u; i < 2u; i++", |l| {
                l.if_else(
                    "i == 0u",
                    |t| {
                        t.assign("dst[t]", "twice(src[t])");
                    },
                    |e| {
                        e.when("t > 1u", "dst[t] = 0u;");
                    },
                );
            })
            .for_range("j", "t", |l| {
                l.compound("dst[j]", "|", "1u");
            });
        module.entry(
            Entry::new(4).builtin(Builtin::LocalInvocationIndex, "lane"),
            body,
        );
        assert_eq!(
            module.finish(),
            "@group(0) @binding(0) var<storage, read> src: array<u32>;
@group(0) @binding(1) var<storage, read_write> dst: array<u32>;
var<workgroup> tile: array<u32, 4>;

// Doubles.
fn twice(v: u32) -> u32 {
    return v * 2u;
}

@compute @workgroup_size(4)
fn main(
    @builtin(local_invocation_index) lane: u32,
) {
    let t = lane;
    if (!(t < 4u)) {
        return;
    }
    for (var i = 0u; i < 2u; i++) {
        if (i == 0u) {
            dst[t] = twice(src[t]);
        } else {
            if (t > 1u) { dst[t] = 0u; }
        }
    }
    for (var j = 0u; j < t; j++) {
        dst[j] |= 1u;
    }
}
"
        );
    }

    #[test]
    fn a_counted_loop_and_a_guarded_assignment_print_as_written_by_hand() {
        let mut body = Block::new();
        body.for_range("step", u(4), |each| {
            each.assign_when(name("step").lt(u(2)), name("c").index(name("step")), u(0));
        });
        let mut printed = String::new();
        body.print(0, &mut printed);
        assert_eq!(
            printed,
            "for (var step = 0u; step < 4u; step++) {
    if (step < 2u) { c[step] = 0u; }
}
"
        );
    }
}
