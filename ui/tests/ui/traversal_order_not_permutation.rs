swizzle::layout! {
    traversal Walk = sfc(lengths [4, 8, 2], order [0, 2, 0]);
}

fn main() {}
