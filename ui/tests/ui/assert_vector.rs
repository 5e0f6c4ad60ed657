swizzle::layout! {
    layout Morton {
        memory [m: 64];
        morton m -> [y: 8, x: 8];
        coords [y, x];
        assert vector(4);
    }
}

fn main() {}
