swizzle::layout! {
    pub layout Tile {
        const KPACK = 8;
        memory [n: KPAK * 2];
        coords [n];
    }
}

fn main() {}
