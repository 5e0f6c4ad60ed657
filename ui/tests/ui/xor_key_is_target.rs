swizzle::layout! {
    pub layout Tile {
        memory [row: 8, col: 8];
        xor col by col;
        coords [row, col];
    }
}

fn main() {}
