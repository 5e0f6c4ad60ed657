swizzle::layout! {
    layout Tile { memory [y: 8, x: 8]; coords [y, x]; }
    traversal Walk = sfc(over Tiel, vector [1, 8]);
}

fn main() {
    Walk::for_each(|_| {});
}
