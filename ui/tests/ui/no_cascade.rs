swizzle::layout! {
    pub layout Tile {
        memory [n: 16];
        unmerge n -> [y: 4, x: 3];
        coords [y, x];
    }
}

fn main() {
    // `Tile` still exists as a stub: only the layout's own error is reported.
    let _ = Tile::offset(0, 0);
    let _ = Tile;
}
