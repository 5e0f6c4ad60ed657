//! Pictures of a thread-value layout (CuTe's `print_latex` of a TV layout): the tile, each
//! cell showing which thread holds its element and as which value. In the text grid a cell
//! reads `thread.value`; in the SVG it is coloured by thread and numbered with the value.
//! A cell no slot holds is `·` (grey); where slots share an element (declared replication),
//! the first slot in thread-then-value order is shown.

use super::cells::{Cells, PictureError};
use super::svg::{Classes, draw};
use crate::budget::PICTURE_CELLS;
use crate::plans::threads::{Slot, ThreadValues};
use std::fmt::Write;

/// Who holds each element of the tile: `(thread, value)`, row-major over the tile.
fn holders(threads: &ThreadValues<'_>) -> Result<Vec<Option<Slot>>, PictureError> {
    let tile = threads.tile();
    let elements = tile.iter().try_fold(1usize, |acc, &l| acc.checked_mul(l));
    let slots = threads.thread_count().checked_mul(threads.value_count());
    let (Some(elements), Some(slots)) = (elements, slots) else {
        return Err(PictureError::TooLarge { shape: tile });
    };
    if elements > PICTURE_CELLS || slots > PICTURE_CELLS {
        return Err(PictureError::TooLarge { shape: tile });
    }
    let mut holders = vec![None; elements];
    for thread in 0..threads.thread_count() {
        for value in 0..threads.value_count() {
            let slot = Slot { thread, value };
            let Some(element) = threads.element(slot) else {
                continue;
            };
            let index = element
                .iter()
                .zip(&tile)
                .fold(0, |acc, (&c, &l)| acc * l + c);
            holders[index].get_or_insert(slot);
        }
    }
    Ok(holders)
}

/// The tile as cells numbered by value, and each cell's thread.
fn cells(threads: &ThreadValues<'_>) -> Result<(Cells, Vec<Option<usize>>), PictureError> {
    let holders = holders(threads)?;
    let values = holders.iter().map(|h| h.map(|slot| slot.value)).collect();
    let owners = holders.iter().map(|h| h.map(|slot| slot.thread)).collect();
    let cells = Cells::from_values(threads.tile_names(), threads.tile(), values);
    Ok((cells, owners))
}

/// The tile as text: `thread.value` in every cell, `·` where no slot holds the element. For
/// four threads holding two consecutive elements of a 2 × 4 tile each:
///
/// ```text
/// 0.0 0.1 1.0 1.1
/// 2.0 2.1 3.0 3.1
/// ```
pub fn thread_grid(threads: &ThreadValues<'_>) -> Result<String, PictureError> {
    let holders = holders(threads)?;
    let text: Vec<String> = holders
        .iter()
        .map(|h| h.map_or_else(|| "·".to_owned(), |s| format!("{}.{}", s.thread, s.value)))
        .collect();
    let width = text.iter().map(|t| t.chars().count()).max().unwrap_or(1);
    let tile = threads.tile();
    let columns = tile.last().copied().unwrap_or(1).max(1);
    let rows = match tile.len() {
        0 | 1 => 1,
        rank => tile[rank - 2].max(1),
    };
    let plane = rows * columns;
    let mut out = String::new();
    for (p, cells) in text.chunks(plane).enumerate() {
        if tile.len() > 2 {
            let _ = writeln!(out, "{}plane {p}:", if p == 0 { "" } else { "\n" });
        }
        for row in cells.chunks(columns) {
            let row: Vec<String> = row.iter().map(|t| format!("{t:>width$}")).collect();
            let _ = writeln!(out, "{}", row.join(" "));
        }
    }
    Ok(out)
}

/// The tile as an SVG: cells coloured by the thread that holds them and numbered with the
/// value index.
pub fn thread_svg(threads: &ThreadValues<'_>) -> Result<String, PictureError> {
    let (cells, owners) = cells(threads)?;
    let count = threads.thread_count();
    let classes = Classes {
        kind: "thread",
        count,
        of: owners,
        caption: format!(
            "colour: the thread holding each element ({count} threads × {} values); number: \
             its value index",
            threads.value_count()
        ),
        untouched: false,
        empty: "held by none",
    };
    let names = threads.tile_names();
    let lens: Vec<String> = threads.tile().iter().map(usize::to_string).collect();
    let title = format!(
        "{} — tile {} = {}",
        threads.descriptor.name,
        names.join(" × "),
        lens.join(" × ")
    );
    Ok(draw(&cells, &classes, &title, None))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plans::threads::fixtures::rows_of_four;

    #[test]
    fn each_cell_shows_its_thread_and_value() {
        let descriptor = rows_of_four();
        let threads = ThreadValues::new(&descriptor, 1);
        // Thread 2y holds the left half of row y, thread 2y + 1 the right half.
        let expected = "\
0.0 0.1 0.2 0.3 1.0 1.1 1.2 1.3
2.0 2.1 2.2 2.3 3.0 3.1 3.2 3.3
4.0 4.1 4.2 4.3 5.0 5.1 5.2 5.3
6.0 6.1 6.2 6.3 7.0 7.1 7.2 7.3
";
        assert_eq!(thread_grid(&threads).unwrap(), expected);
        let svg = thread_svg(&threads).unwrap();
        assert!(svg.contains("Rows — tile y × x = 4 × 8"), "{svg}");
        assert!(svg.contains("8 threads × 4 values"), "{svg}");
        // Every cell is a thread's colour: no "held by none" in the legend.
        assert!(!svg.contains("held by none"), "{svg}");
    }
}
