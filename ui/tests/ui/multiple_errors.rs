swizzle::layout! {
    /// Two bad statements in one layout: both are reported.
    pub layout First {
        memory [n: 16];
        unmerge n -> [y: 4, x: 3];
        xor y by q;
        coords [y, x];
    }

    /// An independent error in a second layout of the same invocation.
    pub layout Second {
        memory [n: 24];
        morton n -> [y: 4, x: 6];
        coords [y, x];
    }
}

fn main() {}
