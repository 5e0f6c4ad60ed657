swizzle::layout! {
    pub layout Tile {
        const BIG = 1 << 100;
        const HUGE = BIG * BIG;
        memory [n: 4];
        coords [n];
    }
}

fn main() {}
