//! AST → checked IR. Every rule of docs/semantics.md §2 is checked here, each violation becomes a
//! `syn::Error` on the faulty token, and checking goes on after an error so that one
//! invocation reports all of them.
//!
//! Errors must not cascade: a dim whose length could not be computed is *poisoned* (no rule
//! that needs its length is checked), names from statements that did not parse are never
//! reported as unknown, and "never used" is not reported once a lookup failed (the unknown
//! name was most likely meant to be one of the unused dims).

#[path = "stage.rs"]
mod stage;
#[path = "threads.rs"]
pub mod threads;

use super::{Assertion, LayoutItem, StmtKind};
use crate::ast::{DimDecl, Expr, Length};
use crate::consts::{Consts, Eval, known_names, similar};
use crate::errors::{Errors, Reported, Unparsed};
use proc_macro2::TokenStream;
use quote::quote;
use std::borrow::Cow;
use std::collections::HashMap;
use swizzle_core::ir::transform::embed::element_space;
use swizzle_core::ir::transform::show;
use swizzle_core::ir::{Descriptor, Dim, DimId, GridDim, Memory, Transform, row_major_strides};
use syn::Ident;

/// A layout that passed every check.
pub struct Checked {
    pub descriptor: Descriptor,
    /// The user's spelling of each coordinate, for parameter names and spans.
    pub coords: Vec<Ident>,
    /// The `inverse` keyword, when the user asked for `coord(offset)`.
    pub inverse: Option<Ident>,
    /// The `assert`s, to verify once the layout's code and analyses exist.
    pub claims: Vec<Claim>,
    /// The `swizzle ... (auto for ...)` whose parameters the macro is to choose.
    pub auto: Option<AutoSwizzle>,
    /// For a thread-value layout, how many of its coordinates (the first) index threads.
    pub thread_coords: Option<usize>,
    /// The layout it starts from (`over`), if any.
    pub over: Option<Over>,
}

/// The layout a layout starts `over`, and what of it this layout's descriptor repeats: its
/// stages (the first ones) always, its dims (the first ones) unless `over Base [names]`
/// renamed its coordinates. The expansion reads those from the base's const data.
pub struct Over {
    pub base: Ident,
    /// How many of the first dims are the base's, unchanged (0 where renamed).
    pub dims: usize,
    pub stages: usize,
}

impl Checked {
    /// The layout as a thread-value layout, if it is one.
    pub fn thread_values(&self) -> Option<swizzle_core::plans::threads::ThreadValues<'_>> {
        let thread_coords = self.thread_coords?;
        Some(swizzle_core::plans::threads::ThreadValues::new(
            &self.descriptor,
            thread_coords,
        ))
    }
}

/// One `assert` statement, its constants evaluated.
pub struct Claim {
    /// The whole statement, for the span of a failed assertion.
    pub tokens: TokenStream,
    pub assertion: Claimed,
}

pub enum Claimed {
    Bijective,
    MaxConflict {
        max: usize,
        access: Ident,
    },
    Vector {
        min: usize,
    },
    Transactions {
        max: usize,
        access: Ident,
        model: Option<Ident>,
    },
}

/// A `swizzle l -> u (auto for A, ...)`: stage `stage` of the descriptor holds an identity
/// swizzle until the search replaces it.
pub struct AutoSwizzle {
    pub stage: usize,
    pub accesses: Vec<Ident>,
    pub tokens: TokenStream,
}

/// The layouts of an invocation, by name, which a later layout may start from (`over`):
/// checked (`Err`: with errors, already reported), or `None` for one declared further on.
pub type Bases = HashMap<String, Option<Result<Descriptor, Reported>>>;

/// Checks one layout. Returns `Err` (with the reasons in `errors`) if anything is wrong.
pub fn check(item: &LayoutItem, bases: &Bases, errors: &mut Errors) -> Result<Checked, Reported> {
    let mark = errors.mark();
    let unparsed = errors.unparsed_names(&item.name);
    let mut checker = Checker {
        errors,
        consts: Consts::new(unparsed.clone()),
        scope: Scope::default(),
        unparsed,
        lookup_failed: false,
    };
    let mut memory = None;
    // The layout this one starts from instead of memory, with its dims.
    let mut over: Option<(Over, Vec<Dim>)> = None;
    let mut stages = Vec::new();
    let mut coords: Option<(&Vec<Ident>, TokenStream)> = None;
    let mut inverse = None;
    let mut claims = Vec::new();
    let mut auto: Option<AutoSwizzle> = None;
    // A thread-value layout's `threads [..]` and `values [..]`.
    let mut threads: Option<(&Vec<Ident>, TokenStream)> = None;
    let mut values: Option<(&Vec<Ident>, TokenStream)> = None;
    for stmt in &item.body {
        // The statement's first token (its keyword), for errors about the whole statement.
        let head: TokenStream = stmt.tokens.clone().into_iter().take(1).collect();
        match &stmt.kind {
            StmtKind::Const { name, value } => checker.constant(name, value),
            StmtKind::Memory { .. } | StmtKind::Over { .. } | StmtKind::Coords { .. }
                if item.threads.is_some() =>
            {
                checker.errors.error(
                    &head,
                    "a thread-value layout starts from its tile (`tile [y: 32, x: 32];`) and \
                     names its coordinates with `threads [...]; values [...];`: replace this \
                     statement",
                );
                checker.lookup_failed = true;
            }
            StmtKind::Tile { .. } | StmtKind::Threads { .. } | StmtKind::Values { .. }
                if item.threads.is_none() =>
            {
                checker.errors.error(
                    &head,
                    "`tile`, `threads` and `values` belong to thread-value layouts \
                     (`threads Name { tile [..]; ..; threads [..]; values [..]; }`): a layout \
                     starts from `memory [...]` and ends with `coords [...]`",
                );
                checker.lookup_failed = true;
            }
            StmtKind::Tile { dims } => {
                if memory.is_some() {
                    checker.errors.error(
                        &head,
                        "a thread-value layout has exactly one `tile` statement: remove this one",
                    );
                } else if let Some(decl) = dims.iter().find(|d| matches!(d.len, Length::Dyn(_))) {
                    checker.errors.error(
                        &decl.len,
                        "a tile has fixed lengths: the image it is cut from may have run-time \
                         extents, the tile may not",
                    );
                    return Err(checker.errors.failure(mark));
                } else {
                    memory = Some(checker.memory(&head, dims, None));
                }
            }
            StmtKind::Threads { names } | StmtKind::Values { names } => {
                let is_threads = matches!(stmt.kind, StmtKind::Threads { .. });
                let slot = if is_threads {
                    &mut threads
                } else {
                    &mut values
                };
                if slot.is_some() {
                    checker
                        .errors
                        .error(&head, "this statement is repeated: remove one");
                    checker.lookup_failed = true;
                } else {
                    *slot = Some((names, head));
                }
            }
            StmtKind::Memory { .. } if over.is_some() => {
                checker.errors.error(
                    &head,
                    "this layout already starts from another layout (`over`): remove this \
                     `memory`, or the `over`",
                );
            }
            StmtKind::Memory { dims, strides } => {
                if memory.is_some() {
                    checker.errors.error(
                        &head,
                        "a layout has exactly one `memory` statement: remove this one, or \
                         describe the memory with a single `memory [...]`",
                    );
                } else {
                    memory = Some(checker.memory(&head, dims, strides.as_deref()));
                }
            }
            StmtKind::Over {
                keyword,
                base,
                names,
            } => {
                if memory.is_some() {
                    checker.errors.error(
                        &head,
                        "a layout starts from one `memory` or one `over`: remove this one",
                    );
                } else {
                    let (start, base_stages, base_dims) =
                        checker.over(&item.name, keyword, base, names.as_deref(), bases)?;
                    memory = Some(start);
                    let shared = Over {
                        base: base.clone(),
                        dims: base_dims.len(),
                        stages: base_stages.len(),
                    };
                    stages.extend(base_stages);
                    over = Some((shared, base_dims));
                }
            }
            StmtKind::Transform { keyword, stage } => {
                if memory.is_none() {
                    return Err(checker.unparsed.mentions("memory").unwrap_or_else(|| {
                        checker.errors.error(
                            keyword,
                            "transforms build on the memory: start the layout with \
                             `memory [...];` (or `over Layout;`) before this transform",
                        )
                    }));
                }
                if let Some(checked) = checker.transform(keyword, stage) {
                    if let Some(accesses) = &stage.auto {
                        if auto.is_some() {
                            let message = "one `swizzle (auto ...)` per layout: give this one explicit (B, M, S)";
                            checker.errors.error(&stmt.tokens, message);
                        }
                        let tokens = stmt.tokens.clone();
                        auto = Some(AutoSwizzle {
                            stage: stages.len(),
                            accesses: accesses.clone(),
                            tokens,
                        });
                    }
                    stages.push(checked);
                }
            }
            StmtKind::Coords { names } => {
                if coords.is_some() {
                    checker.errors.error(
                        &head,
                        "a layout has exactly one `coords` statement: remove this one",
                    );
                    // Dims listed only here would be reported as never used.
                    checker.lookup_failed = true;
                } else {
                    coords = Some((names, head));
                }
            }
            StmtKind::Inverse { keyword } => inverse = Some(keyword.clone()),
            StmtKind::Assert { assertion, .. } => {
                if let Some(assertion) = checker.claim(assertion) {
                    claims.push(Claim {
                        tokens: stmt.tokens.clone(),
                        assertion,
                    });
                }
            }
        }
    }
    let Some(memory) = memory else {
        let (word, example) = match item.threads {
            Some(_) => (
                "tile",
                "the tile it distributes, e.g. `tile [y: 32, x: 32];`",
            ),
            None => ("memory", "the memory it indexes, e.g. `memory [n: 64];`"),
        };
        return Err(checker.unparsed.mentions(word).unwrap_or_else(|| {
            checker.errors.error(
                &item.name,
                format!("this layout has no `{word} [...]` statement: start it with {example}"),
            )
        }));
    };
    let (names, head, thread_coords) = match (&item.threads, coords) {
        (None, Some((names, head))) => (names.clone(), head, None),
        (None, None) => {
            return Err(checker.unparsed.mentions("coords").unwrap_or_else(|| {
                let live = checker.scope.live_names().join(", ");
                checker.errors.error(
                    &item.name,
                    format!("this layout has no `coords [...]` statement: add `coords [{live}];`"),
                )
            }));
        }
        (Some(_), _) => match (threads, values) {
            (Some((threads, head)), Some((values, _))) => {
                let names = threads.iter().chain(values).cloned().collect();
                (names, head, Some(threads.len()))
            }
            // A rejected `coords` already said what to write instead.
            _ if checker.errors.since(mark).is_err() => {
                return Err(checker.errors.failure(mark));
            }
            (threads, _) => {
                let missing = if threads.is_none() {
                    "threads"
                } else {
                    "values"
                };
                return Err(checker.unparsed.mentions(missing).unwrap_or_else(|| {
                    let live = checker.scope.live_names().join(", ");
                    checker.errors.error(
                        &item.name,
                        format!(
                            "this thread-value layout has no `{missing} [...]` statement: end \
                             it with `threads [..]; values [..];`, which split its live dims \
                             [{live}] between the threads and the values each holds"
                        ),
                    )
                }));
            }
        },
    };
    let coords = checker.coords(&names);
    let Checker { scope, errors, .. } = checker;
    let grid = grid(&scope, &memory, &coords);
    let descriptor = Descriptor {
        name: Cow::Owned(item.name.to_string()),
        dims: Cow::Owned(scope.dims),
        memory,
        stages: Cow::Owned(stages),
        coords: Cow::Owned(coords),
        grid: Cow::Owned(grid),
    };
    if errors.since(mark).is_ok() && descriptor.size().is_none() {
        let shape = descriptor.shape();
        let size = shape
            .iter()
            .try_fold(1u128, |acc, &len| acc.checked_mul(len as u128))
            .map_or("more than 2^128".to_owned(), show);
        let lens: Vec<String> = shape.iter().map(|&l| show(l as u128)).collect();
        errors.error(
            or(quote!(#(#names)*), &head),
            format!(
                "this layout has {size} coordinates ({}), more than `usize::MAX`: \
                 use smaller lengths",
                lens.join(" × ")
            ),
        );
    }
    errors.since(mark)?;
    if let Some(reported) = errors.unparsed_in(&item.name) {
        return Err(reported);
    }
    let over = over.map(|(mut over, base_dims)| {
        if descriptor.dims.get(..base_dims.len()) != Some(&base_dims[..]) {
            over.dims = 0;
        }
        over
    });
    Ok(Checked {
        descriptor,
        coords: names,
        inverse,
        claims,
        auto,
        thread_coords,
        over,
    })
}

/// The run-time memory dims and the coordinate each one scales, found by following the
/// `merge`s that took it as their slowest digit (the checker allows no other use).
fn grid(scope: &Scope, memory: &Memory, coords: &[DimId]) -> Vec<GridDim> {
    memory
        .dims
        .iter()
        .filter(|&&dim| scope.dynamic[dim])
        .filter_map(|&dim| {
            let mut reached = dim;
            while let Some(next) = scope.merged_into[reached] {
                reached = next;
            }
            let coord = coords.iter().position(|&c| c == reached)?;
            Some(GridDim { dim, coord })
        })
        .collect()
}

/// `tokens`, or `fallback` when `tokens` is empty (an empty list has no span of its own).
fn or(tokens: TokenStream, fallback: &TokenStream) -> TokenStream {
    if tokens.is_empty() {
        fallback.clone()
    } else {
        tokens
    }
}

/// The dims declared so far and which of them are still free to be consumed.
#[derive(Default)]
struct Scope {
    dims: Vec<Dim>,
    /// Where each dim was declared.
    declared: Vec<Ident>,
    /// The keyword of the statement that declared each dim.
    declared_by: Vec<String>,
    /// Whether each dim's length is unknown because of an error already reported.
    poisoned: Vec<bool>,
    /// The keyword of the transform that consumed each dim, if any.
    consumed: Vec<Option<String>>,
    /// Whether each dim's length is known only at run time (`dyn`, or merged from one).
    dynamic: Vec<bool>,
    /// The dim that a `merge` made of each run-time dim, to find the coordinate it feeds.
    merged_into: Vec<Option<DimId>>,
    /// The newest dim of each name.
    names: HashMap<String, DimId>,
}

impl Scope {
    fn live(&self) -> impl Iterator<Item = DimId> + '_ {
        (0..self.dims.len()).filter(|&d| self.consumed[d].is_none())
    }

    fn live_names(&self) -> Vec<String> {
        self.live().map(|d| self.dims[d].name.to_string()).collect()
    }

    /// A dim of a base layout (`over`) that its own pipeline consumed: in the descriptor,
    /// but never visible by name.
    fn hide(&mut self, dim: Dim, base: &Ident) {
        self.dims.push(dim);
        self.declared.push(base.clone());
        self.declared_by.push(format!("over {base}"));
        self.poisoned.push(false);
        self.consumed.push(Some(base.to_string()));
        self.dynamic.push(false);
        self.merged_into.push(None);
    }
}

struct Checker<'a> {
    errors: &'a mut Errors,
    consts: Consts,
    scope: Scope,
    /// Identifiers of this layout's statements that did not parse.
    unparsed: Unparsed,
    /// Whether a dim lookup failed (or a second `coords` was ignored): the name was
    /// probably meant to be some other dim, so "never used" errors would only be echoes.
    lookup_failed: bool,
}

impl Checker<'_> {
    /// Records the error of an evaluation, unless it was already reported. Inside the
    /// checker, `None` always follows a recorded error: the layout's outcome is
    /// [`Errors::since`] its start.
    fn report<T>(&mut self, result: Eval<T>) -> Option<T> {
        self.errors.report(result).ok()
    }

    fn constant(&mut self, name: &Ident, value: &Expr) {
        let value = self.consts.eval(value);
        let value = self.errors.report(value);
        if !self.consts.declare(name, value) {
            self.errors.error(
                name,
                format!("constant `{name}` is already declared: give this one another name"),
            );
        }
    }

    /// An `assert` with its numbers evaluated.
    fn claim(&mut self, assertion: &Assertion) -> Option<Claimed> {
        Some(match assertion {
            Assertion::Bijective => Claimed::Bijective,
            Assertion::MaxConflict { max, access } => {
                let max = match max {
                    Some(max) => self.value(max, "the conflict degree", 1)?,
                    None => 1,
                };
                Claimed::MaxConflict {
                    max,
                    access: access.clone(),
                }
            }
            Assertion::Vector { min } => Claimed::Vector {
                min: self.value(min, "the vector width", 1)?,
            },
            Assertion::Transactions { max, access, model } => Claimed::Transactions {
                max: self.value(max, "the transaction count", 0)?,
                access: access.clone(),
                model: model.clone(),
            },
        })
    }

    fn value(&mut self, expr: &Expr, what: &str, min: usize) -> Option<usize> {
        let value = self.consts.eval_usize(expr, what, min);
        self.report(value)
    }

    /// Declares a dim introduced by the statement `by`. `None` lengths (errors already
    /// reported) poison the dim, so that rules that need its length are skipped.
    fn declare(&mut self, name: &Ident, len: Option<usize>, by: &Ident) -> DimId {
        let key = name.to_string();
        if let Some(&old) = self.scope.names.get(&key)
            && self.scope.consumed[old].is_none()
        {
            self.errors.error(
                name,
                format!(
                    "dim `{name}` is already live (declared by `{}`) and not yet consumed: \
                     give this dim another name",
                    self.scope.declared_by[old]
                ),
            );
            // The older dim is shadowed: it is unreachable now, but not "never used".
            self.scope.consumed[old] = Some("a redeclaration".to_owned());
        }
        let id = self.scope.dims.len();
        self.scope.dims.push(Dim {
            name: Cow::Owned(key.clone()),
            len: len.unwrap_or(1),
        });
        self.scope.declared.push(name.clone());
        self.scope.declared_by.push(by.to_string());
        self.scope.poisoned.push(len.is_none());
        self.scope.consumed.push(None);
        self.scope.dynamic.push(false);
        self.scope.merged_into.push(None);
        self.scope.names.insert(key, id);
        id
    }

    /// Looks up a live dim by name, without consuming it. A run-time (`dyn`) dim is an error
    /// unless `allow_dynamic`: only `coords` and the first dim of a `merge` may take one.
    fn find(&mut self, name: &Ident, allow_dynamic: bool) -> Option<DimId> {
        let key = name.to_string();
        let live = self.scope.live_names();
        let listed = if live.is_empty() {
            "no dim is live here".to_owned()
        } else {
            format!("the live dims are: {}", live.join(", "))
        };
        match self.scope.names.get(&key) {
            None => {
                self.lookup_failed = true;
                if !self.unparsed.contains(&key) {
                    let hint = live
                        .iter()
                        .find(|l| similar(l, &key))
                        .map_or(String::new(), |l| format!(" (did you mean `{l}`?)"));
                    self.errors
                        .error(name, format!("unknown dim `{name}`{hint}; {listed}"));
                }
                None
            }
            Some(&id) => match &self.scope.consumed[id] {
                Some(by) => {
                    self.lookup_failed = true;
                    let message = format!(
                        "dim `{name}` was already consumed by `{by}`, and each dim feeds \
                         exactly one transform; {listed}"
                    );
                    self.errors.error(name, message);
                    None
                }
                None if self.scope.dynamic[id] && !allow_dynamic => {
                    // Left live for a correct use further on, and not reported as unused.
                    self.lookup_failed = true;
                    self.errors.error(
                        name,
                        format!(
                            "dim `{name}` has a run-time length (`dyn`): it can only be listed \
                             in `coords`, merged as the first (slowest) dim of a `merge`, or \
                             divided by `unmerge {name} -> [n: dyn, ..]`"
                        ),
                    );
                    None
                }
                None => Some(id),
            },
        }
    }

    /// Consumes a live dim as the lower input of the transform `by`. A run-time (`dyn`) dim
    /// is an error unless `allow_dynamic`.
    fn consume_as(&mut self, name: &Ident, by: &Ident, allow_dynamic: bool) -> Option<DimId> {
        let id = self.find(name, allow_dynamic)?;
        self.scope.consumed[id] = Some(by.to_string());
        Some(id)
    }

    /// The length of a dim, `None` if it is poisoned.
    fn len(&self, id: DimId) -> Option<usize> {
        (!self.scope.poisoned[id]).then_some(self.scope.dims[id].len)
    }

    fn name(&self, id: DimId) -> &str {
        &self.scope.dims[id].name
    }

    fn memory(
        &mut self,
        head: &TokenStream,
        decls: &[DimDecl],
        strides: Option<&[Expr]>,
    ) -> Memory {
        let keyword = Ident::new("memory", proc_macro2::Span::call_site());
        if decls.is_empty() {
            self.errors.error(
                head,
                "`memory` needs at least one dim, e.g. `memory [n: 64];`",
            );
        }
        let (dims, lens) = self.memory_dims(decls, strides, &keyword);
        let lens: Option<Vec<usize>> = lens.into_iter().collect();
        // The strides, the element space (`Some(None)`: past 2^128) and the tokens that an
        // overflowing element space is blamed on.
        let (strides, space, blame) = match strides {
            Some(strides) if strides.len() != dims.len() => {
                self.errors.error(
                    or(quote!(#(#strides)*), head),
                    format!(
                        "{} strides given for {} memory dims: give one stride per dim",
                        strides.len(),
                        dims.len()
                    ),
                );
                (None, None, TokenStream::new())
            }
            Some(strides) => {
                let values: Vec<Option<usize>> = strides
                    .iter()
                    .map(|s| self.value(s, "a stride", 0))
                    .collect();
                let values: Option<Vec<usize>> = values.into_iter().collect();
                let space = match (&values, &lens) {
                    (Some(values), Some(lens)) => Some(element_space(lens, values)),
                    _ => None,
                };
                (values, space, quote!(#(#decls)* #(#strides)*))
            }
            // Row-major: the space is the product of the lengths, and the strides (suffix
            // products) overflow only when that product does.
            None => match &lens {
                Some(lens) => {
                    let space = lens
                        .iter()
                        .try_fold(1u128, |acc, &l| acc.checked_mul(l as u128));
                    (
                        row_major_strides(lens),
                        Some(space),
                        or(quote!(#(#decls)*), head),
                    )
                }
                None => (None, None, TokenStream::new()),
            },
        };
        let mut strides = strides;
        if let Some(space) = space
            && space.is_none_or(|s| s > usize::MAX as u128)
        {
            let space = space.map_or("more than 2^128".to_owned(), show);
            self.errors.error(
                blame,
                format!(
                    "this memory spans {space} elements, more than `usize::MAX` ({}), so \
                     offsets would overflow: use smaller lengths or strides",
                    usize::MAX
                ),
            );
            strides = None;
            // Every length built on this memory would overflow too: say it once.
            for &dim in &dims {
                self.scope.poisoned[dim] = true;
            }
        }
        Memory {
            strides: Cow::Owned(strides.unwrap_or_else(|| vec![0; dims.len()])),
            dims: Cow::Owned(dims),
        }
    }

    /// Declares the memory dims. Run-time (`dyn`) dims must be the outermost ones of a packed
    /// memory: each counts tiles of everything inside it, so in the layout's IR (one tile)
    /// they have length 1.
    fn memory_dims(
        &mut self,
        decls: &[DimDecl],
        strides: Option<&[Expr]>,
        keyword: &Ident,
    ) -> (Vec<DimId>, Vec<Option<usize>>) {
        let leading = decls
            .iter()
            .take_while(|d| matches!(d.len, Length::Dyn(_)))
            .count();
        if let (true, Some(strides)) = (leading > 0, strides) {
            self.errors.error(
                quote!(#(#strides)*),
                "a memory with run-time (`dyn`) dims is packed row-major, tile after tile: \
                 remove `strides`",
            );
        }
        let mut dims = Vec::with_capacity(decls.len());
        let mut lens = Vec::with_capacity(decls.len());
        for (i, decl) in decls.iter().enumerate() {
            let len = match &decl.len {
                Length::Fixed(len) => self.value(len, "a length", 1),
                Length::Dyn(_) if i < leading => Some(1),
                Length::Dyn(token) => {
                    let outer: Vec<String> =
                        decls[..i].iter().map(|d| d.name.to_string()).collect();
                    self.errors.error(
                        token,
                        format!(
                            "run-time (`dyn`) dims must be the outermost memory dims, before \
                             every constant one: move `{}` before `{}`",
                            decl.name,
                            outer.join("`, `")
                        ),
                    );
                    None
                }
            };
            let id = self.declare(&decl.name, len, keyword);
            self.scope.dynamic[id] = i < leading;
            dims.push(id);
            lens.push(len);
        }
        (dims, lens)
    }

    /// `over Base [names]` in `layout`: `Base`'s memory, stages and dims, its coordinates live
    /// under `names` (or its own names), every other dim of it consumed. The base's dims keep their
    /// ids, so its stages apply as they are: `over` comes before any dim is declared.
    fn over(
        &mut self,
        layout: &Ident,
        keyword: &Ident,
        base: &Ident,
        names: Option<&[Ident]>,
        bases: &Bases,
    ) -> Result<(Memory, Vec<Transform>, Vec<Dim>), Reported> {
        let descriptor = match bases.get(&base.to_string()) {
            Some(Some(Ok(descriptor))) => descriptor,
            Some(Some(Err(reported))) => return Err(*reported),
            Some(None) if base == layout => {
                return Err(self.errors.error(
                    base,
                    format!(
                        "`{layout}` cannot start `over` itself: start it from `memory` or \
                         from a layout declared before it"
                    ),
                ));
            }
            Some(None) => {
                return Err(self.errors.error(
                    base,
                    format!(
                        "`{base}` is declared after this layout, and `over` starts from a \
                         layout declared before it: move `{base}` up"
                    ),
                ));
            }
            None => {
                let hint = known_names(base, bases.keys());
                return Err(self.errors.error(
                    base,
                    format!(
                        "unknown layout `{base}`: `over` starts from a layout declared before \
                         this one in the invocation; {hint}"
                    ),
                ));
            }
        };
        if let Some(names) = names
            && names.len() != descriptor.coords.len()
        {
            let coords: Vec<&str> = descriptor
                .coords
                .iter()
                .map(|&c| descriptor.dims[c].name.as_ref())
                .collect();
            return Err(self.errors.error(
                quote!(#(#names)*),
                format!(
                    "`{base}` has {} [{}] but {} names are given: name each once",
                    match coords.len() {
                        1 => "1 coordinate".to_owned(),
                        n => format!("{n} coordinates"),
                    },
                    coords.join(", "),
                    names.len()
                ),
            ));
        }
        for (id, dim) in descriptor.dims.iter().enumerate() {
            match descriptor.coords.iter().position(|&c| c == id) {
                Some(i) => {
                    let name = match names {
                        Some(names) => names[i].clone(),
                        None => match dim.name.strip_prefix("r#") {
                            Some(raw) => Ident::new_raw(raw, base.span()),
                            None => Ident::new(&dim.name, base.span()),
                        },
                    };
                    let id = self.declare(&name, Some(dim.len), keyword);
                    self.scope.dynamic[id] = descriptor.is_dynamic(i);
                }
                None => self.scope.hide(dim.clone(), base),
            }
        }
        // A run-time base keeps its grid: each of its run-time memory dims counts tiles of
        // the coordinate it scales, which this layout may divide further.
        for g in descriptor.grid.iter() {
            let coord = descriptor.coords[g.coord];
            self.scope.dynamic[g.dim] = true;
            if g.dim != coord {
                self.scope.merged_into[g.dim] = Some(coord);
            }
        }
        let (stages, dims) = (descriptor.stages.to_vec(), descriptor.dims.to_vec());
        Ok((descriptor.memory.clone(), stages, dims))
    }

    /// Resolves `coords [...]`: every live dim exactly once.
    fn coords(&mut self, names: &[Ident]) -> Vec<DimId> {
        let mut ids = Vec::new();
        for name in names {
            if let Some(id) = self.find(name, true) {
                if ids.contains(&id) {
                    self.errors.error(
                        name,
                        format!("dim `{name}` is listed twice in `coords`: remove one"),
                    );
                }
                ids.push(id);
            }
        }
        if self.lookup_failed {
            return ids;
        }
        let unused: Vec<DimId> = self.scope.live().filter(|d| !ids.contains(d)).collect();
        for dim in unused {
            let name = &self.scope.declared[dim];
            if self.unparsed.contains(&name.to_string()) {
                continue;
            }
            let message = format!(
                "dim `{name}` is never used: consume it in a transform or list it in `coords`"
            );
            self.errors.error(name, message);
        }
        ids
    }
}
