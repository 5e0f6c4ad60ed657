//! `kernel K = tiled_copy(..)` items → a unit type with the copy's WGSL function (`K::WGSL`)
//! and the same thread program in Rust, so that a kernel can be stepped through and tested on
//! the CPU: `K::run` moves a whole tile, `K::run_thread` one thread's values.

use super::{CheckedTiledCopy, TiledCopyItem};
use crate::items::layout::Checked;
use crate::print::lit;
use crate::print::rust::{Rust, conjunction, ident};
use proc_macro2::TokenStream;
use quote::quote;
use swizzle_core::emit::wgsl;
use swizzle_core::plans::tiled_copy::{Address, Cost, Move, Part, Program};

pub fn tokens(item: &TiledCopyItem, copy: &CheckedTiledCopy) -> TokenStream {
    let TiledCopyItem {
        attrs, vis, name, ..
    } = item;
    let program = &copy.program;
    let threads = &copy.threads.descriptor.name;
    let side = |layout: Option<&Checked>| match layout {
        Some(layout) => format!("`{}`", layout.descriptor.name),
        None => "the image".to_owned(),
    };
    let (from, to) = (side(copy.source), side(copy.destination));
    let core = copy.copy();
    let (source_buffer, destination_buffer) = &copy.buffers;
    let array = |side, buffer: &str| match core.words(side, copy.width) {
        1 => format!("`{buffer}` as `array<u32>`"),
        words => format!("`{buffer}` as `array<vec{words}<u32>>`"),
    };
    let comment = format!(
        "Tiled copy `{name}`: {from} → {to}, threads `{threads}`, {}.\n// Reads {}, writes {}.",
        pieces(copy, &from, &to),
        array(core.source, source_buffer),
        array(core.destination, destination_buffer),
    );
    let wgsl = wgsl::tiled_copy(
        &name.to_string(),
        &comment,
        program,
        (source_buffer, destination_buffer),
        wgsl::Writes::default(),
    );
    let doc = doc(copy, &from, &to);
    let vector = lit(copy.width);
    let thread_count = lit(copy.copy().threads.thread_count());
    let tile_shape = copy.copy().threads.tile();
    let rank = lit(tile_shape.len());
    let tile_lits = tile_shape.iter().map(|&l| lit(l));
    let space = |layout: Option<&Checked>| match layout {
        Some(layout) => {
            let space = lit(layout.descriptor.space().unwrap_or(0));
            quote!(::core::option::Option::Some(#space))
        }
        None => quote!(::core::option::Option::None),
    };
    let (source_space, destination_space) = (space(copy.source), space(copy.destination));
    let moves = moves(program);
    let (copy_error, check_run) = (
        crate::print::paths::copy_error(),
        crate::print::paths::check_run(),
    );
    let image = !program.tiles.is_empty();
    let thread = ident(&program.thread);
    let tiles: Vec<_> = program.tiles.iter().map(|t| ident(t)).collect();
    let extents: Vec<_> = program.extents.iter().map(|e| ident(e)).collect();
    // The image's tile and extents, for copies with an image side.
    let (grid_params, grid_args, grid_values, grid_bind) = match image {
        true => (
            quote!(tile: [usize; #rank], extents: [usize; #rank],),
            quote!(tile, extents,),
            quote!(&tile, &extents),
            quote! {
                let [#(#tiles),*] = tile;
                let [#(#extents),*] = extents;
            },
        ),
        false => (quote!(), quote!(), quote!(&[], &[]), quote!()),
    };
    let declared = crate::print::unit_struct(attrs, vis, name, &doc);
    quote! {
        #declared

        impl #name {
            /// Values each thread moves per instruction.
            pub const VECTOR: usize = #vector;
            /// Threads in the workgroup.
            pub const THREADS: usize = #thread_count;
            /// The tile's lengths.
            pub const TILE: [usize; #rank] = [#(#tile_lits),*];
            /// The copy as a WGSL function of the thread's index (and of the tile's place
            /// and the image's extents, where a side is the image).
            pub const WGSL: &'static str = #wgsl;

            /// Copies the whole tile on the CPU, thread after thread, as the workgroup
            /// does: the buffers and the tile are checked first.
            pub fn run<T: Copy>(
                #grid_params
                source: &[T],
                destination: &mut [T],
            ) -> ::core::result::Result<(), #copy_error> {
                Self::check(#grid_values, source.len(), destination.len())?;
                for thread in 0..Self::THREADS {
                    Self::moves(thread, #grid_args source, destination);
                }
                ::core::result::Result::Ok(())
            }

            /// Moves one thread's values on the CPU, to step through the copy.
            pub fn run_thread<T: Copy>(
                thread: usize,
                #grid_params
                source: &[T],
                destination: &mut [T],
            ) -> ::core::result::Result<(), #copy_error> {
                if thread >= Self::THREADS {
                    return ::core::result::Result::Err(#copy_error::Thread {
                        thread,
                        threads: Self::THREADS,
                    });
                }
                Self::check(#grid_values, source.len(), destination.len())?;
                Self::moves(thread, #grid_args source, destination);
                ::core::result::Result::Ok(())
            }

            fn check(
                tile: &[usize],
                extents: &[usize],
                source: usize,
                destination: usize,
            ) -> ::core::result::Result<(), #copy_error> {
                #check_run(
                    &Self::TILE,
                    Self::VECTOR,
                    [#source_space, #destination_space],
                    tile,
                    extents,
                    [source, destination],
                )
            }

            /// One thread's moves, straight-line; the indices are in range once
            /// [`Self::check`] passed.
            #[inline(always)]
            fn moves<T: Copy>(
                #thread: usize,
                #grid_params
                source: &[T],
                destination: &mut [T],
            ) {
                #grid_bind
                #moves
            }
        }
    }
}

/// The thread program's statements in Rust.
fn moves(program: &Program) -> TokenStream {
    let prologue = program.prologue.iter().map(|(name, code)| {
        let (name, code) = (ident(name), Rust(code));
        quote!(let #name = #code;)
    });
    let width = program.width;
    let all = |guarded: bool| -> TokenStream {
        program
            .moves
            .iter()
            .map(|step| one_move(step, width, guarded))
            .collect()
    };
    let body = match program.interior.is_empty() {
        true => all(false),
        false => {
            let interior = conjunction(&program.interior);
            let (unguarded, guarded) = (all(false), all(true));
            quote! {
                if #interior {
                    #unguarded
                    return;
                }
                // A partial tile: only the moves that can leave the image are guarded.
                #guarded
            }
        }
    };
    quote!(#(#prologue)* #body)
}

/// One move: `width` elements from the source to the destination, under its tests; in
/// runs as long as both sides' accesses allow, each one slice copy (or one element).
fn one_move(step: &Move, width: usize, guarded: bool) -> TokenStream {
    let (from, to) = (&step.source, &step.destination);
    let run = from.piece.min(to.piece).max(1);
    // The first element of the run at `element` of the move, on one side.
    let start = |address: &Address, element: usize| {
        let index = Rust(&address.accesses[element / address.piece]);
        let within = element % address.piece;
        let start = match address.piece == address.words && address.words > 1 {
            true => {
                let words = lit(address.words);
                quote!((#index) * #words)
            }
            false => quote!(#index),
        };
        match within {
            0 => start,
            within => {
                let within = lit(within);
                quote!(#start + #within)
            }
        }
    };
    let copies: Vec<TokenStream> = (0..width.max(1))
        .step_by(run)
        .map(|element| {
            let (source, destination) = (start(from, element), start(to, element));
            match run {
                1 => quote!(destination[#destination] = source[#source];),
                run => {
                    let run = lit(run);
                    quote! {
                        let (from, to) = (#source, #destination);
                        destination[to..to + #run].copy_from_slice(&source[from..from + #run]);
                    }
                }
            }
        })
        .collect();
    let copy = quote!(#(#copies)*);
    let mut tests = step.valid.clone();
    if guarded {
        tests.extend(step.bounds.iter().cloned());
    }
    match tests.is_empty() {
        true => match run {
            1 => copy,
            _ => quote!({ #copy }),
        },
        false => {
            let tests = conjunction(&tests);
            quote!(if #tests { #copy })
        }
    }
}

/// How the copy moves its values: `vectors of 4`, and where a side takes them in pieces,
/// `vectors of 4 (single elements on `XorTile`)`.
fn pieces(copy: &CheckedTiledCopy, from: &str, to: &str) -> String {
    let core = copy.copy();
    // The side the program's squares cross, where it has them.
    let crossed = copy.program.squares.as_ref().map(|s| s.crossing.part);
    let parts = [
        (Part::Source, core.source, from),
        (Part::Destination, core.destination, to),
    ];
    let split: Vec<String> = parts
        .into_iter()
        .filter_map(|(part, side, name)| {
            let piece = core.piece(side, copy.width);
            let width = copy.width;
            (piece < width).then(|| match piece {
                _ if crossed == Some(part) => format!(
                    "{name} in whole entries across squares of {width} × {width} values \
                     transposed in registers, in single elements at partial tiles"
                ),
                1 => format!("single elements on {name}"),
                piece => format!("vectors of {piece} on {name}"),
            })
        })
        .collect();
    match split.is_empty() {
        true => format!("vectors of {}", copy.width),
        false => format!("vectors of {} ({})", copy.width, split.join(", ")),
    }
}

/// The rustdoc lines of a tiled copy's type, its sides named as the expansion names them.
pub fn doc_lines(copy: &CheckedTiledCopy) -> Vec<String> {
    let side = |layout: Option<&Checked>| match layout {
        Some(layout) => format!("`{}`", layout.descriptor.name),
        None => "the image".to_owned(),
    };
    doc(copy, &side(copy.source), &side(copy.destination))
}

/// The rustdoc lines: the sides, the vectors and what each instruction costs.
fn doc(copy: &CheckedTiledCopy, from: &str, to: &str) -> Vec<String> {
    let threads = copy.copy().threads;
    let mut lines = vec![format!(
        " Copies a {} tile from {from} to {to}: {} threads, {} values each, in {}.",
        threads
            .tile()
            .iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join(" × "),
        threads.thread_count(),
        threads.value_count(),
        pieces(copy, from, to)
    )];
    lines.push(String::new());
    lines.push(format!(
        " Per instruction, for a subgroup of {} lanes:",
        copy.subgroup
    ));
    lines.push(String::new());
    let cost = |cost: &Cost| match cost {
        Cost::Banks(report) => format!("{}-way bank conflicts", report.degree),
        Cost::Memory(memory) => format!("{} transactions", memory.transactions),
    };
    // Consecutive instructions that cost the same share one line, so that the doc grows
    // with the different costs, not with the moves.
    let mut runs: Vec<(usize, usize, usize, String)> = Vec::new();
    for instruction in &copy.instructions {
        let costs = format!(
            "reads {}, writes {}",
            cost(&instruction.source),
            cost(&instruction.destination)
        );
        let end = instruction.first + instruction.width;
        match runs.last_mut() {
            Some((_, last, count, same)) if *same == costs && *last == instruction.first => {
                *last = end;
                *count += 1;
            }
            _ => runs.push((instruction.first, end, 1, costs)),
        }
    }
    for (first, end, count, costs) in runs {
        lines.push(match count {
            1 => format!(" - values {first}..{end}: {costs}"),
            count => format!(" - values {first}..{end}, {count} instructions: {costs} each"),
        });
    }
    lines
}

/// The items of a tiled copy with errors, so that its uses raise no further errors.
pub fn stub(item: &TiledCopyItem) -> TokenStream {
    let TiledCopyItem {
        attrs,
        vis,
        name,
        source,
        destination,
        ..
    } = item;
    let image = source == "image" || destination == "image";
    let grid = image.then(|| quote!(_: [usize; N], _: [usize; N],));
    let generic = image.then(|| quote!(const N: usize,));
    let error = crate::print::paths::copy_error();
    quote! {
        #(#attrs)*
        #vis struct #name;
        impl #name {
            pub const VECTOR: usize = 0;
            pub const THREADS: usize = 0;
            pub const WGSL: &'static str = "";
            pub fn run<T: Copy, #generic>(#grid _: &[T], _: &mut [T]) -> Result<(), #error> {
                unreachable!()
            }
            pub fn run_thread<T: Copy, #generic>(
                _: usize,
                #grid
                _: &[T],
                _: &mut [T],
            ) -> Result<(), #error> {
                unreachable!()
            }
        }
    }
}
