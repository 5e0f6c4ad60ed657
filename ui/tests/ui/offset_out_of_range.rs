swizzle::layout! {
    pub layout Tile {
        memory [n: 16];
        offset n -> o (+16);
        coords [o];
    }
}

fn main() {}
