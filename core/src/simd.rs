//! The SIMD vocabulary, in one place: the levels that copy kernels and batch offsets are
//! compiled for ([`Level`]: register width, lanes, target features, architecture, and
//! whether this CPU runs them), the
//! element sizes that get permute networks, and the one function from a network step to the
//! control of its permute ([`Permute::step`]). The expander (`swizzle-syntax`, which prints
//! the generated SIMD rows), the runtime's interpreted networks and its feature detection
//! all read them from here, so that the generated rows and the interpreted networks cannot
//! drift apart.
//!
//! # Adding a level
//!
//! A level (say SVE at a fixed 256-bit vector length) is a variant of [`Level`] and an arm in
//! each of its `const fn`s below ([`Level::ALL`], [`Level::SIMD`],
//! [`register_bytes`](Level::register_bytes),
//! [`target_features`](Level::target_features), [`arch`](Level::arch),
//! [`name`](Level::name), [`title`](Level::title), [`unit`](Level::unit),
//! [`streams`](Level::streams)); networks for its lanes are then planned
//! ([`network_lanes`]) and its steps' controls computed ([`Permute`]) with no other change.
//! What is outside this crate is the level's instructions: its token and operations in the
//! runtime (`kernel::simd`, with its feature names in `target_features!`), its run-time
//! detection here (`feature_detected`), what the batch loop compiles for it (levels it has
//! no code for run the baseline), and which of them the expander picks for a step
//! (`syntax/src/expand/simd.rs`, `permutes`).

use crate::plans::kernel::{Network, Plan, Step};
use std::fmt;

/// The element sizes, in bytes, that get permute networks and generated SIMD rows (where a
/// level has at least [`MIN_NETWORK_LANES`] of them: 16-byte elements on AVX-512 only).
pub const ELEMENT_SIZES: [usize; 5] = [1, 2, 4, 8, 16];

/// The fewest lanes a network is planned for: with two, a step moves at most one element on
/// average more than a run would, which does not pay for its permute.
pub const MIN_NETWORK_LANES: usize = 4;

/// A SIMD instruction set that copy kernels and batch loops are compiled for: the one type
/// the expander, the kernels and the batch loops name levels with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// The compilation target's baseline (SSE2 on x86-64), on any CPU: kernels copy in runs
    /// of `copy_from_slice`, the batch loop is compiled for the target as it is. No
    /// registers of its own ([`register_bytes`](Level::register_bytes) is 0).
    Scalar,
    /// aarch64 NEON: 16-byte registers, byte table lookups (`tbl`, `tbx`). Only the SIMD
    /// rows `layout!` generates run networks at this level (without them, kernels copy full
    /// tiles in runs); the batch loop has no code of its own for it and runs the baseline.
    Neon,
    /// x86-64 AVX2: 32-byte registers.
    Avx2,
    /// x86-64 AVX-512 F, BW and VBMI: 64-byte registers, masked word and byte permutes.
    Avx512,
}

impl Level {
    /// Every level, the baseline first, then narrowest register first.
    pub const ALL: [Level; 4] = [Level::Scalar, Level::Neon, Level::Avx2, Level::Avx512];

    /// The levels with SIMD registers (every level but [`Level::Scalar`]), narrowest first:
    /// those that networks are planned and rows generated for.
    pub const SIMD: [Level; 3] = [Level::Neon, Level::Avx2, Level::Avx512];

    /// The copy kernels' name for [`Level::Scalar`]: tiles copied in runs.
    #[deprecated(since = "0.2.0", note = "one level type: use `Level::Scalar`")]
    #[allow(non_upper_case_globals)] // the variant it was
    pub const Runs: Level = Level::Scalar;

    /// Bytes per register (0 for the baseline).
    pub const fn register_bytes(self) -> usize {
        match self {
            Level::Scalar => 0,
            Level::Neon => 16,
            Level::Avx2 => 32,
            Level::Avx512 => 64,
        }
    }

    /// Vector registers of the level: 32 for AVX-512 (`zmm0`–`zmm31`) and NEON, 16 for AVX2
    /// (and 32 for the baseline, which has none to run out of). Generated rows whose tile
    /// loads more source registers than this spill them to the stack and lose to the runs.
    pub const fn vector_registers(self) -> usize {
        match self {
            Level::Avx2 => 16,
            Level::Scalar | Level::Neon | Level::Avx512 => 32,
        }
    }

    /// Whether the generated rows of `network` fit this level's register file: its tile's
    /// source registers are at most [`vector_registers`](Self::vector_registers). The
    /// route's rule for taking generated rows, and the macro's for stacking a tall tile.
    pub fn fits_registers(self, network: &Network) -> bool {
        network.loads.len() <= self.vector_registers()
    }

    /// Elements of `size` bytes per register (0 for a size of 0 and for the baseline).
    pub const fn lanes(self, size: usize) -> usize {
        match size {
            0 => 0,
            size => self.register_bytes() / size,
        }
    }

    /// The target features code for the level is compiled with, as `#[target_feature(enable
    /// = ..)]` takes them (comma-separated), and as run-time detection checks them (none for
    /// the baseline).
    pub const fn target_features(self) -> &'static str {
        match self {
            Level::Scalar => "",
            Level::Neon => "neon",
            Level::Avx2 => "avx2",
            Level::Avx512 => "avx512f,avx512bw,avx512vbmi",
        }
    }

    /// The `target_arch` the level exists on (empty for the baseline, which is on every one).
    pub const fn arch(self) -> &'static str {
        match self {
            Level::Scalar => "",
            Level::Neon => "aarch64",
            Level::Avx2 | Level::Avx512 => "x86_64",
        }
    }

    /// Its name in code: the prefix of generated functions and the runtime's `Rows` field.
    pub const fn name(self) -> &'static str {
        match self {
            Level::Scalar => "scalar",
            Level::Neon => "neon",
            Level::Avx2 => "avx2",
            Level::Avx512 => "avx512",
        }
    }

    /// Its name in prose (and its `Display`).
    pub const fn title(self) -> &'static str {
        match self {
            Level::Scalar => "scalar",
            Level::Neon => "NEON",
            Level::Avx2 => "AVX2",
            Level::Avx512 => "AVX-512",
        }
    }

    /// Bytes per unit of the permutes the generated rows use for elements of `size` bytes:
    /// words (4) on x86 for elements of 4 bytes and more (`vpermd`, `vpermt2d`), bytes (1)
    /// for narrower elements and on NEON, whose lookups are bytewise (and 1 for the
    /// baseline, which permutes nothing).
    pub const fn unit(self, size: usize) -> usize {
        match self {
            Level::Scalar | Level::Neon => 1,
            Level::Avx2 | Level::Avx512 if size >= 4 => 4,
            Level::Avx2 | Level::Avx512 => 1,
        }
    }

    /// Whether stores may stream around the caches (x86 non-temporal stores).
    pub const fn streams(self) -> bool {
        match self {
            Level::Scalar | Level::Neon => false,
            Level::Avx2 | Level::Avx512 => true,
        }
    }

    /// Whether this CPU runs code compiled for the level: the baseline always; another
    /// level where this is its architecture and every one of its target features is
    /// detected at run time.
    pub fn is_available(self) -> bool {
        self == Level::Scalar
            || (cfg!(target_arch = "x86_64") == (self.arch() == "x86_64")
                && cfg!(target_arch = "aarch64") == (self.arch() == "aarch64")
                && self.target_features().split(',').all(feature_detected))
    }

    /// The widest level this CPU runs.
    pub fn detect() -> Level {
        Level::ALL
            .into_iter()
            .rev()
            .find(|level| level.is_available())
            .unwrap_or(Level::Scalar)
    }

    /// The network of `plan` for this level's registers of `E`, if it has one (none for
    /// the baseline, and for element sizes without networks).
    pub fn network<E>(self, plan: &Plan) -> Option<&Network> {
        let size = size_of::<E>();
        if self == Level::Scalar || !ELEMENT_SIZES.contains(&size) {
            return None;
        }
        let lanes = self.lanes(size);
        plan.networks.iter().find(|network| network.lanes == lanes)
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.title())
    }
}

/// Run-time detection of one target feature of a level (the standard macros take only
/// literals); false for a feature of another architecture or one no level names.
fn feature_detected(feature: &str) -> bool {
    match feature {
        #[cfg(target_arch = "x86_64")]
        "avx2" => std::arch::is_x86_feature_detected!("avx2"),
        #[cfg(target_arch = "x86_64")]
        "avx512f" => std::arch::is_x86_feature_detected!("avx512f"),
        #[cfg(target_arch = "x86_64")]
        "avx512bw" => std::arch::is_x86_feature_detected!("avx512bw"),
        #[cfg(target_arch = "x86_64")]
        "avx512vbmi" => std::arch::is_x86_feature_detected!("avx512vbmi"),
        #[cfg(target_arch = "aarch64")]
        "neon" => std::arch::is_aarch64_feature_detected!("neon"),
        _ => false,
    }
}

/// The register widths, in elements, that copy plans get networks for: every SIMD level's lanes
/// for every element size of [`ELEMENT_SIZES`], from [`MIN_NETWORK_LANES`] on, narrowest
/// first.
pub fn network_lanes() -> Vec<usize> {
    let mut lanes: Vec<usize> = Level::SIMD
        .iter()
        .flat_map(|level| ELEMENT_SIZES.map(|size| level.lanes(size)))
        .filter(|&lanes| lanes >= MIN_NETWORK_LANES)
        .collect();
    lanes.sort_unstable();
    lanes.dedup();
    lanes
}

/// How one level permutes elements of one size, in units of [`unit`](Self::unit) bytes:
/// what turns a network step into the control of a permute.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Permute {
    pub level: Level,
    /// Bytes per element.
    pub size: usize,
    /// Bytes per unit of the permute: 1 (byte indices) or 4 (word indices).
    pub unit: usize,
}

/// The control of one step: for each unit of the destination register, the unit of the
/// source register it takes, and which units the step writes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StepControl {
    /// Source unit per destination unit; 0 where the step does not write.
    pub sources: Vec<u32>,
    /// Bit `u` set where the step writes unit `u`.
    pub writes: u64,
}

impl Permute {
    /// The permutes the generated rows use: units of [`Level::unit`].
    pub const fn new(level: Level, size: usize) -> Self {
        Permute {
            level,
            size,
            unit: level.unit(size),
        }
    }

    /// Byte permutes, whatever the element size (AVX-512 VBMI's `vpermb`, as the
    /// runtime's interpreted networks use).
    pub const fn bytes(level: Level, size: usize) -> Self {
        Permute {
            level,
            size,
            unit: 1,
        }
    }

    /// Units per register.
    pub const fn units(self) -> usize {
        self.level.register_bytes() / self.unit
    }

    /// Elements per register: the network's lanes.
    pub const fn lanes(self) -> usize {
        self.level.lanes(self.size)
    }

    /// Units per element.
    pub const fn per_lane(self) -> usize {
        self.size / self.unit
    }

    /// Whether the units are words (4 bytes).
    pub const fn words(self) -> bool {
        self.unit == 4
    }

    /// The control of `step`: the one place a step's lanes become unit indices.
    pub fn step(self, step: &Step) -> StepControl {
        self.control(step.mask, &step.lanes).to_step()
    }

    /// [`step`](Self::step) of the step writing the lanes of `mask`, each from its lane of
    /// `lanes`, as a `const fn` (the runtime's unrolled rows compute their controls with
    /// it at compile time).
    pub const fn control(self, mask: u64, lanes: &[u8]) -> Units {
        let per_lane = self.per_lane();
        let mut units = Units::EMPTY;
        units.len = self.units();
        let mut unit = 0;
        while unit < units.len {
            let (lane, part) = (unit / per_lane, unit % per_lane);
            if mask >> lane & 1 == 1 {
                units.writes |= 1 << unit;
                units.sources[unit] = (lanes[lane] as usize * per_lane + part) as u32;
            }
            unit += 1;
        }
        units
    }

    /// The control of a two-register permute (AVX-512 `vpermt2`, NEON two-table lookups):
    /// `first`'s units, then `second`'s numbered from [`units`](Self::units) on, and `fill`
    /// where neither writes.
    pub fn pair(self, first: &StepControl, second: Option<&StepControl>, fill: u32) -> Vec<u32> {
        let second = second.map(Units::of);
        self.pair_units(&Units::of(first), second.as_ref(), fill)
            .to_vec()
    }

    /// [`pair`](Self::pair) as a `const fn`.
    pub const fn pair_units(self, first: &Units, second: Option<&Units>, fill: u32) -> Units {
        let offset = self.units() as u32;
        let mut pair = Units::EMPTY;
        pair.len = first.len;
        let mut unit = 0;
        while unit < first.len {
            pair.sources[unit] = match second {
                _ if first.writes >> unit & 1 == 1 => first.sources[unit],
                Some(second) if second.writes >> unit & 1 == 1 => offset + second.sources[unit],
                _ => fill,
            };
            unit += 1;
        }
        pair.writes = first.writes
            | if let Some(second) = second {
                second.writes
            } else {
                0
            };
        pair
    }
}

/// Most units a register has (AVX-512's 64 bytes).
pub const MAX_UNITS: usize = 64;

/// A control in a fixed-size array, for `const fn`s: [`StepControl`]'s sources in the first
/// `len` of `sources`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Units {
    pub sources: [u32; MAX_UNITS],
    pub writes: u64,
    pub len: usize,
}

impl Units {
    const EMPTY: Units = Units {
        sources: [0; MAX_UNITS],
        writes: 0,
        len: 0,
    };

    fn of(step: &StepControl) -> Units {
        let mut units = Units::EMPTY;
        units.len = step.sources.len();
        units.sources[..units.len].copy_from_slice(&step.sources);
        units.writes = step.writes;
        units
    }

    fn to_vec(self) -> Vec<u32> {
        self.sources[..self.len].to_vec()
    }

    fn to_step(self) -> StepControl {
        StepControl {
            sources: self.to_vec(),
            writes: self.writes,
        }
    }

    /// The first `N` units, for a register's control (`N` at most [`MAX_UNITS`]).
    pub const fn take<const N: usize>(&self) -> [u32; N] {
        let mut out = [0; N];
        let mut unit = 0;
        while unit < N {
            out[unit] = self.sources[unit];
            unit += 1;
        }
        out
    }

    /// The first `N` units as bytes (byte controls and masks: every unit below 256).
    pub const fn bytes<const N: usize>(&self) -> [u8; N] {
        let mut out = [0; N];
        let mut unit = 0;
        while unit < N {
            out[unit] = self.sources[unit] as u8;
            unit += 1;
        }
        out
    }

    /// AVX2's byte permutes index within 128-bit halves (`vpshufb`): each byte's index in
    /// its source half, and 0x80 where that half is the other one.
    pub const fn in_halves(&self) -> (Units, Units) {
        let (mut within, mut cross) = (*self, *self);
        let mut byte = 0;
        while byte < self.len {
            let source = self.sources[byte];
            within.sources[byte] = source % 16;
            cross.sources[byte] = if source / 16 == byte as u32 / 16 {
                0
            } else {
                0x80
            };
            byte += 1;
        }
        (within, cross)
    }

    /// The written units as a mask of a blend: `full` where written, 0 elsewhere.
    pub const fn blend(&self, full: u32) -> Units {
        let mut mask = *self;
        let mut unit = 0;
        while unit < self.len {
            mask.sources[unit] = if self.writes >> unit & 1 == 1 {
                full
            } else {
                0
            };
            unit += 1;
        }
        mask
    }
}

impl StepControl {
    /// AVX2's byte permutes index within 128-bit halves (`vpshufb`): each byte's index in
    /// its source half, and 0x80 where that half is the other one.
    pub fn in_halves(&self) -> (Vec<u32>, Vec<u32>) {
        let (within, cross) = Units::of(self).in_halves();
        (within.to_vec(), cross.to_vec())
    }

    /// The written units as a byte mask of a byte blend: 0xFF where written.
    pub fn blend(&self) -> Vec<u32> {
        Units::of(self).blend(0xFF).to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::borrow::Cow;

    #[test]
    fn detect_is_the_widest_level_this_cpu_runs() {
        let widest = Level::detect();
        assert!(widest.is_available());
        let wider = Level::ALL.into_iter().filter(|&level| level > widest);
        assert!(wider.into_iter().all(|level| !level.is_available()));
    }

    #[test]
    #[allow(deprecated)]
    fn the_kernels_old_name_is_the_baseline() {
        assert_eq!(Level::Runs, Level::Scalar);
        // Still a pattern, as the variant was.
        assert!(matches!(Level::Scalar, Level::Runs));
    }

    #[test]
    fn every_feature_of_this_architecture_is_detectable() {
        // A feature `feature_detected` does not know would make its level undetectable.
        #[cfg(target_arch = "x86_64")]
        assert!(Level::Avx2.is_available() == std::arch::is_x86_feature_detected!("avx2"));
        #[cfg(target_arch = "aarch64")]
        assert!(Level::Neon.is_available());
        assert!(Level::Scalar.is_available());
        for level in Level::SIMD {
            if level.is_available() {
                assert!(level.target_features().split(',').all(feature_detected));
            }
        }
    }

    #[test]
    fn network_lanes_are_every_level_and_size_from_four() {
        assert_eq!(network_lanes(), [4, 8, 16, 32, 64]);
    }

    #[test]
    fn a_step_takes_each_written_lanes_units_from_its_source_lane() {
        let step = Step {
            store: 0,
            load: 0,
            mask: 0b0110,
            lanes: Cow::Owned(vec![0, 3, 0, 0]),
        };
        let words = Permute::new(Level::Avx512, 16).step(&step);
        // 16-byte elements: 4 lanes of 4 words; lane 1 takes lane 3, lane 2 lane 0.
        assert_eq!(&words.sources[4..12], &[12, 13, 14, 15, 0, 1, 2, 3]);
        assert_eq!(words.writes, 0x0FF0);
        let bytes = Permute::bytes(Level::Avx512, 16).step(&step);
        assert_eq!(bytes.sources[16], 48);
        assert_eq!(bytes.writes, 0xFFFF_FFFF_0000);
    }
}
