//! Global-memory transactions: how many memory transactions, and how many bytes, the
//! memory system moves to serve one access, under three coalescing models.
//!
//! Offsets are in elements; a lane's bytes are `offset · element_bytes ..` and the *word* a
//! lane requests is its whole vector when the vector's elements are contiguous and in order
//! in memory (one vector load), otherwise each element is a separate one-element
//! instruction, as a compiler would have to issue it.
//!
//! - [`Coalescing::Cc11`], compute capability 1.0/1.1, per half-warp of 16 lanes, as
//!   Nocentino & Rhodes' paper states it: the half-warp is coalesced when the k-th lane
//!   (lane id mod 16) accesses the k-th word of a segment of `16 · word` bytes aligned to
//!   its size; lanes may be absent. A coalesced half-warp costs that segment, in
//!   transactions of at most 128 bytes (two for 16-byte words, as the CUDA guide says) and at
//!   least 32. Otherwise every lane is served by its own transaction (16 for a full
//!   half-warp), each moving the 32-byte-aligned span around the lane's word. (The CUDA 2.3
//!   guide also requires 4-, 8- or 16-byte words; the paper does not, and neither do we.)
//! - [`Coalescing::Cc13`], compute capability 1.2/1.3, per half-warp, the CUDA 2.3 guide's
//!   algorithm that the paper summarises: the segment size is 32 bytes for 1-byte words,
//!   64 for 2-byte words and 128 for larger words; every segment a lane's word falls in costs
//!   one transaction, reduced from 128 to 64 bytes and from 64 to 32 while only the lower or
//!   the upper half of it is used.
//! - [`Coalescing::Sectors32`], current GPUs (Fermi L2 onwards), per warp of 32 lanes: each
//!   distinct 32-byte sector touched is one transaction of 32 bytes.

use super::access::{Access, AccessError, Touch};
use crate::ir::Descriptor;
use std::collections::BTreeMap;

/// A coalescing model (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coalescing {
    /// Compute capability 1.1, per half-warp: coalesced only in lane order.
    Cc11,
    /// Compute capability 1.2/1.3, per half-warp: 32/64/128-byte segments, reduced.
    Cc13,
    /// Current GPUs, per warp: 32-byte sectors.
    Sectors32,
}

/// What serving one access costs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Transactions {
    /// Bytes the lanes ask for (`lanes · vector · element_bytes`, repeats included).
    pub requested_bytes: usize,
    /// Memory transactions issued.
    pub transactions: usize,
    /// Bytes those transactions move.
    pub transferred_bytes: usize,
}

impl Transactions {
    /// Requested over transferred bytes: 1.0 when nothing is wasted (the paper's load factor).
    pub fn efficiency(&self) -> f64 {
        if self.transferred_bytes == 0 {
            1.0
        } else {
            self.requested_bytes as f64 / self.transferred_bytes as f64
        }
    }
}

impl std::ops::AddAssign for Transactions {
    fn add_assign(&mut self, other: Transactions) {
        self.requested_bytes = self.requested_bytes.saturating_add(other.requested_bytes);
        self.transactions = self.transactions.saturating_add(other.transactions);
        self.transferred_bytes = self
            .transferred_bytes
            .saturating_add(other.transferred_bytes);
    }
}

/// The smallest transaction the memory controller issues, and the largest.
const MIN_TRANSACTION: u128 = 32;
const MAX_TRANSACTION: u128 = 128;

/// One lane's word: `bytes` bytes from byte `start`; `slot` is the lane id, then its
/// position within its half-warp or warp.
#[derive(Clone, Copy, Debug)]
struct Word {
    slot: usize,
    start: u128,
    bytes: u128,
}

impl Word {
    fn end(self) -> u128 {
        self.start + self.bytes
    }
}

impl Coalescing {
    /// Lanes that the memory system serves together: a half-warp or a warp.
    fn group(self) -> usize {
        match self {
            Coalescing::Cc11 | Coalescing::Cc13 => 16,
            Coalescing::Sectors32 => 32,
        }
    }

    /// The cost of one group's words (all of one size, at least one word).
    fn cost(self, words: &[Word]) -> (u128, u128) {
        match self {
            Coalescing::Cc11 => cc11(words),
            Coalescing::Cc13 => {
                let segment = match words[0].bytes {
                    1 => 32,
                    2 => 64,
                    _ => 128,
                };
                segments(words, segment, true)
            }
            Coalescing::Sectors32 => segments(words, MIN_TRANSACTION, false),
        }
    }
}

/// Compute capability 1.1: one segment of `16 · word` bytes if lane k reads word k of it,
/// else one transaction per lane.
fn cc11(words: &[Word]) -> (u128, u128) {
    let word = words[0].bytes;
    let segment = 16 * word;
    let base = words[0].start.checked_sub(words[0].slot as u128 * word);
    let coalesced = base.is_some_and(|base| {
        base % segment == 0
            && words
                .iter()
                .all(|w| w.start == base + w.slot as u128 * word)
    });
    if coalesced {
        let size = segment.clamp(MIN_TRANSACTION, MAX_TRANSACTION);
        let count = segment.div_ceil(MAX_TRANSACTION);
        (count, count * size)
    } else {
        let span = |w: &Word| {
            let first = w.start / MIN_TRANSACTION;
            let last = (w.end() - 1) / MIN_TRANSACTION;
            (last - first + 1) * MIN_TRANSACTION
        };
        (words.len() as u128, words.iter().map(span).sum())
    }
}

/// One transaction per `segment`-sized aligned segment that the words touch; with `reduce`,
/// a segment shrinks by halves (down to 32 bytes) while its used bytes lie in one half.
fn segments(words: &[Word], segment: u128, reduce: bool) -> (u128, u128) {
    // segment index → used byte range [lo, hi)
    let mut used: BTreeMap<u128, (u128, u128)> = BTreeMap::new();
    for word in words {
        for index in word.start / segment..=(word.end() - 1) / segment {
            let lo = word.start.max(index * segment);
            let hi = word.end().min((index + 1) * segment);
            let range = used.entry(index).or_insert((lo, hi));
            *range = (range.0.min(lo), range.1.max(hi));
        }
    }
    let bytes = used
        .iter()
        .map(|(&index, &(lo, hi))| {
            let (mut base, mut size) = (index * segment, segment);
            while reduce && size > MIN_TRANSACTION {
                let half = size / 2;
                if hi <= base + half {
                    size = half;
                } else if lo >= base + half {
                    base += half;
                    size = half;
                } else {
                    break;
                }
            }
            size
        })
        .sum();
    (used.len() as u128, bytes)
}

/// The instructions an access compiles to, each one word per lane (`slot` = lane id): one
/// vector load per lane when every lane's vector is contiguous and in order, else one
/// instruction per element.
fn instructions(touches: &[Touch], vector: usize, element_bytes: u128) -> Vec<Vec<Word>> {
    let lanes: Vec<&[Touch]> = touches.chunks(vector.max(1)).collect();
    let contiguous = lanes.iter().all(|lane| {
        lane.windows(2)
            .all(|pair| pair[0].offset.checked_add(1) == Some(pair[1].offset))
    });
    let word = |first: &Touch, elements: usize| Word {
        slot: first.lane,
        start: first.offset as u128 * element_bytes,
        bytes: elements as u128 * element_bytes,
    };
    if contiguous {
        vec![
            lanes
                .iter()
                .map(|lane| word(&lane[0], lane.len()))
                .collect(),
        ]
    } else {
        (0..vector)
            .map(|i| lanes.iter().map(|lane| word(&lane[i], 1)).collect())
            .collect()
    }
}

/// What serving `access` on `layout` costs under `model` (see the module docs).
pub fn transactions(
    layout: &Descriptor,
    access: &Access,
    model: Coalescing,
) -> Result<Transactions, AccessError> {
    let touches = access.touches(layout)?;
    Ok(transactions_of(
        &touches,
        access.vector,
        access.element_bytes,
        model,
    ))
}

/// What serving one instruction whose lanes touch `touches` (each lane's `vector` elements
/// of `element_bytes` bytes, lane by lane) costs under `model`: for instructions that are
/// not written as an [`Access`] (a tiled copy's).
pub fn transactions_of(
    touches: &[Touch],
    vector: usize,
    element_bytes: usize,
    model: Coalescing,
) -> Transactions {
    let element_bytes_wide = element_bytes.max(1) as u128;
    let group = model.group();
    let (mut count, mut bytes) = (0u128, 0u128);
    for instruction in instructions(touches, vector, element_bytes_wide) {
        // Words come in lane order, so each group (half-warp or warp) is one run.
        for words in instruction.chunk_by(|a, b| a.slot / group == b.slot / group) {
            let words: Vec<Word> = words
                .iter()
                .map(|&word| Word {
                    slot: word.slot % group,
                    ..word
                })
                .collect();
            let (c, b) = model.cost(&words);
            count += c;
            bytes += b;
        }
    }
    let saturate = |v: u128| usize::try_from(v).unwrap_or(usize::MAX);
    Transactions {
        requested_bytes: saturate(touches.len() as u128 * element_bytes as u128),
        transactions: saturate(count),
        transferred_bytes: saturate(bytes),
    }
}
