//! Helpers for the code `layout!` generates for layouts with run-time (`dyn`) outer dims.

/// The element space of a grid of tiles: the product of the tile counts along each
/// coordinate, times the elements of one tile; `None` past `usize::MAX`.
pub const fn space(tiles: &[usize], tile_space: usize) -> Option<usize> {
    let mut space = tile_space;
    let mut axis = 0;
    while axis < tiles.len() {
        space = match space.checked_mul(tiles[axis]) {
            Some(space) => space,
            None => return None,
        };
        axis += 1;
    }
    Some(space)
}
