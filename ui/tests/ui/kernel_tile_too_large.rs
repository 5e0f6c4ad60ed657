swizzle::layout! {
    layout Big { memory [y: 512, x: 512]; coords [y, x]; }
    kernel Pack = pack(Big);
}

fn main() {}
