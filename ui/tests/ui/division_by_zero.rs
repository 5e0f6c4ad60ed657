swizzle::layout! {
    pub layout Tile {
        const K = 4;
        memory [n: 16 / (K - 4)];
        coords [n];
    }
}

fn main() {}
