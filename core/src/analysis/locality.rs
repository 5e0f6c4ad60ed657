//! Locality of a layout (as CK Tile's Morton texture example measures it): walk memory in
//! offset order and measure how far apart, in coordinate space, consecutive elements are, and
//! how many cache lines the layout spans. A space-filling curve keeps most steps short;
//! row-major has one long jump per row.

use super::coordinates;
use crate::ir::Descriptor;
use std::collections::BTreeMap;

/// The locality of a layout's memory order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Locality {
    /// Manhattan distance between the coordinates of consecutive offsets → how many
    /// consecutive pairs are that far apart.
    pub distances: BTreeMap<usize, usize>,
    /// Distinct cache lines the layout's elements lie in.
    pub cache_lines: usize,
}

/// Walks the valid coordinates of `layout` sorted by offset (coordinates that share an
/// offset in a non-injective layout are taken in row-major order), as CK Tile's Morton
/// texture example walks Morton indices, with elements of `element_bytes` and cache lines
/// of `line_bytes` (0 is read as 1).
pub fn locality(layout: &Descriptor, element_bytes: usize, line_bytes: usize) -> Locality {
    let shape = layout.shape();
    let rank = shape.len();
    // Coordinates flat, `rank` numbers each, and (offset, index) to sort.
    let mut coords: Vec<usize> = Vec::new();
    let mut walk: Vec<(usize, usize)> = Vec::new();
    for coord in coordinates(&shape) {
        if let Ok(offset) = layout.offset(&coord) {
            walk.push((offset, walk.len()));
            coords.extend(coord);
        }
    }
    walk.sort_unstable();
    let coord = |position: usize| &coords[position * rank..(position + 1) * rank];
    let mut distances = BTreeMap::new();
    for pair in walk.windows(2) {
        let distance = coord(pair[0].1)
            .iter()
            .zip(coord(pair[1].1))
            .map(|(a, b)| a.abs_diff(*b))
            .sum();
        *distances.entry(distance).or_insert(0) += 1;
    }
    let line = |offset: usize| offset as u128 * element_bytes as u128 / line_bytes.max(1) as u128;
    let mut lines: Vec<u128> = walk.iter().map(|&(offset, _)| line(offset)).collect();
    lines.dedup();
    Locality {
        distances,
        cache_lines: lines.len(),
    }
}
