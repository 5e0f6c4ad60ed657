//! What the driver made of a kernel, for the lab's `-- stats` modes: the statistics of its
//! compute pipeline's executables (`VK_KHR_pipeline_executable_properties`), which wgpu does
//! not expose. NVIDIA's driver reports, per executable, the registers each invocation holds,
//! its shared and local (spilled) memory, its binary's size and more: what the SPIR-V or WGSL
//! became, in code the kernel does not control.
//!
//! [`Driver::open`] opens a Vulkan device of its own through ash, on the adapter wgpu would
//! pick (wgpu-hal's instance and physical device), with the extension and the features the
//! library's kernels declare (16-bit storage, f16, the Vulkan memory model, zero-initialized
//! workgroup memory, cooperative matrices and, where the driver lists it,
//! `VK_NV_cooperative_matrix2`). Unlike wgpu's, the device enables every feature of the
//! structures it chains and not `VK_EXT_robustness2`: WGSL's buffer accesses are clamped in
//! the shader (wgpu-hal leaves them to `robustBufferAccess2` where the driver has it), so a
//! kernel with bounds checks may hold other registers here than under wgpu; a kernel
//! without them is written alike (no clamps either way). [`Driver::spirv`] makes a pipeline of SPIR-V words (the
//! tensor-core kernel's) with its statistics captured; [`Driver::wgsl`] writes WGSL as
//! wgpu-hal does (naga, SPIR-V 1.6, bounds checks by clamping unless the kernel goes without,
//! loops bounded, workgroup memory zeroed) and makes its pipeline. Each pipeline is dropped
//! once its statistics are read.
//!
//! Reading NVIDIA's numbers (driver 580): "Register Count" is per invocation (255 at most),
//! "Shared Memory Size" per workgroup in bytes, the kernel's own and the driver's staging;
//! "Local Memory Size" carries bit 36 in every kernel (68719476736 where nothing spills),
//! and the bytes each invocation spills are the rest. It lists no internal representations
//! (`VK_PIPELINE_CREATE_CAPTURE_INTERNAL_REPRESENTATIONS_BIT_KHR` returns none), so the
//! instructions themselves stay hidden.

use ash::vk;
use std::ffi::{CStr, c_void};
use swizzle::gpu::wgpu;
use wgpu::hal;

/// `VkPhysicalDeviceCooperativeMatrix2FeaturesNV`, which ash 0.38 predates (as the runtime's
/// `vulkan.rs` declares it).
#[repr(C)]
#[derive(Clone, Copy)]
struct Matrix2Features {
    s_type: vk::StructureType,
    p_next: *mut c_void,
    workgroup_scope: vk::Bool32,
    flexible_dimensions: vk::Bool32,
    reductions: vk::Bool32,
    conversions: vk::Bool32,
    per_element_operations: vk::Bool32,
    tensor_addressing: vk::Bool32,
    block_loads: vk::Bool32,
}

const MATRIX2: &CStr = c"VK_NV_cooperative_matrix2";

/// One statistic of one executable, as the driver names it.
pub struct Statistic {
    pub executable: String,
    pub name: String,
    pub value: String,
}

/// How a kernel's buffers are bound: storage buffers at bindings 0–3 of set 0 (the
/// library's kernels), or a uniform block at binding 0 holding their device addresses.
#[derive(Clone, Copy, Debug)]
pub enum Bindings {
    Storage,
    Uniform,
}

/// A device that captures pipeline statistics (see the module).
pub struct Driver {
    device: ash::Device,
    executables: ash::khr::pipeline_executable_properties::Device,
    set_layout: vk::DescriptorSetLayout,
    layout: vk::PipelineLayout,
    /// A uniform block at binding 0 of set 0: the layout of kernels that take their buffers
    /// by device address from a block of parameters (NVIDIA's reference GEMMs).
    uniform_set_layout: vk::DescriptorSetLayout,
    uniform_layout: vk::PipelineLayout,
    /// Held for the device's instance (the adapter keeps wgpu-hal's instance alive).
    _adapter: wgpu::Adapter,
}

impl Driver {
    /// The device, or why not (no Vulkan adapter, no `VK_KHR_pipeline_executable_properties`).
    pub fn open() -> Result<Driver, String> {
        let mut descriptor = wgpu::InstanceDescriptor::new_without_display_handle();
        descriptor.backends = wgpu::Backends::VULKAN;
        let instance = wgpu::Instance::new(descriptor);
        let adapter = pollster::block_on(instance.request_adapter(&Default::default()))
            .map_err(|e| format!("no Vulkan adapter: {e}"))?;
        let (raw, physical) = {
            // SAFETY: the guard is dropped at the end of this block; the instance it lends
            // is cloned (function pointers and a handle), alive while `adapter` is.
            let hal = unsafe { adapter.as_hal::<hal::api::Vulkan>() }
                .ok_or("the adapter is not a Vulkan one")?;
            (
                hal.shared_instance().raw_instance().clone(),
                hal.raw_physical_device(),
            )
        };
        // SAFETY: queries of a valid physical device.
        let listed = unsafe { raw.enumerate_device_extension_properties(physical) }
            .map_err(|e| e.to_string())?;
        let has = |name: &CStr| {
            listed
                .iter()
                .any(|e| e.extension_name_as_c_str() == Ok(name))
        };
        if !has(ash::khr::pipeline_executable_properties::NAME) {
            return Err("the driver lists no VK_KHR_pipeline_executable_properties".to_owned());
        }
        let mut extensions = vec![ash::khr::pipeline_executable_properties::NAME.as_ptr()];
        let matrices = has(ash::khr::cooperative_matrix::NAME);
        let matrices2 = matrices && has(MATRIX2);
        if matrices {
            extensions.push(ash::khr::cooperative_matrix::NAME.as_ptr());
        }
        if matrices2 {
            extensions.push(MATRIX2.as_ptr());
        }

        let mut reported = vk::PhysicalDevicePipelineExecutablePropertiesFeaturesKHR::default();
        let mut query = vk::PhysicalDeviceFeatures2::default().push_next(&mut reported);
        // SAFETY: a features query over a chain of one structure, alive for the call.
        unsafe { raw.get_physical_device_features2(physical, &mut query) };
        if reported.pipeline_executable_info == vk::FALSE {
            return Err("the driver does not report pipeline executables".to_owned());
        }

        // The features: queried, then the same structures enable what the driver has (a
        // structure of an extension not enabled stays out of the chain).
        let mut v11 = vk::PhysicalDeviceVulkan11Features::default();
        let mut v12 = vk::PhysicalDeviceVulkan12Features::default();
        let mut v13 = vk::PhysicalDeviceVulkan13Features::default();
        let mut statistics = vk::PhysicalDevicePipelineExecutablePropertiesFeaturesKHR::default();
        let mut cooperative = vk::PhysicalDeviceCooperativeMatrixFeaturesKHR::default();
        let mut matrix2 = Matrix2Features {
            s_type: vk::StructureType::from_raw(1_000_593_000),
            p_next: std::ptr::null_mut(),
            workgroup_scope: 0,
            flexible_dimensions: 0,
            reductions: 0,
            conversions: 0,
            per_element_operations: 0,
            tensor_addressing: 0,
            block_loads: 0,
        };
        let mut features = vk::PhysicalDeviceFeatures2::default()
            .push_next(&mut v11)
            .push_next(&mut v12)
            .push_next(&mut v13)
            .push_next(&mut statistics);
        if matrices {
            features = features.push_next(&mut cooperative);
        }
        if matrices2 {
            matrix2.p_next = features.p_next;
            features.p_next = (&raw mut matrix2).cast();
        }
        // SAFETY: a features query over a chain of structures alive for the call.
        unsafe { raw.get_physical_device_features2(physical, &mut features) };

        // SAFETY: as above.
        let families = unsafe { raw.get_physical_device_queue_family_properties(physical) };
        let family = families
            .iter()
            .position(|f| f.queue_flags.contains(vk::QueueFlags::COMPUTE))
            .ok_or("no compute queue family")? as u32;
        let priorities = [1.0];
        let queues = [vk::DeviceQueueCreateInfo::default()
            .queue_family_index(family)
            .queue_priorities(&priorities)];
        let create = vk::DeviceCreateInfo {
            p_next: (&raw const features).cast(),
            ..Default::default()
        }
        .queue_create_infos(&queues)
        .enabled_extension_names(&extensions);
        // SAFETY: the extensions are listed by the driver, the features its own answers,
        // the chain alive for the call.
        let device = unsafe { raw.create_device(physical, &create, None) }
            .map_err(|e| format!("the statistics device did not open: {e}"))?;
        let executables = ash::khr::pipeline_executable_properties::Device::new(&raw, &device);

        // Storage buffers at bindings 0–3 of set 0: every kernel of the lab's benches binds at most
        // that many (a layout may hold bindings the shader does not use).
        let storage = [vk::DescriptorType::STORAGE_BUFFER; 4];
        let (set_layout, layout) = pipeline_layout(&device, &storage)?;
        let (uniform_set_layout, uniform_layout) =
            pipeline_layout(&device, &[vk::DescriptorType::UNIFORM_BUFFER])?;
        Ok(Driver {
            device,
            executables,
            set_layout,
            layout,
            uniform_set_layout,
            uniform_layout,
            _adapter: adapter,
        })
    }

    /// The statistics of a compute pipeline of SPIR-V `words` (entry point `main`).
    pub fn spirv(&self, words: &[u32], entry: &CStr) -> Result<Vec<Statistic>, String> {
        self.specialized(words, entry, &[], Bindings::Storage)
    }

    /// The statistics of a compute pipeline of SPIR-V `words` whose specialization
    /// constant `i` is `constants[i]` (a 32-bit value each), its buffers bound as
    /// `bindings` says.
    pub fn specialized(
        &self,
        words: &[u32],
        entry: &CStr,
        constants: &[u32],
        bindings: Bindings,
    ) -> Result<Vec<Statistic>, String> {
        let entries: Vec<vk::SpecializationMapEntry> = (0..constants.len() as u32)
            .map(|id| vk::SpecializationMapEntry {
                constant_id: id,
                offset: 4 * id,
                size: 4,
            })
            .collect();
        let data: Vec<u8> = constants.iter().flat_map(|c| c.to_ne_bytes()).collect();
        let specialization = vk::SpecializationInfo::default()
            .map_entries(&entries)
            .data(&data);
        let module_create = vk::ShaderModuleCreateInfo::default().code(words);
        // SAFETY: the words are a module the caller made for a Vulkan compute pipeline.
        let module = unsafe { self.device.create_shader_module(&module_create, None) }
            .map_err(|e| e.to_string())?;
        let stage = vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::COMPUTE)
            .module(module)
            .name(entry)
            .specialization_info(&specialization);
        let layout = match bindings {
            Bindings::Storage => self.layout,
            Bindings::Uniform => self.uniform_layout,
        };
        let create = [vk::ComputePipelineCreateInfo::default()
            .flags(vk::PipelineCreateFlags::CAPTURE_STATISTICS_KHR)
            .stage(stage)
            .layout(layout)];
        // SAFETY: a valid module, layout and creation structure.
        let created = unsafe {
            self.device
                .create_compute_pipelines(vk::PipelineCache::null(), &create, None)
        };
        // SAFETY: the module is no longer needed once the pipeline is made (or not).
        unsafe { self.device.destroy_shader_module(module, None) };
        let pipeline = created.map_err(|(_, e)| format!("the pipeline did not build: {e}"))?[0];
        let read = self.statistics(pipeline);
        // SAFETY: the pipeline is not in use: it was never bound.
        unsafe { self.device.destroy_pipeline(pipeline, None) };
        read
    }

    /// The statistics of WGSL `wgsl`'s entry point `main`, written to SPIR-V as wgpu-hal
    /// writes it (bounds checks by clamping where `bounds_checks`, else none).
    pub fn wgsl(&self, wgsl: &str, bounds_checks: bool) -> Result<Vec<Statistic>, String> {
        self.spirv(&spirv_as_wgpu_writes(wgsl, bounds_checks)?, c"main")
    }

    /// Every statistic of every executable of `pipeline`.
    fn statistics(&self, pipeline: vk::Pipeline) -> Result<Vec<Statistic>, String> {
        let info = vk::PipelineInfoKHR::default().pipeline(pipeline);
        // SAFETY: a pipeline made with its statistics captured, on this device.
        let properties = unsafe { self.executables.get_pipeline_executable_properties(&info) }
            .map_err(|e| e.to_string())?;
        let mut all = Vec::new();
        for (index, executable) in properties.iter().enumerate() {
            let executable = executable
                .name_as_c_str()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let info = vk::PipelineExecutableInfoKHR::default()
                .pipeline(pipeline)
                .executable_index(index as u32);
            // SAFETY: as above, an executable the driver listed.
            let statistics = unsafe { self.executables.get_pipeline_executable_statistics(&info) }
                .map_err(|e| e.to_string())?;
            for statistic in statistics {
                // SAFETY: the union's member is the one `format` names.
                let value = unsafe {
                    match statistic.format {
                        vk::PipelineExecutableStatisticFormatKHR::BOOL32 => {
                            (statistic.value.b32 != 0).to_string()
                        }
                        vk::PipelineExecutableStatisticFormatKHR::INT64 => {
                            statistic.value.i64.to_string()
                        }
                        vk::PipelineExecutableStatisticFormatKHR::UINT64 => {
                            statistic.value.u64.to_string()
                        }
                        vk::PipelineExecutableStatisticFormatKHR::FLOAT64 => {
                            statistic.value.f64.to_string()
                        }
                        other => format!("{other:?}"),
                    }
                };
                all.push(Statistic {
                    executable: executable.clone(),
                    name: statistic
                        .name_as_c_str()
                        .map(|n| n.to_string_lossy().into_owned())
                        .unwrap_or_default(),
                    value,
                });
            }
        }
        Ok(all)
    }

    /// Prints `kernel`'s statistics as one table row per executable: `| kernel | name = value, … |`.
    pub fn print(&self, kernel: &str, statistics: Result<Vec<Statistic>, String>) {
        match statistics {
            Err(why) => println!("| {kernel} | (no statistics: {why}) |"),
            Ok(statistics) => {
                let mut executables: Vec<&str> =
                    statistics.iter().map(|s| s.executable.as_str()).collect();
                executables.dedup();
                for executable in executables {
                    let values: Vec<String> = statistics
                        .iter()
                        .filter(|s| s.executable == executable)
                        .map(|s| format!("{} = {}", s.name, s.value))
                        .collect();
                    println!("| {kernel} ({executable}) | {} |", values.join(", "));
                }
            }
        }
    }
}

/// `wgsl`'s SPIR-V as wgpu-hal writes it (naga, SPIR-V 1.6, bounds checks by clamping
/// unless the kernel goes without, loops bounded, workgroup memory zeroed).
pub fn spirv_as_wgpu_writes(wgsl: &str, bounds_checks: bool) -> Result<Vec<u32>, String> {
    use naga::back::spv;
    use naga::proc::{BoundsCheckPolicies, BoundsCheckPolicy};
    let module = naga::front::wgsl::parse_str(wgsl).map_err(|e| e.emit_to_string(wgsl))?;
    let info = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::all(),
    )
    .validate(&module)
    .map_err(|e| format!("{e:?}"))?;
    let policy = match bounds_checks {
        true => BoundsCheckPolicy::Restrict,
        false => BoundsCheckPolicy::Unchecked,
    };
    let options = spv::Options {
        lang_version: (1, 6),
        bounds_check_policies: BoundsCheckPolicies {
            index: policy,
            buffer: policy,
            image_load: policy,
            binding_array: BoundsCheckPolicy::Unchecked,
        },
        zero_initialize_workgroup_memory: spv::ZeroInitializeWorkgroupMemoryMode::Native,
        ..Default::default()
    };
    let pipeline = spv::PipelineOptions {
        shader_stage: naga::ShaderStage::Compute,
        entry_point: "main".to_owned(),
    };
    spv::write_vec(&module, &info, &options, Some(&pipeline)).map_err(|e| e.to_string())
}

/// A pipeline layout of one descriptor set whose binding `i` is a `types[i]` for compute,
/// and that set's layout.
fn pipeline_layout(
    device: &ash::Device,
    types: &[vk::DescriptorType],
) -> Result<(vk::DescriptorSetLayout, vk::PipelineLayout), String> {
    let bindings: Vec<vk::DescriptorSetLayoutBinding> = (0..)
        .zip(types)
        .map(|(binding, &kind)| {
            vk::DescriptorSetLayoutBinding::default()
                .binding(binding)
                .descriptor_type(kind)
                .descriptor_count(1)
                .stage_flags(vk::ShaderStageFlags::COMPUTE)
        })
        .collect();
    let set_create = vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings);
    // SAFETY: a valid device and creation structure.
    let set_layout = unsafe { device.create_descriptor_set_layout(&set_create, None) }
        .map_err(|e| e.to_string())?;
    let sets = [set_layout];
    let layout_create = vk::PipelineLayoutCreateInfo::default().set_layouts(&sets);
    // SAFETY: as above.
    let layout = unsafe { device.create_pipeline_layout(&layout_create, None) }
        .map_err(|e| e.to_string())?;
    Ok((set_layout, layout))
}

impl Drop for Driver {
    fn drop(&mut self) {
        // SAFETY: nothing made from the device is in use: every pipeline was destroyed as
        // its statistics were read.
        unsafe {
            self.device.destroy_pipeline_layout(self.layout, None);
            self.device
                .destroy_descriptor_set_layout(self.set_layout, None);
            self.device
                .destroy_pipeline_layout(self.uniform_layout, None);
            self.device
                .destroy_descriptor_set_layout(self.uniform_set_layout, None);
            self.device.destroy_device(None);
        }
    }
}
