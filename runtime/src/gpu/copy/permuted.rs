//! Packs and unpacks where every `vec4` of the tiles is one aligned `vec4` of the image with
//! its lanes permuted by an XOR: the swizzles that XOR a tile's columns by its row at element
//! granularity (CuTe's `Swizzle`, `xor xi by yi`), and plain row-major tiles, whose XOR is
//! zero. Each thread then moves one `vec4` as a copy does, its lanes exchanged by a few shifts
//! and swizzles: no workgroup memory, no barrier, one function of the tile per `vec4`.
//!
//! [`Permuted::plan`] proves the property from the tile's offsets (every row, every aligned
//! run of `4 · per` elements); `Gpu::pack_kernel` and `unpack_kernel` take this kernel first
//! where it holds, then the staged one (`staged`), then the gather kernels.

use super::plan::{Plan, Work, entry};
use crate::gpu::GpuLayout;
use crate::gpu::layout::Planar;
use crate::gpu::shader::assemble;
use swizzle_core::emit::wgsl::expr::{call, hex_word, name, u};
use swizzle_core::emit::wgsl::layout_call;
use swizzle_core::emit::wgsl::module::{Access, Block, Function, Module};

/// The most elements of one tile whose offsets the plan evaluates on the host.
const MAX_TILE: usize = 1 << 16;

/// What the kernels need of a layout [`Permuted::plan`] accepts. Their threads walk the tiles'
/// `vec4`s in memory order, for a pack and for an unpack alike: the tiled side moves as a
/// copy's does, the image side in runs of a tile's row (an unpack whose threads walked the
/// image would read each tile in pieces far apart: slower,
/// BENCHMARKS.md#gpu-packs-unpacks-and-transposes).
pub(super) struct Permuted {
    /// Tile rows and columns, and elements per tile.
    tile: [usize; 2],
    space: usize,
    /// Elements per word, bits per element.
    per: usize,
    bits: usize,
    /// Tiles along the grid's rows and columns.
    grid: [usize; 2],
    /// The image's columns.
    width: usize,
    /// The tile's WGSL prefix.
    prefix: String,
}

impl Permuted {
    /// The plan for `layout`, a layout of tiles of elements of up to 32 bits whose every
    /// `vec4` is an image `vec4` with XOR-permuted lanes; `None` where that does not hold or
    /// cannot be proved (a tile past [`MAX_TILE`] elements, or one the image's edges cut).
    pub(super) fn plan(layout: &GpuLayout) -> Option<Permuted> {
        let Planar {
            tiles,
            tile: [rows, columns],
            grid: [grid_y, grid_x],
            extents: [height, width],
            per,
            quad,
        } = layout.planar()?;
        let space = tiles.space;
        let whole = height == grid_y * rows && width == grid_x * columns;
        if !(whole && space <= MAX_TILE && columns.is_multiple_of(quad)) {
            return None;
        }
        // Every aligned run of `quad` elements of a tile row: its first element's offset
        // `o`, and each next one at `o` rounded down to a `vec4`, plus its index XOR `o`'s
        // place in that `vec4`.
        let offset = |y: usize, x: usize| tiles.descriptor.offset(&[y, x]).ok();
        let permuted = (0..rows).all(|y| {
            (0..columns).step_by(quad).all(|x| {
                let Some(first) = offset(y, x) else {
                    return false;
                };
                let (base, c) = (first - first % quad, first % quad);
                (0..quad).all(|j| offset(y, x + j) == Some(base + (j ^ c)))
            })
        });
        permuted.then(|| Permuted {
            tile: [rows, columns],
            space,
            per,
            bits: layout.element_bits(),
            grid: [grid_y, grid_x],
            width,
            prefix: tiles.prefix.clone(),
        })
    }

    /// The pack's plan: image `vec4`s in, tile `vec4`s out.
    pub(super) fn pack(&self, layout: &GpuLayout) -> Plan {
        self.plan_of(
            layout,
            "dst[t] = permute(src[image], c);",
            [layout.size(), layout.space()],
        )
    }

    /// The unpack's plan: tile `vec4`s in, image `vec4`s out.
    pub(super) fn unpack(&self, layout: &GpuLayout) -> Plan {
        self.plan_of(
            layout,
            "dst[image] = permute(src[t], c);",
            [layout.space(), layout.size()],
        )
    }

    /// The kernel: thread `t` takes the tiles' `t`-th `vec4`, finds the image `vec4` it
    /// holds through the tile's inverse of its first element, and runs `copy`.
    fn plan_of(&self, layout: &GpuLayout, copy: &str, lengths: [usize; 2]) -> Plan {
        let quad = 4 * self.per;
        let quads = (self.grid[0] * self.grid[1] * self.space / quad) as u64;
        let mut module = Module::new();
        module
            .constant("TILE_ROWS", u(self.tile[0]))
            .constant("TILE_COLUMNS", u(self.tile[1]))
            .constant("GRID_COLUMNS", u(self.grid[1]))
            .note("Elements per vec4, vec4s per tile and per image row.")
            .constant("QUAD", u(quad))
            .constant("TILE_QUADS", u(self.space / quad))
            .constant("WIDTH_QUADS", u(self.width / quad))
            .paragraph()
            .storage("src", Access::Read, "array<vec4<u32>>")
            .storage("dst", Access::ReadWrite, "array<vec4<u32>>")
            .function(&self.permute());
        let (entry, mut body) = entry(quads);
        body.let_("tile", "t / TILE_QUADS")
            .comment("The block's first element: where it lies in its tile, and its place in its image vec4.")
            .let_(
                "rc",
                layout_call(
                    &self.prefix,
                    "coord",
                    [name("t") % name("TILE_QUADS") * name("QUAD")],
                ),
            )
            .let_("c", "rc[1] % QUAD")
            .let_("y", "tile / GRID_COLUMNS * TILE_ROWS + rc[0]")
            .let_("x", "tile % GRID_COLUMNS * TILE_COLUMNS + rc[1] - c")
            .let_("image", "y * WIDTH_QUADS + x / QUAD")
            .line(copy);
        module.entry(entry, body);
        Plan {
            wgsl: assemble(&[layout], &module.finish()),
            work: Work::Threads(quads),
            lengths,
            bits: self.bits,
        }
    }

    /// `permute(v, c)`: lane `j` of the result is lane `j ^ c` of `v` (lanes of `bits` bits,
    /// `4 · per` of them): one exchange per bit of `c`, of lanes, words or word pairs.
    fn permute(&self) -> Function {
        let w = name("w");
        let splat = |value| call("vec4", [value]);
        let mut body = Block::new();
        body.var("w", "v");
        let mut width = self.bits;
        let mut bit = 1;
        while bit < 4 * self.per {
            let exchanged = match width {
                32 => w.clone().field("yxwz"),
                64 => w.clone().field("zwxy"),
                _ => {
                    let low = (0..32 / (2 * width)).fold(0u32, |mask, k| {
                        mask | (((1u64 << width) - 1) as u32) << (2 * width * k)
                    });
                    let down = (w.clone() >> splat(u(width))) & splat(hex_word(low));
                    let up = (w.clone() << splat(u(width))) & splat(hex_word(!low));
                    down | up
                }
            };
            let exchange = (name("c") & u(bit)).differs(u(0));
            body.assign("w", call("select", [w.clone(), exchanged, exchange]));
            width *= 2;
            bit *= 2;
        }
        body.ret("w");
        Function::new("permute", ["v: vec4<u32>", "c: u32"])
            .returns("vec4<u32>")
            .comment("Lane j of the result is lane j ^ c of v.")
            .body(body)
    }
}
