swizzle::layout! {
    layout Rows { memory [y: 4, x: 8]; coords [y, x]; }
    kernel Gather = gather(Rows);
}

fn main() {}
