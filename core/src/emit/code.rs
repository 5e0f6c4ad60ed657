//! The straight-line integer code the macro emits, before it is printed: a tiny expression
//! tree that both canonical forms (affine and F2) lower into, with one printer per target.
//! Shared subexpressions are bound to named locals so that the expansion reads well.

use std::collections::{HashMap, HashSet};

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Code {
    Var(String),
    Lit(u128),
    /// A bit mask, printed in binary or hex so that its bits read.
    Mask(u128),
    Bin(Op, Box<Code>, Box<Code>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    And,
    Or,
    Xor,
}

/// `$a $op $b` with Rust's checked integer arithmetic, for the evaluators of expressions
/// in any integer type: `None` where the operation would panic (overflow, division by zero)
/// or `$shift`, the shift amount as a `u32`, is out of range. `$shift` is evaluated only
/// for shifts.
macro_rules! checked {
    ($op:expr, $a:expr, $b:expr, $shift:expr) => {
        match $op {
            Op::Add => $a.checked_add($b),
            Op::Sub => $a.checked_sub($b),
            Op::Mul => $a.checked_mul($b),
            Op::Div => $a.checked_div($b),
            Op::Rem => $a.checked_rem($b),
            Op::Shl => $a.checked_shl($shift),
            Op::Shr => $a.checked_shr($shift),
            Op::And => Some($a & $b),
            Op::Or => Some($a | $b),
            Op::Xor => Some($a ^ $b),
        }
    };
}
pub(crate) use checked;

impl Op {
    fn is_associative(self) -> bool {
        matches!(self, Op::Add | Op::Mul | Op::And | Op::Or | Op::Xor)
    }

    /// Binding power, as in Rust (and WGSL, for the operators both have): higher binds
    /// tighter. Every parser and printer of expressions reads it from here.
    pub fn precedence(self) -> u8 {
        match self {
            Op::Mul | Op::Div | Op::Rem => 6,
            Op::Add | Op::Sub => 5,
            Op::Shl | Op::Shr => 4,
            Op::And => 3,
            Op::Xor => 2,
            Op::Or => 1,
        }
    }

    /// Operators of one class share a precedence level; class 0 binds tightest.
    fn class(self) -> u8 {
        6 - self.precedence()
    }
}

impl Code {
    pub fn var(name: &str) -> Code {
        Code::Var(name.to_owned())
    }

    pub fn bin(op: Op, lhs: Code, rhs: Code) -> Code {
        Code::Bin(op, Box::new(lhs), Box::new(rhs))
    }

    /// `self` shifted by `by` (`Shl` or `Shr`); a zero shift is no code, and a shift of a
    /// shift the same way is one shift.
    pub fn shifted(self, op: Op, by: u32) -> Code {
        match self {
            _ if by == 0 => self,
            Code::Bin(inner, code, amount) if inner == op && matches!(*amount, Code::Lit(_)) => {
                let Code::Lit(first) = *amount else {
                    unreachable!()
                };
                Code::bin(op, *code, Code::Lit(first + u128::from(by)))
            }
            code => Code::bin(op, code, Code::Lit(u128::from(by))),
        }
    }

    /// `self / by` for a constant `by`: a shift when it is a power of two, nothing when 1.
    pub fn quotient(self, by: u128) -> Code {
        match by {
            1 => self,
            by if by.is_power_of_two() => self.shifted(Op::Shr, by.trailing_zeros()),
            by => Code::bin(Op::Div, self, Code::Lit(by)),
        }
    }

    /// `self * by` for a constant `by`: nothing when 1, 0 when 0.
    pub fn times(self, by: u128) -> Code {
        match by {
            0 => Code::Lit(0),
            1 => self,
            by => Code::bin(Op::Mul, self, Code::Lit(by)),
        }
    }

    /// `self % by` for a constant `by`: a mask when it is a power of two, 0 when 1.
    pub fn remainder(self, by: u128) -> Code {
        match by {
            1 => Code::Lit(0),
            by if by.is_power_of_two() => Code::bin(Op::And, self, Code::Mask(by - 1)),
            by => Code::bin(Op::Rem, self, Code::Lit(by)),
        }
    }

    /// Joins `terms` with `op`; `None` when there are none.
    pub fn fold(op: Op, terms: impl IntoIterator<Item = Code>) -> Option<Code> {
        terms
            .into_iter()
            .reduce(|acc, term| Code::bin(op, acc, term))
    }

    /// Number of operations (what the code costs, before sharing).
    pub fn operations(&self) -> usize {
        match self {
            Code::Bin(_, a, b) => 1 + a.operations() + b.operations(),
            _ => 0,
        }
    }

    /// Number of nodes.
    pub(crate) fn size(&self) -> usize {
        match self {
            Code::Bin(_, a, b) => 1 + a.size() + b.size(),
            _ => 1,
        }
    }

    /// Every operation of the code into `ops`, each distinct one once.
    fn insert_ops<'a>(&'a self, ops: &mut HashSet<&'a Code>) {
        if let Code::Bin(_, a, b) = self
            && ops.insert(self)
        {
            a.insert_ops(ops);
            b.insert_ops(ops);
        }
    }

    fn count<'a>(&'a self, counts: &mut HashMap<&'a Code, usize>) {
        if let Code::Bin(_, a, b) = self {
            *counts.entry(self).or_default() += 1;
            a.count(counts);
            b.count(counts);
        }
    }

    /// Moves the locals this code uses from `pending` to `defined`, dependencies first.
    fn define_locals(&self, pending: &mut Vec<(String, Code)>, defined: &mut Vec<(String, Code)>) {
        match self {
            Code::Var(name) => {
                if let Some(at) = pending.iter().position(|(n, _)| n == name) {
                    let (name, code) = pending.remove(at);
                    code.define_locals(pending, defined);
                    defined.push((name, code));
                }
            }
            Code::Bin(_, a, b) => {
                a.define_locals(pending, defined);
                b.define_locals(pending, defined);
            }
            Code::Lit(_) | Code::Mask(_) => {}
        }
    }

    /// Every occurrence of `target` replaced by the local `name`.
    pub(crate) fn replace(&mut self, target: &Code, name: &str) {
        if self == target {
            *self = Code::var(name);
        } else if let Code::Bin(_, a, b) = self {
            a.replace(target, name);
            b.replace(target, name);
        }
    }

    /// Whether `child`, as an operand of `parent`, needs parentheses: operators of different
    /// classes are always parenthesised except products inside sums, so that no reader needs
    /// Rust's precedence table.
    pub fn needs_parens(parent: Op, child: &Code, right: bool) -> bool {
        let Code::Bin(op, ..) = child else {
            return false;
        };
        if op.class() == parent.class() {
            // `a + b - c` and `a * b * c` read left to right; `(a % b) * c` and `a - (b + c)`
            // need their parentheses.
            return if right {
                !(*op == parent && parent.is_associative())
            } else {
                *op != parent && parent.class() != 1
            };
        }
        !(parent.class() == 1 && op.class() == 0)
    }
}

/// The smallest subexpression worth a local: two operations (`(x >> 2) & 3`), not one.
const MIN_SHARED_SIZE: usize = 5;

/// Straight-line code: named locals, then the results.
pub struct Block {
    pub locals: Vec<(String, Code)>,
    pub results: Vec<Code>,
}

impl Block {
    /// Binds every subexpression used more than once to a local, largest first. Locals are
    /// named after the dim whose index they compute (`names`), else `t`, `t1`, ...; names in
    /// `taken` (the parameters) are avoided.
    pub fn share(mut results: Vec<Code>, names: &HashMap<Code, String>, taken: &[String]) -> Block {
        let mut used: HashSet<String> = taken.iter().cloned().collect();
        let mut found: Vec<(String, Code)> = Vec::new();
        loop {
            let mut counts = HashMap::new();
            for code in results.iter().chain(found.iter().map(|(_, c)| c)) {
                code.count(&mut counts);
            }
            let shared = counts
                .into_iter()
                .filter(|&(code, n)| n >= 2 && code.size() >= MIN_SHARED_SIZE)
                .map(|(code, _)| code)
                .max_by_key(|code| (code.size(), format!("{code:?}")));
            let Some(shared) = shared.cloned() else { break };
            let base = names.get(&shared).map_or("t", String::as_str);
            let name = fresh(base, &mut used);
            for code in results.iter_mut().chain(found.iter_mut().map(|(_, c)| c)) {
                code.replace(&shared, &name);
            }
            found.push((name, shared));
        }
        // Readers meet locals in the order the results use them, each after what it uses.
        let mut locals = Vec::with_capacity(found.len());
        for code in &results {
            code.define_locals(&mut found, &mut locals);
        }
        Block { locals, results }
    }
}

/// The operations a GPU computes for `addresses`, the element indices one thread's accesses
/// of workgroup memory take, beyond the variables they read: each distinct operation once
/// (a compiler computes a common subexpression once), and a literal added last not at all
/// (it goes into the access instruction's immediate offset, `[r + 528]`). So accesses of a
/// padded or plain tile, which differ by constants, cost the ops of their one base, while
/// an XOR applied after the constant, `(b + 128) ^ key`, costs its add and its XOR at each
/// access whose constant differs.
pub fn address_ops<'a>(addresses: impl IntoIterator<Item = &'a Code>) -> usize {
    let mut ops: HashSet<&Code> = HashSet::new();
    for address in addresses {
        let mut core = address;
        while let Code::Bin(Op::Add, a, b) = core {
            match (&**a, &**b) {
                (rest, Code::Lit(_)) | (Code::Lit(_), rest) => core = rest,
                _ => break,
            }
        }
        core.insert_ops(&mut ops);
    }
    ops.len()
}

/// An unused local name after `base`, in lower case: a local named after an upper-case dim
/// (`K0`) would be read as a pattern on any constant of that name in the user's module.
pub fn fresh(base: &str, used: &mut HashSet<String>) -> String {
    let lower = base.to_lowercase();
    let snake = lower.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && lower.starts_with(|c: char| c.is_ascii_lowercase() || c == '_');
    let base = if snake && !is_keyword(&lower) {
        lower.as_str()
    } else {
        "t"
    };
    let name = (0..)
        .map(|i| {
            if i == 0 {
                base.to_owned()
            } else {
                format!("{base}{i}")
            }
        })
        .find(|candidate| !used.contains(candidate))
        .unwrap_or_default();
    used.insert(name.clone());
    name
}

/// Whether a lower-cased dim name became a keyword (`Type` → `type`), which no local may be.
fn is_keyword(name: &str) -> bool {
    RUST_KEYWORDS.contains(&name)
}

/// Rust's strict and reserved keywords (2024 edition), which no identifier may be without
/// `r#`.
const RUST_KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern",
    "false", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut",
    "pub", "ref", "return", "self", "Self", "static", "struct", "super", "trait", "true", "type",
    "unsafe", "use", "where", "while", "abstract", "become", "box", "do", "final", "macro",
    "override", "priv", "try", "typeof", "unsized", "virtual", "yield", "_",
];

impl Code {
    /// Adds the names of the variables the code reads to `into`.
    pub fn collect_vars(&self, into: &mut HashSet<String>) {
        match self {
            Code::Var(name) => {
                into.insert(name.clone());
            }
            Code::Lit(_) | Code::Mask(_) => {}
            Code::Bin(_, a, b) => {
                a.collect_vars(into);
                b.collect_vars(into);
            }
        }
    }

    /// The value of the code where every variable is bound in `env`, as 64-bit `usize`
    /// arithmetic; `None` where the emitted Rust would overflow (a panic in debug builds and
    /// const evaluation), divide by zero or shift too far.
    pub fn eval(&self, env: &HashMap<String, u64>) -> Option<u64> {
        Some(match self {
            Code::Var(name) => *env.get(name)?,
            Code::Lit(value) | Code::Mask(value) => u64::try_from(*value).ok()?,
            Code::Bin(op, a, b) => {
                let (a, b) = (a.eval(env)?, b.eval(env)?);
                checked!(*op, a, b, u32::try_from(b).ok()?)?
            }
        })
    }
}

impl Block {
    /// The results, with the locals bound in order on top of `env`.
    pub fn eval(&self, env: &HashMap<String, u64>) -> Option<Vec<u64>> {
        let mut env = env.clone();
        for (name, code) in &self.locals {
            let value = code.eval(&env)?;
            env.insert(name.clone(), value);
        }
        self.results.iter().map(|code| code.eval(&env)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::{Code, Op, address_ops};

    fn var(name: &str) -> Code {
        Code::var(name)
    }

    fn bin(op: Op, a: Code, b: Code) -> Code {
        Code::bin(op, a, b)
    }

    /// A base plus constants costs the base's ops once; a constant under an XOR costs the
    /// add and the XOR at each access.
    #[test]
    fn address_ops_fold_a_literal_added_last_and_count_shared_ops_once() {
        // kv * 528 + ms + c: the base `kv * 528 + ms` (2 ops) for every c.
        let base = bin(Op::Add, bin(Op::Mul, var("kv"), Code::Lit(528)), var("ms"));
        let padded: Vec<Code> = [0, 132, 264]
            .map(|c| match c {
                0 => base.clone(),
                c => bin(Op::Add, base.clone(), Code::Lit(c)),
            })
            .into();
        assert_eq!(address_ops(&padded), 2);
        // ((kv << 9) + ms + c) ^ (kv << 3): shl, add, shl and the XOR once (4), then an add
        // and a XOR for each other c (2 · 2).
        let sum = bin(Op::Add, bin(Op::Shl, var("kv"), Code::Lit(9)), var("ms"));
        let key = bin(Op::Shl, var("kv"), Code::Lit(3));
        let swizzled: Vec<Code> = [0, 128, 256]
            .map(|c| {
                let at = match c {
                    0 => sum.clone(),
                    c => bin(Op::Add, sum.clone(), Code::Lit(c)),
                };
                bin(Op::Xor, at, key.clone())
            })
            .into();
        assert_eq!(address_ops(&swizzled), 8);
        // A variable alone, or plus a literal, costs nothing.
        let thread = [var("thread"), bin(Op::Add, var("thread"), Code::Lit(256))];
        assert_eq!(address_ops(&thread), 0);
    }
}
