swizzle::layout! {
    pub layout Broadcast {
        memory [x: 8];
        replicate -> [r: 4];
        coords [r, x];
        inverse;
    }
}

fn main() {}
