//! The device: the best adapter the machine has, a device with that adapter's own limits
//! (so that buffers of gigabytes work), and wgpu's errors caught as values.

use super::GpuError;
use super::cooperative::Granularity;
use std::sync::{Arc, Mutex, PoisonError};

/// A GPU (or software Vulkan) device and its queue.
///
/// # Which adapter
///
/// By default only wgpu's primary backends are tried: Vulkan, Metal and DX12. A machine
/// with none of them (a Linux box without a Vulkan driver, say) gets
/// [`GpuError::NoAdapter`], never a silent fallback. OpenGL is used only when asked for,
/// with `WGPU_BACKEND=gl` (or a list naming it): wgpu's GL backend drives one EGL context
/// that it locks with a timeout, so two threads using one GL `Gpu` at once can make
/// wgpu-hal panic ("Could not lock adapter context") and the process abort. On GL, use
/// a `Gpu` from one thread at a time; [`Gpu::is_gl`] says whether that applies.
pub struct Gpu {
    adapter: wgpu::Adapter,
    device: wgpu::Device,
    queue: wgpu::Queue,
    timestamps: bool,
    /// The workgroup-scope matrix shapes of a device opened with `VK_NV_cooperative_matrix2`,
    /// or why it was not.
    workgroup_matrices: Result<Vec<Granularity>, String>,
    /// Errors wgpu reported since the last check (its default would panic).
    errors: Arc<Mutex<Vec<String>>>,
    lost: Arc<Mutex<Option<String>>>,
}

impl Gpu {
    /// The best adapter on the backends `WGPU_BACKEND` names (default: Vulkan, Metal and
    /// DX12; GL only when named: see [which adapter](Gpu#which-adapter)): a discrete GPU first, then
    /// an integrated one, then a virtual one, then a CPU (software Vulkan such as
    /// lavapipe). A panic inside wgpu while it looks for adapters or opens the device
    /// (some drivers' failure mode) comes back as [`GpuError::Backend`].
    pub fn new() -> Result<Gpu, GpuError> {
        let backends = wgpu::Backends::from_env().unwrap_or(wgpu::Backends::PRIMARY);
        caught("opening the device", || Gpu::on(backends))?
    }

    fn on(backends: wgpu::Backends) -> Result<Gpu, GpuError> {
        let adapter = best_adapter(backends)?;
        // The optional features kernels use, where the adapter has them: timestamps (for
        // timing) and 16-bit floats (f16 GEMM operands).
        // Cooperative matrices (the f16 GEMM's tensor-core path) too, where the adapter has
        // them: an experimental feature of wgpu, asked for only then.
        let required_features = adapter.features()
            & (wgpu::Features::TIMESTAMP_QUERY
                | wgpu::Features::SHADER_F16
                | wgpu::Features::EXPERIMENTAL_COOPERATIVE_MATRIX);
        let timestamps = required_features.contains(wgpu::Features::TIMESTAMP_QUERY);
        let experimental_features =
            match required_features.contains(wgpu::Features::EXPERIMENTAL_COOPERATIVE_MATRIX) {
                // SAFETY: wgpu asks its users to accept that experimental features may have
                // bugs with undefined behaviour. The only one enabled is cooperative
                // matrices, and the only shaders that use them are the tensor-core GEMM's
                // (`tensor.rs`): naga validates each first; every cooperative load or store
                // reads or writes 16 rows of 16 elements either in a fixed-size workgroup
                // array, at an offset its layout keeps in range, or (`KLoop::Direct`)
                // in an operand's storage buffer, only for shapes whose fragments never cross
                // the matrix's edge, in buffers whose lengths `GemmKernel::run` checks; so
                // do the GEMM's on workgroup-scope matrices (`workgroup.rs`), through tensor
                // layouts of exactly the matrices' dimensions, clamped where a slice reaches
                // past them; and the tests check their results against the CPU.
                true => unsafe { wgpu::ExperimentalFeatures::enabled() },
                false => wgpu::ExperimentalFeatures::disabled(),
            };
        let descriptor = wgpu::DeviceDescriptor {
            label: Some("swizzle"),
            required_features,
            required_limits: adapter.limits(),
            experimental_features,
            ..Default::default()
        };
        // Where the driver has workgroup-scope matrices (the f16 GEMM's fastest kernel), the
        // device is opened with them and with passthrough shaders, which carry their SPIR-V.
        let (device, queue, workgroup_matrices) =
            match with_workgroup_matrices(&adapter, &descriptor) {
                Ok((device, queue, shapes)) => (device, queue, Ok(shapes)),
                Err(why) => {
                    let (device, queue) = pollster::block_on(adapter.request_device(&descriptor))
                        .map_err(|e| GpuError::RequestDevice(e.to_string()))?;
                    (device, queue, Err(why))
                }
            };
        let errors = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&errors);
        device.on_uncaptured_error(Arc::new(move |error: wgpu::Error| {
            lock(&sink).push(error.to_string());
        }));
        let lost = Arc::new(Mutex::new(None));
        let sink = Arc::clone(&lost);
        device.set_device_lost_callback(move |reason, message| {
            let why = match message.is_empty() {
                true => format!("{reason:?}"),
                false => format!("{reason:?}: {message}"),
            };
            *lock(&sink) = Some(why);
        });
        Ok(Gpu {
            adapter,
            device,
            queue,
            timestamps,
            workgroup_matrices,
            errors,
            lost,
        })
    }

    /// Whether the f16 (and bf16) GEMM may run on workgroup-scope cooperative matrices
    /// (`VK_NV_cooperative_matrix2`: NVIDIA's Vulkan driver), and if not, why.
    pub fn workgroup_matrices(&self) -> Result<(), &str> {
        self.workgroup_matrices
            .as_ref()
            .map(drop)
            .map_err(String::as_str)
    }

    /// The workgroup-scope shapes the driver lists: f16 × f16 for f32 and for f16 sums, and
    /// bf16 × bf16 for f32 sums where it has `VK_KHR_shader_bfloat16`. A
    /// [`WorkgroupMatrices`](super::WorkgroupMatrices) tile must be a multiple of one at its
    /// invocations (empty without the extension).
    pub fn workgroup_matrix_granularities(&self) -> &[Granularity] {
        self.workgroup_matrices.as_deref().unwrap_or_default()
    }

    /// Whether the device runs on wgpu's OpenGL backend, which must be used from one
    /// thread at a time (see [which adapter](Gpu#which-adapter)).
    pub fn is_gl(&self) -> bool {
        self.adapter.get_info().backend == wgpu::Backend::Gl
    }

    /// Whether kernels may use 16-bit floats (`SHADER_F16`): f16 GEMM operands.
    pub fn has_f16(&self) -> bool {
        self.device.features().contains(wgpu::Features::SHADER_F16)
    }

    /// Whether kernels may use cooperative matrices (wgpu's experimental
    /// `EXPERIMENTAL_COOPERATIVE_MATRIX`: tensor cores on NVIDIA's Vulkan driver), which the
    /// f16 GEMM runs on where the adapter also has the configuration it needs
    /// ([`Gpu::gemm_kernel`]).
    pub fn has_cooperative_matrix(&self) -> bool {
        self.device
            .features()
            .contains(wgpu::Features::EXPERIMENTAL_COOPERATIVE_MATRIX)
    }

    /// The cooperative-matrix configurations the adapter lists (empty without the feature).
    pub fn cooperative_matrix_properties(&self) -> Vec<wgpu::CooperativeMatrixProperties> {
        match self.has_cooperative_matrix() {
            true => self.adapter.cooperative_matrix_properties(),
            false => Vec::new(),
        }
    }

    /// The chosen adapter, in one line: name, kind, backend and driver.
    pub fn describe(&self) -> String {
        let info = self.adapter.get_info();
        format!(
            "{} ({:?}, {:?}, driver {} {})",
            info.name, info.device_type, info.backend, info.driver, info.driver_info
        )
    }

    /// What wgpu knows about the chosen adapter.
    pub fn info(&self) -> wgpu::AdapterInfo {
        self.adapter.get_info()
    }

    /// Whether kernels can be timed on the GPU (timestamp queries).
    pub fn has_timestamps(&self) -> bool {
        self.timestamps
    }

    /// The wgpu device, for work beyond this module's kernels.
    pub fn device(&self) -> &wgpu::Device {
        &self.device
    }

    /// The wgpu queue.
    pub fn queue(&self) -> &wgpu::Queue {
        &self.queue
    }

    /// The first error wgpu reported since the last check, or a lost device.
    pub(crate) fn check(&self) -> Result<(), GpuError> {
        if let Some(why) = lock(&self.lost).clone() {
            return Err(GpuError::DeviceLost(why));
        }
        let mut errors = lock(&self.errors);
        match errors.drain(..).next() {
            Some(error) => Err(GpuError::Wgpu(error)),
            None => Ok(()),
        }
    }

    /// Waits for all submitted work, then reports its errors.
    pub(crate) fn wait(&self) -> Result<(), GpuError> {
        let polled = self.device.poll(wgpu::PollType::wait_indefinitely());
        self.check()?;
        polled.map(drop).map_err(|e| GpuError::Wgpu(e.to_string()))
    }

    /// The words of a `MAP_READ` buffer whose copy has been submitted.
    pub(crate) fn read(&self, staging: &wgpu::Buffer) -> Result<Vec<u32>, GpuError> {
        let (sender, receiver) = std::sync::mpsc::channel();
        staging.map_async(wgpu::MapMode::Read, .., move |result| {
            let _ = sender.send(result);
        });
        self.wait()?;
        receiver
            .recv()
            .map_err(|_| GpuError::Wgpu("the buffer was never mapped".to_owned()))?
            .map_err(|e| GpuError::Wgpu(e.to_string()))?;
        let view = staging
            .get_mapped_range(..)
            .map_err(|e| GpuError::Wgpu(e.to_string()))?;
        let words = bytemuck::cast_slice::<u8, u32>(&view).to_vec();
        drop(view);
        staging.unmap();
        Ok(words)
    }
}

/// A device as `descriptor` asks, with `VK_NV_cooperative_matrix2` and passthrough shaders
/// besides, where the adapter is a Vulkan one with cooperative matrices, f16 and
/// passthrough shaders and its driver lists the extension; else why not.
fn with_workgroup_matrices(
    adapter: &wgpu::Adapter,
    descriptor: &wgpu::DeviceDescriptor,
) -> Result<(wgpu::Device, wgpu::Queue, Vec<Granularity>), String> {
    let needed = wgpu::Features::SHADER_F16
        | wgpu::Features::EXPERIMENTAL_COOPERATIVE_MATRIX
        | wgpu::Features::PASSTHROUGH_SHADERS;
    if !adapter.features().contains(needed) {
        return Err(format!(
            "the adapter lacks {:?}, which workgroup-scope matrices need",
            needed - adapter.features()
        ));
    }
    let descriptor = wgpu::DeviceDescriptor {
        required_features: descriptor.required_features | needed,
        ..descriptor.clone()
    };
    caught("opening the device with VK_NV_cooperative_matrix2", || {
        super::vulkan::open(adapter, &descriptor)
    })
    .map_err(|e| e.to_string())?
}

/// The best adapter on `backends`, by [`rank`].
fn best_adapter(backends: wgpu::Backends) -> Result<wgpu::Adapter, GpuError> {
    let mut descriptor = wgpu::InstanceDescriptor::new_without_display_handle();
    descriptor.backends = backends;
    let instance = wgpu::Instance::new(descriptor);
    let adapters = pollster::block_on(instance.enumerate_adapters(backends));
    adapters
        .into_iter()
        .min_by_key(|adapter| rank(adapter.get_info().device_type))
        .ok_or_else(|| GpuError::NoAdapter {
            backends: backend_names(backends),
        })
}

/// `work`, with a panic inside wgpu turned into [`GpuError::Backend`]: wgpu's backends
/// panic on some driver failures rather than return an error.
pub(crate) fn caught<T>(doing: &'static str, work: impl FnOnce() -> T) -> Result<T, GpuError> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)).map_err(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic without a message".to_owned());
        GpuError::Backend { doing, message }
    })
}

/// The native backends in `backends`, by name: "Vulkan, Metal, DX12".
fn backend_names(backends: wgpu::Backends) -> String {
    [
        (wgpu::Backends::VULKAN, "Vulkan"),
        (wgpu::Backends::METAL, "Metal"),
        (wgpu::Backends::DX12, "DX12"),
        (wgpu::Backends::GL, "GL"),
    ]
    .iter()
    .filter(|(backend, _)| backends.contains(*backend))
    .map(|&(_, name)| name)
    .collect::<Vec<_>>()
    .join(", ")
}

/// Preference among adapter kinds: lower is better.
fn rank(kind: wgpu::DeviceType) -> u8 {
    match kind {
        wgpu::DeviceType::DiscreteGpu => 0,
        wgpu::DeviceType::IntegratedGpu => 1,
        wgpu::DeviceType::VirtualGpu => 2,
        wgpu::DeviceType::Cpu => 3,
        wgpu::DeviceType::Other => 4,
    }
}

/// A lock that survives a panicking holder: the data is a list of messages.
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
