swizzle::layout! {
    layout Tile {
        memory [m: 64];
        swizzle m -> s (auto for Missing);
        unmerge s -> [y: 8, x: 8];
        coords [y, x];
    }
}

fn main() {}
