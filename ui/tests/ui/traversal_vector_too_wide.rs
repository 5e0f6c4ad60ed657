swizzle::layout! {
    traversal Walk = sfc(lengths [4, 8], vector [1, 16]);
}

fn main() {}
