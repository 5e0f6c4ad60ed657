//! A kernel's full tile as straight-line code: every run of the plan one fixed-size slice
//! copy at constant offsets, so that the compiler sees the whole tile (no table of offsets
//! to load, bounds checks folded into one per row). Emitted for two-coordinate tiles of up
//! to [`MAX_RUNS`] runs; larger tiles keep the runtime's loop over the plan.

use crate::check::{CheckedKernel, Direction};
use crate::print::lit;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use std::collections::BTreeMap;

/// The most runs a tile is unrolled for: a few hundred lines of expansion at most (a 16 × 16
/// Morton tile has 128 runs of 2, and unrolled runs 1.5× its table in cache).
pub const MAX_RUNS: usize = 256;

/// `fn full_tile`, or nothing where the tile is not unrolled.
pub fn full_tile(kernel: &CheckedKernel) -> TokenStream {
    let plan = &kernel.plan;
    let [_, cols] = match plan.tile[..] {
        [rows, cols] => [rows, cols],
        _ => return TokenStream::new(),
    };
    if plan.runs.is_empty() || plan.runs.len() > MAX_RUNS {
        return TokenStream::new();
    }
    // Which side is a row-major image (its rows lie `row` apart at run time).
    let (src_image, dst_image) = match kernel.direction {
        Direction::Pack => (true, false),
        Direction::Unpack => (false, true),
        Direction::Copy => (false, false),
    };
    let space = |side: Option<&crate::check::Checked>| {
        side.and_then(|layout| layout.descriptor.space())
            .unwrap_or(0)
    };
    let (src_space, dst_space) = match kernel.direction {
        Direction::Pack => (0, space(Some(kernel.layout))),
        Direction::Unpack => (space(Some(kernel.layout)), 0),
        Direction::Copy => (space(kernel.source), space(Some(kernel.layout))),
    };
    // The moves, grouped by the image's row they touch (in the walk's order within a row),
    // each row bound once as `row_<r>` in a block of its own.
    let mut by_row: BTreeMap<usize, Vec<TokenStream>> = BTreeMap::new();
    for run in plan.runs.iter() {
        let (r, c) = (run.at / cols, run.at % cols);
        let image = format_ident!("row_{}", r);
        let range = |start: usize| {
            let (start, end) = (lit(start), lit(start + run.len));
            quote!(#start..#end)
        };
        let ((from, from_range), (to, to_range)) = match (src_image, dst_image) {
            (true, _) => ((quote!(#image), range(c)), (quote!(tile), range(run.to))),
            (_, true) => ((quote!(tile), range(run.from)), (quote!(#image), range(c))),
            _ => ((quote!(src), range(run.from)), (quote!(dst), range(run.to))),
        };
        // Without an image side, one group keeps the walk's order.
        let group = if src_image || dst_image { r } else { 0 };
        by_row
            .entry(group)
            .or_default()
            .push(quote!(#to[#to_range].copy_from_slice(&#from[#from_range]);));
    }
    let cols_lit = lit(cols);
    let (src_lit, dst_lit) = (lit(src_space), lit(dst_space));
    let row_block = |r: usize, moves: &[TokenStream], side: TokenStream, mutable: bool| {
        let name = format_ident!("row_{}", r);
        let range = match r {
            0 => quote!([..#cols_lit]),
            1 => quote!([row..][..#cols_lit]),
            r => {
                let r = lit(r);
                quote!([#r * row..][..#cols_lit])
            }
        };
        let binding = match mutable {
            true => quote!(let #name = &mut #side #range;),
            false => quote!(let #name = &#side #range;),
        };
        quote! {
            {
                #binding
                #(#moves)*
            }
        }
    };
    let (body, row_param) = match (src_image, dst_image) {
        (true, _) => {
            let blocks = by_row
                .iter()
                .map(|(&r, moves)| row_block(r, moves, quote!(src), false));
            let body = quote! {
                let row = rows[0];
                let tile = &mut dst[..#dst_lit];
                #(#blocks)*
            };
            (body, quote!(rows: [usize; 2]))
        }
        (_, true) => {
            let blocks = by_row
                .iter()
                .map(|(&r, moves)| row_block(r, moves, quote!(dst), true));
            let body = quote! {
                let row = rows[1];
                let tile = &src[..#src_lit];
                #(#blocks)*
            };
            (body, quote!(rows: [usize; 2]))
        }
        _ => {
            let moves = by_row.values().flatten();
            let body = quote! {
                let (src, dst) = (&src[..#src_lit], &mut dst[..#dst_lit]);
                #(#moves)*
            };
            (body, quote!(_rows: [usize; 2]))
        }
    };
    let doc = format!(
        " One full tile, straight-line: its {} runs as slice copies at constant offsets \
         (`src` and `dst` start at the tile; an image's rows lie `row` elements apart).",
        plan.runs.len()
    );
    let element = crate::print::paths::element();
    quote! {
        #[doc = #doc]
        /// The runtime calls it for every full tile where the CPU copies in runs.
        #[doc(hidden)]
        #[inline]
        pub fn full_tile<E: #element>(src: &[E], dst: &mut [E], #row_param) {
            #body
        }
    }
}
