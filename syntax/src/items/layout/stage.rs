//! A transform statement's check: the transform's module (in `swizzle_core::ir::transform`)
//! holds its rules and blames positions of the statement; this puts each error on the
//! tokens at that position and runs the scope's bookkeeping (consuming, declaring, looking
//! up dims) for it.

use super::super::Stage;
use super::{Checker, or};
use crate::ast::{Expr, Length};
use proc_macro2::TokenStream;
use quote::{ToTokens, quote};
use swizzle_core::emit::code::Op;
use swizzle_core::ir::transform::{Blame, Context, Written};
use swizzle_core::ir::{DimId, Transform};
use syn::Ident;

impl Checker<'_> {
    /// Checks one transform statement; `None` when it has errors (all reported).
    pub(super) fn transform(&mut self, keyword: &Ident, stage: &Stage) -> Option<Transform> {
        let mut cx = StageCheck {
            checker: self,
            keyword,
            stage,
        };
        // The parser produces statements only for the transforms' keywords.
        Transform::check(&keyword.to_string(), &mut cx).flatten()
    }
}

struct StageCheck<'c, 'a, 's> {
    checker: &'c mut Checker<'a>,
    keyword: &'s Ident,
    stage: &'s Stage,
}

impl StageCheck<'_, '_, '_> {
    /// The tokens an error about `blame` goes on.
    fn tokens(&self, blame: Blame) -> TokenStream {
        let Stage {
            lower,
            upper,
            keys,
            args,
            ..
        } = self.stage;
        let keyword = self.keyword.to_token_stream();
        let tokens = match blame {
            Blame::Keyword => keyword.clone(),
            Blame::Lower(i) => lower.get(i).to_token_stream(),
            Blame::Lowers => quote!(#(#lower)*),
            Blame::UpperLength(i) => match upper.get(i) {
                Some(upper) => match &upper.len {
                    Some(len) => len.to_token_stream(),
                    None => upper.name.to_token_stream(),
                },
                None => TokenStream::new(),
            },
            Blame::Uppers => quote!(#(#upper)*),
            Blame::Key(i) => keys.get(i).to_token_stream(),
            Blame::Arg(i) => args.get(i).to_token_stream(),
            Blame::Args => quote!(#(#args)*),
            Blame::UppersAndArgs => quote!(#(#upper)* #(#args)*),
        };
        or(tokens, &keyword)
    }

    /// Reads a row of `bits` into `terms` and `constant`; `false` after reporting an error.
    fn row(
        &mut self,
        expr: &Expr,
        widths: &[u32],
        terms: &mut Vec<(usize, u32)>,
        constant: &mut bool,
    ) -> bool {
        match expr {
            Expr::Paren { inner, .. } => self.row(inner, widths, terms, constant),
            Expr::Binary { lhs, op, rhs } if op.kind == Op::Xor => {
                let left = self.row(lhs, widths, terms, constant);
                self.row(rhs, widths, terms, constant) && left
            }
            Expr::Bit { dim, index, .. } => {
                let upper = &self.stage.upper;
                let Some(position) = upper.iter().position(|u| u.name == *dim) else {
                    let names: Vec<String> =
                        upper.iter().map(|u| format!("`{}`", u.name)).collect();
                    let message = format!(
                        "`{dim}` is not a dim of this `{}`: its rows read bits of {}",
                        self.keyword,
                        names.join(", ")
                    );
                    self.checker.errors.error(dim, message);
                    return false;
                };
                let Some(bit) = self.checker.value(index, "a bit index", 0) else {
                    return false;
                };
                let width = widths.get(position).copied().unwrap_or(0);
                match u32::try_from(bit).ok().filter(|&b| b < width) {
                    Some(bit) => {
                        terms.push((position, bit));
                        true
                    }
                    None => {
                        let len = 1u128 << width;
                        let message = format!(
                            "`{dim}` (length {len}) has bits 0..{width}: bit {bit} does not \
                             exist"
                        );
                        self.checker.errors.error(expr, message);
                        false
                    }
                }
            }
            Expr::Lit(_) | Expr::Const(_) | Expr::Neg { .. } => {
                let value = self.checker.consts.eval(expr);
                match self.checker.report(value) {
                    Some(value @ (0 | 1)) => {
                        *constant ^= value == 1;
                        true
                    }
                    Some(value) => {
                        let message =
                            format!("a constant in a row of bits is 0 or 1, found {value}");
                        self.checker.errors.error(expr, message);
                        false
                    }
                    None => false,
                }
            }
            Expr::Binary { .. } => {
                self.checker.errors.error(
                    expr,
                    "a row of bits is an XOR (`^`) of dim bits such as `x[3]`, or the \
                     constant 0 or 1: no other operator",
                );
                false
            }
        }
    }
}

impl Context for StageCheck<'_, '_, '_> {
    fn keyword(&self) -> String {
        self.keyword.to_string()
    }

    fn lowers(&self) -> usize {
        self.stage.lower.len()
    }

    fn uppers(&self) -> usize {
        self.stage.upper.len()
    }

    fn keys(&self) -> usize {
        self.stage.keys.len()
    }

    fn args(&self) -> usize {
        self.stage.args.len()
    }

    fn lower_name(&self, i: usize) -> String {
        self.stage
            .lower
            .get(i)
            .map(Ident::to_string)
            .unwrap_or_default()
    }

    fn upper_name(&self, i: usize) -> String {
        let upper = self.stage.upper.get(i);
        upper.map(|u| u.name.to_string()).unwrap_or_default()
    }

    fn key_name(&self, i: usize) -> String {
        self.stage
            .keys
            .get(i)
            .map(Ident::to_string)
            .unwrap_or_default()
    }

    fn consume(&mut self, i: usize, allow_dynamic: bool) -> Option<DimId> {
        let name = self.stage.lower.get(i)?;
        self.checker.consume_as(name, self.keyword, allow_dynamic)
    }

    fn key(&mut self, i: usize) -> Option<DimId> {
        self.checker.find(self.stage.keys.get(i)?, false)
    }

    fn declare(&mut self, i: usize, len: Option<usize>) -> DimId {
        let name = &self.stage.upper[i].name;
        self.checker.declare(name, len, self.keyword)
    }

    fn written(&mut self, i: usize) -> Written {
        match self.stage.upper.get(i).and_then(|upper| upper.len.as_ref()) {
            Some(Length::Fixed(len)) => Written::Len(self.checker.value(len, "a length", 1)),
            Some(Length::Dyn(_)) => Written::Dyn,
            None => Written::Inferred,
        }
    }

    fn value(&mut self, i: usize, what: &str, min: usize) -> Option<usize> {
        self.checker.value(self.stage.args.get(i)?, what, min)
    }

    fn signed(&mut self, i: usize) -> Option<i128> {
        let value = self.checker.consts.eval(self.stage.args.get(i)?);
        self.checker.report(value)
    }

    fn bits(&mut self, i: usize, widths: &[u32]) -> Option<(Vec<(usize, u32)>, bool)> {
        let expr = self.stage.args.get(i)?;
        let (mut terms, mut constant) = (Vec::new(), false);
        self.row(expr, widths, &mut terms, &mut constant)
            .then_some((terms, constant))
    }

    fn len(&self, dim: DimId) -> Option<usize> {
        self.checker.len(dim)
    }

    fn name(&self, dim: DimId) -> String {
        self.checker.name(dim).to_owned()
    }

    fn is_dynamic(&self, dim: DimId) -> bool {
        self.checker.scope.dynamic[dim]
    }

    fn counts_tiles(&mut self, first: DimId, upper: DimId) {
        self.checker.scope.dynamic[upper] = true;
        self.checker.scope.merged_into[first] = Some(upper);
    }

    fn is_auto(&self) -> bool {
        self.stage.auto.is_some()
    }

    fn error(&mut self, blame: Blame, message: String) {
        let tokens = self.tokens(blame);
        self.checker.errors.error(tokens, message);
    }
}
