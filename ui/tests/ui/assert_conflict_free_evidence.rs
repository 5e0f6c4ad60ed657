swizzle::layout! {
    /// A whole warp reads one column of rows of 32 words: 32 lanes in bank 0.
    access Column { lanes 32; bytes 4; y = lane; x = 0; }

    layout Tile {
        memory [y: 32, x: 32];
        coords [y, x];
        assert conflict_free(for Column);
    }
}

fn main() {}
