swizzle::layout! {
    layout Tile {
        memory [y: 8, x: 8];
        coords [y, x]
    }
}

fn main() {}
