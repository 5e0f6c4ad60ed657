//! What every bench needs: one criterion setting (and its quick pass) and, for its summary,
//! criterion's estimates from this run, read back from disk, and whether this is a
//! benchmark run at all.

use criterion::Criterion;
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::{Duration, SystemTime};

/// Where criterion writes its results: `$CRITERION_HOME`, else `$CARGO_TARGET_DIR/criterion`,
/// else `target/criterion` (cargo runs benches from the package root, which here is also
/// the workspace root).
fn criterion_home() -> PathBuf {
    if let Some(home) = std::env::var_os("CRITERION_HOME") {
        return home.into();
    }
    std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(|| PathBuf::from("target"), PathBuf::from)
        .join("criterion")
}

/// The sides a bench measures: `SWIZZLE_BENCH_SIDES` (comma-separated), else `default`.
#[allow(dead_code)] // Not every bench measures square sides.
pub fn sides(default: &[usize]) -> Vec<usize> {
    std::env::var("SWIZZLE_BENCH_SIDES")
        .ok()
        .and_then(|list| list.split(',').map(|s| s.trim().parse().ok()).collect())
        .unwrap_or_else(|| default.to_vec())
}

/// The median time of one batch in ns, as criterion estimated it in this run.
pub fn median_ns(group: &str, function: &str, since: SystemTime) -> Result<f64, String> {
    let path = criterion_home()
        .join(group)
        .join(function)
        .join("new/estimates.json");
    let shown = path.display();
    let modified = std::fs::metadata(&path)
        .and_then(|meta| meta.modified())
        .map_err(|e| format!("cannot read {shown}: {e}"))?;
    if modified < since {
        return Err(format!("{shown} is from an earlier run"));
    }
    let text = std::fs::read_to_string(&path).map_err(|e| format!("cannot read {shown}: {e}"))?;
    let json: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("cannot parse {shown}: {e}"))?;
    json["median"]["point_estimate"]
        .as_f64()
        .ok_or_else(|| format!("{shown} has no median.point_estimate"))
}

/// This run's median of each of `names` in `group` (`None` where it did not run).
#[allow(dead_code)] // Not every bench reads a whole group.
pub fn medians<'a>(
    group: &str,
    names: &'a [String],
    since: SystemTime,
) -> Vec<(&'a str, Option<f64>)> {
    names
        .iter()
        .map(|name| (name.as_str(), median_ns(group, name, since).ok()))
        .collect()
}

/// The fastest of `times` whose names start with `prefix` (infinite when none ran).
#[allow(dead_code)] // Not every bench has anchors by prefix.
pub fn fastest(times: &[(&str, Option<f64>)], prefix: &str) -> f64 {
    times
        .iter()
        .filter(|(name, _)| name.starts_with(prefix))
        .filter_map(|(_, ns)| *ns)
        .fold(f64::INFINITY, f64::min)
}

/// Whether criterion runs benchmarks (rather than tests or a listing), by its own rule:
/// `--bench` without `--test`, `--list` or `--profile-time`.
pub fn is_benchmark_run() -> bool {
    let args: Vec<String> = std::env::args().collect();
    let has = |flag: &str| {
        args.iter()
            .any(|a| a == flag || a.starts_with(&format!("{flag}=")))
    };
    has("--bench") && !has("--test") && !has("--list") && !has("--profile-time")
}

/// When this run started (the first call's time): criterion's estimates older than this
/// are from an earlier run.
pub fn started() -> SystemTime {
    static STARTED: OnceLock<SystemTime> = OnceLock::new();
    *STARTED.get_or_init(SystemTime::now)
}

/// Criterion as the benches run it: 1 s of warm-up, 2 s of measurement, `samples` samples;
/// with `SWIZZLE_BENCH_QUICK=1`, a quick pass for the summary's shape (0.2 s, 0.5 s, 10
/// samples: noisier medians); then the command line's options.
pub fn criterion(samples: usize) -> Criterion {
    let quick = std::env::var("SWIZZLE_BENCH_QUICK").is_ok_and(|v| v == "1");
    let (warm_up, measurement, samples) = match quick {
        true => (200, 500, 10),
        false => (1000, 2000, samples),
    };
    Criterion::default()
        .warm_up_time(Duration::from_millis(warm_up))
        .measurement_time(Duration::from_millis(measurement))
        .sample_size(samples)
        .configure_from_args()
}

/// The benches' threaded memcpy: `src` into `dst` across rayon's threads, in parts of 256
/// KiB.
#[allow(dead_code)] // Not every bench copies across threads.
pub fn memcpy_threads<T: Copy + Send + Sync>(dst: &mut [T], src: &[T]) {
    use rayon::prelude::*;
    let part = (256 << 10) / size_of::<T>();
    dst.par_chunks_mut(part)
        .zip(src.par_chunks(part))
        .for_each(|(dst, src)| dst.copy_from_slice(src));
}

/// The ratio of an anchor's time over a function's, paired in time: each of [`ROUNDS`]
/// rounds runs each back to back (which goes first alternates), once to bring its own
/// buffers back into the caches, as they are in criterion's loop, then once timed. The
/// host's slower swings (other tenants, clocks), which criterion's measurements of the two,
/// seconds apart, each see differently, then fall on both sides of a round alike. (One
/// timed run a side, not the faster of several: the faster of several favours the side
/// whose times spread more.)
#[allow(dead_code)] // Not every bench pairs its anchors.
#[derive(Clone, Copy, Debug)]
pub struct Paired {
    /// The rounds' median ratio, and their lower and upper quartiles.
    pub median: f64,
    pub quartiles: [f64; 2],
    /// The median seconds of a run: the anchor's, the function's.
    pub seconds: [f64; 2],
}

/// Rounds of [`paired`].
pub const ROUNDS: usize = 21;

impl std::fmt::Display for Paired {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [low, high] = self.quartiles;
        write!(f, "{:.2} ({low:.2}–{high:.2})", self.median)
    }
}

/// [`Paired`] of `anchor` over `function`.
#[allow(dead_code)] // Not every bench pairs its anchors.
pub fn paired(mut anchor: impl FnMut(), mut function: impl FnMut()) -> Paired {
    // Seconds of one run of `run`, after one that brings its buffers in.
    let time = |run: &mut dyn FnMut()| {
        run();
        let start = std::time::Instant::now();
        run();
        start.elapsed().as_secs_f64()
    };
    let times: Vec<[f64; 2]> = (0..ROUNDS)
        .map(|round| match round % 2 {
            0 => {
                let a = time(&mut anchor);
                [a, time(&mut function)]
            }
            _ => {
                let f = time(&mut function);
                [time(&mut anchor), f]
            }
        })
        .collect();
    fn sorted(values: impl Iterator<Item = f64>) -> Vec<f64> {
        let mut values: Vec<f64> = values.collect();
        values.sort_by(f64::total_cmp);
        values
    }
    let ratios = sorted(times.iter().map(|[a, f]| a / f));
    Paired {
        median: ratios[ROUNDS / 2],
        quartiles: [ratios[ROUNDS / 4], ratios[3 * ROUNDS / 4]],
        seconds: [0, 1].map(|side| sorted(times.iter().map(|t| t[side]))[ROUNDS / 2]),
    }
}
