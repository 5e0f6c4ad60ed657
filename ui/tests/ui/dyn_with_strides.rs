swizzle::layout! {
    layout Tiles {
        memory [t: dyn, m: 64] strides [128, 1];
        merge [t, m] -> x;
        coords [x];
    }
}

fn main() {}
