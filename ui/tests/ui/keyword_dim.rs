swizzle::layout! {
    /// `loop` is a keyword: said once, however often it is written.
    pub layout Tile {
        memory [n: 16];
        unmerge n -> [loop: 4, x: 4];
        coords [x, loop];
    }
}

fn main() {}
