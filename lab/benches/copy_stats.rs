//! What the driver made of the root's GPU bench's copies and transposes (`benches/gpu.rs`):
//! the registers, shared and local memory of each kernel's pipeline at `SWIZZLE_BENCH_SIDE`²
//! (default 8192), each kernel's WGSL written to SPIR-V as wgpu-hal writes it
//! (`src/driver_stats.rs`; Vulkan drivers with `VK_KHR_pipeline_executable_properties`).
//! The kernels are the bench's: its tiles, thread layouts and hand-written staged copy
//! (`benches/common/transposes.rs`). Run with `cargo bench -p swizzle-lab --bench copy_stats`.

#[path = "../../benches/common/transposes.rs"]
mod transposes;

use swizzle::gpu::{BoundsChecks, Gpu, GpuError};
use swizzle_lab::driver_stats;
use transposes::*;

/// What the driver made of the copies and transposes at `side`² (registers,
/// shared and local memory: `src/driver_stats.rs`), each kernel's WGSL written to
/// SPIR-V as wgpu-hal writes it.
fn driver_statistics(gpu: &Gpu, side: usize) -> Result<(), GpuError> {
    let driver = match driver_stats::Driver::open() {
        Ok(driver) => driver,
        Err(why) => {
            println!("no driver statistics: {why}");
            return Ok(());
        }
    };
    println!("| kernel ({side}²) | driver statistics |");
    println!("|---|---|");
    for checks in [BoundsChecks::On, BoundsChecks::Off] {
        let copy = gpu.plain_copy_kernel_with(side * side, checks)?;
        driver.print(
            copy.name(),
            driver.wgsl(copy.wgsl(), checks == BoundsChecks::On),
        );
    }
    let staged = staged_copy(side);
    let name = "staged copy through a 64 × 64 workgroup tile (vec4, no transpose)";
    driver.print(name, driver.wgsl(&staged, true));
    let (checked, unchecked) = transpose_designs();
    for transpose in checked.iter().chain(&unchecked) {
        let built = gpu.transpose_kernel(side, side, transpose)?;
        let checks = transpose.bounds_checks == BoundsChecks::On;
        let kernel = &built.kernel;
        driver.print(kernel.name(), driver.wgsl(kernel.wgsl(), checks));
        if kernel.name().contains("squares") && checks {
            let name = format!("{} (interior only)", kernel.name());
            driver.print(&name, driver.wgsl(&interior_only(kernel.wgsl()), true));
        }
    }
    Ok(())
}

fn main() -> Result<(), GpuError> {
    let gpu = match Gpu::new() {
        Ok(gpu) => gpu,
        Err(error) => {
            eprintln!("no GPU, nothing measured: {error}");
            return Ok(());
        }
    };
    println!("device: {}", gpu.describe());
    driver_statistics(&gpu, env("SWIZZLE_BENCH_SIDE", 8192))
}
