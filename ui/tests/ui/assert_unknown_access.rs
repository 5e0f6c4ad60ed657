swizzle::layout! {
    layout Tile {
        memory [y: 8, x: 8];
        coords [y, x];
        assert conflict_free(for Missing);
    }
}

fn main() {}
