//! A checked layout's IR as a const expression, so that the runtime can interpret, analyse
//! and draw the generated type.

use super::lit;
use proc_macro2::{Delimiter, Group, Literal, Punct, Spacing, Span, TokenStream, TokenTree};
use quote::{ToTokens, quote};
use swizzle_core::ir::{Descriptor, GridDim, Memory, Transform};
use swizzle_core::transform::Field;
use syn::Ident;

/// The descriptor as a const expression.
pub fn tokens(descriptor: &Descriptor) -> TokenStream {
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
    let grid = descriptor.grid.iter().map(|GridDim { dim, coord }| {
        let (dim, coord) = (lit(*dim), lit(*coord));
        quote!(GridDim { dim: #dim, coord: #coord })
    });
    // Dims and stages own `Cow`s, so their arrays must be const items to live for 'static.
    let items = super::paths::descriptor_items();
    quote! {{
        use #items::*;
        const DIMS: &[Dim] = &[#(#dims),*];
        const STAGES: &[Transform] = &[#(#stages),*];
        Descriptor {
            name: text(#name),
            dims: list(DIMS),
            memory: #memory,
            stages: list(STAGES),
            coords: list(&[#(#coords),*]),
            grid: list(&[#(#grid),*]),
        }
    }}
}

/// `Transform::Xor(Xor { lower: 3, upper: 4, key: 1 })`: the variant with its fields,
/// written token by token (a long pipeline has hundreds of them).
fn transform_tokens(transform: &Transform) -> TokenStream {
    let (variant, fields) = transform.fields();
    let span = Span::call_site();
    let punct = |c: char| TokenTree::Punct(Punct::new(c, Spacing::Alone));
    // `list(&[a, b])`.
    let list = |values: Vec<Literal>| {
        let mut items = TokenStream::new();
        for (i, value) in values.into_iter().enumerate() {
            if i > 0 {
                items.extend([punct(',')]);
            }
            items.extend([TokenTree::Literal(value)]);
        }
        let array = TokenTree::Group(Group::new(Delimiter::Bracket, items));
        let argument = TokenStream::from_iter([punct('&'), array]);
        TokenStream::from_iter([
            TokenTree::Ident(Ident::new("list", span)),
            TokenTree::Group(Group::new(Delimiter::Parenthesis, argument)),
        ])
    };
    let mut body = TokenStream::new();
    for (i, (name, field)) in fields.into_iter().enumerate() {
        if i > 0 {
            body.extend([punct(',')]);
        }
        body.extend([TokenTree::Ident(Ident::new(name, span)), punct(':')]);
        match field {
            Field::Dim(value) | Field::Count(value) => {
                body.extend([TokenTree::Literal(lit(value))])
            }
            Field::Unsigned(value) => {
                body.extend([TokenTree::Literal(Literal::u32_unsuffixed(value))])
            }
            Field::Signed(value) => body.extend(Literal::i32_unsuffixed(value).into_token_stream()),
            Field::Dims(values) | Field::Counts(values) => {
                body.extend(list(values.iter().map(|&v| lit(v)).collect()))
            }
            Field::Bits(values) => body.extend(list(
                values
                    .iter()
                    .map(|&v| Literal::u128_unsuffixed(v))
                    .collect(),
            )),
        }
    }
    let variant = Ident::new(variant, span);
    let structure = Group::new(Delimiter::Brace, body);
    quote!(Transform::#variant(#variant #structure))
}
