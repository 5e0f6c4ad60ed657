//! A WGSL kernel of your own, built from generated pieces: a workgroup order (`raster`)
//! picks each workgroup's tile, a tiled copy loads it into an XOR-swizzled workgroup tile in
//! `vec4`s, the kernel's own code works on the tile, and a second tiled copy stores the tile
//! transposed. Here the work is to double every element, so the kernel computes
//! `output = 2 · inputᵀ`. The same pieces run on the CPU (`R::tile`, `K::run`), which is how
//! the kernel is checked here, element for element, before the GPU result is compared.
//!
//! Run: `cargo run --release --example user_kernel`

use swizzle::gpu::{Dispatch, Gpu, GpuError};

swizzle::layout! {
    /// The workgroup's 32 × 32 tile: the XOR on groups of four words keeps whole `vec4`
    /// entries for the loads and spreads the stores' column reads over all banks.
    layout Tile {
        memory [yo: 8, yi: 4, xo: 8, xi: 4];
        xor xo by yo;
        merge [yo, yi] -> y;
        merge [xo, xi] -> x;
        coords [y, x];
    }
    /// The tile read transposed.
    layout TileT {
        over Tile [r, c];
        coords [c, r];
    }
    /// 64 threads, each four rows of one `vec4`.
    threads Movers {
        tile [r: 32, c: 32];
        unmerge c -> [tc: 8, v: 4];
        unmerge r -> [k: 4, tr: 8];
        merge [tr, tc] -> thread;
        threads [thread];
        values [k, v];
    }
    kernel LoadTile = tiled_copy(image -> Tile, threads Movers, buffers(input, tile),
        assert conflict_free);
    kernel StoreTile = tiled_copy(TileT -> image, threads Movers, buffers(tile, output),
        assert conflict_free);
    /// Bands of 4 rows of tiles, column by column inside a band.
    raster Order = grouped(4);
}

/// The kernel: the generated functions, then `main`, which calls them.
fn module(height: usize, width: usize) -> String {
    let grid = [height.div_ceil(32), width.div_ceil(32)];
    format!(
        "@group(0) @binding(0) var<storage, read> input: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read_write> output: array<vec4<u32>>;
var<workgroup> tile: array<vec4<u32>, {entries}>;

{load}
{store}
{order}
@compute @workgroup_size({threads})
fn main(
    @builtin(local_invocation_index) thread: u32,
    @builtin(workgroup_id) group: vec3<u32>,
) {{
    let at = order(group.x, {grid_y}u, {grid_x}u);
    load_tile(thread, at.x, at.y, {height}u, {width}u);
    workgroupBarrier();
    // The kernel's own work: each thread doubles four entries of the tile.
    for (var k = 0u; k < 4u; k += 1u) {{
        let entry = thread * 4u + k;
        tile[entry] = tile[entry] * 2u;
    }}
    workgroupBarrier();
    store_tile(thread, at.y, at.x, {width}u, {height}u);
}}
",
        entries = Tile::SPACE / 4,
        load = LoadTile::WGSL,
        store = StoreTile::WGSL,
        order = Order::WGSL,
        threads = Movers::THREADS,
        grid_y = grid[0],
        grid_x = grid[1],
    )
}

/// The same kernel on the CPU, workgroup after workgroup.
fn on_the_cpu(input: &[u32], height: usize, width: usize) -> Vec<u32> {
    let grid = [height.div_ceil(32), width.div_ceil(32)];
    let mut output = vec![0; input.len()];
    let mut tile = vec![0; Tile::SPACE];
    for group in 0..grid[0] * grid[1] {
        let [y, x] = Order::tile(group, grid).expect("in the grid");
        LoadTile::run([y, x], [height, width], input, &mut tile).expect("load");
        tile.iter_mut().for_each(|v| *v *= 2);
        StoreTile::run([x, y], [width, height], &tile, &mut output).expect("store");
    }
    output
}

pub fn main() -> Result<(), GpuError> {
    let (height, width) = (1000, 1512);
    let input: Vec<u32> = (0..(height * width) as u32).collect();
    let cpu = on_the_cpu(&input, height, width);
    for y in 0..height {
        for x in 0..width {
            assert_eq!(cpu[x * height + y], 2 * input[y * width + x]);
        }
    }
    println!("CPU: the pieces compute 2 · inputᵀ for a {height} × {width} image");
    let gpu = match Gpu::new() {
        Ok(gpu) => gpu,
        Err(error) => {
            eprintln!("no GPU to run on: {error}");
            return Ok(());
        }
    };
    let groups = (height.div_ceil(32) * width.div_ceil(32)) as u32;
    let kernel = gpu.wgsl_kernel(
        "user kernel",
        &module(height, width),
        [groups, 1],
        [input.len(), input.len()],
    )?;
    let (source, destination) = (gpu.upload(&input)?, gpu.filled(input.len(), 0u32)?);
    kernel.run(&gpu, (&source, &destination))?;
    let output = gpu.download(&destination)?;
    assert!(output == cpu, "the GPU differs from the CPU");
    println!("{}: the same result on the GPU", gpu.describe());
    Ok(())
}
