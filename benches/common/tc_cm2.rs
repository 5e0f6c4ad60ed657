//! Issue 25's design e: the product on **workgroup-scope** cooperative matrices
//! (`VK_NV_cooperative_matrix2`), the route llama.cpp's Vulkan backend takes on NVIDIA.
//!
//! One workgroup computes a `bm × bn` tile of C as one accumulator matrix of the whole
//! workgroup; each step loads A's `bm × bk` slice and B's `bk × bn` slice straight from the
//! storage buffers through tensor layouts (`OpCooperativeMatrixLoadTensorNV`) and multiplies
//! them in; the driver chooses how the matrices are spread over the subgroups and how the
//! loads are staged, which designs a–d had to write by hand in WGSL. Neither WGSL nor naga 30 has these operations, so the
//! kernel is written here as SPIR-V words and passed through wgpu, on a device opened with
//! the extension and its features (wgpu-hal's device-creation callback).
//!
//! A is `m × k` and B `k × n` f16, C `m × n` f32, all row-major, at bindings 0, 1 and 2
//! (`tc_probe`'s harness); the raster ([`Design::group`]) says which workgroup computes
//! which tile. Every shape is a multiple of the tile: the layouts clamp nothing.

use swizzle::gpu::wgpu;
use wgpu::hal;

/// A design: the workgroup's tile of C (`bm × bn`), k per load (`bk`), the steps written out
/// per loop iteration (`unroll`, fewer where k is short), the workgroup's invocations and
/// the raster: `group` 0 dispatches the tiles as a grid (x along n, y along m), `group` g
/// dispatches them in a line, g rows of tiles at a time, down each column of the g rows
/// before the next (so the workgroups in flight share A's rows and B's columns in L2).
#[derive(Clone, Copy, Debug)]
pub struct Design {
    pub bm: u32,
    pub bn: u32,
    pub bk: u32,
    pub unroll: u32,
    pub threads: u32,
    pub group: u32,
    /// Loads marked 16-byte aligned (`Aligned 16`: every slice starts on a multiple of 8
    /// elements in a row of a multiple of 8).
    pub aligned: bool,
    /// Each step's A and B loaded one step ahead, before the step's multiply-add.
    pub prefetch: bool,
}

/// The designs `-- stream` runs (label, design).
pub fn designs() -> Vec<(&'static str, Design)> {
    let d = |bm, bn, bk, unroll, threads| Design {
        bm,
        bn,
        bk,
        unroll,
        threads,
        group: 0,
        aligned: false,
        prefetch: false,
    };
    let ahead = |design: Design| Design {
        prefetch: true,
        ..design
    };
    let aligned = |design: Design| Design {
        aligned: true,
        ..design
    };
    let grouped = |design: Design, group| Design { group, ..design };
    vec![
        (
            "e1: workgroup-scope matrices (cooperative_matrix2), 128×256 of C, 64 of k, 256 invocations",
            d(128, 256, 64, 4, 256),
        ),
        ("e2: e1 at 128×128 of C", d(128, 128, 64, 4, 256)),
        ("e3: e1 at 256×128 of C", d(256, 128, 64, 4, 256)),
        ("e4: e1 with 32 of k", d(128, 256, 32, 8, 256)),
        ("e5: e1 without unrolling", d(128, 256, 64, 1, 256)),
        ("e6: e2 with 128 invocations", d(128, 128, 64, 4, 128)),
        ("e7: 256×256 of C, 32 of k", d(256, 256, 32, 4, 256)),
        (
            "e8: e4 in groups of 8 rows of tiles",
            grouped(d(128, 256, 32, 8, 256), 8),
        ),
        (
            "e9: e4 in groups of 16 rows of tiles",
            grouped(d(128, 256, 32, 8, 256), 16),
        ),
        ("e10: e4 with 16 of k", d(128, 256, 16, 16, 256)),
        ("e11: e4 unrolled twice", d(128, 256, 32, 2, 256)),
        (
            "e12: e4 in groups of 4 rows of tiles",
            grouped(d(128, 256, 32, 8, 256), 4),
        ),
        ("e13: 64×256 of C, 32 of k", d(64, 256, 32, 8, 256)),
        (
            "e14: 128×128 of C, 32 of k, groups of 8",
            grouped(d(128, 128, 32, 8, 256), 8),
        ),
        (
            "e15: 128×256 of C, 32 of k, 128 invocations",
            d(128, 256, 32, 8, 128),
        ),
        (
            "e16: e4 with loads marked 16-byte aligned",
            aligned(d(128, 256, 32, 8, 256)),
        ),
        ("e17: e4 unrolled 16 times", d(128, 256, 32, 16, 256)),
        ("e18: 256×128 of C, 32 of k", d(256, 128, 32, 8, 256)),
        (
            "e19: e1 (64 of k) aligned, groups of 8",
            grouped(aligned(d(128, 256, 64, 4, 256)), 8),
        ),
        (
            "e20: e2 (128×128, 64 of k) aligned, groups of 8",
            grouped(aligned(d(128, 128, 64, 4, 256)), 8),
        ),
        ("e21: 128×256 of C, 128 of k", d(128, 256, 128, 2, 256)),
        (
            "e22: e4 loading one step ahead",
            ahead(d(128, 256, 32, 8, 256)),
        ),
        (
            "e23: e1 (64 of k) loading one step ahead",
            ahead(d(128, 256, 64, 4, 256)),
        ),
        ("e24: e22 unrolled twice", ahead(d(128, 256, 32, 2, 256))),
        (
            "e25: e22 unrolled 4 times, groups of 8",
            grouped(ahead(d(128, 256, 32, 4, 256)), 8),
        ),
        (
            "e26: e2 (128×128, 64 of k) loading one step ahead",
            ahead(d(128, 128, 64, 4, 256)),
        ),
    ]
}

impl Design {
    /// The dispatch for C of `m × n`: one workgroup per tile.
    pub fn groups(&self, m: usize, n: usize) -> [u32; 2] {
        let tiles = [n as u32 / self.bn, m as u32 / self.bm];
        match self.group_for(m as u32) {
            0 => tiles,
            _ => [tiles[0] * tiles[1], 1],
        }
    }

    /// The kernel's SPIR-V for A `m × k`, B `k × n` (nonzero multiples of the tile; `k` of
    /// `bk`).
    pub fn spirv(&self, [m, n, k]: [usize; 3]) -> Result<Vec<u32>, String> {
        let [m, n, k] = [m, n, k].map(|x| x as u32);
        if [m, n, k].contains(&0) || m % self.bm != 0 || n % self.bn != 0 || k % self.bk != 0 {
            return Err(format!(
                "{m} × {n} × {k} is not a (nonzero) multiple of {self:?}"
            ));
        }
        let mut unroll = self.unroll.min(k / self.bk);
        while k % (self.bk * unroll) != 0 {
            unroll -= 1;
        }
        let design = Design {
            group: self.group_for(m),
            ..*self
        };
        Ok(kernel(design, unroll, [m, n, k]))
    }

    /// The rows of tiles per group for C of `m` rows: the largest divisor of the tile rows
    /// up to `group` (0: the grid).
    fn group_for(&self, m: u32) -> u32 {
        let rows = m / self.bm;
        (1..=self.group.min(rows))
            .rev()
            .find(|&g| rows.is_multiple_of(g))
            .unwrap_or(0)
    }
}

/// The sections of a SPIR-V module, in the order the specification fixes.
#[derive(Clone, Copy)]
enum Section {
    Capability,
    Extension,
    MemoryModel,
    EntryPoint,
    ExecutionMode,
    Annotation,
    Global,
    Function,
}

/// A SPIR-V module being written: its sections, the last id handed out and the scalar
/// constants defined so far (one id per type and value).
#[derive(Default)]
struct Module {
    sections: [Vec<u32>; 8],
    bound: u32,
    constants: std::collections::HashMap<(u32, u32), u32>,
}

impl Module {
    fn id(&mut self) -> u32 {
        self.bound += 1;
        self.bound
    }

    /// Appends instruction `opcode` with `operands` to `section`.
    fn op(&mut self, section: Section, opcode: u16, operands: &[u32]) {
        let words = &mut self.sections[section as usize];
        words.push(((operands.len() as u32 + 1) << 16) | u32::from(opcode));
        words.extend_from_slice(operands);
    }

    /// A new id defined by `opcode` in `section` (result-type operands first, as given).
    fn def(&mut self, section: Section, opcode: u16, ty: Option<u32>, operands: &[u32]) -> u32 {
        let id = self.id();
        let mut all: Vec<u32> = ty.into_iter().collect();
        all.push(id);
        all.extend_from_slice(operands);
        self.op(section, opcode, &all);
        id
    }

    /// The constant `value` of scalar type `ty`, defined at its first use.
    fn constant(&mut self, ty: u32, value: u32) -> u32 {
        if let Some(&id) = self.constants.get(&(ty, value)) {
            return id;
        }
        let id = self.def(Section::Global, 43, Some(ty), &[value]);
        self.constants.insert((ty, value), id);
        id
    }

    fn words(self) -> Vec<u32> {
        // Magic, SPIR-V 1.6, no generator, the bound, schema 0.
        let mut words = vec![0x0723_0203, 0x0001_0600, 0, self.bound + 1, 0];
        for section in self.sections {
            words.extend(section);
        }
        words
    }
}

/// A literal string operand: UTF-8, nul-terminated, in little-endian words.
fn string(s: &str) -> Vec<u32> {
    let mut bytes = s.as_bytes().to_vec();
    bytes.push(0);
    bytes.resize(bytes.len().div_ceil(4) * 4, 0);
    bytes
        .chunks_exact(4)
        .map(|w| u32::from_le_bytes(w.try_into().unwrap()))
        .collect()
}

/// The kernel of `design` for `[m, n, k]` with `unroll` steps per loop iteration.
fn kernel(design: Design, unroll: u32, [m, n, k]: [u32; 3]) -> Vec<u32> {
    use Section::*;
    let mut s = Module::default();
    // Shader, Float16, StorageBuffer16BitAccess, CooperativeMatrixKHR, TensorAddressingNV,
    // CooperativeMatrixTensorAddressingNV, and VulkanMemoryModel, which
    // SPV_KHR_cooperative_matrix requires beside Shader (core in SPIR-V 1.5; wgpu enables
    // the device's `vulkanMemoryModel` with cooperative matrices, as naga's modules need it).
    for capability in [1, 9, 4433, 6022, 5439, 5433, 5345] {
        s.op(Capability, 17, &[capability]);
    }
    for extension in [
        "SPV_KHR_cooperative_matrix",
        "SPV_NV_cooperative_matrix2",
        "SPV_NV_tensor_addressing",
    ] {
        s.op(Extension, 10, &string(extension));
    }
    s.op(MemoryModel, 14, &[0, 3]); // Logical Vulkan

    // Types and constants.
    let void = s.def(Global, 19, None, &[]);
    let bool_ = s.def(Global, 20, None, &[]);
    let u32_ = s.def(Global, 21, None, &[32, 0]);
    let f16_ = s.def(Global, 22, None, &[16]);
    let f32_ = s.def(Global, 22, None, &[32]);
    let v3u = s.def(Global, 23, None, &[u32_, 3]);
    let fn_void = s.def(Global, 33, None, &[void]);
    let c = |s: &mut Module, v: u32| s.constant(u32_, v);
    let [c0, c1, c2] = [0, 1, 2].map(|v| c(&mut s, v));
    let [bm, bn, bk] = [design.bm, design.bn, design.bk].map(|v| c(&mut s, v));
    let [cm, cn, ck] = [m, n, k].map(|v| c(&mut s, v));
    let steps: Vec<u32> = (0..unroll).map(|u| c(&mut s, u * design.bk)).collect();
    let step = c(&mut s, unroll * design.bk);
    let workgroup = c(&mut s, 2); // Scope Workgroup
    let [use_a, use_b, use_c] = [0, 1, 2].map(|v| c(&mut s, v));
    let mat_a = s.def(Global, 4456, None, &[f16_, workgroup, bm, bk, use_a]);
    let mat_b = s.def(Global, 4456, None, &[f16_, workgroup, bk, bn, use_b]);
    let mat_c = s.def(Global, 4456, None, &[f32_, workgroup, bm, bn, use_c]);
    let f16_zero = s.constant(f16_, 0);
    let f32_zero = s.constant(f32_, 0);
    let zero_a = s.def(Global, 44, Some(mat_a), &[f16_zero]);
    let zero_b = s.def(Global, 44, Some(mat_b), &[f16_zero]);
    let zero_c = s.def(Global, 44, Some(mat_c), &[f32_zero]);
    let clamp_undefined = c(&mut s, 0);
    let layout = s.def(Global, 5370, None, &[c2, clamp_undefined]);

    // The buffers: A and B of f16, C of f32, each a block of one runtime array.
    let buffer = |s: &mut Module, element: u32, stride: u32, binding: u32, read_only: bool| {
        let array = s.def(Global, 29, None, &[element]);
        s.op(Annotation, 71, &[array, 6, stride]); // ArrayStride
        let block = s.def(Global, 30, None, &[array]);
        s.op(Annotation, 71, &[block, 2]); // Block
        s.op(Annotation, 72, &[block, 0, 35, 0]); // member 0 Offset 0
        if read_only {
            s.op(Annotation, 72, &[block, 0, 24]); // NonWritable
        }
        let pointer = s.def(Global, 32, None, &[12, block]); // StorageBuffer
        let variable = s.def(Global, 59, Some(pointer), &[12]);
        s.op(Annotation, 71, &[variable, 34, 0]); // DescriptorSet 0
        s.op(Annotation, 71, &[variable, 33, binding]);
        let element_pointer = s.def(Global, 32, None, &[12, element]);
        (variable, element_pointer)
    };
    let (a, a_elem) = buffer(&mut s, f16_, 2, 0, true);
    let (b, b_elem) = buffer(&mut s, f16_, 2, 1, true);
    let (cc, c_elem) = buffer(&mut s, f32_, 4, 2, false);
    let v3u_in = s.def(Global, 32, None, &[1, v3u]); // Input
    let group_id = s.def(Global, 59, Some(v3u_in), &[1]);
    s.op(Annotation, 71, &[group_id, 11, 26]); // BuiltIn WorkgroupId
    let u32_fn = s.def(Global, 32, None, &[7, u32_]); // Function
    let mat_c_fn = s.def(Global, 32, None, &[7, mat_c]);

    // The function.
    let main = s.id();
    let mut entry = vec![5, main];
    entry.extend(string("main"));
    entry.extend([group_id, a, b, cc]);
    s.op(EntryPoint, 15, &entry);
    s.op(ExecutionMode, 16, &[main, 17, design.threads, 1, 1]); // LocalSize
    s.op(Function, 54, &[void, main, 0, fn_void]);
    let labels: [u32; 6] = std::array::from_fn(|_| s.id());
    let [start, header, check, body, next, merge] = labels;
    s.op(Function, 248, &[start]);
    let acc_var = s.def(Function, 59, Some(mat_c_fn), &[7]);
    let k_var = s.def(Function, 59, Some(u32_fn), &[7]);
    // The operands loaded ahead (designs with `prefetch`).
    let mat_a_fn = s.def(Global, 32, None, &[7, mat_a]);
    let mat_b_fn = s.def(Global, 32, None, &[7, mat_b]);
    let (ahead_a, ahead_b) = match design.prefetch {
        true => (
            s.def(Function, 59, Some(mat_a_fn), &[7]),
            s.def(Function, 59, Some(mat_b_fn), &[7]),
        ),
        false => (0, 0),
    };
    let group = s.def(Function, 61, Some(v3u), &[group_id]);
    let gx = s.def(Function, 81, Some(u32_), &[group, 0]);
    let gy = s.def(Function, 81, Some(u32_), &[group, 1]);
    // The tile's row and column: the grid's, or the line's through groups of rows.
    let (tile_m, tile_n) = match design.group {
        0 => (gy, gx),
        g => {
            let [per, rows] = [g * (n / design.bn), g].map(|v| c(&mut s, v));
            let group = s.def(Function, 134, Some(u32_), &[gx, per]);
            let within = s.def(Function, 137, Some(u32_), &[gx, per]);
            let first = s.def(Function, 132, Some(u32_), &[group, rows]);
            let row = s.def(Function, 137, Some(u32_), &[within, rows]);
            let tile_m = s.def(Function, 128, Some(u32_), &[first, row]);
            let tile_n = s.def(Function, 134, Some(u32_), &[within, rows]);
            (tile_m, tile_n)
        }
    };
    let n0 = s.def(Function, 132, Some(u32_), &[tile_n, bn]);
    let m0 = s.def(Function, 132, Some(u32_), &[tile_m, bm]);
    // Tensor layouts: dimensions (rows, columns), strides (row length, 1).
    let tensor = |s: &mut Module, rows: u32, cols: u32| {
        let t = s.def(Function, 5372, Some(layout), &[]);
        let t = s.def(Function, 5373, Some(layout), &[t, rows, cols]);
        s.def(Function, 5374, Some(layout), &[t, cols, c1])
    };
    let ta = tensor(&mut s, cm, ck);
    let tb = tensor(&mut s, ck, cn);
    let tc = tensor(&mut s, cm, cn);
    let pa = s.def(Function, 65, Some(a_elem), &[a, c0, c0]);
    let pb = s.def(Function, 65, Some(b_elem), &[b, c0, c0]);
    let pc = s.def(Function, 65, Some(c_elem), &[cc, c0, c0]);
    // A tensor load's operands: pointer, object, layout, memory operands (`Aligned 16` where
    // the design says so), no tensor-addressing operands.
    let load = |pointer, object, slice| match design.aligned {
        true => vec![pointer, object, slice, 2, 16, 0],
        false => vec![pointer, object, slice, 0, 0],
    };
    // A's and B's matrices at step `kk`.
    let operands = |s: &mut Module, kk: u32| {
        let slice_a = s.def(Function, 5375, Some(layout), &[ta, m0, bm, kk, bk]);
        let fa = s.def(Function, 5367, Some(mat_a), &load(pa, zero_a, slice_a));
        let slice_b = s.def(Function, 5375, Some(layout), &[tb, kk, bk, n0, bn]);
        let fb = s.def(Function, 5367, Some(mat_b), &load(pb, zero_b, slice_b));
        (fa, fb)
    };
    // `steps.len()` steps from `k0`: each loads its operands (or takes those loaded ahead
    // and loads the next step's, but for the very last step), then multiplies them in.
    let iteration = |s: &mut Module, k0: u32, last: bool| {
        let mut acc = s.def(Function, 61, Some(mat_c), &[acc_var]);
        let mut current = match design.prefetch {
            true => Some((
                s.def(Function, 61, Some(mat_a), &[ahead_a]),
                s.def(Function, 61, Some(mat_b), &[ahead_b]),
            )),
            false => None,
        };
        for (j, &offset) in steps.iter().enumerate() {
            let (fa, fb) = match current {
                Some(loaded) => {
                    let following = steps.get(j + 1).copied().unwrap_or(step);
                    if !(last && j + 1 == steps.len()) {
                        let kk = s.def(Function, 128, Some(u32_), &[k0, following]);
                        current = Some(operands(s, kk));
                    }
                    loaded
                }
                None => {
                    let kk = s.def(Function, 128, Some(u32_), &[k0, offset]);
                    operands(s, kk)
                }
            };
            acc = s.def(Function, 4459, Some(mat_c), &[fa, fb, acc]);
        }
        s.op(Function, 62, &[acc_var, acc]);
        if let (Some((fa, fb)), false) = (current, last) {
            s.op(Function, 62, &[ahead_a, fa]);
            s.op(Function, 62, &[ahead_b, fb]);
        }
    };
    s.op(Function, 62, &[acc_var, zero_c]);
    s.op(Function, 62, &[k_var, c0]);
    if design.prefetch {
        let (fa, fb) = operands(&mut s, c0);
        s.op(Function, 62, &[ahead_a, fa]);
        s.op(Function, 62, &[ahead_b, fb]);
    }
    s.op(Function, 249, &[header]);

    // With loads ahead, the loop stops one iteration early: the last one, after it, loads
    // nothing beyond k.
    let last_start = design.prefetch.then(|| c(&mut s, k - unroll * design.bk));
    let bound = last_start.unwrap_or(ck);
    s.op(Function, 248, &[header]);
    s.op(Function, 246, &[merge, next, 0]);
    s.op(Function, 249, &[check]);
    s.op(Function, 248, &[check]);
    let k0 = s.def(Function, 61, Some(u32_), &[k_var]);
    let more = s.def(Function, 176, Some(bool_), &[k0, bound]);
    s.op(Function, 250, &[more, body, merge]);

    s.op(Function, 248, &[body]);
    iteration(&mut s, k0, false);
    s.op(Function, 249, &[next]);

    s.op(Function, 248, &[next]);
    let k1 = s.def(Function, 128, Some(u32_), &[k0, step]);
    s.op(Function, 62, &[k_var, k1]);
    s.op(Function, 249, &[header]);

    s.op(Function, 248, &[merge]);
    if let Some(last_start) = last_start {
        iteration(&mut s, last_start, true);
    }
    let sum = s.def(Function, 61, Some(mat_c), &[acc_var]);
    let slice_c = s.def(Function, 5375, Some(layout), &[tc, m0, bm, n0, bn]);
    s.op(Function, 5368, &[pc, sum, slice_c, 0, 0]);
    s.op(Function, 253, &[]);
    s.op(Function, 56, &[]);
    s.words()
}

/// `VkPhysicalDeviceCooperativeMatrix2FeaturesNV` (ash 0.38 predates the extension).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
struct Features2Nv {
    s_type: i32,
    p_next: *mut std::ffi::c_void,
    workgroup_scope: u32,
    flexible_dimensions: u32,
    reductions: u32,
    conversions: u32,
    per_element_operations: u32,
    tensor_addressing: u32,
    block_loads: u32,
}

/// `VkCooperativeMatrixFlexibleDimensionsPropertiesNV`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
struct FlexibleDimensions {
    s_type: i32,
    p_next: *mut std::ffi::c_void,
    m_granularity: u32,
    n_granularity: u32,
    k_granularity: u32,
    a_type: i32,
    b_type: i32,
    c_type: i32,
    result_type: i32,
    saturating_accumulation: u32,
    scope: i32,
    workgroup_invocations: u32,
}

const FEATURES_2_NV: i32 = 1_000_593_000;
const FLEXIBLE_DIMENSIONS_NV: i32 = 1_000_593_001;

/// A device with `VK_NV_cooperative_matrix2` (workgroup scope, flexible dimensions, tensor
/// addressing) besides f16, cooperative matrices and passthrough shaders; it prints what
/// the driver offers first. An error where the adapter is not Vulkan or lacks any of it.
pub fn device() -> Result<(wgpu::Device, wgpu::Queue), String> {
    let mut descriptor = wgpu::InstanceDescriptor::new_without_display_handle();
    descriptor.backends = wgpu::Backends::VULKAN;
    let instance = wgpu::Instance::new(descriptor);
    let adapter = pollster::block_on(instance.enumerate_adapters(wgpu::Backends::VULKAN))
        .into_iter()
        .min_by_key(|a| a.get_info().device_type != wgpu::DeviceType::DiscreteGpu)
        .ok_or("no Vulkan adapter")?;
    let features = wgpu::Features::SHADER_F16
        | wgpu::Features::EXPERIMENTAL_COOPERATIVE_MATRIX
        | wgpu::Features::PASSTHROUGH_SHADERS;
    if !adapter.features().contains(features) {
        return Err(format!(
            "the adapter lacks {:?}",
            features - adapter.features()
        ));
    }
    let limits = adapter.limits();
    let open = {
        // SAFETY: `as_hal` on the Vulkan backend this instance was made with; the guard is
        // dropped before the adapter is used through wgpu again.
        let hal_adapter =
            unsafe { adapter.as_hal::<hal::api::Vulkan>() }.ok_or("not a Vulkan adapter")?;
        let shared = hal_adapter.shared_instance();
        let (entry, raw) = (shared.entry(), shared.raw_instance());
        let physical = hal_adapter.raw_physical_device();
        // What the driver supports: the features, then the flexible dimensions.
        let mut supported = Features2Nv {
            s_type: FEATURES_2_NV,
            p_next: std::ptr::null_mut(),
            ..unsafe { std::mem::zeroed() }
        };
        let mut features2 = ash::vk::PhysicalDeviceFeatures2 {
            p_next: (&raw mut supported).cast(),
            ..Default::default()
        };
        // SAFETY: a features query with one extension structure of the layout the Vulkan
        // headers give; both outlive the call.
        unsafe { raw.get_physical_device_features2(physical, &mut features2) };
        println!("cooperative_matrix2 features: {supported:?}");
        if supported.workgroup_scope == 0
            || supported.flexible_dimensions == 0
            || supported.tensor_addressing == 0
        {
            return Err("no workgroup-scope, flexible or tensor-addressed matrices".into());
        }
        type Query = unsafe extern "system" fn(
            ash::vk::PhysicalDevice,
            *mut u32,
            *mut FlexibleDimensions,
        ) -> ash::vk::Result;
        // SAFETY: the instance-level entry point the extension defines, looked up by name.
        let query = unsafe {
            entry.get_instance_proc_addr(
                raw.handle(),
                c"vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV".as_ptr(),
            )
        }
        .ok_or("no vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV")?;
        // SAFETY: the pointer is that function, of this signature.
        let query: Query = unsafe { std::mem::transmute(query) };
        let mut count = 0;
        // SAFETY: the count query, then a buffer of that many structures, sType set.
        let counted = unsafe { query(physical, &mut count, std::ptr::null_mut()) };
        let mut properties = vec![
            FlexibleDimensions {
                s_type: FLEXIBLE_DIMENSIONS_NV,
                p_next: std::ptr::null_mut(),
                ..unsafe { std::mem::zeroed() }
            };
            count as usize
        ];
        let listed = unsafe { query(physical, &mut count, properties.as_mut_ptr()) };
        if counted != ash::vk::Result::SUCCESS || listed != ash::vk::Result::SUCCESS {
            return Err(format!(
                "flexible dimensions query: {counted:?}, {listed:?}"
            ));
        }
        for p in &properties[..count as usize] {
            println!(
                "flexible: granularity {}×{}×{}, types A {} B {} C {} result {}, scope {}, {} invocations",
                p.m_granularity,
                p.n_granularity,
                p.k_granularity,
                p.a_type,
                p.b_type,
                p.c_type,
                p.result_type,
                p.scope,
                p.workgroup_invocations
            );
        }
        // The features to enable: the three the kernels use. Leaked: the device-creation
        // callback's chain must outlive the call, and this runs once per kernel.
        let enable: &'static mut Features2Nv = Box::leak(Box::new(Features2Nv {
            s_type: FEATURES_2_NV,
            p_next: std::ptr::null_mut(),
            workgroup_scope: 1,
            flexible_dimensions: 1,
            reductions: 0,
            conversions: 0,
            per_element_operations: 0,
            tensor_addressing: 1,
            block_loads: 0,
        }));
        let callback = Box::new(move |args: hal::vulkan::CreateDeviceCallbackArgs| {
            args.extensions.push(c"VK_NV_cooperative_matrix2");
            enable.p_next = args.create_info.p_next as *mut _;
            args.create_info.p_next = (enable as *const Features2Nv).cast();
        });
        // SAFETY: the callback adds one extension the driver lists and one feature
        // structure whose features it reports supported; nothing is removed.
        unsafe {
            hal_adapter.open_with_callback(
                features,
                &limits,
                &wgpu::MemoryHints::Performance,
                Some(callback),
            )
        }
        .map_err(|e| format!("opening the device: {e}"))?
    };
    // SAFETY: the hal device was opened from this adapter with exactly these features.
    unsafe {
        adapter.create_device_from_hal(
            open,
            &wgpu::DeviceDescriptor {
                label: Some("tc_cm2"),
                required_features: features,
                required_limits: limits,
                experimental_features: wgpu::ExperimentalFeatures::enabled(),
                ..Default::default()
            },
        )
    }
    .map_err(|e| e.to_string())
}
