//! The evaluator against hand-computed results: control flow under masks, built-ins over
//! several workgroups, cooperative matrices' strides and majors, and the errors it owes
//! (races, non-uniform barriers, out-of-bounds accesses).

use half::f16;
use wgsl_eval::{Buffers, dispatch};

fn module(wgsl: &str) -> naga::Module {
    naga::front::wgsl::parse_str(wgsl).unwrap_or_else(|e| panic!("{}", e.emit_to_string(wgsl)))
}

fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|w| u32::from_le_bytes(w.try_into().unwrap()))
        .collect()
}

#[test]
fn loops_switches_and_early_exits_follow_each_invocation() {
    let shader = module(
        "@group(0) @binding(0) var<storage, read_write> out: array<u32>;
        fn weight(j: u32) -> u32 {
            if (j == 4u) { return 1000u; }
            return j;
        }
        @compute @workgroup_size(8, 2)
        fn main(@builtin(local_invocation_id) id: vec3<u32>,
                @builtin(local_invocation_index) li: u32,
                @builtin(workgroup_id) group: vec3<u32>) {
            var sum = 0u;
            for (var j = 0u; j < 100u; j++) {
                if (j % 2u == 1u) { continue; }
                if (j > li + group.x) { break; }
                switch (j % 3u) {
                    case 0u: { sum += weight(j); }
                    case 1u: { sum += 100u; }
                    default: {}
                }
            }
            out[group.x * 16u + li] = sum + (id.y << 16u) - 7u * u32(i32(li) / 0);
        }",
    );
    let mut buffers = Buffers::new();
    buffers.bind(0, 0, vec![0; 3 * 16 * 4]);
    dispatch(&shader, "main", [3, 1, 1], &mut buffers).unwrap();
    let expected: Vec<u32> = (0..3u32)
        .flat_map(|g| {
            (0..16u32).map(move |li| {
                let mut sum = 0u32;
                for j in (0..100u32).step_by(2) {
                    if j > li + g {
                        break;
                    }
                    sum += match j % 3 {
                        0 if j == 4 => 1000,
                        0 => j,
                        1 => 100,
                        _ => 0,
                    };
                }
                // `i32(li) / 0` is `i32(li)` in WGSL.
                sum.wrapping_add((li / 8) << 16).wrapping_sub(7 * li)
            })
        })
        .collect();
    assert_eq!(words(buffers.get(0, 0).unwrap()), expected);
}

#[test]
fn cooperative_loads_count_their_stride_in_array_elements_and_follow_their_major() {
    // A row-major from an array of f16 (stride 20 f16), B column-major from an array of
    // vec4<f16> (stride 5 vec4s: 20 f16), C stored row-major at a stride of 17 f32.
    let shader = module(
        "enable f16;
        enable wgpu_cooperative_matrix;
        @group(0) @binding(0) var<storage, read> a: array<f16>;
        @group(0) @binding(1) var<storage, read> b: array<vec4<f16>>;
        @group(0) @binding(2) var<storage, read_write> c: array<f32>;
        @compute @workgroup_size(64)
        fn main(@builtin(local_invocation_index) thread: u32) {
            let s = thread / 32u;
            let x = coopLoadT<coop_mat16x16<f16, A>>(&a[3u + s], 20u);
            let y = coopLoad<coop_mat16x16<f16, B>>(&b[1], 5u);
            let z = coopMultiplyAdd(x, y, coop_mat16x16<f32, C>());
            coopStoreT(z, &c[s * 16u * 17u], 17u);
        }",
    );
    let a: Vec<f16> = (0..400)
        .map(|i| f16::from_f32((i % 13) as f32 - 6.0))
        .collect();
    let b: Vec<f16> = (0..400)
        .map(|i| f16::from_f32((i % 7) as f32 * 0.5))
        .collect();
    let bytes = |v: &[f16]| v.iter().flat_map(|x| x.to_le_bytes()).collect();
    let mut buffers = Buffers::new();
    buffers.bind(0, 0, bytes(&a));
    buffers.bind(0, 1, bytes(&b));
    buffers.bind(0, 2, vec![0; 2 * 16 * 17 * 4]);
    dispatch(&shader, "main", [1, 1, 1], &mut buffers).unwrap();
    let c: Vec<f32> = words(buffers.get(0, 2).unwrap())
        .into_iter()
        .map(f32::from_bits)
        .collect();
    for s in 0..2 {
        for r in 0..16 {
            for col in 0..16 {
                let expected: f32 = (0..16)
                    .map(|k| a[3 + s + r * 20 + k].to_f32() * b[4 + col * 20 + k].to_f32())
                    .sum();
                assert_eq!(
                    c[s * 16 * 17 + r * 17 + col],
                    expected,
                    "subgroup {s} ({r}, {col})"
                );
            }
        }
    }
}

#[test]
fn matrices_load_store_and_index_by_column() {
    // `mat2x4<f16>` (16 bytes: two columns of four f16) and `mat2x3<f32>` (columns padded
    // to 16 bytes) loaded whole from storage, through a function variable, zeroed and
    // rebuilt from columns, their columns written to vec arrays.
    let shader = module(
        "enable f16;
        @group(0) @binding(0) var<storage, read> m: array<mat2x4<f16>>;
        @group(0) @binding(1) var<storage, read> p: mat2x3<f32>;
        @group(0) @binding(2) var<storage, read_write> out: array<vec4<f16>>;
        @group(0) @binding(3) var<storage, read_write> q: array<f32>;
        @compute @workgroup_size(2)
        fn main(@builtin(local_invocation_index) i: u32) {
            var r: array<mat2x4<f16>, 2>;
            r[1] = m[i];
            r[0] = mat2x4<f16>();
            let back = mat2x4<f16>(r[1][1], r[1][0]);
            out[4u * i] = r[1][0];
            out[4u * i + 1u] = r[1][1];
            out[4u * i + 2u] = back[0];
            out[4u * i + 3u] = r[0][1];
            let whole = p;
            q[3u * i] = whole[i].x;
            q[3u * i + 1u] = whole[i].y;
            q[3u * i + 2u] = whole[i].z;
        }",
    );
    let halves: Vec<u8> = (0..16)
        .flat_map(|i| f16::from_f32(i as f32).to_le_bytes())
        .collect();
    let p: Vec<u8> = [1.0f32, 2.0, 3.0, -1.0, 4.0, 5.0, 6.0, -1.0]
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    let mut buffers = Buffers::new();
    buffers.bind(0, 0, halves);
    buffers.bind(0, 1, p);
    buffers.bind(0, 2, vec![0; 2 * 4 * 8]);
    buffers.bind(0, 3, vec![0; 6 * 4]);
    dispatch(&shader, "main", [1, 1, 1], &mut buffers).unwrap();
    let out: Vec<f32> = buffers
        .get(0, 2)
        .unwrap()
        .chunks_exact(2)
        .map(|h| f16::from_le_bytes([h[0], h[1]]).to_f32())
        .collect();
    let column = |first: u32| (first..first + 4).map(|x| x as f32);
    let mut expected = Vec::new();
    for i in 0..2 {
        expected.extend(column(8 * i));
        expected.extend(column(8 * i + 4));
        expected.extend(column(8 * i + 4));
        expected.extend([0.0; 4]);
    }
    assert_eq!(out, expected);
    let q: Vec<f32> = words(buffers.get(0, 3).unwrap())
        .into_iter()
        .map(f32::from_bits)
        .collect();
    assert_eq!(q, [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
}

/// The error of dispatching `body` as `main` over 64 invocations with a workgroup array
/// `t` and a storage array `out` of 64 `u32`.
fn failure(body: &str) -> String {
    let shader = module(&format!(
        "var<workgroup> t: array<u32, 64>;
        @group(0) @binding(0) var<storage, read_write> out: array<u32>;
        @compute @workgroup_size(64)
        fn main(@builtin(local_invocation_index) i: u32) {{ {body} }}"
    ));
    let mut buffers = Buffers::new();
    buffers.bind(0, 0, vec![0; 64 * 4]);
    match dispatch(&shader, "main", [2, 1, 1], &mut buffers) {
        Ok(()) => String::new(),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_missing_barrier_is_a_race_even_in_lockstep() {
    let error = failure("t[i] = i; out[i] = t[63u - i];");
    assert!(error.contains("a data race: invocation 0 reads"), "{error}");
    let error = failure("let x = t[63u - i]; t[i] = x;");
    assert!(error.contains("which invocation 63 read"), "{error}");
    // With the barrier, only the second workgroup's writes to `out` race the first's.
    let error = failure("t[i] = i; workgroupBarrier(); out[i] = t[63u - i];");
    assert!(error.contains("of workgroup #0"), "{error}");
    assert_eq!(
        failure("t[i] = i; workgroupBarrier(); let x = t[63u - i];"),
        ""
    );
}

#[test]
fn non_uniform_barriers_and_out_of_bounds_accesses_are_errors() {
    let error = failure("if (i < 3u) { workgroupBarrier(); }");
    assert!(
        error.contains("a barrier reached by 3 of 64 invocations"),
        "{error}"
    );
    let error = failure("let x = t[i + 1u];");
    assert!(error.contains("outside the 64 elements"), "{error}");
    let error = failure("let x = out[i + 1u];");
    assert!(
        error.contains("4 bytes at byte 256 of `out`, outside its 256 bytes"),
        "{error}"
    );
}
