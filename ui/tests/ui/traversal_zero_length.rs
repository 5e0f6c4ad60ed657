swizzle::layout! {
    traversal Walk = sfc(lengths [4, 0], vector [1, 2]);
}

fn main() {}
