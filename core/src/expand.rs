//! Checked IR + canonical form → the Rust items of one layout (DESIGN.md §5).

use crate::analysis::{Access, LaneExpr};
use crate::assertions;
use crate::ast::{AccessItem, LayoutItem, StmtKind};
use crate::auto::Choice;
use crate::canon::{Canonical, DEFAULT_ENUMERATION_LIMIT, REQUESTED_ENUMERATION_LIMIT};
use crate::check::{Checked, CheckedAccess};
use crate::code::{self, Block, Code};
use crate::errors::Errors;
use crate::ir::{Descriptor, Memory, Transform};
use crate::table;
use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::quote;
use std::collections::HashMap;

/// Everything the expansion of one layout needs, computed once.
pub struct Expansion<'a> {
    item: &'a LayoutItem,
    checked: &'a Checked,
    canonical: Canonical,
    inverse: Option<Block>,
    auto: Option<Choice>,
}

impl<'a> Expansion<'a> {
    /// Builds the canonical form and the inverse, and verifies the layout's assertions; an
    /// `inverse;` request on a layout that is not a bijection is an error naming two
    /// colliding coordinates.
    pub fn new(
        item: &'a LayoutItem,
        checked: &'a Checked,
        auto: Option<Choice>,
        accesses: &HashMap<String, CheckedAccess>,
        errors: &mut Errors,
    ) -> Option<Self> {
        let descriptor = &checked.descriptor;
        let canonical = Canonical::new(descriptor);
        let before = errors.len();
        assertions::verify(descriptor, &canonical, &checked.claims, accesses, errors);
        let limit = match checked.inverse {
            Some(_) => REQUESTED_ENUMERATION_LIMIT,
            None => DEFAULT_ENUMERATION_LIMIT,
        };
        let inverse = canonical.inverse_block(descriptor, limit);
        if let (Some(keyword), None) = (&checked.inverse, &inverse) {
            let why = canonical
                .bijectivity(descriptor, limit)
                .err()
                .unwrap_or_default();
            let fix = "remove `inverse;` or make every offset belong to exactly one coordinate";
            errors.error(
                keyword,
                format!("`inverse` needs a bijection, but {why}: {fix}"),
            );
        }
        (errors.len() == before).then_some(Expansion {
            item,
            checked,
            canonical,
            inverse,
            auto,
        })
    }

    pub fn to_tokens(&self) -> TokenStream {
        let descriptor = &self.checked.descriptor;
        let LayoutItem {
            attrs, vis, name, ..
        } = self.item;
        let rank = Literal::usize_unsuffixed(descriptor.coords.len());
        let coords = &self.checked.coords;
        let shape = descriptor
            .shape()
            .into_iter()
            .map(Literal::usize_unsuffixed);
        let size = Literal::usize_unsuffixed(descriptor.size().unwrap_or(0));
        let space = Literal::usize_unsuffixed(descriptor.space().unwrap_or(0));
        let table = table::markdown(descriptor).map(|table| {
            let lines = table.lines().map(|line| format!(" {line}"));
            quote!(#[doc = ""] #(#[doc = #lines])*)
        });
        let auto = self.auto.as_ref().map(|choice| {
            let line = auto_doc(choice);
            quote!(#[doc = ""] #[doc = #line])
        });
        let ir = descriptor_tokens(descriptor);
        let offset = self.offset_fn();
        let is_valid = self.is_valid_fn();
        let coord = self.coord_fn();
        let trait_is_valid = is_valid.as_ref().map(|_| {
            quote! {
                fn is_valid(coord: [usize; #rank]) -> bool {
                    let [#(#coords),*] = coord;
                    Self::is_valid(#(#coords),*)
                }
            }
        });
        let bijective = coord.as_ref().map(|_| {
            quote! {
                impl ::swizzle::Bijective<#rank> for #name {
                    fn coord(offset: usize) -> [usize; #rank] {
                        Self::coord(offset)
                    }
                }
            }
        });
        quote! {
            #(#attrs)*
            #table
            #auto
            #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
            #vis struct #name;

            impl #name {
                /// Coordinate lengths, in `coords` order.
                pub const SHAPE: [usize; #rank] = [#(#shape),*];
                /// Number of coordinates.
                pub const SIZE: usize = #size;
                /// Number of elements the offsets index into.
                pub const SPACE: usize = #space;
                /// The checked transform pipeline, for analysis and pictures at run time.
                pub const DESCRIPTOR: ::swizzle::ir::Descriptor = #ir;
                #offset
                #is_valid
                #coord
            }

            impl ::swizzle::Layout<#rank> for #name {
                const SHAPE: [usize; #rank] = Self::SHAPE;
                const SIZE: usize = Self::SIZE;
                const SPACE: usize = Self::SPACE;
                const DESCRIPTOR: ::swizzle::ir::Descriptor = Self::DESCRIPTOR;
                fn offset(coord: [usize; #rank]) -> usize {
                    let [#(#coords),*] = coord;
                    Self::offset(#(#coords),*)
                }
                #trait_is_valid
            }

            #bijective
        }
    }

    fn offset_fn(&self) -> TokenStream {
        let coords = &self.checked.coords;
        let block = self.canonical.offset_block();
        let locals = locals(&block);
        let result = &block.results;
        let bounds = coords
            .iter()
            .zip(self.checked.descriptor.shape())
            .map(|(c, len)| {
                let len = Literal::usize_unsuffixed(len);
                quote!(#c < #len)
            });
        let bounds: Vec<TokenStream> = bounds.collect();
        let check = if self.canonical.valid.is_empty() {
            // A layout without coordinates (everything frozen) has nothing to check.
            (!bounds.is_empty())
                .then(|| quote!(debug_assert!(#(#bounds)&&*, "coordinate out of bounds");))
        } else {
            Some(
                quote!(debug_assert!(Self::is_valid(#(#coords),*), "coordinate out of bounds or in the padding");),
            )
        };
        quote! {
            /// The memory offset of a coordinate: straight-line integer code.
            #[inline(always)]
            pub const fn offset(#(#coords: usize),*) -> usize {
                #check
                #(#locals)*
                #(#result)*
            }
        }
    }

    fn is_valid_fn(&self) -> Option<TokenStream> {
        if self.canonical.valid.is_empty() {
            return None;
        }
        let coords = &self.checked.coords;
        let valid = self.canonical.valid_code();
        // A coordinate's own padding bound `x < hi` makes its shape bound redundant.
        let bounds = coords
            .iter()
            .zip(self.checked.descriptor.shape())
            .filter_map(|(c, len)| {
                let bounded = valid
                    .iter()
                    .any(|(code, _, hi)| *code == Code::var(&c.to_string()) && hi.is_some());
                let len = Literal::usize_unsuffixed(len);
                (!bounded).then(|| quote!(#c < #len))
            });
        let padding = valid.iter().flat_map(|(code, lo, hi)| {
            let lo = lo.map(|lo| {
                let lo = Literal::i128_unsuffixed(lo);
                quote!(#code >= #lo)
            });
            let hi = hi.map(|hi| {
                let hi = Literal::i128_unsuffixed(hi);
                quote!(#code < #hi)
            });
            lo.into_iter().chain(hi)
        });
        let conditions: Vec<TokenStream> = bounds.chain(padding).collect();
        let conditions = if conditions.is_empty() {
            quote!(true)
        } else {
            quote!(#(#conditions)&&*)
        };
        Some(quote! {
            /// Whether a coordinate is inside the shape and outside every padding.
            #[inline(always)]
            pub const fn is_valid(#(#coords: usize),*) -> bool {
                #conditions
            }
        })
    }

    fn coord_fn(&self) -> Option<TokenStream> {
        let block = self.inverse.as_ref()?;
        let coords = &self.checked.coords;
        let locals = locals(block);
        let results = &block.results;
        let space = Literal::usize_unsuffixed(self.checked.descriptor.space().unwrap_or(0));
        let rank = Literal::usize_unsuffixed(coords.len());
        // Named coordinates read best, unless one is called `offset` and would shadow the
        // parameter before the others are computed.
        let value = if coords.iter().any(|c| c == "offset") {
            quote!([#(#results),*])
        } else {
            quote!(#(let #coords = #results;)* [#(#coords),*])
        };
        Some(quote! {
            /// The coordinate stored at `offset`: the inverse of [`Self::offset`].
            #[inline(always)]
            pub const fn coord(offset: usize) -> [usize; #rank] {
                debug_assert!(offset < #space, "offset out of range");
                #(#locals)*
                #value
            }
        })
    }
}

fn locals(block: &Block) -> Vec<TokenStream> {
    block
        .locals
        .iter()
        .map(|(name, code)| {
            let name = code::ident(name);
            quote!(let #name = #code;)
        })
        .collect()
}

/// The rustdoc line that tells what `swizzle (auto ...)` chose.
fn auto_doc(choice: &Choice) -> String {
    let Choice {
        bits,
        base,
        shift,
        degrees,
        vector,
        candidates,
    } = choice;
    let degrees: Vec<String> = degrees
        .iter()
        .map(|(access, degree)| format!("`{access}` {degree}-way"))
        .collect();
    format!(
        " `swizzle (auto)` chose `({bits}, {base}, {shift})`, CuTe `Swizzle<{bits}, {base}, {shift}>`, \
         out of {candidates} candidates: bank conflicts {}; {vector} elements contiguous.",
        degrees.join(", ")
    )
}

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
    let operators = binary.then(|| quote!(BinOpKind::*,));
    quote! {
        #(#attrs)*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        #vis struct #name;

        impl #name {
            /// Shared-memory banks this access is analysed against.
            pub const BANKS: ::swizzle::analysis::banks::Banks =
                ::swizzle::analysis::banks::Banks { count: #count, width_bytes: #width };

            /// The access pattern, for `swizzle::analysis`.
            pub fn access() -> ::swizzle::analysis::Access {
                use ::swizzle::analysis::{#operators Access, LaneExpr::*};
                Access::new(#text, #lanes, #bytes).vector(#vector, #along) #(#coords)*
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

/// The descriptor as a const expression.
fn descriptor_tokens(descriptor: &Descriptor) -> TokenStream {
    let name = descriptor.name.as_ref();
    let dims = descriptor.dims.iter().map(|dim| {
        let (name, len) = (dim.name.as_ref(), Literal::usize_unsuffixed(dim.len));
        quote!(Dim::new(#name, #len))
    });
    let Memory {
        dims: memory_dims,
        strides,
    } = &descriptor.memory;
    let (memory_dims, strides) = (
        memory_dims.iter().map(|&d| lit(d)),
        strides.iter().map(|&s| lit(s)),
    );
    let memory =
        quote!(Memory { dims: list(&[#(#memory_dims),*]), strides: list(&[#(#strides),*]) });
    let stages = descriptor.stages.iter().map(transform_tokens);
    let coords = descriptor.coords.iter().map(|&c| lit(c));
    // Dims and stages own `Cow`s, so their arrays must be const items to live for 'static.
    quote! {{
        use ::swizzle::ir::*;
        const DIMS: &[Dim] = &[#(#dims),*];
        const STAGES: &[Transform] = &[#(#stages),*];
        Descriptor {
            name: text(#name),
            dims: list(DIMS),
            memory: #memory,
            stages: list(STAGES),
            coords: list(&[#(#coords),*]),
        }
    }}
}

fn transform_tokens(transform: &Transform) -> TokenStream {
    let list = |ids: &[usize]| {
        let ids = ids.iter().map(|&id| lit(id));
        quote!(list(&[#(#ids),*]))
    };
    match transform {
        Transform::Unmerge { lower, upper } => {
            let (lower, upper) = (lit(*lower), list(upper));
            quote!(Transform::Unmerge { lower: #lower, upper: #upper })
        }
        Transform::Merge { lower, upper } => {
            let (lower, upper) = (list(lower), lit(*upper));
            quote!(Transform::Merge { lower: #lower, upper: #upper })
        }
        Transform::Xor { lower, upper, key } => {
            let (lower, upper, key) = (lit(*lower), lit(*upper), lit(*key));
            quote!(Transform::Xor { lower: #lower, upper: #upper, key: #key })
        }
        Transform::Morton { lower, upper } => {
            let (lower, upper) = (lit(*lower), list(upper));
            quote!(Transform::Morton { lower: #lower, upper: #upper })
        }
        Transform::Embed {
            lower,
            upper,
            strides,
        } => {
            let (lower, upper, strides) = (lit(*lower), list(upper), list(strides));
            quote!(Transform::Embed { lower: #lower, upper: #upper, strides: #strides })
        }
        Transform::Pad {
            lower,
            upper,
            left,
            right,
        } => {
            let (lower, upper, left, right) = (lit(*lower), lit(*upper), lit(*left), lit(*right));
            quote!(Transform::Pad { lower: #lower, upper: #upper, left: #left, right: #right })
        }
        Transform::Slice {
            lower,
            upper,
            begin,
        } => {
            let (lower, upper, begin) = (lit(*lower), lit(*upper), lit(*begin));
            quote!(Transform::Slice { lower: #lower, upper: #upper, begin: #begin })
        }
        Transform::Offset { lower, upper, by } => {
            let (lower, upper, by) = (lit(*lower), lit(*upper), lit(*by));
            quote!(Transform::Offset { lower: #lower, upper: #upper, by: #by })
        }
        Transform::Freeze { lower, value } => {
            let (lower, value) = (lit(*lower), lit(*value));
            quote!(Transform::Freeze { lower: #lower, value: #value })
        }
        Transform::Replicate { upper } => {
            let upper = list(upper);
            quote!(Transform::Replicate { upper: #upper })
        }
        Transform::Swizzle {
            lower,
            upper,
            bits,
            base,
            shift,
        } => {
            let (lower, upper) = (lit(*lower), lit(*upper));
            let (bits, base, shift) = (
                Literal::u32_unsuffixed(*bits),
                Literal::u32_unsuffixed(*base),
                Literal::i32_unsuffixed(*shift),
            );
            quote!(Transform::Swizzle { lower: #lower, upper: #upper, bits: #bits, base: #base, shift: #shift })
        }
    }
}

/// Items that stand in for a layout with errors, so that uses of it raise no further errors.
pub fn stub(item: &LayoutItem) -> TokenStream {
    let LayoutItem {
        attrs,
        vis,
        name,
        body,
    } = item;
    let coords = body.iter().find_map(|stmt| match &stmt.kind {
        StmtKind::Coords { names } => Some(names.len()),
        _ => None,
    });
    let asked = |wanted: fn(&StmtKind) -> bool| body.iter().any(|stmt| wanted(&stmt.kind));
    let inverse = asked(|kind| matches!(kind, StmtKind::Inverse { .. }));
    // Everything a layout of this rank can offer, so that no use of it raises a second
    // error; parameters are `_`, whatever the (maybe duplicated) coordinate names.
    let items = coords.map(|rank| {
        let params = (0..rank).map(|_| quote!(_: usize));
        let params_again = params.clone();
        let rank = lit(rank);
        let coord = inverse.then(|| {
            quote! {
                pub const fn coord(_: usize) -> [usize; #rank] {
                    unreachable!()
                }
            }
        });
        quote! {
            impl #name {
                pub const SHAPE: [usize; #rank] = [0; #rank];
                pub const SIZE: usize = 0;
                pub const SPACE: usize = 0;
                pub const fn offset(#(#params),*) -> usize {
                    unreachable!()
                }
                pub const fn is_valid(#(#params_again),*) -> bool {
                    unreachable!()
                }
                #coord
            }
        }
    });
    quote! {
        #(#attrs)*
        #vis struct #name;
        #items
    }
}

fn lit(value: usize) -> Literal {
    Literal::usize_unsuffixed(value)
}
