//! Throughput of `offset` functions (BENCHMARKS.md): the code `layout!` generates, side by
//! side in one run with hand-written bit twiddling, BMI2 `pdep`, the `zorder` crate and the
//! reference interpreter (a run-time descriptor, what CK does with dynamic lengths).
//!
//! Run with `cargo bench --bench offset`. Before an anchor is timed it is checked to compute
//! exactly the generated offsets over every coordinate of its layout. After the criterion
//! groups have run, `main` reads criterion's estimates back and prints a markdown table of
//! ratios measured in this same run.

use std::fmt::Write as _;
use std::hint::black_box;
use std::marker::PhantomData;
use std::time::SystemTime;

mod common;
#[path = "../tests/common/fixtures.rs"]
mod fixtures;

use common::{is_benchmark_run, median_ns};
use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, Throughput};
use fixtures::LdsA;
use swizzle::Layout;
use swizzle::batch::{self, BatchError};
use swizzle::kernel::Level;

swizzle::layout! {
    /// 16×16 Morton tile.
    pub layout Morton16 { memory [m: 256]; morton m -> [y: 16, x: 16]; coords [y, x]; }
    /// 256×256 Morton tile.
    pub layout Morton256 { memory [m: 65536]; morton m -> [y: 256, x: 256]; coords [y, x]; }
}

/// Coordinates per timed batch.
const BATCH: usize = 4096;

/// A 2-D coordinate, in `coords` order.
type Coord = [usize; 2];

// ---------------------------------------------------------------------------------------
// Anchors
// ---------------------------------------------------------------------------------------

/// Spreads the low 4 bits of `v` to the even bit positions: `abcd` → `0a0b0c0d`.
#[inline(always)]
const fn spread4(v: usize) -> usize {
    let v = (v | v << 2) & 0x33;
    (v | v << 1) & 0x55
}

/// Spreads the low 8 bits of `v` to the even bit positions (16-bit result).
#[inline(always)]
const fn spread8(v: usize) -> usize {
    let v = (v | v << 4) & 0x0F0F;
    let v = (v | v << 2) & 0x3333;
    (v | v << 1) & 0x5555
}

/// Hand-written 16×16 Morton offset: `… y1 x1 y0 x0`, x0 at bit 0.
#[inline(always)]
const fn morton16_hand_written(y: usize, x: usize) -> usize {
    spread4(x) | spread4(y) << 1
}

/// Hand-written 256×256 Morton offset.
#[inline(always)]
const fn morton256_hand_written(y: usize, x: usize) -> usize {
    spread8(x) | spread8(y) << 1
}

/// Hand-written closed form of [`LdsA`] (docs/semantics.md §5) with M=128, K=32, KPack=8, L=2, K0=4:
/// `(m/L)·K·L + (((m%L)·K0 + k/KPack) ^ ((m/L) % (K0·L)))·KPack + k%KPack`.
/// The three terms occupy disjoint bits, so they are or-ed together.
#[inline(always)]
const fn lds_hand_written(m: usize, k: usize) -> usize {
    let row = m >> 1; // m / L
    let k0l = ((m & 1) << 2) | (k >> 3); // (m % L)·K0 + k / KPack
    (row << 6) | ((k0l ^ (row & 7)) << 3) | (k & 7)
}

/// Morton offset with BMI2 `pdep`: x's bits go to the even positions, y's to the odd ones.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "bmi2")]
fn morton_pdep(y: usize, x: usize) -> usize {
    use core::arch::x86_64::_pdep_u64;
    (_pdep_u64(x as u64, 0x5555_5555_5555_5555) | _pdep_u64(y as u64, 0xAAAA_AAAA_AAAA_AAAA))
        as usize
}

/// Sums [`morton_pdep`] over a batch. The whole loop is compiled with BMI2 so that `pdep`
/// is inlined, as it would be in a kernel built for BMI2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
fn sum_pdep(batch: &[Coord]) -> usize {
    sum_offsets(batch, |y, x| morton_pdep(y, x))
}

/// The `zorder` crate's BMI2 path. Its first array element lands on bit 0, so x goes first.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "bmi2")]
fn morton_zorder_bmi2(y: usize, x: usize) -> usize {
    // SAFETY: this function is only callable where bmi2 is enabled, which is all that
    // `index_of_unchecked` requires.
    usize::from(unsafe { zorder::bmi2::index_of_unchecked([x as u8, y as u8]) })
}

/// Sums [`morton_zorder_bmi2`] over a batch, the whole loop compiled with BMI2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
fn sum_zorder_bmi2(batch: &[Coord]) -> usize {
    sum_offsets(batch, |y, x| morton_zorder_bmi2(y, x))
}

/// The `zorder` crate's portable path (x first, as above). Coordinates fit in `u8` for
/// both Morton layouts, so its output is a `u16`.
#[inline(always)]
fn morton_zorder(y: usize, x: usize) -> usize {
    usize::from(zorder::index_of([x as u8, y as u8]))
}

/// A hand-written offset behind the `Layout` trait of the generated layout it reproduces, so
/// that it runs through the same run-time SIMD dispatch (`swizzle::offsets`) as the
/// generated code.
macro_rules! hand_written_layout {
    ($name:ident, $generated:ty, $offset:path) => {
        struct $name;
        impl Layout<2> for $name {
            const SHAPE: Coord = <$generated>::SHAPE;
            const SIZE: usize = <$generated>::SIZE;
            const SPACE: usize = <$generated>::SPACE;
            const DESCRIPTOR: swizzle::ir::Descriptor = <$generated>::DESCRIPTOR;
            #[inline(always)]
            fn offset([y, x]: Coord) -> usize {
                $offset(y, x)
            }
        }
    };
}

hand_written_layout!(HandMorton16, Morton16, morton16_hand_written);
hand_written_layout!(HandMorton256, Morton256, morton256_hand_written);
hand_written_layout!(HandLds, LdsA, lds_hand_written);

// ---------------------------------------------------------------------------------------
// Harness
// ---------------------------------------------------------------------------------------

/// The timed work: the wrapping sum of the offsets of a batch, so none is optimised away.
#[inline(always)]
fn sum_offsets(batch: &[Coord], offset: impl Fn(usize, usize) -> usize) -> usize {
    batch
        .iter()
        .fold(0, |sum, &[y, x]| sum.wrapping_add(offset(y, x)))
}

/// [`BATCH`] pseudo-random in-range coordinates of `shape`, the same on every run
/// (SplitMix64 with a fixed seed).
fn random_batch(shape: Coord) -> Vec<Coord> {
    let mut state: u64 = 0x5EED;
    let mut next = move || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let z = (state ^ (state >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        let z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    (0..BATCH)
        .map(|_| shape.map(|len| (next() % len as u64) as usize))
        .collect()
}

/// One criterion group: the offset functions of layout `L`, timed over the same batch.
struct OffsetGroup<'c, L> {
    group: BenchmarkGroup<'c, WallTime>,
    batch: Vec<Coord>,
    layout: PhantomData<L>,
}

impl<'c, L: Layout<2>> OffsetGroup<'c, L> {
    fn new(criterion: &'c mut Criterion, name: &str) -> Self {
        let mut group = criterion.benchmark_group(name);
        group.throughput(Throughput::Elements(BATCH as u64));
        Self {
            group,
            batch: random_batch(L::SHAPE),
            layout: PhantomData,
        }
    }

    /// Checks that `offset` agrees with the generated code on every coordinate of `L`.
    fn verify(name: &str, offset: impl Fn(usize, usize) -> usize) {
        for y in 0..L::SHAPE[0] {
            for x in 0..L::SHAPE[1] {
                assert_eq!(offset(y, x), L::offset([y, x]), "{name} at ({y}, {x})");
            }
        }
    }

    /// Verifies, then times, an offset function called once per coordinate.
    fn bench(&mut self, name: &str, offset: impl Fn(usize, usize) -> usize) -> &mut Self {
        Self::verify(name, &offset);
        let batch = &self.batch;
        self.group.bench_function(name, |b| {
            b.iter(|| sum_offsets(black_box(batch), &offset));
        });
        self
    }

    /// Verifies `offset`, then times `sum`, its own loop over the batch: for anchors whose
    /// loop must be compiled with extra target features.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    fn bench_batch(
        &mut self,
        name: &str,
        offset: impl Fn(usize, usize) -> usize,
        sum: impl Fn(&[Coord]) -> usize,
    ) -> &mut Self {
        Self::verify(name, offset);
        let batch = &self.batch;
        self.group
            .bench_function(name, |b| b.iter(|| sum(black_box(batch))));
        self
    }

    /// Verifies, then times, `swizzle::offsets` (the batch API, which picks AVX-512, AVX2
    /// or the baseline at run time) over layout `M`, which must agree with `L`. Each offset
    /// is stored in an output slice, as a real kernel would, rather than summed.
    fn bench_simd<M: Layout<2>>(&mut self, name: &str) -> &mut Self {
        Self::verify(name, |y, x| M::offset([y, x]));
        let batch = &self.batch;
        let mut out = vec![0; batch.len()];
        self.group.bench_function(name, |b| {
            b.iter(|| {
                swizzle::offsets::<M, 2>(black_box(batch), &mut out).expect("in-range batch");
                black_box(&out);
            });
        });
        self
    }

    /// Verifies, then times, the scalar loop that stores `L::offset` of each coordinate in
    /// an output slice (the baseline the batch APIs must not fall behind), compiled for the
    /// target's baseline.
    fn bench_store(&mut self, name: &str) -> &mut Self {
        let batch = &self.batch;
        let mut out = vec![0; batch.len()];
        self.group.bench_function(name, |b| {
            b.iter(|| {
                for (slot, &coord) in out.iter_mut().zip(black_box(batch)) {
                    *slot = L::offset(coord);
                }
                black_box(&out);
            });
        });
        self
    }

    /// Verifies against `L::offset`, then times, a batch API run by `batch` on the batch as
    /// `u32` rows and as `u32` columns (`rows` and `columns` say which), into `u32` offsets.
    fn bench_narrow(
        &mut self,
        name: &str,
        batch: impl Fn(&[[u32; 2]], [&[u32]; 2], &mut [u32]) -> Result<(), BatchError>,
    ) -> &mut Self {
        let rows: Vec<[u32; 2]> = self.batch.iter().map(|c| c.map(|v| v as u32)).collect();
        let columns: [Vec<u32>; 2] = [0, 1].map(|d| rows.iter().map(|c| c[d]).collect());
        let columns = [columns[0].as_slice(), columns[1].as_slice()];
        let mut out = vec![0u32; rows.len()];
        batch(&rows, columns, &mut out).expect("in-range batch");
        for (&coord, &offset) in self.batch.iter().zip(&out) {
            assert_eq!(offset as usize, L::offset(coord), "{name} at {coord:?}");
        }
        self.group.bench_function(name, |b| {
            b.iter(|| {
                batch(black_box(&rows), black_box(columns), &mut out).expect("in-range batch");
                black_box(&out);
            });
        });
        self
    }

    /// Times the reference interpreter on `L`'s descriptor, hidden from the optimiser so
    /// that its lengths stay run-time values, and closes the group.
    fn finish_with_interpreter(mut self) {
        let descriptor = L::DESCRIPTOR;
        let interpret = |y, x| {
            black_box(&descriptor)
                .offset(&[y, x])
                .expect("in-range coordinate")
        };
        self.bench("interpreter", interpret);
        self.group.finish();
    }
}

/// The BMI2 anchors (`pdep`, `zorder_bmi2`), where the CPU has BMI2. Detected once, outside
/// every timed loop.
fn bench_bmi2<L: Layout<2>>(group: &mut OffsetGroup<'_, L>) {
    #[cfg(target_arch = "x86_64")]
    if is_x86_feature_detected!("bmi2") {
        // The functions below only require bmi2 (`#[target_feature(enable = "bmi2")]`).
        group.bench_batch(
            "pdep",
            // SAFETY: bmi2 was detected at run time just above.
            |y, x| unsafe { morton_pdep(y, x) },
            // SAFETY: bmi2 was detected at run time just above.
            |batch| unsafe { sum_pdep(batch) },
        );
        group.bench_batch(
            "zorder_bmi2",
            // SAFETY: bmi2 was detected at run time just above.
            |y, x| unsafe { morton_zorder_bmi2(y, x) },
            // SAFETY: bmi2 was detected at run time just above.
            |batch| unsafe { sum_zorder_bmi2(batch) },
        );
        return;
    }
    let _ = group; // Unused off x86_64.
    println!("note: no BMI2 on this CPU or target; skipping the pdep and zorder_bmi2 anchors");
}

/// A Morton group: generated code against every Morton anchor.
fn bench_morton<L: Layout<2>, H: Layout<2>>(
    criterion: &mut Criterion,
    name: &str,
    generated: impl Fn(usize, usize) -> usize,
    hand_written: impl Fn(usize, usize) -> usize,
) {
    let mut group = OffsetGroup::<L>::new(criterion, name);
    group
        .bench("generated", generated)
        .bench("hand_written", hand_written)
        .bench_simd::<L>("generated_simd")
        .bench_simd::<H>("hand_written_simd")
        .bench_store("generated_store")
        .bench_narrow("generated_simd_u32", |rows, _, out| {
            batch::offsets_u32::<L, u32, 2>(rows, out)
        })
        .bench_narrow("generated_simd_columns", |_, columns, out| {
            batch::offsets_columns::<L, u32, 2>(columns, out)
        });
    // The same on the AVX2 loop alone, as on a CPU without AVX-512.
    if Level::Avx2.is_available() {
        group
            .bench_narrow("generated_avx2_u32", |rows, _, out| {
                batch::offsets_u32_with::<L, u32, 2>(Level::Avx2, rows, out)
            })
            .bench_narrow("generated_avx2_columns", |_, columns, out| {
                batch::offsets_columns_with::<L, u32, 2>(Level::Avx2, columns, out)
            });
    }
    bench_bmi2(&mut group);
    group.bench("zorder", morton_zorder);
    group.finish_with_interpreter();
}

fn benches(criterion: &mut Criterion) {
    bench_morton::<Morton16, HandMorton16>(
        criterion,
        "morton16",
        Morton16::offset,
        morton16_hand_written,
    );
    bench_morton::<Morton256, HandMorton256>(
        criterion,
        "morton256",
        Morton256::offset,
        morton256_hand_written,
    );

    let mut lds = OffsetGroup::<LdsA>::new(criterion, "lds_xor");
    lds.bench("generated", LdsA::offset)
        .bench("hand_written", lds_hand_written)
        .bench_simd::<LdsA>("generated_simd")
        .bench_simd::<HandLds>("hand_written_simd");
    lds.finish_with_interpreter();
}

// ---------------------------------------------------------------------------------------
// Summary: ratios from criterion's own estimates
// ---------------------------------------------------------------------------------------

/// Groups and functions, in the order they run.
const RESULTS: [(&str, &[&str]); 3] = [
    ("morton16", MORTON_FUNCTIONS),
    ("morton256", MORTON_FUNCTIONS),
    (
        "lds_xor",
        &[
            "generated",
            "hand_written",
            "generated_simd",
            "hand_written_simd",
            "interpreter",
        ],
    ),
];
const MORTON_FUNCTIONS: &[&str] = &[
    "generated",
    "hand_written",
    "generated_simd",
    "hand_written_simd",
    "generated_store",
    "generated_simd_u32",
    "generated_simd_columns",
    "generated_avx2_u32",
    "generated_avx2_columns",
    "pdep",
    "zorder_bmi2",
    "zorder",
    "interpreter",
];

/// The markdown summary of this run's results, and the notes on what could not be read.
fn summary(since: SystemTime) -> String {
    let mut table = String::from(
        "| group | function | median ns / batch | ns / element | Melem/s | anchor / generated |\n\
         |---|---|---:|---:|---:|---:|\n",
    );
    let mut verdicts = String::new();
    let mut missing = String::new();
    for (group, functions) in RESULTS {
        let times: Vec<(&str, f64)> = functions
            .iter()
            .filter_map(|&function| match median_ns(group, function, since) {
                Ok(ns) => Some((function, ns)),
                Err(why) => {
                    let _ = writeln!(missing, "- {group}/{function}: {why}");
                    None
                }
            })
            .collect();
        let time_of = |name: &str| times.iter().find(|(f, _)| *f == name).map(|&(_, ns)| ns);
        let generated = time_of("generated");
        for &(function, ns) in &times {
            let per_element = ns / BATCH as f64;
            let ratio = generated.map_or_else(|| "n/a".to_owned(), |g| format!("{:.2}×", ns / g));
            let _ = writeln!(
                table,
                "| {group} | {function} | {ns:.0} | {per_element:.3} | {:.0} | {ratio} |",
                1e3 / per_element,
            );
        }
        let Some(generated) = generated else { continue };
        // The scalar loop competes with the scalar anchors; the SIMD batch with all of them.
        for (subject, with_simd) in [("generated", false), ("generated_simd", true)] {
            let Some(subject_ns) = time_of(subject) else {
                continue;
            };
            let best = times
                .iter()
                .filter(|(f, _)| !f.starts_with("generated") && *f != "interpreter")
                .filter(|(f, _)| with_simd || !f.ends_with("_simd"))
                .min_by(|a, b| a.1.total_cmp(&b.1));
            if let Some(&(anchor, ns)) = best {
                let ratio = subject_ns / ns;
                let met = if ratio <= 1.1 { "met" } else { "NOT met" };
                let _ = writeln!(
                    verdicts,
                    "- {group}: {subject} takes {ratio:.2}× the time of the best anchor \
                     ({anchor}); target ≤ 1.1×: {met}",
                );
            }
        }
        if let Some(ns) = time_of("interpreter") {
            let speedup = ns / generated;
            let met = if speedup >= 10.0 { "met" } else { "NOT met" };
            let _ = writeln!(
                verdicts,
                "- {group}: generated is {speedup:.1}× faster than the interpreter; \
                 target ≥ 10×: {met}",
            );
        }
    }
    let mut out = table;
    if !verdicts.is_empty() {
        let _ = write!(out, "\n{verdicts}");
    }
    if !missing.is_empty() {
        let _ = write!(out, "\nResults not available:\n{missing}");
    }
    out
}

fn main() {
    // Estimates older than this are not from this run.
    let started = common::started();
    let mut criterion = common::criterion(30);
    benches(&mut criterion);
    criterion.final_summary();
    if is_benchmark_run() {
        println!("\n## Offset throughput, batch of {BATCH} coordinates\n");
        println!("{}", summary(started));
    }
}
