//! The transposes the tests run through workgroup tiles: tiles that conflict, are padded or
//! XOR-swizzled, thread-value layouts of single elements, vectors and squares, and orders
//! of the workgroups; with the CPU transpose they are held to.

use swizzle::gpu::{BoundsChecks, Transpose};
use swizzle::ir::Descriptor;
use swizzle::raster::Raster;

swizzle::layout! {
    /// Transpose tiles: the bank-conflicting one, the padded one, the XOR-swizzled one.
    pub layout RowTile {
        memory [y: 32, x: 32];
        coords [y, x];
    }
    pub layout PaddedTile {
        memory [y: 32, x: 32] strides [33, 1];
        coords [y, x];
    }
    pub layout XorTile {
        memory [y: 32, x: 32];
        xor x by y;
        coords [y, x];
    }
    /// The XOR on groups of four words: whole `vec4` entries, swizzled by the row's
    /// group of four.
    pub layout Xor4Tile {
        memory [yo: 8, yi: 4, xo: 8, xi: 4];
        xor xo by yo;
        merge [yo, yi] -> y;
        merge [xo, xi] -> x;
        coords [y, x];
    }
    /// A tile that is not square, to transpose through.
    pub layout WideTile {
        memory [y: 8, x: 32];
        coords [y, x];
    }
    /// 256 threads, four consecutive elements of a row each.
    pub threads Fours {
        tile [r: 32, c: 32];
        unmerge c -> [tc: 8, v: 4];
        merge [r, tc] -> thread;
        threads [thread];
        values [v];
    }
    /// 64 threads, four rows of four each.
    pub threads Sixteens {
        tile [r: 32, c: 32];
        unmerge c -> [tc: 8, v: 4];
        unmerge r -> [k: 4, tr: 8];
        merge [tr, tc] -> thread;
        threads [thread];
        values [k, v];
    }
    /// 64 threads, each a square of four consecutive rows of four: the stores through
    /// `Xor4Tile`'s transpose read whole entries across the square (a register transpose).
    pub threads Squares {
        tile [r: 32, c: 32];
        unmerge c -> [tc: 8, v: 4];
        unmerge r -> [tr: 8, k: 4];
        merge [tr, tc] -> thread;
        threads [thread];
        values [k, v];
    }
    /// Loads and stores of the wide tile: 64 threads each, single elements.
    pub threads WideLoads {
        tile [r: 8, c: 32];
        unmerge r -> [k: 4, tr: 2];
        merge [tr, c] -> thread;
        threads [thread];
        values [k];
    }
    pub threads WideStores {
        tile [c: 32, r: 8];
        unmerge c -> [k: 4, tc: 8];
        merge [tc, r] -> thread;
        threads [thread];
        values [k];
    }
}

/// The transpose tiles, as `'static` references (a `const` keeps them).
pub const TILES: [&Descriptor; 5] = [
    &RowTile::DESCRIPTOR,
    &PaddedTile::DESCRIPTOR,
    &XorTile::DESCRIPTOR,
    &Xor4Tile::DESCRIPTOR,
    &WideTile::DESCRIPTOR,
];

/// Image sizes with partial tiles, and rows that are no multiple of four.
pub const SIZES: [(usize, usize); 6] = [(32, 32), (36, 72), (37, 70), (100, 33), (1, 65), (129, 4)];

/// A transpose through every tile layout, in vectors, single elements and squares, in
/// every workgroup order.
pub fn transposes() -> [Transpose<'static>; 9] {
    let square = Transpose::new;
    [
        square(TILES[0], Fours::THREAD_VALUES),
        square(TILES[1], Fours::THREAD_VALUES),
        square(TILES[2], Sixteens::THREAD_VALUES),
        square(TILES[3], Sixteens::THREAD_VALUES),
        Transpose {
            tile: TILES[4],
            loads: WideLoads::THREAD_VALUES,
            stores: WideStores::THREAD_VALUES,
            bounds_checks: BoundsChecks::On,
            order: Raster::Morton(2),
        },
        Transpose {
            order: Raster::Grouped(3),
            ..square(TILES[3], Sixteens::THREAD_VALUES)
        },
        Transpose {
            order: Raster::Snake,
            ..square(TILES[2], Fours::THREAD_VALUES)
        },
        square(TILES[3], Squares::THREAD_VALUES),
        square(TILES[0], Squares::THREAD_VALUES),
    ]
}

/// A distinct value at each element of a `height × width` image.
pub fn image(height: usize, width: usize) -> Vec<u32> {
    (0..(height * width) as u32).map(|v| v ^ 0x5555).collect()
}

/// The transpose of a row-major `height × width` image, on the CPU.
pub fn transposed(image: &[u32], height: usize, width: usize) -> Vec<u32> {
    let mut out = vec![0; image.len()];
    for y in 0..height {
        for x in 0..width {
            out[x * height + y] = image[y * width + x];
        }
    }
    out
}
