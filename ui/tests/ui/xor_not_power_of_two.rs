swizzle::layout! {
    pub layout Tile {
        memory [row: 8, col: 6];
        xor col by row;
        coords [row, col];
    }
}

fn main() {}
