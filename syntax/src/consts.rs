//! Evaluation of constant expressions (`const K0 = 32 / KPACK;`, lengths, strides) with
//! checked arithmetic: overflow and division by zero are errors on the faulty expression.

use crate::ast::Expr;
use crate::errors::{Failure, Reported, Unparsed};
use quote::ToTokens;
use std::collections::HashMap;
use swizzle_core::emit::code::Op;

/// The result of an evaluation. `Failure::Reported` means that the expression depends on
/// something whose error is already recorded (a constant whose own definition failed, or a
/// name from a statement that did not parse): the caller fails without a second error.
pub type Eval<T> = Result<T, Failure>;

/// The constants declared so far in a layout.
#[derive(Default)]
pub struct Consts {
    /// `Err`: the constant's definition had an error, already recorded.
    values: HashMap<String, Result<i128, Reported>>,
    /// Names that a statement that did not parse may have declared.
    maybe_declared: Unparsed,
}

impl Consts {
    /// Constants of a layout in which the statements that did not parse mention
    /// `maybe_declared`; unknown constants among those are not reported again.
    pub fn new(maybe_declared: Unparsed) -> Self {
        Consts {
            values: HashMap::new(),
            maybe_declared,
        }
    }

    /// Declares a constant (`Err` when its value had an error); returns `false` if the name
    /// is taken.
    pub fn declare(&mut self, name: &syn::Ident, value: Result<i128, Reported>) -> bool {
        let taken = self.values.contains_key(&name.to_string());
        if !taken {
            self.values.insert(name.to_string(), value);
        }
        !taken
    }

    pub fn eval(&self, expr: &Expr) -> Eval<i128> {
        match expr {
            Expr::Lit(lit) => lit.base10_parse::<i128>().map_err(|_| {
                Failure::New(syn::Error::new(
                    lit.span(),
                    format!(
                        "the integer `{lit}` does not fit in a constant: constant expressions are \
                         evaluated in 128-bit signed integers (at most {})",
                        i128::MAX
                    ),
                ))
            }),
            Expr::Const(name) => match self.values.get(&name.to_string()) {
                Some(&value) => Ok(value?),
                None => match self.maybe_declared.mentions(&name.to_string()) {
                    Some(reported) => Err(reported.into()),
                    None => Err(Failure::New(syn::Error::new(
                        name.span(),
                        self.unknown_message(name),
                    ))),
                },
            },
            Expr::Neg { operand, .. } => {
                let value = self.eval(operand)?;
                value.checked_neg().ok_or_else(|| {
                    overflow(
                        expr,
                        format!("-({value}) does not fit in a 128-bit integer"),
                    )
                })
            }
            Expr::Paren { inner, .. } => self.eval(inner),
            Expr::Bit { dim, .. } => Err(Failure::New(syn::Error::new_spanned(
                expr,
                format!(
                    "`{}` is a bit of the dim `{dim}`, not a constant: only the rows of `bits` \
                     name bits of dims",
                    expr.to_token_stream()
                ),
            ))),
            Expr::Binary { lhs, op, rhs } => {
                let (a, b) = (self.eval(lhs)?, self.eval(rhs)?);
                let symbol = op.tokens.to_string();
                let value = match op.kind {
                    Op::Add => a.checked_add(b),
                    Op::Sub => a.checked_sub(b),
                    Op::Mul => a.checked_mul(b),
                    Op::Div | Op::Rem if b == 0 => {
                        let rhs = rhs.to_token_stream();
                        return Err(Failure::New(syn::Error::new_spanned(
                            expr,
                            format!(
                                "division by zero: the divisor `{rhs}` is 0; \
                                 change it to a non-zero value"
                            ),
                        )));
                    }
                    Op::Div => a.checked_div(b),
                    Op::Rem => a.checked_rem(b),
                    Op::Shl | Op::Shr => {
                        let Some(shift) = u32::try_from(b).ok().filter(|&s| s < 128) else {
                            return Err(Failure::New(syn::Error::new_spanned(
                                expr,
                                format!(
                                    "shift amount {b} is out of range: `{symbol}` shifts by \
                                     0 to 127 bits"
                                ),
                            )));
                        };
                        if op.kind == Op::Shr {
                            Some(a >> shift)
                        } else {
                            a.checked_shl(shift).filter(|v| v >> shift == a)
                        }
                    }
                    Op::And => Some(a & b),
                    Op::Xor => Some(a ^ b),
                    Op::Or => Some(a | b),
                };
                value.ok_or_else(|| {
                    overflow(
                        expr,
                        format!(
                            "{} {symbol} {} does not fit in a 128-bit integer",
                            show(a),
                            show(b)
                        ),
                    )
                })
            }
        }
    }

    fn unknown_message(&self, name: &syn::Ident) -> String {
        let name = name.to_string();
        let similar = self
            .values
            .keys()
            .filter(|known| similar(known, &name))
            .min_by_key(|known| distance(known, &name));
        match similar {
            Some(known) => format!("unknown constant `{name}`: did you mean `{known}`?"),
            None => {
                format!("unknown constant `{name}`: declare it first with `const {name} = ...;`")
            }
        }
    }

    /// Evaluates an expression that must be a `usize` of at least `min`.
    pub fn eval_usize(&self, expr: &Expr, what: &str, min: usize) -> Eval<usize> {
        let value = self.eval(expr)?;
        if value > usize::MAX as i128 {
            let message = format!(
                "{what} {} overflows the offset type `usize` (at most {}); use a smaller value",
                show(value),
                usize::MAX
            );
            return Err(Failure::New(syn::Error::new_spanned(expr, message)));
        }
        match usize::try_from(value) {
            Ok(v) if v >= min => Ok(v),
            _ => Err(Failure::New(syn::Error::new_spanned(
                expr,
                format!("{what} must be at least {min}, found {value}"),
            ))),
        }
    }
}

fn overflow(expr: &Expr, detail: String) -> Failure {
    Failure::New(syn::Error::new_spanned(
        expr,
        format!("constant overflow: {detail}; use smaller values"),
    ))
}

/// A number as written in messages: large powers of two as `2^k`, which reads better than
/// forty digits.
pub fn show(value: i128) -> String {
    let sign = if value < 0 { "-" } else { "" };
    format!(
        "{sign}{}",
        swizzle_core::ir::transform::show(value.unsigned_abs())
    )
}

/// Whether `known` looks like a misspelling of `name` (for "did you mean" hints).
pub fn similar(known: &str, name: &str) -> bool {
    // One edit per three characters: `KPAK` → `KPACK`, but no guesses for one-letter names.
    let limit = name.chars().count().max(known.chars().count()) / 3;
    known != name && distance(known, name) <= limit
}

/// Levenshtein distance, ignoring ASCII case.
fn distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (
        a.chars().map(|c| c.to_ascii_lowercase()).collect(),
        b.chars().map(|c| c.to_ascii_lowercase()).collect(),
    );
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let next = (row[j + 1] + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != cb));
            diagonal = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

/// What an error about an unknown `name` adds: the closest of the `known` names, or all of
/// them.
pub fn known_names<'n>(name: &syn::Ident, known: impl Iterator<Item = &'n String>) -> String {
    let mut known: Vec<&String> = known.collect();
    known.sort();
    let name = name.to_string();
    match known.iter().find(|k| similar(k, &name)) {
        Some(close) => format!("did you mean `{close}`?"),
        None if known.is_empty() => "this invocation declares none".to_owned(),
        None => {
            let known: Vec<String> = known.iter().map(|k| format!("`{k}`")).collect();
            format!("this invocation declares {}", known.join(", "))
        }
    }
}
