//! `traversal` items → a unit type with CK's `space_filling_curve` API, computed at expansion
//! time: `index(i)` as straight-line arithmetic, the `INDICES` table, steps, and a `for_each`
//! unrolled into one call per access whose index, offset and extent are constants.

use super::{CheckedTraversal, TraversalItem};
use crate::items::layout::Checked;
use crate::print::rust::{ident, rust};
use crate::print::{lit, paths};
use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::quote;
use std::collections::HashSet;
use swizzle_core::budget::TRAVERSAL_UNROLL;
use swizzle_core::emit::code;
use swizzle_core::plans::sfc::Sfc;

/// The rustdoc lists the accesses of traversals up to this long.
const DOC_LIMIT: usize = 64;

pub fn tokens(
    item: &TraversalItem,
    traversal: &CheckedTraversal,
    layout: Option<&Checked>,
) -> TokenStream {
    let TraversalItem {
        attrs, vis, name, ..
    } = item;
    let sfc = &traversal.sfc;
    let rank = sfc.lengths.len();
    let count = sfc.num_access();
    let arrays = |values: &[usize]| {
        let values = values.iter().map(|&v| lit(v));
        quote!([#(#values),*])
    };
    let (lengths, order, vector) = (
        arrays(&sfc.lengths),
        arrays(&sfc.order),
        arrays(&sfc.vector),
    );
    let access_lengths = arrays(&sfc.access_lengths());
    let snake = sfc.snake;
    let axes: Vec<Literal> = (0..rank).map(lit).collect();
    let names = Names::new(&traversal.dims);
    let (locals, from, to) = (&names.dims, &names.from, &names.to);
    let (rank_lit, count_lit) = (lit(rank), lit(count));
    let sfc_value = sfc_value(sfc);
    let (sfc_type, traversal_trait) = (paths::sfc(), paths::traversal());
    let indices = (count <= TRAVERSAL_UNROLL).then(|| {
        let rows = sfc.indices().map(|index| arrays(&index));
        quote! {
            /// Where each access starts, in visiting order.
            pub const INDICES: [[usize; #rank_lit]; #count_lit] = [#(#rows),*];
        }
    });
    let home = Home::new(sfc, layout);
    let doc = doc(sfc, traversal, count);
    let index_fn = index_fn(sfc, &names);
    let wgsl = swizzle_core::emit::wgsl::sfc_index(
        &name.to_string(),
        &format!("Traversal `{name}`: where access `i` starts."),
        &index_program(sfc, &names),
    );
    let extent_fn = extent_fn(sfc);
    let for_each = for_each(sfc, &home, count);
    let declared = crate::print::unit_struct(attrs, vis, name, &doc);
    quote! {
        #declared

        impl #name {
            /// Tensor lengths, in tensor order.
            pub const LENGTHS: [usize; #rank_lit] = #lengths;
            /// Dims from the outermost loop to the innermost.
            pub const ORDER: [usize; #rank_lit] = #order;
            /// Scalars per access along each dim.
            pub const VECTOR: [usize; #rank_lit] = #vector;
            /// Whether inner loops run backwards after an odd number of outer steps.
            pub const SNAKE: bool = #snake;
            /// Accesses along each dim: `ceil(LENGTHS / VECTOR)`.
            pub const ACCESS_LENGTHS: [usize; #rank_lit] = #access_lengths;
            /// Number of accesses.
            pub const NUM_ACCESS: usize = #count_lit;
            #indices
            /// The curve as data, for the runtime (pictures, analyses).
            pub const SFC: #sfc_type = #sfc_value;
            /// `index` as a WGSL function, `fn <name>_index(i: u32) -> array<u32, N>`.
            pub const WGSL: &'static str = #wgsl;

            #index_fn
            #extent_fn

            /// `index(b) − index(a)` (CK's `get_step_between`).
            pub const fn step_between(#from: usize, #to: usize) -> [isize; #rank_lit] {
                let (#from, #to) = (Self::index(#from), Self::index(#to));
                #(let #locals = #to[#axes] as isize - #from[#axes] as isize;)*
                [#(#locals),*]
            }

            /// The step from access `i` to access `i + 1` (CK's `get_forward_step`).
            pub const fn forward_step(i: usize) -> [isize; #rank_lit] {
                Self::step_between(i, i + 1)
            }

            /// The step from access `i` to access `i − 1` (CK's `get_backward_step`).
            pub const fn backward_step(i: usize) -> [isize; #rank_lit] {
                Self::step_between(i, i - 1)
            }

            #for_each
        }

        impl #traversal_trait<#rank_lit> for #name {
            const SFC: #sfc_type = Self::SFC;
            fn index(i: usize) -> [usize; #rank_lit] {
                Self::index(i)
            }
            fn extent(i: usize) -> [usize; #rank_lit] {
                Self::extent(i)
            }
        }
    }
}

/// `sfc` as a const expression of type `Sfc`: a traversal's `SFC`, a kernel's walk.
pub fn sfc_value(sfc: &Sfc) -> TokenStream {
    let arrays = |values: &[usize]| {
        let values = values.iter().map(|&v| lit(v));
        quote!([#(#values),*])
    };
    let (lengths, order, vector, snake) = (
        arrays(&sfc.lengths),
        arrays(&sfc.order),
        arrays(&sfc.vector),
        sfc.snake,
    );
    let (list, sfc_type) = (paths::list(), paths::sfc());
    quote! {{
        use #list;
        #sfc_type {
            lengths: list(&#lengths),
            order: list(&#order),
            vector: list(&#vector),
            snake: #snake,
        }
    }}
}

/// What a visit's offset is measured in: the walked layout, or row-major over the lengths.
enum Home<'a> {
    Layout(&'a Checked),
    RowMajor(Vec<usize>),
}

impl<'a> Home<'a> {
    fn new(sfc: &Sfc, layout: Option<&'a Checked>) -> Self {
        match layout {
            Some(layout) => Home::Layout(layout),
            None => Home::RowMajor(
                swizzle_core::ir::row_major_strides(&sfc.lengths).unwrap_or_default(),
            ),
        }
    }

    /// The offset of `index`, computed now.
    fn offset(&self, index: &[usize]) -> usize {
        match self {
            Home::Layout(layout) => layout.descriptor.offset(index).unwrap_or(0),
            Home::RowMajor(strides) => index.iter().zip(strides).map(|(i, s)| i * s).sum(),
        }
    }

    /// The offset of the run-time `index` array, as code.
    fn offset_code(&self) -> TokenStream {
        match self {
            Home::Layout(layout) => {
                let name = Ident::new(&layout.descriptor.name, Span::call_site());
                let function = match layout.descriptor.is_tiled() {
                    true => quote!(tile_offset),
                    false => quote!(offset),
                };
                let axes = (0..layout.coords.len()).map(lit);
                quote!(#name::#function(#(index[#axes]),*))
            }
            Home::RowMajor(strides) => {
                let terms = strides.iter().enumerate().map(|(axis, &stride)| {
                    let axis = lit(axis);
                    match stride {
                        1 => quote!(index[#axis]),
                        stride => {
                            let stride = lit(stride);
                            quote!(index[#axis] * #stride)
                        }
                    }
                });
                quote!(#(#terms)+*)
            }
        }
    }
}

/// The rustdoc lines: the curve, and its accesses when there are few.
fn doc(sfc: &Sfc, traversal: &CheckedTraversal, count: usize) -> Vec<String> {
    let join = |values: &[usize], sep: &str| {
        values
            .iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join(sep)
    };
    let walks = match &traversal.over {
        Some(layout) => format!(
            "the coordinates of [`{layout}`] ({})",
            join(&sfc.lengths, " × ")
        ),
        None => join(&sfc.lengths, " × "),
    };
    let order: Vec<&str> = sfc
        .order
        .iter()
        .map(|&d| traversal.dims[d].as_str())
        .collect();
    let mut lines = vec![format!(
        " Walks {walks} in {count} accesses of {} scalars, loops {} from the outermost{}.",
        join(&sfc.vector, " × "),
        order.join(", "),
        if sfc.snake { ", as a snake" } else { "" }
    )];
    if count <= DOC_LIMIT {
        let starts: Vec<String> = sfc
            .indices()
            .map(|index| format!("({})", join(&index, ", ")))
            .collect();
        lines.push(String::new());
        lines.push(format!(" Accesses: {}.", starts.join(" ")));
    }
    lines
}

/// `index(i)`: the digits of `i` over the access lengths in loop order, each reversed after
/// an odd number of steps of the loops outside it (snake), times the vector.
fn index_fn(sfc: &Sfc, names: &Names) -> TokenStream {
    let rank = lit(sfc.lengths.len());
    let count = lit(sfc.num_access());
    let param = &names.access;
    let program = index_program(sfc, names);
    let steps = program.steps.iter().map(|step| {
        let name = ident(&step.name);
        let digit = rust(&step.digit);
        let reversed = step.reverse.as_ref().map(|(odd, last)| {
            let (odd, last) = (rust(odd), lit(*last as usize));
            quote!(let #name = if #odd == 1 { #last - #name } else { #name };)
        });
        // Accesses are `vector` scalars apart.
        let scaled = (step.vector > 1).then(|| {
            let v = lit(step.vector as usize);
            quote!(let #name = #name * #v;)
        });
        quote!(let #name = #digit; #reversed #scaled)
    });
    let results = &names.dims;
    quote! {
        /// Where access `i` starts (CK's `get_index`): straight-line integer code.
        pub const fn index(#param: usize) -> [usize; #rank] {
            debug_assert!(#param < #count, "access out of range");
            #(#steps)*
            [#(#results),*]
        }
    }
}

/// The traversal's `index` as the core's program, over the generated locals.
fn index_program(sfc: &Sfc, names: &Names) -> swizzle_core::plans::sfc::IndexProgram {
    let dims: Vec<String> = names.dims.iter().map(|d| d.to_string()).collect();
    sfc.index_program(&dims, &names.access.to_string())
}

/// The locals and parameters of the generated functions: one local per dim, named after it,
/// and parameters that none of them shadows.
struct Names {
    dims: Vec<Ident>,
    /// `index`'s parameter.
    access: Ident,
    /// `step_between`'s parameters.
    from: Ident,
    to: Ident,
}

impl Names {
    fn new(dims: &[String]) -> Self {
        let mut used = HashSet::new();
        let mut fresh = |base: &str| ident(&code::fresh(base, &mut used));
        let dims = dims.iter().map(|d| fresh(d)).collect();
        Names {
            dims,
            access: fresh("i"),
            from: fresh("a"),
            to: fresh("b"),
        }
    }
}

/// `extent(i)`: the vector, cut at the end of dims that it does not divide.
fn extent_fn(sfc: &Sfc) -> TokenStream {
    let rank = lit(sfc.lengths.len());
    let partial: Vec<bool> = sfc
        .lengths
        .iter()
        .zip(sfc.vector.iter())
        .map(|(l, v)| l % v != 0)
        .collect();
    if !partial.contains(&true) {
        return quote! {
            /// How many scalars of an access are in bounds along each dim: all of them, since
            /// every vector divides its length.
            pub const fn extent(_: usize) -> [usize; #rank] {
                Self::VECTOR
            }
        };
    }
    let body = {
        let parts = (0..sfc.lengths.len()).map(|d| {
            let (len, v, axis) = (lit(sfc.lengths[d]), lit(sfc.vector[d]), lit(d));
            if partial[d] {
                quote!(if #len - index[#axis] < #v { #len - index[#axis] } else { #v })
            } else {
                quote!(#v)
            }
        });
        quote!(let index = Self::index(i); [#(#parts),*])
    };
    quote! {
        /// How many scalars of access `i` are in bounds along each dim.
        pub const fn extent(i: usize) -> [usize; #rank] {
            #body
        }
    }
}

/// `for_each`: one call per access with constant fields, or a loop for long traversals.
fn for_each(sfc: &Sfc, home: &Home, count: usize) -> TokenStream {
    let rank = lit(sfc.lengths.len());
    let array = |values: &[usize]| {
        let values = values.iter().map(|&v| Literal::usize_unsuffixed(v));
        quote!([#(#values),*])
    };
    let body = if count <= TRAVERSAL_UNROLL {
        let visits = (0..count).map(|i| {
            let (index, extent) = (sfc.index(i), sfc.extent(i));
            let offset = lit(home.offset(&index));
            let (access, index, extent) = (lit(i), array(&index), array(&extent));
            quote!(visit(Visit { access: #access, index: #index, offset: #offset, extent: #extent });)
        });
        quote!(#(#visits)*)
    } else {
        let offset = home.offset_code();
        quote! {
            for access in 0..Self::NUM_ACCESS {
                let index = Self::index(access);
                visit(Visit { access, index, offset: #offset, extent: Self::extent(access) });
            }
        }
    };
    let visit = paths::visit();
    let doc = match home {
        Home::Layout(layout) => format!(
            " Visits every access in order, with its offset in [`{}`].",
            layout.descriptor.name
        ),
        Home::RowMajor(_) => " Visits every access in order, with its row-major offset.".to_owned(),
    };
    quote! {
        #[doc = #doc]
        #[inline(always)]
        pub fn for_each(mut visit: impl FnMut(#visit<#rank>)) {
            use #visit;
            #body
        }
    }
}

/// Stands in for a traversal with errors: its whole API when its rank is known, so that uses
/// of it raise no further errors.
pub fn stub(item: &TraversalItem, rank: Option<usize>) -> TokenStream {
    let TraversalItem {
        attrs, vis, name, ..
    } = item;
    let visit = paths::visit();
    let items = rank.map(|rank| {
        let rank = lit(rank);
        quote! {
            impl #name {
                pub const LENGTHS: [usize; #rank] = [0; #rank];
                pub const ORDER: [usize; #rank] = [0; #rank];
                pub const VECTOR: [usize; #rank] = [0; #rank];
                pub const SNAKE: bool = false;
                pub const ACCESS_LENGTHS: [usize; #rank] = [0; #rank];
                pub const NUM_ACCESS: usize = 0;
                pub const INDICES: [[usize; #rank]; 0] = [];
                pub const WGSL: &'static str = "";
                pub const fn index(_: usize) -> [usize; #rank] {
                    unreachable!()
                }
                pub const fn extent(_: usize) -> [usize; #rank] {
                    unreachable!()
                }
                pub const fn step_between(_: usize, _: usize) -> [isize; #rank] {
                    unreachable!()
                }
                pub const fn forward_step(_: usize) -> [isize; #rank] {
                    unreachable!()
                }
                pub const fn backward_step(_: usize) -> [isize; #rank] {
                    unreachable!()
                }
                pub fn for_each(_: impl FnMut(#visit<#rank>)) {
                    unreachable!()
                }
            }
        }
    });
    quote! {
        #(#attrs)*
        #vis struct #name;
        #items
    }
}
