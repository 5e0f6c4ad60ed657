//! AST → checked IR. Every rule of DESIGN.md §2.2 is checked here, each violation becomes a
//! `syn::Error` on the faulty token, and checking goes on after an error so that one
//! invocation reports all of them.

use crate::ast::{self, DimDecl, Expr, LayoutItem, StmtKind};
use crate::consts::Consts;
use crate::errors::Errors;
use crate::ir::{Descriptor, Dim, DimId, Memory, Transform, row_major_strides};
use proc_macro2::TokenStream;
use quote::{ToTokens, quote};
use std::borrow::Cow;
use std::collections::HashMap;
use syn::Ident;

/// A layout that passed every check.
pub struct Checked {
    pub descriptor: Descriptor,
    /// The user's spelling of each coordinate, for parameter names and spans.
    pub coords: Vec<Ident>,
    /// The `inverse` keyword, when the user asked for `coord(offset)`.
    pub inverse: Option<Ident>,
}

/// Checks one layout. Returns `None` (with the reasons in `errors`) if anything is wrong.
pub fn check(item: &LayoutItem, errors: &mut Errors) -> Option<Checked> {
    let before = errors.len();
    let mut checker = Checker {
        errors,
        consts: Consts::default(),
        scope: Scope::default(),
    };
    let mut memory = None;
    let mut stages = Vec::new();
    let mut coords = None;
    let mut inverse = None;
    for stmt in &item.body {
        match &stmt.kind {
            StmtKind::Const { name, value } => checker.constant(name, value),
            StmtKind::Memory { dims, strides } => {
                if memory.is_some() {
                    checker
                        .errors
                        .error(&stmt.tokens, "a layout has exactly one `memory` statement");
                } else {
                    memory = Some(checker.memory(&stmt.tokens, dims, strides.as_deref()));
                }
            }
            StmtKind::Transform { keyword, transform } => {
                if memory.is_none() {
                    checker.errors.error(
                        keyword,
                        "transforms build on the memory: start the layout with `memory [...]`",
                    );
                    return None;
                }
                if let Some(stage) = checker.transform(&stmt.tokens, keyword, transform) {
                    stages.push(stage);
                }
            }
            StmtKind::Coords { names } => {
                if coords.is_some() {
                    checker
                        .errors
                        .error(&stmt.tokens, "a layout has exactly one `coords` statement");
                }
                coords = Some(names);
            }
            StmtKind::Inverse { keyword } => inverse = Some(keyword.clone()),
        }
    }
    let Some(memory) = memory else {
        checker
            .errors
            .error(&item.name, "this layout has no `memory [...]` statement");
        return None;
    };
    let Some(names) = coords else {
        let live = checker.scope.live_names().join(", ");
        checker.errors.error(
            &item.name,
            format!("this layout has no `coords [...]` statement: add `coords [{live}];`"),
        );
        return None;
    };
    let coords = checker.coords(names);
    let Checker { scope, errors, .. } = checker;
    let descriptor = Descriptor {
        name: Cow::Owned(item.name.to_string()),
        dims: Cow::Owned(scope.dims),
        memory,
        stages: Cow::Owned(stages),
        coords: Cow::Owned(coords),
    };
    if descriptor.size().is_none() {
        errors.error(&item.name, "the number of coordinates overflows `usize`");
    }
    (errors.len() == before).then(|| Checked {
        descriptor,
        coords: names.clone(),
        inverse,
    })
}

/// The dims declared so far and which of them are still free to be consumed.
#[derive(Default)]
struct Scope {
    dims: Vec<Dim>,
    /// Where each dim was declared.
    declared: Vec<Ident>,
    /// The keyword of the transform that consumed each dim, if any.
    consumed: Vec<Option<String>>,
    /// The newest dim of each name.
    names: HashMap<String, DimId>,
}

impl Scope {
    fn live_names(&self) -> Vec<String> {
        (0..self.dims.len())
            .filter(|&d| self.consumed[d].is_none())
            .map(|d| self.dims[d].name.to_string())
            .collect()
    }
}

struct Checker<'a> {
    errors: &'a mut Errors,
    consts: Consts,
    scope: Scope,
}

impl Checker<'_> {
    fn constant(&mut self, name: &Ident, value: &Expr) {
        match self.consts.eval(value) {
            Ok(value) => {
                if !self.consts.declare(name, value) {
                    self.errors
                        .error(name, format!("constant `{name}` is declared twice"));
                }
            }
            Err(error) => self.errors.push(error),
        }
    }

    fn value(&mut self, expr: &Expr, what: &str, min: usize) -> Option<usize> {
        self.consts
            .eval_usize(expr, what, min)
            .map_err(|e| self.errors.push(e))
            .ok()
    }

    /// Declares a dim; lengths that failed to evaluate are `None` and declare length 1 so
    /// that later statements can still be checked without a cascade.
    fn declare(&mut self, name: &Ident, len: Option<usize>) -> DimId {
        let key = name.to_string();
        if let Some(&old) = self.scope.names.get(&key)
            && self.scope.consumed[old].is_none()
        {
            self.errors.error(
                name,
                format!(
                    "dim `{name}` is already defined and not yet consumed; choose another name"
                ),
            );
        }
        let id = self.scope.dims.len();
        self.scope.dims.push(Dim {
            name: Cow::Owned(key.clone()),
            len: len.unwrap_or(1),
        });
        self.scope.declared.push(name.clone());
        self.scope.consumed.push(None);
        self.scope.names.insert(key, id);
        id
    }

    fn declare_all(&mut self, decls: &[DimDecl]) -> (Vec<DimId>, Option<Vec<usize>>) {
        let lens: Vec<Option<usize>> = decls
            .iter()
            .map(|d| self.value(&d.len, "length", 1))
            .collect();
        let ids = decls
            .iter()
            .zip(&lens)
            .map(|(d, &len)| self.declare(&d.name, len))
            .collect();
        (ids, lens.into_iter().collect())
    }

    /// Looks up a live dim by name, without consuming it.
    fn find(&mut self, name: &Ident) -> Option<DimId> {
        match self.scope.names.get(&name.to_string()) {
            None => {
                let live = self.scope.live_names().join(", ");
                self.errors.error(
                    name,
                    format!("unknown dim `{name}`; the dims in scope are: {live}"),
                );
                None
            }
            Some(&id) => match &self.scope.consumed[id] {
                Some(by) => {
                    self.errors.error(
                        name,
                        format!("dim `{name}` was already consumed by `{by}`; each dim feeds exactly one transform"),
                    );
                    None
                }
                None => Some(id),
            },
        }
    }

    /// Consumes a live dim as the lower input of the transform `by`.
    fn consume(&mut self, name: &Ident, by: &Ident) -> Option<DimId> {
        let id = self.find(name)?;
        self.scope.consumed[id] = Some(by.to_string());
        Some(id)
    }

    fn len(&self, id: DimId) -> usize {
        self.scope.dims[id].len
    }

    fn memory(
        &mut self,
        tokens: &TokenStream,
        decls: &[DimDecl],
        strides: Option<&[Expr]>,
    ) -> Memory {
        let (dims, lens) = self.declare_all(decls);
        let strides = match (strides, lens) {
            (Some(strides), _) if strides.len() != dims.len() => {
                self.errors.error(
                    tokens,
                    format!(
                        "{} strides given for {} memory dims",
                        strides.len(),
                        dims.len()
                    ),
                );
                None
            }
            (Some(strides), _) => strides
                .iter()
                .map(|s| self.value(s, "stride", 0))
                .collect::<Option<Vec<_>>>(),
            (None, Some(lens)) => row_major_strides(&lens).or_else(|| {
                self.errors
                    .error(tokens, "the memory size overflows `usize`");
                None
            }),
            (None, None) => None,
        };
        let strides = strides.unwrap_or_else(|| vec![0; dims.len()]);
        let memory = Memory {
            dims: Cow::Owned(dims),
            strides: Cow::Owned(strides),
        };
        if memory.space(&self.scope.dims).is_none() {
            self.errors.error(
                tokens,
                "the element space overflows the offset type `usize`",
            );
        }
        memory
    }

    fn transform(
        &mut self,
        tokens: &TokenStream,
        keyword: &Ident,
        transform: &ast::Transform,
    ) -> Option<Transform> {
        use ast::Transform as T;
        Some(match transform {
            T::Unmerge { lower, upper } => {
                let lower_id = self.consume(lower, keyword);
                let (upper_ids, lens) = self.declare_all(upper);
                let lower = lower_id?;
                self.expect_product(lens?, lower, upper, "unmerge")?;
                Transform::Unmerge {
                    lower,
                    upper: Cow::Owned(upper_ids),
                }
            }
            T::Merge { lower, upper } => {
                let ids: Option<Vec<DimId>> =
                    lower.iter().map(|l| self.consume(l, keyword)).collect();
                let len = ids.as_ref().and_then(|ids| {
                    ids.iter()
                        .try_fold(1usize, |acc, &d| acc.checked_mul(self.len(d)))
                        .or_else(|| {
                            self.errors
                                .error(tokens, "the merged length overflows `usize`");
                            None
                        })
                });
                let upper = self.declare(upper, len);
                Transform::Merge {
                    lower: Cow::Owned(ids?),
                    upper,
                }
            }
            T::Xor { target, key } => {
                let key = self.find(key);
                let lower = self.consume(target, keyword);
                let len = lower.map(|l| self.len(l));
                let upper = self.declare(target, len);
                let (lower, key) = (lower?, key?);
                self.expect_power_of_two(target, len?, "the target of `xor`")?;
                Transform::Xor { lower, upper, key }
            }
            T::Morton { lower, upper } => {
                let lower_id = self.consume(lower, keyword);
                let (upper_ids, lens) = self.declare_all(upper);
                let lens = lens?;
                let mut ok = true;
                for (decl, &len) in upper.iter().zip(&lens) {
                    ok &= self
                        .expect_power_of_two(decl, len, "every dim of `morton`")
                        .is_some();
                }
                let lower = lower_id?;
                self.expect_product(lens, lower, upper, "morton")?;
                ok.then_some(Transform::Morton {
                    lower,
                    upper: Cow::Owned(upper_ids),
                })?
            }
            T::Embed {
                lower,
                upper,
                strides,
            } => {
                let lower_id = self.consume(lower, keyword);
                let (upper_ids, lens) = self.declare_all(upper);
                if strides.len() != upper.len() {
                    let message =
                        format!("{} strides given for {} dims", strides.len(), upper.len());
                    self.errors.error(tokens, message);
                    return None;
                }
                let strides: Vec<usize> = strides
                    .iter()
                    .map(|s| self.value(s, "stride", 0))
                    .collect::<Option<_>>()?;
                let lower = lower_id?;
                let space = lens?
                    .iter()
                    .zip(&strides)
                    .try_fold(1usize, |acc, (&len, &stride)| {
                        acc.checked_add((len - 1).checked_mul(stride)?)
                    });
                let len = self.len(lower);
                match space {
                    Some(space) if space <= len => {}
                    _ => {
                        let space = space.map_or("more than usize::MAX".into(), |s| s.to_string());
                        self.errors.error(
                            tokens,
                            format!(
                                "`embed` addresses {space} elements but `{lower}` has length {len}",
                                lower = self.scope.dims[lower].name
                            ),
                        );
                        return None;
                    }
                }
                Transform::Embed {
                    lower,
                    upper: Cow::Owned(upper_ids),
                    strides: Cow::Owned(strides),
                }
            }
            T::Pad {
                lower,
                upper,
                left,
                right,
            } => {
                let lower_id = self.consume(lower, keyword);
                let (left, right) = (
                    self.value(left, "padding", 0),
                    self.value(right, "padding", 0),
                );
                let len = match (lower_id, left, right) {
                    (Some(l), Some(left), Some(right)) => {
                        self.len(l).checked_add(left)?.checked_add(right)
                    }
                    _ => None,
                };
                let upper = self.declare(upper, len);
                Transform::Pad {
                    lower: lower_id?,
                    upper,
                    left: left?,
                    right: right?,
                }
            }
            T::Slice {
                lower,
                upper,
                begin,
                end,
            } => {
                let lower_id = self.consume(lower, keyword);
                let (begin_value, end_value) = (
                    self.value(begin, "slice bound", 0),
                    self.value(end, "slice bound", 1),
                );
                let len = match (lower_id, begin_value, end_value) {
                    (Some(l), Some(b), Some(e)) => {
                        if b >= e || e > self.len(l) {
                            let message = format!(
                                "slice {b}..{e} is not a non-empty range inside `{lower}` (length {})",
                                self.len(l)
                            );
                            self.errors.error(quote!(#begin #end), message);
                            None
                        } else {
                            Some(e - b)
                        }
                    }
                    _ => None,
                };
                let upper = self.declare(upper, len);
                len?;
                Transform::Slice {
                    lower: lower_id?,
                    upper,
                    begin: begin_value?,
                }
            }
            T::Offset { lower, upper, by } => {
                let lower_id = self.consume(lower, keyword);
                let by_value = self.value(by, "offset", 0);
                let len = match (lower_id, by_value) {
                    (Some(l), Some(k)) if k < self.len(l) => Some(self.len(l) - k),
                    (Some(l), Some(k)) => {
                        let message = format!(
                            "offset +{k} leaves nothing of `{lower}` (length {})",
                            self.len(l)
                        );
                        self.errors.error(by, message);
                        None
                    }
                    _ => None,
                };
                let upper = self.declare(upper, len);
                len?;
                Transform::Offset {
                    lower: lower_id?,
                    upper,
                    by: by_value?,
                }
            }
            T::Freeze { lower, value } => {
                let lower_id = self.consume(lower, keyword);
                let frozen = self.value(value, "frozen index", 0)?;
                let lower = lower_id?;
                if frozen >= self.len(lower) {
                    let message = format!(
                        "index {frozen} is out of bounds for `{}` (length {})",
                        self.scope.dims[lower].name,
                        self.len(lower)
                    );
                    self.errors.error(value, message);
                    return None;
                }
                Transform::Freeze {
                    lower,
                    value: frozen,
                }
            }
            T::Replicate { upper } => {
                let (upper, lens) = self.declare_all(upper);
                lens?;
                Transform::Replicate {
                    upper: Cow::Owned(upper),
                }
            }
            T::Swizzle {
                lower: lower_name,
                upper,
                bits,
                base,
                shift,
            } => {
                let lower_id = self.consume(lower_name, keyword);
                let len = lower_id.map(|l| self.len(l));
                let upper = self.declare(upper, len);
                let bits_value = self.value(bits, "B", 0).and_then(|b| u32::try_from(b).ok());
                let base_value = self.value(base, "M", 0).and_then(|m| u32::try_from(m).ok());
                let shift_value = self
                    .consts
                    .eval(shift)
                    .map_err(|e| self.errors.push(e))
                    .ok()?;
                let (bits_value, base_value, lower) = (bits_value?, base_value?, lower_id?);
                let Some(shift_value) = i32::try_from(shift_value)
                    .ok()
                    .filter(|s| s.unsigned_abs() >= bits_value)
                else {
                    self.errors.error(
                        shift,
                        format!("swizzle needs |S| ≥ B so that source and target bits do not overlap: |{shift_value}| < {bits_value}"),
                    );
                    return None;
                };
                let len = self.len(lower);
                self.expect_power_of_two(lower_name, len, "the dim of `swizzle`")?;
                let top = u64::from(base_value)
                    + u64::from(bits_value)
                    + u64::from(shift_value.min(0).unsigned_abs());
                if top > u64::from(len.trailing_zeros()) {
                    self.errors.error(
                        tokens,
                        format!(
                            "swizzle({bits_value}, {base_value}, {shift_value}) writes bit {} but `{}` (length {len}) has only {} bits",
                            top - 1,
                            self.scope.dims[lower].name,
                            len.trailing_zeros()
                        ),
                    );
                    return None;
                }
                Transform::Swizzle {
                    lower,
                    upper,
                    bits: bits_value,
                    base: base_value,
                    shift: shift_value,
                }
            }
        })
    }

    fn expect_power_of_two(&mut self, at: impl ToTokens, len: usize, what: &str) -> Option<()> {
        if len.is_power_of_two() {
            return Some(());
        }
        let suggestion = len.next_power_of_two();
        self.errors.error(
            at,
            format!("{what} must have a power-of-two length, found {len} (try {suggestion})"),
        );
        None
    }

    /// Checks that the lengths of `decls` multiply to the length of `lower`.
    fn expect_product(
        &mut self,
        lens: Vec<usize>,
        lower: DimId,
        decls: &[DimDecl],
        what: &str,
    ) -> Option<()> {
        let (expected, lower) = (self.len(lower), &self.scope.dims[lower].name);
        let product = lens.iter().try_fold(1usize, |acc, &l| acc.checked_mul(l));
        if product == Some(expected) {
            return Some(());
        }
        let lens = lens
            .iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join(" × ");
        let product = product.map_or("more than usize::MAX".into(), |p| p.to_string());
        self.errors.error(
            quote!(#(#decls)*),
            format!("`{what}` lengths {lens} = {product} must multiply to the length of `{lower}`, {expected}"),
        );
        None
    }

    /// Resolves `coords [...]`: every live dim exactly once.
    fn coords(&mut self, names: &[Ident]) -> Vec<DimId> {
        let mut ids = Vec::new();
        for name in names {
            if let Some(id) = self.find(name) {
                if ids.contains(&id) {
                    self.errors
                        .error(name, format!("dim `{name}` is listed twice in `coords`"));
                }
                ids.push(id);
            }
        }
        for dim in 0..self.scope.dims.len() {
            if self.scope.consumed[dim].is_none() && !ids.contains(&dim) {
                let name = &self.scope.declared[dim];
                self.errors.error(
                    name,
                    format!("dim `{name}` is never used: consume it in a transform or list it in `coords`"),
                );
            }
        }
        ids
    }
}
