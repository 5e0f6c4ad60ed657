//! `raster` items → a unit type with the order's WGSL function (`R::WGSL`) and the same
//! code in Rust (`R::tile`), so that a kernel's workgroup order can be tested on the CPU.

use super::RasterItem;
use crate::print::lit;
use crate::print::rust::{Rust, conjunction, ident};
use proc_macro2::TokenStream;
use quote::quote;
use swizzle_core::emit::code::Code;
use swizzle_core::emit::wgsl;
use swizzle_core::plans::raster::{Raster, RasterProgram};

/// The grid the rustdoc draws the order on.
const PICTURE: u64 = 8;

pub fn tokens(item: &RasterItem, raster: &Raster) -> TokenStream {
    let RasterItem {
        attrs, vis, name, ..
    } = item;
    let program = raster.program();
    let comment =
        format!("Workgroup order `{name}`: {raster}, the tile `vec2(y, x)` of workgroup `group`.");
    let wgsl = wgsl::raster(&name.to_string(), &comment, &program);
    let order = order_tokens(raster);
    let body = body(&program);
    let doc = doc(raster);
    let raster_type = crate::print::paths::raster();
    let declared = crate::print::unit_struct(attrs, vis, name, &doc);
    quote! {
        #declared

        impl #name {
            /// The order, for the runtime and the analyses.
            pub const ORDER: #raster_type = #order;
            /// The order as a WGSL function of the workgroup's index and the grid's rows
            /// and columns of tiles, returning the tile's `vec2(y, x)`.
            pub const WGSL: &'static str = #wgsl;

            /// The tile `[y, x]` that workgroup `group` works on in a grid of `grid`
            /// (`[rows, columns]`) tiles; `None` past the grid.
            pub const fn tile(group: usize, grid: [usize; 2]) -> ::core::option::Option<[usize; 2]> {
                let [grid_y, grid_x] = grid;
                match grid_y.checked_mul(grid_x) {
                    ::core::option::Option::Some(tiles) if group < tiles => {}
                    _ => return ::core::option::Option::None,
                }
                #body
            }
        }
    }
}

/// The program's statements in Rust, returning `Some([y, x])`.
fn body(program: &RasterProgram) -> TokenStream {
    let lets = |lets: &[(String, Code)]| -> TokenStream {
        lets.iter()
            .map(|(name, code)| {
                let (name, code) = (ident(name), Rust(code));
                quote!(let #name = #code;)
            })
            .collect()
    };
    let prologue = lets(&program.prologue);
    let cases = program.cases.iter().map(|case| {
        let (lets, [y, x]) = (lets(&case.lets), [Rust(&case.tile[0]), Rust(&case.tile[1])]);
        let result = quote!(::core::option::Option::Some([#y, #x]));
        match case.when.is_empty() {
            true => quote!(#lets #result),
            false => {
                let test = conjunction(&case.when);
                quote!(if #test { #lets return #result; })
            }
        }
    });
    quote!(#prologue #(#cases)*)
}

fn order_tokens(raster: &Raster) -> TokenStream {
    let raster_type = crate::print::paths::raster();
    match *raster {
        Raster::RowMajor => quote!(#raster_type::RowMajor),
        Raster::Snake => quote!(#raster_type::Snake),
        Raster::Grouped(n) => {
            let n = lit(n);
            quote!(#raster_type::Grouped(#n))
        }
        Raster::Morton(n) => {
            let n = lit(n);
            quote!(#raster_type::Morton(#n))
        }
    }
}

/// The rustdoc: what the order is, and the workgroup index of each tile of an 8 × 8 grid.
fn doc(raster: &Raster) -> Vec<String> {
    let mut index = vec![0u64; (PICTURE * PICTURE) as usize];
    for group in 0..PICTURE * PICTURE {
        if let Some([y, x]) = raster.tile(group, [PICTURE, PICTURE]) {
            index[(y * PICTURE + x) as usize] = group;
        }
    }
    let mut lines = vec![
        format!(
            " Workgroup order `{raster}`: the workgroup that takes each tile of an 8 × 8 grid:"
        ),
        String::new(),
        " ```text".to_owned(),
    ];
    for row in index.chunks(PICTURE as usize) {
        let cells: Vec<String> = row.iter().map(|g| format!("{g:2}")).collect();
        lines.push(format!(" {}", cells.join(" ")));
    }
    lines.push(" ```".to_owned());
    lines
}

/// The items of a raster with errors, so that its uses raise no further errors.
pub fn stub(item: &RasterItem) -> TokenStream {
    let RasterItem {
        attrs, vis, name, ..
    } = item;
    quote! {
        #(#attrs)*
        #vis struct #name;
        impl #name {
            pub const WGSL: &'static str = "";
            pub const fn tile(_: usize, _: [usize; 2]) -> ::core::option::Option<[usize; 2]> {
                ::core::option::Option::None
            }
        }
    }
}
