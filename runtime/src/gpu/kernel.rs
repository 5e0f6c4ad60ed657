//! The kernels: WGSL generated around layouts' functions, compiled once, run and timed on
//! typed buffers. Each kernel's WGSL is readable through [`Kernel::wgsl`].

use super::batch::{Batch, Dispatch};
use super::narrow;
use super::shader::{assemble, distinct, validate_with};
use super::staged::Staged;
use super::{Buffer, Gpu, GpuError, GpuLayout, Word};
use std::time::Duration;
use swizzle_core::emit::wgsl::module::{Access, Block, Builtin, Entry, Function, Module};

/// How long [`Kernel::median`] runs a kernel before timing it. A GPU lowers its clocks when
/// idle and raises them only under sustained load: an H100 between kernels drops to 345 MHz
/// and needs a few hundred milliseconds of work to return to 1980 MHz, and timed cold, a copy
/// measures half its bandwidth.
pub const WARM_UP: Duration = Duration::from_millis(500);

/// Threads per workgroup of the one-dimensional kernels.
const GROUP: u32 = 256;

/// The entry point of a one-dimensional kernel of `threads` threads, and its body up to
/// the thread index `t`, which returns at or past `threads` (the grid is two-dimensional
/// past 65535 workgroups).
pub(super) fn entry(threads: u64) -> (Entry, Block) {
    let entry = Entry::new(GROUP)
        .builtin(Builtin::WorkgroupId, "group")
        .builtin(Builtin::NumWorkgroups, "groups")
        .builtin(Builtin::LocalInvocationIndex, "lane");
    let mut body = Block::new();
    body.let_(
        "t",
        format_args!("(group.y * groups.x + group.x) * {GROUP}u + lane"),
    )
    .if_(format_args!("t >= {threads}u"), |past| {
        past.line("return;");
    });
    (entry, body)
}

/// Whether wgpu guards a kernel's array indices at run time (its `ShaderRuntimeChecks`).
/// They cost a clamp per access; a kernel whose indices are in range by construction can
/// go without, and the library's tiled kernels do: see BENCHMARKS.md for what it buys.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BoundsChecks {
    /// wgpu's default: every index clamped into its array.
    #[default]
    On,
    /// No clamps: offered only by kernels whose every index is proved in range.
    Off,
}

/// A compiled kernel with one input and one output buffer.
#[derive(Debug)]
pub struct Kernel {
    name: String,
    wgsl: String,
    dispatch: Dispatch,
    input: usize,
    output: usize,
    /// Bits per element.
    bits: usize,
}

impl Kernel {
    /// Runs the kernel once, reading `input` and writing `output`, and waits for it. To
    /// run several kernels with one wait, record them into a [`Batch`] with
    /// [`Kernel::enqueue`].
    pub fn run<T: Word>(
        &self,
        gpu: &Gpu,
        input: &Buffer<T>,
        output: &Buffer<T>,
    ) -> Result<(), GpuError> {
        self.check_lengths::<T>(input.len(), output.len())?;
        self.dispatch.run(gpu, &[&input.buffer, &output.buffer])
    }

    /// Records a run reading `input` and writing `output` into `batch`, after the runs
    /// recorded before it; [`Batch::submit`] runs them all.
    pub fn enqueue<T: Word>(
        &self,
        batch: &mut Batch,
        input: &Buffer<T>,
        output: &Buffer<T>,
    ) -> Result<(), GpuError> {
        self.check_lengths::<T>(input.len(), output.len())?;
        self.dispatch
            .enqueue(batch, &[&input.buffer, &output.buffer]);
        Ok(())
    }

    /// Runs the kernel `runs` times, each timed on the GPU with timestamp queries. A GPU
    /// that was idle runs at low clocks: see [`Kernel::warm_up`] and [`Kernel::median`].
    pub fn time<T: Word>(
        &self,
        gpu: &Gpu,
        input: &Buffer<T>,
        output: &Buffer<T>,
        runs: usize,
    ) -> Result<Vec<Duration>, GpuError> {
        self.check_lengths::<T>(input.len(), output.len())?;
        self.dispatch
            .time(gpu, &[&input.buffer, &output.buffer], runs)
    }

    /// Runs the kernel back to back for at least `duration`, so that the GPU leaves its
    /// idle clocks before it is timed.
    pub fn warm_up<T: Word>(
        &self,
        gpu: &Gpu,
        input: &Buffer<T>,
        output: &Buffer<T>,
        duration: Duration,
    ) -> Result<(), GpuError> {
        self.check_lengths::<T>(input.len(), output.len())?;
        self.dispatch
            .warm_up(gpu, &[&input.buffer, &output.buffer], duration)
    }

    /// The median GPU time of `runs` runs (at least one), after [`WARM_UP`] of warm-up.
    pub fn median<T: Word>(
        &self,
        gpu: &Gpu,
        input: &Buffer<T>,
        output: &Buffer<T>,
        runs: usize,
    ) -> Result<Duration, GpuError> {
        self.check_lengths::<T>(input.len(), output.len())?;
        self.dispatch
            .median(gpu, &[&input.buffer, &output.buffer], runs)
    }

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

    fn named(self, name: String) -> Kernel {
        Kernel { name, ..self }
    }

    fn check_lengths<T: Word>(&self, input: usize, output: usize) -> Result<(), GpuError> {
        check_element::<T>(self.bits)?;
        for (buffer, expected, actual) in [
            ("input", self.input, input),
            ("output", self.output, output),
        ] {
            if expected != actual {
                return Err(GpuError::Length {
                    buffer,
                    expected,
                    actual,
                });
            }
        }
        Ok(())
    }
}

/// A compiled `map`: a user's WGSL applied in place to every element of a buffer in a
/// layout.
#[derive(Debug)]
pub struct MapKernel {
    wgsl: String,
    dispatch: Dispatch,
    len: usize,
}

impl MapKernel {
    /// Applies the body to `data` in place, and waits for it.
    pub fn run<T: Word>(&self, gpu: &Gpu, data: &Buffer<T>) -> Result<(), GpuError> {
        self.check_length(data)?;
        self.dispatch.run(gpu, &[&data.buffer])
    }

    /// Records applying the body to `data` into `batch`; [`Batch::submit`] runs it.
    pub fn enqueue<T: Word>(&self, batch: &mut Batch, data: &Buffer<T>) -> Result<(), GpuError> {
        self.check_length(data)?;
        self.dispatch.enqueue(batch, &[&data.buffer]);
        Ok(())
    }

    fn check_length<T: Word>(&self, data: &Buffer<T>) -> Result<(), GpuError> {
        check_element::<T>(32)?;
        if data.len() != self.len {
            return Err(GpuError::Length {
                buffer: "data",
                expected: self.len,
                actual: data.len(),
            });
        }
        Ok(())
    }

    /// The whole WGSL module.
    pub fn wgsl(&self) -> &str {
        &self.wgsl
    }
}

impl Gpu {
    /// Copies a buffer in layout `from` to a buffer in layout `to` of the same shape. A `to`
    /// with an inverse (a bijection, or tiles of a bijection) is written in order, four
    /// offsets per thread, each read through `to`'s inverse and `from`'s offset; any other
    /// `to` (padded, with unused offsets) is written coordinate by coordinate. Offsets of
    /// `to` that hold no element keep their contents; coordinates in `from`'s padding read
    /// as zero.
    pub fn copy_kernel(&self, from: &GpuLayout, to: &GpuLayout) -> Result<Kernel, GpuError> {
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
            (false, true) => gather(from, to),
            (false, false) => scatter(from, to, &rows),
            (true, true) => narrow::gather(from, to),
            (true, false) => narrow::scatter(from, to, &rows),
        };
        let wgsl = assemble(&[from, to, &rows], &body.finish());
        let groups = self.grid(threads as u64)?;
        let name = format!("copy {} -> {}", from.name(), to.name());
        let bits = to.element_bits();
        self.kernel(name, wgsl, groups, [from.space(), to.space()], bits)
    }

    /// Packs a row-major image of the layout's shape into the layout.
    pub fn pack_kernel(&self, layout: &GpuLayout) -> Result<Kernel, GpuError> {
        let name = format!("pack {}", layout.name());
        if let Some(staged) = Staged::plan(layout) {
            let lengths = [layout.size(), layout.space()];
            return self.staged(name, layout, &staged, staged.pack(), lengths);
        }
        let kernel = self.copy_kernel(&layout.image()?, layout)?;
        Ok(kernel.named(name))
    }

    /// A staged pack or unpack of `layout` ([`Staged`]): `body` after the layout's functions.
    fn staged(
        &self,
        name: String,
        layout: &GpuLayout,
        staged: &Staged,
        body: Module,
        lengths: [usize; 2],
    ) -> Result<Kernel, GpuError> {
        let groups = self.workgroups(staged.groups())?;
        let wgsl = assemble(&[layout], &body.finish());
        self.kernel(name, wgsl, groups, lengths, layout.element_bits())
    }

    /// Unpacks the layout into a row-major image of its shape (padding reads as zero).
    pub fn unpack_kernel(&self, layout: &GpuLayout) -> Result<Kernel, GpuError> {
        let name = format!("unpack {}", layout.name());
        if let Some(staged) = Staged::plan(layout) {
            let lengths = [layout.space(), layout.size()];
            return self.staged(name, layout, &staged, staged.unpack(), lengths);
        }
        let kernel = self.copy_kernel(layout, &layout.image()?)?;
        Ok(kernel.named(name))
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
        let len = self.image_len(height, width)?;
        let mut module = Module::new();
        bindings(&mut module, "u32", "u32");
        let (entry, mut body) = entry(len as u64);
        body.let_("y", format_args!("t / {width}u"))
            .let_("x", format_args!("t % {width}u"))
            .assign(format_args!("dst[x * {height}u + y]"), "src[t]");
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
            "value: u32".to_owned(),
            format!("coord: array<u32, {rank}>"),
            "offset: u32".to_owned(),
        ];
        let mut user = Function::new("body", params).returns("u32");
        user.body.verbatim(body);
        let (entry, mut main) = entry(size as u64);
        main.let_("c", format_args!("{}_coord(t)", rows.prefix()));
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
            dispatch: Dispatch { pipeline, groups },
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
    /// whose every index is in range of its buffers of the lengths [`Kernel::run`] checks.
    pub(super) fn kernel_with(
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
            dispatch: Dispatch { pipeline, groups },
            input,
            output,
            bits,
        })
    }

    /// Validates `wgsl` with naga (errors quote the line), then compiles it.
    pub(super) fn pipeline(
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
                // thread-value layout) and C's indices under the same guards. `Kernel::run`
                // and `GemmKernel::run` check that the buffers hold exactly the matrices.
                unsafe {
                    self.device()
                        .create_shader_module_trusted(descriptor, runtime)
                }
            }
        };
        let pipeline = self
            .device()
            .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(name),
                layout: None,
                module: &module,
                entry_point: Some("main"),
                compilation_options: Default::default(),
                cache: None,
            });
        self.check()?;
        Ok(pipeline)
    }

    /// The grid `[x, y]` in workgroups, checked against this device's limit along a
    /// dimension.
    pub(super) fn workgroups(&self, groups: [usize; 2]) -> Result<[u32; 2], GpuError> {
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
    pub(super) fn check_workgroup(
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

    /// Elements of a `height × width` image, which WGSL indexes with `u32`.
    pub(super) fn image_len(&self, height: usize, width: usize) -> Result<usize, GpuError> {
        let len = height.checked_mul(width).filter(|&l| l as u64 <= 1 << 32);
        len.filter(|&l| l > 0).ok_or(GpuError::TooLarge {
            what: format!("a {height} × {width} image, in elements (and it must not be empty)"),
            value: (height as u64).saturating_mul(width as u64),
            limit: 1 << 32,
        })
    }
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

/// Fails unless `T` has `bits` bits: the width a kernel was built for.
fn check_element<T: Word>(bits: usize) -> Result<(), GpuError> {
    match T::BITS == bits {
        true => Ok(()),
        false => Err(GpuError::Element {
            expected: bits,
            actual: T::BITS,
        }),
    }
}

/// Binds the input `src` (an array of `source`) and the output `dst` (of `destination`).
pub(super) fn bindings(module: &mut Module, source: &str, destination: &str) {
    module
        .storage("src", Access::Read, format_args!("array<{source}>"))
        .storage(
            "dst",
            Access::ReadWrite,
            format_args!("array<{destination}>"),
        );
}

/// WGSL reading the source of a copy: `element(s)`, the element at offset `s` of `src` (bound
/// as `vec4<u32>`s, so that a kernel can also load four words at once), which returns
/// `element`, and `value_at(c)`, the element at coordinate `c`, zero in `from`'s padding.
pub(super) fn reads(module: &mut Module, from: &GpuLayout, element: &str) {
    let rank = from.word_shape().len();
    let mut element_at = Function::new("element", ["s: u32"]).returns("u32");
    element_at.body.ret(element);
    let mut value_at = Function::new("value_at", [format!("c: array<u32, {rank}>")]).returns("u32");
    if from.is_padded() {
        value_at
            .body
            .guard(from.call("is_valid", "c"), "return 0u;");
    }
    value_at
        .body
        .ret(format_args!("element({})", from.call("offset", "c")));
    module.function(&element_at).function(&value_at);
}

/// `element(s)` of 32-bit elements: one word.
const WORD: &str = "src[s >> 2u][s & 3u]";

/// A copy to a layout with an inverse: its offsets in order, four per thread (one
/// `vec4<u32>` store) where its space allows, each found through the inverse. Where the four
/// sources lie in one aligned `vec4` of an unpadded `from` (a contiguous or XOR-permuted
/// run), they are one load. Offsets of `to` that hold no element (in partial tiles) keep
/// their contents. The module and its threads.
fn gather(from: &GpuLayout, to: &GpuLayout) -> (Module, usize) {
    let coord = format!("{}_coord", to.prefix());
    let vector = to.word_space().is_multiple_of(4);
    let (element, threads) = match vector {
        true => ("vec4<u32>", to.word_space() / 4),
        false => ("u32", to.word_space()),
    };
    let mut module = Module::new();
    bindings(&mut module, "vec4<u32>", element);
    reads(&mut module, from, WORD);
    if to.is_padded() {
        module.function(&holds(to, &coord, None));
    }
    if vector {
        quad(&mut module, from, &coord);
    }
    let (entry, mut body) = entry(threads as u64);
    match (vector, to.is_padded()) {
        (false, padded) => {
            if padded {
                body.guard("holds(t)", "return;");
            }
            body.assign("dst[t]", format_args!("value_at({coord}(t))"));
        }
        (true, false) => {
            body.assign("dst[t]", "quad(t * 4u)");
        }
        (true, true) => {
            body.let_("o", "t * 4u")
                .let_(
                    "held",
                    "vec4<bool>(holds(o), holds(o + 1u), holds(o + 2u), holds(o + 3u))",
                )
                .if_("all(held)", |all| {
                    all.assign("dst[t]", "quad(o)").line("return;");
                })
                .for_("var i = 0u; i < 4u; i++", |each| {
                    each.if_("held[i]", |held| {
                        held.assign("dst[t][i]", format_args!("value_at({coord}(o + i))"));
                    });
                });
        }
    }
    module.entry(entry, body);
    (module, threads)
}

/// WGSL `quad(o)` (after `source(o)` where it needs it): the elements of offsets `o..o + 4`
/// of the output, found through its inverse `coord`: one `vec4` load where an unpadded
/// `from` keeps the four in one aligned `vec4`, else four.
fn quad(module: &mut Module, from: &GpuLayout, coord: &str) {
    let mut quad = Function::new("quad", ["o: u32"]).returns("vec4<u32>");
    if from.is_padded() {
        quad.body.ret(format_args!(
            "vec4<u32>(value_at({coord}(o)), value_at({coord}(o + 1u)), value_at({coord}(o + 2u)), value_at({coord}(o + 3u)))"
        ));
        module.function(&quad);
        return;
    }
    module.function(&source(from, coord));
    quad.body
        .let_(
            "s",
            "vec4<u32>(source(o), source(o + 1u), source(o + 2u), source(o + 3u))",
        )
        .let_("aligned", "s >> vec4<u32>(2u)")
        .if_("all(aligned == vec4<u32>(aligned.x))", |one| {
            one.let_("v", "src[aligned.x]")
                .let_("lane", "s & vec4<u32>(3u)")
                .ret("vec4<u32>(v[lane.x], v[lane.y], v[lane.z], v[lane.w])");
        })
        .ret("vec4<u32>(element(s.x), element(s.y), element(s.z), element(s.w))");
    module.function(&quad);
}

/// WGSL `source(o)`: the offset in `from` of the coordinate at offset `o` of the output,
/// found through the output's inverse `coord`.
pub(super) fn source(from: &GpuLayout, coord: &str) -> Function {
    let mut source = Function::new("source", ["o: u32"]).returns("u32");
    source
        .body
        .let_("c", format_args!("{coord}(o)"))
        .ret(from.call("offset", "c"));
    source
}

/// WGSL `holds(o)`: whether offset `o` of `to` holds an element, its coordinate found
/// through the inverse `coord`: below `space` where given, and valid where `to` is padded.
pub(super) fn holds(to: &GpuLayout, coord: &str, space: Option<usize>) -> Function {
    let mut holds = Function::new("holds", ["o: u32"])
        .returns("bool")
        .comment("Whether offset `o` holds an element.");
    if let Some(space) = space {
        holds
            .body
            .guard(format_args!("(o < {space}u)"), "return false;");
    }
    match to.is_padded() {
        true => holds
            .body
            .let_("c", format_args!("{coord}(o)"))
            .ret(to.call("is_valid", "c")),
        false => holds.body.ret("true"),
    };
    holds
}

/// A copy to any other injective layout: one thread per coordinate (row-major through
/// `rows`), skipping its padding. The module and its threads.
fn scatter(from: &GpuLayout, to: &GpuLayout, rows: &GpuLayout) -> (Module, usize) {
    let size = to.word_size();
    let mut module = Module::new();
    bindings(&mut module, "vec4<u32>", "u32");
    reads(&mut module, from, WORD);
    let (entry, mut body) = entry(size as u64);
    body.let_("c", format_args!("{}_coord(t)", rows.prefix()));
    if to.is_padded() {
        body.guard(to.call("is_valid", "c"), "return;");
    }
    body.assign(
        format_args!("dst[{}]", to.call("offset", "c")),
        "value_at(c)",
    );
    module.entry(entry, body);
    (module, size)
}

#[cfg(test)]
mod tests {
    use super::{GROUP, grid};

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
