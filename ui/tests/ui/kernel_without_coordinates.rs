swizzle::layout! {
    layout Point { memory [n: 1]; freeze n = 0; coords []; }
    kernel Pack = pack(Point);
}

fn main() {}
