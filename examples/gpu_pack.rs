//! Packs a 4096×4096 row-major image into 4×4 Morton tiles on the GPU (the layout of CK Tile's
//! Morton texture example, scaled up), unpacks it again, and checks both against the generated
//! `offset`. The pack kernel writes the tiled buffer in order, four elements per thread, each
//! read through the layout's WGSL inverse; its WGSL is printed first. Last, both run again as
//! one batch (one submission, one wait).
//!
//! Run: `cargo run --release --example gpu_pack`

use swizzle::gpu::{Dispatch, Gpu, GpuError, GpuLayout};

swizzle::layout! {
    /// 4096×4096 texture in 4×4 tiles, Morton order inside each tile.
    pub layout MortonTiles {
        memory [ty: 1024, tx: 1024, m: 16];
        morton m -> [yi: 4, xi: 4];
        merge [ty, yi] -> y;
        merge [tx, xi] -> x;
        coords [y, x];
    }
}

const SIDE: usize = 4096;

fn main() -> Result<(), GpuError> {
    let gpu = match Gpu::new() {
        Ok(gpu) => gpu,
        Err(error) => {
            eprintln!("no GPU to run on: {error}");
            return Ok(());
        }
    };
    println!("{}", gpu.describe());
    let layout = GpuLayout::of::<MortonTiles, 2>()?;
    let pack = gpu.pack_kernel(&layout)?;
    println!("{}", pack.wgsl());

    let image: Vec<u32> = (0..(SIDE * SIDE) as u32).collect();
    let input = gpu.upload(&image)?;
    let packed = gpu.filled(MortonTiles::SPACE, u32::MAX)?;
    pack.run(&gpu, (&input, &packed))?;
    let tiles = gpu.download(&packed)?;
    for y in 0..SIDE {
        for x in 0..SIDE {
            assert_eq!(
                tiles[MortonTiles::offset(y, x)],
                image[y * SIDE + x],
                "({y}, {x})"
            );
        }
    }
    println!("first tile: {:?}", &tiles[..16]);

    let unpack = gpu.unpack_kernel(&layout)?;
    let output = gpu.filled(image.len(), u32::MAX)?;
    unpack.run(&gpu, (&packed, &output))?;
    assert!(
        gpu.download(&output)? == image,
        "unpack differs from the image"
    );
    println!("pack and unpack of {SIDE}×{SIDE} checked against MortonTiles::offset");

    // Both again as one batch: recorded in order, submitted and waited for once.
    let round_trip = gpu.filled(image.len(), u32::MAX)?;
    let mut batch = gpu.batch();
    pack.enqueue(&mut batch, (&input, &packed))?;
    unpack.enqueue(&mut batch, (&packed, &round_trip))?;
    batch.submit()?;
    assert!(
        gpu.download(&round_trip)? == image,
        "the batched round trip differs"
    );
    println!("pack then unpack in one batch: the image again");

    if gpu.has_timestamps() {
        for (kernel, from, to) in [(&pack, &input, &packed), (&unpack, &packed, &output)] {
            let median = kernel.median(&gpu, (from, to), 20)?;
            let gbs = kernel.bytes() as f64 / median.as_secs_f64() / 1e9;
            println!(
                "{:24} {:8.3} ms {gbs:7.1} GB/s",
                kernel.name(),
                median.as_secs_f64() * 1e3
            );
        }
    }
    Ok(())
}
