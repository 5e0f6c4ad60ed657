swizzle::layout! {
    pub layout Tile {
        memory [a: 1 << 40, b: 1 << 40];
        coords [a, b];
    }
}

fn main() {}
