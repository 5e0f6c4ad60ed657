swizzle::layout! {
    pub layout Tile {
        memory [n: 24];
        morton n -> [y: 4, x: 6];
        coords [y, x];
    }
}

fn main() {}
