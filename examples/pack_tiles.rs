//! Packs a row-major image into 8×8 Morton tiles and XOR-swizzled tiles with `kernel` items,
//! checks every element against the layouts' `offset`, unpacks it back, and prints how fast
//! each copy ran next to `memcpy` of the same bytes (the kernels split large arrays across
//! threads, so the last column compares with the faster of one-thread and all-thread copies).
//!
//! `cargo run --release --example pack_tiles [SIDE]` (default 2048: a 16 MiB `f32` image).

use std::time::{Duration, Instant};
use swizzle::kernel::{self, KernelError};

swizzle::layout! {
    /// An image of any size in 8×8 tiles, Morton order inside each tile (as in
    /// CK Tile's Morton texture example).
    pub layout MortonTiles {
        memory [ty: dyn, tx: dyn, m: 64];
        morton m -> [yi: 8, xi: 8];
        merge [ty, yi] -> y;
        merge [tx, xi] -> x;
        coords [y, x];
    }
    /// The same tiles with each row's columns XOR-swizzled by the row (CK Tile's LDS
    /// XOR preshuffle).
    pub layout XorTiles {
        memory [ty: dyn, tx: dyn, r: 8, c: 8];
        xor c by r;
        merge [ty, r] -> y;
        merge [tx, c] -> x;
        coords [y, x];
    }
    pub kernel PackMorton = pack(MortonTiles);
    pub kernel UnpackMorton = unpack(MortonTiles);
    pub kernel MortonToXor = copy(MortonTiles -> XorTiles);
    pub kernel UnpackXor = unpack(XorTiles);
}

/// The best of a few runs of `copy`.
fn best(mut copy: impl FnMut() -> Result<(), KernelError>) -> Result<Duration, KernelError> {
    let mut best = Duration::MAX;
    for _ in 0..10 {
        let start = Instant::now();
        copy()?;
        best = best.min(start.elapsed());
    }
    Ok(best)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let side: usize = match std::env::args().nth(1) {
        Some(arg) => arg.parse()?,
        None => 2048,
    };
    let (morton, xor) = (MortonTiles::new(side, side)?, XorTiles::new(side, side)?);
    let image: Vec<f32> = (0..side * side).map(|i| i as f32).collect();
    let mut tiles = vec![f32::NAN; morton.space()];
    let mut swizzled = vec![f32::NAN; xor.space()];
    let mut back = vec![f32::NAN; image.len()];

    PackMorton::run(&morton, &image, &mut tiles)?;
    MortonToXor::run(&morton, &xor, &tiles, &mut swizzled)?;
    for y in 0..side {
        for x in 0..side {
            let pixel = image[y * side + x];
            assert_eq!(tiles[morton.offset(y, x)], pixel, "Morton ({y}, {x})");
            assert_eq!(swizzled[xor.offset(y, x)], pixel, "XOR ({y}, {x})");
        }
    }
    UnpackXor::run(&xor, &swizzled, &mut back)?;
    assert_eq!(back, image);
    println!("{side}×{side} f32 image: every element checked against `offset`.");
    println!(
        "Copies run at {:?} (Morton pack: vector {}).\n",
        kernel::interpreted_level::<f32>(PackMorton::plan()),
        PackMorton::VECTOR
    );

    let bytes = (image.len() * size_of::<f32>() * 2) as f64; // read + write
    let mut copy = vec![0.0f32; image.len()];
    let memcpy = best(|| {
        copy.copy_from_slice(&image);
        Ok(())
    })?;
    let threads = best(|| {
        use rayon::prelude::*;
        let chunks = copy.par_chunks_mut(1 << 16).zip(image.par_chunks(1 << 16));
        chunks.for_each(|(dst, src)| dst.copy_from_slice(src));
        Ok(())
    })?;
    let rows = [
        ("memcpy (one thread)", memcpy),
        ("memcpy (all threads)", threads),
        (
            "pack into Morton tiles",
            best(|| PackMorton::run(&morton, &image, &mut tiles))?,
        ),
        (
            "unpack Morton tiles",
            best(|| UnpackMorton::run(&morton, &tiles, &mut back))?,
        ),
        (
            "Morton tiles → XOR tiles",
            best(|| MortonToXor::run(&morton, &xor, &tiles, &mut swizzled))?,
        ),
        (
            "unpack XOR tiles",
            best(|| UnpackXor::run(&xor, &swizzled, &mut back))?,
        ),
    ];
    println!(
        "{:<26} {:>10} {:>12} {:>10}",
        "copy", "time", "GB/s (r+w)", "vs memcpy"
    );
    for (name, time) in rows {
        println!(
            "{name:<26} {:>8.2}ms {:>12.1} {:>9.2}×",
            time.as_secs_f64() * 1e3,
            bytes / time.as_secs_f64() / 1e9,
            memcpy.min(threads).as_secs_f64() / time.as_secs_f64()
        );
    }
    Ok(())
}
