//! The numbers a lowering computes with. Every transform writes its lowering once, over a
//! [`Domain`]; the interpreter runs it on checked integers, the canonical form on symbols
//! and the F2 form on bit vectors, so that the three cannot disagree about what a transform
//! means — only about what their numbers can express (a bit vector has no carries).

use crate::ir::{Dim, DimId};

/// A kind of number: the operations a lowering uses. Each may fail, with the domain's own
/// error: a checked integer overflows, a bit vector meets a carry.
pub trait Domain {
    type Value: Clone;
    type Error;

    /// The error of an operation the domain cannot carry out, or of a malformed pipeline.
    fn fail(&self, why: &'static str) -> Self::Error;

    /// The value of a dim no transform computed: a malformed descriptor for the
    /// interpreter, 0 for the symbolic forms.
    fn missing(&self) -> Result<Self::Value, Self::Error>;

    fn constant(&self, value: usize) -> Result<Self::Value, Self::Error>;

    fn add(&self, a: Self::Value, b: Self::Value) -> Result<Self::Value, Self::Error>;

    /// `a − b`; below zero it wraps (a padded index, which [`Domain::guard`] reports).
    fn sub(&self, a: Self::Value, b: Self::Value) -> Result<Self::Value, Self::Error>;

    fn scale(&self, a: Self::Value, by: usize) -> Result<Self::Value, Self::Error>;

    /// `a / by`, rounding down; `by > 0`.
    fn div(&self, a: Self::Value, by: usize) -> Result<Self::Value, Self::Error>;

    /// `a % by`; `by > 0`.
    fn rem(&self, a: Self::Value, by: usize) -> Result<Self::Value, Self::Error>;

    fn xor(&self, a: Self::Value, b: Self::Value) -> Result<Self::Value, Self::Error>;

    /// Records that a coordinate is valid only where `lo ≤ value < hi` (the padding of the
    /// upper dim `dim`).
    fn guard(
        &mut self,
        value: &Self::Value,
        lo: usize,
        hi: usize,
        dim: DimId,
    ) -> Result<(), Self::Error>;
}

/// One pass of a pipeline: the domain, the dims' lengths and the value of each dim so far.
pub struct Lowering<'a, D: Domain> {
    pub domain: D,
    pub dims: &'a [Dim],
    pub values: Vec<Option<D::Value>>,
}

impl<'a, D: Domain> Lowering<'a, D> {
    /// A pass over `dims` with no value yet.
    pub fn new(domain: D, dims: &'a [Dim]) -> Self {
        let values = vec![None; dims.len()];
        Lowering {
            domain,
            dims,
            values,
        }
    }

    /// The length of `dim`.
    pub fn len(&self, dim: DimId) -> usize {
        self.dims.get(dim).map_or(1, |d| d.len)
    }

    /// The value of `dim`.
    pub fn get(&self, dim: DimId) -> Result<D::Value, D::Error> {
        match self.values.get(dim) {
            Some(Some(value)) => Ok(value.clone()),
            Some(None) => self.domain.missing(),
            None => Err(self.domain.fail("dim id out of range")),
        }
    }

    pub fn set(&mut self, dim: DimId, value: D::Value) -> Result<(), D::Error> {
        let slot = self
            .values
            .get_mut(dim)
            .ok_or_else(|| self.domain.fail("dim id out of range"))?;
        *slot = Some(value);
        Ok(())
    }

    /// `2^exponent`, failing past `usize`.
    pub fn power(&self, exponent: u32) -> Result<usize, D::Error> {
        1usize
            .checked_shl(exponent)
            .ok_or_else(|| self.domain.fail("arithmetic overflow"))
    }

    /// `count` bits of `value` from bit `from` up: `(value >> from) & (2^count − 1)`.
    pub fn field(&self, value: D::Value, from: u32, count: u32) -> Result<D::Value, D::Error> {
        let shifted = match 1usize.checked_shl(from) {
            Some(divisor) => self.domain.div(value, divisor)?,
            // Every bit of a `usize` lies below `from`.
            None => return self.domain.constant(0),
        };
        match 1usize.checked_shl(count) {
            Some(modulus) => self.domain.rem(shifted, modulus),
            None => Ok(shifted),
        }
    }

    /// `Σ value(dims[i]) · strides[i]`.
    pub fn strided(&self, dims: &[DimId], strides: &[usize]) -> Result<D::Value, D::Error> {
        let mut sum: Option<D::Value> = None;
        for (&dim, &stride) in dims.iter().zip(strides) {
            let term = self.domain.scale(self.get(dim)?, stride)?;
            sum = Some(match sum {
                Some(sum) => self.domain.add(sum, term)?,
                None => term,
            });
        }
        sum.map_or_else(|| self.domain.constant(0), Ok)
    }

    /// Sets `dims` to the row-major digits of `value` (last fastest). The slowest digit
    /// takes no remainder, as in CK's `merge_v3_division_mod`: on a valid index the value is
    /// below the product of the lengths.
    pub fn digits(&mut self, value: D::Value, dims: &[DimId]) -> Result<(), D::Error> {
        let mut stride = 1usize;
        let mut value = Some(value);
        for (i, &dim) in dims.iter().enumerate().rev() {
            // The slowest digit comes last and takes the value itself.
            let operand = match i {
                0 => value.take(),
                _ => value.clone(),
            };
            let operand = operand.ok_or_else(|| self.domain.fail("a digit read twice"))?;
            let quotient = self.domain.div(operand, stride)?;
            let digit = match i {
                0 => quotient,
                _ => self.domain.rem(quotient, self.len(dim))?,
            };
            self.set(dim, digit)?;
            stride = stride.saturating_mul(self.len(dim));
        }
        Ok(())
    }

    /// The value of the memory offset: `Σ value(dim) · stride` over the memory's dims.
    pub fn offset(&self, memory: &crate::ir::Memory) -> Result<D::Value, D::Error> {
        self.strided(&memory.dims, &memory.strides)
    }
}
