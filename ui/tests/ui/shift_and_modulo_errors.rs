swizzle::layout! {
    /// A cyclic shift needs a key other than its target.
    layout SelfShift {
        memory [r: 4, c: 5];
        cyclic_shift c by c;
        coords [r, c];
    }

    /// The length after `modulo` is at least 1.
    layout EmptyModulo {
        memory [c: 5];
        modulo c -> w (0);
        coords [w];
    }

    /// A wrapping `modulo` sends several coordinates to one offset: no inverse.
    layout WrapInverse {
        memory [c: 5];
        modulo c -> w (7);
        coords [w];
        inverse;
    }
}

fn main() {}
