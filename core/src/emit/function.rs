//! A layout's functions before they are printed: name-free, type-free straight-line bodies
//! of index arithmetic, built once here and printed by one printer per target (Rust tokens
//! in the macro's front end, WGSL text in [`crate::emit::wgsl`]). What a function computes —
//! which bounds `is_valid` tests and in what order, how a tile's place in a grid is found —
//! is decided here and nowhere else.

use crate::canon::{Canonical, ValidStep};
use crate::emit::code::{Block, Code};
use std::collections::{HashMap, HashSet};

/// One function of a layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Function {
    /// What it computes, which fixes its result type in every target.
    pub kind: Kind,
    /// The index parameters, in order.
    pub params: Vec<String>,
    pub body: Vec<Stmt>,
    pub result: Value,
}

/// A layout's own functions, built once for every printer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayoutFunctions {
    pub offset: Function,
    /// For a padded layout.
    pub is_valid: Option<Function>,
    /// For a bijection, from its inverse block.
    pub coord: Option<Function>,
    /// For a thread-value layout: the tile element a slot holds
    /// ([`ThreadValues::element_function`](crate::plans::threads::ThreadValues::element_function)).
    pub element: Option<Function>,
}

impl LayoutFunctions {
    pub fn new(canonical: &Canonical, inverse: Option<&Block>) -> LayoutFunctions {
        LayoutFunctions {
            offset: Function::offset(canonical),
            is_valid: Function::is_valid(canonical),
            coord: inverse.map(|inverse| Function::coord(inverse, &canonical.coord_names)),
            element: None,
        }
    }
}

/// The functions a layout has, and the tile functions a layout with run-time dims wraps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// The offset of a coordinate: one index.
    Offset,
    /// Whether a coordinate is valid: a truth value.
    IsValid,
    /// The coordinate stored at an offset: one index per coordinate.
    Coord,
    /// The tile element a thread's value is: one index per tile coordinate.
    Element,
}

impl Kind {
    /// The function's name, which every target's names start from.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Offset => "offset",
            Kind::IsValid => "is_valid",
            Kind::Coord => "coord",
            Kind::Element => "element",
        }
    }
}

/// A statement of a body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stmt {
    /// `let name = code;`
    Let(String, Code),
    /// Binds the results of the callee's function `kind` at `args`: one name for an index or
    /// a truth value, one per coordinate for [`Kind::Coord`]. The callee is the tile's own
    /// function in a layout with run-time dims, the base's in a layout `over` another
    /// ([`crate::emit::compose`]).
    Call {
        names: Vec<String>,
        kind: Kind,
        args: Vec<Code>,
    },
    /// Returns `false` unless every condition holds (only in [`Kind::IsValid`]).
    Require(Vec<Condition>),
}

/// What a function returns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Index(Code),
    /// Whether every condition holds (`true` when there are none).
    Holds(Vec<Condition>),
    Coordinate(Vec<Code>),
}

/// What running a function gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Index(u64),
    Holds(bool),
    Coordinate(Vec<u64>),
}

/// One test of a truth value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Condition {
    /// `code ≥ bound`.
    AtLeast(Code, Code),
    /// `code < bound`.
    Below(Code, Code),
    /// A truth value bound by [`Stmt::Call`].
    True(String),
}

impl Condition {
    /// Whether every test holds with the values of `env`, as the printed code decides it;
    /// `None` where a value does not compute.
    pub fn all_hold(tests: &[Condition], env: &HashMap<String, u64>) -> Option<bool> {
        tests.iter().try_fold(true, |all, test| {
            Some(
                all && match test {
                    Condition::AtLeast(a, b) => a.eval(env)? >= b.eval(env)?,
                    Condition::Below(a, b) => a.eval(env)? < b.eval(env)?,
                    Condition::True(name) => *env.get(name)? != 0,
                },
            )
        })
    }

    /// The expressions the test compares.
    pub(crate) fn codes(&self) -> impl Iterator<Item = &Code> {
        let pair = match self {
            Condition::AtLeast(a, b) | Condition::Below(a, b) => Some([a, b]),
            Condition::True(_) => None,
        };
        pair.into_iter().flatten()
    }

    /// Every occurrence of `target` in the test replaced by the local `name`.
    pub(crate) fn replace(&mut self, target: &Code, name: &str) {
        if let Condition::AtLeast(a, b) | Condition::Below(a, b) = self {
            a.replace(target, name);
            b.replace(target, name);
        }
    }

    fn below(code: Code, bound: u128) -> Condition {
        Condition::Below(code, Code::Lit(bound))
    }
}

impl Function {
    /// Every variable the function reads: its parameters and the values it expects in
    /// scope (a grid's tile counts where the target holds them at run time).
    pub fn collect_vars(&self, into: &mut HashSet<String>) {
        let conditions = |conditions: &[Condition], into: &mut HashSet<String>| {
            for condition in conditions {
                match condition {
                    Condition::AtLeast(a, b) | Condition::Below(a, b) => {
                        a.collect_vars(into);
                        b.collect_vars(into);
                    }
                    Condition::True(name) => {
                        into.insert(name.clone());
                    }
                }
            }
        };
        for stmt in &self.body {
            match stmt {
                Stmt::Let(_, code) => code.collect_vars(into),
                Stmt::Call { args, .. } => args.iter().for_each(|a| a.collect_vars(into)),
                Stmt::Require(tests) => conditions(tests, into),
            }
        }
        match &self.result {
            Value::Index(code) => code.collect_vars(into),
            Value::Holds(tests) => conditions(tests, into),
            Value::Coordinate(codes) => codes.iter().for_each(|c| c.collect_vars(into)),
        }
    }

    /// Runs the function on 64-bit integers as the printed Rust does: `args` are the
    /// parameters, `env` the other values it reads, `tile` computes the tile's own
    /// functions. `None` where the Rust would overflow or divide by zero, or a value is
    /// missing.
    pub fn eval(
        &self,
        args: &[u64],
        env: &HashMap<String, u64>,
        mut tile: impl FnMut(Kind, &[u64]) -> Option<Outcome>,
    ) -> Option<Outcome> {
        let mut env = env.clone();
        env.extend(self.params.iter().cloned().zip(args.iter().copied()));
        let holds = Condition::all_hold;
        for stmt in &self.body {
            match stmt {
                Stmt::Let(name, code) => {
                    let value = code.eval(&env)?;
                    env.insert(name.clone(), value);
                }
                Stmt::Call { names, kind, args } => {
                    let args: Vec<u64> =
                        args.iter().map(|a| a.eval(&env)).collect::<Option<_>>()?;
                    let values = match tile(*kind, &args)? {
                        Outcome::Index(value) => vec![value],
                        Outcome::Holds(holds) => vec![u64::from(holds)],
                        Outcome::Coordinate(values) => values,
                    };
                    env.extend(names.iter().cloned().zip(values));
                }
                Stmt::Require(tests) => {
                    if !holds(tests, &env)? {
                        return Some(Outcome::Holds(false));
                    }
                }
            }
        }
        Some(match &self.result {
            Value::Index(code) => Outcome::Index(code.eval(&env)?),
            Value::Holds(tests) => Outcome::Holds(holds(tests, &env)?),
            Value::Coordinate(codes) => {
                Outcome::Coordinate(codes.iter().map(|c| c.eval(&env)).collect::<Option<_>>()?)
            }
        })
    }

    /// The offset function of a layout's canonical form.
    pub fn offset(canonical: &Canonical) -> Function {
        let Block { locals, results } = canonical.offset_block();
        Function {
            kind: Kind::Offset,
            params: canonical.coord_names.clone(),
            body: locals.into_iter().map(|(n, c)| Stmt::Let(n, c)).collect(),
            result: Value::Index(results.into_iter().next().unwrap_or(Code::Lit(0))),
        }
    }

    /// The validity test of a padded layout: the coordinates' bounds that no padding bound
    /// implies, then each padding test. A staged layout computes each local after the tests
    /// before it, since a local may subtract a padding that only they rule out.
    pub fn is_valid(canonical: &Canonical) -> Option<Function> {
        if canonical.valid.is_empty() {
            return None;
        }
        let steps = canonical.valid_steps();
        let coords = canonical.coord_names.iter().zip(&canonical.lens);
        let bounds: Vec<Condition> = coords
            .filter(|&(coord, _)| {
                !steps
                    .iter()
                    .any(|step| step.code == Code::var(coord) && step.hi.is_some())
            })
            .map(|(coord, &len)| Condition::below(Code::var(coord), len as u128))
            .collect();
        let tests = |step: &ValidStep| -> Vec<Condition> {
            let bound = |value: i128| Code::Lit(value as u128);
            let lo = step
                .lo
                .map(|lo| Condition::AtLeast(step.code.clone(), bound(lo)));
            let hi = step
                .hi
                .map(|hi| Condition::Below(step.code.clone(), bound(hi)));
            lo.into_iter().chain(hi).collect()
        };
        let (body, result) = if steps.iter().all(|step| step.locals.is_empty()) {
            let all = bounds.into_iter().chain(steps.iter().flat_map(tests));
            (Vec::new(), Value::Holds(all.collect()))
        } else {
            let mut body = Vec::new();
            if !bounds.is_empty() {
                body.push(Stmt::Require(bounds));
            }
            for step in &steps {
                let locals = step.locals.iter().cloned();
                body.extend(locals.map(|(name, code)| Stmt::Let(name, code)));
                let tests = tests(step);
                if !tests.is_empty() {
                    body.push(Stmt::Require(tests));
                }
            }
            (body, Value::Holds(Vec::new()))
        };
        Some(Function {
            kind: Kind::IsValid,
            params: canonical.coord_names.clone(),
            body,
            result,
        })
    }

    /// The inverse, from its block over the parameter `offset`. Each coordinate is named
    /// as the layout names it (the block's locals never take those names), unless one is
    /// called `offset` and would shadow the parameter before the others are computed.
    pub fn coord(inverse: &Block, coords: &[String]) -> Function {
        let Block { locals, results } = inverse;
        let locals = locals.iter().cloned();
        let mut body: Vec<Stmt> = locals.map(|(n, c)| Stmt::Let(n, c)).collect();
        let named = coords.len() == results.len() && !coords.iter().any(|c| c == "offset");
        let result = match named {
            true => {
                let lets = coords.iter().zip(results);
                body.extend(lets.map(|(coord, code)| Stmt::Let(coord.clone(), code.clone())));
                Value::Coordinate(coords.iter().map(|c| Code::var(c)).collect())
            }
            false => Value::Coordinate(results.clone()),
        };
        Function {
            kind: Kind::Coord,
            params: vec!["offset".to_owned()],
            body,
            result,
        }
    }
}
