//! `swizzle l -> u (auto for A, B)`: the macro chooses CuTe `Swizzle<B, M, S>` parameters
//! for the declared accesses. Every swizzle whose bits fit the dim is tried (plus the
//! identity); the winner has the fewest bank conflicts over all the accesses, then the widest
//! contiguous vector, then the fewest bits moved. Triton's linear-layout swizzle synthesis
//! picks from the same family (XOR of row bits into column bits, vector-aligned).

use super::check::AutoSwizzle;
use crate::errors::Errors;
use crate::items::access::{Accesses, CheckedAccess};
use swizzle_core::analysis::banks::{Banks, bank_conflicts};
use swizzle_core::analysis::contiguity::vector_width;
use swizzle_core::budget::{AUTO_TIE_BREAK, AUTO_WORK};
use swizzle_core::ir::{Descriptor, Transform};

/// The parameters `auto` chose, and why.
#[derive(Clone)]
pub struct Choice {
    pub bits: u32,
    pub base: u32,
    pub shift: i32,
    /// The bank-conflict degree of each access under the chosen swizzle.
    pub degrees: Vec<(String, usize)>,
    pub vector: usize,
    /// How many swizzles were compared.
    pub candidates: usize,
}

/// Searches the parameters of `auto`'s stage and writes the winner into `descriptor`.
pub fn resolve(
    descriptor: &mut Descriptor,
    auto: &AutoSwizzle,
    accesses: &Accesses,
    errors: &mut Errors,
) -> Option<Choice> {
    let targets: Vec<&CheckedAccess> = auto
        .accesses
        .iter()
        .filter_map(|name| super::assertions::lookup(name, accesses, errors).ok())
        .collect();
    if targets.len() != auto.accesses.len() {
        return None;
    }
    let Transform::Swizzle(swizzle) = descriptor.stages.get(auto.stage)? else {
        return None;
    };
    let width = descriptor.dims.get(swizzle.lower)?.len.trailing_zeros();
    let candidates = candidates(width);
    // Every candidate is scored on every element of every access: bounded, so that a long
    // dim and a wide access cannot make the expansion run for minutes.
    let elements: u128 = targets
        .iter()
        .map(|t| t.access.lanes as u128 * t.access.vector as u128)
        .sum();
    let work = candidates.len() as u128 * elements;
    if work > AUTO_WORK as u128 {
        errors.error(
            &auto.tokens,
            format!(
                "`auto` would score {} swizzles of this {width}-bit dim on {elements} elements \
                 each, {work} evaluations, more than its budget of {AUTO_WORK}: give the \
                 swizzle's parameters, swizzle a shorter dim, or give the accesses fewer lanes",
                candidates.len()
            ),
        );
        return None;
    }
    // (degree, candidate) for every candidate, or the first access error.
    let mut scored = Vec::with_capacity(candidates.len());
    for &candidate in &candidates {
        let trial = with_swizzle(descriptor, auto.stage, candidate);
        let mut degrees = Vec::with_capacity(targets.len());
        for target in &targets {
            let (count, width_bytes) = target.banks;
            match bank_conflicts(&trial, &target.access, Banks { count, width_bytes }) {
                Ok(report) => degrees.push((target.access.name.clone(), report.degree)),
                Err(error) => {
                    let name = &auto.accesses[degrees.len()];
                    errors.error(name, format!("`{name}` does not fit this layout: {error}"));
                    return None;
                }
            }
        }
        scored.push((
            degrees.iter().map(|d| d.1).max().unwrap_or(0),
            candidate,
            degrees,
        ));
    }
    let best_degree = scored.iter().map(|s| s.0).min()?;
    // The vector-width tie-break walks the whole layout once per tied candidate: only where
    // that stays cheap at expansion time; beyond, the simplest candidate wins.
    let small = descriptor.size().is_some_and(|size| size <= AUTO_TIE_BREAK);
    let width = |candidate| vector_width(&with_swizzle(descriptor, auto.stage, candidate));
    let (found, (bits, base, shift), degrees) = scored
        .into_iter()
        .filter(|s| s.0 == best_degree)
        .map(|(_, candidate, degrees)| (small.then(|| width(candidate)), candidate, degrees))
        // Widest vector first, then the first (simplest) candidate.
        .reduce(|best, next| if next.0 > best.0 { next } else { best })?;
    // The tie-break measured the winner already, unless the layout was too large for it.
    let vector = found.unwrap_or_else(|| width((bits, base, shift)));
    *descriptor = with_swizzle(descriptor, auto.stage, (bits, base, shift));
    Some(Choice {
        bits,
        base,
        shift,
        degrees,
        vector,
        candidates: candidates.len(),
    })
}

/// Every `(B, M, S)` whose bits fit a `width`-bit dim and which moves at least one bit,
/// simplest first (fewest bits, lowest base, smallest shift), after the identity.
fn candidates(width: u32) -> Vec<(u32, u32, i32)> {
    let mut all = vec![(0, 0, 0)];
    for bits in 1..=width / 2 {
        for base in 0..width {
            for shift in bits..=width {
                // S > 0 reads bits base+S.. and writes base..; S < 0 the other way round.
                if base + shift + bits <= width {
                    all.push((bits, base, shift as i32));
                    all.push((bits, base, -(shift as i32)));
                }
            }
        }
    }
    all
}

fn with_swizzle(
    descriptor: &Descriptor,
    stage: usize,
    (bits, base, shift): (u32, u32, i32),
) -> Descriptor {
    let mut trial = descriptor.clone();
    if let Some(Transform::Swizzle(swizzle)) = trial.stages.to_mut().get_mut(stage) {
        (swizzle.bits, swizzle.base, swizzle.shift) = (bits, base, shift);
    }
    trial
}
