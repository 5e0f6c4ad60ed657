swizzle::layout! {
    pub layout Tile {
        const N = 4;
        coords [y, x];
    }
}

fn main() {}
