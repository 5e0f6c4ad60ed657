//! The F2 form of a layout computed transform by transform on bit vectors, without a
//! symbolic expression: every dim's value is a vector of [`BitForm`]s over the coordinates'
//! bits, so the cost is linear in the pipeline whatever it does. Chains of `xor`s, whose
//! symbolic form doubles with every step, are F2-affine and reach their mask-and-shift code
//! and their inverse this way.
//!
//! Each transform's own lowering runs on `Bits`: the operations that move bits (a power of
//! two factor or divisor, a sum of values whose bits do not overlap, XOR) succeed, and
//! anything that would carry or borrow (padding, a non-power-of-two length, an offset into
//! bits that are in use) fails, and the symbolic form decides.

use crate::canon::f2::{BitForm, F2Map, Inputs};
use crate::ir::transform::{Domain, Lowering};
use crate::ir::{Descriptor, DimId};

/// The F2 map from the coordinates' bits (`inputs`) to the offset's, if the pipeline has one.
pub fn lower(descriptor: &Descriptor, inputs: &Inputs) -> Option<F2Map> {
    if inputs.total() > 128 {
        return None;
    }
    let on = lowered(descriptor, inputs, &descriptor.stages)?;
    let mut rows = on.offset(&descriptor.memory).ok()?;
    while rows.last().is_some_and(|row| *row == BitForm::default()) {
        rows.pop();
    }
    Some(F2Map { rows })
}

/// [`lower`] of `descriptor`, a layout whose first `base_stages` stages are `base`'s, from
/// `base`'s F2 map: its own stages alone are lowered, down to the base's coordinates, and
/// the base's map is applied to their bits. The map is [`lower`]'s (an F2 map of the
/// coordinates' bits is unique), at a cost that does not grow with the base's stages, so
/// that a chain of layouts, each `over` the one before, is lowered in time linear in its
/// length. `None` where the own stages are not F2-affine or `base` is padded (its map holds
/// on its valid coordinates only).
pub fn compose(
    descriptor: &Descriptor,
    inputs: &Inputs,
    base_stages: usize,
    base: &Descriptor,
    base_f2: &F2Map,
) -> Option<F2Map> {
    if inputs.total() > 128 || base.is_padded() || base.is_tiled() {
        return None;
    }
    let on = lowered(descriptor, inputs, descriptor.stages.get(base_stages..)?)?;
    // Base coordinate bits, in the order of the base map's inputs: each coordinate's bits
    // from its least significant, the coordinates in order.
    let mut columns: Vec<BitForm> = Vec::new();
    for (&dim, &len) in base.coords.iter().zip(&base.shape()) {
        let width = exponent(len)?;
        let value = on.get(dim).ok()?;
        // A value with bits past the coordinate's width is not a base coordinate.
        if value.iter().skip(width).any(|bit| !is_zero(bit)) {
            return None;
        }
        columns.extend((0..width).map(|b| value.get(b).copied().unwrap_or_default()));
    }
    let mut rows = Vec::with_capacity(base_f2.rows.len());
    for row in &base_f2.rows {
        let mut bit = BitForm {
            mask: 0,
            constant: row.constant,
        };
        let mut mask = row.mask;
        while mask != 0 {
            let input = mask.trailing_zeros() as usize;
            bit = bit.xor(*columns.get(input)?);
            mask &= mask - 1;
        }
        rows.push(bit);
    }
    while rows.last().is_some_and(|row| *row == BitForm::default()) {
        rows.pop();
    }
    Some(F2Map { rows })
}

/// The pass of `stages` (newest first) over bit vectors, from the coordinates' bits
/// (`inputs`).
fn lowered<'d>(
    descriptor: &'d Descriptor,
    inputs: &Inputs,
    stages: &[crate::ir::transform::Transform],
) -> Option<Lowering<'d, Bits>> {
    let mut on = Lowering::new(Bits, &descriptor.dims);
    for (var, &dim) in descriptor.coords.iter().enumerate() {
        let start = inputs.start(var);
        let bits = (0..inputs.widths[var])
            .map(|b| BitForm {
                mask: 1u128 << (start + b),
                constant: false,
            })
            .collect();
        on.set(dim, bits).ok()?;
    }
    for stage in stages.iter().rev() {
        stage.apply(&mut on).ok()?;
    }
    Some(on)
}

/// Values as bit vectors over the input bits, least significant bit first; bits past the
/// end are 0. Operations that would carry fail.
struct Bits;

/// Why a value has no bit vector: the operation carries or borrows.
struct Carries;

type Vector = Vec<BitForm>;

/// The value of a vector whose bits are all constant.
fn known(a: &Vector) -> Option<u128> {
    a.iter().enumerate().try_fold(0u128, |acc, (i, bit)| {
        let place = u32::try_from(i).ok().filter(|&i| i < 128)?;
        (bit.mask == 0).then(|| acc | (u128::from(bit.constant) << place))
    })
}

fn vector(value: u128) -> Vector {
    let width = 128 - value.leading_zeros();
    (0..width)
        .map(|b| BitForm {
            mask: 0,
            constant: value >> b & 1 == 1,
        })
        .collect()
}

fn is_zero(bit: &BitForm) -> bool {
    *bit == BitForm::default()
}

/// The exponent of a power of two.
fn exponent(by: usize) -> Option<usize> {
    by.is_power_of_two().then(|| by.trailing_zeros() as usize)
}

impl Bits {
    /// `a op b` when both are known constants.
    fn known(
        &self,
        a: &Vector,
        b: u128,
        op: impl Fn(u128, u128) -> Option<u128>,
    ) -> Result<Vector, Carries> {
        let a = known(a).ok_or(Carries)?;
        op(a, b).map(vector).ok_or(Carries)
    }
}

impl Domain for Bits {
    type Value = Vector;
    type Error = Carries;

    fn fail(&self, _: &'static str) -> Carries {
        Carries
    }

    fn missing(&self) -> Result<Vector, Carries> {
        Ok(Vec::new())
    }

    fn constant(&self, value: usize) -> Result<Vector, Carries> {
        Ok(vector(value as u128))
    }

    /// Bitwise, where no bit is set in both; two constants add as numbers.
    fn add(&self, a: Vector, b: Vector) -> Result<Vector, Carries> {
        let (mut long, short) = if a.len() >= b.len() { (a, b) } else { (b, a) };
        for (i, bit) in short.iter().enumerate() {
            if is_zero(bit) {
                continue;
            }
            if !is_zero(&long[i]) {
                return match (known(&long), known(&short)) {
                    (Some(x), Some(y)) => x.checked_add(y).map(vector).ok_or(Carries),
                    _ => Err(Carries),
                };
            }
            long[i] = *bit;
        }
        Ok(long)
    }

    fn sub(&self, a: Vector, b: Vector) -> Result<Vector, Carries> {
        match known(&b) {
            Some(0) => Ok(a),
            Some(b) => self.known(&a, b, u128::checked_sub),
            None => Err(Carries),
        }
    }

    fn scale(&self, a: Vector, by: usize) -> Result<Vector, Carries> {
        match exponent(by) {
            Some(0) => Ok(a),
            Some(shift) if a.len() + shift <= 128 => {
                let mut shifted = vec![BitForm::default(); shift];
                shifted.extend(a);
                Ok(shifted)
            }
            _ if by == 0 || a.iter().all(is_zero) => Ok(Vec::new()),
            _ => self.known(&a, by as u128, u128::checked_mul),
        }
    }

    fn div(&self, mut a: Vector, by: usize) -> Result<Vector, Carries> {
        match exponent(by) {
            Some(shift) => {
                a.drain(..shift.min(a.len()));
                Ok(a)
            }
            None => self.known(&a, by as u128, u128::checked_div),
        }
    }

    fn rem(&self, mut a: Vector, by: usize) -> Result<Vector, Carries> {
        match exponent(by) {
            Some(width) => {
                a.truncate(width);
                Ok(a)
            }
            None => self.known(&a, by as u128, u128::checked_rem),
        }
    }

    fn xor(&self, a: Vector, b: Vector) -> Result<Vector, Carries> {
        let (mut long, short) = if a.len() >= b.len() { (a, b) } else { (b, a) };
        for (bit, other) in long.iter_mut().zip(short) {
            *bit = bit.xor(other);
        }
        Ok(long)
    }

    /// Padding is not a map of bits.
    fn guard(&mut self, _: &Vector, _: usize, _: usize, _: DimId) -> Result<(), Carries> {
        Err(Carries)
    }
}
