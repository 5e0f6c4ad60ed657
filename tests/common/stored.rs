//! A matrix as a GEMM operand lies in memory, shared by the GEMM tests, the tensor-core
//! bench and the lab: included with `#[path = "common/stored.rs"] mod stored;` (from
//! benches/, `../tests/common/..`; from lab/, `../../tests/common/..`).

use swizzle::gpu::Stored;

/// `matrix` (`rows × cols`, row-major) as `order` stores it: itself, or its transpose
/// (`cols × rows`, row-major).
pub fn as_stored<T: Copy>(matrix: &[T], [rows, cols]: [usize; 2], order: Stored) -> Vec<T> {
    match order {
        Stored::RowMajor => matrix.to_vec(),
        Stored::Transposed => (0..rows * cols)
            .map(|i| matrix[(i % rows) * cols + i / rows])
            .collect(),
    }
}
