swizzle::layout! {
    /// An error in a tiled layout leaves its whole API in place: no cascade below.
    layout Tiles {
        memory [ty: dyn, m: 64];
        morton m -> [y: 8, x: 4];
        merge [ty, y] -> row;
        coords [row, x];
    }
}

fn main() {
    let tiles = Tiles::new(16).unwrap();
    let _ = tiles.offset(3, 2) + Tiles::tile_offset(1, 1) + tiles.space();
}
