//! Shared-memory bank conflicts (NVIDIA shared memory, AMD LDS).
//!
//! Shared memory is split into `count` banks of `width_bytes` each; word `w` (the
//! `width_bytes`-sized word at byte `w · width_bytes`) lives in bank `w % count`. Each bank
//! serves one word per cycle, so a request that needs `n` distinct words of one bank takes
//! `n` cycles: an *n-way* conflict.
//!
//! The model, and why:
//! - **Phases.** A request wider than the banks can serve at once is split into phases of
//!   `max(1, min(lanes, count · width_bytes / (vector · element_bytes)))` consecutive lanes,
//!   so that one phase asks for at most `count · width_bytes` bytes. This is what NVIDIA
//!   hardware does for 64-bit (half-warp phases) and 128-bit (quarter-warp phases) accesses;
//!   conflicts only count between lanes of the same phase.
//! - **Broadcast.** Within a phase the degree of a bank is the number of *distinct* words
//!   requested from it: lanes reading the same word are served by one read (a broadcast),
//!   not a conflict. An element wider than a bank word occupies every word it overlaps.
//! - **Degree.** The report's `degree` is the maximum over banks and phases; 1 means
//!   conflict-free.
//! - **Wavefronts.** Each phase takes as many passes of the banks (wavefronts, one cycle of
//!   the shared-memory pipe each) as its busiest bank's distinct words; the report's
//!   `wavefronts` is their sum over the phases: what the instruction costs the pipe, where
//!   `degree` says only how bad its worst phase is (a conflict-free `vec4` access takes four
//!   wavefronts, one per quarter-warp phase; a 4-way conflicted scalar one takes four too).
//!
//! Where every lane touches a distinct word, this equals the "count the accesses per bank"
//! analysers of CK Tile's Morton texture example and its LDS index swapping.

use super::access::{Access, AccessError, Touch};
use crate::budget::ACCESS_BANK_WORDS;
use crate::ir::Descriptor;
use std::collections::{BTreeMap, HashSet};

/// A shared-memory bank configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Banks {
    /// Number of banks.
    pub count: usize,
    /// Bytes per bank word.
    pub width_bytes: usize,
}

impl Default for Banks {
    /// 32 banks of 4 bytes: NVIDIA since Fermi, AMD LDS.
    fn default() -> Self {
        Banks {
            count: 32,
            width_bytes: 4,
        }
    }
}

impl Banks {
    /// The bank words (as `width_bytes`-word indices) covered by the element at `offset`.
    /// Zero sizes are read as 1 so that the analysis never divides by zero; the word index
    /// is `u128` so that no `usize` offset overflows.
    fn words(self, offset: usize, element_bytes: usize) -> std::ops::RangeInclusive<u128> {
        let width = self.width_bytes.max(1) as u128;
        let first_byte = offset as u128 * element_bytes as u128;
        let last_byte = first_byte + element_bytes.max(1) as u128 - 1;
        first_byte / width..=last_byte / width
    }

    fn bank_of_word(self, word: u128) -> usize {
        // The remainder is below `count`, a `usize`.
        (word % self.count.max(1) as u128) as usize
    }

    /// Bytes all banks serve in one cycle.
    fn bytes_per_cycle(self) -> usize {
        self.count.saturating_mul(self.width_bytes)
    }
}

/// Distinct words that collide in one bank in one phase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BankConflict {
    pub phase: usize,
    pub bank: usize,
    /// One touch per distinct word (the first lane to request it), in lane order.
    pub touches: Vec<Touch>,
}

impl BankConflict {
    /// The elements behind the colliding words, in lane order, each once with the number
    /// of its words: an element wider than a bank word spans several words of one bank.
    pub fn elements(&self) -> Vec<(&Touch, usize)> {
        let mut elements: Vec<(&Touch, usize)> = Vec::new();
        for touch in &self.touches {
            match elements.last_mut() {
                Some((last, words)) if *last == touch => *words += 1,
                _ => elements.push((touch, 1)),
            }
        }
        elements
    }
}

/// The bank conflicts of one access.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BankReport {
    /// Distinct words requested from the busiest bank in the worst phase: 1 is
    /// conflict-free, 0 means the access touches nothing.
    pub degree: usize,
    /// Number of phases the access is split into.
    pub phases: usize,
    /// The sum over phases of the busiest bank's distinct words: the passes (cycles of the
    /// shared-memory pipe) the whole instruction takes; 0 where it touches nothing.
    pub wavefronts: usize,
    /// When `degree > 1`, the first bank (in phase order, then bank order) reaching it.
    pub worst: Option<BankConflict>,
}

impl BankReport {
    /// Whether no bank serves more than one word in any phase.
    pub fn is_conflict_free(&self) -> bool {
        self.degree <= 1
    }
}

/// The bank of the element at `offset` (in elements) of `element_bytes` bytes: its first
/// byte's word modulo the bank count.
pub fn bank_of(offset: usize, element_bytes: usize, banks: Banks) -> usize {
    banks.bank_of_word(*banks.words(offset, element_bytes).start())
}

/// The bank conflicts of `access` on `layout` under the model of the module docs.
pub fn bank_conflicts(
    layout: &Descriptor,
    access: &Access,
    banks: Banks,
) -> Result<BankReport, AccessError> {
    let touches = access.touches(layout)?;
    let words: u128 = touches
        .iter()
        .map(|touch| {
            let words = banks.words(touch.offset, access.element_bytes);
            words.end() - words.start() + 1
        })
        .sum();
    if words > ACCESS_BANK_WORDS as u128 {
        return Err(AccessError::OverBudget {
            what: "bank words",
            count: words,
            budget: ACCESS_BANK_WORDS,
        });
    }
    Ok(conflicts_of(
        &touches,
        access.lanes,
        access.vector,
        access.element_bytes,
        banks,
    ))
}

/// The bank conflicts of one instruction whose lanes (`0..lanes`) touch `touches` (each
/// lane's `vector` elements of `element_bytes` bytes), under the model of the module docs:
/// for instructions that are not written as an [`Access`] (a tiled copy's).
pub fn conflicts_of(
    touches: &[Touch],
    lanes: usize,
    vector: usize,
    element_bytes: usize,
    banks: Banks,
) -> BankReport {
    let lane_bytes = vector.saturating_mul(element_bytes).max(1);
    let per_phase = (banks.bytes_per_cycle() / lane_bytes).min(lanes).max(1);
    let phases = lanes.div_ceil(per_phase);
    // (phase, bank) → the distinct words requested, each with its first touch.
    let mut requests: BTreeMap<(usize, usize), Vec<&Touch>> = BTreeMap::new();
    let mut seen: HashSet<(usize, u128)> = HashSet::new();
    for touch in touches {
        let phase = touch.lane / per_phase;
        for word in banks.words(touch.offset, element_bytes) {
            if seen.insert((phase, word)) {
                let bank = banks.bank_of_word(word);
                requests.entry((phase, bank)).or_default().push(touch);
            }
        }
    }
    let degree = requests.values().map(Vec::len).max().unwrap_or(0);
    let mut busiest: BTreeMap<usize, usize> = BTreeMap::new();
    for (&(phase, _), words) in &requests {
        let most = busiest.entry(phase).or_default();
        *most = (*most).max(words.len());
    }
    let wavefronts = busiest.values().sum();
    let worst = requests
        .into_iter()
        .find(|(_, words)| degree > 1 && words.len() == degree)
        .map(|((phase, bank), words)| BankConflict {
            phase,
            bank,
            touches: words.into_iter().cloned().collect(),
        });
    BankReport {
        degree,
        phases,
        wavefronts,
        worst,
    }
}
