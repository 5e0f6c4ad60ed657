//! Nocentino & Rhodes' paper ("Optimizing Memory Access on GPUs using Morton Order
//! Indexing", ACMSE '10), figures 3 and 4: memory transactions of a compositing volume
//! renderer that reads a 256×256×113 CT volume slice by slice, one thread per pixel, in
//! square B×B thread blocks, with the volume stored in linear (row-major) order or with
//! every slice in 2-D Morton order. Counted with `swizzle::analysis::transactions` under the
//! paper's compute capability 1.1 and 1.3 coalescing rules, and 32-byte sectors for
//! current GPUs.
//!
//! Run: `cargo run --release --example paper_transactions`

use swizzle::analysis::{Access, Coalescing, LaneExpr, Transactions, transactions};
use swizzle::ir::Descriptor;

swizzle::layout! {
    /// The volume in linear order: 113 slices of 256 rows of 256 voxels.
    pub layout Linear {
        memory [z: 113, y: 256, x: 256];
        coords [z, y, x];
    }

    /// Each slice in 2-D Morton order (the paper's Figure 2a): every aligned B×B block of a
    /// slice is contiguous, so a thread block's voxels are one run of memory.
    pub layout Morton {
        memory [n: 113 * 256 * 256];
        unmerge n -> [z: 113, m: 256 * 256];
        morton m -> [y: 256, x: 256];
        coords [z, y, x];
    }
}

/// Bytes per voxel. The paper's CT head is 16-bit (256·256·113·2 B ≈ 14 MB); its 1.1 rule
/// and the 1.3 rule give the same transaction counts for 2- and 4-byte words, so the choice
/// only scales the bytes. We read 4-byte floats, the word size both coalescing rules of the
/// CUDA 2.3 guide were written for.
const VOXEL_BYTES: usize = 4;
const SLICES: usize = 113;
const SIDE: usize = 256;

/// Which voxel of its block each of a thread block's B² threads (thread id `t`, the lane)
/// reads.
#[derive(Clone, Copy)]
enum Threads {
    /// Thread (t / B, t % B) reads its own pixel: (by·B + t / B, bx·B + t % B).
    Pixel,
    /// Thread t reads the t-th voxel of the block in memory, as the paper does (§4: only the
    /// block's Morton index is computed, never an element's). In Morton storage the block
    /// starts at the Morton index of (by, bx) times B², and Morton index t inside it is pixel
    /// (odd bits of t, even bits of t).
    MemoryOrder,
}

/// Bits `first, first + 2, first + 4, …` of `t` packed together: one coordinate of Morton
/// index `t` of a block of `bits` bits per coordinate.
fn every_other_bit(t: &LaneExpr, first: u32, bits: u32) -> LaneExpr {
    (0..bits)
        .map(|i| (t.clone() >> i128::from(first + 2 * i) & 1) << i128::from(i))
        .fold(LaneExpr::from(0), |packed, bit| packed | bit)
}

impl Threads {
    /// The read of one thread block of side `side` at block (`by`, `bx`) of slice `z`.
    fn block(self, side: usize, z: usize, by: usize, bx: usize) -> Access {
        let t = LaneExpr::lane();
        let b = side as i128;
        let (dy, dx) = match self {
            Threads::Pixel => (t.clone() / b, t % b),
            Threads::MemoryOrder => {
                let bits = side.ilog2();
                (every_other_bit(&t, 1, bits), every_other_bit(&t, 0, bits))
            }
        };
        Access::new("voxel", side * side, VOXEL_BYTES)
            .coord("z", LaneExpr::from(z as i128))
            .coord("y", dy + (by * side) as i128)
            .coord("x", dx + (bx * side) as i128)
    }
}

/// One slice, every block: one step of the back-to-front compositing loop.
fn slice(
    layout: &Descriptor,
    threads: Threads,
    side: usize,
    model: Coalescing,
    z: usize,
) -> Transactions {
    let blocks = SIDE / side;
    let mut total = Transactions::default();
    for by in 0..blocks {
        for bx in 0..blocks {
            let access = threads.block(side, z, by, bx);
            total += transactions(layout, &access, model).expect("the blocks tile the slice");
        }
    }
    total
}

/// The whole pass: every slice costs the same, because a slice is 256·256 voxels, a
/// multiple of every segment (128 B at most), so moving to the next slice shifts every
/// address without changing which segments the lanes of a half-warp or warp share. The
/// first and the last slice are counted to check it; the pass is `SLICES` times one slice.
fn pass(layout: &Descriptor, threads: Threads, side: usize, model: Coalescing) -> Transactions {
    let first = slice(layout, threads, side, model, 0);
    let last = slice(layout, threads, side, model, SLICES - 1);
    assert_eq!(first, last, "slices 0 and {} cost differently", SLICES - 1);
    Transactions {
        requested_bytes: first.requested_bytes * SLICES,
        transactions: first.transactions * SLICES,
        transferred_bytes: first.transferred_bytes * SLICES,
    }
}

/// The configurations compared: the paper's two, and Morton storage read pixel by pixel.
fn configurations() -> [(&'static str, Descriptor, Threads); 3] {
    [
        ("linear", Linear::DESCRIPTOR, Threads::Pixel),
        ("Morton", Morton::DESCRIPTOR, Threads::MemoryOrder),
        ("Morton/pixel", Morton::DESCRIPTOR, Threads::Pixel),
    ]
}

fn main() {
    let models = [
        ("cc 1.1", Coalescing::Cc11),
        ("cc 1.3", Coalescing::Cc13),
        ("sectors", Coalescing::Sectors32),
    ];
    println!(
        "Memory transactions of one compositing pass over a {SIDE}×{SIDE}×{SLICES} volume \
         ({VOXEL_BYTES}-byte voxels, one thread per pixel, B×B thread blocks).\n\
         ratio = linear / Morton; eff = requested / transferred bytes.\n"
    );
    let configurations = configurations();
    print!("{:>7} {:>6}", "model", "block");
    for (name, _, _) in &configurations {
        print!(" {name:>12} {:>5}", "eff");
    }
    println!(" {:>6}", "ratio");
    for (model_name, model) in models {
        for side in [4, 8, 16, 32] {
            print!("{model_name:>7} {:>6}", format!("{side}×{side}"));
            let counts: Vec<Transactions> = configurations
                .iter()
                .map(|(_, layout, threads)| pass(layout, *threads, side, model))
                .collect();
            for count in &counts {
                print!(
                    " {:>12} {:>4.0}%",
                    count.transactions,
                    100.0 * count.efficiency()
                );
            }
            let ratio = counts[0].transactions as f64 / counts[1].transactions as f64;
            println!(" {ratio:>5.1}×");
        }
    }
}
