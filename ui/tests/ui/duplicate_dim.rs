swizzle::layout! {
    pub layout Tile {
        memory [y: 4, x: 4];
        replicate -> [x: 2];
        coords [y, x];
    }
}

fn main() {}
