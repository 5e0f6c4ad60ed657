swizzle::layout! {
    pub layout Overlap {
        memory [n: 16];
        embed n -> [y: 4, x: 4] strides [2, 1];
        coords [y, x];
        inverse;
    }
}

fn main() {}
