swizzle::layout! {
    pub layout Tile {
        memory [n: 16];
        slice n -> s (4..20);
        coords [s];
    }
}

fn main() {}
