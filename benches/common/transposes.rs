//! The transposes of the GPU bench (`benches/gpu.rs`) and of the lab's driver statistics
//! (`lab/benches/copy_stats.rs`), in one place: the workgroup tiles and thread layouts, the
//! designs measured, the hand-written staged copy and the cut of a tiled copy to its
//! interior.

use swizzle::gpu::{BoundsChecks, Transpose};
use swizzle::ir::Descriptor;
use swizzle::threads::ThreadValues;

#[path = "../../tests/common/transpose_tiles.rs"]
mod tiles;
pub use tiles::*;

swizzle::layout! {
    /// 128 threads over a 32 × 32 tile, two rows of four consecutive elements each (the
    /// shared tiles' `Threads256` and `Threads64` have one and four).
    pub threads Threads128 {
        tile [r: 32, c: 32];
        unmerge c -> [tc: 8, v: 4];
        unmerge r -> [k: 2, tr: 16];
        merge [tr, tc] -> thread;
        threads [thread];
        values [k, v];
    }
    /// The 64 × 64 tiles: padded, XOR on words, XOR on groups of four.
    pub layout PaddedTile64 { memory [y: 64, x: 64] strides [65, 1]; coords [y, x]; }
    pub layout XorTile64 { memory [y: 64, x: 64]; xor x by y; coords [y, x]; }
    pub layout Xor4Tile64 {
        memory [yo: 16, yi: 4, xo: 16, xi: 4];
        xor xo by yo;
        merge [yo, yi] -> y;
        merge [xo, xi] -> x;
        coords [y, x];
    }
    /// 256 threads over a 64 × 64 tile, 4 rows of 4 each: a subgroup spans 4 rows of 8
    /// vectors (128 bytes of each row), so that the tiles' single-element accesses of 8
    /// groups × 4 rows fall on 32 banks.
    pub threads Threads256x64 {
        tile [r: 64, c: 64];
        unmerge c -> [tch: 2, tcl: 8, v: 4];
        unmerge r -> [k: 4, trh: 4, trl: 4];
        merge [trh, tch, trl, tcl] -> thread;
        threads [thread];
        values [k, v];
    }

    /// `Squares64` over the 64 × 64 tiles: 256 threads a square each, or 128 two squares
    /// each.
    pub threads Squares256x64 {
        tile [r: 64, c: 64];
        unmerge c -> [tc: 16, v: 4];
        unmerge r -> [tr: 16, k: 4];
        merge [tr, tc] -> thread;
        threads [thread];
        values [k, v];
    }
    pub threads Squares128x64 {
        tile [r: 64, c: 64];
        unmerge c -> [tc: 16, v: 4];
        unmerge r -> [s: 2, tr: 8, k: 4];
        merge [tr, tc] -> thread;
        threads [thread];
        values [s, k, v];
    }

    /// Single elements, a subgroup along a row of the tile: the loads read rows, the
    /// stores read the tile's columns, 32 lanes down one column (CUDA's classic kernel).
    pub threads Columns {
        tile [r: 32, c: 32];
        unmerge r -> [k: 4, tr: 8];
        threads [tr, c];
        values [k];
    }
}

/// The transposes measured: each tile with each thread count, with wgpu's bounds checks (as
/// `Transpose::new` builds them), and with single elements down the columns.
pub const TRANSPOSES: [(&Descriptor, ThreadValues<'static>); 21] = [
    (&RowTile::DESCRIPTOR, Threads256::THREAD_VALUES),
    (&RowTile::DESCRIPTOR, Threads128::THREAD_VALUES),
    (&RowTile::DESCRIPTOR, Threads64::THREAD_VALUES),
    (&RowTile::DESCRIPTOR, Columns::THREAD_VALUES),
    (&PaddedTile::DESCRIPTOR, Threads256::THREAD_VALUES),
    (&PaddedTile::DESCRIPTOR, Threads128::THREAD_VALUES),
    (&PaddedTile::DESCRIPTOR, Threads64::THREAD_VALUES),
    (&PaddedTile::DESCRIPTOR, Columns::THREAD_VALUES),
    (&XorTile::DESCRIPTOR, Threads256::THREAD_VALUES),
    (&XorTile::DESCRIPTOR, Threads128::THREAD_VALUES),
    (&XorTile::DESCRIPTOR, Threads64::THREAD_VALUES),
    (&XorTile::DESCRIPTOR, Columns::THREAD_VALUES),
    (&Xor4Tile::DESCRIPTOR, Threads256::THREAD_VALUES),
    (&Xor4Tile::DESCRIPTOR, Threads128::THREAD_VALUES),
    (&Xor4Tile::DESCRIPTOR, Threads64::THREAD_VALUES),
    (&PaddedTile64::DESCRIPTOR, Threads256x64::THREAD_VALUES),
    (&XorTile64::DESCRIPTOR, Threads256x64::THREAD_VALUES),
    (&Xor4Tile64::DESCRIPTOR, Threads256x64::THREAD_VALUES),
    (&Xor4Tile::DESCRIPTOR, Squares64::THREAD_VALUES),
    (&Xor4Tile64::DESCRIPTOR, Squares256x64::THREAD_VALUES),
    (&Xor4Tile64::DESCRIPTOR, Squares128x64::THREAD_VALUES),
];

/// What wgpu's bounds checks cost: these again without them.
pub const UNCHECKED: [(&Descriptor, ThreadValues<'static>); 6] = [
    (&RowTile::DESCRIPTOR, Threads256::THREAD_VALUES),
    (&PaddedTile::DESCRIPTOR, Threads256::THREAD_VALUES),
    (&XorTile64::DESCRIPTOR, Threads256x64::THREAD_VALUES),
    (&Xor4Tile64::DESCRIPTOR, Threads256x64::THREAD_VALUES),
    (&Xor4Tile64::DESCRIPTOR, Squares256x64::THREAD_VALUES),
    (&Xor4Tile64::DESCRIPTOR, Squares128x64::THREAD_VALUES),
];

/// The transposes of `TRANSPOSES`, then those of `UNCHECKED` without bounds checks.
pub fn transpose_designs() -> ([Transpose<'static>; 21], [Transpose<'static>; 6]) {
    let checked = TRANSPOSES.map(|(tile, threads)| Transpose::new(tile, threads));
    let unchecked = UNCHECKED.map(|(tile, threads)| Transpose {
        bounds_checks: BoundsChecks::Off,
        ..Transpose::new(tile, threads)
    });
    (checked, unchecked)
}

/// A copy of a `side × side` image of words through 64 × 64 workgroup tiles of `vec4`s,
/// each row loaded by one thread and stored by another: the staging of a transpose without
/// its transpose.
pub fn staged_copy(side: usize) -> String {
    let stride = side / 4;
    format!(
        "@group(0) @binding(0) var<storage, read> input: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read_write> output: array<vec4<u32>>;
var<workgroup> tile: array<vec4<u32>, 1024>;

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) thread: u32, @builtin(workgroup_id) group: vec3<u32>) {{
    let r0 = group.y * 64u;
    let c0 = group.x * 16u;
    let tc = thread & 15u;
    let tr = thread >> 4u;
    tile[(tr * 4u) * 16u + tc] = input[(r0 + tr * 4u) * {stride}u + c0 + tc];
    tile[(tr * 4u + 1u) * 16u + tc] = input[(r0 + tr * 4u + 1u) * {stride}u + c0 + tc];
    tile[(tr * 4u + 2u) * 16u + tc] = input[(r0 + tr * 4u + 2u) * {stride}u + c0 + tc];
    tile[(tr * 4u + 3u) * 16u + tc] = input[(r0 + tr * 4u + 3u) * {stride}u + c0 + tc];
    workgroupBarrier();
    output[(r0 + tr) * {stride}u + c0 + tc] = tile[tr * 16u + tc];
    output[(r0 + tr + 16u) * {stride}u + c0 + tc] = tile[(tr + 16u) * 16u + tc];
    output[(r0 + tr + 32u) * {stride}u + c0 + tc] = tile[(tr + 32u) * 16u + tc];
    output[(r0 + tr + 48u) * {stride}u + c0 + tc] = tile[(tr + 48u) * 16u + tc];
}}
"
    )
}

/// A tiled copy's WGSL with each function's partial-tile moves cut: the `else` of the
/// interior's test, from its `} else {` to its closing brace. It reads the printer's form
/// (the `else` opened by the partial tile's comment, closed at the `else`'s indentation)
/// and panics where that form is not found, rather than time the whole kernel under this
/// row's name.
pub fn interior_only(wgsl: &str) -> String {
    const PARTIAL: &str = "// A partial tile";
    let lines: Vec<&str> = wgsl.lines().collect();
    let mut out = String::new();
    let (mut closing, mut cuts) = (None::<String>, 0);
    for (i, line) in lines.iter().enumerate() {
        if let Some(close) = &closing {
            if line == close {
                out.push_str(line);
                out.push('\n');
                closing = None;
            }
            continue;
        }
        let opens_partial = line.trim() == "} else {"
            && lines
                .get(i + 1)
                .is_some_and(|next| next.trim_start().starts_with(PARTIAL));
        if opens_partial {
            let indent = &line[..line.len() - line.trim_start().len()];
            closing = Some(format!("{indent}}}"));
            cuts += 1;
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    assert!(
        cuts > 0 && closing.is_none(),
        "interior_only: no partial-tile block of the printer's form in\n{wgsl}"
    );
    out
}

pub fn env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}
