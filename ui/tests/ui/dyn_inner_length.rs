swizzle::layout! {
    layout Tiles {
        memory [n: 64];
        unmerge n -> [y: dyn, x: 8];
        coords [y, x];
    }
}

fn main() {}
