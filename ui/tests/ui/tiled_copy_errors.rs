swizzle::layout! {
    layout Tile {
        memory [y: 32, x: 32];
        coords [y, x];
    }
    layout Small {
        memory [y: 16, x: 32];
        coords [y, x];
    }
    layout Xor {
        memory [y: 32, x: 32];
        xor x by y;
        coords [y, x];
    }
    /// A warp reads a column: 32-way conflicts in a row-major tile.
    threads Columns {
        tile [y: 32, x: 32];
        unmerge x -> [tx: 8, v: 4];
        threads [tx, y];
        values [v];
    }
    threads Fours {
        tile [y: 32, x: 32];
        unmerge x -> [tx: 8, v: 4];
        merge [y, tx] -> thread;
        threads [thread];
        values [v];
    }
    kernel Mismatch = tiled_copy(image -> Small, threads Fours);
    kernel NotThreads = tiled_copy(image -> Tile, threads Tile);
    kernel NoThreads = tiled_copy(image -> Tile);
    kernel TooWide = tiled_copy(image -> Xor, threads Fours, vector 4);
    kernel Conflicts = tiled_copy(image -> Tile, threads Columns, vector 1, assert conflict_free);
    kernel Sectors = tiled_copy(image -> Tile, threads Columns, assert transactions(<= 4));
    kernel Nothing = tiled_copy(Tile -> Xor, threads Fours, assert transactions(<= 4));
}

fn main() {}
