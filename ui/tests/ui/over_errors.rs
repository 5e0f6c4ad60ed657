swizzle::layout! {
    /// `Later` is declared after this layout: `over` reads layouts declared before it.
    layout Early {
        over Later;
        coords [n];
    }

    layout Later {
        memory [n: 16];
        coords [n];
    }

    /// `Later` has one coordinate, not two.
    layout Renamed {
        over Later [a, b];
        coords [a];
    }

    /// A layout cannot start from itself.
    layout Itself {
        over Itself;
        coords [n];
    }

    /// One start only.
    layout Twice {
        over Later;
        memory [m: 4];
        coords [n];
    }
}

fn main() {}
