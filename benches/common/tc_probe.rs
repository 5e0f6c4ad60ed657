//! Probes of cooperative-matrix WGSL on the adapter: each variant of one 16 × 16 × 16
//! product compiled and run on a fresh device, its C checked against the CPU. Which of
//! naga's cooperative-matrix constructs the driver takes (`NVVM compilation failed` loses
//! the device). Part of `tensor_gemm`'s device call: `tensor_gemm probe`.

use swizzle::gpu::wgpu;
use swizzle::gpu::{Gpu, f16};

const HEAD: &str = "enable f16;\nenable wgpu_cooperative_matrix;\n";

/// The variants: (label, WGSL). A and B are 16 × 16 f16 row-major, C 16 × 16 f32.
pub fn variants() -> Vec<(&'static str, String)> {
    let storage_f16 = "@group(0) @binding(0) var<storage, read> a: array<f16>;
@group(0) @binding(1) var<storage, read> b: array<f16>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;\n";
    let storage_u32 = "@group(0) @binding(0) var<storage, read> a: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read> b: array<vec4<u32>>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;\n";
    let storage_vec4 = "@group(0) @binding(0) var<storage, read> a: array<vec4<f16>>;
@group(0) @binding(1) var<storage, read> b: array<vec4<f16>>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;\n";
    vec![
        (
            "storage vec4<f16> → storage f32 (the direct loads)",
            format!(
                "{HEAD}{storage_vec4}
@compute @workgroup_size(32)
fn main() {{
    let fa = coopLoadT<coop_mat16x16<f16, A>>(&a[0], 4u);
    let fb = coopLoadT<coop_mat16x16<f16, B>>(&b[0], 4u);
    var acc = coop_mat16x16<f32, C>();
    acc = coopMultiplyAdd(fa, fb, acc);
    coopStoreT(acc, &c[0], 16u);
}}"
            ),
        ),
        (
            "storage f16 → storage f32, zero constructor",
            format!(
                "{HEAD}{storage_f16}
@compute @workgroup_size(32)
fn main() {{
    let fa = coopLoadT<coop_mat16x16<f16, A>>(&a[0], 16u);
    let fb = coopLoadT<coop_mat16x16<f16, B>>(&b[0], 16u);
    var acc = coop_mat16x16<f32, C>();
    acc = coopMultiplyAdd(fa, fb, acc);
    coopStoreT(acc, &c[0], 16u);
}}"
            ),
        ),
        (
            "storage f16 → storage f32, accumulator loaded from C",
            format!(
                "{HEAD}{storage_f16}
@compute @workgroup_size(32)
fn main() {{
    let fa = coopLoadT<coop_mat16x16<f16, A>>(&a[0], 16u);
    let fb = coopLoadT<coop_mat16x16<f16, B>>(&b[0], 16u);
    var acc = coopLoadT<coop_mat16x16<f32, C>>(&c[0], 16u);
    acc = coopMultiplyAdd(fa, fb, acc);
    coopStoreT(acc, &c[0], 16u);
}}"
            ),
        ),
        (
            "workgroup array<f16> tiles (stride 24)",
            format!(
                "{HEAD}{storage_f16}var<workgroup> at: array<f16, 384>;
var<workgroup> bt: array<f16, 384>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) lane: u32) {{
    for (var i = 0u; i < 8u; i++) {{
        let e = lane * 8u + i;
        at[e / 16u * 24u + e % 16u] = a[e];
        bt[e / 16u * 24u + e % 16u] = b[e];
    }}
    workgroupBarrier();
    let fa = coopLoadT<coop_mat16x16<f16, A>>(&at[0], 24u);
    let fb = coopLoadT<coop_mat16x16<f16, B>>(&bt[0], 24u);
    var acc = coop_mat16x16<f32, C>();
    acc = coopMultiplyAdd(fa, fb, acc);
    coopStoreT(acc, &c[0], 16u);
}}"
            ),
        ),
        (
            "workgroup array<vec4<f16>> tiles (stride 6)",
            format!(
                "{HEAD}{storage_f16}var<workgroup> at: array<vec4<f16>, 96>;
var<workgroup> bt: array<vec4<f16>, 96>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) lane: u32) {{
    for (var i = 0u; i < 2u; i++) {{
        let q = lane * 2u + i;
        let e = q * 4u;
        at[q / 4u * 6u + q % 4u] = vec4(a[e], a[e + 1u], a[e + 2u], a[e + 3u]);
        bt[q / 4u * 6u + q % 4u] = vec4(b[e], b[e + 1u], b[e + 2u], b[e + 3u]);
    }}
    workgroupBarrier();
    let fa = coopLoadT<coop_mat16x16<f16, A>>(&at[0], 6u);
    let fb = coopLoadT<coop_mat16x16<f16, B>>(&bt[0], 6u);
    var acc = coop_mat16x16<f32, C>();
    acc = coopMultiplyAdd(fa, fb, acc);
    coopStoreT(acc, &c[0], 16u);
}}"
            ),
        ),
        (
            "workgroup array<vec4<u32>> tiles (stride 3), storage f32 C",
            format!(
                "{HEAD}{storage_u32}var<workgroup> at: array<vec4<u32>, 48>;
var<workgroup> bt: array<vec4<u32>, 48>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) lane: u32) {{
    at[lane / 2u * 3u + lane % 2u] = a[lane];
    bt[lane / 2u * 3u + lane % 2u] = b[lane];
    workgroupBarrier();
    let fa = coopLoadT<coop_mat16x16<f16, A>>(&at[0], 3u);
    let fb = coopLoadT<coop_mat16x16<f16, B>>(&bt[0], 3u);
    var acc = coop_mat16x16<f32, C>();
    acc = coopMultiplyAdd(fa, fb, acc);
    coopStoreT(acc, &c[0], 16u);
}}"
            ),
        ),
        (
            "storage vec4<u32> A/B straight (stride 2)",
            format!(
                "{HEAD}{storage_u32}
@compute @workgroup_size(32)
fn main() {{
    let fa = coopLoadT<coop_mat16x16<f16, A>>(&a[0], 2u);
    let fb = coopLoadT<coop_mat16x16<f16, B>>(&b[0], 2u);
    var acc = coop_mat16x16<f32, C>();
    acc = coopMultiplyAdd(fa, fb, acc);
    coopStoreT(acc, &c[0], 16u);
}}"
            ),
        ),
        (
            "16-byte copies: storage array<mat2x4<f16>> into workgroup array<vec4<f16>> (stride 6)",
            format!(
                "{HEAD}@group(0) @binding(0) var<storage, read> a: array<mat2x4<f16>>;
@group(0) @binding(1) var<storage, read> b: array<mat2x4<f16>>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;
var<workgroup> at: array<vec4<f16>, 96>;
var<workgroup> bt: array<vec4<f16>, 96>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) lane: u32) {{
    let ma = a[lane];
    let mb = b[lane];
    let q = lane * 2u;
    at[q / 4u * 6u + q % 4u] = ma[0];
    at[q / 4u * 6u + q % 4u + 1u] = ma[1];
    bt[q / 4u * 6u + q % 4u] = mb[0];
    bt[q / 4u * 6u + q % 4u + 1u] = mb[1];
    workgroupBarrier();
    let fa = coopLoadT<coop_mat16x16<f16, A>>(&at[0], 6u);
    let fb = coopLoadT<coop_mat16x16<f16, B>>(&bt[0], 6u);
    var acc = coop_mat16x16<f32, C>();
    acc = coopMultiplyAdd(fa, fb, acc);
    coopStoreT(acc, &c[0], 16u);
}}"
            ),
        ),
        (
            "16-byte copies: storage and workgroup array<mat2x4<f16>>, loads from the tile as vec4<f16> via a second view: not expressible (WGSL has no aliasing); tile of mat2x4 read by coopLoadT",
            format!(
                "{HEAD}@group(0) @binding(0) var<storage, read> a: array<mat2x4<f16>>;
@group(0) @binding(1) var<storage, read> b: array<mat2x4<f16>>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;
var<workgroup> at: array<mat2x4<f16>, 48>;
var<workgroup> bt: array<mat2x4<f16>, 48>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) lane: u32) {{
    at[lane / 2u * 3u + lane % 2u] = a[lane];
    bt[lane / 2u * 3u + lane % 2u] = b[lane];
    workgroupBarrier();
    let fa = coopLoadT<coop_mat16x16<f16, A>>(&at[0][0][0], 24u);
    let fb = coopLoadT<coop_mat16x16<f16, B>>(&bt[0][0][0], 24u);
    var acc = coop_mat16x16<f32, C>();
    acc = coopMultiplyAdd(fa, fb, acc);
    coopStoreT(acc, &c[0], 16u);
}}"
            ),
        ),
        (
            "storage f16, stage workgroup array<vec4<f32>> (stride 5)",
            format!(
                "{HEAD}{storage_f16}var<workgroup> st: array<vec4<f32>, 80>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) lane: u32) {{
    let fa = coopLoadT<coop_mat16x16<f16, A>>(&a[0], 16u);
    let fb = coopLoadT<coop_mat16x16<f16, B>>(&b[0], 16u);
    var acc = coop_mat16x16<f32, C>();
    acc = coopMultiplyAdd(fa, fb, acc);
    coopStoreT(acc, &st[0], 5u);
    workgroupBarrier();
    for (var i = 0u; i < 2u; i++) {{
        let q = lane * 2u + i;
        let v = st[q / 4u * 5u + q % 4u];
        let e = q * 4u;
        c[e] = v.x; c[e + 1u] = v.y; c[e + 2u] = v.z; c[e + 3u] = v.w;
    }}
}}"
            ),
        ),
        (
            "storage f16, stage workgroup array<f32> (stride 20)",
            format!(
                "{HEAD}{storage_f16}var<workgroup> st: array<f32, 320>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) lane: u32) {{
    let fa = coopLoadT<coop_mat16x16<f16, A>>(&a[0], 16u);
    let fb = coopLoadT<coop_mat16x16<f16, B>>(&b[0], 16u);
    var acc = coop_mat16x16<f32, C>();
    acc = coopMultiplyAdd(fa, fb, acc);
    coopStoreT(acc, &st[0], 20u);
    workgroupBarrier();
    for (var i = 0u; i < 8u; i++) {{
        let e = lane * 8u + i;
        c[e] = st[e / 16u * 20u + e % 16u];
    }}
}}"
            ),
        ),
    ]
}

/// Runs each variant on a fresh device; prints what happened.
pub fn run_all() {
    let a: Vec<f32> = (0..256).map(|i| ((i * 7 + 3) % 9) as f32 - 4.0).collect();
    let b: Vec<f32> = (0..256).map(|i| ((i * 5 + 1) % 9) as f32 - 4.0).collect();
    let expected: Vec<f32> = (0..256)
        .map(|x| {
            (0..16)
                .map(|p| a[x / 16 * 16 + p] * b[p * 16 + x % 16])
                .sum()
        })
        .collect();
    let halves: Vec<u8> = a
        .iter()
        .flat_map(|&x| f16::from_f32(x).to_bits().to_le_bytes())
        .collect();
    let b_halves: Vec<u8> = b
        .iter()
        .flat_map(|&x| f16::from_f32(x).to_bits().to_le_bytes())
        .collect();
    for (label, wgsl) in variants() {
        let outcome = std::panic::catch_unwind(|| one(&wgsl, &halves, &b_halves, &expected));
        match outcome {
            Ok(result) => println!("probe [{label}]: {result}"),
            Err(_) => println!("probe [{label}]: panicked"),
        }
    }
}

fn one(wgsl: &str, a: &[u8], b: &[u8], expected: &[f32]) -> String {
    use wgpu::util::DeviceExt;
    let gpu = match Gpu::new() {
        Ok(gpu) => gpu,
        Err(e) => return format!("no device: {e}"),
    };
    let device = gpu.device();
    let errors = std::sync::Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
    let sink = errors.clone();
    device.on_uncaptured_error(std::sync::Arc::new(move |e: wgpu::Error| {
        sink.lock().unwrap().push(e.to_string())
    }));
    let storage = |bytes: &[u8]| {
        device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: None,
            contents: bytes,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        })
    };
    let (ab, bb) = (storage(a), storage(b));
    let cb = storage(&[0u8; 1024]);
    let staging = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: 1024,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: None,
        source: wgpu::ShaderSource::Wgsl(wgsl.into()),
    });
    let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: None,
        layout: None,
        module: &module,
        entry_point: Some("main"),
        compilation_options: Default::default(),
        cache: None,
    });
    if let Some(e) = errors.lock().unwrap().first() {
        return format!("pipeline error: {e}");
    }
    let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: None,
        layout: &pipeline.get_bind_group_layout(0),
        entries: &[
            wgpu::BindGroupEntry {
                binding: 0,
                resource: ab.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 1,
                resource: bb.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 2,
                resource: cb.as_entire_binding(),
            },
        ],
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, &group, &[]);
        pass.dispatch_workgroups(1, 1, 1);
    }
    encoder.copy_buffer_to_buffer(&cb, 0, &staging, 0, 1024);
    gpu.queue().submit([encoder.finish()]);
    staging.map_async(wgpu::MapMode::Read, .., |_| {});
    let _ = device.poll(wgpu::PollType::wait_indefinitely());
    if let Some(e) = errors.lock().unwrap().first() {
        return format!("error: {e}");
    }
    let view = match staging.get_mapped_range(..) {
        Ok(view) => view,
        Err(e) => return format!("not mapped: {e}"),
    };
    let c: Vec<f32> = bytemuck::cast_slice::<u8, f32>(&view).to_vec();
    let wrong = c.iter().zip(expected).filter(|(x, y)| x != y).count();
    match wrong {
        0 => "OK, C is the product".to_owned(),
        wrong => format!(
            "WRONG: {wrong} of 256 differ (C[0..4] = {:?}, want {:?})",
            &c[..4],
            &expected[..4]
        ),
    }
}

/// Where the time of a tensor-core GEMM (plain copies, one buffer) goes at `n × n × n`: the kernel as
/// generated, without the copies in its k-loop (the tiles copied once, before it: fragment
/// loads, multiply-adds and barriers remain), and without the multiply-adds (then the
/// fragment loads are dead too: the copies and barriers remain). Each timed by the wall
/// clock over a batch of 10 dispatches after 3, on its own device. Results are not checked
/// (the variants compute something else).
pub fn profile(n: usize, groups: [u32; 2], wgsl: &str) {
    let lines: Vec<&str> = wgsl.lines().collect();
    let in_loop_copy = |l: &&str| l.trim_start().starts_with("load_a0(thread, at.x, step");
    let no_copies: String = {
        let copy = lines
            .iter()
            .find(|l| in_loop_copy(l))
            .map(|l| l.replace("step", "0u"));
        let mut out = String::new();
        for line in &lines {
            if in_loop_copy(line) {
                continue;
            }
            if let (true, Some(copy)) = (line.trim_start().starts_with("for (var step"), &copy) {
                out.push_str(copy);
                out.push_str("\n    workgroupBarrier();\n");
            }
            out.push_str(line);
            out.push('\n');
        }
        out
    };
    let no_mma: String = lines
        .iter()
        .filter(|l| !l.contains("coopMultiplyAdd"))
        .map(|l| format!("{l}\n"))
        .collect();
    let bytes: Vec<u8> = (0..n * n)
        .flat_map(|i| f16::from_f32((i % 7) as f32 - 3.0).to_bits().to_le_bytes())
        .collect();
    for (label, text) in [
        ("as generated", wgsl.to_owned()),
        ("without the k-loop's copies", no_copies),
        (
            "without the multiply-adds (copies and barriers only)",
            no_mma,
        ),
    ] {
        let outcome = std::panic::catch_unwind(|| time(n, groups, &text, &bytes));
        match outcome {
            Ok(Ok(ms)) => println!(
                "profile {n}: {label}: {ms:.3} ms per run ({:.1} TFLOP/s equivalent)",
                2.0 * (n as f64).powi(3) / (ms * 1e-3) / 1e12
            ),
            Ok(Err(e)) => println!("profile {n}: {label}: {e}"),
            Err(_) => println!("profile {n}: {label}: panicked"),
        }
    }
}

fn time(n: usize, groups: [u32; 2], wgsl: &str, bytes: &[u8]) -> Result<f64, String> {
    use wgpu::util::DeviceExt;
    let gpu = Gpu::new().map_err(|e| e.to_string())?;
    let device = gpu.device();
    let errors = std::sync::Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
    let sink = errors.clone();
    device.on_uncaptured_error(std::sync::Arc::new(move |e: wgpu::Error| {
        sink.lock().unwrap().push(e.to_string())
    }));
    let storage = |bytes: &[u8]| {
        device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: None,
            contents: bytes,
            usage: wgpu::BufferUsages::STORAGE,
        })
    };
    let (a, b) = (storage(bytes), storage(bytes));
    let c = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: (n * n * 4) as u64,
        usage: wgpu::BufferUsages::STORAGE,
        mapped_at_creation: false,
    });
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: None,
        source: wgpu::ShaderSource::Wgsl(wgsl.into()),
    });
    let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: None,
        layout: None,
        module: &module,
        entry_point: Some("main"),
        compilation_options: Default::default(),
        cache: None,
    });
    if let Some(e) = errors.lock().unwrap().first() {
        return Err(format!("pipeline error: {e}"));
    }
    let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: None,
        layout: &pipeline.get_bind_group_layout(0),
        entries: &[
            wgpu::BindGroupEntry {
                binding: 0,
                resource: a.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 1,
                resource: b.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 2,
                resource: c.as_entire_binding(),
            },
        ],
    });
    let run = |count: usize| {
        let mut encoder = device.create_command_encoder(&Default::default());
        for _ in 0..count {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            pass.set_pipeline(&pipeline);
            pass.set_bind_group(0, &group, &[]);
            pass.dispatch_workgroups(groups[0], groups[1], 1);
        }
        gpu.queue().submit([encoder.finish()]);
        let _ = device.poll(wgpu::PollType::wait_indefinitely());
    };
    run(3);
    let start = std::time::Instant::now();
    run(10);
    let ms = start.elapsed().as_secs_f64() * 1e3 / 10.0;
    match errors.lock().unwrap().first() {
        Some(e) => Err(format!("error: {e}")),
        None => Ok(ms),
    }
}
