swizzle::layout! {
    pub layout Tile {
        memory [n: 64];
        swizzle n -> s (2, 3);
        coords [s];
    }
}

fn main() {}
