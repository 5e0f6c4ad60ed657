//! The Rust printer of straight-line [`Code`]: tokens for `quote!`, identifiers raw where the
//! user wrote them raw, masks whose bits read.

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{ToTokens, quote};
use swizzle_core::emit::code::{Code, Op};
use swizzle_core::emit::function::{Condition, Function, Kind, Stmt, Value};

/// [`Code`] as Rust tokens: `quote!(#{Rust(&code)})`.
pub struct Rust<'a>(pub &'a Code);

impl ToTokens for Rust<'_> {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        match self.0 {
            Code::Var(name) => ident(name).to_tokens(tokens),
            Code::Lit(value) => Literal::u128_unsuffixed(*value).to_tokens(tokens),
            Code::Mask(mask) => mask_literal(*mask).to_tokens(tokens),
            Code::Bin(op, lhs, rhs) => {
                let operand = |code: &Code, right: bool| {
                    let code = Rust(code);
                    if Code::needs_parens(*op, code.0, right) {
                        quote!((#code))
                    } else {
                        quote!(#code)
                    }
                };
                let (lhs, rhs) = (operand(lhs, false), operand(rhs, true));
                let op = match op {
                    Op::Add => quote!(+),
                    Op::Sub => quote!(-),
                    Op::Mul => quote!(*),
                    Op::Div => quote!(/),
                    Op::Rem => quote!(%),
                    Op::Shl => quote!(<<),
                    Op::Shr => quote!(>>),
                    Op::And => quote!(&),
                    Op::Or => quote!(|),
                    Op::Xor => quote!(^),
                };
                tokens.extend(quote!(#lhs #op #rhs));
            }
        }
    }
}

/// The identifier `name`, raw (`r#type`) where the user wrote it raw.
pub fn ident(name: &str) -> Ident {
    match name.strip_prefix("r#") {
        Some(raw) => Ident::new_raw(raw, Span::call_site()),
        None => Ident::new(name, Span::call_site()),
    }
}

/// Low masks (`2^k − 1`) read best in decimal up to 255; other masks in binary up to 8 bits,
/// hex beyond.
pub fn mask_literal(mask: u128) -> Literal {
    let bits = 128 - mask.leading_zeros();
    let text = if mask <= 255 && (mask + 1).is_power_of_two() {
        mask.to_string()
    } else if bits <= 8 {
        format!("0b{mask:b}")
    } else {
        format!("0x{mask:x}")
    };
    text.parse()
        .unwrap_or_else(|_| Literal::u128_unsuffixed(mask))
}

/// The tokens of `code`, for binding before a `quote!`.
pub fn rust(code: &Code) -> TokenStream {
    Rust(code).into_token_stream()
}

/// A [`Function`]'s body as Rust: its statements, then its value. The tile functions it
/// calls are `callee(kind)` (`Self::tile_offset`, …).
pub fn body(function: &Function, callee: impl Fn(Kind) -> TokenStream) -> TokenStream {
    let mut tokens = TokenStream::new();
    // A call whose one result is the value is the value: `Base::offset(…)`, not
    // `let offset = Base::offset(…); offset`.
    let tail = match (function.body.last(), &function.result) {
        (Some(Stmt::Call { names, kind, args }), Value::Index(Code::Var(value)))
            if names.len() == 1 && names[0] == *value =>
        {
            let (callee, args) = (callee(*kind), args.iter().map(Rust));
            Some(quote!(#callee(#(#args),*)))
        }
        _ => None,
    };
    let statements = match tail {
        Some(_) => &function.body[..function.body.len() - 1],
        None => &function.body[..],
    };
    for stmt in statements {
        tokens.extend(match stmt {
            Stmt::Let(name, code) => {
                let (name, code) = (ident(name), Rust(code));
                quote!(let #name = #code;)
            }
            Stmt::Call { names, kind, args } => {
                let (callee, args) = (callee(*kind), args.iter().map(Rust));
                let call = quote!(#callee(#(#args),*));
                // A coordinate is an array, even of one index.
                match names.as_slice() {
                    [single] if *kind != Kind::Coord => {
                        let single = ident(single);
                        quote!(let #single = #call;)
                    }
                    names => {
                        let names = names.iter().map(|n| ident(n));
                        quote!(let [#(#names),*] = #call;)
                    }
                }
            }
            Stmt::Require(conditions) => {
                let tested = conjunction(conditions);
                quote!(if !(#tested) { return false; })
            }
        });
    }
    if let Some(tail) = tail {
        tokens.extend(tail);
        return tokens;
    }
    tokens.extend(match &function.result {
        Value::Index(code) => Rust(code).into_token_stream(),
        Value::Holds(conditions) if conditions.is_empty() => quote!(true),
        Value::Holds(conditions) => conjunction(conditions),
        Value::Coordinate(codes) => {
            let codes = codes.iter().map(Rust);
            quote!([#(#codes),*])
        }
    });
    tokens
}

/// `a && b && …`.
pub fn conjunction(conditions: &[Condition]) -> TokenStream {
    let tests = conditions.iter().map(|condition| match condition {
        Condition::AtLeast(code, lo) => {
            let (code, lo) = (Rust(code), Rust(lo));
            quote!(#code >= #lo)
        }
        Condition::Below(code, hi) => {
            let (code, hi) = (Rust(code), Rust(hi));
            quote!(#code < #hi)
        }
        Condition::True(name) => ident(name).into_token_stream(),
    });
    quote!(#(#tests)&&*)
}
