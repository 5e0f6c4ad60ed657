//! The transposes the tests run through workgroup tiles: tiles that conflict, are padded or
//! XOR-swizzled (shared with the GPU bench: `transpose_tiles.rs`), a tile that is not
//! square, thread-value layouts of single elements, vectors and squares, and orders of the
//! workgroups; with the CPU transpose they are held to.

use swizzle::gpu::{BoundsChecks, Transpose};
use swizzle::ir::Descriptor;
use swizzle::raster::Raster;

#[path = "transpose_tiles.rs"]
mod tiles;
pub use tiles::*;

swizzle::layout! {
    /// A tile that is not square, to transpose through.
    pub layout WideTile {
        memory [y: 8, x: 32];
        coords [y, x];
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
        square(TILES[0], Threads256::THREAD_VALUES),
        square(TILES[1], Threads256::THREAD_VALUES),
        square(TILES[2], Threads64::THREAD_VALUES),
        square(TILES[3], Threads64::THREAD_VALUES),
        Transpose {
            tile: TILES[4],
            loads: WideLoads::THREAD_VALUES,
            stores: WideStores::THREAD_VALUES,
            bounds_checks: BoundsChecks::On,
            order: Raster::Morton(2),
        },
        Transpose {
            order: Raster::Grouped(3),
            ..square(TILES[3], Threads64::THREAD_VALUES)
        },
        Transpose {
            order: Raster::Snake,
            ..square(TILES[2], Threads256::THREAD_VALUES)
        },
        square(TILES[3], Squares64::THREAD_VALUES),
        square(TILES[0], Squares64::THREAD_VALUES),
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
