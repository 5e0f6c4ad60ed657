swizzle::layout! {
    pub layout Tile {
        memory [n: 64];
        swizzle n -> s (2, 1, -4);
        coords [s];
    }
}

fn main() {}
