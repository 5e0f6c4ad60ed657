swizzle::layout! {
    layout Rows { memory [y: 8, x: 8]; coords [y, x]; }
    layout Xor { memory [y: 8, x: 8]; xor x by y; coords [y, x]; }
    traversal Wide = sfc(over Rows, vector [1, 4]);
    kernel Swizzle = copy(Rows -> Xor, walk Wide);
}

fn main() {}
