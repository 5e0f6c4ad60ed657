swizzle::layout! {
    access Row { lanes 8; bytes 4; y = 0; x = lane; }

    layout Tile {
        memory [m: 64];
        swizzle m -> s (auto for Row);
        swizzle s -> t (auto for Row);
        unmerge t -> [y: 8, x: 8];
        coords [y, x];
    }
}

fn main() {}
