swizzle::layout! {
    layout Tiles {
        memory [m: 64, t: dyn];
        merge [t, m] -> x;
        coords [x];
    }
}

fn main() {}
