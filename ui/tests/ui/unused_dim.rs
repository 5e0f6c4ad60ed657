swizzle::layout! {
    pub layout Tile {
        memory [y: 4, x: 4];
        coords [y];
    }
}

fn main() {}
