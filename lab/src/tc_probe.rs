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
    let errors = error_sink(device);
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
    let (pipeline, group) =
        match pipeline_and_group(device, Shader::Wgsl(wgsl), [&ab, &bb, &cb], &errors) {
            Ok(built) => built,
            Err(e) => return e,
        };
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
/// clock over a batch of 10 dispatches after 0.5 s of warm-up, on its own device. Results are not checked
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
            Ok(Ok(times)) => println!("profile {n}: {label}: {}", clocks([n; 3], times)),
            Ok(Err(e)) => println!("profile {n}: {label}: {e}"),
            Err(_) => println!("profile {n}: {label}: panicked"),
        }
    }
}

/// [`Times`] of `wgsl` at `n × n × n` on `groups` workgroups (A and B both `bytes`).
fn time(n: usize, groups: [u32; 2], wgsl: &str, bytes: &[u8]) -> Result<Times, String> {
    use wgpu::util::DeviceExt;
    let gpu = Gpu::new().map_err(|e| e.to_string())?;
    let device = gpu.device();
    let errors = error_sink(device);
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
    let (pipeline, group) = pipeline_and_group(device, Shader::Wgsl(wgsl), [&a, &b, &c], &errors)?;
    let run = |count: usize| {
        let encoder = dispatches(device, (&pipeline, &group), groups, count);
        gpu.queue().submit([encoder.finish()]);
        let _ = device.poll(wgpu::PollType::wait_indefinitely());
    };
    let wall_ms = warm_then_time(run);
    let gpu_ms = gpu_clock(device, gpu.queue(), (&pipeline, &group), groups);
    match errors.lock().unwrap().first() {
        Some(e) => Err(format!("error: {e}")),
        None => Ok(Times { wall_ms, gpu_ms }),
    }
}

/// `times` of a kernel at `[m, n, k]` as a line's end: each clock's milliseconds and the
/// TFLOP/s of a GEMM of that shape in that time.
pub fn clocks([m, n, k]: [usize; 3], times: Times) -> String {
    let at = |ms: f64| {
        format!(
            "{ms:.3} ms per run ({:.1} TFLOP/s equivalent)",
            2.0 * (m * n * k) as f64 / (ms * 1e-3) / 1e12
        )
    };
    let gpu = times
        .gpu_ms
        .map_or("no timestamps".into(), |ms| format!("GPU clock {}", at(ms)));
    format!("{gpu}, wall clock {}", at(times.wall_ms))
}

/// The device's uncaptured errors (validation, out of memory), collected for the caller to
/// report instead of wgpu's default panic.
fn error_sink(device: &wgpu::Device) -> std::sync::Arc<std::sync::Mutex<Vec<String>>> {
    let errors = std::sync::Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
    let sink = errors.clone();
    device.on_uncaptured_error(std::sync::Arc::new(move |e: wgpu::Error| {
        sink.lock().unwrap().push(e.to_string())
    }));
    errors
}

/// A kernel's code: WGSL through wgpu (naga validates and translates it), or SPIR-V that
/// wgpu passes through to the driver (`tc_split::spirv`: WGSL that naga's uniformity
/// analysis rejects; needs `Features::PASSTHROUGH_SHADERS`).
pub enum Shader<'a> {
    Wgsl(&'a str),
    Spirv(&'a [u32]),
    /// SPIR-V with `VK_NV_cooperative_matrix2`'s operations, on `Gpu`'s device (opened with
    /// the extension where the driver lists it).
    Coopmat2(&'a [u32]),
}

/// `shader`'s pipeline (entry point `main`) and its bind group of A, B and C at bindings 0,
/// 1 and 2 (A and B read-only); an error where the shader does not build.
fn pipeline_and_group(
    device: &wgpu::Device,
    shader: Shader,
    buffers: [&wgpu::Buffer; 3],
    errors: &std::sync::Mutex<Vec<String>>,
) -> Result<(wgpu::ComputePipeline, wgpu::BindGroup), String> {
    let (module, layout) = match shader {
        Shader::Wgsl(wgsl) => (
            device.create_shader_module(wgpu::ShaderModuleDescriptor {
                label: None,
                source: wgpu::ShaderSource::Wgsl(wgsl.into()),
            }),
            None,
        ),
        Shader::Spirv(words) | Shader::Coopmat2(words) => {
            // SAFETY: the words are naga's SPIR-V of a module it validated (all but
            // control-flow uniformity, which the designs keep per subgroup), or
            // `WorkgroupMatrices::spirv`'s kernels (tensor layouts over exactly A, B and C,
            // clamped where a slice reaches past them); every access inside its buffers, C
            // checked on the CPU.
            let module = unsafe {
                device.create_shader_module_passthrough(wgpu::ShaderModuleDescriptorPassthrough {
                    entry_points: std::borrow::Cow::Borrowed(&[
                        wgpu::PassthroughShaderEntryPoint {
                            name: std::borrow::Cow::Borrowed("main"),
                            workgroup_size: (0, 0, 0),
                        },
                    ]),
                    spirv: Some(std::borrow::Cow::Borrowed(words)),
                    ..Default::default()
                })
            };
            // No reflection of passthrough shaders: the layout is spelled out.
            let entry = |binding, read_only| wgpu::BindGroupLayoutEntry {
                binding,
                visibility: wgpu::ShaderStages::COMPUTE,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Storage { read_only },
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
                count: None,
            };
            let group = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: None,
                entries: &[entry(0, true), entry(1, true), entry(2, false)],
            });
            let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: None,
                bind_group_layouts: &[Some(&group)],
                immediate_size: 0,
            });
            (module, Some(layout))
        }
    };
    let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: None,
        layout: layout.as_ref(),
        module: &module,
        entry_point: Some("main"),
        compilation_options: Default::default(),
        cache: None,
    });
    if let Some(e) = errors.lock().unwrap().first() {
        return Err(format!("pipeline error: {e}"));
    }
    let entries: Vec<wgpu::BindGroupEntry> = (0..)
        .zip(buffers)
        .map(|(binding, buffer)| wgpu::BindGroupEntry {
            binding,
            resource: buffer.as_entire_binding(),
        })
        .collect();
    let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: None,
        layout: &pipeline.get_bind_group_layout(0),
        entries: &entries,
    });
    Ok((pipeline, group))
}

/// An encoder holding `count` compute passes of `pipeline` over `groups` workgroups.
fn dispatches(
    device: &wgpu::Device,
    (pipeline, group): (&wgpu::ComputePipeline, &wgpu::BindGroup),
    groups: [u32; 2],
    count: usize,
) -> wgpu::CommandEncoder {
    let mut encoder = device.create_command_encoder(&Default::default());
    for _ in 0..count {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        pass.set_pipeline(pipeline);
        pass.set_bind_group(0, group, &[]);
        pass.dispatch_workgroups(groups[0], groups[1], 1);
    }
    encoder
}

/// Milliseconds per dispatch: `run(count)` records and waits for `count` dispatches; warmed
/// up by time (clocks and caches settle), then the mean of 10.
fn warm_then_time(run: impl Fn(usize)) -> f64 {
    let warm = std::time::Instant::now();
    while warm.elapsed().as_secs_f64() < 0.5 {
        run(3);
    }
    let start = std::time::Instant::now();
    run(10);
    start.elapsed().as_secs_f64() * 1e3 / 10.0
}

/// The ceiling of the tensor-core path through WGSL at `n × n × n`: kernels of the
/// library's workgroup shape (256 threads, 8 subgroups as 4 × 2, 4 × 4 fragments of
/// 16 × 16 each: a 256 × 128 tile of C) that keep only parts of a GEMM, timed as
/// [`profile`] times. (label, WGSL, dispatch) for `n`; each counts 2n³ flops.
pub fn ceiling_kernels(n: usize) -> Vec<(&'static str, String)> {
    let head = format!(
        "{HEAD}@group(0) @binding(0) var<storage, read> a: array<vec4<f16>>;
@group(0) @binding(1) var<storage, read> b: array<vec4<f16>>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;\n"
    );
    let entry = "@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) thread: u32, @builtin(workgroup_id) group: vec3<u32>) {
    let subgroup = thread / 32u;
    let m0 = group.y * 256u + subgroup / 2u * 64u;
    let n0 = group.x * 128u + subgroup % 2u * 64u;\n";
    let pairs = || (0..4).flat_map(|i| (0..4).map(move |j| (i, j)));
    let accumulators: String = pairs()
        .map(|(i, j)| format!("    var acc{i}_{j} = coop_mat16x16<f32, C>();\n"))
        .collect();
    let mads = |indent: &str| -> String {
        pairs()
            .map(|(i, j)| {
                format!("{indent}acc{i}_{j} = coopMultiplyAdd(a{i}, b{j}, acc{i}_{j});\n")
            })
            .collect()
    };
    let stores: String = pairs()
        .map(|(i, j)| {
            format!(
                "    coopStoreT(acc{i}_{j}, &c[(m0 + {}u) * {n}u + n0 + {}u], {n}u);\n",
                16 * i,
                16 * j
            )
        })
        .collect();
    let q = n / 4;
    // 1. Fragments loaded once from memory, then only multiply-adds.
    let from_memory: String = (0..4)
        .map(|i| {
            format!(
                "    let a{i} = coopLoadT<coop_mat16x16<f16, A>>(&a[(m0 + {}u) * {q}u], {q}u);\n",
                16 * i
            )
        })
        .chain((0..4).map(|j| {
            format!(
                "    let b{j} = coopLoadT<coop_mat16x16<f16, B>>(&b[(n0 + {}u) / 4u], {q}u);\n",
                16 * j
            )
        }))
        .collect();
    let registers = format!(
        "{head}{entry}{from_memory}{accumulators}    for (var s = 0u; s < {}u; s++) {{\n{}    }}\n{stores}}}\n",
        n / 16,
        mads("        ")
    );
    // 2. Step 5's tiles (A 256 × 32 at pitch 40, B 32 × 128 at pitch 136), filled once;
    // every step of 32 of k loads its fragments from them (the half of k alternating, so
    // that nothing is loop-invariant), with or without a barrier per step.
    let tiles = "var<workgroup> a_tile: array<vec4<f16>, 2560>;
var<workgroup> b_tile: array<vec4<f16>, 1088>;\n";
    let fill = "    for (var e = thread; e < 2560u; e += 256u) { a_tile[e] = a[e]; }
    for (var e = thread; e < 1088u; e += 256u) { b_tile[e] = b[e]; }
    workgroupBarrier();\n";
    let tile_step = |barrier: bool| -> String {
        let mut body = String::new();
        for kk in 0..2 {
            body.push_str("        {\n");
            body.push_str(&format!("        let kk{kk} = (s + {kk}u) % 2u * 16u;\n"));
            for i in 0..4 {
                body.push_str(&format!(
                    "        let a{i} = coopLoadT<coop_mat16x16<f16, A>>(&a_tile[((subgroup / 2u * 64u + {}u) * 40u + kk{kk}) / 4u], 10u);\n",
                    16 * i
                ));
            }
            for j in 0..4 {
                body.push_str(&format!(
                    "        let b{j} = coopLoadT<coop_mat16x16<f16, B>>(&b_tile[(kk{kk} * 136u + subgroup % 2u * 64u + {}u) / 4u], 34u);\n",
                    16 * j
                ));
            }
            body.push_str(&mads("        "));
            body.push_str("        }\n");
        }
        if barrier {
            body.push_str("        workgroupBarrier();\n");
        }
        format!(
            "{head}{tiles}{entry}{fill}{accumulators}    for (var s = 0u; s < {}u; s++) {{\n{body}    }}\n{stores}}}\n",
            n / 32
        )
    };
    vec![
        (
            "multiply-adds only (fragments loaded once, in registers)",
            registers,
        ),
        (
            "fragment loads from workgroup tiles + multiply-adds, a barrier per 32 of k",
            tile_step(true),
        ),
        (
            "fragment loads from workgroup tiles + multiply-adds, no barriers",
            tile_step(false),
        ),
    ]
}

/// The library's kernel (`wgsl`, the prefetching design: `fetch_*`/`put_*`) as generated,
/// without its k-loop's copies (the tiles filled once, before the loop: fragment loads,
/// multiply-adds and barriers remain) and without its multiply-adds.
pub fn library_parts(label: &'static str, wgsl: &str) -> Vec<(String, String)> {
    let lines: Vec<&str> = wgsl.lines().collect();
    let mut no_copies = String::new();
    // The k-loop's lines (they name `step`; the copy functions' own lines do not).
    let in_loop_put = |t: &str| t.starts_with("put_") && t.contains("step");
    let puts: Vec<String> = lines
        .iter()
        .filter(|l| in_loop_put(l.trim_start()))
        .map(|l| l.replace("step", "0u"))
        .collect();
    for line in &lines {
        let t = line.trim_start();
        let in_loop_fetch = t.contains("= fetch_") && t.contains("step") && !t.starts_with("var ");
        if in_loop_put(t) || in_loop_fetch {
            continue;
        }
        if t.starts_with("for (var step") {
            for put in &puts {
                no_copies.push_str(put);
                no_copies.push('\n');
            }
            no_copies.push_str("    workgroupBarrier();\n");
        }
        no_copies.push_str(line);
        no_copies.push('\n');
    }
    let no_mma: String = lines
        .iter()
        .filter(|l| !l.contains("coopMultiplyAdd"))
        .map(|l| format!("{l}\n"))
        .collect();
    vec![
        (format!("{label}, as generated"), wgsl.to_owned()),
        (format!("{label}, without the k-loop's copies"), no_copies),
        (format!("{label}, without the multiply-adds"), no_mma),
    ]
}

/// Times each kernel at `n × n × n` (C's 256 × 128 tiles: `n / 128` by `n / 256`
/// workgroups), each on its own device; prints TFLOP/s-equivalent (2n³ over the time).
pub fn ceiling(n: usize, kernels: Vec<(String, String)>) {
    let bytes: Vec<u8> = (0..n * n)
        .flat_map(|i| f16::from_f32((i % 7) as f32 - 3.0).to_bits().to_le_bytes())
        .collect();
    let groups = [(n / 128) as u32, (n / 256) as u32];
    for (label, text) in kernels {
        let outcome = std::panic::catch_unwind(|| time(n, groups, &text, &bytes));
        match outcome {
            Ok(Ok(times)) => println!("ceiling {n}: {label}: {}", clocks([n; 3], times)),
            Ok(Err(e)) => println!("ceiling {n}: {label}: {e}"),
            Err(_) => println!("ceiling {n}: {label}: panicked"),
        }
    }
}

/// A device with what `tc_stream`'s and `tc_split`'s designs need beyond `Gpu`'s: subgroup
/// barriers and passthrough shaders (and f16, cooperative matrices), each where the
/// adapter has it.
fn subgroup_device() -> Result<(wgpu::Device, wgpu::Queue), String> {
    let backends = wgpu::Backends::from_env().unwrap_or(wgpu::Backends::PRIMARY);
    let mut descriptor = wgpu::InstanceDescriptor::new_without_display_handle();
    descriptor.backends = backends;
    let instance = wgpu::Instance::new(descriptor);
    // A discrete GPU first, as `Gpu::new` chooses.
    let adapter = pollster::block_on(instance.enumerate_adapters(backends))
        .into_iter()
        .min_by_key(|a| a.get_info().device_type != wgpu::DeviceType::DiscreteGpu)
        .ok_or("no adapter")?;
    let features = adapter.features()
        & (wgpu::Features::SHADER_F16
            | wgpu::Features::EXPERIMENTAL_COOPERATIVE_MATRIX
            | wgpu::Features::SUBGROUP
            | wgpu::Features::SUBGROUP_BARRIER
            | wgpu::Features::PASSTHROUGH_SHADERS);
    println!(
        "stream: {} ({:?}), features {features:?}",
        adapter.get_info().name,
        adapter.get_info().backend
    );
    let descriptor = wgpu::DeviceDescriptor {
        label: Some("tc_stream"),
        required_features: features,
        required_limits: adapter.limits(),
        // SAFETY: as `Gpu`'s (runtime/src/gpu/device.rs): only the probes' shaders use
        // cooperative matrices, each validated by naga, every load and store inside its
        // buffers for the shapes `tc_stream` accepts, and C checked against the CPU.
        experimental_features: unsafe { wgpu::ExperimentalFeatures::enabled() },
        ..Default::default()
    };
    if std::env::var("SWIZZLE_LAB_ROBUSTNESS").as_deref() == Ok("off") {
        return without_robustness(&adapter, &descriptor);
    }
    pollster::block_on(adapter.request_device(&descriptor)).map_err(|e| e.to_string())
}

/// `descriptor`'s device as wgpu-hal would open it, but without robust buffer access
/// (`robustBufferAccess`, `robustBufferAccess2`, `robustImageAccess2`): NVIDIA's reference
/// kernels reach their buffers by device address, which robustness never checks
/// (`SWIZZLE_LAB_ROBUSTNESS=off`).
fn without_robustness(
    adapter: &wgpu::Adapter,
    descriptor: &wgpu::DeviceDescriptor,
) -> Result<(wgpu::Device, wgpu::Queue), String> {
    use ash::vk;
    use wgpu::hal;
    println!("stream: a device without robust buffer access");
    let open = {
        // SAFETY: the guard is dropped at the end of this block, before the adapter is used
        // through wgpu again.
        let hal_adapter = unsafe { adapter.as_hal::<hal::api::Vulkan>() }
            .ok_or("the adapter is not a Vulkan one")?;
        let features = descriptor.required_features;
        let extensions = hal_adapter.required_device_extensions(features);
        let mut enabled = hal_adapter.physical_device_features(&extensions, features);
        let names: Vec<*const std::ffi::c_char> = extensions.iter().map(|e| e.as_ptr()).collect();
        let priorities = [1.0];
        let queues = [vk::DeviceQueueCreateInfo::default()
            .queue_family_index(0)
            .queue_priorities(&priorities)];
        let mut core = enabled.get_core();
        core.robust_buffer_access = vk::FALSE;
        let mut info = enabled.add_to_device_create(
            vk::DeviceCreateInfo::default()
                .queue_create_infos(&queues)
                .enabled_extension_names(&names),
        );
        info.p_enabled_features = &core;
        // Robustness 2 off wherever it is in the chain.
        let mut next = info.p_next as *mut vk::BaseOutStructure;
        while !next.is_null() {
            // SAFETY: every structure of the chain starts with sType and pNext; the one of
            // robustness 2 is `enabled`'s, borrowed mutably by `info` for this block.
            unsafe {
                if (*next).s_type == vk::StructureType::PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT {
                    let robustness = next.cast::<vk::PhysicalDeviceRobustness2FeaturesEXT>();
                    (*robustness).robust_buffer_access2 = vk::FALSE;
                    (*robustness).robust_image_access2 = vk::FALSE;
                }
                next = (*next).p_next;
            }
        }
        let instance = hal_adapter.shared_instance().raw_instance();
        // SAFETY: the extensions and features wgpu-hal would enable, less robustness, on
        // the adapter's physical device; the chain alive for the call.
        let raw = unsafe { instance.create_device(hal_adapter.raw_physical_device(), &info, None) }
            .map_err(|e| format!("the device without robustness did not open: {e}"))?;
        // SAFETY: `raw` was made from this adapter with these extensions and features (less
        // robustness, which the probes' trusted kernels do not rely on); wgpu-hal owns it.
        unsafe {
            hal_adapter.device_from_raw(
                raw,
                None,
                &extensions,
                features,
                &descriptor.required_limits,
                &descriptor.memory_hints,
                0,
                0,
            )
        }
        .map_err(|e| e.to_string())?
    };
    // SAFETY: the hal device was opened from this adapter with the descriptor's features
    // and limits.
    unsafe { adapter.create_device_from_hal(open, descriptor) }.map_err(|e| e.to_string())
}

/// Runs `shader` on `groups` workgroups for A (`m × k`) and B (`k × n`), returns C, then
/// times it as `time` does (0.5 s of warm-up, the mean of 10 dispatches, wall clock).
pub fn run_and_time(
    shader: Shader,
    groups: [u32; 2],
    shape: [usize; 3],
    a: &[f16],
    b: &[f16],
    timed: bool,
) -> Result<(Vec<f32>, Option<f64>), String> {
    run_and_clock(shader, groups, shape, a, b, timed)
        .map(|(c, times)| (c, times.map(|t| t.wall_ms)))
}

/// A kernel's milliseconds per run on both clocks.
#[derive(Clone, Copy, Debug)]
pub struct Times {
    /// The wall clock's, as [`run_and_time`] times.
    pub wall_ms: f64,
    /// The GPU's: the median of 20 runs, each its own pass between timestamps, where the
    /// device has timestamp queries.
    pub gpu_ms: Option<f64>,
}

/// [`run_and_time`], timed on both clocks ([`Times`]).
pub fn run_and_clock(
    shader: Shader,
    groups: [u32; 2],
    [m, n, _]: [usize; 3],
    a: &[f16],
    b: &[f16],
    timed: bool,
) -> Result<(Vec<f32>, Option<Times>), String> {
    use wgpu::util::DeviceExt;
    let (device, queue) = match shader {
        Shader::Coopmat2(_) => {
            let gpu = swizzle::gpu::Gpu::new().map_err(|e| e.to_string())?;
            gpu.workgroup_matrices()?;
            (gpu.device().clone(), gpu.queue().clone())
        }
        _ => subgroup_device()?,
    };
    let errors = error_sink(&device);
    let bytes =
        |v: &[f16]| -> Vec<u8> { v.iter().flat_map(|x| x.to_bits().to_le_bytes()).collect() };
    let storage = |bytes: &[u8]| {
        device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: None,
            contents: bytes,
            usage: wgpu::BufferUsages::STORAGE,
        })
    };
    let (ab, bb) = (storage(&bytes(a)), storage(&bytes(b)));
    let size = (m * n * 4) as u64;
    let c = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: None,
        contents: &f32::NAN.to_le_bytes().repeat(m * n),
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
    });
    let staging = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let (pipeline, group) = pipeline_and_group(&device, shader, [&ab, &bb, &c], &errors)?;
    let run = |count: usize, read: bool| {
        let mut encoder = dispatches(&device, (&pipeline, &group), groups, count);
        if read {
            encoder.copy_buffer_to_buffer(&c, 0, &staging, 0, size);
        }
        queue.submit([encoder.finish()]);
        let _ = device.poll(wgpu::PollType::wait_indefinitely());
    };
    run(1, true);
    staging.map_async(wgpu::MapMode::Read, .., |_| {});
    let _ = device.poll(wgpu::PollType::wait_indefinitely());
    let result: Vec<f32> = staging
        .get_mapped_range(..)
        .map_err(|e| e.to_string())?
        .chunks_exact(4)
        .map(|w| f32::from_le_bytes(w.try_into().unwrap()))
        .collect();
    staging.unmap();
    if let Some(e) = errors.lock().unwrap().first() {
        return Err(format!("error: {e}"));
    }
    if !timed {
        return Ok((result, None));
    }
    let wall_ms = warm_then_time(|count| run(count, false));
    let gpu_ms = gpu_clock(&device, &queue, (&pipeline, &group), groups);
    match errors.lock().unwrap().first() {
        Some(e) => Err(format!("error: {e}")),
        None => Ok((result, Some(Times { wall_ms, gpu_ms }))),
    }
}

/// The median milliseconds of 20 dispatches on the GPU's clock, each its own pass between
/// timestamps; `None` where the device has no timestamp queries.
fn gpu_clock(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    (pipeline, group): (&wgpu::ComputePipeline, &wgpu::BindGroup),
    groups: [u32; 2],
) -> Option<f64> {
    const RUNS: u32 = 20;
    if !device.features().contains(wgpu::Features::TIMESTAMP_QUERY) {
        return None;
    }
    let set = device.create_query_set(&wgpu::QuerySetDescriptor {
        label: None,
        ty: wgpu::QueryType::Timestamp,
        count: 2 * RUNS,
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    for run in 0..RUNS {
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: None,
            timestamp_writes: Some(wgpu::ComputePassTimestampWrites {
                query_set: &set,
                beginning_of_pass_write_index: Some(2 * run),
                end_of_pass_write_index: Some(2 * run + 1),
            }),
        });
        pass.set_pipeline(pipeline);
        pass.set_bind_group(0, group, &[]);
        pass.dispatch_workgroups(groups[0], groups[1], 1);
    }
    let bytes = 16 * u64::from(RUNS);
    let buffer = |usage| {
        device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: bytes,
            usage,
            mapped_at_creation: false,
        })
    };
    let resolve = buffer(wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC);
    let staging = buffer(wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST);
    encoder.resolve_query_set(&set, 0..2 * RUNS, &resolve, 0);
    encoder.copy_buffer_to_buffer(&resolve, 0, &staging, 0, bytes);
    queue.submit([encoder.finish()]);
    staging.map_async(wgpu::MapMode::Read, .., |_| {});
    let _ = device.poll(wgpu::PollType::wait_indefinitely());
    let ticks: Vec<u64> = staging
        .get_mapped_range(..)
        .ok()?
        .chunks_exact(8)
        .map(|w| u64::from_le_bytes(w.try_into().unwrap()))
        .collect();
    let period = f64::from(queue.get_timestamp_period());
    let mut ms: Vec<f64> = ticks
        .chunks_exact(2)
        .map(|pair| pair[1].saturating_sub(pair[0]) as f64 * period * 1e-6)
        .collect();
    ms.sort_by(f64::total_cmp);
    Some(ms[ms.len() / 2])
}
