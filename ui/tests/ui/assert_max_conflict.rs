swizzle::layout! {
    /// 32 lanes read a column of a tile whose rows are 8 words apart: banks repeat every 4 rows.
    access Column { lanes 32; bytes 4; y = lane; x = 0; }

    layout Tile {
        memory [y: 32, x: 8];
        coords [y, x];
        assert max_conflict(4, for Column);
    }
}

fn main() {}
