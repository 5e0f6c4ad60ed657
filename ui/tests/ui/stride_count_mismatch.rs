swizzle::layout! {
    pub layout Tile {
        memory [y: 4, x: 4] strides [8, 1, 1];
        coords [y, x];
    }
}

fn main() {}
