//! The paper's volume compositing (Nocentino and Rhodes), run: back-to-front alpha compositing
//! of a CT-like volume, one thread per pixel, square workgroups, with every slice stored in a
//! layout — row-major, or Morton order inside square blocks — and the WGSL kernel built from
//! the layout's own generated functions. Shared by `examples/volume_compositing`,
//! `benches/volume.rs` and the lavapipe test in `tests/gpu.rs`.

use swizzle::analysis::transactions::transactions_of;
use swizzle::analysis::{Coalescing, Touch, Transactions};
use swizzle::gpu::{Buffer, Dispatch, Gpu, GpuError, GpuLayout, Kernel};
use swizzle::ir::Descriptor;

swizzle::layout! {
    /// Slices in Morton order inside 4 × 4 blocks, the blocks row-major over the slice.
    pub layout MortonBlocks4 {
        memory [by: dyn, bx: dyn, m: 16];
        morton m -> [yi: 4, xi: 4];
        merge [by, yi] -> y;
        merge [bx, xi] -> x;
        coords [y, x];
        inverse;
    }
    /// 8 × 8 blocks.
    pub layout MortonBlocks8 {
        memory [by: dyn, bx: dyn, m: 64];
        morton m -> [yi: 8, xi: 8];
        merge [by, yi] -> y;
        merge [bx, xi] -> x;
        coords [y, x];
        inverse;
    }
    /// 16 × 16 blocks.
    pub layout MortonBlocks16 {
        memory [by: dyn, bx: dyn, m: 256];
        morton m -> [yi: 16, xi: 16];
        merge [by, yi] -> y;
        merge [bx, xi] -> x;
        coords [y, x];
        inverse;
    }
    /// 32 × 32 blocks: every aligned block of 4 × 4 to 32 × 32 pixels is one run of memory,
    /// as in the paper's fully Morton-ordered slices.
    pub layout MortonBlocks32 {
        memory [by: dyn, bx: dyn, m: 1024];
        morton m -> [yi: 32, xi: 32];
        merge [by, yi] -> y;
        merge [bx, xi] -> x;
        coords [y, x];
        inverse;
    }
}

/// The slice layouts compared: row-major, and Morton order inside blocks of 4 to 32.
pub fn slice_layouts() -> [(&'static str, Option<Descriptor>); 5] {
    [
        ("row-major", None),
        ("Morton 4×4 blocks", Some(MortonBlocks4::DESCRIPTOR)),
        ("Morton 8×8 blocks", Some(MortonBlocks8::DESCRIPTOR)),
        ("Morton 16×16 blocks", Some(MortonBlocks16::DESCRIPTOR)),
        ("Morton 32×32 blocks", Some(MortonBlocks32::DESCRIPTOR)),
    ]
}

/// A slice layout at `side` × `side` pixels: row-major, or the tiled `descriptor`.
pub fn slice_layout(descriptor: Option<&Descriptor>, side: usize) -> Result<GpuLayout, GpuError> {
    match descriptor {
        None => GpuLayout::row_major(&[side, side]),
        Some(descriptor) => GpuLayout::tiled(descriptor, &[side, side]),
    }
}

/// A CT-like volume: `depth` slices of `side` × `side` voxels in `[0, 1]`, a head of soft
/// tissue (0.3) in a skull shell (0.9) with two denser inner structures, in air (0).
pub struct Volume {
    pub side: usize,
    pub depth: usize,
    /// Row-major: slice, row, column.
    pub voxels: Vec<f32>,
}

impl Volume {
    pub fn ct_like(side: usize, depth: usize) -> Volume {
        let mut voxels = Vec::with_capacity(side * side * depth);
        let (s, d) = (side as f32, depth as f32);
        for z in 0..depth {
            for y in 0..side {
                for x in 0..side {
                    let (u, v, w) = (
                        x as f32 / s * 2.0 - 1.0,
                        y as f32 / s * 2.0 - 1.0,
                        z as f32 / d * 2.0 - 1.0,
                    );
                    let r = (u * u / 0.64 + v * v / 0.81 + w * w / 0.9).sqrt();
                    let blob = |cu: f32, cv: f32| ((u - cu).powi(2) + (v - cv).powi(2)) < 0.02;
                    let value = if r > 1.0 {
                        0.0
                    } else if r > 0.92 {
                        0.9
                    } else if blob(-0.25, 0.1) || blob(0.25, 0.1) {
                        0.6
                    } else {
                        // Soft tissue with a little deterministic texture.
                        0.3 + 0.05 * ((x * 7 + y * 13 + z * 3) % 11) as f32 / 11.0
                    };
                    voxels.push(value);
                }
            }
        }
        Volume {
            side,
            depth,
            voxels,
        }
    }

    /// The voxels with every slice stored in `layout` (slices `layout.space()` apart).
    pub fn stored(&self, layout: &GpuLayout, offset: impl Fn(usize, usize) -> usize) -> Vec<f32> {
        let space = layout.space();
        let mut stored = vec![0.0; space * self.depth];
        for z in 0..self.depth {
            for y in 0..self.side {
                for x in 0..self.side {
                    stored[z * space + offset(y, x)] =
                        self.voxels[(z * self.side + y) * self.side + x];
                }
            }
        }
        stored
    }

    /// The image the kernel renders, on the CPU: each pixel composites its ray back to
    /// front, `color = mix(color, v, alpha(v))`.
    pub fn render(&self) -> Vec<f32> {
        let n = self.side * self.side;
        (0..n)
            .map(|pixel| {
                let mut color = 0.0f32;
                for z in (0..self.depth).rev() {
                    let v = self.voxels[z * n + pixel];
                    let alpha = (v * 0.25 - 0.05).clamp(0.0, 1.0);
                    color = color * (1.0 - alpha) + v * alpha;
                }
                color
            })
            .collect()
    }
}

/// Which pixel each thread of a `block` × `block` workgroup composites.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Threads {
    /// Thread `t` takes pixel `(t / block, t % block)` of the workgroup's block.
    Pixel,
    /// Thread `t` reads the `t`-th voxel of the block in memory and composites the pixel
    /// stored there (the layout's inverse), as the paper does; only where every block is
    /// one run of memory.
    MemoryOrder,
}

/// The compositing kernel: the slice layout's WGSL functions and a `main` over them.
pub fn module(layout: &GpuLayout, depth: usize, block: usize, threads: Threads) -> String {
    let prefix = layout.prefix();
    let side = layout.shape()[0];
    let pixel = match threads {
        Threads::Pixel => format!(
            "    let y = group.y * {block}u + thread / {block}u;
    let x = group.x * {block}u + thread % {block}u;
    let at = {prefix}_offset(y, x);"
        ),
        Threads::MemoryOrder => format!(
            "    // The block is one run of memory: thread t reads its t-th voxel.
    let at = {prefix}_offset(group.y * {block}u, group.x * {block}u) + thread;
    let pixel = {prefix}_coord(at);
    let y = pixel[0];
    let x = pixel[1];"
        ),
    };
    format!(
        "@group(0) @binding(0) var<storage, read> volume: array<f32>;
@group(0) @binding(1) var<storage, read_write> image: array<f32>;

{functions}
// Back-to-front compositing of {depth} slices of {side} × {side} voxels, one thread per pixel.
@compute @workgroup_size({threads_per_group})
fn main(
    @builtin(local_invocation_index) thread: u32,
    @builtin(workgroup_id) group: vec3<u32>,
) {{
{pixel}
    var color = 0.0;
    for (var z = {depth}u; z > 0u; z--) {{
        let v = volume[(z - 1u) * {space}u + at];
        let alpha = clamp(v * 0.25 - 0.05, 0.0, 1.0);
        color = color * (1.0 - alpha) + v * alpha;
    }}
    image[y * {side}u + x] = color;
}}
",
        functions = layout.wgsl(),
        threads_per_group = block * block,
        space = layout.space(),
    )
}

/// Whether every `block` × `block` block of the slice is one run of memory starting at its
/// first pixel, which [`Threads::MemoryOrder`] needs.
pub fn blocks_are_runs(offset: impl Fn(usize, usize) -> usize, side: usize, block: usize) -> bool {
    (0..side / block).all(|by| {
        (0..side / block).all(|bx| {
            let start = offset(by * block, bx * block);
            let mut offsets: Vec<usize> = (0..block * block)
                .map(|t| offset(by * block + t / block, bx * block + t % block))
                .collect();
            offsets.sort_unstable();
            offsets.iter().enumerate().all(|(i, &o)| o == start + i)
        })
    })
}

/// The compiled kernel over `layout`'s slices.
pub fn kernel(
    gpu: &Gpu,
    layout: &GpuLayout,
    depth: usize,
    block: usize,
    threads: Threads,
) -> Result<Kernel, GpuError> {
    let side = layout.shape()[0];
    let groups = (side / block) as u32;
    gpu.wgsl_kernel(
        format!(
            "composite, {} slices, {block}×{block} workgroups, {threads:?}",
            layout.name()
        ),
        &module(layout, depth, block, threads),
        [groups, groups],
        [layout.space() * depth, side * side],
    )
}

/// The memory transactions one pass costs under `model` (32-byte sectors for current GPUs,
/// the paper's compute capability 1.3 rules), as `swizzle::analysis` predicts them from the
/// layout's offsets: every workgroup's read of one slice, lane by lane, times the slices
/// (every slice costs the same: a slice's space is a multiple of every segment).
pub fn predicted(
    offset: impl Fn(usize, usize) -> usize,
    (side, depth): (usize, usize),
    block: usize,
    threads: Threads,
    model: Coalescing,
) -> Transactions {
    let mut total = Transactions::default();
    for by in 0..side / block {
        for bx in 0..side / block {
            let start = offset(by * block, bx * block);
            let touches: Vec<Touch> = (0..block * block)
                .map(|lane| {
                    let (y, x) = (by * block + lane / block, bx * block + lane % block);
                    let offset = match threads {
                        Threads::Pixel => offset(y, x),
                        Threads::MemoryOrder => start + lane,
                    };
                    Touch {
                        lane,
                        coord: vec![y, x],
                        offset,
                    }
                })
                .collect();
            total += transactions_of(&touches, 1, 4, model);
        }
    }
    Transactions {
        requested_bytes: total.requested_bytes * depth,
        transactions: total.transactions * depth,
        transferred_bytes: total.transferred_bytes * depth,
    }
}

/// Uploads the volume stored in `layout`.
pub fn upload(
    gpu: &Gpu,
    volume: &Volume,
    layout: &GpuLayout,
    offset: impl Fn(usize, usize) -> usize,
) -> Result<Buffer<f32>, GpuError> {
    gpu.upload(&volume.stored(layout, offset))
}

/// One configuration's result.
pub struct Row {
    pub layout: &'static str,
    pub block: usize,
    pub threads: Threads,
    /// Median GPU time of one pass, where the adapter has timestamps.
    pub seconds: Option<f64>,
    /// Bytes of the volume one pass reads.
    pub bytes: usize,
    /// Predicted transactions: 32-byte sectors, and the paper's compute capability 1.3.
    pub predicted: [Transactions; 2],
}

/// Every slice layout × workgroup side (4 to 32) × thread order on `volume`: each result
/// checked against the CPU render (an error names the first wrong configuration), then,
/// with `runs`, timed (the median of that many timestamp-query runs, after
/// `swizzle::gpu::WARM_UP`) where the adapter has timestamps.
pub fn experiment(gpu: &Gpu, volume: &Volume, runs: Option<usize>) -> Result<Vec<Row>, String> {
    let (side, depth) = (volume.side, volume.depth);
    let expected = volume.render();
    let image = gpu
        .filled(side * side, f32::NAN)
        .map_err(|e| e.to_string())?;
    let mut rows = Vec::new();
    for (name, descriptor) in slice_layouts() {
        let layout = slice_layout(descriptor.as_ref(), side).map_err(|e| e.to_string())?;
        // Each pixel's offset in the slice, from the interpreter, once.
        let table: Vec<usize> = (0..side * side)
            .map(|p| match &descriptor {
                None => p,
                Some(d) => d
                    .offset_in(&[side, side], &[p / side, p % side])
                    .expect("inside the slice"),
            })
            .collect();
        let offset = |y: usize, x: usize| table[y * side + x];
        let voxels = upload(gpu, volume, &layout, offset).map_err(|e| e.to_string())?;
        for block in [4, 8, 16, 32] {
            for threads in [Threads::Pixel, Threads::MemoryOrder] {
                if threads == Threads::MemoryOrder && !blocks_are_runs(offset, side, block) {
                    continue;
                }
                let kernel =
                    kernel(gpu, &layout, depth, block, threads).map_err(|e| e.to_string())?;
                kernel
                    .run(gpu, (&voxels, &image))
                    .map_err(|e| e.to_string())?;
                let rendered = gpu.download(&image).map_err(|e| e.to_string())?;
                let wrong = rendered
                    .iter()
                    .zip(&expected)
                    .position(|(got, want)| (got - want).abs() > 1e-4);
                if let Some(pixel) = wrong {
                    return Err(format!(
                        "{name}, {block}×{block}, {threads:?}: pixel {pixel} is {} on the GPU, \
                         {} on the CPU",
                        rendered[pixel], expected[pixel]
                    ));
                }
                let seconds = match runs.filter(|_| gpu.has_timestamps()) {
                    Some(runs) => Some(
                        kernel
                            .median(gpu, (&voxels, &image), runs)
                            .map_err(|e| e.to_string())?
                            .as_secs_f64(),
                    ),
                    None => None,
                };
                rows.push(Row {
                    layout: name,
                    block,
                    threads,
                    seconds,
                    bytes: side * side * depth * 4,
                    predicted: [Coalescing::Sectors32, Coalescing::Cc13]
                        .map(|model| predicted(offset, (side, depth), block, threads, model)),
                });
            }
        }
    }
    Ok(rows)
}

/// The rows as a Markdown table: time, effective GB/s (the volume's bytes over the time)
/// and the predicted 32-byte sectors and efficiency.
pub fn table(rows: &[Row]) -> String {
    let mut out = String::from(
        "| slice layout | workgroup | threads | ms | GB/s | predicted 32-B sectors | efficiency \
         | cc 1.3 transactions | efficiency |\n|---|---|---|---:|---:|---:|---:|---:|---:|\n",
    );
    for row in rows {
        let (ms, gbs) = match row.seconds {
            Some(s) => (
                format!("{:.3}", s * 1e3),
                format!("{:.0}", row.bytes as f64 / s / 1e9),
            ),
            None => ("–".to_owned(), "–".to_owned()),
        };
        let [sectors, cc13] = &row.predicted;
        out.push_str(&format!(
            "| {} | {b}×{b} | {:?} | {ms} | {gbs} | {} | {:.0} % | {} | {:.0} % |\n",
            row.layout,
            row.threads,
            sectors.transactions,
            100.0 * sectors.efficiency(),
            cc13.transactions,
            100.0 * cc13.efficiency(),
            b = row.block,
        ));
    }
    out
}
