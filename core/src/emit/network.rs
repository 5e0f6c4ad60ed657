//! Shift networks: moving the bits of one variable to new positions (a `pdep`/`pext` with a
//! constant mask, as in Hacker's Delight §7-5) in log-many shift-and-mask stages instead of
//! one term per distinct shift. Morton's 8-bit spread takes 3 stages instead of 8 terms.
//!
//! Stages are planned by simulating where every bit is after each stage, so a plan is only
//! used when no two bits ever meet; no lemma about which masks admit which order is needed.

use crate::emit::code::{Code, Op};

/// A planned network, the operations it costs, and its intermediate stages in order (what
/// the locals binding them are named after).
pub struct Network {
    pub code: Code,
    pub operations: usize,
    pub stages: Vec<Code>,
}

/// One stage: move the bits in `movers` by `shift` (left or right), keep the rest.
struct Stage {
    shift: u32,
    /// Positions of the bits that stay, and of the moved bits after the move.
    stay: u128,
    moved: u128,
    /// Whether `(x | x << s) & (stay | moved)` is exact (no bit lands on another's place).
    merged: bool,
}

/// Moves bit `source` of the `width`-bit variable `var` to `target` for every pair in
/// `moves`, when every bit moves the same direction and a collision-free plan exists. The
/// distance all bits share moves once, as a plain shift (before the stages when moving
/// right, after them when moving left).
pub fn scatter(var: &str, width: u32, moves: &[(u32, u32)]) -> Option<Network> {
    let left = moves.iter().all(|&(s, t)| t >= s);
    let right = moves.iter().all(|&(s, t)| t <= s);
    if !(left || right) {
        return None;
    }
    let base = moves.iter().map(|&(s, t)| s.abs_diff(t)).min()?;
    let sources = moves.iter().fold(0u128, |acc, &(s, _)| acc | 1 << s);
    if sources.count_ones() as usize != moves.len() {
        return None; // a bit fans out to several places
    }
    // Plan on the positions after the common shift (right) or before it (left).
    let planned: Vec<(u32, u32)> = moves
        .iter()
        .map(|&(s, t)| if left { (s, t - base) } else { (s - base, t) })
        .collect();
    let high_first: Vec<u32> = (0..7).rev().collect();
    let low_first: Vec<u32> = (0..7).collect();
    let orders = if left {
        [high_first, low_first]
    } else {
        [low_first, high_first]
    };
    let stages = orders
        .iter()
        .find_map(|order| plan(&planned, order, left))?;
    let (op, mut operations) = (if left { Op::Shl } else { Op::Shr }, usize::from(base > 0));
    let mut code = if left {
        Code::var(var)
    } else {
        Code::var(var).shifted(Op::Shr, base)
    };
    // Bits outside the sources must go: the first stage masks both halves separately (its
    // two-mask form), or a mask does it when there is no stage.
    let full = (1u128 << width) - 1;
    let mut unmasked = sources != full;
    let mut intermediates = Vec::new();
    for stage in &stages {
        let shifted = code.clone().shifted(op, stage.shift);
        code = if stage.merged && !unmasked {
            operations += 3;
            Code::bin(
                Op::And,
                Code::bin(Op::Or, code, shifted),
                Code::Mask(stage.stay | stage.moved),
            )
        } else {
            operations += 4;
            let stay = Code::bin(Op::And, code, Code::Mask(stage.stay));
            Code::bin(
                Op::Or,
                stay,
                Code::bin(Op::And, shifted, Code::Mask(stage.moved)),
            )
        };
        unmasked = false;
        intermediates.push(code.clone());
    }
    if unmasked {
        let planned_sources = planned.iter().fold(0u128, |acc, &(s, _)| acc | 1 << s);
        code = Code::bin(Op::And, code, Code::Mask(planned_sources));
        operations += 1;
    }
    if left {
        code = code.shifted(Op::Shl, base);
    }
    Some(Network {
        code,
        operations,
        stages: intermediates,
    })
}

/// Plans the stages for shift bits `order` (each bit `k` moves the bits whose distance has
/// bit `k` set by `2^k`), or `None` if two bits would ever share a position.
fn plan(moves: &[(u32, u32)], order: &[u32], left: bool) -> Option<Vec<Stage>> {
    let mut positions: Vec<u32> = moves.iter().map(|&(s, _)| s).collect();
    let distances: Vec<u32> = moves.iter().map(|&(s, t)| s.abs_diff(t)).collect();
    let mut stages = Vec::new();
    for &k in order {
        let shift = 1u32 << k;
        let movers: Vec<usize> = (0..moves.len())
            .filter(|&i| distances[i] >> k & 1 == 1)
            .collect();
        if movers.is_empty() {
            continue;
        }
        let occupied = mask(positions.iter().copied())?;
        for &i in &movers {
            positions[i] = if left {
                positions[i].checked_add(shift)?
            } else {
                positions[i].checked_sub(shift)?
            };
        }
        let moved = mask(movers.iter().map(|&i| positions[i]))?;
        let stay = mask(
            (0..moves.len())
                .filter(|i| !movers.contains(i))
                .map(|i| positions[i]),
        )?;
        if stay & moved != 0 || (stay | moved).count_ones() as usize != moves.len() {
            return None;
        }
        // The merged form ORs x with its shifted copy: exact when no stayer receives a
        // shifted bit and no mover lands on a bit that was there before.
        let shifted_occupied = if left {
            occupied.checked_shl(shift)?
        } else {
            occupied >> shift
        };
        let merged = stay & shifted_occupied == 0 && moved & occupied == 0;
        stages.push(Stage {
            shift,
            stay,
            moved,
            merged,
        });
    }
    (positions.iter().zip(moves).all(|(&p, &(_, t))| p == t)).then_some(stages)
}

fn mask(positions: impl Iterator<Item = u32>) -> Option<u128> {
    positions
        .map(|p| 1u128.checked_shl(p))
        .try_fold(0u128, |acc, bit| Some(acc | bit?))
}
