//! Helpers shared by the core test suites: parsing a layout from text and walking its
//! coordinates.

#![allow(dead_code)]

use swizzle_core::ir::Descriptor;

/// The single layout described by `source`, which must check.
pub fn layout(source: &str) -> Descriptor {
    let mut checked = swizzle_core::layouts(source).unwrap_or_else(|e| panic!("{e}\n{source}"));
    assert_eq!(checked.len(), 1, "expected one layout in {source}");
    checked.remove(0).descriptor
}

/// Every coordinate of a shape, row-major.
pub fn coordinates(shape: &[usize]) -> impl Iterator<Item = Vec<usize>> + '_ {
    let size: usize = shape.iter().product();
    (0..size).map(move |mut index| {
        let mut coord = vec![0; shape.len()];
        for (c, &len) in coord.iter_mut().zip(shape).rev() {
            *c = index % len;
            index /= len;
        }
        coord
    })
}
