swizzle::layout! {
    pub layout Tile {
        memory [n: 16];
        morton n -> [y: 4, x: 8];
        coords [y, x];
    }
}

fn main() {}
