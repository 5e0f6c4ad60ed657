//! `access` items → [`Access`] values: the lane count, element size, vector and bank
//! configuration evaluated, each coordinate's expression turned into a [`LaneExpr`] of the
//! lane id (`lane` is the variable; other names are constants).

use super::{AccessItem, AccessStmtKind};
use crate::ast::Expr;
use crate::consts::Consts;
use crate::errors::{Errors, Reported, Unparsed};
use std::collections::HashMap;
use swizzle_core::analysis::{Access, LaneExpr};
use swizzle_core::budget::ACCESS_SETTING;
use syn::Ident;

/// Bank configuration when an access does not declare one: 32 banks of 4 bytes.
pub const DEFAULT_BANKS: (usize, usize) = (32, 4);

/// A checked access item.
pub struct CheckedAccess {
    pub access: Access,
    /// `(count, width in bytes)` of the shared-memory banks it is analysed against.
    pub banks: (usize, usize),
}

/// The accesses of an invocation by name (`Err`: one with errors, already reported).
pub type Accesses<'a> = HashMap<String, Result<&'a CheckedAccess, Reported>>;

/// Checks one access item; `Err` (with the reasons in `errors`) if anything is wrong.
pub fn check(item: &AccessItem, errors: &mut Errors) -> Result<CheckedAccess, Reported> {
    let mark = errors.mark();
    let mut consts = Consts::new(Unparsed::default());
    let (mut lanes, mut bytes, mut vector, mut along, mut banks) =
        (None, None, 1, None, DEFAULT_BANKS);
    let mut coords: Vec<(String, LaneExpr)> = Vec::new();
    // Every setting is capped, so that no access makes an analysis run away.
    let value = |consts: &Consts, expr: &Expr, what: &str, errors: &mut Errors| {
        let value = errors.report(consts.eval_usize(expr, what, 1)).ok()?;
        if value > ACCESS_SETTING {
            errors.error(
                expr,
                format!(
                    "{what} {value} is more than {ACCESS_SETTING}, the most an access may set \
                     (no warp, wave or vector instruction moves that much): use a smaller value"
                ),
            );
            return None;
        }
        Some(value)
    };
    for stmt in &item.body {
        match &stmt.kind {
            AccessStmtKind::Const { name, value } => {
                let value = errors.report(consts.eval(value));
                if !consts.declare(name, value) {
                    errors.error(
                        name,
                        format!("constant `{name}` is declared twice: rename one"),
                    );
                }
            }
            // `Some(None)`: given, with its error already reported.
            AccessStmtKind::Lanes(expr) => {
                lanes = Some(value(&consts, expr, "the lane count", errors));
            }
            AccessStmtKind::Bytes(expr) => {
                bytes = Some(value(&consts, expr, "the element size", errors));
            }
            AccessStmtKind::Vector { len, along: name } => {
                vector = value(&consts, len, "the vector width", errors).unwrap_or(1);
                along = name.as_ref().map(Ident::to_string);
            }
            AccessStmtKind::Banks { count, width } => {
                let count = value(&consts, count, "the bank count", errors);
                let width = value(&consts, width, "the bank width", errors);
                if let (Some(count), Some(width)) = (count, width) {
                    banks = (count, width);
                }
            }
            AccessStmtKind::Coord { name, value } => {
                if coords.iter().any(|(n, _)| name == n) {
                    errors.error(
                        name,
                        format!("coordinate `{name}` is given twice: keep one expression"),
                    );
                }
                if let Some(expr) = lane_expr(value, &consts, errors) {
                    coords.push((name.to_string(), expr));
                }
            }
        }
    }
    const LANES: usize = 1024;
    match lanes {
        Some(Some(n)) if n > LANES => {
            errors.error(
                &item.name,
                format!("{n} lanes is more than {LANES}: a warp has 32, a wave 64"),
            );
        }
        None => {
            errors.error(
                &item.name,
                "this access has no lane count: add `lanes 32;` (a warp) or `lanes 64;` (a wave)",
            );
        }
        Some(_) => {}
    }
    if bytes.is_none() {
        errors.error(
            &item.name,
            "this access has no element size: add `bytes 4;` (or 2 for fp16, …)",
        );
    }
    if coords.is_empty() {
        errors.error(
            &item.name,
            "this access gives no coordinates: add one line per coordinate, e.g. `m = lane % 16;`",
        );
    }
    errors.since(mark).map(|()| CheckedAccess {
        access: Access {
            name: item.name.to_string(),
            lanes: lanes.flatten().unwrap_or(0),
            element_bytes: bytes.flatten().unwrap_or(0),
            vector,
            along,
            coords,
        },
        banks,
    })
}

/// A constant expression in which `lane` is the variable.
fn lane_expr(expr: &Expr, consts: &Consts, errors: &mut Errors) -> Option<LaneExpr> {
    Some(match expr {
        Expr::Const(name) if name == "lane" => LaneExpr::Lane,
        Expr::Const(_) | Expr::Lit(_) | Expr::Bit { .. } => {
            LaneExpr::Lit(errors.report(consts.eval(expr)).ok()?)
        }
        Expr::Neg { operand, .. } => LaneExpr::Neg(Box::new(lane_expr(operand, consts, errors)?)),
        Expr::Paren { inner, .. } => lane_expr(inner, consts, errors)?,
        Expr::Binary { lhs, op, rhs } => {
            let (lhs, rhs) = (
                lane_expr(lhs, consts, errors),
                lane_expr(rhs, consts, errors),
            );
            LaneExpr::Binary(op.kind, Box::new(lhs?), Box::new(rhs?))
        }
    })
}
