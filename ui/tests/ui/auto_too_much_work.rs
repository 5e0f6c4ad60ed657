swizzle::layout! {
    access A { lanes 1024; bytes 4; vector 64 along x; y = lane; x = 0; }

    /// Thousands of candidate swizzles of a 40-bit dim, each scored on 65 536 elements: past
    /// the budget of `auto`.
    layout L {
        memory [n: 1099511627776];
        swizzle n -> s (auto for A);
        unmerge s -> [y: 1048576, x: 1048576];
        coords [y, x];
    }
}

fn main() {}
