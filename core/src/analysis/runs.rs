//! Which transform breaks a contiguous run. A vector access reads a block of coordinates (a
//! few rows of a few elements, in row-major order) as one run of consecutive offsets; this
//! walks the block down the pipeline, newest transform first, and finds the first transform
//! after which the block is no longer one run of one dim. Errors name that transform.
//!
//! The walk is sound but not complete: when it finds no culprit the block is contiguous on
//! every valid coordinate; a culprit may be a false alarm for pipelines that break a run and
//! rebuild it later (a `merge` undone by an `unmerge`), which callers confirm by evaluation.

use crate::ir::{Descriptor, Dim, DimId};

/// Where a run stops being contiguous.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Culprit {
    /// The transform at this index of `Descriptor::stages`.
    Stage(usize),
    /// The memory's strides.
    Memory,
}

impl Culprit {
    /// The transform as the language writes it (`morton m -> [yi, xi]`), for messages.
    pub fn describe(self, layout: &Descriptor) -> String {
        match self {
            Culprit::Stage(stage) => layout.stages[stage].describe(&layout.dims),
            Culprit::Memory => {
                let name = |&d: &DimId| layout.dims[d].name.to_string();
                let dims: Vec<String> = layout.memory.dims.iter().map(name).collect();
                let strides: Vec<String> = layout
                    .memory
                    .strides
                    .iter()
                    .map(|s| s.to_string())
                    .collect();
                format!(
                    "memory [{}] strides [{}]",
                    dims.join(", "),
                    strides.join(", ")
                )
            }
        }
    }
}

/// One dim of a block: `len` consecutive indices of `dim`; `aligned` when every block starts
/// at a multiple of `len` (what splitting a run into digits needs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Part {
    pub dim: DimId,
    pub len: usize,
    pub aligned: bool,
}

/// A block on its way down the pipeline: its parts, outermost first. Each transform's
/// [`runs`](crate::ir::transform::Stage::runs) lowers it through that transform with these
/// steps.
pub struct Walk<'a> {
    pub parts: Vec<Part>,
    dims: &'a [Dim],
}

/// The first transform that breaks the block `[(coordinate, len)]` (outermost first, blocks
/// starting at multiples of `len`), or `None` when every block is one run of consecutive
/// offsets.
pub fn culprit(layout: &Descriptor, block: &[(usize, usize)]) -> Option<Culprit> {
    let parts = block
        .iter()
        .filter(|&&(_, len)| len > 1)
        .map(|&(coord, len)| Part {
            dim: layout.coords[coord],
            len,
            aligned: true,
        })
        .collect();
    let mut walk = Walk {
        parts,
        dims: &layout.dims,
    };
    for (index, stage) in layout.stages.iter().enumerate().rev() {
        let upper = stage.upper();
        let touched = walk.parts.iter().any(|p| upper.contains(&p.dim));
        if touched && !stage.runs(&mut walk) {
            return Some(Culprit::Stage(index));
        }
    }
    let memory = &layout.memory;
    match walk.strided(&memory.dims, &memory.strides, usize::MAX) {
        true if walk.parts.len() <= 1 => None,
        _ => Some(Culprit::Memory),
    }
}

impl Walk<'_> {
    /// The length of `dim`.
    pub fn len(&self, dim: DimId) -> usize {
        self.dims[dim].len
    }

    /// The part of `dim`, if the block varies along it.
    pub fn part(&self, dim: DimId) -> Option<Part> {
        self.parts.iter().copied().find(|p| p.dim == dim)
    }

    /// Whether the block varies along `dim`.
    pub fn varies(&self, dim: DimId) -> bool {
        self.part(dim).is_some()
    }

    /// The part of `upper`, if any, now belongs to `lower` (a transform that keeps runs).
    pub fn rename(&mut self, upper: DimId, lower: DimId) {
        if let Some(part) = self.parts.iter_mut().find(|p| p.dim == upper) {
            part.dim = lower;
        }
    }

    /// `upper` changed by a key (`xor`, `cyclic_shift`): a key that varies inside the block
    /// scrambles the target, and a target run survives only a key that is always 0.
    pub fn keyed(&mut self, upper: DimId, key: DimId, lower: DimId) -> bool {
        let scrambled = self.len(key) > 1 && self.len(upper) > 1;
        if self.varies(key) || (self.varies(upper) && scrambled) {
            return false;
        }
        self.rename(upper, lower);
        true
    }

    /// A transform that places the bits of `upper` in `lower` (`morton`, `bits`): the
    /// block's bits, the innermost part's low bits first, must land on bits 0, 1, 2, … of
    /// `lower` in that order. `lands(i, bit, position)` says whether bit `bit` of `upper[i]`
    /// lands on bit `position` alone.
    pub fn placed_bits(
        &mut self,
        upper: &[DimId],
        lower: DimId,
        lands: impl Fn(usize, u32, u32) -> bool,
    ) -> bool {
        let Some((first, last)) = self.span(upper) else {
            return false;
        };
        let mut next = 0u32;
        for part in self.parts[first..=last].iter().rev() {
            if !part.len.is_power_of_two() || !part.aligned {
                return false;
            }
            let Some(i) = upper.iter().position(|&d| d == part.dim) else {
                return false;
            };
            for bit in 0..part.len.trailing_zeros() {
                if !lands(i, bit, next) {
                    return false;
                }
                next += 1;
            }
        }
        let run = Part {
            dim: lower,
            len: 1 << next,
            aligned: true,
        };
        self.parts.splice(first..=last, [run]);
        true
    }

    /// The first and last parts among `dims`, when those parts are adjacent.
    pub fn span(&self, dims: &[DimId]) -> Option<(usize, usize)> {
        let touched: Vec<usize> = (0..self.parts.len())
            .filter(|&i| dims.contains(&self.parts[i].dim))
            .collect();
        let (&first, &last) = (touched.first()?, touched.last()?);
        (last - first + 1 == touched.len()).then_some((first, last))
    }

    /// `merge`: the run of `upper` as runs of its digits `lower` (last digit fastest).
    pub fn digits(&mut self, upper: DimId, lower: &[DimId]) -> bool {
        let Some(at) = self.parts.iter().position(|p| p.dim == upper) else {
            return true;
        };
        let Part {
            len: run, aligned, ..
        } = self.parts[at];
        match digits(lower, run, aligned, self.dims) {
            Some(digits) => {
                self.parts.splice(at..=at, digits);
                true
            }
            None => false,
        }
    }

    /// `pad`, `slice`, `offset`: the run moves by `by`, staying a run; it stays aligned only
    /// if `by` is a multiple of its length.
    pub fn shifted(&mut self, upper: DimId, lower: DimId, by: usize) -> bool {
        if let Some(part) = self.parts.iter_mut().find(|p| p.dim == upper) {
            part.dim = lower;
            part.aligned &= by.is_multiple_of(part.len);
        }
        true
    }

    /// `lower = Σ upper_i · stride_i` (unmerge, embed, the memory): the block's parts among
    /// `upper` become one run of `lower` when they are adjacent and their strides are those
    /// of a row-major block (innermost stride 1, each outer stride the product of the inner
    /// runs). The run stays aligned when its outermost part is, every inner part spans its
    /// whole dim (an inner part of a longer dim starts at any multiple of its own length,
    /// which moves the run off a multiple of the whole run's), and the other dims move it by
    /// multiples of its length.
    pub fn strided(&mut self, upper: &[DimId], strides: &[usize], lower: DimId) -> bool {
        let stride = |dim: DimId| upper.iter().position(|&d| d == dim).map(|i| strides[i]);
        let touched = self.parts.iter().any(|p| stride(p.dim).is_some());
        if !touched {
            return true;
        }
        let Some((first, last)) = self.span(upper) else {
            return false;
        };
        let mut expected = 1usize;
        for part in self.parts[first..=last].iter().rev() {
            if stride(part.dim) != Some(expected) {
                return false;
            }
            expected = expected.saturating_mul(part.len);
        }
        let inside = &self.parts[first..=last];
        let others_aligned = upper.iter().zip(strides).all(|(&dim, &stride)| {
            self.dims[dim].len == 1 || stride % expected == 0 || inside.iter().any(|p| p.dim == dim)
        });
        let inner_whole = inside[1..].iter().all(|p| p.len == self.dims[p.dim].len);
        let aligned = self.parts[first].aligned && inner_whole && others_aligned;
        let run = Part {
            dim: lower,
            len: expected,
            aligned,
        };
        self.parts.splice(first..=last, [run]);
        true
    }
}

/// The run `run` of a merged dim as runs of its digits (last digit fastest): whole digits
/// inside, a part of one digit outside; `None` if the run straddles digits unevenly.
fn digits(lower: &[DimId], run: usize, aligned: bool, dims: &[Dim]) -> Option<Vec<Part>> {
    let mut rest = run;
    let mut parts = Vec::new();
    for &digit in lower.iter().rev() {
        if rest == 1 {
            break;
        }
        let size = dims[digit].len;
        if rest <= size {
            (aligned && size.is_multiple_of(rest)).then_some(())?;
            parts.push(Part {
                dim: digit,
                len: rest,
                aligned: true,
            });
            rest = 1;
        } else {
            (aligned && rest.is_multiple_of(size)).then_some(())?;
            if size > 1 {
                parts.push(Part {
                    dim: digit,
                    len: size,
                    aligned: true,
                });
            }
            rest /= size;
        }
    }
    parts.reverse();
    (rest == 1).then_some(parts)
}
