//! The F2 form of a layout computed transform by transform on bit vectors, without a
//! symbolic expression: every dim's value is a vector of [`BitForm`]s over the coordinates'
//! bits, so the cost is linear in the pipeline whatever it does. Chains of `xor`s, whose
//! symbolic form doubles with every step, are F2-affine and reach their mask-and-shift code
//! and their inverse this way (`docs/semantics.md` §2 gives each lowering).
//!
//! A layout is lowered only when every length is a power of two and every transform moves
//! bits: `unmerge`, `merge`, `xor`, `morton`, CuTe's `swizzle`, `freeze`, `replicate`, and
//! `embed` or strided memory whose strides place each dim's bits apart. Anything else
//! (padding, offsets, a carry) is `None`, and the symbolic form decides.

use crate::cute::CuteSwizzle;
use crate::f2::{BitForm, F2Map, Inputs};
use crate::ir::{Descriptor, DimId, Transform, morton_bits};

/// The F2 map from the coordinates' bits (`inputs`) to the offset's, if the pipeline has one.
pub fn lower(descriptor: &Descriptor, inputs: &Inputs) -> Option<F2Map> {
    if inputs.total() > 128 {
        return None;
    }
    let width = |dim: DimId| -> Option<u32> {
        let len = descriptor.dims.get(dim)?.len;
        len.is_power_of_two().then(|| len.trailing_zeros())
    };
    let mut values: Vec<Option<Vec<BitForm>>> = vec![None; descriptor.dims.len()];
    for (var, &dim) in descriptor.coords.iter().enumerate() {
        let start = inputs.start(var);
        values[dim] = Some(
            (0..inputs.widths[var])
                .map(|b| BitForm {
                    mask: 1u128 << (start + b),
                    constant: false,
                })
                .collect(),
        );
    }
    // A dim no coordinate reaches (a `replicate`d one consumed below) is zero.
    let value = |values: &[Option<Vec<BitForm>>], dim: DimId| -> Option<Vec<BitForm>> {
        let width = width(dim)? as usize;
        let mut bits = values[dim].clone().unwrap_or_default();
        bits.resize(width, BitForm::default());
        Some(bits)
    };
    for stage in descriptor.stages.iter().rev() {
        match stage {
            Transform::Unmerge { lower, upper } => {
                // Row-major over powers of two: the last dim in the lowest bits.
                let mut bits = Vec::new();
                for &dim in upper.iter().rev() {
                    bits.extend(value(&values, dim)?);
                }
                width(*lower)?;
                values[*lower] = Some(bits);
            }
            Transform::Merge { lower, upper } => {
                let mut bits = value(&values, *upper)?.into_iter();
                for &dim in lower.iter().rev() {
                    values[dim] = Some(bits.by_ref().take(width(dim)? as usize).collect());
                }
            }
            Transform::Xor { lower, upper, key } => {
                // `key % len(upper)` is the key's low bits.
                let mut bits = value(&values, *upper)?;
                for (bit, key_bit) in bits.iter_mut().zip(value(&values, *key)?) {
                    *bit = bit.xor(key_bit);
                }
                values[*lower] = Some(bits);
            }
            Transform::Morton { lower, upper } => {
                let widths: Vec<u32> = upper.iter().map(|&d| width(d)).collect::<Option<_>>()?;
                let mut bits = vec![BitForm::default(); width(*lower)? as usize];
                for (&dim, positions) in upper.iter().zip(morton_bits(&widths)) {
                    for (bit, position) in value(&values, dim)?.into_iter().zip(positions) {
                        *bits.get_mut(position as usize)? = bit;
                    }
                }
                values[*lower] = Some(bits);
            }
            Transform::Swizzle {
                lower,
                upper,
                bits: count,
                base,
                shift,
            } => {
                let swizzle = CuteSwizzle {
                    bits: *count,
                    base: *base,
                    shift: *shift,
                };
                let (source, target) = (swizzle.source(), swizzle.target());
                let input = value(&values, *upper)?;
                let mut bits = input.clone();
                for j in 0..*count as usize {
                    let from = *input.get(source as usize + j)?;
                    let to = bits.get_mut(usize::try_from(target).ok()? + j)?;
                    *to = to.xor(from);
                }
                values[*lower] = Some(bits);
            }
            Transform::Embed {
                lower,
                upper,
                strides,
            } => {
                let bits = placed(upper, strides, &values, &width, Some(width(*lower)?))?;
                values[*lower] = Some(bits);
            }
            Transform::Freeze { lower, value } => {
                let bits = (0..width(*lower)?)
                    .map(|b| BitForm {
                        mask: 0,
                        constant: (value >> b) & 1 == 1,
                    })
                    .collect();
                values[*lower] = Some(bits);
            }
            Transform::Replicate { .. } => {}
            Transform::Pad {
                lower,
                upper,
                left: 0,
                right: 0,
            }
            | Transform::Slice {
                lower,
                upper,
                begin: 0,
            }
            | Transform::Offset {
                lower,
                upper,
                by: 0,
            } => values[*lower] = Some(value(&values, *upper)?),
            Transform::Pad { .. } | Transform::Slice { .. } | Transform::Offset { .. } => {
                return None;
            }
        }
    }
    let memory = &descriptor.memory;
    let mut rows = placed(&memory.dims, &memory.strides, &values, &width, None)?;
    while rows.last().is_some_and(|row| *row == BitForm::default()) {
        rows.pop();
    }
    Some(F2Map { rows })
}

/// `Σ value(dim_i) · stride_i` as bits, when every stride is a power of two and the dims'
/// bits land apart (so the sum carries nothing), within `width` bits if given.
fn placed(
    dims: &[DimId],
    strides: &[usize],
    values: &[Option<Vec<BitForm>>],
    width: &dyn Fn(DimId) -> Option<u32>,
    within: Option<u32>,
) -> Option<Vec<BitForm>> {
    let mut bits: Vec<Option<BitForm>> = Vec::new();
    for (&dim, &stride) in dims.iter().zip(strides) {
        let dim_width = width(dim)?;
        if dim_width == 0 {
            continue;
        }
        if !stride.is_power_of_two() {
            return None;
        }
        let shift = stride.trailing_zeros() as usize;
        let mut value = values[dim].clone().unwrap_or_default();
        value.resize(dim_width as usize, BitForm::default());
        for (b, bit) in value.into_iter().enumerate() {
            let position = shift + b;
            if position >= 128 {
                return None;
            }
            if bits.len() <= position {
                bits.resize(position + 1, None);
            }
            // Two dims on one bit would carry.
            if bits[position].replace(bit).is_some() {
                return None;
            }
        }
    }
    if within.is_some_and(|w| bits.len() > w as usize) {
        return None;
    }
    let mut bits: Vec<BitForm> = bits.into_iter().map(Option::unwrap_or_default).collect();
    if let Some(w) = within {
        bits.resize(w as usize, BitForm::default());
    }
    Some(bits)
}
