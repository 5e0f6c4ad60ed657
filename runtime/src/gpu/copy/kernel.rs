//! The kernels: WGSL generated around layouts' functions, compiled once, run and timed on
//! typed buffers. Each kernel's WGSL is readable through [`Kernel::wgsl`].

use super::narrow;
use super::permuted::Permuted;
use super::plan::{GROUP, Plan, Work, bindings, entry, holds, plus, reads, source, value_at};
use super::staged::Staged;
use crate::gpu::shader::{assemble, distinct};
use crate::gpu::{GpuError, GpuLayout};
use swizzle_core::emit::wgsl::expr::{Expr, call, name, u};
use swizzle_core::emit::wgsl::module::{Function, Module};
#[cfg(feature = "gpu")]
use {
    crate::gpu::batch::{Batch, Pipeline},
    crate::gpu::buffer::{check_element, check_lengths},
    crate::gpu::shader::validate_with,
    crate::gpu::{Buffer, Dispatch, Gpu, Word},
    swizzle_core::emit::wgsl::module::{Access, array, param},
};

/// Whether wgpu guards a kernel's array indices at run time (its `ShaderRuntimeChecks`).
/// They cost a clamp per access; a kernel whose indices are in range by construction can
/// go without, and the library's tiled kernels do: see BENCHMARKS.md#gemm for what it buys.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BoundsChecks {
    /// wgpu's default: every index clamped into its array.
    #[default]
    On,
    /// No clamps: offered only by kernels whose every index is proved in range.
    Off,
}

/// A compiled kernel with one input and one output buffer.
#[cfg(feature = "gpu")]
#[derive(Debug)]
pub struct Kernel {
    name: String,
    wgsl: String,
    pipeline: Pipeline,
    input: usize,
    output: usize,
    /// Bits per element.
    bits: usize,
}

#[cfg(feature = "gpu")]
impl<T: Word> Dispatch<(&Buffer<T>, &Buffer<T>)> for Kernel {
    /// Records a run reading `input` and writing `output`.
    fn enqueue(
        &self,
        batch: &mut Batch,
        (input, output): (&Buffer<T>, &Buffer<T>),
    ) -> Result<(), GpuError> {
        self.check_lengths::<T>(input.len(), output.len())?;
        self.pipeline
            .enqueue(batch, &[&input.buffer, &output.buffer]);
        Ok(())
    }
}

#[cfg(feature = "gpu")]
impl Kernel {
    /// The kernel's name, for reports.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The whole WGSL module.
    pub fn wgsl(&self) -> &str {
        &self.wgsl
    }

    /// Bytes one run reads and writes (each element once): what bandwidth is measured on.
    pub fn bytes(&self) -> u64 {
        ((self.input + self.output) * self.bits / 8) as u64
    }

    /// Elements the input and the output buffer must hold.
    pub fn lengths(&self) -> (usize, usize) {
        (self.input, self.output)
    }

    fn check_lengths<T: Word>(&self, input: usize, output: usize) -> Result<(), GpuError> {
        check_element::<T>(self.bits)?;
        check_lengths([
            ("input", self.input, input),
            ("output", self.output, output),
        ])
    }
}

/// A compiled `map`: a user's WGSL applied in place to every element of a buffer in a
/// layout.
#[cfg(feature = "gpu")]
#[derive(Debug)]
pub struct MapKernel {
    wgsl: String,
    pipeline: Pipeline,
    len: usize,
}

#[cfg(feature = "gpu")]
impl<T: Word> Dispatch<&Buffer<T>> for MapKernel {
    /// Records applying the body to `data` in place.
    fn enqueue(&self, batch: &mut Batch, data: &Buffer<T>) -> Result<(), GpuError> {
        self.check_length(data)?;
        self.pipeline.enqueue(batch, &[&data.buffer]);
        Ok(())
    }
}

#[cfg(feature = "gpu")]
impl MapKernel {
    fn check_length<T: Word>(&self, data: &Buffer<T>) -> Result<(), GpuError> {
        check_element::<T>(32)?;
        check_lengths([("data", self.len, data.len())])
    }

    /// The whole WGSL module.
    pub fn wgsl(&self) -> &str {
        &self.wgsl
    }
}

impl Plan {
    /// [`Gpu::copy_kernel`]'s plan.
    pub(in crate::gpu) fn copy(from: &GpuLayout, to: &GpuLayout) -> Result<Plan, GpuError> {
        if from.element_bits() != to.element_bits() {
            return Err(GpuError::Element {
                expected: to.element_bits(),
                actual: from.element_bits(),
            });
        }
        if from.shape() != to.shape() {
            return Err(GpuError::Shape {
                from: from.shape().to_vec(),
                to: to.shape().to_vec(),
            });
        }
        distinct(from, to)?;
        let rows = to.image()?;
        distinct(&rows, from)?;
        distinct(&rows, to)?;
        if !to.has_inverse() && !to.is_injective() {
            return Err(to.unsupported(
                "distinct coordinates may share an offset (or that could not be proved), so \
                 writing it would race",
            ));
        }
        let (body, threads) = match (to.element_bits() < 32, to.has_inverse()) {
            (false, true) => gather(from, to, image_rows(from, to, &rows)),
            (false, false) => scatter(from, to, &rows),
            (true, true) => narrow::gather(from, to),
            (true, false) => narrow::scatter(from, to, &rows),
        };
        Ok(Plan {
            wgsl: assemble(&[from, to, &rows], &body.finish()),
            work: Work::Threads(threads as u64),
            lengths: [from.space(), to.space()],
            bits: to.element_bits(),
        })
    }

    /// [`Gpu::pack_kernel`]'s plan: each `vec4` moved whole, its lanes permuted, where
    /// [`Permuted`] applies; staged through workgroup memory where [`Staged`] does; else a
    /// copy from the row-major image.
    pub(in crate::gpu) fn pack(layout: &GpuLayout) -> Result<Plan, GpuError> {
        if let Some(permuted) = Permuted::plan(layout) {
            Ok(permuted.pack(layout))
        } else if let Some(staged) = Staged::plan(layout) {
            Ok(staged.kernel(layout, staged.pack(), [layout.size(), layout.space()]))
        } else {
            Plan::copy(&layout.image()?, layout)
        }
    }

    /// [`Gpu::unpack_kernel`]'s plan, likewise.
    pub(in crate::gpu) fn unpack(layout: &GpuLayout) -> Result<Plan, GpuError> {
        if let Some(permuted) = Permuted::plan(layout) {
            Ok(permuted.unpack(layout))
        } else if let Some(staged) = Staged::plan(layout) {
            Ok(staged.kernel(layout, staged.unpack(), [layout.space(), layout.size()]))
        } else {
            Plan::copy(layout, &layout.image()?)
        }
    }
}

#[cfg(feature = "gpu")]
impl Gpu {
    /// Copies a buffer in layout `from` to a buffer in layout `to` of the same shape. A `to`
    /// with an inverse (a bijection, or tiles of a bijection) is written in order, four
    /// offsets per thread, each read through `to`'s inverse and `from`'s offset; any other
    /// `to` (padded, with unused offsets) is written coordinate by coordinate. Offsets of
    /// `to` that hold no element keep their contents; coordinates in `from`'s padding read
    /// as zero.
    pub fn copy_kernel(&self, from: &GpuLayout, to: &GpuLayout) -> Result<Kernel, GpuError> {
        let name = format!("copy {} -> {}", from.name(), to.name());
        self.planned(name, Plan::copy(from, to)?)
    }

    /// Packs a row-major image of the layout's shape into the layout.
    pub fn pack_kernel(&self, layout: &GpuLayout) -> Result<Kernel, GpuError> {
        self.planned(format!("pack {}", layout.name()), Plan::pack(layout)?)
    }

    /// Unpacks the layout into a row-major image of its shape (padding reads as zero).
    pub fn unpack_kernel(&self, layout: &GpuLayout) -> Result<Kernel, GpuError> {
        self.planned(format!("unpack {}", layout.name()), Plan::unpack(layout)?)
    }

    /// The kernel of `plan`, over its grid on this device.
    fn planned(&self, name: String, plan: Plan) -> Result<Kernel, GpuError> {
        let groups = match plan.work {
            Work::Threads(threads) => self.grid(threads)?,
            Work::Groups(groups) => self.workgroups(groups)?,
        };
        self.kernel(name, plan.wgsl, groups, plan.lengths, plan.bits)
    }

    /// Copies `len` elements unchanged, four per thread where `len` allows: the bandwidth
    /// anchor the other kernels are measured against.
    pub fn plain_copy_kernel(&self, len: usize) -> Result<Kernel, GpuError> {
        self.plain_copy_kernel_with(len, BoundsChecks::On)
    }

    /// [`Gpu::plain_copy_kernel`] with wgpu's bounds checks as `checks` says: every index
    /// is the thread's, below the buffers' length, so the copy is in range either way.
    pub fn plain_copy_kernel_with(
        &self,
        len: usize,
        checks: BoundsChecks,
    ) -> Result<Kernel, GpuError> {
        let vector = len.is_multiple_of(4);
        let (element, threads) = match vector {
            true => ("vec4<u32>", len / 4),
            false => ("u32", len),
        };
        let mut module = Module::new();
        bindings(&mut module, element, element);
        let (entry, mut body) = entry(threads as u64);
        body.assign("dst[t]", "src[t]");
        let body = module.entry(entry, body).finish();
        let groups = self.grid(threads as u64)?;
        let name = match checks {
            BoundsChecks::On => "plain copy".to_owned(),
            BoundsChecks::Off => "plain copy (no bounds checks)".to_owned(),
        };
        self.kernel_with(name, body, groups, [len, len], 32, checks)
    }

    /// Transposes a row-major `height × width` image into a row-major `width × height` one,
    /// one thread per element: reads coalesced, writes strided (the baseline).
    pub fn naive_transpose_kernel(&self, height: usize, width: usize) -> Result<Kernel, GpuError> {
        let len = image_len(height, width)?;
        let mut module = Module::new();
        bindings(&mut module, "u32", "u32");
        let (entry, mut body) = entry(len as u64);
        body.let_("y", name("t") / u(width))
            .let_("x", name("t") % u(width))
            .assign(
                name("dst").index(name("x") * u(height) + name("y")),
                "src[t]",
            );
        let body = module.entry(entry, body).finish();
        let groups = self.grid(len as u64)?;
        self.kernel("naive transpose".to_owned(), body, groups, [len, len], 32)
    }

    /// A user's own WGSL module as a kernel: its `@compute fn main` reads the buffer at
    /// `@group(0) @binding(0)` and writes the one at `@binding(1)` (32-bit elements, of
    /// `lengths` `[input, output]`), over a grid of `workgroups` (`[x, y]`). Such a module
    /// typically pastes generated functions — tiled copies' `K::WGSL`, rasters' `R::WGSL`,
    /// layouts' `L::WGSL` — and calls them; a module that does not validate is an error
    /// quoting its line.
    pub fn wgsl_kernel(
        &self,
        name: impl Into<String>,
        wgsl: &str,
        workgroups: [u32; 2],
        lengths: [usize; 2],
    ) -> Result<Kernel, GpuError> {
        let groups = self.workgroups(workgroups.map(|g| g as usize))?;
        self.kernel(name.into(), wgsl.to_owned(), groups, lengths, 32)
    }

    /// Applies `body`, the WGSL body of `fn body(value: u32, coord: array<u32, N>, offset:
    /// u32) -> u32`, to every valid coordinate of a buffer in `layout`, in place. The
    /// layout's functions are in scope (`<prefix>_offset`, …); `bitcast<f32>(value)` reads
    /// a float. A body that does not validate is an error quoting its line.
    pub fn map_kernel(&self, layout: &GpuLayout, body: &str) -> Result<MapKernel, GpuError> {
        if layout.element_bits() != 32 {
            return Err(layout.unsupported("a map body sees 32-bit elements only"));
        }
        if !layout.is_injective() {
            return Err(layout.unsupported(
                "distinct coordinates may share an offset (or that could not be proved), so \
                 updating it in place would race",
            ));
        }
        let rows = GpuLayout::row_major(layout.shape())?;
        distinct(&rows, layout)?;
        let rank = layout.shape().len();
        let size = layout.size();
        let mut module = Module::new();
        module.storage("data", Access::ReadWrite, "array<u32>");
        let params = [
            param("value", "u32"),
            param("coord", array("u32", Some(rank))),
            param("offset", "u32"),
        ];
        let mut user = Function::new("body", params).returns("u32");
        user.body.verbatim(body);
        let (entry, mut main) = entry(size as u64);
        main.let_("c", rows.coord_at(name("t")));
        if layout.is_padded() {
            main.guard(layout.call("is_valid", "c"), "return;");
        }
        main.let_("o", layout.call("offset", "c"))
            .assign("data[o]", "body(data[o], c, o)");
        let kernel = module.function(&user).entry(entry, main).finish();
        let wgsl = assemble(&[layout, &rows], &kernel);
        let groups = self.grid(size as u64)?;
        let pipeline = self.pipeline("map", &wgsl, BoundsChecks::On)?;
        Ok(MapKernel {
            wgsl,
            pipeline: Pipeline { pipeline, groups },
            len: layout.space(),
        })
    }

    /// A kernel of `wgsl` over `groups`, with the lengths of its input and output buffers
    /// in elements of `bits` bits.
    fn kernel(
        &self,
        name: String,
        wgsl: String,
        groups: [u32; 2],
        lengths: [usize; 2],
        bits: usize,
    ) -> Result<Kernel, GpuError> {
        self.kernel_with(name, wgsl, groups, lengths, bits, BoundsChecks::On)
    }

    /// [`Gpu::kernel`] with wgpu's bounds checks as `checks` says: `Off` only for kernels
    /// whose every index is in range of its buffers of the lengths [`Dispatch::run`] checks.
    pub(in crate::gpu) fn kernel_with(
        &self,
        name: String,
        wgsl: String,
        groups: [u32; 2],
        [input, output]: [usize; 2],
        bits: usize,
        checks: BoundsChecks,
    ) -> Result<Kernel, GpuError> {
        let pipeline = self.pipeline(&name, &wgsl, checks)?;
        Ok(Kernel {
            name,
            wgsl,
            pipeline: Pipeline { pipeline, groups },
            input,
            output,
            bits,
        })
    }

    /// Validates `wgsl` with naga (errors quote the line), then compiles it.
    pub(in crate::gpu) fn pipeline(
        &self,
        name: &str,
        wgsl: &str,
        checks: BoundsChecks,
    ) -> Result<wgpu::ComputePipeline, GpuError> {
        let mut capabilities = naga::valid::Capabilities::default();
        if self.has_f16() {
            capabilities |= naga::valid::Capabilities::SHADER_FLOAT16;
        }
        if self.has_cooperative_matrix() {
            capabilities |= naga::valid::Capabilities::COOPERATIVE_MATRIX;
        }
        validate_with(wgsl, capabilities)?;
        let descriptor = wgpu::ShaderModuleDescriptor {
            label: Some(name),
            source: wgpu::ShaderSource::Wgsl(wgsl.into()),
        };
        let module = match checks {
            BoundsChecks::On => self.device().create_shader_module(descriptor),
            BoundsChecks::Off => {
                let mut runtime = wgpu::ShaderRuntimeChecks::checked();
                runtime.bounds_checks = false;
                // SAFETY: only the bounds checks are off, and only for kernels built here
                // whose indices are in range by construction (`BoundsChecks::Off` says
                // which): the thread's own index below the buffer's length for the copy;
                // for tiled copies (transposes, GEMM tiles) a layout's offsets below its
                // space in workgroup memory and image indices under guards derived from
                // the extents; for a GEMM's fragments, elements of its tile (a checked
                // thread-value layout) and C's indices under the same guards. `Dispatch::run`
                // checks that the buffers hold exactly the matrices.
                unsafe {
                    self.device()
                        .create_shader_module_trusted(descriptor, runtime)
                }
            }
        };
        self.compute_pipeline(name, None, &module)
    }

    /// The compute pipeline of `module`'s entry point `main`, with `layout` (`None`: the
    /// layout reflected from the module), and wgpu's errors of building it.
    pub(in crate::gpu) fn compute_pipeline(
        &self,
        name: &str,
        layout: Option<&wgpu::PipelineLayout>,
        module: &wgpu::ShaderModule,
    ) -> Result<wgpu::ComputePipeline, GpuError> {
        let pipeline = self
            .device()
            .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(name),
                layout,
                module,
                entry_point: Some("main"),
                compilation_options: Default::default(),
                cache: None,
            });
        self.check()?;
        Ok(pipeline)
    }

    /// The grid `[x, y]` in workgroups, checked against this device's limit along a
    /// dimension.
    pub(in crate::gpu) fn workgroups(&self, groups: [usize; 2]) -> Result<[u32; 2], GpuError> {
        let max = self.device().limits().max_compute_workgroups_per_dimension;
        match groups.iter().find(|&&g| g > max as usize) {
            Some(&over) => Err(GpuError::TooLarge {
                what: "workgroups along one dimension".to_owned(),
                value: over as u64,
                limit: u64::from(max),
            }),
            None => Ok(groups.map(|g| g as u32)),
        }
    }

    /// Workgroups for `threads` one-dimensional threads on this device.
    fn grid(&self, threads: u64) -> Result<[u32; 2], GpuError> {
        let max = self.device().limits().max_compute_workgroups_per_dimension;
        grid(threads, u64::from(max))
    }

    /// Fails unless one workgroup of `threads` threads using `bytes` of workgroup memory
    /// (`whose` says for what, in errors) fits this device.
    pub(in crate::gpu) fn check_workgroup(
        &self,
        threads: usize,
        bytes: u64,
        whose: &str,
    ) -> Result<(), GpuError> {
        let limits = self.device().limits();
        let most = limits
            .max_compute_invocations_per_workgroup
            .min(limits.max_compute_workgroup_size_x);
        if threads > most as usize {
            return Err(GpuError::TooLarge {
                what: "threads per workgroup".to_owned(),
                value: threads as u64,
                limit: u64::from(most),
            });
        }
        let limit = u64::from(limits.max_compute_workgroup_storage_size);
        if bytes > limit {
            return Err(GpuError::TooLarge {
                what: format!("{whose} workgroup memory in bytes"),
                value: bytes,
                limit,
            });
        }
        Ok(())
    }
}

/// Elements of a `height × width` image, which WGSL indexes with `u32`.
pub(in crate::gpu) fn image_len(height: usize, width: usize) -> Result<usize, GpuError> {
    let len = height.checked_mul(width).filter(|&l| l as u64 <= 1 << 32);
    len.filter(|&l| l > 0).ok_or(GpuError::TooLarge {
        what: format!("a {height} × {width} image, in elements (and it must not be empty)"),
        value: (height as u64).saturating_mul(width as u64),
        limit: 1 << 32,
    })
}

/// Workgroups for `threads` one-dimensional threads, at most `max` along a dimension: as
/// few rows as that allows, of equal length, so that fewer than one workgroup per row is
/// idle (rows of `max` would leave up to a whole row idle: half the grid at `max + 1`).
fn grid(threads: u64, max: u64) -> Result<[u32; 2], GpuError> {
    // Thread indices are u32 in WGSL.
    if threads > u64::from(u32::MAX) {
        return Err(GpuError::TooLarge {
            what: "threads".to_owned(),
            value: threads,
            limit: u64::from(u32::MAX),
        });
    }
    let groups = threads.div_ceil(u64::from(GROUP)).max(1);
    let y = groups.div_ceil(max);
    if y > max {
        return Err(GpuError::TooLarge {
            what: "workgroups".to_owned(),
            value: groups,
            limit: max * max,
        });
    }
    let x = groups.div_ceil(y);
    // Thread indices of idle workgroups must not wrap around to real ones.
    if x * y * u64::from(GROUP) > 1 << 32 {
        return Err(GpuError::TooLarge {
            what: "threads, in whole rows of workgroups".to_owned(),
            value: x * y * u64::from(GROUP),
            limit: 1 << 32,
        });
    }
    Ok([x as u32, y as u32])
}

/// `element(s)` of 32-bit elements: one word.
fn word() -> Expr {
    let s = name("s");
    name("src").index(s.clone() >> u(2)).index(s & u(3))
}

/// Words per row of `to` where a [`gather`] from `from` writes two rows' `vec4`s per thread:
/// `to` is the row-major image (`rows`) of two rows or more, which split into `vec4`s, and
/// `from` keeps a `vec4` of a row in the same 32-byte sectors as the `vec4` below it (4×4
/// Morton tiles of 32- or 64-bit elements; not XOR-swizzled 32-word tiles, whose rows are
/// whole sectors apart). Asked of the first rows' first `vec4`s, evaluated on the host.
fn image_rows(from: &GpuLayout, to: &GpuLayout, rows: &GpuLayout) -> Option<usize> {
    let image = to.prefix() == rows.prefix() && to.wgsl() == rows.wgsl();
    let &[height, width] = from.shape() else {
        return None;
    };
    let words = from.words();
    let row = width * words;
    if !image || !row.is_multiple_of(4) || height < 2 {
        return None;
    }
    // The 32-byte sectors of `from` that hold the vec4 of words `first..first + 4` of row `y`.
    let sectors = |y: usize, first: usize| -> Option<Vec<usize>> {
        let sector =
            |i: usize| Some((from.element_offset(&[y, i / words])? * words + i % words) / 8);
        (first..first + 4).map(sector).collect()
    };
    let mut shared = false;
    for y in (0..height.min(4) - 1).step_by(2) {
        for first in (0..row.min(32)).step_by(4) {
            let below = sectors(y + 1, first)?;
            shared |= sectors(y, first)?.iter().any(|s| below.contains(s));
        }
    }
    shared.then_some(row)
}

/// A copy to a layout with an inverse: its offsets in order, four per thread (one
/// `vec4<u32>` store) where its space allows, each found through the inverse. Where the four
/// sources lie in one aligned `vec4` of an unpadded `from` (a contiguous or XOR-permuted
/// run), they are one load; in two, two ([`quad`]). Into the row-major image (`row` words
/// per row), a thread writes a `vec4` of two rows, one above the other: a tile's rows lie
/// together in `from`, so the second row's loads hit the sectors the first's brought (a 4×4
/// Morton tile's rows 0 and 1 share one 32-byte sector). Offsets of `to` that hold no
/// element (in partial tiles) keep their contents. The module and its threads.
fn gather(from: &GpuLayout, to: &GpuLayout, row: Option<usize>) -> (Module, usize) {
    let vector = to.word_space().is_multiple_of(4);
    let (element, threads) = match vector {
        true => ("vec4<u32>", to.word_space() / 4),
        false => ("u32", to.word_space()),
    };
    // Two rows per thread: a row's vec4s, in pairs of rows (the last pair may be one row).
    let paired = row.filter(|_| vector && !to.is_padded()).map(|row| row / 4);
    let threads = match paired {
        Some(quads) => threads.div_ceil(2 * quads) * quads,
        None => threads,
    };
    let mut module = Module::new();
    bindings(&mut module, "vec4<u32>", element);
    reads(&mut module, from, word());
    if to.is_padded() {
        module.function(&holds(to, None));
    }
    if vector {
        quad(&mut module, from, to);
    }
    let (t, q, o) = (name("t"), name("q"), name("o"));
    let quad_at = |offset: Expr| call("quad", [offset]);
    let (entry, mut body) = entry(threads as u64);
    match (vector, to.is_padded()) {
        (false, padded) => {
            if padded {
                body.guard("holds(t)", "return;");
            }
            body.assign("dst[t]", value_at(to.coord_at(t)));
        }
        (true, false) => match paired {
            Some(quads) => {
                let below = q.clone() + u(quads);
                body.let_("q", t.clone() / u(quads) * u(2 * quads) + t % u(quads))
                    .let_("above", quad_at(q * u(4)))
                    .if_(below.clone().lt(u(to.word_space() / 4)), |both| {
                        both.let_("below", quad_at(below.clone() * u(4)))
                            .assign("dst[q]", "above")
                            .assign(name("dst").index(below), "below")
                            .line("return;");
                    })
                    .assign("dst[q]", "above");
            }
            None => {
                body.assign("dst[t]", quad_at(t * u(4)));
            }
        },
        (true, true) => {
            let held = (0..4).map(|i| call("holds", [plus(&o, i)]));
            body.let_("o", t * u(4))
                .let_("held", call("vec4<bool>", held))
                .if_("all(held)", |all| {
                    all.assign("dst[t]", "quad(o)").line("return;");
                })
                .for_range("i", u(4), |each| {
                    each.if_("held[i]", |held| {
                        held.assign("dst[t][i]", value_at(to.coord_at(o + name("i"))));
                    });
                });
        }
    }
    module.entry(entry, body);
    (module, threads)
}

/// WGSL `quad(o)` (after `source(o)` where it needs it): the elements of offsets `o..o + 4`
/// of the output `to`, found through its inverse: one `vec4` load where an unpadded
/// `from` keeps the four in one aligned `vec4`, two where it keeps them in two (the first's
/// and the last's: a row of a 4×4 Morton tile is two pairs, 16 bytes apart), else four.
/// A subgroup's load touches a sector of memory per distinct `vec4`, however few of its
/// words it keeps: two loads where four would do halve the sectors a thread asks for.
fn quad(module: &mut Module, from: &GpuLayout, to: &GpuLayout) {
    let mut quad = Function::new("quad", ["o: u32"]).returns("vec4<u32>");
    if from.is_padded() {
        let values = (0..4).map(|i| value_at(to.coord_at(plus(&name("o"), i))));
        quad.body.ret(call("vec4<u32>", values));
        module.function(&quad);
        return;
    }
    module.function(&source(from, to));
    let vec4 = |lane: &dyn Fn(&str) -> Expr| call("vec4<u32>", ["x", "y", "z", "w"].map(lane));
    let splat = |value| call("vec4<u32>", [value]);
    // The lanes `lane` of the loaded `vec4` `v`.
    let picked = |v: &str| vec4(&|l| name(v).index(name("lane").field(l)));
    let (s, aligned) = (name("s"), name("aligned"));
    // The vec4s of the first element and of the last.
    let (first_vec4, last_vec4) = (aligned.clone().field("x"), aligned.clone().field("w"));
    let sources = (0..4).map(|i| call("source", [plus(&name("o"), i)]));
    quad.body
        .let_("s", call("vec4<u32>", sources))
        .let_("aligned", s.clone() >> splat(u(2)))
        .let_("lane", s & splat(u(3)))
        .let_("first", aligned.clone().equals(splat(first_vec4.clone())))
        .if_(call("all", [name("first")]), |one| {
            one.let_("v", name("src").index(first_vec4.clone()))
                .ret(picked("v"));
        })
        .if_(
            call(
                "all",
                [name("first") | aligned.equals(splat(last_vec4.clone()))],
            ),
            |two| {
                two.let_("v", name("src").index(first_vec4))
                    .let_("w", name("src").index(last_vec4))
                    .ret(call("select", [picked("w"), picked("v"), name("first")]));
            },
        )
        .ret(vec4(&|l| call("element", [name("s").field(l)])));
    module.function(&quad);
}

/// A copy to any other injective layout: one thread per coordinate (row-major through
/// `rows`), skipping its padding. The module and its threads.
fn scatter(from: &GpuLayout, to: &GpuLayout, rows: &GpuLayout) -> (Module, usize) {
    let size = to.word_size();
    let mut module = Module::new();
    bindings(&mut module, "vec4<u32>", "u32");
    reads(&mut module, from, word());
    let (entry, mut body) = entry(size as u64);
    body.let_("c", rows.coord_at(name("t")));
    if to.is_padded() {
        body.guard(to.call("is_valid", "c"), "return;");
    }
    body.assign(name("dst").index(to.call("offset", "c")), "value_at(c)");
    module.entry(entry, body);
    (module, size)
}

#[cfg(test)]
mod tests {
    use super::grid;
    use crate::gpu::copy::plan::{GROUP, Plan, Work};
    use crate::gpu::{GpuLayout, Word};
    use swizzle_core::ir::Descriptor;

    /// `values`' bytes, padded to whole `vec4<u32>`s as `Buffer` pads them.
    fn bytes<T: Word>(values: &[T]) -> Vec<u8> {
        let mut bytes = bytemuck::cast_slice(values).to_vec();
        bytes.resize(bytes.len().div_ceil(16) * 16, 0);
        bytes
    }

    /// Runs `plan` on the CPU evaluator over `input`, into `output` (its initial contents),
    /// and returns the output.
    fn evaluate<T: Word>(plan: &Plan, input: &[T], output: &[T]) -> Vec<T> {
        let text = &plan.wgsl;
        let module = naga::front::wgsl::parse_str(text)
            .unwrap_or_else(|e| panic!("{}\n{text}", e.emit_to_string(text)));
        naga::valid::Validator::new(
            naga::valid::ValidationFlags::all(),
            naga::valid::Capabilities::default(),
        )
        .validate(&module)
        .unwrap_or_else(|e| panic!("{}\n{text}", e.emit_to_string(text)));
        let groups = match plan.work {
            Work::Threads(threads) => grid(threads, 65535).expect("grid").map(|g| g as usize),
            Work::Groups(groups) => groups,
        };
        let mut buffers = wgsl_eval::Buffers::new();
        buffers.bind(0, 0, bytes(input));
        buffers.bind(0, 1, bytes(output));
        let grid = [groups[0] as u32, groups[1] as u32, 1];
        wgsl_eval::dispatch(&module, "main", grid, &mut buffers)
            .unwrap_or_else(|e| panic!("{e}\n{text}"));
        let written = buffers.get(0, 1).expect("output");
        let size = std::mem::size_of::<T>();
        let elements = written.chunks_exact(size).map(bytemuck::pod_read_unaligned);
        elements.take(output.len()).collect()
    }

    /// The pack and the unpack of `descriptor` at `extents`, for elements of `T` (of which
    /// `nth` gives distinct values), run on the CPU evaluator against the interpreter's
    /// offsets; the pack's unwritten offsets keep their contents.
    fn check<T: Word + PartialEq + std::fmt::Debug>(
        descriptor: &Descriptor,
        extents: [usize; 2],
        nth: fn(usize) -> T,
    ) {
        let layout = GpuLayout::tiled(descriptor, &extents).expect("tiled");
        let layout = layout.with_element::<T>().expect("element");
        let [height, width] = extents;
        let offsets: Vec<Option<usize>> = (0..height * width)
            .map(|i| descriptor.offset_in(&extents, &[i / width, i % width]).ok())
            .collect();
        let what = format!("{} at {extents:?}, {} bits", descriptor.name, T::BITS);

        let image: Vec<T> = (0..layout.size()).map(nth).collect();
        let poison: Vec<T> = (0..layout.space()).map(|o| nth(o + 7)).collect();
        let pack = Plan::pack(&layout).expect("pack");
        let mut expected = poison.clone();
        for (i, offset) in offsets.iter().enumerate() {
            expected[offset.expect("in the layout")] = image[i];
        }
        let packed = evaluate(&pack, &image, &poison);
        assert!(packed == expected, "pack {what}\n{}", pack.wgsl);

        let unpack = Plan::unpack(&layout).expect("unpack");
        let stored: Vec<T> = (0..layout.space()).map(|o| nth(o + 100)).collect();
        let expected: Vec<T> = offsets.iter().map(|o| stored[o.expect("in")]).collect();
        let unpacked = evaluate(&unpack, &stored, &vec![nth(3); layout.size()]);
        assert!(unpacked == expected, "unpack {what}\n{}", unpack.wgsl);
    }

    fn layout(text: &str) -> Descriptor {
        let checked = swizzle_syntax::layouts(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        checked[0].descriptor.clone()
    }

    /// The pack and unpack kernels of `dyn` Morton and XOR tiles, of every width, on the
    /// CPU evaluator: the permuted `vec4`s of whole XOR tiles, the staged kernels (two
    /// `vec4`s per thread, regions past the grid, partial tiles), the 32-bit gathers of a
    /// fixed-size layout (one, two or four `vec4` loads per thread), the 64-bit words.
    #[test]
    fn packs_and_unpacks_match_the_interpreter_on_the_cpu() {
        let morton = layout(
            "layout DynMorton { memory [ty: dyn, tx: dyn, m: 16]; morton m -> [yi: 4, xi: 4]; \
             merge [ty, yi] -> y; merge [tx, xi] -> x; coords [y, x]; }",
        );
        let xor = layout(
            "layout DynXor { memory [ty: dyn, tx: dyn, yi: 32, xi: 32]; xor xi by yi; \
             merge [ty, yi] -> y; merge [tx, xi] -> x; coords [y, x]; }",
        );
        for descriptor in [&morton, &xor] {
            for extents in [[64, 64], [37, 48], [8, 272], [96, 128]] {
                check(descriptor, extents, |i| i as u8 ^ (i >> 8) as u8);
                check(descriptor, extents, |i| i as u16 ^ 0x5A5A);
                check(descriptor, extents, |i| i as u32 + 1);
                check(descriptor, extents, |i| {
                    (i as u64) << 32 | 0xA000_0000 | i as u64
                });
            }
        }
        // The paths checked are the ones meant. Whole XOR tiles, of every width up to 32
        // bits: one vec4 a thread, its lanes permuted; cut by the image's edges: staged.
        let tiles = |descriptor, extents: [usize; 2]| {
            GpuLayout::tiled(descriptor, &extents).expect("tiled")
        };
        let wgsl = |plan: Result<Plan, super::GpuError>| plan.expect("plan").wgsl;
        for extents in [[64, 64], [96, 128]] {
            let layouts = [
                tiles(&xor, extents).with_element::<u8>().expect("bytes"),
                tiles(&xor, extents).with_element::<u16>().expect("halves"),
                tiles(&xor, extents),
            ];
            for layout in &layouts {
                for kernel in [wgsl(Plan::pack(layout)), wgsl(Plan::unpack(layout))] {
                    assert!(kernel.contains("fn permute("), "{kernel}");
                    assert!(!kernel.contains("var<workgroup>"), "{kernel}");
                }
            }
        }
        let cut = tiles(&xor, [37, 48]);
        assert!(wgsl(Plan::pack(&cut)).contains("var<workgroup> region"));
        // Staged: 64 threads of two vec4s each, for Morton tiles of every width and cut XOR
        // tiles of bytes.
        let bytes = |layout: GpuLayout| layout.with_element::<u8>().expect("bytes");
        let staged = [
            bytes(tiles(&xor, [37, 48])),
            bytes(tiles(&morton, [64, 64])),
            tiles(&morton, [64, 64])
                .with_element::<u16>()
                .expect("halves"),
            tiles(&morton, [64, 64]),
        ];
        for layout in &staged {
            let pack = wgsl(Plan::pack(layout));
            assert!(pack.contains("const THREADS = 64u;"), "{pack}");
            assert!(pack.contains("stage(thread, loaded0);"), "{pack}");
            assert!(
                pack.contains("stage(thread + 1u * THREADS, loaded1);"),
                "{pack}"
            );
            assert!(!pack.contains("loaded2"), "{pack}");
        }
        // An unpack of Morton bytes writes rows 2r and 2r + 1 from one set of words; XOR
        // tiles' rows share none.
        let paired = |layout: &GpuLayout| {
            wgsl(Plan::unpack(layout)).contains("dst[(y + 1u) * WIDTH_QUADS + x_quad]")
        };
        assert!(paired(&staged[1]));
        assert!(!paired(&staged[0]));
        // A fixed-size grid of Morton tiles is found to be one: staged.
        let fixed = |text| GpuLayout::from_descriptor(&layout(text)).expect("fixed");
        let rows = fixed(
            "layout Morton { memory [ty: 16, tx: 16, m: 16]; morton m -> [yi: 4, xi: 4]; \
             merge [ty, yi] -> y; merge [tx, xi] -> x; coords [y, x]; }",
        );
        assert!(wgsl(Plan::unpack(&rows)).contains("stage(thread, loaded0);"));
        // Tiles column-major over the grid gather: two image rows per thread in the
        // unpack, whose rows take two `vec4` loads each.
        let columns = fixed(
            "layout MortonColumns { memory [tx: 16, ty: 16, m: 16]; \
             morton m -> [yi: 4, xi: 4]; merge [ty, yi] -> y; merge [tx, xi] -> x; \
             coords [y, x]; }",
        );
        let unpack = wgsl(Plan::unpack(&columns));
        assert!(
            unpack.contains("let below = quad((q + 16u) * 4u);"),
            "{unpack}"
        );
        assert!(unpack.contains("let w = src[aligned.w];"), "{unpack}");
        // XOR tiles column-major over the grid gather too, but their rows are whole sectors
        // apart: one row per thread.
        let xor_columns = fixed(
            "layout XorColumns { memory [tx: 2, ty: 2, yi: 32, xi: 32]; xor xi by yi; \
             merge [ty, yi] -> y; merge [tx, xi] -> x; coords [y, x]; }",
        );
        let unpack = wgsl(Plan::unpack(&xor_columns));
        assert!(!unpack.contains("fn permute("), "{unpack}");
        assert!(!unpack.contains("var<workgroup>"), "{unpack}");
        assert!(!unpack.contains("below"), "{unpack}");
    }

    #[test]
    fn grids_cover_every_thread_with_less_than_a_workgroup_idle_per_row() {
        let max = 65535;
        for threads in [
            1,
            255,
            256,
            257,
            max * 256,
            max * 256 + 1,
            1 << 24,
            1 << 26,
            3 << 30,
        ] {
            let [x, y] = grid(threads, max).expect("grid");
            let (x, y) = (u64::from(x), u64::from(y));
            let groups = threads.div_ceil(u64::from(GROUP));
            assert!(x <= max && y <= max, "{threads}: {x} × {y}");
            assert!(x * y >= groups, "{threads}: {x} × {y} < {groups}");
            assert!(x * y - groups < y, "{threads}: {x} × {y} for {groups}");
        }
        assert_eq!(grid(1 << 24, max).ok(), Some([32768, 2]));
        assert!(grid(u64::from(u32::MAX) + 1, max).is_err());
        assert!(grid(u64::from(u32::MAX), 4).is_err());
        // 65281 × 257 workgroups would number threads past 2^32, wrapping onto real ones.
        assert!(grid(u64::from(u32::MAX), max).is_err());
    }
}
