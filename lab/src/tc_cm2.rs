//! Issue 25's design e: the product on **workgroup-scope** cooperative matrices
//! (`VK_NV_cooperative_matrix2`), the route llama.cpp's Vulkan backend takes on NVIDIA, now
//! the library's ([`swizzle::gpu::WorkgroupMatrices`], `runtime/src/gpu/gemm/workgroup.rs`): one
//! workgroup computes a `BM × BN` tile of C as one accumulator matrix of the whole
//! workgroup; each step loads A's `BM × BK` slice and B's `BK × BN` slice straight from the
//! storage buffers through tensor layouts and multiplies them in; the driver chooses how the
//! matrices are spread over the subgroups and how the loads are staged.
//!
//! These are the tile shapes, invocations, unrolling and rasters the stream bench compares
//! (`tensor_designs -- stream`). Designs e16, e19, e20 (loads marked 16-byte aligned) and
//! e22–e26 (each step's operands loaded one step ahead), which the library does not write,
//! were measured with the bench's own SPIR-V writer, at f52852e (BENCHMARKS.md).

use swizzle::gpu::{Accumulate, GpuError, Operands, Stored, WorkgroupMatrices};
use swizzle::raster::Raster;

/// `design`'s words at `shape` as the lab times and tests its designs: A and B row-major,
/// f16 operands, f32 sums.
pub fn words(design: &WorkgroupMatrices, shape: [usize; 3]) -> Result<Vec<u32>, GpuError> {
    design.spirv(shape, [Stored::RowMajor; 2], Operands::F16, Accumulate::F32)
}

/// The designs `-- stream` runs (label, design).
pub fn designs() -> Vec<(&'static str, WorkgroupMatrices)> {
    let d = |bm, bn, bk, unroll, invocations| WorkgroupMatrices {
        tile: [bm, bn, bk],
        invocations,
        unroll,
        order: Raster::RowMajor,
    };
    let grouped = |design: WorkgroupMatrices, rows| WorkgroupMatrices {
        order: Raster::Grouped(rows),
        ..design
    };
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
            "e8 (library): e4 in groups of 8 rows of tiles",
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
        ("e17: e4 unrolled 16 times", d(128, 256, 32, 16, 256)),
        ("e18: 256×128 of C, 32 of k", d(256, 128, 32, 8, 256)),
        ("e21: 128×256 of C, 128 of k", d(128, 256, 128, 2, 256)),
        ("e28: 128×192 of C, 32 of k", d(128, 192, 32, 8, 256)),
        ("e29: 192×256 of C, 32 of k", d(192, 256, 32, 8, 256)),
        ("e30: 96×256 of C, 32 of k", d(96, 256, 32, 8, 256)),
        ("e31: 160×256 of C, 32 of k", d(160, 256, 32, 8, 256)),
        ("e32: e4 unrolled 4 times", d(128, 256, 32, 4, 256)),
        (
            "e33: 128×256 of C, 48 of k, 4 steps an iteration",
            d(128, 256, 48, 4, 256),
        ),
        (
            "e34: e8 (bands of 8 rows) unrolled 4 times",
            grouped(d(128, 256, 32, 4, 256), 8),
        ),
        (
            "e27: e4 in Morton squares of 8 (bands of 8 rows)",
            WorkgroupMatrices {
                order: Raster::Morton(8),
                ..d(128, 256, 32, 8, 256)
            },
        ),
    ]
}

/// Parts of a workgroup-scope kernel's SPIR-V (`WorkgroupMatrices::spirv`, A and B
/// row-major), timed alone to place the kernel's time (their C is wrong: timed only):
/// each step's slice of A, of B or of both taken at k = 0 instead of the step's k, so that
/// the load is the same every step (the driver may keep it in registers or read it again
/// from the L1 cache) and only the other operand's loads, or only the multiply-adds, are
/// left to pay for. (label, words) for each part, the whole kernel first.
pub fn parts(words: &[u32]) -> Vec<(&'static str, Vec<u32>)> {
    [
        ("whole kernel", [false, false]),
        ("A's loads only (B's slice fixed)", [false, true]),
        ("B's loads only (A's slice fixed)", [true, false]),
        ("multiply-adds only (both slices fixed)", [true, true]),
    ]
    .into_iter()
    .map(|(label, fixed)| (label, fix_slices(words, fixed)))
    .chain([(
        "multiply-adds only, on slices loaded before the loop",
        hoisted(&fix_slices(words, [true, true])),
    )])
    .collect()
}

/// Instructions after the five-word header: (start, opcode, length).
fn instructions(words: &[u32]) -> Vec<(usize, u32, usize)> {
    let mut found = Vec::new();
    let mut at = 5;
    while at < words.len() {
        let (opcode, len) = (words[at] & 0xffff, (words[at] >> 16) as usize);
        found.push((at, opcode, len));
        at += len.max(1);
    }
    found
}

/// `words` (both slices fixed) with the first step's loads of A and B moved before the
/// loop and every multiply-add reading them: the loop is multiply-adds alone (the other
/// steps' loads are left without a use, for the driver to drop).
fn hoisted(words: &[u32]) -> Vec<u32> {
    const LOOP_MERGE: u32 = 246;
    const COOPERATIVE_MATRIX_MUL_ADD: u32 = 4459;
    const COOPERATIVE_MATRIX_LOAD_TENSOR: u32 = 5367;
    const TENSOR_LAYOUT_SLICE: u32 = 5375;
    let found = instructions(words);
    let first = |opcode: u32| -> Vec<(usize, usize)> {
        found
            .iter()
            .filter(|&&(_, op, _)| op == opcode)
            .take(2)
            .map(|&(i, _, len)| (i, len))
            .collect()
    };
    let (slices, loads) = (
        first(TENSOR_LAYOUT_SLICE),
        first(COOPERATIVE_MATRIX_LOAD_TENSOR),
    );
    let [fa, fb] = [loads[0].0, loads[1].0].map(|i| words[i + 2]);
    // A's slice and load, then B's, as the loop had them.
    let moved = [slices[0], loads[0], slices[1], loads[1]];
    // The start block ends in a branch to the loop's header: [.., branch, label, merge].
    let merge = found
        .iter()
        .position(|&(_, op, _)| op == LOOP_MERGE)
        .expect("the loop");
    let branch = found[merge - 2].0;
    let mut out = Vec::with_capacity(words.len());
    for &(i, op, len) in &found {
        if i == branch {
            for &(at, len) in &moved {
                out.extend_from_slice(&words[at..at + len]);
            }
        }
        if moved.iter().any(|&(at, _)| at == i) {
            continue;
        }
        let start = out.len();
        out.extend_from_slice(&words[i..i + len]);
        if op == COOPERATIVE_MATRIX_MUL_ADD {
            // [op, type, result, a, b, c]
            (out[start + 3], out[start + 4]) = (fa, fb);
        }
    }
    let mut module = words[..5].to_vec();
    module.extend(out);
    module
}

/// `words` with the k-loop's slices of A (`fixed[0]`) and B (`fixed[1]`) at k = 0: the
/// loop's slices come in pairs, A's (m0, BM, k, BK) then B's (k, BK, n0, BN); C's single
/// slice after the loop is left alone.
fn fix_slices(words: &[u32], fixed: [bool; 2]) -> Vec<u32> {
    const TYPE_INT: u32 = 21;
    const CONSTANT: u32 = 43;
    const TENSOR_LAYOUT_SLICE: u32 = 5375;
    let mut out = words.to_vec();
    let instructions = instructions(words);
    let uint = instructions
        .iter()
        .find(|&&(i, op, _)| op == TYPE_INT && out[i + 2..i + 4] == [32, 0])
        .map(|&(i, ..)| out[i + 1])
        .expect("a 32-bit unsigned type");
    let zero = instructions
        .iter()
        .find(|&&(i, op, len)| op == CONSTANT && len == 4 && out[i + 1] == uint && out[i + 3] == 0)
        .map(|&(i, ..)| out[i + 2])
        .expect("the constant 0u");
    let slices: Vec<usize> = instructions
        .iter()
        .filter(|&&(_, op, _)| op == TENSOR_LAYOUT_SLICE)
        .map(|&(i, ..)| i)
        .collect();
    // [op, type, result, tensor, row, rows, col, cols]: A's k is its column, B's its row.
    for (n, &i) in slices[..slices.len() - 1].iter().enumerate() {
        match n % 2 {
            0 if fixed[0] => out[i + 6] = zero,
            1 if fixed[1] => out[i + 4] = zero,
            _ => {}
        }
    }
    out
}
