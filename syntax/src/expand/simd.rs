//! A kernel's full tiles as SIMD code: for each level whose registers the plan has a network
//! for (4-byte elements: AVX-512's sixteen words, AVX2's eight, NEON's four), a function
//! that copies a row of full tiles in straight lines of named loads, permutes, blends and
//! stores at constant offsets. The controls are bound once, before the loop over the
//! row's tiles; the runtime walks the grid, splits it across threads and copies the edge
//! tiles. The operations are those of `swizzle::kernel::simd`'s level tokens.

use super::lit;
use crate::check::{CheckedKernel, Direction};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};
use std::collections::{BTreeMap, BTreeSet};
use swizzle_core::kernel::{Network, Step};

/// The most permute steps a level's network is unrolled for: a few hundred lines of
/// expansion at most (a 16 × 16 Morton tile has 64 on AVX2).
pub const MAX_STEPS: usize = 256;

/// Bytes per element of the generated code.
const WORD: usize = 4;

/// The SIMD levels code is generated for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Level {
    Avx512,
    Avx2,
    Neon,
}

impl Level {
    const ALL: [Level; 3] = [Level::Avx512, Level::Avx2, Level::Neon];

    /// Words per register.
    fn words(self) -> usize {
        match self {
            Level::Avx512 => 16,
            Level::Avx2 => 8,
            Level::Neon => 4,
        }
    }

    /// The field of `swizzle::kernel::simd::Rows`, and the prefix of the functions.
    fn name(self) -> &'static str {
        match self {
            Level::Avx512 => "avx512",
            Level::Avx2 => "avx2",
            Level::Neon => "neon",
        }
    }

    fn title(self) -> &'static str {
        match self {
            Level::Avx512 => "AVX-512",
            Level::Avx2 => "AVX2",
            Level::Neon => "NEON",
        }
    }

    fn token(self) -> TokenStream {
        match self {
            Level::Avx512 => quote!(::swizzle::kernel::simd::Avx512),
            Level::Avx2 => quote!(::swizzle::kernel::simd::Avx2),
            Level::Neon => quote!(::swizzle::kernel::simd::Neon),
        }
    }

    fn arch(self) -> &'static str {
        match self {
            Level::Avx512 | Level::Avx2 => "x86_64",
            Level::Neon => "aarch64",
        }
    }

    /// Whether stores may stream (x86): the code then takes a `STREAM` parameter.
    fn streams(self) -> bool {
        self != Level::Neon
    }
}

/// The generated rows and `ROWS`, `code()`: everything `copy_with_code` takes. `full_tile`
/// says whether the kernel has a straight-line tile.
pub fn rows(kernel: &CheckedKernel, full_tile: bool) -> TokenStream {
    let generated: Vec<(Level, TokenStream)> = Level::ALL
        .into_iter()
        .filter_map(|level| Some((level, level_rows(kernel, level)?)))
        .collect();
    let fields = generated.iter().map(|(level, _)| {
        let (field, arch) = (format_ident!("{}", level.name()), level.arch());
        let rows = format_ident!("{}_rows", level.name());
        quote!(#[cfg(target_arch = #arch)] #field: Some(Self::#rows),)
    });
    let functions = generated.iter().map(|(_, code)| code);
    let tile = match full_tile {
        true => quote!(Some(Self::full_tile::<E>)),
        false => quote!(None),
    };
    quote! {
        /// Rows of full tiles as SIMD code, per level (4-byte elements).
        pub const ROWS: ::swizzle::kernel::simd::Rows = ::swizzle::kernel::simd::Rows {
            #(#fields)*
            ..::swizzle::kernel::simd::Rows::NONE
        };

        /// Everything generated for full tiles, as `swizzle::kernel::copy_with_code` takes it.
        pub fn code<E: ::swizzle::kernel::Element>() -> ::swizzle::kernel::Code<E> {
            ::swizzle::kernel::Code { tile: #tile, rows: Self::ROWS }
        }

        #(#functions)*
    }
}

/// Where a register lies: the slice it is in (an image row, or the tile) and its byte
/// offset there.
struct Place {
    slice: Ident,
    at: usize,
}

/// One side of the copy, as the generated code slices it.
struct Frame {
    /// Columns per image row; `None` for a tile.
    image: Option<usize>,
    /// The tile's slice (layouts).
    tile: Ident,
    /// Bytes the tile's slice spans.
    reach: usize,
}

impl Frame {
    fn place(&self, at: usize) -> Place {
        match self.image {
            Some(cols) => Place {
                slice: format_ident!("row_{}", at / cols),
                at: at % cols * WORD,
            },
            None => Place {
                slice: self.tile.clone(),
                at: at * WORD,
            },
        }
    }

    /// Whether registers at `offsets` lie in more than one image row.
    fn spans_rows(&self, offsets: &[usize]) -> bool {
        self.image
            .is_some_and(|cols| offsets.iter().any(|&at| at >= cols))
    }

    /// The `let`s binding the slices of one tile that `used` (register offsets) touch, from
    /// `buffer` at `start`; the image's rows lie `pitch` apart.
    fn slices(&self, used: &[usize], buffer: &Ident, start: &Ident, mutable: bool) -> TokenStream {
        match self.image {
            Some(cols) => {
                let rows: BTreeSet<usize> = used.iter().map(|at| at / cols).collect();
                let count = rows.last().map_or(0, |last| last + 1);
                let names = (0..count).map(|r| match rows.contains(&r) {
                    true => {
                        let name = format_ident!("row_{}", r);
                        quote!(#name)
                    }
                    false => quote!(_),
                });
                let pitch = match count {
                    1 => quote!(0),
                    _ => quote!(pitch),
                };
                let (count, bytes) = (lit(count), lit(cols * WORD));
                let rows = match mutable {
                    true => quote!(rows_mut),
                    false => quote!(rows),
                };
                quote! {
                    let [#(#names),*] =
                        ::swizzle::kernel::simd::#rows::<#count, #bytes>(#buffer, #start, #pitch);
                }
            }
            None => {
                let (tile, reach) = (&self.tile, lit(self.reach));
                let borrow = match mutable {
                    true => quote!(&mut),
                    false => quote!(&),
                };
                quote!(let #tile = #borrow #buffer[#start..][..#reach];)
            }
        }
    }
}

/// The rows of one level, or `None` where the plan has no network for its registers, the
/// network is too large to unroll, or a side's image rows are not those of a 2-D tile.
fn level_rows(kernel: &CheckedKernel, level: Level) -> Option<TokenStream> {
    let plan = &kernel.plan;
    let words = level.words();
    let network = plan.networks.iter().find(|n| n.lanes == words)?;
    if network.steps.len() > MAX_STEPS || network.stores.is_empty() {
        return None;
    }
    let cols = match plan.tile[..] {
        [_, cols] => Some(cols),
        _ => None,
    };
    let reach = |offsets: &[usize]| (offsets.iter().max().copied().unwrap_or(0) + words) * WORD;
    let frame = |image: bool, tile: &str, offsets: &[usize]| -> Option<Frame> {
        Some(Frame {
            image: if image { Some(cols?) } else { None },
            tile: format_ident!("{}", tile),
            reach: reach(offsets),
        })
    };
    let (from, to) = match kernel.direction {
        Direction::Pack => (
            frame(true, "image", &network.loads)?,
            frame(false, "tile", &network.stores)?,
        ),
        Direction::Unpack => (
            frame(false, "tile", &network.loads)?,
            frame(true, "image", &network.stores)?,
        ),
        Direction::Copy => (
            frame(false, "source", &network.loads)?,
            frame(false, "destination", &network.stores)?,
        ),
    };
    let mut controls = Controls::default();
    let (body, permutes) = stores(level, network, &from, &to, &mut controls);
    // The image's pitch, where the tile spans more than one of its rows.
    let pitch = match kernel.direction {
        Direction::Pack if from.spans_rows(&network.loads) => {
            quote!(let pitch = tiles.pitches[0];)
        }
        Direction::Unpack if to.spans_rows(&network.stores) => {
            quote!(let pitch = tiles.pitches[1];)
        }
        _ => TokenStream::new(),
    };
    let (src, dst) = (format_ident!("src"), format_ident!("dst"));
    let (from_start, to_start) = (format_ident!("from"), format_ident!("to"));
    let loads_slices = from.slices(&network.loads, &src, &from_start, false);
    let stores_slices = to.slices(&network.stores, &dst, &to_start, true);
    let controls = controls.lets(level);
    let token = level.token();
    let arch = level.arch();
    let rows = format_ident!("{}_rows", level.name());
    let tiles_fn = format_ident!("{}_tiles", level.name());
    let doc = format!(
        " {} rows of full tiles (4-byte elements, {} per register): {} stores from {} loads, \
         {} permutes.",
        level.title(),
        words,
        network.stores.len(),
        network.loads.len(),
        permutes,
    );
    let (generics, call) = match level.streams() {
        true => (
            quote!(<const STREAM: bool>),
            quote! {
                match tiles.stream {
                    true => cpu.vectorize(|| Self::#tiles_fn::<true>(cpu, src, dst, tiles)),
                    false => cpu.vectorize(|| Self::#tiles_fn::<false>(cpu, src, dst, tiles)),
                }
            },
        ),
        false => (
            TokenStream::new(),
            quote!(cpu.vectorize(|| Self::#tiles_fn(cpu, src, dst, tiles))),
        ),
    };
    Some(quote! {
        #[doc = #doc]
        #[cfg(target_arch = #arch)]
        fn #rows(cpu: #token, src: &[u8], dst: &mut [u8], tiles: ::swizzle::kernel::simd::TileRow) {
            #call
        }

        #[cfg(target_arch = #arch)]
        #[inline(always)]
        fn #tiles_fn #generics(cpu: #token, src: &[u8], dst: &mut [u8], tiles: ::swizzle::kernel::simd::TileRow) {
            #controls
            #pitch
            for (from, to) in tiles.starts() {
                #loads_slices
                #stores_slices
                #(#body)*
            }
        }
    })
}

/// The controls of one level, named in the order first used.
#[derive(Default)]
struct Controls {
    named: BTreeMap<Vec<u32>, Ident>,
    order: Vec<Vec<u32>>,
}

impl Controls {
    fn name(&mut self, control: Vec<u32>) -> Ident {
        let next = self.named.len();
        self.named
            .entry(control.clone())
            .or_insert_with(|| {
                self.order.push(control);
                format_ident!("control_{}", next)
            })
            .clone()
    }

    fn lets(&self, level: Level) -> TokenStream {
        let lets = self.order.iter().map(|control| {
            let name = &self.named[control];
            let values = control.iter().map(|&v| lit(v as usize));
            match level {
                Level::Neon => quote!(let #name = cpu.bytes([#(#values),*]);),
                _ => quote!(let #name = cpu.words([#(#values),*]);),
            }
        });
        quote!(#(#lets)*)
    }
}

/// The statements of one tile: per store, its loads (first use), permutes and the store;
/// and how many permutes there are.
fn stores(
    level: Level,
    network: &Network,
    from: &Frame,
    to: &Frame,
    controls: &mut Controls,
) -> (Vec<TokenStream>, usize) {
    let mut permuted = 0;
    let words = level.words();
    let mut loaded = BTreeSet::new();
    let mut statements = Vec::new();
    let mut by_store: BTreeMap<usize, Vec<&Step>> = BTreeMap::new();
    for step in network.steps.iter() {
        by_store.entry(step.store).or_default().push(step);
    }
    for (&store, steps) in &by_store {
        for step in steps {
            if loaded.insert(step.load) {
                let Place { slice, at } = from.place(network.loads[step.load]);
                let (name, at) = (format_ident!("load_{}", step.load), lit(at));
                statements.push(quote!(let #name = cpu.load(#slice, #at);));
            }
        }
        let load = |step: &Step| format_ident!("load_{}", step.load);
        let full = (1u64 << words) - 1;
        let identity = steps.len() == 1
            && steps[0].mask & full == full
            && steps[0]
                .lanes
                .iter()
                .enumerate()
                .all(|(i, &l)| usize::from(l) == i);
        // A register stored as it was loaded keeps the load's name.
        let register = match identity {
            true => load(steps[0]),
            false => format_ident!("store_{}", store),
        };
        if !identity {
            let built = permutes(level, &register, steps, controls, load);
            permuted += built.len();
            statements.extend(built);
        }
        let Place { slice, at } = to.place(network.stores[store]);
        let at = lit(at);
        statements.push(match level.streams() {
            true => quote!(cpu.store::<STREAM>(#slice, #at, #register);),
            false => quote!(cpu.store(#slice, #at, #register);),
        });
    }
    (statements, permuted)
}

/// The permutes that build one destination register from its steps.
fn permutes(
    level: Level,
    register: &Ident,
    steps: &[&Step],
    controls: &mut Controls,
    load: impl Fn(&Step) -> Ident,
) -> Vec<TokenStream> {
    let words = level.words();
    // Word indices of one step (0 where it writes nothing), or of two (the second's from
    // `words` on).
    let word_control = |first: &Step, second: Option<&Step>| -> Vec<u32> {
        (0..words)
            .map(|lane| match (first.mask >> lane & 1, second) {
                (1, _) => u32::from(first.lanes[lane]),
                (_, Some(second)) if second.mask >> lane & 1 == 1 => {
                    (words + usize::from(second.lanes[lane])) as u32
                }
                _ => 0,
            })
            .collect()
    };
    // NEON: byte indices, 255 (keep) where neither step writes.
    let byte_control = |first: &Step, second: Option<&Step>| -> Vec<u32> {
        let word = word_control(first, second);
        let written = |lane: usize| {
            first.mask >> lane & 1 == 1 || second.is_some_and(|s| s.mask >> lane & 1 == 1)
        };
        (0..words * WORD)
            .map(|byte| match written(byte / WORD) {
                true => word[byte / WORD] * WORD as u32 + (byte % WORD) as u32,
                false => 255,
            })
            .collect()
    };
    let mask_lit = |mask: u64| {
        let bits = format!("0b{:0width$b}", mask & ((1u64 << words) - 1), width = words);
        bits.parse::<TokenStream>().unwrap_or_default()
    };
    let mut out = Vec::new();
    match level {
        Level::Avx2 => {
            for (index, step) in steps.iter().enumerate() {
                let control = controls.name(word_control(step, None));
                let load = load(step);
                out.push(match index {
                    0 => quote!(let #register = cpu.permute(#load, #control);),
                    _ => {
                        let mask = mask_lit(step.mask);
                        quote! {
                            let #register = cpu.blend::<#mask>(#register, cpu.permute(#load, #control));
                        }
                    }
                });
            }
        }
        Level::Avx512 => {
            let (first, rest) = match steps {
                [a, b, rest @ ..] => {
                    let control = controls.name(word_control(a, Some(b)));
                    let (a, b) = (load(a), load(b));
                    (
                        quote!(let #register = cpu.permute2(#a, #control, #b);),
                        rest,
                    )
                }
                [a, rest @ ..] => {
                    let control = controls.name(word_control(a, None));
                    let a = load(a);
                    (quote!(let #register = cpu.permute(#a, #control);), rest)
                }
                [] => return out,
            };
            out.push(first);
            for step in rest {
                let control = controls.name(word_control(step, None));
                let (mask, load) = (mask_lit(step.mask), load(step));
                out.push(quote! {
                    let #register = cpu.permute_into(#register, #mask, #load, #control);
                });
            }
        }
        Level::Neon => {
            for (index, pair) in steps.chunks(2).enumerate() {
                let control = controls.name(byte_control(pair[0], pair.get(1).copied()));
                let a = load(pair[0]);
                out.push(match (index, pair.get(1)) {
                    (0, Some(b)) => {
                        let b = load(b);
                        quote!(let #register = cpu.permute2(#a, #control, #b);)
                    }
                    (0, None) => quote!(let #register = cpu.permute(#a, #control);),
                    (_, Some(b)) => {
                        let b = load(b);
                        quote!(let #register = cpu.permute2_into(#register, #a, #control, #b);)
                    }
                    (_, None) => quote!(let #register = cpu.permute_into(#register, #a, #control);),
                });
            }
        }
    }
    out
}
