swizzle::layout! {
    /// A 1 GiB element: no instruction moves that much, and analysing it would not end.
    access Huge { lanes 32; bytes 1 << 30; m = lane; k = 0; }

    layout Tile {
        memory [m: 64, k: 64];
        coords [m, k];
        assert conflict_free(for Huge);
    }
}

fn main() {}
