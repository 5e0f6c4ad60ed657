//! A kernel's full tiles as SIMD code: for each SIMD level and element size whose registers
//! the plan has a network for (AVX-512's 64 bytes, AVX2's 32, NEON's 16; elements of 1, 2,
//! 4 and 8 bytes), a function that copies a row of full tiles in straight lines of named
//! loads, permutes, blends and stores at constant offsets. The controls are bound once,
//! before the loop over the row's tiles; the runtime walks the grid, splits it across
//! threads and copies the edge tiles. The operations are those of
//! `swizzle::kernel::simd`'s level tokens.

use super::{lit, paths};
use crate::check::{CheckedKernel, Direction};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};
use std::collections::{BTreeMap, BTreeSet};
use swizzle_core::plans::kernel::{Network, Step};

/// The most permute steps a network is unrolled for: a few hundred lines of expansion at
/// most (a 16 × 16 Morton tile of 4-byte elements has 64 on AVX2).
pub const MAX_STEPS: usize = 256;

/// The element sizes code is generated for, in the order of `ROWS` (the runtime's
/// `Rows::SIZES`).
const SIZES: [usize; 4] = [1, 2, 4, 8];

/// The SIMD levels code is generated for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Level {
    Avx512,
    Avx2,
    Neon,
}

impl Level {
    const ALL: [Level; 3] = [Level::Avx512, Level::Avx2, Level::Neon];

    /// Bytes per register.
    fn register(self) -> usize {
        match self {
            Level::Avx512 => 64,
            Level::Avx2 => 32,
            Level::Neon => 16,
        }
    }

    /// The field of the runtime's `simd::Rows`, and the prefix of the functions.
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
        let simd = paths::simd();
        match self {
            Level::Avx512 => quote!(#simd::Avx512),
            Level::Avx2 => quote!(#simd::Avx2),
            Level::Neon => quote!(#simd::Neon),
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

/// How one level moves elements of one size: in words (x86, elements of 4 and 8 bytes) or
/// in bytes (narrower elements on x86, every size on NEON, whose lookups are bytewise).
#[derive(Clone, Copy)]
struct Shape {
    level: Level,
    /// Bytes per element.
    size: usize,
}

impl Shape {
    /// Bytes per unit of the permutes: 4 (words) or 1 (bytes).
    fn unit(self) -> usize {
        match (self.level, self.size) {
            (Level::Neon, _) => 1,
            (_, size) if size >= 4 => 4,
            _ => 1,
        }
    }

    fn words(self) -> bool {
        self.unit() == 4
    }

    /// Units per register.
    fn units(self) -> usize {
        self.level.register() / self.unit()
    }

    /// Elements per register: the network's lanes.
    fn lanes(self) -> usize {
        self.level.register() / self.size
    }

    /// Units per element.
    fn per_lane(self) -> usize {
        self.size / self.unit()
    }

    /// The units `step` writes, as a bit mask.
    fn mask(self, step: &Step) -> u64 {
        (0..self.units())
            .filter(|unit| step.mask >> (unit / self.per_lane()) & 1 == 1)
            .fold(0, |mask, unit| mask | 1 << unit)
    }

    /// The unit indices of one step, or of two (the second's from `units()` on); `fill`
    /// where neither writes.
    fn control(self, first: &Step, second: Option<&Step>, fill: u32) -> Vec<u32> {
        let (units, per_lane) = (self.units(), self.per_lane());
        (0..units)
            .map(|unit| {
                let (lane, part) = (unit / per_lane, unit % per_lane);
                let writes = |step: &Step| step.mask >> lane & 1 == 1;
                let source = |step: &Step| usize::from(step.lanes[lane]) * per_lane + part;
                match second {
                    _ if writes(first) => source(first) as u32,
                    Some(second) if writes(second) => (units + source(second)) as u32,
                    _ => fill,
                }
            })
            .collect()
    }

    /// The functions' names: `<level>_rows_<size>` and `<level>_tiles_<size>`.
    fn names(self) -> (Ident, Ident) {
        let (level, size) = (self.level.name(), self.size);
        (
            format_ident!("{}_rows_{}", level, size),
            format_ident!("{}_tiles_{}", level, size),
        )
    }
}

/// The generated rows and `ROWS`, `code()`: everything `copy_generated` takes. `full_tile`
/// says whether the kernel has a straight-line tile.
pub fn rows(kernel: &CheckedKernel, full_tile: bool) -> TokenStream {
    let simd = paths::simd();
    let mut functions = Vec::new();
    let per_size = SIZES.map(|size| {
        let fields = Level::ALL.into_iter().filter_map(|level| {
            let shape = Shape { level, size };
            functions.push(shape_rows(kernel, shape)?);
            let (field, arch) = (format_ident!("{}", level.name()), level.arch());
            let (rows, _) = shape.names();
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
fn shape_rows(kernel: &CheckedKernel, shape: Shape) -> Option<TokenStream> {
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
    let token = level.token();
    let arch = level.arch();
    let (rows, tiles_fn) = shape.names();
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

    fn lets(&self, shape: Shape) -> TokenStream {
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

/// The statements of one tile: per store, its loads (first use), permutes and the store;
/// and how many permutes there are.
fn stores(
    shape: Shape,
    network: &Network,
    from: &Frame,
    to: &Frame,
    controls: &mut Controls,
) -> (Vec<TokenStream>, usize) {
    let mut permuted = 0;
    let mut loaded = BTreeSet::new();
    let mut statements = Vec::new();
    let mut by_store: BTreeMap<usize, Vec<&Step>> = BTreeMap::new();
    for step in network.steps.iter() {
        by_store.entry(step.store).or_default().push(step);
    }
    let lanes = shape.lanes();
    for (&store, steps) in &by_store {
        for step in steps {
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
            let built = permutes(shape, &register, steps, controls, load);
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

/// The permutes that build one destination register from its steps.
fn permutes(
    shape: Shape,
    register: &Ident,
    steps: &[&Step],
    controls: &mut Controls,
    load: impl Fn(&Step) -> Ident,
) -> Vec<TokenStream> {
    let units = shape.units();
    let mut out = Vec::new();
    match (shape.level, shape.words()) {
        (Level::Avx2, true) => {
            for (index, step) in steps.iter().enumerate() {
                let control = controls.name(Constant::Control, shape.control(step, None, 0));
                let load = load(step);
                out.push(match index {
                    0 => quote!(let #register = cpu.permute(#load, #control);),
                    _ => {
                        let mask = mask_literal(shape.mask(step), units);
                        quote! {
                            let #register = cpu.blend::<#mask>(#register, cpu.permute(#load, #control));
                        }
                    }
                });
            }
        }
        (Level::Avx2, false) => {
            // `vpshufb` indexes within 128-bit halves: each byte's index there, and whether
            // it comes from the other half.
            for (index, step) in steps.iter().enumerate() {
                let sources = shape.control(step, None, 0);
                let within = sources.iter().map(|&source| source % 16).collect();
                let cross = sources
                    .iter()
                    .enumerate()
                    .map(|(byte, &source)| match source / 16 == byte as u32 / 16 {
                        true => 0,
                        false => 0x80,
                    })
                    .collect();
                let control = controls.name(Constant::Control, within);
                let cross = controls.name(Constant::Cross, cross);
                let load = load(step);
                let permuted = quote!(cpu.permute_bytes(#load, #control, #cross));
                out.push(match index {
                    0 => quote!(let #register = #permuted;),
                    _ => {
                        let mask = shape.mask(step);
                        let blend = (0..units)
                            .map(|byte| if mask >> byte & 1 == 1 { 0xFF } else { 0 })
                            .collect();
                        let blend = controls.name(Constant::Blend, blend);
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
                [a, b, rest @ ..] => {
                    let control = controls.name(Constant::Control, shape.control(a, Some(b), 0));
                    let (a, b) = (load(a), load(b));
                    (
                        quote!(let #register = cpu.#permute2(#a, #control, #b);),
                        rest,
                    )
                }
                [a, rest @ ..] => {
                    let control = controls.name(Constant::Control, shape.control(a, None, 0));
                    let a = load(a);
                    (quote!(let #register = cpu.#permute(#a, #control);), rest)
                }
                [] => return out,
            };
            out.push(first);
            for step in rest {
                let control = controls.name(Constant::Control, shape.control(step, None, 0));
                let (mask, load) = (mask_literal(shape.mask(step), units), load(step));
                out.push(quote! {
                    let #register = cpu.#permute_into(#register, #mask, #load, #control);
                });
            }
        }
        (Level::Neon, _) => {
            // Indices past the tables (255) keep the register's byte (`tbx`).
            for (index, pair) in steps.chunks(2).enumerate() {
                let second = pair.get(1).copied();
                let control = controls.name(Constant::Control, shape.control(pair[0], second, 255));
                let a = load(pair[0]);
                out.push(match (index, second) {
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
