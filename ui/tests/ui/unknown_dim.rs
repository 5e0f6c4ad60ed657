swizzle::layout! {
    pub layout Tile {
        memory [n: 16];
        unmerge m -> [y: 4, x: 4];
        coords [y, x];
    }
}

fn main() {}
