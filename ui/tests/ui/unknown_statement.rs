swizzle::layout! {
    pub layout Tile {
        memory [n: 16];
        split n -> [y: 4, x: 4];
        coords [n];
    }
}

fn main() {}
