//! The nodes of the syntax tree that every item kind shares, as written: every node keeps
//! its tokens so that errors can point at exactly the faulty transform, dim or length. Each
//! kind's own are in its folder (`items/<kind>/`), and an invocation is a list of items
//! ([`Invocation`](crate::items::Invocation)).

use proc_macro2::TokenStream;
use swizzle_core::emit::code::Op;
use syn::{Ident, LitInt};

/// `name: length`, a dim introduced by a statement.
pub struct DimDecl {
    pub name: Ident,
    pub len: Length,
}

/// The length of a declared dim.
pub enum Length {
    /// A constant expression.
    Fixed(Expr),
    /// `dyn`: known only at run time (outer memory dims that count tiles).
    Dyn(syn::Token![dyn]),
}

/// An integer constant expression over literals and named constants.
pub enum Expr {
    Lit(LitInt),
    Const(Ident),
    Neg {
        minus: syn::Token![-],
        operand: Box<Expr>,
    },
    Binary {
        lhs: Box<Expr>,
        op: BinOp,
        rhs: Box<Expr>,
    },
    Paren {
        paren: syn::token::Paren,
        inner: Box<Expr>,
    },
    /// `x[3]`: bit 3 of the dim `x`, in the rows of `bits`.
    Bit {
        dim: Ident,
        bracket: syn::token::Bracket,
        index: Box<Expr>,
    },
}

/// A binary operator of a constant expression, with its tokens for error spans.
pub struct BinOp {
    pub kind: Op,
    pub tokens: TokenStream,
}

impl quote::ToTokens for Expr {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        match self {
            Self::Lit(lit) => lit.to_tokens(tokens),
            Self::Const(name) => name.to_tokens(tokens),
            Self::Neg { minus, operand } => {
                minus.to_tokens(tokens);
                operand.to_tokens(tokens);
            }
            Self::Binary { lhs, op, rhs } => {
                lhs.to_tokens(tokens);
                tokens.extend(op.tokens.clone());
                rhs.to_tokens(tokens);
            }
            Self::Paren { paren, inner } => paren.surround(tokens, |t| inner.to_tokens(t)),
            Self::Bit {
                dim,
                bracket,
                index,
            } => {
                dim.to_tokens(tokens);
                bracket.surround(tokens, |t| index.to_tokens(t));
            }
        }
    }
}

impl quote::ToTokens for DimDecl {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        self.name.to_tokens(tokens);
        self.len.to_tokens(tokens);
    }
}

impl quote::ToTokens for Length {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        match self {
            Self::Fixed(expr) => expr.to_tokens(tokens),
            Self::Dyn(token) => token.to_tokens(tokens),
        }
    }
}
