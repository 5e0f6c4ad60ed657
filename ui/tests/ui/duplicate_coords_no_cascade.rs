swizzle::layout! {
    layout Tile {
        memory [y: 4, x: 4];
        coords [y, y];
    }
}

fn main() {
    let _ = Tile::offset(0, 0);
    let _ = (Tile::SHAPE, Tile::SIZE, Tile::SPACE);
}
