swizzle::layout! {
    /// An image of 8 × 8 tiles counted at run time.
    layout Tiles {
        memory [ty: dyn, tx: dyn, yi: 8, xi: 8];
        merge [ty, yi] -> y;
        merge [tx, xi] -> x;
        coords [y, x];
    }

    /// The run-time `y` split without saying which part counts blocks at run time.
    layout Fixed {
        over Tiles;
        unmerge y -> [by: 2, iy: 4];
        coords [by, x, iy];
    }

    /// Blocks of 3 rows do not divide a tile of 8.
    layout Thirds {
        over Tiles;
        unmerge y -> [by: dyn, iy: 3];
        coords [by, x, iy];
    }

    /// Only the outermost part counts at run time.
    layout Inner {
        over Tiles;
        unmerge x -> [bx: dyn, ix: dyn];
        coords [y, bx, ix];
    }
}

fn main() {}
