//! A checked layout's IR as a const expression, so that the runtime can interpret, analyse
//! and draw the generated type.

use super::super::check::Over;
use crate::print::lit;
use proc_macro2::{Delimiter, Group, Literal, Punct, Spacing, Span, TokenStream, TokenTree};
use quote::{ToTokens, format_ident, quote};
use swizzle_core::ir::transform::Field;
use swizzle_core::ir::{Descriptor, GridDim, Memory, Transform};
use syn::Ident;

/// A layout's descriptor in const data.
pub struct Tokens {
    /// Hidden associated consts of the layout's type, `__DIMS` and `__STAGES`: its dims and
    /// stages, which a layout `over` it reads instead of repeating them (its expansion then
    /// grows with its own stages, not with the whole chain of its bases).
    pub lists: TokenStream,
    /// The descriptor, a const expression over them.
    pub value: TokenStream,
}

/// The descriptor of a layout that starts `over` another or not.
pub fn tokens(descriptor: &Descriptor, over: Option<&Over>) -> Tokens {
    let name = descriptor.name.as_ref();
    let (shared_dims, shared_stages) = over.map_or((0, 0), |over| (over.dims, over.stages));
    let dims = descriptor.dims[shared_dims..].iter().map(|dim| {
        let (name, len) = (dim.name.as_ref(), Literal::usize_unsuffixed(dim.len));
        quote!(Dim::new(#name, #len))
    });
    let stages = descriptor.stages[shared_stages..]
        .iter()
        .map(transform_tokens);
    let dims = shared(
        over.filter(|_| shared_dims > 0),
        "__DIMS",
        "dims_then",
        descriptor.dims.len(),
        quote!(Dim),
        quote!(#(#dims),*),
    );
    let stages = shared(
        over,
        "__STAGES",
        "stages_then",
        descriptor.stages.len(),
        quote!(Transform),
        quote!(#(#stages),*),
    );
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
    let coords = descriptor.coords.iter().map(|&c| lit(c));
    let grid = descriptor.grid.iter().map(|GridDim { dim, coord }| {
        let (dim, coord) = (lit(*dim), lit(*coord));
        quote!(GridDim { dim: #dim, coord: #coord })
    });
    // Dims and stages own `Cow`s, so their arrays must be const items to live for 'static.
    let items = crate::print::paths::descriptor_items();
    let lists = quote! {
        #[doc(hidden)]
        pub const __DIMS: &'static [#items::Dim] = {
            use #items::*;
            #dims
        };
        #[doc(hidden)]
        pub const __STAGES: &'static [#items::Transform] = {
            use #items::*;
            #stages
        };
    };
    let value = quote! {{
        use #items::*;
        Descriptor {
            name: text(#name),
            dims: list(Self::__DIMS),
            memory: #memory,
            stages: list(Self::__STAGES),
            coords: list(&[#(#coords),*]),
            grid: list(&[#(#grid),*]),
        }
    }};
    Tokens { lists, value }
}

/// A list of `len` items of type `item`: `own` alone, or the base's list `base_list` (of
/// `over`'s base) followed by `own`, laid out by the const fn `then`.
fn shared(
    over: Option<&Over>,
    base_list: &str,
    then: &str,
    len: usize,
    item: TokenStream,
    own: TokenStream,
) -> TokenStream {
    let Some(Over { base, .. }) = over else {
        return quote!(&[#own]);
    };
    let (base_list, then) = (format_ident!("{base_list}"), format_ident!("{then}"));
    let (items, len) = (crate::print::paths::descriptor_items(), lit(len));
    quote! {
        const OWN: &[#item] = &[#own];
        &#items::#then::<#len>(#base::#base_list, OWN)
    }
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
