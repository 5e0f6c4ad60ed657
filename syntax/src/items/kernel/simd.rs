//! A kernel's full tiles as SIMD code: for each SIMD level and element size whose registers
//! the plan has a network for (AVX-512's 64 bytes, AVX2's 32, NEON's 16; elements of 1, 2,
//! 4 and 8 bytes), a function that copies a row of full tiles in straight lines of named
//! loads, permutes, blends and stores at constant offsets. The controls are bound once,
//! before the loop over the row's tiles; the runtime walks the grid, splits it across
//! threads and copies the edge tiles. The operations are those of
//! `swizzle::kernel::simd`'s level tokens.

use crate::check::{CheckedKernel, Direction};
use crate::print::{lit, paths};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};
use std::collections::{BTreeMap, BTreeSet};
use swizzle_core::plans::kernel::{Network, Step};
use swizzle_core::simd::{ELEMENT_SIZES, Level, Permute, StepControl};

/// The most permute steps a network is unrolled for: a few hundred lines of expansion at
/// most (a 16 × 16 Morton tile of 4-byte elements has 64 on AVX2).
pub const MAX_STEPS: usize = 256;

/// The runtime's token type of a level: what proves the CPU runs it.
fn token(level: Level) -> TokenStream {
    let simd = paths::simd();
    let token = match level {
        Level::Avx512 => quote!(Avx512),
        Level::Avx2 => quote!(Avx2),
        Level::Neon => quote!(Neon),
    };
    quote!(#simd::#token)
}

/// The functions' names for one level's permutes of one element size:
/// `<level>_rows_<size>` and `<level>_tiles_<size>`.
fn names(shape: Permute) -> (Ident, Ident) {
    let (level, size) = (shape.level.name(), shape.size);
    (
        format_ident!("{}_rows_{}", level, size),
        format_ident!("{}_tiles_{}", level, size),
    )
}

/// The generated rows and `ROWS`, `code()`: everything `copy_generated` takes. `full_tile`
/// says whether the kernel has a straight-line tile.
pub fn rows(kernel: &CheckedKernel, full_tile: bool) -> TokenStream {
    let simd = paths::simd();
    let mut functions = Vec::new();
    let per_size = ELEMENT_SIZES.map(|size| {
        // Widest first, as the runtime tries them.
        let fields = Level::ALL.into_iter().rev().filter_map(|level| {
            let shape = Permute::new(level, size);
            functions.push(shape_rows(kernel, shape)?);
            let (field, arch) = (format_ident!("{}", level.name()), level.arch());
            let (rows, _) = names(shape);
            Some(quote!(#[cfg(target_arch = #arch)] #field: Some(Self::#rows),))
        });
        let fields: Vec<TokenStream> = fields.collect();
        quote! {
            #simd::Rows {
                #(#fields)*
                ..#simd::Rows::NONE
            }
        }
    });
    let tile = match full_tile {
        true => quote!(Some(Self::full_tile::<E>)),
        false => quote!(None),
    };
    let (element, generated_code) = (paths::element(), paths::generated_code());
    quote! {
        /// Rows of full tiles as SIMD code, per level, for elements of 1, 2, 4 and 8 bytes
        /// (the runtime's `simd::Rows::SIZES`).
        #[doc(hidden)]
        pub const ROWS: [#simd::Rows; 4] = [#(#per_size),*];

        /// Everything generated for full tiles of `E`, as the runtime's `copy_generated`
        /// takes it.
        #[doc(hidden)]
        pub fn code<E: #element>() -> #generated_code<E> {
            let rows = #simd::Rows::of::<E>(&Self::ROWS);
            #generated_code { tile: #tile, rows }
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
    /// Bytes per element.
    size: usize,
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
                at: at % cols * self.size,
            },
            None => Place {
                slice: self.tile.clone(),
                at: at * self.size,
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
                let (count, bytes) = (lit(count), lit(cols * self.size));
                let rows = match mutable {
                    true => quote!(rows_mut),
                    false => quote!(rows),
                };
                let simd = paths::simd();
                quote! {
                    let [#(#names),*] = #simd::#rows::<#count, #bytes>(#buffer, #start, #pitch);
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

/// The rows of one level and element size, or `None` where the plan has no network for its
/// registers, the network is too large to unroll, or a side's image rows are not those of
/// a 2-D tile.
fn shape_rows(kernel: &CheckedKernel, shape: Permute) -> Option<TokenStream> {
    let plan = &kernel.plan;
    let lanes = shape.lanes();
    let network = plan.networks.iter().find(|n| n.lanes == lanes)?;
    if network.steps.len() > MAX_STEPS || network.stores.is_empty() {
        return None;
    }
    let cols = match plan.tile[..] {
        [_, cols] => Some(cols),
        _ => None,
    };
    let size = shape.size;
    let reach = |offsets: &[usize]| (offsets.iter().max().copied().unwrap_or(0) + lanes) * size;
    let frame = |image: bool, tile: &str, offsets: &[usize]| -> Option<Frame> {
        Some(Frame {
            size,
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
    let (body, permutes) = stores(shape, network, &from, &to, &mut controls);
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
    let controls = controls.lets(shape);
    let level = shape.level;
    let token = token(level);
    let arch = level.arch();
    let (rows, tiles_fn) = names(shape);
    let doc = format!(
        " {} rows of full tiles ({}-byte elements, {} per register): {} stores from {} \
         loads, {} permutes.",
        level.title(),
        size,
        lanes,
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
    let simd = paths::simd();
    let tile_row = quote!(#simd::TileRow);
    Some(quote! {
        #[doc = #doc]
        #[cfg(target_arch = #arch)]
        fn #rows(cpu: #token, src: &[u8], dst: &mut [u8], tiles: #tile_row) {
            #call
        }

        #[cfg(target_arch = #arch)]
        #[inline(always)]
        fn #tiles_fn #generics(cpu: #token, src: &[u8], dst: &mut [u8], tiles: #tile_row) {
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

/// What a constant of the code is for: its name's prefix.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Constant {
    /// Unit indices of a permute.
    Control,
    /// AVX2 bytes: which bytes come from the other 128-bit half.
    Cross,
    /// AVX2 bytes: which bytes a blend takes.
    Blend,
}

/// The constants of one level and size, named in the order first used.
#[derive(Default)]
struct Controls {
    named: BTreeMap<(Constant, Vec<u32>), Ident>,
    order: Vec<(Constant, Vec<u32>)>,
}

impl Controls {
    fn name(&mut self, kind: Constant, values: Vec<u32>) -> Ident {
        let prefix = match kind {
            Constant::Control => "control",
            Constant::Cross => "cross",
            Constant::Blend => "blend",
        };
        let next = self.order.iter().filter(|(k, _)| *k == kind).count();
        let key = (kind, values);
        if let Some(name) = self.named.get(&key) {
            return name.clone();
        }
        let name = format_ident!("{}_{}", prefix, next);
        self.order.push(key.clone());
        self.named.insert(key, name.clone());
        name
    }

    fn lets(&self, shape: Permute) -> TokenStream {
        let lets = self.order.iter().map(|key| {
            let name = &self.named[key];
            let values = key.1.iter().map(|&v| lit(v as usize));
            match shape.words() {
                true => quote!(let #name = cpu.words([#(#values),*]);),
                false => quote!(let #name = cpu.bytes([#(#values),*]);),
            }
        });
        quote!(#(#lets)*)
    }
}

/// The control of each step of `network` as the generated rows of `shape` permute: what
/// their constants are made of (the runtime's interpreted networks compute theirs with the
/// same [`Permute::step`]; a test holds the two to the same bytes).
pub fn step_controls(shape: Permute, network: &Network) -> Vec<StepControl> {
    network.steps.iter().map(|step| shape.step(step)).collect()
}

/// The statements of one tile: per store, its loads (first use), permutes and the store;
/// and how many permutes there are.
fn stores(
    shape: Permute,
    network: &Network,
    from: &Frame,
    to: &Frame,
    controls: &mut Controls,
) -> (Vec<TokenStream>, usize) {
    let mut permuted = 0;
    let mut loaded = BTreeSet::new();
    let mut statements = Vec::new();
    let step_controls = step_controls(shape, network);
    let mut by_store: BTreeMap<usize, Vec<Planned>> = BTreeMap::new();
    for (step, control) in network.steps.iter().zip(&step_controls) {
        by_store
            .entry(step.store)
            .or_default()
            .push((step, control));
    }
    let lanes = shape.lanes();
    for (&store, planned) in &by_store {
        let steps: Vec<&Step> = planned.iter().map(|&(step, _)| step).collect();
        for step in &steps {
            if loaded.insert(step.load) {
                let Place { slice, at } = from.place(network.loads[step.load]);
                let (name, at) = (format_ident!("load_{}", step.load), lit(at));
                statements.push(quote!(let #name = cpu.load(#slice, #at);));
            }
        }
        let load = |step: &Step| format_ident!("load_{}", step.load);
        let full = u64::MAX >> (64 - lanes);
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
            let built = permutes(shape, &register, planned, controls, load);
            permuted += built.len();
            statements.extend(built);
        }
        let Place { slice, at } = to.place(network.stores[store]);
        let at = lit(at);
        statements.push(match shape.level.streams() {
            true => quote!(cpu.store::<STREAM>(#slice, #at, #register);),
            false => quote!(cpu.store(#slice, #at, #register);),
        });
    }
    (statements, permuted)
}

/// A mask of `units` bits as a literal: binary up to 16 bits, hexadecimal beyond.
fn mask_literal(mask: u64, units: usize) -> TokenStream {
    let text = match units {
        ..=16 => format!("0b{mask:0units$b}"),
        _ => format!("0x{mask:0width$x}", width = units / 4),
    };
    text.parse().unwrap_or_default()
}

/// A step of a network and its control.
type Planned<'a> = (&'a Step, &'a StepControl);

/// The permutes that build one destination register from its steps.
fn permutes(
    shape: Permute,
    register: &Ident,
    steps: &[Planned],
    controls: &mut Controls,
    load: impl Fn(&Step) -> Ident,
) -> Vec<TokenStream> {
    let units = shape.units();
    let mut out = Vec::new();
    match (shape.level, shape.words()) {
        (Level::Avx2, true) => {
            for (index, &(step, control)) in steps.iter().enumerate() {
                let name = controls.name(Constant::Control, control.sources.clone());
                let load = load(step);
                out.push(match index {
                    0 => quote!(let #register = cpu.permute(#load, #name);),
                    _ => {
                        let mask = mask_literal(control.writes, units);
                        quote! {
                            let #register = cpu.blend::<#mask>(#register, cpu.permute(#load, #name));
                        }
                    }
                });
            }
        }
        (Level::Avx2, false) => {
            // `vpshufb` indexes within 128-bit halves: each byte's index there, and whether
            // it comes from the other half.
            for (index, &(step, control)) in steps.iter().enumerate() {
                let (within, cross) = control.in_halves();
                let within = controls.name(Constant::Control, within);
                let cross = controls.name(Constant::Cross, cross);
                let load = load(step);
                let permuted = quote!(cpu.permute_bytes(#load, #within, #cross));
                out.push(match index {
                    0 => quote!(let #register = #permuted;),
                    _ => {
                        let blend = controls.name(Constant::Blend, control.blend());
                        quote!(let #register = cpu.blend_bytes(#register, #permuted, #blend);)
                    }
                });
            }
        }
        (Level::Avx512, words) => {
            let (permute, permute2, permute_into) = match words {
                true => (quote!(permute), quote!(permute2), quote!(permute_into)),
                false => (
                    quote!(permute_bytes),
                    quote!(permute2_bytes),
                    quote!(permute_bytes_into),
                ),
            };
            let (first, rest) = match steps {
                [(a, ca), (b, cb), rest @ ..] => {
                    let control = controls.name(Constant::Control, shape.pair(ca, Some(cb), 0));
                    let (a, b) = (load(a), load(b));
                    (
                        quote!(let #register = cpu.#permute2(#a, #control, #b);),
                        rest,
                    )
                }
                [(a, ca), rest @ ..] => {
                    let control = controls.name(Constant::Control, ca.sources.clone());
                    let a = load(a);
                    (quote!(let #register = cpu.#permute(#a, #control);), rest)
                }
                [] => return out,
            };
            out.push(first);
            for &(step, control) in rest {
                let mask = mask_literal(control.writes, units);
                let name = controls.name(Constant::Control, control.sources.clone());
                let load = load(step);
                out.push(quote! {
                    let #register = cpu.#permute_into(#register, #mask, #load, #name);
                });
            }
        }
        (Level::Neon, _) => {
            // Indices past the tables (255) keep the register's byte (`tbx`).
            for (index, pair) in steps.chunks(2).enumerate() {
                let (a, ca) = pair[0];
                let second = pair.get(1).copied();
                let control = shape.pair(ca, second.map(|(_, c)| c), 255);
                let control = controls.name(Constant::Control, control);
                let a = load(a);
                out.push(match (index, second) {
                    (0, Some((b, _))) => {
                        let b = load(b);
                        quote!(let #register = cpu.permute2(#a, #control, #b);)
                    }
                    (0, None) => quote!(let #register = cpu.permute(#a, #control);),
                    (_, Some((b, _))) => {
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
