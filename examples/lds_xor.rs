//! CK Tile's LDS XOR preshuffle ("LDS Index Swapping"): ck_tile's universal-GEMM A tile in
//! LDS, fp16, M=128, K=32, KPack=8, with the K0·L dim XOR-preshuffled by the M/L dim. Prints
//! the offsets of docs/semantics.md §5 and the 32-bank map of the first 16 rows.
//!
//! Run: `cargo run --release --example lds_xor`

swizzle::layout! {
    /// CK Tile universal-GEMM A tile in LDS, fp16, M=128, K=32, KPack=8 (so MLdsLayer L=2).
    pub layout LdsA {
        const M = 128; const K = 32; const KPACK = 8;
        const L = 2; const K0 = K / KPACK;
        memory [k0l: K0 * L, mr: M / L, k1: KPACK] strides [KPACK, K * L, 1];
        xor k0l by mr;
        unmerge k0l -> [l: L, k0: K0];
        merge [mr, l] -> m;
        merge [k0, k1] -> k;
        coords [m, k];
        inverse;
    }

    /// The same tile without the XOR preshuffle: plain row-major `m·K + k`.
    pub layout RowMajorA {
        memory [m: 128, k: 32];
        coords [m, k];
    }
}

/// 32 banks of 4 bytes; fp16 elements are 2 bytes.
const BANKS: usize = 32;
const BANK_BYTES: usize = 4;
const ELEMENT_BYTES: usize = 2;

fn bank(offset: usize) -> usize {
    offset * ELEMENT_BYTES / BANK_BYTES % BANKS
}

/// Prints the bank of the first element of each KPack vector (8 halves = 16 bytes = 4
/// banks) in the first 16 rows.
fn print_banks(name: &str, offset: impl Fn(usize, usize) -> usize) {
    println!("{name}: bank of each 8×fp16 vector (rows m = 0..16, columns k/8 = 0..4)");
    for m in 0..16 {
        let banks: Vec<String> = (0..4)
            .map(|v| format!("{:>2}", bank(offset(m, v * 8))))
            .collect();
        println!("  m={m:>2}: {}", banks.join(" "));
    }
}

/// Distinct 4-bank groups hit when 8 consecutive rows read the vector at column `v`: 8 means
/// the 8 lanes' 16-byte reads cover all 32 banks once (conflict-free).
fn distinct_groups(offset: impl Fn(usize, usize) -> usize, v: usize) -> usize {
    let mut groups: Vec<usize> = (0..8).map(|m| bank(offset(m, v * 8)) / 4).collect();
    groups.sort_unstable();
    groups.dedup();
    groups.len()
}

fn main() {
    println!("LdsA offsets (docs/semantics.md §5):");
    for (m, k) in [(0, 0), (1, 0), (2, 0), (3, 5), (64, 9), (127, 31)] {
        println!("  ({m:>3}, {k:>2}) → {:>4}", LdsA::offset(m, k));
    }
    println!("  coord(2057) = {:?}\n", LdsA::coord(2057));

    print_banks("LdsA (XOR preshuffle)", LdsA::offset);
    println!();
    print_banks("RowMajorA (no swizzle)", RowMajorA::offset);

    println!(
        "\n8 rows reading the same k-vector touch this many distinct 4-bank groups (8 = conflict-free):"
    );
    for v in 0..4 {
        println!(
            "  k/8 = {v}: LdsA {}, RowMajorA {}",
            distinct_groups(LdsA::offset, v),
            distinct_groups(RowMajorA::offset, v)
        );
    }
}
