//! The 32 × 32 workgroup tiles and thread layouts of the transposes that the tests check
//! (`tests/common/transposes.rs`) and the GPU bench times (`benches/common/transposes.rs`),
//! defined once: the tile whose column reads conflict, its two fixes, the XOR on groups of
//! four words, and who moves a tile.

swizzle::layout! {
    /// The transpose tile whose column reads conflict (8 ways with the threads below).
    pub layout RowTile { memory [y: 32, x: 32]; coords [y, x]; }
    /// The classic fix: one padding word per row (single-element workgroup accesses).
    pub layout PaddedTile { memory [y: 32, x: 32] strides [33, 1]; coords [y, x]; }
    /// CK's XOR preshuffle on words: conflict-free rows and columns, no padding.
    pub layout XorTile { memory [y: 32, x: 32]; xor x by y; coords [y, x]; }
    /// The XOR on groups of four words, keyed by the row's group of four: the loads write
    /// whole `vec4` entries, the stores' column reads stay conflict-free.
    pub layout Xor4Tile {
        memory [yo: 8, yi: 4, xo: 8, xi: 4];
        xor xo by yo;
        merge [yo, yi] -> y;
        merge [xo, xi] -> x;
        coords [y, x];
    }

    /// 256 threads, four consecutive elements of a row each (one `vec4` in the image).
    pub threads Threads256 {
        tile [r: 32, c: 32];
        unmerge c -> [tc: 8, v: 4];
        merge [r, tc] -> thread;
        threads [thread];
        values [v];
    }
    /// 64 threads, four rows of four consecutive elements each.
    pub threads Threads64 {
        tile [r: 32, c: 32];
        unmerge c -> [tc: 8, v: 4];
        unmerge r -> [k: 4, tr: 8];
        merge [tr, tc] -> thread;
        threads [thread];
        values [k, v];
    }
    /// 64 threads, each a square of four consecutive rows of four: the stores through
    /// `Xor4Tile`'s transpose read whole entries across the square and transpose it in
    /// registers (CUDA's `float4_xor`).
    pub threads Squares64 {
        tile [r: 32, c: 32];
        unmerge c -> [tc: 8, v: 4];
        unmerge r -> [tr: 8, k: 4];
        merge [tr, tc] -> thread;
        threads [thread];
        values [k, v];
    }
}
