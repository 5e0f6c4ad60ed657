swizzle::layout! {
    access Column { bytes 4; y = lane; x = 0; }
}

fn main() {}
