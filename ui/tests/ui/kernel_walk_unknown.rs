swizzle::layout! {
    layout Rows { memory [y: 4, x: 8]; coords [y, x]; }
    traversal Walk = sfc(over Rows, vector [1, 4]);
    kernel Pack = pack(Rows, walk Wlak);
    kernel Unpack = unpack(Rows, walk Rows);
}

fn main() {}
