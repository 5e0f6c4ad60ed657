//! Transposes through workgroup memory, built from two tiled copies: a workgroup loads one
//! tile of the input image into a workgroup tile in any layout, waits for the others, and
//! stores the tile's transpose into the output image. Both copies come from the core's
//! [`TiledCopy`]: each thread's moves are straight-line WGSL, in `vec4` global accesses
//! where the image's rows allow, with guards only at the image's edge, and the bank
//! conflicts of every workgroup-memory instruction are known before the kernel runs
//! ([`TransposeKernel::instructions`]). Where a thread holds squares of four rows of four
//! and the tile's entries run across them (a tile XOR-swizzled on groups of four, read
//! through its transpose), it moves whole entries on both sides and transposes each
//! square in registers ([`TiledCopy::crossing`]), as CUDA's `float4` transposes do.

use super::copy::image_len;
#[cfg(feature = "gpu")]
use super::{Batch, Buffer, Dispatch, Gpu, Kernel, Word};
use super::{BoundsChecks, GpuError, Unsupported};
use std::borrow::Cow;
use swizzle_core::emit::wgsl;
use swizzle_core::emit::wgsl::expr::{Expr, call, name, u};
use swizzle_core::emit::wgsl::module::{Access, Block, Builtin, Entry, Module, array, vector};
use swizzle_core::ir::Descriptor;
use swizzle_core::plans::raster::Raster;
use swizzle_core::plans::threads::ThreadValues;
use swizzle_core::plans::tiled_copy::{self, Program};
use swizzle_core::plans::tiled_copy::{Instruction, Side, TiledCopy};

/// Lanes per subgroup that the conflict analysis assumes: a warp.
const SUBGROUP: usize = 32;

/// The parts of a transpose through a workgroup tile.
#[derive(Clone, Copy, Debug)]
pub struct Transpose<'d> {
    /// The workgroup tile: any fixed-size layout of rank 2, over `[y, x]` of the input's
    /// tile.
    pub tile: &'d Descriptor,
    /// Who loads the input's tile: a thread-value layout over the tile's `[y, x]`.
    pub loads: ThreadValues<'d>,
    /// Who stores the output's tile: a thread-value layout over the transposed tile's
    /// `[x, y]` (the output's rows are the input's columns).
    pub stores: ThreadValues<'d>,
    /// wgpu's bounds checks. Every index of the kernel is in range by construction (the
    /// tile's offsets lie in its space, the image's under the derived edge guards), so
    /// they may go; dropping them bought nothing measurable in the transposes (their time
    /// goes to memory, not to the clamps: BENCHMARKS.md's git history), so
    /// [`Transpose::new`] keeps them.
    pub bounds_checks: BoundsChecks,
    /// Which tile each workgroup takes (`raster` items' `R::ORDER`): workgroup `g` of the
    /// grid of input tiles transposes tile `order.tile(g, grid)`.
    pub order: Raster,
}

impl<'d> Transpose<'d> {
    /// A transpose through a square `tile` whose loads and stores `threads` distributes
    /// alike, with wgpu's bounds checks.
    pub fn new(tile: &'d Descriptor, threads: ThreadValues<'d>) -> Transpose<'d> {
        Transpose {
            tile,
            loads: threads,
            stores: threads,
            bounds_checks: BoundsChecks::On,
            order: Raster::RowMajor,
        }
    }
}

/// A compiled transpose and what the analysis says of its instructions.
#[cfg(feature = "gpu")]
#[derive(Debug)]
pub struct TransposeKernel {
    pub kernel: Kernel,
    /// Values per move of the loads and of the stores.
    pub widths: [usize; 2],
    /// The loads' and the stores' instructions, with their bank conflicts and transactions.
    pub instructions: [Vec<Instruction>; 2],
}

#[cfg(feature = "gpu")]
impl<T: Word> Dispatch<(&Buffer<T>, &Buffer<T>)> for TransposeKernel {
    /// Records a run reading the image `input` and writing its transpose `output`.
    fn enqueue(
        &self,
        batch: &mut Batch,
        buffers: (&Buffer<T>, &Buffer<T>),
    ) -> Result<(), GpuError> {
        self.kernel.enqueue(batch, buffers)
    }
}

#[cfg(feature = "gpu")]
impl TransposeKernel {
    /// The worst bank conflict degree of any workgroup-memory instruction: 1 is
    /// conflict-free.
    pub fn worst_conflict(&self) -> usize {
        self.instructions
            .iter()
            .flatten()
            .flat_map(|i| [&i.source, &i.destination])
            .filter_map(|cost| match cost {
                tiled_copy::Cost::Banks(report) => Some(report.degree),
                tiled_copy::Cost::Memory(_) => None,
            })
            .max()
            .unwrap_or(1)
    }
}

impl Transpose<'_> {
    /// The WGSL module of this transpose of a row-major `height × width` image of 32-bit
    /// elements, as [`Gpu::transpose_kernel`] compiles it (no device needed: for
    /// inspection, and for the CPU evaluator): `input` at binding 0, `output` at 1, one
    /// workgroup per input tile, `[columns, rows]` of tiles.
    pub fn wgsl(&self, height: usize, width: usize) -> Result<String, GpuError> {
        Ok(self.plan([height, width])?.module)
    }

    /// The two copies of the transpose of a `[height, width]` image, checked, and its
    /// module.
    fn plan(&self, [height, width]: [usize; 2]) -> Result<Planned, GpuError> {
        let len = image_len(height, width)?;
        let ([rows, columns], threads) = tile_and_threads(self)?;
        // The stores read the tile through its transpose: the same memory, coordinates
        // swapped.
        let transposed = transposed(self.tile);
        let copy = |threads, source, destination| TiledCopy {
            threads,
            source,
            destination,
            element_bytes: 4,
            subgroup: SUBGROUP,
        };
        let load = copy(self.loads, Side::Image, Side::Tile(self.tile));
        let store = copy(self.stores, Side::Tile(&transposed), Side::Image);
        let widths = [
            fitting(load.widest(), width),
            fitting(store.widest(), height),
        ];
        let program = |copy: &TiledCopy, width| {
            copy.program(width)
                .ok_or_else(|| unsupported(copy.threads.descriptor, Unsupported::Unroll))
        };
        let programs = [program(&load, widths[0])?, program(&store, widths[1])?];
        if let Err(why) = self.order.check() {
            return Err(unsupported(self.tile, Unsupported::Order(why)));
        }
        let grid = [height.div_ceil(rows), width.div_ceil(columns)];
        let module = transpose_wgsl(self, &programs, widths, [height, width], grid);
        Ok(Planned {
            len,
            module,
            name: kernel_name(self, widths, programs.iter().any(|p| p.squares.is_some())),
            threads,
            groups: [grid[1], grid[0]],
            widths,
            instructions: [load.instructions(widths[0]), store.instructions(widths[1])],
        })
    }
}

/// A transpose of one image size, checked: what [`Gpu::transpose_kernel`] compiles.
struct Planned {
    /// Elements of the image (and of its transpose).
    len: usize,
    module: String,
    name: String,
    /// Threads of a workgroup.
    threads: usize,
    /// The dispatch: x along the input's columns of tiles.
    groups: [usize; 2],
    /// Values per move of the loads and of the stores.
    widths: [usize; 2],
    /// The loads' and the stores' instructions.
    instructions: [Vec<Instruction>; 2],
}

#[cfg(feature = "gpu")]
impl Gpu {
    /// Transposes a row-major `height × width` image of 32-bit elements into a row-major
    /// `width × height` one, through a workgroup tile laid out and distributed as
    /// `transpose` says. Each side moves in the widest vectors its thread-value layout and
    /// the image's row length allow (four words where the rows are a multiple of four).
    pub fn transpose_kernel(
        &self,
        height: usize,
        width: usize,
        transpose: &Transpose,
    ) -> Result<TransposeKernel, GpuError> {
        let planned = transpose.plan([height, width])?;
        let space = transpose.tile.space().unwrap_or(0);
        self.check_workgroup(planned.threads, (space * 4) as u64, "the tile's")?;
        let groups = self.workgroups(planned.groups)?;
        let kernel = self.kernel_with(
            planned.name,
            planned.module,
            groups,
            [planned.len; 2],
            32,
            transpose.bounds_checks,
        )?;
        Ok(TransposeKernel {
            kernel,
            widths: planned.widths,
            instructions: planned.instructions,
        })
    }
}

/// The tile's `[rows, columns]` and the threads of the workgroup, checked: the loads
/// distribute the tile, the stores its transpose, over as many threads.
fn tile_and_threads(transpose: &Transpose) -> Result<([usize; 2], usize), GpuError> {
    let Transpose {
        tile,
        loads,
        stores,
        ..
    } = *transpose;
    let shape = tile.shape();
    let [rows, columns] = shape[..] else {
        let rank = shape.len();
        return Err(unsupported(tile, Unsupported::Rank { rank }));
    };
    for (threads, expected) in [(loads, [rows, columns]), (stores, [columns, rows])] {
        check_shape(threads.descriptor, &threads.tile(), &expected)?;
    }
    let threads = loads.thread_count();
    check_threads(stores, threads)?;
    Ok(([rows, columns], threads))
}

/// The transpose's WGSL module: the load's and the store's programs with their widths,
/// for a `[height, width]` image in a `grid` of tiles.
fn transpose_wgsl(
    transpose: &Transpose,
    [load_program, store_program]: &[Program; 2],
    [load_width, store_width]: [usize; 2],
    [height, width]: [usize; 2],
    grid: [usize; 2],
) -> String {
    let Transpose {
        tile, loads, order, ..
    } = *transpose;
    let words = tiled_copy::entry_words(tile, 4);
    let space = tile.space().unwrap_or(0);
    let load_wgsl = wgsl::tiled_copy(
        "load_tile",
        &format!("Loads the input's tile into `{}`.", tile.name),
        load_program,
        ("input", "tile"),
        wgsl::Writes::default(),
    );
    let store_wgsl = wgsl::tiled_copy(
        "store_tile",
        &format!(
            "Stores the transpose of `{}` into the output's tile.",
            tile.name
        ),
        store_program,
        ("tile", "output"),
        wgsl::Writes::default(),
    );
    let order_wgsl = wgsl::raster(
        "order",
        &format!("Which input tile each workgroup transposes: {order}."),
        &order.program(),
    );
    let mut module = Module::new();
    module
        .storage(
            "input",
            Access::Read,
            array(vector("u32", load_width), None),
        )
        .storage(
            "output",
            Access::ReadWrite,
            array(vector("u32", store_width), None),
        )
        .workgroup("tile", array(vector("u32", words), Some(space / words)))
        .text(&load_wgsl)
        .text(&store_wgsl)
        .text(&order_wgsl);
    let entry = Entry::new(loads.thread_count())
        .builtin(Builtin::LocalInvocationIndex, "thread")
        .builtin(Builtin::WorkgroupId, "group");
    // The input's tile `at`, stored as the output's tile with its row and column swapped.
    let (thread, at) = (name("thread"), name("at"));
    let (tile_row, tile_column) = (at.clone().field("x"), at.clone().field("y"));
    let load = [
        thread.clone(),
        tile_row.clone(),
        tile_column.clone(),
        u(height),
        u(width),
    ];
    let store = [thread, tile_column, tile_row, u(width), u(height)];
    let mut main = Block::new();
    main.let_(&at, ordered_tile(grid))
        .call(call("load_tile", load))
        .line("workgroupBarrier();")
        .call(call("store_tile", store));
    module.entry(entry, main).finish()
}

/// The tile of a `[rows, columns]` grid that workgroup `group` takes: the module's raster
/// function `order` of the workgroup's index, row by row of the dispatch (x along the
/// columns).
pub(super) fn ordered_tile([rows, columns]: [usize; 2]) -> Expr {
    let group = name("group");
    let index = group.clone().field("y") * u(columns) + group.field("x");
    call("order", [index, u(rows), u(columns)])
}

/// The transpose kernel's name: its tile, threads, vector widths and options.
fn kernel_name(
    transpose: &Transpose,
    [load_width, store_width]: [usize; 2],
    squares: bool,
) -> String {
    let Transpose {
        tile,
        loads,
        stores,
        bounds_checks,
        order,
    } = *transpose;
    let threads = match loads.descriptor.name == stores.descriptor.name {
        true => loads.descriptor.name.to_string(),
        false => format!("{} / {}", loads.descriptor.name, stores.descriptor.name),
    };
    let checks = match bounds_checks {
        BoundsChecks::On => "",
        BoundsChecks::Off => ", no bounds checks",
    };
    let raster = match order {
        Raster::RowMajor => String::new(),
        order => format!(", {order} order"),
    };
    let squares = match squares {
        false => "",
        true => ", squares transposed in registers",
    };
    format!(
        "transpose through {}, threads {threads} (vec{load_width} loads, vec{store_width} \
         stores{squares}{checks}{raster})",
        tile.name
    )
}

/// `tile` read through its transpose: the same memory, its two coordinates swapped.
pub(super) fn transposed(tile: &Descriptor) -> Descriptor {
    Descriptor {
        name: Cow::Owned(format!("{}T", tile.name)),
        coords: Cow::Owned(tile.coords.iter().rev().copied().collect()),
        ..tile.clone()
    }
}

/// The widest power of two up to `widest` that divides the rows of `row` elements.
pub(super) fn fitting(widest: usize, row: usize) -> usize {
    let mut width = widest.max(1);
    while !row.is_multiple_of(width) {
        width /= 2;
    }
    width
}

/// The error of `layout`, which the kernel cannot use, for `why`.
pub(super) fn unsupported(layout: &Descriptor, why: impl Into<Unsupported>) -> GpuError {
    GpuError::unsupported(&layout.name, why)
}

/// Fails unless `layout`, over `shape`, is over `expected`.
pub(super) fn check_shape(
    layout: &Descriptor,
    shape: &[usize],
    expected: &[usize],
) -> Result<(), GpuError> {
    match shape == expected {
        true => Ok(()),
        false => Err(unsupported(
            layout,
            Unsupported::Shape {
                shape: shape.to_vec(),
                expected: expected.to_vec(),
            },
        )),
    }
}

/// Fails unless `layout` has `expected` threads, as the rest of its workgroup.
pub(super) fn check_threads(layout: ThreadValues, expected: usize) -> Result<(), GpuError> {
    match layout.thread_count() {
        threads if threads == expected => Ok(()),
        threads => Err(unsupported(
            layout.descriptor,
            Unsupported::Threads { threads, expected },
        )),
    }
}
