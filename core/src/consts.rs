//! Evaluation of constant expressions (`const K0 = 32 / KPACK;`, lengths, strides) with
//! checked arithmetic: overflow and division by zero are errors on the faulty operator.

use crate::ast::{BinOpKind, Expr};
use std::collections::HashMap;

/// The constants declared so far in a layout.
#[derive(Default)]
pub struct Consts {
    values: HashMap<String, i128>,
}

impl Consts {
    /// Declares a constant; returns `false` if the name is taken.
    pub fn declare(&mut self, name: &syn::Ident, value: i128) -> bool {
        self.values.insert(name.to_string(), value).is_none()
    }

    pub fn eval(&self, expr: &Expr) -> syn::Result<i128> {
        match expr {
            Expr::Lit(lit) => lit.base10_parse::<i128>(),
            Expr::Const(name) => self.values.get(&name.to_string()).copied().ok_or_else(|| {
                syn::Error::new(
                    name.span(),
                    format!(
                        "unknown constant `{name}`: declare it first with `const {name} = ...;`"
                    ),
                )
            }),
            Expr::Neg { operand, .. } => self
                .eval(operand)?
                .checked_neg()
                .ok_or_else(|| syn::Error::new_spanned(expr, "constant overflow")),
            Expr::Paren { inner, .. } => self.eval(inner),
            Expr::Binary { lhs, op, rhs } => {
                let (a, b) = (self.eval(lhs)?, self.eval(rhs)?);
                let shift = u32::try_from(b).ok().filter(|&s| s < 128);
                let value = match op.kind {
                    BinOpKind::Add => a.checked_add(b),
                    BinOpKind::Sub => a.checked_sub(b),
                    BinOpKind::Mul => a.checked_mul(b),
                    BinOpKind::Div | BinOpKind::Rem if b == 0 => {
                        return Err(syn::Error::new_spanned(expr, "division by zero"));
                    }
                    BinOpKind::Div => a.checked_div(b),
                    BinOpKind::Rem => a.checked_rem(b),
                    BinOpKind::Shl => shift
                        .and_then(|s| a.checked_shl(s))
                        .filter(|v| v >> shift.unwrap_or(0) == a),
                    BinOpKind::Shr => shift.and_then(|s| a.checked_shr(s)),
                    BinOpKind::BitAnd => Some(a & b),
                    BinOpKind::BitXor => Some(a ^ b),
                    BinOpKind::BitOr => Some(a | b),
                };
                value.ok_or_else(|| {
                    syn::Error::new_spanned(
                        expr,
                        "constant overflow: the value does not fit in 128 bits",
                    )
                })
            }
        }
    }

    /// Evaluates an expression that must be an unsigned `usize` of at least `min`.
    pub fn eval_usize(&self, expr: &Expr, what: &str, min: usize) -> syn::Result<usize> {
        let value = self.eval(expr)?;
        if value > usize::MAX as i128 {
            let message = format!("{what} {value} overflows the offset type `usize`");
            return Err(syn::Error::new_spanned(expr, message));
        }
        match usize::try_from(value) {
            Ok(v) if v >= min => Ok(v),
            _ => Err(syn::Error::new_spanned(
                expr,
                format!("{what} must be at least {min}, found {value}"),
            )),
        }
    }
}
