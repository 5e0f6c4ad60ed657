swizzle::layout! {
    pub layout Tile {
        memory [z: 4, n: 16];
        freeze z = 4;
        coords [n];
    }
}

fn main() {}
