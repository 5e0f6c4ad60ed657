//! The paper's volume compositing (Nocentino & Rhodes, ACMSE '10), run on the GPU: a CT-like volume
//! of the paper's size (256 × 256 × 113) composited back to front, one thread per pixel, in
//! square workgroups of 4 × 4 to 32 × 32, with every slice stored row-major or in Morton
//! order inside blocks of 4 × 4 to 32 × 32 (`layout!` items). Each rendering is checked
//! against the CPU; the table gives the time, the effective bandwidth and the 32-byte
//! sectors that `swizzle::analysis` predicts for the same configuration
//! (`examples/paper_transactions.rs` reproduces the paper's own counts).
//!
//! Run: `cargo run --release --features gpu --example volume_compositing`

mod render;

use swizzle::gpu::Gpu;

fn main() -> Result<(), String> {
    let gpu = match Gpu::new() {
        Ok(gpu) => gpu,
        Err(error) => {
            eprintln!("no GPU to run on: {error}");
            return Ok(());
        }
    };
    println!("{}", gpu.describe());
    let volume = render::Volume::ct_like(256, 113);
    println!("256 × 256 × 113 voxels of f32, every rendering checked against the CPU\n");
    let rows = render::experiment(&gpu, &volume, Some(10))?;
    print!("{}", render::table(&rows));
    Ok(())
}
