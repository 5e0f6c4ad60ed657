//! GPU bandwidth of swizzle's kernels (BENCHMARKS.md), each against its anchor in the same
//! run: pack/unpack into 4×4 Morton tiles and into XOR-swizzled 32×32 tiles (each as a
//! fixed-size layout and as a `dyn` layout at the image's extents, and the `dyn` ones with
//! 64-, 16- and 8-bit elements) against a plain WGSL copy of the same bytes (and a CUDA
//! device-to-device copy of the same bytes: the fastest of PyTorch's, from
//! `benches/cuda_copy.py`'s output in the file `SWIZZLE_CUDA_COPIES`, and `cudaMemcpy` and a
//! float4 copy kernel from `benches/cuda/run.sh`'s; a kernel of 8-bit elements moves a
//! quarter of the bytes of one of words, and a fixed cost per dispatch weighs four times as
//! much); transposes
//! built from tiled copies through row-major, padded and XOR-swizzled workgroup tiles, with
//! 256, 128 and 64 threads, against each other, the naive transpose, the vec4 copy and the
//! CUDA C++ transposes of `benches/cuda` (their output in the file `SWIZZLE_CUDA_RESULTS`,
//! from the same device call), each with the analysis's bank-conflict verdict.
//!
//! Run with `cargo bench --bench gpu`. Every kernel is timed with timestamp queries: the
//! median of `SWIZZLE_BENCH_RUNS` (default 30) runs after `swizzle::gpu::WARM_UP` (0.5 s) of
//! back-to-back runs that bring the GPU out of its idle clocks, on a `SWIZZLE_BENCH_SIDE`²
//! image (default 8192²: 256 MiB per buffer of u32, 512 MiB of u64). Each result is checked
//! against closed forms on the CPU in the same run before it is reported, its row printed as
//! soon as it is measured (the whole table and the transposes' summary at the end). What the driver
//! made of these kernels (registers, shared and local memory) is the lab's:
//! `cargo bench -p swizzle-lab --bench copy_stats` (lab/).

#[path = "common/transposes.rs"]
mod transposes;

use std::time::Duration;
use swizzle::gpu::{
    BoundsChecks, Buffer, Dispatch, Gpu, GpuError, GpuLayout, Kernel, Transpose, Word,
};
use swizzle::raster::Raster;
use transposes::*;

swizzle::layout! {
    /// The packs' tiled layouts: 4 × 4 Morton tiles and 32 × 32 XOR tiles, with the image's
    /// extents given at run time.
    pub layout DynMortonTiles {
        memory [ty: dyn, tx: dyn, m: 16];
        morton m -> [yi: 4, xi: 4];
        merge [ty, yi] -> y;
        merge [tx, xi] -> x;
        coords [y, x];
    }
    pub layout DynXorTiles {
        memory [ty: dyn, tx: dyn, yi: 32, xi: 32];
        xor xi by yi;
        merge [ty, yi] -> y;
        merge [tx, xi] -> x;
        coords [y, x];
    }
}

/// Which tile each workgroup takes: the fastest 64 × 64 XOR tile (without bounds checks) in
/// the raster orders beside row-major, for the tiles' reads and writes of DRAM pages.
const ORDERS: [Raster; 4] = [
    Raster::Snake,
    Raster::Grouped(4),
    Raster::Grouped(16),
    Raster::Morton(8),
];

/// The CUDA C++ kernels' GB/s at this side, from `benches/cuda/run.sh`'s output in the file
/// named by `SWIZZLE_CUDA_RESULTS` (lines `cuda <kernel> <N> <ms> <GB/s>`).
fn cuda_results(side: usize) -> Vec<(String, f64)> {
    cuda_kernels()
        .into_iter()
        .filter(|(_, n, _)| *n == side)
        .map(|(kernel, _, gbs)| (kernel, gbs))
        .collect()
}

/// Every line of `SWIZZLE_CUDA_RESULTS`: kernel, side, GB/s.
fn cuda_kernels() -> Vec<(String, usize, f64)> {
    let Ok(path) = std::env::var("SWIZZLE_CUDA_RESULTS") else {
        return Vec::new();
    };
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    text.lines()
        .filter_map(
            |line| match line.split_whitespace().collect::<Vec<_>>()[..] {
                ["cuda", kernel, n, _, gbs] => {
                    Some((kernel.to_owned(), n.parse().ok()?, gbs.parse().ok()?))
                }
                _ => None,
            },
        )
        .collect()
}

/// Every transpose against the vec4 copy and the best CUDA C++ transpose, with the
/// analysis's worst bank conflict; then the tiles against each other.
fn transpose_summary(rows: &[Row], verdicts: &[(String, Option<usize>)], plain: f64, side: usize) {
    let best = |tile: &str| {
        let prefix = format!("transpose through {tile},");
        rows.iter()
            .filter(|r| r.name.starts_with(&prefix))
            .max_by(|a, b| a.gbs().total_cmp(&b.gbs()))
    };
    let cuda = cuda_results(side);
    let best_cuda = cuda
        .iter()
        .filter(|(kernel, _)| kernel.starts_with("transpose"))
        .max_by(|a, b| a.1.total_cmp(&b.1));
    println!();
    for (kernel, gbs) in &cuda {
        println!("CUDA C++ {kernel} at {side}²: {gbs:.0} GB/s");
    }
    println!();
    println!(
        "| transpose | GB/s | vs vec4 WGSL copy | vs best CUDA transpose | \
         worst conflict (analysis) |"
    );
    println!("|---|---:|---:|---:|---:|");
    for (name, verdict) in verdicts {
        let Some(row) = rows.iter().find(|r| r.name == *name) else {
            continue;
        };
        let verdict = verdict.map_or("–".to_owned(), |v| format!("{v}-way"));
        let vs_cuda = best_cuda.map_or("–".to_owned(), |(_, c)| format!("{:.2}×", row.gbs() / c));
        println!(
            "| {name} | {:.0} | {:.2}× | {vs_cuda} | {verdict} |",
            row.gbs(),
            row.gbs() / plain
        );
    }
    let gbs = |tile: &str| best(tile).map_or(f64::NAN, Row::gbs);
    let xor = ["XorTile", "Xor4Tile", "XorTile64", "Xor4Tile64"]
        .map(gbs)
        .into_iter()
        .fold(f64::NAN, f64::max);
    let padded = gbs("PaddedTile").max(gbs("PaddedTile64"));
    println!();
    println!(
        "fastest XOR tile: {:.3}× the fastest padded tile's speed, {:.2}× the fastest \
         row-major tile's",
        xor / padded,
        xor / gbs("RowTile")
    );
    let columns = |tile: &str| {
        let name = format!("transpose through {tile}, threads Columns ");
        rows.iter()
            .find(|r| r.name.starts_with(&name))
            .map_or(f64::NAN, Row::gbs)
    };
    println!(
        "single elements down the columns (threads Columns): the XOR tile {:.2}× the \
         row-major tile's speed, {:.3}× the padded tile's",
        columns("XorTile") / columns("RowTile"),
        columns("XorTile") / columns("PaddedTile")
    );
}

/// A closed form of a layout's offset of `(y, x)` in a `side`² image.
type Offset = fn(usize, usize, usize) -> usize;

/// 4×4 Morton tiles, row-major over the tiles: (y, x) of a `side`² image.
fn morton_offset(side: usize, y: usize, x: usize) -> usize {
    let tile = (y / 4) * (side / 4) + x / 4;
    let (yi, xi) = (y % 4, x % 4);
    let inside = (xi & 1) | (yi & 1) << 1 | (xi & 2) << 1 | (yi & 2) << 2;
    tile * 16 + inside
}

/// 32×32 tiles, row-major over the tiles, columns XOR-swizzled by the row.
fn xor_offset(side: usize, y: usize, x: usize) -> usize {
    let tile = (y / 32) * (side / 32) + x / 32;
    tile * 1024 + (y % 32) * 32 + ((x % 32) ^ (y % 32))
}

struct Row {
    name: String,
    median: Duration,
    bytes: u64,
}

impl Row {
    fn gbs(&self) -> f64 {
        self.bytes as f64 / self.median.as_secs_f64() / 1e9
    }

    /// Whether this is the plain WGSL copy (bounds-checked, as the kernels are).
    fn is_copy(&self) -> bool {
        self.name == "plain copy"
    }
}

/// The plain WGSL copy of `bytes` bytes (read and written), with `checks`, checked, then
/// measured, unless a row has it already: the anchor of every kernel that moves as many.
fn copy_anchor(
    gpu: &Gpu,
    bytes: u64,
    checks: BoundsChecks,
    runs: usize,
    rows: &mut Vec<Row>,
) -> Result<(), GpuError> {
    let words = (bytes / 8) as usize;
    let copy = gpu.plain_copy_kernel_with(words, checks)?;
    if rows
        .iter()
        .any(|row| row.name == copy.name() && row.bytes == bytes)
    {
        return Ok(());
    }
    let data: Vec<u32> = (0..words as u32).collect();
    let (input, output) = (gpu.upload(&data)?, gpu.filled(words, 0u32)?);
    copy.run(gpu, (&input, &output))?;
    check(copy.name(), gpu.download(&output)? == data);
    measure(gpu, &copy, (&input, &output), runs, rows)?;
    Ok(())
}

/// The fastest CUDA copy of each size, by bytes read and written: PyTorch's copies from
/// `benches/cuda_copy.py`'s output in the file named by `SWIZZLE_CUDA_COPIES` (lines `copy
/// <buffer bytes> <GB/s>`), and `cudaMemcpy` and the float4 copy kernel of
/// `benches/cuda/run.sh` (`SWIZZLE_CUDA_RESULTS`, `N`² words), which time many copies back
/// to back and so read faster at small sizes.
fn cuda_copies() -> Vec<(u64, f64)> {
    let text = std::env::var("SWIZZLE_CUDA_COPIES")
        .map(|path| std::fs::read_to_string(path).unwrap_or_default())
        .unwrap_or_default();
    let torch =
        text.lines().filter_map(
            |line| match line.split_whitespace().collect::<Vec<_>>()[..] {
                ["copy", bytes, gbs] => Some((2 * bytes.parse::<u64>().ok()?, gbs.parse().ok()?)),
                _ => None,
            },
        );
    let kernels = cuda_kernels().into_iter().filter_map(|(kernel, n, gbs)| {
        matches!(kernel.as_str(), "memcpy" | "copy_float4").then_some((8 * (n * n) as u64, gbs))
    });
    let mut best: Vec<(u64, f64)> = Vec::new();
    for (bytes, gbs) in torch.chain(kernels) {
        match best.iter_mut().find(|b| b.0 == bytes) {
            Some(b) => b.1 = b.1.max(gbs),
            None => best.push((bytes, gbs)),
        }
    }
    best.sort_by_key(|b| b.0);
    best
}

/// Times `kernel`, adds its row to `rows` and prints the row (its anchor, the plain copy of
/// its bytes, measured before it).
fn measure<T: Word>(
    gpu: &Gpu,
    kernel: &Kernel,
    (input, output): (&Buffer<T>, &Buffer<T>),
    runs: usize,
    rows: &mut Vec<Row>,
) -> Result<(), GpuError> {
    rows.push(Row {
        name: kernel.name().to_owned(),
        median: kernel.median(gpu, (input, output), runs)?,
        bytes: kernel.bytes(),
    });
    println!("{}", table_row(&rows[rows.len() - 1], rows, &cuda_copies()));
    Ok(())
}

/// The header of the table of every kernel.
const TABLE: &str = "| kernel | MiB per buffer | median (ms) | GB/s | vs plain WGSL copy of the same \
     bytes | vs CUDA copy of the same bytes |\n|---|---:|---:|---:|---:|---:|";

/// `row`'s line of the table: against the plain copy of its bytes among `rows` and the
/// CUDA copy of its bytes among `copies`.
fn table_row(row: &Row, rows: &[Row], copies: &[(u64, f64)]) -> String {
    let copy = rows.iter().find(|r| r.is_copy() && r.bytes == row.bytes);
    let cuda = copies.iter().find(|c| c.0 == row.bytes).map(|c| c.1);
    let ratio =
        |anchor: Option<f64>| anchor.map_or("–".to_owned(), |a| format!("{:.2}×", row.gbs() / a));
    format!(
        "| {} | {} | {:.3} | {:.0} | {} | {} |",
        row.name,
        row.bytes >> 21,
        row.median.as_secs_f64() * 1e3,
        row.gbs(),
        ratio(copy.map(Row::gbs)),
        ratio(cuda),
    )
}

/// Packs `image` (a `side`² row-major image) into each layout, for elements of `T`, and
/// unpacks it again, each checked against the layout's closed form, then measured.
fn pack_and_unpack<T: Word + PartialEq>(
    gpu: &Gpu,
    layouts: &[(GpuLayout, Offset)],
    image: &[T],
    side: usize,
    runs: usize,
    rows: &mut Vec<Row>,
) -> Result<(), GpuError> {
    copy_anchor(
        gpu,
        2 * size_of_val(image) as u64,
        BoundsChecks::On,
        runs,
        rows,
    )?;
    let input = gpu.upload(image)?;
    let output = gpu.filled(image.len(), T::zeroed())?;
    for (layout, offset) in layouts {
        let layout = layout.with_element::<T>()?;
        let pack = gpu.pack_kernel(&layout)?;
        let packed = gpu.filled(layout.space(), T::zeroed())?;
        pack.run(gpu, (&input, &packed))?;
        let data = gpu.download(&packed)?;
        let ok =
            (0..side).all(|y| (0..side).all(|x| data[offset(side, y, x)] == image[y * side + x]));
        check(pack.name(), ok);
        measure(gpu, &pack, (&input, &packed), runs, rows)?;

        let unpack = gpu.unpack_kernel(&layout)?;
        unpack.run(gpu, (&packed, &output))?;
        check(unpack.name(), gpu.download(&output)? == image);
        measure(gpu, &unpack, (&packed, &output), runs, rows)?;
    }
    Ok(())
}

fn check(what: &str, ok: bool) {
    assert!(ok, "{what}: the GPU result differs from the CPU's");
    eprintln!("checked: {what}");
}

fn main() -> Result<(), GpuError> {
    let side = env("SWIZZLE_BENCH_SIDE", 8192);
    let runs = env("SWIZZLE_BENCH_RUNS", 30);
    let gpu = match Gpu::new() {
        Ok(gpu) => gpu,
        Err(error) => {
            eprintln!("no GPU, nothing measured: {error}");
            return Ok(());
        }
    };
    let len = side * side;
    println!("device: {}", gpu.describe());
    println!(
        "image: {side}×{side} u32 ({} MiB per buffer), median of {runs} runs after {} ms of warm-up",
        (len * 4) >> 20,
        swizzle::gpu::WARM_UP.as_millis()
    );

    // The anchors, then the table's header: each row is printed as it is measured, and the
    // whole table again at the end.
    let copies = cuda_copies();
    for (bytes, gbs) in &copies {
        println!(
            "CUDA device-to-device copy of {} MiB: {gbs:.0} GB/s",
            bytes >> 21
        );
    }
    if copies.is_empty() {
        println!("(no CUDA copies given: set SWIZZLE_CUDA_COPIES or SWIZZLE_CUDA_RESULTS)");
    }
    println!("\n{TABLE}");

    let image: Vec<u32> = (0..len as u32).collect();
    let input = gpu.upload(&image)?;
    let output = gpu.filled(len, 0u32)?;
    let mut rows = Vec::new();

    for checks in [BoundsChecks::On, BoundsChecks::Off] {
        copy_anchor(&gpu, 8 * len as u64, checks, runs, &mut rows)?;
    }

    let tiled = |tiles: &str, inside: &str| {
        let text = format!(
            "layout {tiles} {{ memory [ty: {n}, tx: {n}, {inside}; \
             merge [ty, yi] -> y; merge [tx, xi] -> x; coords [y, x]; }}",
            n = side / if tiles == "MortonTiles" { 4 } else { 32 },
        );
        let checked = swizzle_syntax::layouts(&text).expect("the bench's layouts check");
        GpuLayout::from_descriptor(&checked[0].descriptor)
    };
    let extents = [side, side];
    let layouts: [(GpuLayout, Offset); 4] = [
        (
            tiled("MortonTiles", "m: 16]; morton m -> [yi: 4, xi: 4]")?,
            morton_offset,
        ),
        (
            tiled("XorTiles", "yi: 32, xi: 32]; xor xi by yi")?,
            xor_offset,
        ),
        (
            GpuLayout::tiled(&DynMortonTiles::DESCRIPTOR, &extents)?,
            morton_offset,
        ),
        (
            GpuLayout::tiled(&DynXorTiles::DESCRIPTOR, &extents)?,
            xor_offset,
        ),
    ];
    pack_and_unpack(&gpu, &layouts, &image, side, runs, &mut rows)?;
    // The `dyn` layouts with elements of the other widths (64 bits: 512 MiB per buffer).
    let wide: Vec<u64> = image
        .iter()
        .map(|&i| u64::from(i) << 32 | u64::from(!i))
        .collect();
    pack_and_unpack(&gpu, &layouts[2..], &wide, side, runs, &mut rows)?;
    drop(wide);
    let half: Vec<u16> = image.iter().map(|&i| i as u16 ^ (i >> 16) as u16).collect();
    pack_and_unpack(&gpu, &layouts[2..], &half, side, runs, &mut rows)?;
    let bytes: Vec<u8> = image.iter().map(|&i| (i ^ i >> 13) as u8).collect();
    pack_and_unpack(&gpu, &layouts[2..], &bytes, side, runs, &mut rows)?;

    let naive = gpu.naive_transpose_kernel(side, side)?;
    let mut transposes = vec![(naive, None)];
    let (checked, unchecked) = transpose_designs();
    let ordered = ORDERS.map(|order| Transpose {
        order,
        ..unchecked[3]
    });
    for transpose in checked.iter().chain(&unchecked).chain(&ordered) {
        let built = gpu.transpose_kernel(side, side, transpose)?;
        let verdict = built.worst_conflict();
        transposes.push((built.kernel, Some(verdict)));
    }
    let mut verdicts = Vec::new();
    for (kernel, verdict) in &transposes {
        kernel.run(&gpu, (&input, &output))?;
        let data = gpu.download(&output)?;
        let ok = (0..side).all(|y| (0..side).all(|x| data[x * side + y] == image[y * side + x]));
        check(kernel.name(), ok);
        measure(&gpu, kernel, (&input, &output), runs, &mut rows)?;
        verdicts.push((kernel.name().to_owned(), *verdict));
    }

    // Where a transpose's time goes: the same 64 × 64 tiles copied through workgroup
    // memory without transposing them (each thread loads four rows of a `vec4` and, after
    // the barrier, stores four rows that other threads loaded), beside the plain copy.
    let staged = gpu.wgsl_kernel(
        "staged copy through a 64 × 64 workgroup tile (vec4, no transpose)",
        &staged_copy(side),
        [(side / 64) as u32, (side / 64) as u32],
        [side * side, side * side],
    )?;
    staged.run(&gpu, (&input, &output))?;
    check(staged.name(), gpu.download(&output)? == image);
    measure(&gpu, &staged, (&input, &output), runs, &mut rows)?;

    // And the fastest transposes without their partial-tile code (every tile of a square
    // image whose side is a multiple of 64 is whole): what the edge's guarded moves cost
    // an interior tile, through the registers they claim.
    for (tile, threads) in [
        (&Xor4Tile64::DESCRIPTOR, Squares256x64::THREAD_VALUES),
        (&Xor4Tile::DESCRIPTOR, Threads128::THREAD_VALUES),
    ] {
        let built = gpu.transpose_kernel(side, side, &Transpose::new(tile, threads))?;
        let groups = (side / tile.shape()[0]) as u32;
        let interior = gpu.wgsl_kernel(
            format!("{} (interior only)", built.kernel.name()),
            &interior_only(built.kernel.wgsl()),
            [groups, groups],
            [side * side, side * side],
        )?;
        interior.run(&gpu, (&input, &output))?;
        let data = gpu.download(&output)?;
        let ok = (0..side).all(|y| (0..side).all(|x| data[x * side + y] == image[y * side + x]));
        check(interior.name(), ok);
        measure(&gpu, &interior, (&input, &output), runs, &mut rows)?;
    }

    let plain = rows[0].gbs();
    let copies = cuda_copies();
    println!("\n{TABLE}");
    for row in &rows {
        println!("{}", table_row(row, &rows, &copies));
    }
    // The transposes keep wgpu's bounds checks, as the copy does.
    transpose_summary(&rows, &verdicts, plain, side);
    Ok(())
}
