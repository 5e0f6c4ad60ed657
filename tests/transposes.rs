//! The transposes' WGSL without a device: every transpose through a workgroup tile, at sizes
//! with partial tiles, run on the CPU evaluator against the CPU transpose (`tests/gpu.rs`
//! runs the same kernels on an adapter), and the layouts no transpose can use, as typed
//! errors.

#[path = "common/transposes.rs"]
mod transposes;
#[path = "common/valid_wgsl.rs"]
mod valid_wgsl;

use swizzle::gpu::{GpuError, Transpose, Unsupported};
use swizzle::raster::Raster;
use transposes::{TILES, Threads64, Threads256};

/// What no transpose writes.
const POISON: u32 = 0xDEAD_BEEF;

/// `words` as a storage buffer's bytes, padded to whole `vec4<u32>`s.
fn buffer(words: &[u32]) -> Vec<u8> {
    let mut bytes = bytemuck::cast_slice(words).to_vec();
    bytes.resize(bytes.len().div_ceil(16) * 16, 0);
    bytes
}

/// `transpose`'s module for a `height × width` image, validated and run on the evaluator
/// over `image`: the output it writes.
fn evaluate(transpose: &Transpose, image: &[u32], [height, width]: [usize; 2]) -> Vec<u32> {
    let text = transpose.wgsl(height, width).expect("a transpose");
    valid_wgsl::validate(&text);
    let module = naga::front::wgsl::parse_str(&text).expect("parses");
    let [rows, columns] = transpose.tile.shape()[..] else {
        panic!("a transpose tile has two coordinates");
    };
    let groups = [width.div_ceil(columns), height.div_ceil(rows)].map(|g| g as u32);
    let mut buffers = wgsl_eval::Buffers::new();
    buffers.bind(0, 0, buffer(image));
    buffers.bind(0, 1, buffer(&vec![POISON; image.len()]));
    wgsl_eval::dispatch(&module, "main", [groups[0], groups[1], 1], &mut buffers)
        .unwrap_or_else(|e| panic!("{e}\n{text}"));
    let written = buffers.get(0, 1).expect("the output");
    bytemuck::pod_collect_to_vec::<u8, u32>(written)[..image.len()].to_vec()
}

#[test]
fn every_transpose_matches_the_cpu_on_the_evaluator() {
    for transpose in transposes::transposes() {
        for (height, width) in transposes::SIZES {
            let image = transposes::image(height, width);
            let output = evaluate(&transpose, &image, [height, width]);
            assert!(
                output == transposes::transposed(&image, height, width),
                "{} through {}, {} / {}, {height}×{width}",
                transpose.order,
                transpose.tile.name,
                transpose.loads.descriptor.name,
                transpose.stores.descriptor.name,
            );
        }
    }
}

#[test]
fn layouts_no_transpose_can_use_are_typed_errors() {
    let square = Transpose::new(TILES[2], Threads256::THREAD_VALUES);
    let unsupported = |transpose: Transpose| match transpose.wgsl(64, 64) {
        Err(GpuError::Unsupported { why, .. }) => why,
        other => panic!("{other:?}"),
    };
    // Thread-value layouts over another tile than the transpose's (8 × 32).
    let wide = Transpose {
        tile: TILES[4],
        ..square
    };
    assert_eq!(
        unsupported(wide),
        Unsupported::Shape {
            shape: vec![32, 32],
            expected: vec![8, 32]
        }
    );
    // Loads on 256 threads, stores on 64.
    let different = Transpose {
        stores: Threads64::THREAD_VALUES,
        ..square
    };
    assert_eq!(
        unsupported(different),
        Unsupported::Threads {
            threads: 64,
            expected: 256
        }
    );
    let not_an_order = Transpose {
        order: Raster::Morton(6),
        ..square
    };
    assert!(matches!(unsupported(not_an_order), Unsupported::Order(_)));
    for [height, width] in [[0, 64], [64, 0], [1 << 17, 1 << 17]] {
        assert!(
            matches!(square.wgsl(height, width), Err(GpuError::TooLarge { .. })),
            "{height} × {width}"
        );
    }
}
