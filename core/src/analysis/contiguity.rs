//! Contiguity: how many elements along the last coordinate a single vector load (or store)
//! can move, i.e. the widest aligned run that is contiguous and in order in memory.

use super::coordinates;
use crate::budget::ANALYSIS_COORDINATES;
use crate::ir::Descriptor;
use crate::picture::Cells;

/// The largest power of two `v ≤ len(last coordinate)` such that, for every valid
/// coordinate `c` with `last(c) % v == 0`, the `v` elements `c + i·e_last` (`i < v`) are
/// valid and lie at `offset(c) + i`; 1 if there is none (or the layout has no coordinates).
///
/// At most [`ANALYSIS_COORDINATES`] coordinates are evaluated: the first rows, and of a row
/// longer than that its first elements, whose runs then end where the evaluation stops (so
/// a width that does not divide the row is never claimed for it).
pub fn vector_width(layout: &Descriptor) -> usize {
    width(&layout.shape(), |coord| layout.offset(coord).ok())
}

/// [`vector_width`] of the layout whose offsets `cells` hold, read from them instead of
/// evaluated: the same width, since the cells hold every coordinate it would evaluate.
pub fn vector_width_of(cells: &Cells) -> usize {
    width(cells.shape(), |coord| {
        cells.index(coord).and_then(|index| cells.offset(index))
    })
}

/// [`vector_width`] over a shape whose offsets `offset` gives (`None`: padding).
fn width(shape: &[usize], offset: impl Fn(&[usize]) -> Option<usize>) -> usize {
    let Some((&len, outer)) = shape.split_last() else {
        return 1;
    };
    if len == 0 {
        return 1;
    }
    // A run cannot pass the row's end, so an aligned width must divide the row; past the
    // budget, the row's tail is not evaluated and this bound stands in for it.
    let evaluated = len.min(ANALYSIS_COORDINATES);
    let mut width = match evaluated < len {
        true => (1 << evaluated.ilog2()).min(1 << len.trailing_zeros()),
        false => 1 << len.ilog2(),
    };
    let rows = (ANALYSIS_COORDINATES / evaluated).max(1);
    for prefix in coordinates(outer).take(rows) {
        let runs = runs(&offset, &prefix, evaluated);
        while width > 1
            && runs
                .iter()
                .step_by(width)
                .any(|&run| run != 0 && run < width)
        {
            width /= 2;
        }
        if width == 1 {
            break;
        }
    }
    width
}

/// For each position `x` of the row at `prefix`: how many elements from `x` on are valid
/// and at consecutive offsets (0 where `x` itself is invalid).
fn runs(offset: impl Fn(&[usize]) -> Option<usize>, prefix: &[usize], len: usize) -> Vec<usize> {
    let offsets: Vec<Option<usize>> = (0..len)
        .map(|x| {
            let coord: Vec<usize> = prefix.iter().copied().chain([x]).collect();
            offset(&coord)
        })
        .collect();
    let mut runs = vec![0; len];
    for x in (0..len).rev() {
        if let Some(offset) = offsets[x] {
            let next = offset.checked_add(1);
            let continues = x + 1 < len && next.is_some() && offsets[x + 1] == next;
            runs[x] = 1 + if continues { runs[x + 1] } else { 0 };
        }
    }
    runs
}
