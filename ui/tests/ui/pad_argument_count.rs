swizzle::layout! {
    pub layout Tile {
        memory [n: 10];
        pad n -> p (2, 3, 4);
        coords [p];
    }
}

fn main() {}
