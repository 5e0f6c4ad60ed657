//! A device with `VK_NV_cooperative_matrix2` (workgroup-scope cooperative matrices, flexible
//! dimensions, tensor addressing), which wgpu does not know: opened through wgpu-hal's
//! device-creation callback, which adds the extension and its feature structure, on Vulkan
//! adapters whose driver lists it (NVIDIA's). The f16 GEMM's fastest kernel runs on it
//! ([`WorkgroupMatrices`](super::WorkgroupMatrices)).
//!
//! Where the driver also lists `VK_KHR_shader_bfloat16` with bf16 cooperative matrices, the
//! device is opened with it too, and bf16 operands run on the same kernel.
//!
//! ash 0.38 (wgpu-hal's) predates both extensions, so their structures are declared here as
//! the Vulkan headers give them.

use super::cooperative::{Accumulate, Granularity, Operands};
use ash::vk;
use std::ffi::c_void;
use wgpu::hal;

/// `VkPhysicalDeviceCooperativeMatrix2FeaturesNV`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
struct Features {
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

/// `VkCooperativeMatrixFlexibleDimensionsPropertiesNV`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
struct FlexibleDimensions {
    s_type: vk::StructureType,
    p_next: *mut c_void,
    m_granularity: u32,
    n_granularity: u32,
    k_granularity: u32,
    a_type: vk::ComponentTypeKHR,
    b_type: vk::ComponentTypeKHR,
    c_type: vk::ComponentTypeKHR,
    result_type: vk::ComponentTypeKHR,
    saturating_accumulation: vk::Bool32,
    scope: vk::ScopeKHR,
    workgroup_invocations: u32,
}

/// `VkPhysicalDeviceShaderBfloat16FeaturesKHR`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
struct Bfloat16Features {
    s_type: vk::StructureType,
    p_next: *mut c_void,
    shader_bfloat16_type: vk::Bool32,
    shader_bfloat16_dot_product: vk::Bool32,
    shader_bfloat16_cooperative_matrix: vk::Bool32,
}

const EXTENSION: &std::ffi::CStr = c"VK_NV_cooperative_matrix2";
const FEATURES: vk::StructureType = vk::StructureType::from_raw(1_000_593_000);
const FLEXIBLE_DIMENSIONS: vk::StructureType = vk::StructureType::from_raw(1_000_593_001);
const BFLOAT16_EXTENSION: &std::ffi::CStr = c"VK_KHR_shader_bfloat16";
const BFLOAT16_FEATURES: vk::StructureType = vk::StructureType::from_raw(1_000_141_000);
const BFLOAT16: vk::ComponentTypeKHR = vk::ComponentTypeKHR::from_raw(1_000_141_000);

impl Bfloat16Features {
    /// The two features the kernel uses (bf16 values, and cooperative matrices of them).
    fn new(enabled: vk::Bool32) -> Bfloat16Features {
        Bfloat16Features {
            s_type: BFLOAT16_FEATURES,
            p_next: std::ptr::null_mut(),
            shader_bfloat16_type: enabled,
            shader_bfloat16_dot_product: vk::FALSE,
            shader_bfloat16_cooperative_matrix: enabled,
        }
    }
}

impl Features {
    fn new(enabled: vk::Bool32) -> Features {
        Features {
            s_type: FEATURES,
            p_next: std::ptr::null_mut(),
            workgroup_scope: enabled,
            flexible_dimensions: enabled,
            reductions: vk::FALSE,
            conversions: vk::FALSE,
            per_element_operations: vk::FALSE,
            tensor_addressing: enabled,
            block_loads: vk::FALSE,
        }
    }
}

/// A device opened with the extension (and bf16's, where the driver has it), and the
/// workgroup-scope shapes its driver lists for f16 and bf16 operands; or why not (the adapter is not Vulkan, the driver lacks the extension or a
/// feature, the device did not open): the caller then opens a plain one.
pub(super) fn open(
    adapter: &wgpu::Adapter,
    descriptor: &wgpu::DeviceDescriptor,
) -> Result<(wgpu::Device, wgpu::Queue, Vec<Granularity>), String> {
    let (device, shapes) = {
        // SAFETY: the guard is dropped at the end of this block, before the adapter is used
        // through wgpu again (`create_device_from_hal` below).
        let hal_adapter = unsafe { adapter.as_hal::<hal::api::Vulkan>() }
            .ok_or("the adapter is not a Vulkan one")?;
        if !hal_adapter
            .physical_device_capabilities()
            .supports_extension(EXTENSION)
        {
            return Err("the driver lists no VK_NV_cooperative_matrix2".to_owned());
        }
        let bf16 = has_bf16_matrices(&hal_adapter);
        let shapes: Vec<Granularity> = granularities(&hal_adapter)?
            .into_iter()
            .filter(|g| bf16 || g.operands != Operands::Bf16)
            .collect();
        if !shapes
            .iter()
            .any(|g| (g.operands, g.accumulate) == (Operands::F16, Accumulate::F32))
        {
            return Err("the driver lists no f16 × f16 → f32 workgroup-scope matrices".to_owned());
        }
        let mut enable = Features::new(vk::TRUE);
        let mut enable_bf16 = Bfloat16Features::new(vk::TRUE);
        let callback = Box::new(|args: hal::vulkan::CreateDeviceCallbackArgs| {
            args.extensions.push(EXTENSION);
            enable.p_next = args.create_info.p_next.cast_mut();
            if bf16 {
                args.extensions.push(BFLOAT16_EXTENSION);
                enable_bf16.p_next = enable.p_next;
                enable.p_next = (&raw mut enable_bf16).cast();
            }
            args.create_info.p_next = (&raw const enable).cast();
        });
        // SAFETY: the callback adds extensions the driver lists (bf16's only where
        // `has_bf16_matrices` found it) and, at the head of the creation's chain, their
        // feature structures (of the layouts the Vulkan headers give, borrowed for the
        // whole call), enabling features `granularities` and `has_bf16_matrices` found
        // supported; it removes and disables nothing.
        let device = unsafe {
            hal_adapter.open_with_callback(
                descriptor.required_features,
                &descriptor.required_limits,
                &descriptor.memory_hints,
                Some(callback),
            )
        }
        .map_err(|e| format!("the device with VK_NV_cooperative_matrix2 did not open: {e}"))?;
        (device, shapes)
    };
    // SAFETY: the hal device was opened from this adapter with exactly the descriptor's
    // features and limits.
    let (device, queue) =
        unsafe { adapter.create_device_from_hal(device, descriptor) }.map_err(|e| e.to_string())?;
    Ok((device, queue, shapes))
}

/// A Vulkan feature structure (`#[repr(C)]`, starting with its `sType` and `pNext`) that a
/// features query fills in.
///
/// # Safety
/// The type has the layout the Vulkan headers give its structure, and its values set
/// `sType` to that structure's and `pNext` to null.
unsafe trait FeatureStructure {}

// SAFETY: both are declared as the headers give them; their `new` sets `sType` and a null
// `pNext`.
unsafe impl FeatureStructure for Features {}
unsafe impl FeatureStructure for Bfloat16Features {}

/// `structure` as the driver fills it in: which of its features the device supports.
fn query<T: FeatureStructure>(adapter: &hal::vulkan::Adapter, mut structure: T) -> T {
    let mut features = vk::PhysicalDeviceFeatures2 {
        p_next: (&raw mut structure).cast(),
        ..Default::default()
    };
    // SAFETY: a features query with one extension structure (a `FeatureStructure`), both
    // alive for the call.
    unsafe {
        adapter
            .shared_instance()
            .raw_instance()
            .get_physical_device_features2(adapter.raw_physical_device(), &mut features)
    };
    structure
}

/// Whether the driver lists `VK_KHR_shader_bfloat16` with bf16 values and bf16 cooperative
/// matrices: then its bf16 workgroup-scope shapes are usable.
fn has_bf16_matrices(adapter: &hal::vulkan::Adapter) -> bool {
    if !adapter
        .physical_device_capabilities()
        .supports_extension(BFLOAT16_EXTENSION)
    {
        return false;
    }
    let supported = query(adapter, Bfloat16Features::new(vk::FALSE));
    supported.shader_bfloat16_type == vk::TRUE
        && supported.shader_bfloat16_cooperative_matrix == vk::TRUE
}

/// The driver's workgroup-scope matrix shapes for f16 × f16 and bf16 × bf16 operands
/// summed in f32 (or f16 × f16 in f16), where it supports the three features the kernel
/// needs; an error where it does not.
fn granularities(adapter: &hal::vulkan::Adapter) -> Result<Vec<Granularity>, String> {
    let shared = adapter.shared_instance();
    let (entry, instance) = (shared.entry(), shared.raw_instance());
    let physical = adapter.raw_physical_device();
    let supported = query(adapter, Features::new(vk::FALSE));
    if [
        supported.workgroup_scope,
        supported.flexible_dimensions,
        supported.tensor_addressing,
    ]
    .contains(&vk::FALSE)
    {
        return Err(
            "the driver's VK_NV_cooperative_matrix2 lacks workgroup scope, flexible \
             dimensions or tensor addressing"
                .to_owned(),
        );
    }
    type Query = unsafe extern "system" fn(
        vk::PhysicalDevice,
        *mut u32,
        *mut FlexibleDimensions,
    ) -> vk::Result;
    // SAFETY: the instance-level entry point the extension defines, looked up by its name.
    let query = unsafe {
        entry.get_instance_proc_addr(
            instance.handle(),
            c"vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV".as_ptr(),
        )
    }
    .ok_or(
        "the driver has no vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV",
    )?;
    // SAFETY: the pointer is that entry point, whose signature `Query` spells out.
    let query: Query = unsafe { std::mem::transmute::<unsafe extern "system" fn(), Query>(query) };
    let mut count = 0;
    // SAFETY: the count query, then that many structures with their type set.
    let counted = unsafe { query(physical, &mut count, std::ptr::null_mut()) };
    let empty = FlexibleDimensions {
        s_type: FLEXIBLE_DIMENSIONS,
        p_next: std::ptr::null_mut(),
        m_granularity: 0,
        n_granularity: 0,
        k_granularity: 0,
        a_type: vk::ComponentTypeKHR::FLOAT16,
        b_type: vk::ComponentTypeKHR::FLOAT16,
        c_type: vk::ComponentTypeKHR::FLOAT32,
        result_type: vk::ComponentTypeKHR::FLOAT32,
        saturating_accumulation: vk::FALSE,
        scope: vk::ScopeKHR::WORKGROUP,
        workgroup_invocations: 0,
    };
    let mut listed = vec![empty; count as usize];
    // SAFETY: as above; `count` is the buffer's length.
    let filled = unsafe { query(physical, &mut count, listed.as_mut_ptr()) };
    if counted != vk::Result::SUCCESS || filled != vk::Result::SUCCESS {
        return Err(format!(
            "the flexible-dimensions query failed: {counted:?}, {filled:?}"
        ));
    }
    listed.truncate(count as usize);
    use vk::ComponentTypeKHR as Component;
    let elements = |p: &FlexibleDimensions| match (p.a_type, p.b_type, p.c_type, p.result_type) {
        (Component::FLOAT16, Component::FLOAT16, Component::FLOAT32, Component::FLOAT32) => {
            Some((Operands::F16, Accumulate::F32))
        }
        (Component::FLOAT16, Component::FLOAT16, Component::FLOAT16, Component::FLOAT16) => {
            Some((Operands::F16, Accumulate::F16))
        }
        (BFLOAT16, BFLOAT16, Component::FLOAT32, Component::FLOAT32) => {
            Some((Operands::Bf16, Accumulate::F32))
        }
        _ => None,
    };
    Ok(listed
        .iter()
        .filter(|p| p.scope == vk::ScopeKHR::WORKGROUP && p.saturating_accumulation == vk::FALSE)
        .filter_map(|p| {
            let (operands, accumulate) = elements(p)?;
            Some(Granularity {
                m: p.m_granularity as usize,
                n: p.n_granularity as usize,
                k: p.k_granularity as usize,
                invocations: p.workgroup_invocations as usize,
                operands,
                accumulate,
            })
        })
        .collect())
}
