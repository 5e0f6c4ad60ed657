swizzle::layout! {
    layout Broadcast {
        memory [x: 4];
        replicate -> [r: 2];
        coords [r, x];
        assert bijective;
    }
}

fn main() {}
