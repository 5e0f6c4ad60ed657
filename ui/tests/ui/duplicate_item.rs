swizzle::layout! {
    pub layout Tile { memory [n: 16]; morton n -> [y: 4, x: 4]; coords [y, x]; }
    /// A second item of the same name: one error on its name, no cascade.
    pub layout Tile { memory [n: 16]; coords [n]; }
}

fn main() {
    assert_eq!(Tile::offset(1, 2), 6);
}
