swizzle::layout! {
    access Column { lanes 8; bytes 4; y = lane; x = 0; }

    /// Rows of 32 words: every row starts in bank 0.
    layout Tile {
        memory [y: 8, x: 32];
        coords [y, x];
        assert conflict_free(for Column);
    }
}

fn main() {}
