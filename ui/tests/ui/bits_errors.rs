swizzle::layout! {
    /// One row too few for the 4 bits of `n`.
    layout TooFewRows {
        memory [n: 16];
        bits n -> [y: 4, x: 4] (x[0], y[0], x[1]);
        coords [y, x];
    }

    /// `x` has bits 0..2 only, and `z` is not one of the dims.
    layout NoSuchBit {
        memory [n: 16];
        bits n -> [y: 4, x: 4] (x[0], y[0], x[2], z[0]);
        coords [y, x];
    }

    /// A constant 1 is affine, not linear; a row is XORs only.
    layout NotLinear {
        memory [n: 4];
        bits n -> [y: 2, x: 2] (x[0] ^ 1, y[0] + x[0]);
        coords [y, x];
    }

    /// Lengths must be powers of two.
    layout NotPowerOfTwo {
        memory [n: 12];
        bits n -> [y: 3, x: 4] (x[0], x[1]);
        coords [y, x];
    }

    /// The rows are singular (bit 1 repeats bit 0), so there is no inverse.
    layout Singular {
        memory [n: 4];
        bits n -> [y: 2, x: 2] (x[0] ^ y[0], x[0] ^ y[0]);
        coords [y, x];
        inverse;
    }
}

fn main() {}
