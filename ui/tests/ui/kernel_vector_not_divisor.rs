swizzle::layout! {
    layout Rows { memory [y: 4, x: 6]; coords [y, x]; }
    kernel Pack = pack(Rows, vector 4);
}

fn main() {}
