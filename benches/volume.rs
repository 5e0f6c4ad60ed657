//! The volume compositing of Nocentino and Rhodes (ACMSE '10) on the GPU (`examples/volume_compositing`): every slice
//! layout × workgroup side × thread order, at the paper's 256 × 256 × 113 and at
//! 1024 × 1024 × 256, each rendering checked against the CPU, then timed with timestamp
//! queries beside the 32-byte sectors `swizzle::analysis` predicts.
//!
//! `SWIZZLE_VOLUMES` (default `256x113,1024x256`: side × depth), `SWIZZLE_BENCH_RUNS`
//! (default 30).

#[path = "../examples/volume_compositing/render.rs"]
mod render;

use swizzle::gpu::Gpu;

fn main() -> Result<(), String> {
    let gpu = match Gpu::new() {
        Ok(gpu) => gpu,
        Err(error) => {
            eprintln!("no GPU, nothing measured: {error}");
            return Ok(());
        }
    };
    println!("device: {}", gpu.describe());
    let runs = std::env::var("SWIZZLE_BENCH_RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(30);
    let volumes = std::env::var("SWIZZLE_VOLUMES").unwrap_or("256x113,1024x256".into());
    for volume in volumes.split(',') {
        let Some((side, depth)) = volume
            .split_once('x')
            .and_then(|(s, d)| Some((s.trim().parse().ok()?, d.trim().parse().ok()?)))
        else {
            return Err(format!("SWIZZLE_VOLUMES: `{volume}` is not SIDExDEPTH"));
        };
        let volume = render::Volume::ct_like(side, depth);
        println!(
            "\n{side} × {side} × {depth} voxels of f32 ({} MiB)\n",
            (side * side * depth * 4) >> 20
        );
        let rows = render::experiment(&gpu, &volume, Some(runs))?;
        print!("{}", render::table(&rows));
    }
    Ok(())
}
