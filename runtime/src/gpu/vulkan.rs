//! A device with `VK_NV_cooperative_matrix2` (workgroup-scope cooperative matrices, flexible
//! dimensions, tensor addressing), which wgpu does not know: opened through wgpu-hal's
//! device-creation callback, which adds the extension and its feature structure, on Vulkan
//! adapters whose driver lists it (NVIDIA's). The f16 GEMM's fastest kernel runs on it
//! ([`WorkgroupMatrices`](super::WorkgroupMatrices)).
//!
//! ash 0.38 (wgpu-hal's) predates the extension, so its two structures are declared here as
//! the Vulkan headers give them.

use super::cooperative::{Accumulate, Granularity};
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

const EXTENSION: &std::ffi::CStr = c"VK_NV_cooperative_matrix2";
const FEATURES: vk::StructureType = vk::StructureType::from_raw(1_000_593_000);
const FLEXIBLE_DIMENSIONS: vk::StructureType = vk::StructureType::from_raw(1_000_593_001);

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

/// A device opened with the extension, and the f16 × f16 workgroup-scope shapes its
/// driver lists; or why not (the adapter is not Vulkan, the driver lacks the extension or a
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
        let shapes = granularities(&hal_adapter)?;
        if !shapes.iter().any(|g| g.accumulate == Accumulate::F32) {
            return Err("the driver lists no f16 × f16 → f32 workgroup-scope matrices".to_owned());
        }
        let mut enable = Features::new(vk::TRUE);
        let callback = Box::new(|args: hal::vulkan::CreateDeviceCallbackArgs| {
            args.extensions.push(EXTENSION);
            enable.p_next = args.create_info.p_next.cast_mut();
            args.create_info.p_next = (&raw const enable).cast();
        });
        // SAFETY: the callback adds one extension the driver lists and, at the head of the
        // creation's chain, one feature structure (of the layout the Vulkan headers give,
        // borrowed for the whole call) enabling three features `granularities` found
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

/// The driver's workgroup-scope matrix shapes for f16 × f16 operands summed in f32 or f16,
/// where it supports the three features the kernel needs; an error where it does not.
fn granularities(adapter: &hal::vulkan::Adapter) -> Result<Vec<Granularity>, String> {
    let shared = adapter.shared_instance();
    let (entry, instance) = (shared.entry(), shared.raw_instance());
    let physical = adapter.raw_physical_device();
    let mut supported = Features::new(vk::FALSE);
    let mut features = vk::PhysicalDeviceFeatures2 {
        p_next: (&raw mut supported).cast(),
        ..Default::default()
    };
    // SAFETY: a features query with one extension structure, both alive for the call.
    unsafe { instance.get_physical_device_features2(physical, &mut features) };
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
    let sums = |p: &FlexibleDimensions| match (p.c_type, p.result_type) {
        (vk::ComponentTypeKHR::FLOAT32, vk::ComponentTypeKHR::FLOAT32) => Some(Accumulate::F32),
        (vk::ComponentTypeKHR::FLOAT16, vk::ComponentTypeKHR::FLOAT16) => Some(Accumulate::F16),
        _ => None,
    };
    Ok(listed
        .iter()
        .filter(|p| {
            p.scope == vk::ScopeKHR::WORKGROUP
                && [p.a_type, p.b_type] == [vk::ComponentTypeKHR::FLOAT16; 2]
                && p.saturating_accumulation == vk::FALSE
        })
        .filter_map(|p| {
            Some(Granularity {
                m: p.m_granularity as usize,
                n: p.n_granularity as usize,
                k: p.k_granularity as usize,
                invocations: p.workgroup_invocations as usize,
                accumulate: sums(p)?,
            })
        })
        .collect())
}
