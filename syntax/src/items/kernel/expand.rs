//! `kernel` items → a unit type whose `plan()` plans the copy of one tile at first use (from
//! the layouts' descriptors and the walk, a few lines of const data however large the
//! tile), and a `run` function that hands it, the buffers and the layouts' extents to the
//! runtime.

use super::{CheckedKernel, Direction, KernelItem};
use crate::ast::Length;
use crate::items::Item;
use crate::items::layout::{Checked, StmtKind};
use crate::print::{lit, paths};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};
use swizzle_core::plans::kernel::Stacked;

pub fn tokens(item: &KernelItem, kernel: &CheckedKernel) -> TokenStream {
    let KernelItem {
        attrs, vis, name, ..
    } = item;
    let plan = plan_fn(kernel);
    let vector = lit(kernel.plan.vector);
    let doc = doc(kernel);
    let full_tiles = super::simd::full_tiles(name, &kernel.plan, kernel.direction);
    // A tile copied as the sub-tiles it stacks: their plan, and their tables on a type of
    // their own, so that `plan()` and `code()` still describe the whole tile.
    let (stacked_plan, stacked_tiles) = match &kernel.stacked {
        Some(stacked) => {
            let tiles = sub_tiles_type(name);
            let full_tiles = super::simd::full_tiles(&tiles, &stacked.plan, kernel.direction);
            let doc = format!(
                " The tables of one sub-tile of [`{name}`]'s tiles, which its entry points copy."
            );
            let tiles = quote! {
                #[doc = #doc]
                struct #tiles;
                #full_tiles
            };
            (stacked_plan_fn(kernel), tiles)
        }
        None => (TokenStream::new(), TokenStream::new()),
    };
    let run = run_fn(name, kernel);
    let (element, generated_code) = (paths::element(), paths::generated_code());
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
            #stacked_plan

            #run

            /// The rows and the straight-line tile the runtime unrolls from the tables.
            #[doc(hidden)]
            pub fn code<E: #element>() -> #generated_code<E> {
                #generated_code::of::<Self>()
            }
        }

        #full_tiles
        #stacked_tiles
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
    if let Some(stacked) = &kernel.stacked {
        let sub: Vec<String> = stacked.plan.tile.iter().map(usize::to_string).collect();
        let first = &kernel.layout.descriptor;
        let along = &first.dims[first.coords[0]].name;
        lines.push(String::new());
        lines.push(format!(
            " A tile is {} sub-tiles of {} stacked along `{along}`, one after another: the \
             entry points copy those, stacked, in {} runs each, whose generated SIMD rows fit \
             the registers where the whole tile's do not.",
            stacked.stack,
            sub.join(" × "),
            stacked.plan.runs.len(),
        ));
    }
    lines
}

/// `run`: the buffers, and the layout values of tiled layouts, in; the runtime's copy out.
fn run_fn(name: &Ident, kernel: &CheckedKernel) -> TokenStream {
    let tiled = kernel.layout.descriptor.is_tiled();
    // Each side's frame, and the extents, from the layout values (tiled) or the constants.
    // A tiled layout's tiles of pack and unpack may be stacked (`run_stacked`); `stack`
    // is then a parameter of `with_sides`.
    let stackable = tiled && kernel.direction != Direction::Copy;
    let (frame_type, side_type, view) = (paths::frame(), paths::side(), paths::view());
    let indexing = paths::indexing();
    let frame = |layout: &Checked, value: TokenStream| {
        let name = type_name(layout);
        match (tiled, stackable) {
            (true, true) => quote!(#frame_type::Stacked {
                tiles: &#value.tiles(),
                tile_space: #name::TILE_SPACE,
                stack,
            }),
            (true, false) => quote!(#frame_type::Tiles {
                tiles: &#value.tiles(),
                tile_space: #name::TILE_SPACE,
            }),
            (false, _) => {
                let rank = lit(layout.coords.len());
                quote!(#frame_type::Tiles { tiles: &[1; #rank], tile_space: #name::SPACE })
            }
        }
    };
    let extents = |layout: &Checked, value: &TokenStream| match tiled {
        true => quote!(&#indexing::extents(#value)),
        false => {
            let name = type_name(layout);
            quote!(&#name::SHAPE)
        }
    };
    let layout = kernel.layout;
    let side = |layout: &Checked, value: TokenStream| {
        let extents = extents(layout, &value);
        let frame = frame(layout, value);
        quote!(#side_type { extents: #extents, frame: #frame })
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
            let tiles = match &kernel.stacked {
                Some(stacked) => stacked_side(layout, stacked),
                None => {
                    let tiles = side(layout, quote!(layout));
                    quote!(let tiles = #tiles;)
                }
            };
            let extents = extents(layout, &quote!(layout));
            let (from, to) = match direction {
                Direction::Pack => (quote!(image), quote!(tiles)),
                _ => (quote!(tiles), quote!(image)),
            };
            let sides = quote! {
                #tiles
                let row_major = #side_type {
                    extents: #extents,
                    frame: #frame_type::RowMajor,
                };
                let image = image.map_or(row_major, #view::side);
                copy(#from, #to)
            };
            let image = match stackable {
                true => quote! {
                    image: Option<&#view>,
                    stack: usize,
                },
                false => quote!(image: Option<&#view>,),
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
    let code = Code::of(name, kernel);
    let entries = Entry::all(kernel.direction == Direction::Copy, stackable);
    let entries = entries
        .iter()
        .map(|entry| entry.tokens(&params, &args, stackable, doc, &code));
    let (element, kernel_error, options, route) = (
        paths::element(),
        paths::kernel_error(),
        paths::options(),
        paths::route(),
    );
    let route_body = match kernel.stacked {
        None => quote!(Self::code::<E>().route(Self::plan(), options)),
        Some(_) => {
            let Code { plan, typed, .. } = &code;
            quote!(#typed.route(#plan, options))
        }
    };
    quote! {
        #(#entries)*

        /// The route a copy of `E` takes on this CPU with `options`: the SIMD level, what
        /// copies the full tiles (generated SIMD rows, the interpreted network, the
        /// straight-line tile or runs), and why. `run_with` with the same options takes
        /// it; a level this CPU does not run is the same error.
        pub fn route<E: #element>(options: #options) -> Result<#route, #kernel_error> {
            #route_body
        }

        /// The two sides of the copy, from the layout values (and the image's view, and
        /// the tiles per stack), handed to `copy`.
        fn with_sides<R>(
            #params
            #image_param
            copy: impl FnOnce(#side_type<'_>, #side_type<'_>) -> R,
        ) -> R {
            #sides
        }
    }
}

/// How an entry point sees the row-major side of pack and unpack.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Image {
    /// No image: a copy between two layouts.
    Absent,
    /// Dense, over the layout's extents.
    RowMajor,
    /// A strided view (`run_view`).
    View,
    /// Row-major, with the layout's tiles stacked (`run_stacked`).
    Stacked,
}

/// One entry point of a kernel: `run`, `run_view` or `run_stacked`, over typed or byte
/// buffers, with default options or given ones (`_with`). Every combination exists, so
/// that each knob is on every entry point.
struct Entry {
    image: Image,
    bytes: bool,
    with_options: bool,
}

impl Entry {
    /// Every entry point of a kernel: a copy between layouts has no image; only tiled pack
    /// and unpack stack.
    fn all(copy: bool, stackable: bool) -> Vec<Entry> {
        let images: &[Image] = match (copy, stackable) {
            (true, _) => &[Image::Absent],
            (false, false) => &[Image::RowMajor, Image::View],
            (false, true) => &[Image::RowMajor, Image::View, Image::Stacked],
        };
        let mut entries = Vec::new();
        for &image in images {
            for bytes in [false, true] {
                for with_options in [false, true] {
                    entries.push(Entry {
                        image,
                        bytes,
                        with_options,
                    });
                }
            }
        }
        entries
    }

    /// `run`, `run_view_bytes_with`, …
    fn name(&self, with_options: bool) -> Ident {
        let image = match self.image {
            Image::Absent | Image::RowMajor => "",
            Image::View => "_view",
            Image::Stacked => "_stacked",
        };
        let bytes = if self.bytes { "_bytes" } else { "" };
        let with = if with_options { "_with" } else { "" };
        format_ident!("run{}{}{}", image, bytes, with)
    }

    /// Parameters between the layouts and the buffers, beyond the layouts': the image's
    /// view or the stack, the options, the element size.
    fn arity(&self) -> usize {
        usize::from(matches!(self.image, Image::View | Image::Stacked))
            + usize::from(self.with_options)
            + usize::from(self.bytes)
    }

    /// The entry point: `_with` forms copy, the others call them with default options.
    fn tokens(
        &self,
        params: &TokenStream,
        args: &TokenStream,
        stackable: bool,
        run_doc: &str,
        code: &Code,
    ) -> TokenStream {
        let (element, kernel_error, options, view) = (
            paths::element(),
            paths::kernel_error(),
            paths::options(),
            paths::view(),
        );
        let (image_param, image_arg) = match self.image {
            Image::Absent | Image::RowMajor => (TokenStream::new(), TokenStream::new()),
            Image::View => (quote!(image: &#view,), quote!(image,)),
            Image::Stacked => (quote!(stack: usize,), quote!(stack,)),
        };
        // The arguments of `with_sides` after the layouts: the view, and the stack (row-major
        // tiles are stacks of one).
        let sides = match (self.image, stackable) {
            (Image::Absent, _) => TokenStream::new(),
            (Image::RowMajor, false) => quote!(None,),
            (Image::RowMajor, true) => quote!(None, 1,),
            (Image::View, false) => quote!(Some(image),),
            (Image::View, true) => quote!(Some(image), 1,),
            (Image::Stacked, _) => quote!(None, stack,),
        };
        let (generic, element_size, src, dst) = match self.bytes {
            true => (
                TokenStream::new(),
                quote!(element_size: usize,),
                quote!(&[u8]),
                quote!(&mut [u8]),
            ),
            false => (
                quote!(<E: #element>),
                TokenStream::new(),
                quote!(&[E]),
                quote!(&mut [E]),
            ),
        };
        let name = self.name(self.with_options);
        let doc = self.doc(run_doc);
        let body = match self.with_options {
            false => {
                let with = self.name(true);
                let element_size = self.bytes.then(|| quote!(element_size,));
                quote!(Self::#with(#args #image_arg #options::default(), #element_size src, dst))
            }
            true => {
                let Code {
                    plan,
                    typed,
                    tables,
                } = code;
                let copy = match self.bytes {
                    // The code generated for `[u8; element_size]`: the typed forms' route.
                    true => {
                        let (copy_bytes, code_of) = (paths::copy_bytes_with(), paths::code_of());
                        quote!(#copy_bytes::<#code_of<#tables>>(options, element_size, #plan, from, to, src, dst))
                    }
                    false => {
                        let copy_generated = paths::copy_generated();
                        quote!(#copy_generated(options, #plan, #typed, from, to, src, dst))
                    }
                };
                quote!(Self::with_sides(#args #sides |from, to| #copy))
            }
        };
        let options_param = self.with_options.then(|| quote!(options: #options,));
        quote! {
            #(#[doc = #doc])*
            pub fn #name #generic(
                #params
                #image_param
                #options_param
                #element_size
                src: #src,
                dst: #dst,
            ) -> Result<(), #kernel_error> {
                #body
            }
        }
    }

    /// The rustdoc lines: `run`'s own, the others' relative to the entry they refine.
    fn doc(&self, run_doc: &str) -> Vec<String> {
        let base = Entry {
            bytes: false,
            with_options: false,
            ..*self
        };
        match (self.image, self.bytes, self.with_options) {
            (Image::Absent | Image::RowMajor, false, false) => vec![
                run_doc.to_owned(),
                " Elements of `dst` that hold no coordinate (padding, parts of edge tiles outside"
                    .to_owned(),
                " the extents) are left as they were; wrong buffer lengths are an error."
                    .to_owned(),
            ],
            (Image::View, false, false) => vec![
                " [`run`](Self::run) with the row-major image given as a view: rows with a"
                    .to_owned(),
                " pitch, column-major, a rectangle of a larger image. Its buffer may be longer"
                    .to_owned(),
                " than the view reaches; only the view's elements are read or written.".to_owned(),
            ],
            (Image::Stacked, false, false) => vec![
                " [`run`](Self::run) with the layout's tiles stacked `stack` high".to_owned(),
                " (`swizzle::kernel::Frame::Stacked`): the block-linear order of NVIDIA and"
                    .to_owned(),
                " Tegra X1 textures, whose GOBs (the tiles) stack into blocks of a height chosen"
                    .to_owned(),
                " at run time. The tiled buffer holds whole stacks:".to_owned(),
                " `swizzle::kernel::stacked_space(&layout.tiles(), TILE_SPACE, stack)` elements."
                    .to_owned(),
            ],
            (_, true, false) => vec![format!(
                concat!(
                    " [`{0}`](Self::{0}) over byte buffers of `element_size`-byte elements (one ",
                    "of `swizzle::kernel::ELEMENT_SIZES`): the pixels of a file format. Extents ",
                    "and views count elements."
                ),
                base.name(false)
            )],
            (_, _, true) => {
                let plain = self.name(false);
                vec![format!(
                    concat!(
                        " [`{0}`](Self::{0}) as `options` say: the SIMD level and the threads ",
                        "([`route`](Self::route) tells the path they give)."
                    ),
                    plain
                )]
            }
        }
    }
}

/// What the entry points copy with: the kernel's plan and code, or, where its tile is
/// copied as the sub-tiles it stacks, theirs.
struct Code {
    /// The plan: `Self::plan()` or `Self::stacked_plan()`.
    plan: TokenStream,
    /// The generated code for `E`: `Self::code()`, or the sub-tiles' tables' (named with
    /// `E`, so that `route` can take it too).
    typed: TokenStream,
    /// The type whose `FullTiles` the byte copies take.
    tables: TokenStream,
}

impl Code {
    fn of(name: &Ident, kernel: &CheckedKernel) -> Code {
        match kernel.stacked {
            None => Code {
                plan: quote!(Self::plan()),
                typed: quote!(Self::code()),
                tables: quote!(Self),
            },
            Some(_) => {
                let (tiles, generated_code) = (sub_tiles_type(name), paths::generated_code());
                Code {
                    plan: quote!(Self::stacked_plan()),
                    typed: quote!(#generated_code::<E>::of::<#tiles>()),
                    tables: quote!(#tiles),
                }
            }
        }
    }
}

/// The type that holds the tables of a kernel's sub-tiles, where it copies its tiles as the
/// sub-tiles they stack.
fn sub_tiles_type(name: &Ident) -> Ident {
    format_ident!("__{}SubTiles", name)
}

/// `let tiles = Side { .. };` for a layout whose tiles are `stacked`: the grid of its
/// sub-tiles, a stack of them per tile, stacked as the caller stacks the tiles. The
/// sub-tiles along the first coordinate are those the extents reach; their stacks are the
/// layout's tiles, so the buffer is the same (`stacked_space`), and so are the errors: a
/// stack of 0 is one of 0, and a stack whose sub-tiles saturate `usize` has more elements
/// than `usize` holds either way (a tile has at least as many elements as sub-tiles).
fn stacked_side(layout: &Checked, stacked: &Stacked) -> TokenStream {
    let (side_type, frame_type, indexing) = (paths::side(), paths::frame(), paths::indexing());
    let name = type_name(layout);
    let (count, rows) = (lit(stacked.stack), lit(stacked.plan.tile[0]));
    quote! {
        let extents = #indexing::extents(layout);
        let mut sub_tiles = layout.tiles();
        sub_tiles[0] = extents[0].div_ceil(#rows);
        let tiles = #side_type {
            extents: &extents,
            frame: #frame_type::Stacked {
                tiles: &sub_tiles,
                tile_space: #name::TILE_SPACE / #count,
                stack: stack.saturating_mul(#count),
            },
        };
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
    crate::print::rust::ident(&layout.descriptor.name)
}

/// `plan()`: the plan of one tile, computed once at first use from the two sides and the
/// walk, exactly as the macro planned it to check the kernel.
fn plan_fn(kernel: &CheckedKernel) -> TokenStream {
    let [from, to] = storages(kernel);
    let (plan_type, plan, storage) = (paths::plan_type(), paths::plan(), paths::storage());
    let deprecation = "use `plan()`: the plan became a function, computed once at first use, \
                       so that a kernel's expansion stays small however large its tile \
                       (`PLAN` derefs to it)";
    let plan_constant = paths::plan_constant();
    let walk = crate::items::traversal::sfc_value(&kernel.walk);
    quote! {
        /// The copy of one tile: its runs, and its permute networks for full tiles. Planned
        /// once, at first use, from the layouts and the walk (the macro planned it too, to
        /// check the kernel), so that the expansion stays small however large the tile.
        pub fn plan() -> &'static #plan_type {
            use #storage;
            static PLAN: ::std::sync::OnceLock<#plan_type> =
                ::std::sync::OnceLock::new();
            PLAN.get_or_init(|| {
                let walk = #walk;
                #plan(#from, #to, &walk.lengths, &walk)
            })
        }

        /// The copy of one tile, as it was named before it became [`plan()`](Self::plan).
        #[deprecated(since = "0.2.0", note = #deprecation)]
        pub const PLAN: #plan_constant = #plan_constant(Self::plan);
    }
}

/// `stacked_plan()`: the plan of one sub-tile of a tile that stacks them, computed once at
/// first use from the same sides and walk as `plan()`.
fn stacked_plan_fn(kernel: &CheckedKernel) -> TokenStream {
    let [from, to] = storages(kernel);
    let (plan_type, stacked, storage) = (paths::plan_type(), paths::stacked(), paths::storage());
    let walk = crate::items::traversal::sfc_value(&kernel.walk);
    quote! {
        /// The copy of one sub-tile of a tile, which the entry points copy with, stacked:
        /// planned once, at first use, like [`plan()`](Self::plan).
        fn stacked_plan() -> &'static #plan_type {
            use #storage;
            static PLAN: ::std::sync::OnceLock<#plan_type> =
                ::std::sync::OnceLock::new();
            PLAN.get_or_init(|| {
                let walk = #walk;
                let stacked = #stacked(#from, #to, &walk);
                stacked.expect("the macro planned this tile as stacked sub-tiles").plan
            })
        }
    }
}

/// The two sides of a kernel's plan, as `Storage` expressions.
fn storages(kernel: &CheckedKernel) -> [TokenStream; 2] {
    let storage = |side: Option<&Checked>| match side {
        Some(layout) => {
            let name = type_name(layout);
            quote!(Storage::Layout(&#name::DESCRIPTOR))
        }
        None => quote!(Storage::RowMajor),
    };
    match kernel.direction {
        Direction::Pack => [storage(None), storage(Some(kernel.layout))],
        Direction::Unpack => [storage(Some(kernel.layout)), storage(None)],
        Direction::Copy => [storage(kernel.source), storage(kernel.destination)],
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
    let kernel_error = paths::kernel_error();
    // Every entry point, taking anything with the arity it would have.
    let copy = item.source.is_some() && item.destination.is_some();
    let entries = Entry::all(copy, tiled && !copy).into_iter().map(|entry| {
        let name = entry.name(entry.with_options);
        let params: Vec<Ident> = (0..layouts + entry.arity() + 2)
            .map(|i| format_ident!("T{}", i))
            .collect();
        quote! {
            pub fn #name<#(#params),*>(#(_: #params),*) -> Result<(), #kernel_error> {
                unreachable!()
            }
        }
    });
    let (element, options, route) = (paths::element(), paths::options(), paths::route());
    quote! {
        #(#attrs)*
        #vis struct #name;
        impl #name {
            pub const VECTOR: usize = 0;
            #(#entries)*
            pub fn route<E: #element>(_: #options) -> Result<#route, #kernel_error> {
                unreachable!()
            }
        }
    }
}
