//! The canonical form of power-of-two layouts: an affine map over F2 from coordinate bits to
//! offset bits (each offset bit the XOR of some coordinate bits, as in Triton's linear
//! layouts). It decides bijectivity exactly, inverts by Gauss–Jordan elimination, and emits
//! the shortest mask/shift code: one term per (coordinate, shift) pair.

use crate::canon::sym::Sym;
use crate::emit::code::{Code, Op};
use crate::emit::network;
use std::collections::HashMap;

/// One output bit: the XOR of the input bits in `mask`, flipped when `constant`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BitForm {
    pub mask: u128,
    pub constant: bool,
}

impl BitForm {
    fn is_zero(self) -> bool {
        self.mask == 0 && !self.constant
    }

    pub fn xor(self, other: BitForm) -> BitForm {
        BitForm {
            mask: self.mask ^ other.mask,
            constant: self.constant ^ other.constant,
        }
    }
}

/// The inputs of a map: variable `i` owns bits `start[i] .. start[i] + width[i]`.
#[derive(Clone, Debug)]
pub struct Inputs {
    pub names: Vec<String>,
    pub widths: Vec<u32>,
}

impl Inputs {
    pub fn start(&self, var: usize) -> u32 {
        self.widths[..var].iter().sum()
    }

    pub fn total(&self) -> u32 {
        self.widths.iter().sum()
    }

    /// The variable and local bit of global input bit `bit`.
    pub fn locate(&self, bit: u32) -> Option<(usize, u32)> {
        let mut start = 0;
        for (var, &width) in self.widths.iter().enumerate() {
            if bit < start + width {
                return Some((var, bit - start));
            }
            start += width;
        }
        None
    }
}

/// An affine map over F2, one [`BitForm`] per output bit, least significant first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct F2Map {
    pub rows: Vec<BitForm>,
}

impl F2Map {
    /// Lowers `sym` to bits, or `None` when it is not F2-affine (a carry, a non-power-of-two
    /// factor or divisor, a negative constant).
    pub fn from_sym(sym: &Sym, inputs: &Inputs) -> Option<F2Map> {
        let mut rows = bits(sym, inputs)?;
        while rows.last().is_some_and(|r| r.is_zero()) {
            rows.pop();
        }
        Some(F2Map { rows })
    }

    pub fn eval(&self, input_bits: u128) -> u128 {
        self.rows.iter().enumerate().fold(0, |acc, (j, row)| {
            let bit = ((row.mask & input_bits).count_ones() & 1 == 1) ^ row.constant;
            acc | (u128::from(bit) << j)
        })
    }

    /// Row echelon form of the linear part: `(pivot column, row)` pairs.
    fn echelon(&self) -> Vec<(u32, u128)> {
        let mut pivots: Vec<(u32, u128)> = Vec::new();
        for row in &self.rows {
            let mut row = row.mask;
            for &(column, pivot) in &pivots {
                if row >> column & 1 == 1 {
                    row ^= pivot;
                }
            }
            if row != 0 {
                let column = row.trailing_zeros();
                for (_, other) in pivots.iter_mut() {
                    if *other >> column & 1 == 1 {
                        *other ^= row;
                    }
                }
                pivots.push((column, row));
            }
        }
        pivots
    }

    /// A non-zero input that maps to the same output as input 0, if the map is not injective
    /// on `total` input bits.
    pub fn kernel(&self, total: u32) -> Option<u128> {
        let pivots = self.echelon();
        let free = (0..total).find(|c| pivots.iter().all(|(p, _)| p != c))?;
        let mut witness = 1u128 << free;
        for (column, row) in pivots {
            if row >> free & 1 == 1 {
                witness |= 1u128 << column;
            }
        }
        Some(witness)
    }

    /// The inverse map (output bits → input bits) when the linear part is square and
    /// invertible on `total` input bits.
    pub fn inverse(&self, total: u32) -> Option<F2Map> {
        let n = total as usize;
        if self.rows.len() != n || self.kernel(total).is_some() {
            return None;
        }
        // Gauss–Jordan on [A | I]: row j of A is output bit j; augmented part tracks which
        // output bits combine into each reduced row.
        let mut rows: Vec<(u128, u128)> = self
            .rows
            .iter()
            .enumerate()
            .map(|(j, r)| (r.mask, 1u128 << j))
            .collect();
        for column in 0..n {
            let pivot = (column..n).find(|&r| rows[r].0 >> column & 1 == 1)?;
            rows.swap(column, pivot);
            let (mask, aug) = rows[column];
            for (r, row) in rows.iter_mut().enumerate() {
                if r != column && row.0 >> column & 1 == 1 {
                    row.0 ^= mask;
                    row.1 ^= aug;
                }
            }
        }
        // Row `column` now reads: input bit `column` = XOR of the output bits in `aug`. The
        // constant folds in: input = A⁻¹ (output ⊕ b).
        let b: u128 = self
            .rows
            .iter()
            .enumerate()
            .fold(0, |acc, (j, r)| acc | (u128::from(r.constant) << j));
        let rows = rows
            .into_iter()
            .map(|(_, aug)| BitForm {
                mask: aug,
                constant: (aug & b).count_ones() & 1 == 1,
            })
            .collect();
        Some(F2Map { rows })
    }

    /// The rows `range` as a map of their own (one coordinate of an inverse).
    pub fn slice(&self, start: u32, width: u32) -> F2Map {
        let rows = self
            .rows
            .iter()
            .skip(start as usize)
            .take(width as usize)
            .copied()
            .collect();
        F2Map { rows }
    }

    /// Mask/shift code: per input, one term per distinct shift or a shift network,
    /// whichever costs fewer operations; the terms are joined with `|` where they own
    /// disjoint output bits and with `^` where they overlap. Network stages get names in
    /// `names` for the locals that bind them: `label_1`, `label_2`, … (by default
    /// `x_spread_1` for an input `x` whose bits spread out, `x_gather_1` when they gather).
    pub fn to_code(
        &self,
        inputs: &Inputs,
        names: &mut HashMap<Code, String>,
        label: Option<&str>,
    ) -> Code {
        let mut groups: Vec<(usize, i64, u128)> = Vec::new();
        let mut constant = 0u128;
        for (j, row) in self.rows.iter().enumerate() {
            constant |= u128::from(row.constant) << j;
            let mut mask = row.mask;
            while mask != 0 {
                let bit = mask.trailing_zeros();
                mask &= mask - 1;
                let Some((var, local)) = inputs.locate(bit) else {
                    continue;
                };
                let shift = j as i64 - i64::from(local);
                match groups.iter_mut().find(|(v, s, _)| *v == var && *s == shift) {
                    Some(group) => group.2 |= 1u128 << local,
                    None => groups.push((var, shift, 1u128 << local)),
                }
            }
        }
        // (lowest output bit, output bits, code) of every term.
        let mut terms: Vec<(u32, u128, Code)> = Vec::new();
        for (var, name) in inputs.names.iter().enumerate() {
            let width = inputs.widths[var];
            let mine: Vec<(i64, u128)> = groups
                .iter()
                .filter(|g| g.0 == var)
                .map(|&(_, s, m)| (s, m))
                .collect();
            let outputs = |&(shift, mask): &(i64, u128)| shift_mask(mask, shift);
            let plain: Vec<(u32, u128, Code)> = mine
                .iter()
                .map(|group| {
                    (
                        outputs(group).trailing_zeros(),
                        outputs(group),
                        term(name, width, group.1, group.0),
                    )
                })
                .collect();
            let plain_cost: usize = plain.iter().map(|(_, _, code)| code.operations() + 1).sum();
            let moves: Vec<(u32, u32)> = mine
                .iter()
                .flat_map(|&(shift, mask)| {
                    set_bits(mask).map(move |b| (b, (i64::from(b) + shift) as u32))
                })
                .collect();
            match network::scatter(name, width, &moves) {
                Some(network) if network.operations + 1 + NETWORK_MARGIN <= plain_cost => {
                    let output = mine.iter().map(outputs).fold(0, |a, m| a | m);
                    let verb = if moves.iter().all(|(s, t)| t >= s) {
                        "spread"
                    } else {
                        "gather"
                    };
                    let label = label.map_or_else(|| format!("{name}_{verb}"), str::to_owned);
                    for (step, stage) in network.stages.iter().enumerate() {
                        names.insert(stage.clone(), format!("{label}_{}", step + 1));
                    }
                    terms.push((output.trailing_zeros(), output, network.code));
                }
                _ => terms.extend(plain),
            }
        }
        terms.sort_by_key(|&(low, ..)| low);
        let disjoint = terms
            .iter()
            .map(|(_, output, _)| output)
            .chain([&constant])
            .try_fold(0u128, |seen, &m| (seen & m == 0).then_some(seen | m));
        let op = if disjoint.is_some() { Op::Or } else { Op::Xor };
        let constant = (constant != 0).then_some(Code::Mask(constant));
        Code::fold(op, terms.into_iter().map(|(.., code)| code).chain(constant))
            .unwrap_or(Code::Lit(0))
    }
}

/// Operations a network must save before it replaces the plainer one-term-per-shift form,
/// which reads better on small tiles.
const NETWORK_MARGIN: usize = 3;

/// The set bits of `mask`, lowest first.
fn set_bits(mut mask: u128) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let bit = mask.trailing_zeros();
            mask &= mask - 1;
            bit
        })
    })
}

fn shift_mask(mask: u128, shift: i64) -> u128 {
    if shift >= 0 {
        mask << shift
    } else {
        mask >> -shift
    }
}

/// The bits of `var`'s `mask`, moved by `shift`: `(v >> a) << c` when the mask keeps every bit
/// from `a` up, else one mask and one shift.
fn term(name: &str, width: u32, mask: u128, shift: i64) -> Code {
    let low = mask.trailing_zeros();
    let target = i64::from(low) + shift;
    let all_above = (1u128 << width) - (1u128 << low);
    let var = Code::var(name);
    let by = shift.unsigned_abs() as u32;
    if mask == all_above {
        return var.shifted(Op::Shr, low).shifted(Op::Shl, target as u32);
    }
    if shift >= 0 {
        Code::bin(Op::And, var, Code::Mask(mask)).shifted(Op::Shl, by)
    } else {
        Code::bin(Op::And, var.shifted(Op::Shr, by), Code::Mask(mask >> by))
    }
}

/// The F2 bits of `sym`, least significant first.
fn bits(sym: &Sym, inputs: &Inputs) -> Option<Vec<BitForm>> {
    Some(match sym {
        Sym::Var(var) => {
            let start = inputs.start(*var);
            (0..*inputs.widths.get(*var)?)
                .map(|b| BitForm {
                    mask: 1u128 << (start + b),
                    constant: false,
                })
                .collect()
        }
        Sym::Sum { terms, constant } => {
            let constant = u128::try_from(*constant).ok()?;
            let mut acc: Vec<BitForm> = (0..128 - constant.leading_zeros())
                .map(|b| BitForm {
                    mask: 0,
                    constant: constant >> b & 1 == 1,
                })
                .collect();
            for (term, coefficient) in terms {
                let coefficient = u128::try_from(*coefficient).ok()?;
                let term = bits(term, inputs)?;
                // `c · t` is one copy of `t` shifted to each set bit of `c` (equal rows of a
                // `bits` map fold into one term of coefficient `2^i + 2^j`): an XOR while
                // no two copies share a position.
                for shift in (0..u128::BITS as usize).filter(|&k| coefficient >> k & 1 == 1) {
                    let mut copy = vec![BitForm::default(); shift];
                    copy.extend(term.iter().copied());
                    acc = combine_disjoint(acc, copy)?;
                }
            }
            acc
        }
        Sym::Div(x, m) => {
            let shift = u128::try_from(*m)
                .ok()
                .filter(|m| m.is_power_of_two())?
                .trailing_zeros();
            bits(x, inputs)?.into_iter().skip(shift as usize).collect()
        }
        Sym::Rem(x, m) => {
            let width = u128::try_from(*m)
                .ok()
                .filter(|m| m.is_power_of_two())?
                .trailing_zeros();
            bits(x, inputs)?.into_iter().take(width as usize).collect()
        }
        Sym::Xor(a, b) => {
            let (a, b) = (bits(a, inputs)?, bits(b, inputs)?);
            let len = a.len().max(b.len());
            (0..len)
                .map(|i| {
                    a.get(i)
                        .copied()
                        .unwrap_or_default()
                        .xor(b.get(i).copied().unwrap_or_default())
                })
                .collect()
        }
    })
}

/// The sum of two bit vectors that never both have a non-zero bit in one position (so no
/// carry can happen and the sum is an XOR), or `None`.
fn combine_disjoint(a: Vec<BitForm>, b: Vec<BitForm>) -> Option<Vec<BitForm>> {
    let len = a.len().max(b.len());
    (0..len)
        .map(|i| {
            let (x, y) = (
                a.get(i).copied().unwrap_or_default(),
                b.get(i).copied().unwrap_or_default(),
            );
            (x.is_zero() || y.is_zero()).then(|| x.xor(y))
        })
        .collect()
}
