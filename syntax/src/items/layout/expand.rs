//! Checked IR + canonical form → the Rust items of one layout.

#[path = "descriptor.rs"]
mod descriptor;
#[path = "tiled.rs"]
mod tiled;

use super::auto::Choice;
use super::check::Checked;
use super::{LayoutItem, StmtKind, Verified};
use crate::ast::Length;
use crate::print::{lit, paths, rust};
use proc_macro2::{Literal, TokenStream};
use quote::quote;
use swizzle_core::emit::compose::Form;
use swizzle_core::emit::function::{Function, LayoutFunctions};
use swizzle_core::emit::table;
use swizzle_core::emit::wgsl;

/// One layout's expansion: its item as written, and what the driver verified.
pub struct Expansion<'a> {
    item: &'a LayoutItem,
    checked: &'a Checked,
    verified: &'a Verified,
    auto: Option<&'a Choice>,
    /// Its functions, once for the Rust and the WGSL printer.
    functions: LayoutFunctions,
}

impl<'a> Expansion<'a> {
    pub fn new(item: &'a LayoutItem, verified: &'a Verified) -> Self {
        let mut functions = verified.functions.clone();
        if let Some(threads) = verified.checked.thread_values() {
            functions.element = threads.element_function();
        }
        Expansion {
            item,
            checked: &verified.checked,
            verified,
            auto: verified.auto.as_ref(),
            functions,
        }
    }

    pub fn to_tokens(&self) -> TokenStream {
        if self.checked.descriptor.is_tiled() {
            tiled::tokens(self)
        } else {
            self.fixed_tokens()
        }
    }

    /// A fixed-size layout: a zero-sized type with const shape, size and space.
    fn fixed_tokens(&self) -> TokenStream {
        let descriptor = &self.checked.descriptor;
        let LayoutItem {
            attrs, vis, name, ..
        } = self.item;
        let rank = Literal::usize_unsuffixed(descriptor.coords.len());
        let many_coordinates = many_coordinates(descriptor.coords.len());
        let coords = &self.checked.coords;
        let shape = descriptor
            .shape()
            .into_iter()
            .map(Literal::usize_unsuffixed);
        let size = Literal::usize_unsuffixed(descriptor.size().unwrap_or(0));
        let space = Literal::usize_unsuffixed(descriptor.space().unwrap_or(0));
        let docs = self.docs();
        let descriptor::Tokens {
            lists: ir_lists,
            value: ir_value,
        } = descriptor::tokens(descriptor, self.checked.over.as_ref());
        let offset = self.offset_fn(Prefix::Layout);
        let is_valid = self.is_valid_fn(Prefix::Layout);
        let coord = self.coord_fn(Prefix::Layout);
        let threads = self.threads_items();
        let wgsl = self.wgsl_const();
        // A non-generic trait constant is evaluated even when unused: a layout without WGSL
        // keeps the trait's default, which fails only where it is used.
        let trait_wgsl = self.wgsl().is_ok().then(|| {
            quote!(
                const WGSL: &'static str = Self::WGSL;
            )
        });
        let injective = self.verified.injective;
        let (padded, has_inverse) = (is_valid.is_some(), coord.is_some());
        let indexing_is_valid = match is_valid {
            Some(_) => quote!(Self::is_valid(#(#coords),*)),
            // A layout without coordinates has one valid coordinate, the empty one.
            None if coords.is_empty() => quote!(true),
            None => {
                let shape = descriptor.shape().into_iter().map(lit);
                quote!(#(#coords < #shape)&&*)
            }
        };
        let trait_is_valid = is_valid.as_ref().map(|_| {
            quote! {
                fn is_valid(coord: [usize; #rank]) -> bool {
                    let [#(#coords),*] = coord;
                    Self::is_valid(#(#coords),*)
                }
            }
        });
        let bijective = coord.as_ref().map(|_| {
            let bijective = paths::bijective();
            quote! {
                impl #bijective<#rank> for #name {
                    fn coord(offset: usize) -> [usize; #rank] {
                        Self::coord(offset)
                    }
                }
            }
        });
        let (layout, indexing, descriptor) =
            (paths::layout(), paths::indexing(), paths::descriptor());
        quote! {
            #(#attrs)*
            #docs
            #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
            #vis struct #name;

            #many_coordinates
            impl #name {
                /// Coordinate lengths, in `coords` order.
                pub const SHAPE: [usize; #rank] = [#(#shape),*];
                /// Number of coordinates.
                pub const SIZE: usize = #size;
                /// Number of elements the offsets index into.
                pub const SPACE: usize = #space;
                /// The checked transform pipeline, for analysis and pictures at run time.
                pub const DESCRIPTOR: #descriptor = #ir_value;
                #ir_lists
                #wgsl
                #offset
                #is_valid
                #coord
                #threads
            }

            impl #layout<#rank> for #name {
                const SHAPE: [usize; #rank] = Self::SHAPE;
                const SIZE: usize = Self::SIZE;
                const SPACE: usize = Self::SPACE;
                const DESCRIPTOR: #descriptor = Self::DESCRIPTOR;
                const INJECTIVE: bool = #injective;
                const PADDED: bool = #padded;
                const INVERSE: bool = #has_inverse;
                #trait_wgsl
                fn offset(coord: [usize; #rank]) -> usize {
                    let [#(#coords),*] = coord;
                    Self::offset(#(#coords),*)
                }
                #trait_is_valid
            }

            #bijective

            impl #indexing<#rank> for #name {
                fn extents(&self) -> [usize; #rank] {
                    Self::SHAPE
                }
                fn space(&self) -> usize {
                    Self::SPACE
                }
                fn offset_of(&self, coord: [usize; #rank]) -> usize {
                    let [#(#coords),*] = coord;
                    Self::offset(#(#coords),*)
                }
                fn is_valid_at(&self, coord: [usize; #rank]) -> bool {
                    let [#(#coords),*] = coord;
                    #indexing_is_valid
                }
            }
        }
    }

    /// The offset table and the `swizzle (auto)` choice, as rustdoc.
    fn docs(&self) -> TokenStream {
        let table = self
            .verified
            .table
            .as_ref()
            .and_then(table::markdown_of)
            .map(|table| {
                let lines = table.lines().map(|line| format!(" {line}"));
                quote!(#[doc = ""] #(#[doc = #lines])*)
            });
        let auto = self.auto.as_ref().map(|choice| {
            let line = auto_doc(choice);
            quote!(#[doc = ""] #[doc = #line])
        });
        quote!(#table #auto)
    }

    /// The layout's functions in WGSL, or why they cannot exist (values beyond `u32`).
    fn wgsl(&self) -> Result<String, String> {
        let name = self.item.name.to_string();
        let descriptor = &self.checked.descriptor;
        let base = self.base().map(|base| base.to_string());
        wgsl::functions(&name, descriptor, &self.functions, base.as_deref())
            .map(|functions| functions.text)
    }

    /// `WGSL`, or where it cannot exist a constant whose use is a compile error saying why,
    /// so that the Rust code stays usable.
    fn wgsl_const(&self) -> TokenStream {
        let name = self.item.name.to_string();
        let descriptor = &self.checked.descriptor;
        let doc = match descriptor.is_tiled() {
            true => " WGSL functions of one tile (`…_tile_offset`, …): add `tile · TILE_SPACE`.",
            false => " WGSL functions `…_offset`, and `…_coord` and `…_is_valid` where they exist.",
        };
        match self.wgsl() {
            Ok(text) => quote! {
                #[doc = #doc]
                pub const WGSL: &'static str = #text;
            },
            Err(why) => {
                let message = format!("layout `{name}` has no WGSL: {why}");
                quote! {
                    /// No WGSL: using this constant is a compile error that says why.
                    pub const WGSL: &'static str = panic!(#message);
                }
            }
        }
    }

    /// The layout whose functions this one's call, where it is built over its base's.
    fn base(&self) -> Option<&syn::Ident> {
        let over = self.checked.over.as_ref()?;
        matches!(self.verified.form, Form::Over(_)).then_some(&over.base)
    }

    /// A function of the layout (or of its tile), printed from its target-neutral form: the
    /// functions it calls are its tile's (`Self::tile_offset`) or its base's
    /// (`Base::offset`).
    fn print(&self, function: &Function) -> TokenStream {
        let base = self.base();
        rust::body(function, |kind| match base {
            Some(base) => {
                let name = Prefix::Layout.ident(kind.name());
                quote!(#base::#name)
            }
            None => {
                let name = Prefix::Tile.ident(kind.name());
                quote!(Self::#name)
            }
        })
    }

    fn offset_fn(&self, prefix: Prefix) -> TokenStream {
        let coords = &self.checked.coords;
        let bounds = coords
            .iter()
            .zip(self.checked.descriptor.shape())
            .map(|(c, len)| {
                let len = Literal::usize_unsuffixed(len);
                quote!(#c < #len)
            });
        let bounds: Vec<TokenStream> = bounds.collect();
        let check = if self.functions.is_valid.is_none() {
            // A layout without coordinates (everything frozen) has nothing to check.
            (!bounds.is_empty())
                .then(|| quote!(debug_assert!(#(#bounds)&&*, "coordinate out of bounds");))
        } else {
            let is_valid = prefix.ident("is_valid");
            Some(
                quote!(debug_assert!(Self::#is_valid(#(#coords),*), "coordinate out of bounds or in the padding");),
            )
        };
        let body = self.print(&self.functions.offset);
        let (name, doc) = (
            prefix.ident("offset"),
            prefix.doc(
                "The memory offset of a coordinate: straight-line integer code.",
                "The offset of a coordinate inside its tile: straight-line integer code.",
            ),
        );
        quote! {
            #[doc = #doc]
            #[inline(always)]
            pub const fn #name(#(#coords: usize),*) -> usize {
                #check
                #body
            }
        }
    }

    fn is_valid_fn(&self, prefix: Prefix) -> Option<TokenStream> {
        let function = self.functions.is_valid.as_ref()?;
        let coords = &self.checked.coords;
        let body = self.print(function);
        let (name, doc) = (
            prefix.ident("is_valid"),
            prefix.doc(
                "Whether a coordinate is inside the shape and outside every padding.",
                "Whether a coordinate of one tile is outside every padding.",
            ),
        );
        Some(quote! {
            #[doc = #doc]
            #[inline(always)]
            pub const fn #name(#(#coords: usize),*) -> bool {
                #body
            }
        })
    }

    fn coord_fn(&self, prefix: Prefix) -> Option<TokenStream> {
        let coord = self.functions.coord.as_ref()?;
        let coords = &self.checked.coords;
        let body = self.print(coord);
        let space = Literal::usize_unsuffixed(self.checked.descriptor.space().unwrap_or(0));
        let rank = Literal::usize_unsuffixed(coords.len());
        let (name, doc) = (
            prefix.ident("coord"),
            prefix.doc(
                "The coordinate stored at `offset`: the inverse of [`Self::offset`].",
                "The coordinate stored at `offset` of one tile: the inverse of [`Self::tile_offset`].",
            ),
        );
        Some(quote! {
            #[doc = #doc]
            #[inline(always)]
            pub const fn #name(offset: usize) -> [usize; #rank] {
                debug_assert!(offset < #space, "offset out of range");
                #body
            }
        })
    }
}

impl Expansion<'_> {
    /// A thread-value layout's own items: its counts, its tile and `element`.
    fn threads_items(&self) -> Option<TokenStream> {
        let threads = self.checked.thread_values()?;
        let (thread_count, value_count) = (lit(threads.thread_count()), lit(threads.value_count()));
        let tile = threads.tile();
        let tile_rank = lit(tile.len());
        let tile = tile.into_iter().map(lit);
        let element = self.functions.element.as_ref().map(|element| {
            let coords = &self.checked.coords;
            let body = self.print(element);
            quote! {
                /// The tile coordinate that the thread at these thread coordinates holds as the
                /// value at these value coordinates.
                #[inline(always)]
                pub const fn element(#(#coords: usize),*) -> [usize; #tile_rank] {
                    #body
                }
            }
        });
        let thread_values = paths::thread_values();
        let thread_coords = lit(threads.thread_coords);
        Some(quote! {
            /// The layout as the core and the runtime take it (`swizzle::gpu` kernels, the
            /// analyses): its leading coordinates the thread's, the rest the value's.
            pub const THREAD_VALUES: #thread_values<'static> =
                #thread_values {
                    descriptor: &Self::DESCRIPTOR,
                    thread_coords: #thread_coords,
                };
            /// Threads in the workgroup: the product of the thread coordinates' lengths.
            pub const THREADS: usize = #thread_count;
            /// Values each thread holds: the product of the value coordinates' lengths.
            pub const VALUES: usize = #value_count;
            /// The tile's lengths.
            pub const TILE: [usize; #tile_rank] = [#(#tile),*];
            #element
        })
    }
}

/// Whose functions the canonical form is printed as: the layout's own, or (for a layout with
/// run-time dims) its tile's, which the layout's methods wrap.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Prefix {
    Layout,
    Tile,
}

impl Prefix {
    fn ident(self, name: &str) -> proc_macro2::Ident {
        let name = match self {
            Prefix::Layout => name.to_owned(),
            Prefix::Tile => format!("tile_{name}"),
        };
        proc_macro2::Ident::new(&name, proc_macro2::Span::call_site())
    }

    /// The rustdoc line of a function, of the layout or of one tile.
    fn doc(self, layout: &str, tile: &str) -> String {
        match self {
            Prefix::Layout => format!(" {layout}"),
            Prefix::Tile => format!(" {tile}"),
        }
    }
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
    let contiguous = match vector {
        1 => "no two elements contiguous along the last coordinate".to_owned(),
        vector => format!("{vector} elements contiguous"),
    };
    format!(
        " `swizzle (auto)` chose `({bits}, {base}, {shift})`, CuTe `Swizzle<{bits}, {base}, {shift}>`, \
         out of {candidates} candidates: bank conflicts {}; {contiguous}.",
        degrees.join(", ")
    )
}

/// Items that stand in for a layout with errors, so that uses of it raise no further errors.
pub fn stub(item: &LayoutItem) -> TokenStream {
    let LayoutItem {
        attrs,
        vis,
        name,
        body,
        threads,
    } = item;
    let counted =
        |wanted: fn(&StmtKind) -> Option<usize>| body.iter().find_map(|s| wanted(&s.kind));
    let coords = match threads {
        None => counted(|kind| match kind {
            StmtKind::Coords { names } => Some(names.len()),
            _ => None,
        }),
        Some(_) => {
            let threads = counted(|kind| match kind {
                StmtKind::Threads { names } => Some(names.len()),
                _ => None,
            });
            let values = counted(|kind| match kind {
                StmtKind::Values { names } => Some(names.len()),
                _ => None,
            });
            threads.zip(values).map(|(t, v)| t + v)
        }
    };
    let tile_rank = counted(|kind| match kind {
        StmtKind::Tile { dims } => Some(dims.len()),
        _ => None,
    });
    let threads_stub = threads.as_ref().zip(coords).map(|(_, rank)| {
        let params = (0..rank).map(|_| quote!(_: usize));
        let tile_rank = lit(tile_rank.unwrap_or(0));
        quote! {
            pub const THREADS: usize = 0;
            pub const VALUES: usize = 0;
            pub const TILE: [usize; #tile_rank] = [0; #tile_rank];
            pub const fn element(#(#params),*) -> [usize; #tile_rank] {
                unreachable!()
            }
        }
    });
    let asked = |wanted: fn(&StmtKind) -> bool| body.iter().any(|stmt| wanted(&stmt.kind));
    let inverse = asked(|kind| matches!(kind, StmtKind::Inverse { .. }));
    // Each run-time memory dim becomes one run-time coordinate, an extent `new` takes.
    let dynamic = body.iter().find_map(|stmt| match &stmt.kind {
        StmtKind::Memory { dims, .. } => {
            let dynamic = dims.iter().filter(|d| matches!(d.len, Length::Dyn(_)));
            Some(dynamic.count()).filter(|&n| n > 0)
        }
        _ => None,
    });
    if let (Some(rank), Some(dynamic)) = (coords, dynamic) {
        return tiled::stub(item, rank, dynamic, inverse);
    }
    // Everything a layout of this rank can offer, so that no use of it raises a second
    // error; parameters are `_`, whatever the (maybe duplicated) coordinate names.
    let items = coords.map(|rank| {
        let params = (0..rank).map(|_| quote!(_: usize));
        let params_again = params.clone();
        let many_coordinates = many_coordinates(rank);
        let rank = lit(rank);
        let coord = inverse.then(|| {
            quote! {
                pub const fn coord(_: usize) -> [usize; #rank] {
                    unreachable!()
                }
            }
        });
        quote! {
            #many_coordinates
            impl #name {
                pub const SHAPE: [usize; #rank] = [0; #rank];
                pub const SIZE: usize = 0;
                pub const SPACE: usize = 0;
                pub const WGSL: &'static str = "";
                pub const fn offset(#(#params),*) -> usize {
                    unreachable!()
                }
                pub const fn is_valid(#(#params_again),*) -> bool {
                    unreachable!()
                }
                #coord
                #threads_stub
            }
        }
    });
    quote! {
        #(#attrs)*
        #vis struct #name;
        #items
    }
}

/// `#[allow(clippy::too_many_arguments)]` where a layout's functions, one parameter per
/// coordinate, take more than clippy's default limit of seven: the user chose them.
fn many_coordinates(rank: usize) -> Option<TokenStream> {
    (rank > 7).then(|| quote!(#[allow(clippy::too_many_arguments)]))
}
