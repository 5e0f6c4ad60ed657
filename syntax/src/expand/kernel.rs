//! `kernel` items → a unit type whose `plan()` plans the copy of one tile at first use (from
//! the layouts' descriptors and the walk, a few lines of const data however large the
//! tile), and a `run` function that hands it, the buffers and the layouts' extents to the
//! runtime.

use super::lit;
use crate::ast::{Item, KernelItem, Length, StmtKind};
use crate::check::{Checked, CheckedKernel, Direction};
use proc_macro2::{Ident, TokenStream};
use quote::quote;

pub fn tokens(item: &KernelItem, kernel: &CheckedKernel) -> TokenStream {
    let KernelItem {
        attrs, vis, name, ..
    } = item;
    let plan = plan_fn(kernel);
    let vector = lit(kernel.plan.vector);
    let doc = doc(kernel);
    let full_tile = super::straight::full_tile(kernel);
    let rows = super::simd::rows(kernel, !full_tile.is_empty());
    let run = run_fn(kernel);
    quote! {
        #(#attrs)*
        #[doc = ""]
        #(#[doc = #doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        #vis struct #name;

        impl #name {
            /// Elements each run moves: the longest run contiguous on both sides.
            pub const VECTOR: usize = #vector;
            #plan

            #run

            #rows

            #full_tile
        }
    }
}

/// The rustdoc lines: what is copied, in which runs, with which networks.
pub fn doc(kernel: &CheckedKernel) -> Vec<String> {
    let name = |layout: Option<&Checked>| match layout {
        Some(layout) => format!("[`{}`]", layout.descriptor.name),
        None => "a row-major array".to_owned(),
    };
    let plan = &kernel.plan;
    let tile: Vec<String> = plan.tile.iter().map(usize::to_string).collect();
    let mut lines = vec![format!(
        " Copies {} into {}, one {} tile at a time, in {} runs of up to {} elements per tile.",
        name(kernel.source),
        name(kernel.destination),
        tile.join(" × "),
        plan.runs.len(),
        plan.vector,
    )];
    let networks: Vec<String> = plan
        .networks
        .iter()
        .map(|network| {
            format!(
                "{} lanes ({} permutes for {} stores)",
                network.lanes,
                network.steps.len(),
                network.stores.len()
            )
        })
        .collect();
    lines.push(String::new());
    lines.push(match networks.is_empty() {
        true => " No permute network fits: full tiles are copied in runs too.".to_owned(),
        false => format!(
            " Full tiles use a permute-and-blend network where the CPU has registers of {}.",
            networks.join(", ")
        ),
    });
    lines
}

/// `run`: the buffers, and the layout values of tiled layouts, in; the runtime's copy out.
fn run_fn(kernel: &CheckedKernel) -> TokenStream {
    let tiled = kernel.layout.descriptor.is_tiled();
    // Each side's frame, and the extents, from the layout values (tiled) or the constants.
    // A tiled layout's tiles of pack and unpack may be stacked (`run_stacked`); `stack`
    // is then a parameter of `with_sides`.
    let stackable = tiled && kernel.direction != Direction::Copy;
    let frame = |layout: &Checked, value: TokenStream| {
        let name = type_name(layout);
        match (tiled, stackable) {
            (true, true) => quote!(::swizzle::kernel::Frame::Stacked {
                tiles: &#value.tiles(),
                tile_space: #name::TILE_SPACE,
                stack,
            }),
            (true, false) => quote!(::swizzle::kernel::Frame::Tiles {
                tiles: &#value.tiles(),
                tile_space: #name::TILE_SPACE,
            }),
            (false, _) => {
                let rank = lit(layout.coords.len());
                quote!(::swizzle::kernel::Frame::Tiles { tiles: &[1; #rank], tile_space: #name::SPACE })
            }
        }
    };
    let extents = |layout: &Checked, value: &TokenStream| match tiled {
        true => quote!(&::swizzle::Indexing::extents(#value)),
        false => {
            let name = type_name(layout);
            quote!(&#name::SHAPE)
        }
    };
    let layout = kernel.layout;
    let side = |layout: &Checked, value: TokenStream| {
        let extents = extents(layout, &value);
        let frame = frame(layout, value);
        quote!(::swizzle::kernel::Side { extents: #extents, frame: #frame })
    };
    // The parameters of every `run` (layout values), the image parameter and argument of
    // `with_sides` (pack and unpack only), and its body.
    let (params, image_param, sides) = match kernel.direction {
        Direction::Copy => {
            let source = kernel.source.unwrap_or(layout);
            let (from, to) = (side(source, quote!(from)), side(layout, quote!(to)));
            let mut params = layout_param(tiled, &quote!(from), source);
            params.extend(layout_param(tiled, &quote!(to), layout));
            let sides = quote! {
                let from = #from;
                let to = #to;
                copy(from, to)
            };
            (params, TokenStream::new(), sides)
        }
        direction => {
            let tiles = side(layout, quote!(layout));
            let extents = extents(layout, &quote!(layout));
            let (from, to) = match direction {
                Direction::Pack => (quote!(image), quote!(tiles)),
                _ => (quote!(tiles), quote!(image)),
            };
            let sides = quote! {
                let tiles = #tiles;
                let row_major = ::swizzle::kernel::Side {
                    extents: #extents,
                    frame: ::swizzle::kernel::Frame::RowMajor,
                };
                let image = image.map_or(row_major, ::swizzle::kernel::View::side);
                copy(#from, #to)
            };
            let image = match stackable {
                true => quote! {
                    image: Option<&::swizzle::kernel::View>,
                    stack: usize,
                },
                false => quote!(image: Option<&::swizzle::kernel::View>,),
            };
            (layout_param(tiled, &quote!(layout), layout), image, sides)
        }
    };
    let doc = match kernel.direction {
        Direction::Pack => {
            " Copies `src`, row-major over the layout's extents, into `dst`, stored in the layout."
        }
        Direction::Unpack => {
            " Copies `src`, stored in the layout, into `dst`, row-major over the layout's extents."
        }
        Direction::Copy => {
            " Copies `src`, stored in the first layout, into `dst`, stored in the second."
        }
    };
    let args = layout_args(tiled, kernel);
    // Row-major tiles are stacks of one.
    let (default_image, view_image) = match (kernel.direction, stackable) {
        (Direction::Copy, _) => (TokenStream::new(), TokenStream::new()),
        (_, true) => (quote!(None, 1,), quote!(Some(image), 1,)),
        (_, false) => (quote!(None,), quote!(Some(image),)),
    };
    let run_stacked = match stackable {
        false => TokenStream::new(),
        true => quote! {
            /// [`run`](Self::run) with the layout's tiles stacked `stack` high
            /// (`swizzle::kernel::Frame::Stacked`): the block-linear order of NVIDIA and
            /// Tegra X1 textures, whose GOBs (the tiles) stack into blocks of a height
            /// chosen at run time. The tiled buffer holds whole stacks:
            /// `swizzle::kernel::stacked_space(&layout.tiles(), TILE_SPACE, stack)`
            /// elements.
            pub fn run_stacked<E: ::swizzle::kernel::Element>(
                #params
                stack: usize,
                src: &[E],
                dst: &mut [E],
            ) -> Result<(), ::swizzle::kernel::KernelError> {
                let options = ::swizzle::kernel::Options::default();
                Self::with_sides(#args None, stack, |from, to| {
                    ::swizzle::kernel::copy_with_code(options, Self::plan(), Self::code(), from, to, src, dst)
                })
            }
        },
    };
    let run_view = match kernel.direction {
        Direction::Copy => TokenStream::new(),
        _ => quote! {
            /// [`run`](Self::run) with the row-major image given as a view: rows with a
            /// pitch, column-major, a rectangle of a larger image. Its buffer may be
            /// longer than the view reaches; only the view's elements are read or
            /// written.
            pub fn run_view<E: ::swizzle::kernel::Element>(
                #params
                image: &::swizzle::kernel::View,
                src: &[E],
                dst: &mut [E],
            ) -> Result<(), ::swizzle::kernel::KernelError> {
                let options = ::swizzle::kernel::Options::default();
                Self::with_sides(#args #view_image |from, to| {
                    ::swizzle::kernel::copy_with_code(options, Self::plan(), Self::code(), from, to, src, dst)
                })
            }
        },
    };
    quote! {
        #[doc = #doc]
        /// Elements of `dst` that hold no coordinate (padding, parts of edge tiles outside
        /// the extents) are left as they were; wrong buffer lengths are an error.
        pub fn run<E: ::swizzle::kernel::Element>(
            #params
            src: &[E],
            dst: &mut [E],
        ) -> Result<(), ::swizzle::kernel::KernelError> {
            Self::run_with(#args ::swizzle::kernel::Options::default(), src, dst)
        }

        /// [`run`](Self::run) as `options` say: the SIMD level and the threads.
        pub fn run_with<E: ::swizzle::kernel::Element>(
            #params
            options: ::swizzle::kernel::Options,
            src: &[E],
            dst: &mut [E],
        ) -> Result<(), ::swizzle::kernel::KernelError> {
            Self::with_sides(#args #default_image |from, to| {
                ::swizzle::kernel::copy_with_code(options, Self::plan(), Self::code(), from, to, src, dst)
            })
        }

        /// [`run`](Self::run) over byte buffers of `element_size`-byte elements (one of
        /// `swizzle::kernel::ELEMENT_SIZES`): the pixels of a file format.
        pub fn run_bytes(
            #params
            element_size: usize,
            src: &[u8],
            dst: &mut [u8],
        ) -> Result<(), ::swizzle::kernel::KernelError> {
            let options = ::swizzle::kernel::Options::default();
            Self::with_sides(#args #default_image |from, to| {
                ::swizzle::kernel::copy_bytes(options, element_size, Self::plan(), from, to, src, dst)
            })
        }

        #run_view

        #run_stacked

        /// The two sides of the copy, from the layout values (and the image's view, and
        /// the tiles per stack), handed to `copy`.
        fn with_sides<R>(
            #params
            #image_param
            copy: impl FnOnce(::swizzle::kernel::Side<'_>, ::swizzle::kernel::Side<'_>) -> R,
        ) -> R {
            #sides
        }
    }
}

/// The layout arguments `run` passes on: `layout,` or `from, to,` for tiled layouts.
fn layout_args(tiled: bool, kernel: &CheckedKernel) -> TokenStream {
    match (tiled, kernel.direction) {
        (false, _) => TokenStream::new(),
        (true, Direction::Copy) => quote!(from, to,),
        (true, _) => quote!(layout,),
    }
}

/// `name: &Layout,` for a tiled layout, whose value holds the extents; nothing otherwise.
fn layout_param(tiled: bool, name: &TokenStream, layout: &Checked) -> TokenStream {
    let ty = type_name(layout);
    match tiled {
        true => quote!(#name: &#ty,),
        false => TokenStream::new(),
    }
}

fn type_name(layout: &Checked) -> Ident {
    super::rust::ident(&layout.descriptor.name)
}

/// `plan()`: the plan of one tile, computed once at first use from the two sides and the
/// walk, exactly as the macro planned it to check the kernel.
fn plan_fn(kernel: &CheckedKernel) -> TokenStream {
    let storage = |side: Option<&Checked>| match side {
        Some(layout) => {
            let name = type_name(layout);
            quote!(Storage::Layout(&#name::DESCRIPTOR))
        }
        None => quote!(Storage::RowMajor),
    };
    let (from, to) = match kernel.direction {
        Direction::Pack => (storage(None), storage(Some(kernel.layout))),
        Direction::Unpack => (storage(Some(kernel.layout)), storage(None)),
        Direction::Copy => (storage(kernel.source), storage(kernel.destination)),
    };
    let walk = super::traversal::sfc_value(&kernel.walk);
    quote! {
        /// The copy of one tile: its runs, and its permute networks for full tiles. Planned
        /// once, at first use, from the layouts and the walk (the macro planned it too, to
        /// check the kernel), so that the expansion stays small however large the tile.
        pub fn plan() -> &'static ::swizzle::kernel::Plan {
            use ::swizzle::__private::{Storage, plan};
            static PLAN: ::std::sync::OnceLock<::swizzle::kernel::Plan> =
                ::std::sync::OnceLock::new();
            PLAN.get_or_init(|| {
                let walk = #walk;
                plan(#from, #to, &walk.lengths, &walk)
            })
        }
    }
}

/// Stands in for a kernel with errors: `run` with the arity it would have (known from the
/// layout's `memory` statement), accepting anything, so that uses raise no further errors.
pub fn stub(item: &KernelItem, items: &[Item]) -> TokenStream {
    let KernelItem {
        attrs, vis, name, ..
    } = item;
    let named = item.destination.as_ref().or(item.source.as_ref());
    let tiled = items.iter().any(|other| match other {
        Item::Layout(layout) if Some(&layout.name) == named => layout.body.iter().any(|stmt| {
            matches!(&stmt.kind, StmtKind::Memory { dims, .. } if dims.iter().any(|d| matches!(d.len, Length::Dyn(_))))
        }),
        _ => false,
    });
    let layouts = match (tiled, &item.source, &item.destination) {
        (false, _, _) => 0,
        (true, Some(_), Some(_)) => 2,
        (true, _, _) => 1,
    };
    // A function taking anything with `arity` parameters.
    let accepting = |name: &str, arity: usize| {
        let name = quote::format_ident!("{}", name);
        let params: Vec<Ident> = (0..arity).map(|i| quote::format_ident!("T{}", i)).collect();
        quote! {
            pub fn #name<#(#params),*>(#(_: #params),*) -> Result<(), ::swizzle::kernel::KernelError> {
                unreachable!()
            }
        }
    };
    let run = accepting("run", layouts + 2);
    let run_with = accepting("run_with", layouts + 3);
    let run_bytes = accepting("run_bytes", layouts + 3);
    // Pack and unpack name one layout; they also take the image as a view.
    let (run_view, run_stacked) = match (&item.source, &item.destination) {
        (Some(_), Some(_)) => (TokenStream::new(), TokenStream::new()),
        _ if tiled => (
            accepting("run_view", layouts + 3),
            accepting("run_stacked", layouts + 3),
        ),
        _ => (accepting("run_view", layouts + 3), TokenStream::new()),
    };
    quote! {
        #(#attrs)*
        #vis struct #name;
        impl #name {
            pub const VECTOR: usize = 0;
            #run
            #run_with
            #run_bytes
            #run_view
            #run_stacked
        }
    }
}
