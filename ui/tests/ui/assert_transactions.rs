swizzle::layout! {
    /// A warp reading a column of 4-byte words: one 32-byte sector per lane.
    access Column { lanes 32; bytes 4; y = lane; x = 0; }

    layout Tile {
        memory [y: 32, x: 32];
        coords [y, x];
        assert transactions(<= 4, for Column);
    }
}

fn main() {}
