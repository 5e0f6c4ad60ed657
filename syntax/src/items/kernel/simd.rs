//! A kernel's full tiles as constant tables (`swizzle::kernel::simd::FullTiles`): each
//! permute network of the plan once per lane count (register offsets, and per step its
//! store, load, written lanes and lane map), and the tile's runs (source offset,
//! destination offset, length) for the straight-line
//! copy. The runtime's rows of each SIMD level and its straight-line tile unroll them, with
//! every offset and permute control computed at compile time from the same tables (its
//! `simd::table`), so that the expansion stays a few lines of data per network.

use super::Direction;
use crate::print::{lit, paths};
use proc_macro2::{Ident, TokenStream};
use quote::quote;
use std::collections::{BTreeMap, BTreeSet};
use swizzle_core::plans::kernel::{Network, Plan, Run};
use swizzle_core::simd::{ELEMENT_SIZES, Level, Permute, StepControl};

/// The most permute steps of a network, and runs of a tile, the runtime unrolls
/// (`swizzle::kernel::simd::MAX_UNROLLED`): larger ones are left to its interpreted
/// networks and its loop over the plan's runs.
pub const MAX_UNROLLED: usize = 256;

/// `impl FullTiles for <name>`: the tables of the networks and runs of `plan`, a kernel's
/// copying `direction`.
pub fn full_tiles(name: &Ident, plan: &Plan, direction: Direction) -> TokenStream {
    let image = image(plan, direction);
    let usable = usable(image, direction);
    let networks = plan
        .networks
        .iter()
        .filter(|network| usable && unrolls(network, image))
        .map(network_table);
    // A run's place in the tile is its offset in the row-major image (the runtime reads it
    // there); a plan where it is not gets no straight-line tile.
    let image_at = |run: &Run| match image {
        Some((0, _)) => run.from == run.at,
        Some(_) => run.to == run.at,
        None => true,
    };
    let unrolled = usable && plan.runs.len() <= MAX_UNROLLED && plan.runs.iter().all(image_at);
    let runs = plan.runs.iter().filter(|_| unrolled).map(|run| {
        let (from, to, len) = (lit(run.from), lit(run.to), lit(run.len));
        quote!((#from, #to, #len))
    });
    let image = match image {
        Some((side, cols)) => {
            let (side, cols) = (lit(side), lit(cols));
            quote!(Some((#side, #cols)))
        }
        None => quote!(None),
    };
    let simd = paths::simd();
    quote! {
        #[doc(hidden)]
        impl #simd::FullTiles for #name {
            const IMAGE: Option<(usize, usize)> = #image;
            const NETWORKS: &'static [#simd::Network] = &[#(#networks),*];
            const RUNS: &'static [#simd::Run] = &[#(#runs),*];
        }
    }
}

/// The row-major image side of pack and unpack of two-coordinate tiles (0: the source, 1:
/// the destination) and its columns per tile row; `None` otherwise.
fn image(plan: &Plan, direction: Direction) -> Option<(usize, usize)> {
    match (direction, &plan.tile[..]) {
        (Direction::Pack, &[_, cols]) => Some((0, cols)),
        (Direction::Unpack, &[_, cols]) => Some((1, cols)),
        _ => None,
    }
}

/// Whether a kernel gets generated code at all: pack and unpack of tiles that are not 2-D
/// get neither rows nor a straight-line tile.
fn usable(image: Option<(usize, usize)>, direction: Direction) -> bool {
    image.is_some() || direction == Direction::Copy
}

/// The SIMD levels and element sizes whose generated rows a copy with `plan` takes where
/// the CPU has the level (the runtime's route): the macro unrolls the level's network, and
/// its source registers fit the level's register file.
fn rows_taken(plan: &Plan, direction: Direction) -> BTreeSet<(Level, usize)> {
    let image = image(plan, direction);
    let mut taken = BTreeSet::new();
    for level in Level::SIMD {
        for size in ELEMENT_SIZES {
            let lanes = level.lanes(size);
            let network = plan.networks.iter().find(|n| n.lanes == lanes);
            if network.is_some_and(|network| {
                usable(image, direction) && unrolls(network, image) && level.fits_registers(network)
            }) {
                taken.insert((level, size));
            }
        }
    }
    taken
}

/// Whether a kernel whose tile is a stack of sub-tiles copies the sub-tiles, stacked: where
/// the whole tile's generated rows are taken (for a level and an element size) the
/// sub-tile's are too, and for some level and size only the sub-tile's are (a tile too tall
/// for the register file, whose sub-tile fits it).
pub fn stacking_pays(whole: &Plan, sub: &Plan, direction: Direction) -> bool {
    let (whole, sub) = (rows_taken(whole, direction), rows_taken(sub, direction));
    whole.is_subset(&sub) && sub.len() > whole.len()
}

/// Whether the runtime unrolls `network`: not too many steps, some stores, and no register
/// across two rows of a row-major image side.
fn unrolls(network: &Network, image: Option<(usize, usize)>) -> bool {
    let within_rows = |offsets: &[usize]| match image {
        Some((_, cols)) => offsets.iter().all(|&at| at % cols + network.lanes <= cols),
        None => true,
    };
    let image_offsets = match image {
        Some((0, _)) => &network.loads[..],
        Some(_) => &network.stores[..],
        None => &[][..],
    };
    network.steps.len() <= MAX_UNROLLED && !network.stores.is_empty() && within_rows(image_offsets)
}

/// One network's table: its registers' offsets, its steps and their distinct lane maps.
fn network_table(network: &Network) -> TokenStream {
    let mut maps: BTreeMap<&[u8], usize> = BTreeMap::new();
    let mut order: Vec<&[u8]> = Vec::new();
    let steps = network.steps.iter().map(|step| {
        let lanes = &step.lanes[..network.lanes.min(step.lanes.len())];
        let map = *maps.entry(lanes).or_insert_with(|| {
            order.push(lanes);
            order.len() - 1
        });
        let (store, load, map) = (lit(step.store), lit(step.load), lit(map));
        let mask = mask_literal(step.mask, network.lanes);
        quote!((#store, #load, #mask, #map))
    });
    let steps: Vec<TokenStream> = steps.collect();
    let maps = order.iter().map(|lanes| {
        let lanes = lanes.iter().map(|&lane| lit(usize::from(lane)));
        quote!(&[#(#lanes),*])
    });
    let simd = paths::simd();
    let lanes = lit(network.lanes);
    // Every register of the tile in order (the common case) as `every::<count>(lanes)`.
    let offsets = |offsets: &[usize]| {
        let every = offsets
            .iter()
            .enumerate()
            .all(|(i, &at)| at == i * network.lanes);
        match every && !offsets.is_empty() {
            true => {
                let count = lit(offsets.len());
                quote!(&#simd::every::<#count>(#lanes))
            }
            false => {
                let offsets = offsets.iter().map(|&at| lit(at));
                quote!(&[#(#offsets),*])
            }
        }
    };
    let (loads, stores) = (offsets(&network.loads), offsets(&network.stores));
    quote! {
        #simd::Network {
            lanes: #lanes,
            loads: #loads,
            stores: #stores,
            steps: &[#(#steps),*],
            maps: &[#(#maps),*],
        }
    }
}

/// A mask of `lanes` bits as a hexadecimal literal, a digit per four lanes (short enough
/// for several steps' tuples on a line).
fn mask_literal(mask: u64, lanes: usize) -> TokenStream {
    let text = format!("0x{mask:0width$x}", width = lanes.div_ceil(4));
    text.parse().unwrap_or_default()
}

/// The control of each step of `network` as the rows of `shape` permute (the runtime's
/// unrolled rows and its interpreted networks compute theirs with the same
/// [`Permute::step`]; a test holds them to the same bytes).
pub fn step_controls(shape: Permute, network: &Network) -> Vec<StepControl> {
    network.steps.iter().map(|step| shape.step(step)).collect()
}
