swizzle::layout! {
    pub layout Tile {
        memory [n: 16];
        unmerge n -> [y: 4, x: 4];
        unmerge n -> [a: 2, b: 8];
        coords [y, x];
    }
}

fn main() {}
