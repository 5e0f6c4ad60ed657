swizzle::layout! {
    /// One thread holding a whole 256 × 256 tile: 16384 moves of four values.
    threads One {
        tile [y: 256, x: 256];
        threads [];
        values [y, x];
    }
    layout Plain {
        memory [y: 256, x: 256];
        coords [y, x];
    }
    kernel LoadOne = tiled_copy(image -> Plain, threads One);
    /// A 512 × 512 tile: more elements than a tiled copy moves.
    threads Rows {
        tile [y: 512, x: 512];
        unmerge y -> [ty: 32, v: 16];
        threads [ty];
        values [v, x];
    }
    layout Wide {
        memory [y: 512, x: 512];
        coords [y, x];
    }
    kernel LoadRows = tiled_copy(image -> Wide, threads Rows);
}

fn main() {}
