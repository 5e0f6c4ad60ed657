//! Which code copies a kernel's full tiles, and why: the answer of a kernel's generated
//! `route::<E>(options)`.

use super::Level;
use std::fmt;

/// What copies the full tiles of a kernel. Partial tiles at the edges of an array are always
/// copied in runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TileCopy {
    /// The SIMD rows `layout!` generated for the level: straight-line permutes, blends,
    /// loads and stores at constant offsets, a whole row of tiles per call.
    GeneratedRows,
    /// The plan's permute-and-blend network for the level's registers, interpreted by the
    /// runtime (no generated rows for this level and element size).
    InterpretedNetwork,
    /// The straight-line tile `layout!` generated: the tile's runs as `copy_from_slice` at
    /// constant offsets.
    StraightLineTile,
    /// The plan's runs, one `copy_from_slice` each.
    Runs,
}

/// Why a copy takes its [`Route`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The level was detected: the widest this CPU runs with generated rows for the
    /// element size whose tile's source registers fit the level's register file (past
    /// it, the straight-line rows spill their registers to the stack, and a 2048-word
    /// block-linear tile's rows lose to its runs; a kernel copies such a tile as the GOBs
    /// it stacks, whose rows fit).
    WidestGenerated,
    /// The level was detected: no level this CPU runs has generated rows for the element
    /// size, and the kernel has a straight-line tile, which beats an interpreted network.
    StraightLineFirst,
    /// The level was detected: the widest this CPU runs whose network beats the plan's
    /// runs interpreted (the kernel has no generated code for the element size).
    WidestNetwork,
    /// The level was detected: no level this CPU runs has a network for the tile and the
    /// element size.
    NoNetwork,
    /// The level was detected: the kernel has no generated code for the element size, and
    /// the widest network this CPU runs would cost more interpreted than the plan's runs
    /// (its controls would not stay in the L1 cache, or it takes more steps than the tile
    /// has runs).
    LargeNetwork,
    /// The level was given in [`Options`](super::Options).
    Pinned,
}

/// The path a kernel's copy of one element type takes on this CPU: the SIMD level, what
/// copies full tiles, and why. A kernel's generated `route::<E>(options)` tells it without
/// copying; `run_with` with the same options takes it. Views whose runs are not
/// contiguous (a column-major image, say) copy full tiles with the straight-line tile or
/// runs whatever the route says.
///
/// Its `Display` is one line: `AVX2: generated SIMD rows (the widest level this CPU runs
/// with generated rows for 4-byte elements)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Route {
    /// The SIMD level of the copy.
    pub level: Level,
    /// What copies the full tiles.
    pub tiles: TileCopy,
    /// Why.
    pub reason: Reason,
    /// Bytes per element, for the explanation.
    pub element_size: usize,
}

impl fmt::Display for TileCopy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TileCopy::GeneratedRows => "generated SIMD rows",
            TileCopy::InterpretedNetwork => "the plan's network, interpreted",
            TileCopy::StraightLineTile => "the generated straight-line tile",
            TileCopy::Runs => "runs of copy_from_slice",
        })
    }
}

impl fmt::Display for Route {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Route {
            level,
            tiles,
            reason,
            element_size: size,
        } = self;
        write!(f, "{level}: {tiles} (")?;
        match reason {
            Reason::WidestGenerated => write!(
                f,
                "the widest level this CPU runs with generated rows for {size}-byte elements \
                 whose source registers fit its register file"
            )?,
            Reason::StraightLineFirst => write!(
                f,
                "no level this CPU runs has generated rows for {size}-byte elements; the \
                 straight-line tile beats an interpreted network"
            )?,
            Reason::WidestNetwork => write!(
                f,
                "no generated code for {size}-byte elements; the widest level this CPU runs \
                 whose network beats the plan's runs interpreted"
            )?,
            Reason::NoNetwork => write!(
                f,
                "no level this CPU runs has a network for this tile of {size}-byte elements"
            )?,
            Reason::LargeNetwork => write!(
                f,
                "no generated code for {size}-byte elements; the widest network this CPU runs \
                 would cost more interpreted than the plan's runs"
            )?,
            Reason::Pinned => write!(f, "the level the options pin")?,
        }
        f.write_str(")")
    }
}
