//! Layouts with run-time (`dyn`) outer dims: a value type that holds the extents. The offset
//! is the tile's straight-line code plus the tile's place in the row-major grid of tiles, so
//! the tile stays compile-time while the grid is sized at run time.

use super::{Expansion, Prefix, lit, paths, rust};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};
use std::collections::HashSet;
use swizzle_core::emit::code::{self, Code};
use swizzle_core::emit::function::Function;
use swizzle_core::emit::grid::Grid;
use swizzle_core::ir::Descriptor;

pub fn tokens(expansion: &Expansion) -> TokenStream {
    let descriptor = &expansion.checked.descriptor;
    let coords = &expansion.checked.coords;
    let super::LayoutItem {
        attrs, vis, name, ..
    } = expansion.item;
    let rank = lit(coords.len());
    let many_coordinates = super::many_coordinates(coords.len());
    let tile = descriptor.shape();
    let tile_space = descriptor.space().unwrap_or(0);
    let dynamic = dynamic_coords(descriptor);
    let docs = expansion.docs();
    let grid_doc = grid_doc(descriptor, &tile);
    let super::descriptor::Tokens {
        lists: ir_lists,
        value: ir_value,
    } = super::descriptor::tokens(descriptor, expansion.checked.over.as_ref());
    let tile_offset = expansion.offset_fn(Prefix::Tile);
    let tile_is_valid = expansion.is_valid_fn(Prefix::Tile);
    let tile_coord = expansion.coord_fn(Prefix::Tile);
    let wgsl = expansion.wgsl_const();

    // The grid's functions read the run-time tile counts and extents from locals bound
    // from the value's fields, named after the coordinates.
    let names: Vec<String> = coords.iter().map(Ident::to_string).collect();
    let mut used: HashSet<String> = names.iter().cloned().collect();
    let mut fields: Vec<(String, TokenStream)> = Vec::new();
    let mut field = |j: usize, what: &str, field: TokenStream| -> Code {
        let name = code::fresh(&format!("{}_{what}", names[j]), &mut used);
        fields.push((name.clone(), field));
        Code::var(&name)
    };
    let (mut tile_counts, mut extent_codes) = (Vec::new(), Vec::new());
    for (j, &len) in tile.iter().enumerate() {
        let axis = lit(j);
        match dynamic[j] {
            true => {
                tile_counts.push(field(j, "tiles", quote!(self.tiles[#axis])));
                extent_codes.push(field(j, "extent", quote!(self.extents[#axis])));
            }
            false => {
                tile_counts.push(Code::Lit(1));
                extent_codes.push(Code::Lit(len as u128));
            }
        }
    }
    let grid = Grid::new(descriptor, &names, tile_counts, extent_codes);
    let print = |function: &Function| {
        // Only the fields the function reads, in the order they were named.
        let mut read = HashSet::new();
        function.collect_vars(&mut read);
        let prelude = fields
            .iter()
            .filter(|(name, _)| read.contains(name))
            .map(|(name, value)| {
                let name = rust::ident(name);
                quote!(let #name = #value;)
            });
        let body = rust::body(function, |kind| {
            let name = format_ident!("tile_{}", kind.name());
            quote!(Self::#name)
        });
        quote!(#(#prelude)* #body)
    };
    let offset_body = print(&grid.offset());
    let is_valid_body = print(&grid.is_valid(tile_is_valid.is_some()));
    let coord_body = tile_coord.as_ref().map(|_| print(&grid.coord()));
    let (space_lit, tile_lits) = (lit(tile_space), tile.iter().map(|&t| lit(t)));
    let tiles: Vec<TokenStream> = (0..coords.len())
        .map(|j| {
            let (c, t) = (&coords[j], lit(tile[j]));
            if dynamic[j] {
                quote!(#c.div_ceil(#t))
            } else {
                quote!(1)
            }
        })
        .collect();
    let extents: Vec<TokenStream> = (0..coords.len())
        .map(|j| {
            let (c, t) = (&coords[j], lit(tile[j]));
            if dynamic[j] { quote!(#c) } else { quote!(#t) }
        })
        .collect();
    let params: Vec<&Ident> = (0..coords.len())
        .filter(|&j| dynamic[j])
        .map(|j| &coords[j])
        .collect();
    let new_doc = format!(
        " The layout of a tensor of these extents: {}. Fails when its element space would \
         overflow `usize`.",
        new_doc(descriptor, coords, &tile)
    );
    let name_text = name.to_string();
    let coord = coord_body.map(|body| {
        quote! {
            /// The coordinate stored at `offset`: the inverse of [`Self::offset`] (offsets of
            /// the partial tiles' cells outside the extents give coordinates outside them).
            #[inline(always)]
            pub const fn coord(&self, offset: usize) -> [usize; #rank] {
                debug_assert!(offset < self.space, "offset out of range");
                #body
            }
        }
    });
    let (descriptor, extent_error, grid_space, indexing) = (
        paths::descriptor(),
        paths::extent_error(),
        paths::grid_space(),
        paths::indexing(),
    );
    quote! {
        #(#attrs)*
        #[doc = ""]
        #[doc = #grid_doc]
        #docs
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #vis struct #name {
            extents: [usize; #rank],
            tiles: [usize; #rank],
            space: usize,
        }

        #many_coordinates
        impl #name {
            /// Lengths of one tile, in `coords` order (1 for a coordinate that only counts
            /// tiles).
            pub const TILE: [usize; #rank] = [#(#tile_lits),*];
            /// Elements of one tile: the tile at place `t` of the row-major grid starts at
            /// `t · TILE_SPACE`.
            pub const TILE_SPACE: usize = #space_lit;
            /// The checked transform pipeline of one tile, for analysis and pictures at run
            /// time.
            pub const DESCRIPTOR: #descriptor = #ir_value;
            #ir_lists
            #wgsl

            #[doc = #new_doc]
            pub fn new(#(#params: usize),*) -> Result<Self, #extent_error> {
                let extents = [#(#extents),*];
                let tiles = [#(#tiles),*];
                match #grid_space(&tiles, Self::TILE_SPACE) {
                    Some(space) => Ok(Self { extents, tiles, space }),
                    None => Err(#extent_error::new(#name_text, &extents)),
                }
            }

            /// The extent of each coordinate.
            pub const fn extents(&self) -> [usize; #rank] {
                self.extents
            }

            /// The number of tiles along each coordinate.
            pub const fn tiles(&self) -> [usize; #rank] {
                self.tiles
            }

            /// Number of elements the offsets index into: every tile, whole.
            pub const fn space(&self) -> usize {
                self.space
            }

            #tile_offset
            #tile_is_valid
            #tile_coord

            /// The memory offset of a coordinate: its tile's place in the grid, then the
            /// tile's straight-line code.
            #[inline(always)]
            pub const fn offset(&self, #(#coords: usize),*) -> usize {
                debug_assert!(self.is_valid(#(#coords),*), "coordinate out of bounds or in the padding");
                #offset_body
            }

            /// Whether a coordinate is inside the extents and outside every padding.
            #[inline(always)]
            pub const fn is_valid(&self, #(#coords: usize),*) -> bool {
                #is_valid_body
            }

            #coord
        }

        impl #indexing<#rank> for #name {
            fn extents(&self) -> [usize; #rank] {
                self.extents
            }
            fn space(&self) -> usize {
                self.space
            }
            fn offset_of(&self, coord: [usize; #rank]) -> usize {
                let [#(#coords),*] = coord;
                self.offset(#(#coords),*)
            }
            fn is_valid_at(&self, coord: [usize; #rank]) -> bool {
                let [#(#coords),*] = coord;
                self.is_valid(#(#coords),*)
            }
        }
    }
}

/// Whether each coordinate (in `coords` order) is scaled by a run-time dim.
fn dynamic_coords(descriptor: &Descriptor) -> Vec<bool> {
    (0..descriptor.coords.len())
        .map(|j| descriptor.is_dynamic(j))
        .collect()
}

/// The rustdoc line that says how tiles are laid out.
fn grid_doc(descriptor: &Descriptor, tile: &[usize]) -> String {
    let shape: Vec<String> = tile.iter().map(usize::to_string).collect();
    let grid: Vec<&str> = descriptor
        .grid
        .iter()
        .map(|g| descriptor.dims[g.dim].name.as_ref())
        .collect();
    format!(
        " Tiles of {} elements ({}), stored one after the other in row-major order over \
         the run-time dims `{}`.",
        descriptor.space().unwrap_or(0),
        shape.join(" × "),
        grid.join("`, `")
    )
}

/// `ceil(y / 8) × ceil(x / 8) tiles`, for `new`'s rustdoc.
fn new_doc(descriptor: &Descriptor, coords: &[Ident], tile: &[usize]) -> String {
    let parts: Vec<String> = descriptor
        .grid
        .iter()
        .map(|g| match tile[g.coord] {
            1 => format!("`{}`", coords[g.coord]),
            t => format!("ceil(`{}` / {t})", coords[g.coord]),
        })
        .collect();
    format!("{} tiles", parts.join(" × "))
}

/// Stands in for a tiled layout with errors: its whole API, so that uses raise no further
/// errors; `new` takes one extent per run-time memory dim.
pub fn stub(item: &super::LayoutItem, rank: usize, dynamic: usize, inverse: bool) -> TokenStream {
    let super::LayoutItem {
        attrs, vis, name, ..
    } = item;
    let extents = (0..dynamic).map(|_| quote!(_: usize));
    let params: Vec<TokenStream> = (0..rank).map(|_| quote!(_: usize)).collect();
    let many_coordinates = super::many_coordinates(rank);
    let rank = lit(rank);
    let coord = inverse.then(|| {
        quote! {
            pub const fn tile_coord(_: usize) -> [usize; #rank] {
                unreachable!()
            }
            pub const fn coord(&self, _: usize) -> [usize; #rank] {
                unreachable!()
            }
        }
    });
    let extent_error = paths::extent_error();
    quote! {
        #(#attrs)*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #vis struct #name;
        #many_coordinates
        impl #name {
            pub const TILE: [usize; #rank] = [0; #rank];
            pub const TILE_SPACE: usize = 0;
            pub const WGSL: &'static str = "";
            pub fn new(#(#extents),*) -> Result<Self, #extent_error> {
                unreachable!()
            }
            pub const fn extents(&self) -> [usize; #rank] {
                unreachable!()
            }
            pub const fn tiles(&self) -> [usize; #rank] {
                unreachable!()
            }
            pub const fn space(&self) -> usize {
                unreachable!()
            }
            pub const fn tile_offset(#(#params),*) -> usize {
                unreachable!()
            }
            pub const fn offset(&self, #(#params),*) -> usize {
                unreachable!()
            }
            pub const fn is_valid(&self, #(#params),*) -> bool {
                unreachable!()
            }
            #coord
        }
    }
}
