swizzle::layout! {
    pub layout Tile {
        memory [n: 16];
        unmerge n -> [y: 4, x: 4];
    }
}

fn main() {}
