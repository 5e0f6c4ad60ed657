//! `access` items → a unit type whose `access()` builds the pattern for `swizzle::analysis`.

use super::{AccessItem, CheckedAccess};
use crate::print::lit;
use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::quote;
use swizzle_core::analysis::{Access, LaneExpr};

/// The items of an `access`: a unit type whose `access()` builds the pattern for the
/// analyses in `swizzle::analysis`, and its bank configuration.
pub fn access(item: &AccessItem, checked: &CheckedAccess) -> TokenStream {
    let AccessItem {
        attrs, vis, name, ..
    } = item;
    let Access {
        name: text,
        lanes,
        element_bytes,
        vector,
        along,
        coords,
    } = &checked.access;
    let (lanes, bytes, vector) = (lit(*lanes), lit(*element_bytes), lit(*vector));
    let along = match along {
        Some(along) => quote!(Some(#along)),
        None => quote!(None),
    };
    let coords = coords.iter().map(|(coord, expr)| {
        let expr = lane_expr_tokens(expr);
        quote!(.coord(#coord, #expr))
    });
    let (count, width) = (lit(checked.banks.0), lit(checked.banks.1));
    // Only what the expressions use, so that the user's crate sees no unused import.
    let binary = checked
        .access
        .coords
        .iter()
        .any(|(_, expr)| has_operator(expr));
    let operators = binary.then(|| {
        let op = crate::print::paths::op();
        quote!(use #op::*;)
    });
    let (banks, access, lane_expr) = (
        crate::print::paths::banks(),
        crate::print::paths::access(),
        crate::print::paths::lane_expr(),
    );
    quote! {
        #(#attrs)*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        #vis struct #name;

        impl #name {
            /// Shared-memory banks this access is analysed against.
            pub const BANKS: #banks = #banks { count: #count, width_bytes: #width };

            /// The access pattern, for `swizzle::analysis`.
            pub fn access() -> #access {
                use #lane_expr::*;
                #operators
                #access::new(#text, #lanes, #bytes).vector(#vector, #along) #(#coords)*
            }
        }
    }
}

fn has_operator(expr: &LaneExpr) -> bool {
    match expr {
        LaneExpr::Binary(..) => true,
        LaneExpr::Neg(operand) => has_operator(operand),
        LaneExpr::Lane | LaneExpr::Lit(_) => false,
    }
}

fn lane_expr_tokens(expr: &LaneExpr) -> TokenStream {
    match expr {
        LaneExpr::Lane => quote!(Lane),
        LaneExpr::Lit(value) => {
            let value = Literal::i128_unsuffixed(*value);
            quote!(Lit(#value))
        }
        LaneExpr::Neg(operand) => {
            let operand = lane_expr_tokens(operand);
            quote!(Neg(Box::new(#operand)))
        }
        LaneExpr::Binary(op, lhs, rhs) => {
            let op = Ident::new(&format!("{op:?}"), Span::call_site());
            let (lhs, rhs) = (lane_expr_tokens(lhs), lane_expr_tokens(rhs));
            quote!(Binary(#op, Box::new(#lhs), Box::new(#rhs)))
        }
    }
}

/// Stands in for an access with errors, so that uses of it raise no further errors.
pub fn access_stub(item: &AccessItem) -> TokenStream {
    let AccessItem {
        attrs, vis, name, ..
    } = item;
    quote! {
        #(#attrs)*
        #vis struct #name;
    }
}
