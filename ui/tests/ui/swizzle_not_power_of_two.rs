swizzle::layout! {
    pub layout Tile {
        memory [n: 96];
        swizzle n -> s (2, 0, 3);
        coords [s];
    }
}

fn main() {}
