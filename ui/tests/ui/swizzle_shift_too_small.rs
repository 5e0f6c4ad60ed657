swizzle::layout! {
    pub layout Tile {
        memory [n: 256];
        swizzle n -> s (3, 2, 2);
        coords [s];
    }
}

fn main() {}
