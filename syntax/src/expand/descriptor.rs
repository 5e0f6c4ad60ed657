//! A checked layout's IR as a const expression, so that the runtime can interpret, analyse
//! and draw the generated type.

use super::lit;
use proc_macro2::{Literal, TokenStream};
use quote::quote;
use swizzle_core::ir::{Descriptor, GridDim, Memory, Transform};

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
    quote! {{
        use ::swizzle::__private::{list, text};
        use ::swizzle::ir::*;
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
