swizzle::layout! {
    traversal Walk = sfc(order [1, 0], snake);
}

fn main() {}
