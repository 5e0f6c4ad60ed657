swizzle::layout! {
    access Row { lanes 32; bytes 4; y = 0; x = lane; }

    layout Tile {
        memory [y: 4, x: 32];
        coords [y, x];
        assert transactions(<= 4, for Row, cc20);
    }
}

fn main() {}
