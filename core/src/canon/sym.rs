//! Symbolic integer expressions over a layout's coordinates, kept in a normal form that folds
//! constants: affine sums collect like terms, divisions and remainders that ranges prove
//! redundant disappear, and `x / m · m + x % m` becomes `x` again. This is what turns a
//! pipeline of CK-style transforms into one multiply-add per coordinate.

use std::cmp::Ordering;

/// A non-negative integer expression (on valid coordinates) over variables `0..n`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Sym {
    /// Variable `i`, ranging over `0..lens[i]`.
    Var(usize),
    /// `Σ coefficient · term + constant`; terms are never sums, sorted, coefficients ≠ 0.
    Sum {
        terms: Vec<(Sym, i128)>,
        constant: i128,
    },
    /// Floor division by a constant ≥ 2.
    Div(Box<Sym>, i128),
    /// Remainder by a constant ≥ 2.
    Rem(Box<Sym>, i128),
    /// Bitwise exclusive or.
    Xor(Box<Sym>, Box<Sym>),
}

/// The lengths of the variables, which bound every expression over them.
#[derive(Clone, Copy)]
pub struct Vars<'a> {
    pub lens: &'a [usize],
}

impl Sym {
    pub fn constant(value: i128) -> Self {
        Sym::Sum {
            terms: Vec::new(),
            constant: value,
        }
    }

    pub fn as_constant(&self) -> Option<i128> {
        match self {
            Sym::Sum { terms, constant } if terms.is_empty() => Some(*constant),
            _ => None,
        }
    }

    /// `self` as `(terms, constant)`.
    fn into_affine(self) -> (Vec<(Sym, i128)>, i128) {
        match self {
            Sym::Sum { terms, constant } => (terms, constant),
            atom => (vec![(atom, 1)], 0),
        }
    }

    /// The normal form of `Σ terms + constant`.
    fn from_affine(mut terms: Vec<(Sym, i128)>, constant: i128) -> Self {
        terms.sort_by(|a, b| a.0.cmp(&b.0));
        let mut merged: Vec<(Sym, i128)> = Vec::with_capacity(terms.len());
        for (term, coefficient) in terms {
            match merged.last_mut() {
                Some((last, c)) if *last == term => *c = c.saturating_add(coefficient),
                _ => merged.push((term, coefficient)),
            }
        }
        merged.retain(|(_, c)| *c != 0);
        if let Some(rebuilt) = rebuild_digits(&merged) {
            let terms: Vec<_> = merged
                .into_iter()
                .filter(|t| !rebuilt.removed.contains(t))
                .collect();
            // The rebuilt value may itself be a sum: add it, never nest it as a term.
            let (value, coefficient) = rebuilt.added;
            return Self::from_affine(terms, constant).plus(value.scale(coefficient));
        }
        match (merged.len(), constant) {
            (1, 0) if merged[0].1 == 1 => merged.pop().map(|(t, _)| t).unwrap_or(Sym::constant(0)),
            _ => Sym::Sum {
                terms: merged,
                constant,
            },
        }
    }

    pub fn plus(self, other: Sym) -> Sym {
        let (mut terms, a) = self.into_affine();
        let (more, b) = other.into_affine();
        terms.extend(more);
        Self::from_affine(terms, a.saturating_add(b))
    }

    pub fn scale(self, factor: i128) -> Sym {
        let (terms, constant) = self.into_affine();
        Self::from_affine(
            terms.into_iter().map(|(t, c)| (t, c * factor)).collect(),
            constant * factor,
        )
    }

    pub fn offset(self, by: i128) -> Sym {
        self.plus(Sym::constant(by))
    }

    /// `self / m`, simplified.
    pub fn div(self, m: i128, vars: Vars) -> Sym {
        if m == 1 {
            return self;
        }
        let (lo, hi) = self.range(vars);
        if lo >= 0 && hi < m {
            return Sym::constant(0);
        }
        if let Sym::Div(inner, k) = &self
            && let Some(km) = k.checked_mul(m)
        {
            return (**inner).clone().div(km, vars);
        }
        if let Sym::Sum { .. } = self {
            let (quotient, rest) = self.split_multiples(m);
            if rest.range(vars).0 >= 0 && !quotient.is_zero() {
                return quotient.plus(rest.div(m, vars));
            }
            return Sym::Div(Box::new(quotient.scale(m).plus(rest)), m);
        }
        Sym::Div(Box::new(self), m)
    }

    /// `self % m`, simplified.
    pub fn rem(self, m: i128, vars: Vars) -> Sym {
        if m == 1 {
            return Sym::constant(0);
        }
        let (lo, hi) = self.range(vars);
        if lo >= 0 && hi < m {
            return self;
        }
        if let Sym::Rem(inner, k) = &self
            && k % m == 0
        {
            return (**inner).clone().rem(m, vars);
        }
        if let Sym::Sum { .. } = self {
            let (_, rest) = self.clone().split_multiples(m);
            let (lo, hi) = rest.range(vars);
            if lo >= 0 && hi < m {
                return rest;
            }
            // Dropping multiples of `m` must not make the operand negative: the code
            // printed from it computes in unsigned integers.
            if lo >= 0 {
                return Sym::Rem(Box::new(rest), m);
            }
        }
        Sym::Rem(Box::new(self), m)
    }

    /// Splits `self` into `m · quotient + rest`, with `0 ≤ rest's constant < m`.
    fn split_multiples(self, m: i128) -> (Sym, Sym) {
        let (terms, constant) = self.into_affine();
        let (multiples, others): (Vec<_>, Vec<_>) =
            terms.into_iter().partition(|(_, c)| c % m == 0);
        let quotient = multiples.into_iter().map(|(t, c)| (t, c / m)).collect();
        (
            Self::from_affine(quotient, constant.div_euclid(m)),
            Self::from_affine(others, constant.rem_euclid(m)),
        )
    }

    pub fn xor(self, other: Sym) -> Sym {
        match (self.as_constant(), other.as_constant()) {
            (Some(0), _) => other,
            (_, Some(0)) => self,
            (Some(a), Some(b)) => Sym::constant(a ^ b),
            _ if self == other => Sym::constant(0),
            _ => match self.cmp(&other) {
                Ordering::Greater => Sym::Xor(Box::new(other), Box::new(self)),
                _ => Sym::Xor(Box::new(self), Box::new(other)),
            },
        }
    }

    /// `self` with every constant added under an XOR moved outside it where that keeps the
    /// value: `(x + c) ^ k` is `(x ^ k) + c` for `x ≥ 0` and `0 ≤ k < 2^t`, `t` the trailing
    /// zeros of `c > 0` (adding `c` leaves the bits below `t` as they are, XOR-ing `k`
    /// touches only those, and no carry crosses between them). Accesses of a swizzled tile
    /// that differ by such constants then share one base, the constant an immediate offset,
    /// as a padded tile's do.
    pub fn constants_outside_xor(self, vars: Vars) -> Sym {
        match self {
            Sym::Var(_) => self,
            Sym::Sum { terms, constant } => Self::from_affine(
                terms
                    .into_iter()
                    .map(|(term, c)| (term.constants_outside_xor(vars), c))
                    .collect(),
                constant,
            ),
            Sym::Div(x, m) => x.constants_outside_xor(vars).div(m, vars),
            Sym::Rem(x, m) => x.constants_outside_xor(vars).rem(m, vars),
            Sym::Xor(a, b) => {
                let (a, moved_a) = a
                    .constants_outside_xor(vars)
                    .without_constant_under(&b, vars);
                let b = b.constants_outside_xor(vars);
                let (b, moved_b) = b.without_constant_under(&a, vars);
                a.xor(b).offset(moved_a + moved_b)
            }
        }
    }

    /// `self` without its constant `c`, and `c`, where `self ^ key` is `(self - c) ^ key
    /// + c` (see [`Sym::constants_outside_xor`]); else `self` and 0.
    fn without_constant_under(self, key: &Sym, vars: Vars) -> (Sym, i128) {
        let Sym::Sum { terms, constant } = &self else {
            return (self, 0);
        };
        let (c, (key_lo, key_hi)) = (*constant, key.range(vars));
        if c <= 0 || key_lo < 0 || key_hi >> c.trailing_zeros() != 0 {
            return (self, 0);
        }
        let rest = Self::from_affine(terms.clone(), 0);
        match rest.range(vars).0 >= 0 {
            true => (rest, c),
            false => (self, 0),
        }
    }

    fn is_zero(&self) -> bool {
        self.as_constant() == Some(0)
    }

    /// Inclusive bounds of the value over all coordinates in range.
    pub fn range(&self, vars: Vars) -> (i128, i128) {
        match self {
            Sym::Var(i) => (0, vars.lens.get(*i).map_or(0, |&l| l as i128 - 1)),
            Sym::Sum { terms, constant } => {
                terms
                    .iter()
                    .fold((*constant, *constant), |(lo, hi), (t, c)| {
                        let (a, b) = t.range(vars);
                        let (a, b) = if *c >= 0 {
                            (a * c, b * c)
                        } else {
                            (b * c, a * c)
                        };
                        (lo + a, hi + b)
                    })
            }
            Sym::Div(x, m) => {
                let (lo, hi) = x.range(vars);
                (lo.div_euclid(*m), hi.div_euclid(*m))
            }
            Sym::Rem(x, m) => match x.range(vars) {
                (lo, hi) if lo >= 0 && hi < *m => (lo, hi),
                _ => (0, m - 1),
            },
            Sym::Xor(a, b) => {
                let top = a.range(vars).1.max(b.range(vars).1).max(0);
                let bound = (top as u128 + 1)
                    .checked_next_power_of_two()
                    .unwrap_or(1 << 127);
                (0, i128::try_from(bound - 1).unwrap_or(i128::MAX))
            }
        }
    }

    /// Whether the expression has at most `nodes` nodes and nests at most `depth` deep.
    /// Counting stops at the limits, so measuring a huge expression costs no more than
    /// `nodes` steps, and no more than `depth` frames of stack.
    pub fn fits(&self, nodes: usize, depth: usize) -> bool {
        let mut budget = nodes;
        self.spend(&mut budget, depth)
    }

    /// Takes one unit of `budget` per node, within `depth` levels; `false` once either runs
    /// out.
    fn spend(&self, budget: &mut usize, depth: usize) -> bool {
        let (Some(rest), Some(depth)) = (budget.checked_sub(1), depth.checked_sub(1)) else {
            return false;
        };
        *budget = rest;
        match self {
            Sym::Var(_) => true,
            Sym::Sum { terms, .. } => terms.iter().all(|(term, _)| term.spend(budget, depth)),
            Sym::Div(x, _) | Sym::Rem(x, _) => x.spend(budget, depth),
            Sym::Xor(a, b) => a.spend(budget, depth) && b.spend(budget, depth),
        }
    }

    /// The value at `coord` (one entry per variable).
    pub fn eval(&self, coord: &[usize]) -> i128 {
        match self {
            Sym::Var(i) => coord.get(*i).map_or(0, |&v| v as i128),
            Sym::Sum { terms, constant } => {
                terms.iter().map(|(t, c)| c * t.eval(coord)).sum::<i128>() + constant
            }
            Sym::Div(x, m) => x.eval(coord).div_euclid(*m),
            Sym::Rem(x, m) => x.eval(coord).rem_euclid(*m),
            Sym::Xor(a, b) => a.eval(coord) ^ b.eval(coord),
        }
    }
}

/// A rewrite of `c·m·(x / m) + c·(x % m)` into `c·x`.
struct Rebuilt {
    removed: Vec<(Sym, i128)>,
    added: (Sym, i128),
}

fn rebuild_digits(terms: &[(Sym, i128)]) -> Option<Rebuilt> {
    terms.iter().find_map(|(term, c)| {
        let Sym::Rem(x, m) = term else { return None };
        // The quotient as `div` normalises it: `(v / k) / m` is `v / (k·m)`.
        let divided = match &**x {
            Sym::Div(inner, k) => Sym::Div(inner.clone(), k.checked_mul(*m)?),
            _ => Sym::Div(x.clone(), *m),
        };
        let quotient = (divided, c.checked_mul(*m)?);
        terms.contains(&quotient).then(|| Rebuilt {
            removed: vec![(term.clone(), *c), quotient],
            added: ((**x).clone(), *c),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::{Sym, Vars};

    /// `(8·a + b + c) ^ (4·d)` over `a < 4`, `b < 4`, `d < 2`, as a tiled copy's store into
    /// a swizzled tile: `c` comes out from under the XOR where `4·d < 2^tz(c)`, and the value
    /// is the same at every coordinate either way.
    #[test]
    fn constants_leave_an_xor_only_where_the_key_lies_below_them() {
        let lens = [4, 4, 2];
        let vars = Vars { lens: &lens };
        let swizzled = |c: i128| {
            Sym::Var(0)
                .scale(8)
                .plus(Sym::Var(1))
                .offset(c)
                .xor(Sym::Var(2).scale(4))
        };
        for c in [0, 8, 16, 24, 64, 4, 6, 1] {
            let before = swizzled(c);
            let after = before.clone().constants_outside_xor(vars);
            let moved = matches!(&after, Sym::Sum { constant, .. } if *constant == c);
            // The key reaches 4, so a constant moves only from 8 (three trailing zeros) up.
            assert_eq!(moved, c >= 8 && c % 8 == 0, "c = {c}: {after:?}");
            for a in 0..4 {
                for b in 0..4 {
                    for d in 0..2 {
                        let coord = [a, b, d];
                        assert_eq!(
                            after.eval(&coord),
                            before.eval(&coord),
                            "c = {c} at {coord:?}"
                        );
                    }
                }
            }
        }
    }
}
