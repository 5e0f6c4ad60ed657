swizzle::layout! {
    pub layout Tile {
        memory [n: 16];
        embed n -> [y: 4, x: 5] strides [4, 1];
        coords [y, x];
    }
}

fn main() {}
