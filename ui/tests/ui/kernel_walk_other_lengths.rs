swizzle::layout! {
    layout Rows { memory [y: 4, x: 8]; coords [y, x]; }
    traversal Walk = sfc(lengths [8, 8], vector [1, 4]);
    kernel Pack = pack(Rows, walk Walk);
}

fn main() {}
