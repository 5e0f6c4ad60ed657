//! Which transform breaks a contiguous run. A vector access reads a block of coordinates (a
//! few rows of a few elements, in row-major order) as one run of consecutive offsets; this
//! walks the block down the pipeline, newest transform first, and finds the first transform
//! after which the block is no longer one run of one dim. Errors name that transform.
//!
//! The walk is sound but not complete: when it finds no culprit the block is contiguous on
//! every valid coordinate; a culprit may be a false alarm for pipelines that break a run and
//! rebuild it later (a `merge` undone by an `unmerge`), which callers confirm by evaluation.

use crate::cute::CuteSwizzle;
use crate::ir::{Descriptor, DimId, Transform, morton_bits};

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
            Culprit::Stage(stage) => describe_stage(layout, &layout.stages[stage]),
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
struct Part {
    dim: DimId,
    len: usize,
    aligned: bool,
}

/// The first transform that breaks the block `[(coordinate, len)]` (outermost first, blocks
/// starting at multiples of `len`), or `None` when every block is one run of consecutive
/// offsets.
pub fn culprit(layout: &Descriptor, block: &[(usize, usize)]) -> Option<Culprit> {
    let mut parts: Vec<Part> = block
        .iter()
        .filter(|&&(_, len)| len > 1)
        .map(|&(coord, len)| Part {
            dim: layout.coords[coord],
            len,
            aligned: true,
        })
        .collect();
    for (index, stage) in layout.stages.iter().enumerate().rev() {
        if !lower(layout, stage, &mut parts) {
            return Some(Culprit::Stage(index));
        }
    }
    let memory = &layout.memory;
    let len = |d: DimId| layout.dims[d].len;
    match strided(&mut parts, &memory.dims, &memory.strides, usize::MAX, &len) {
        true if parts.len() <= 1 => None,
        _ => Some(Culprit::Memory),
    }
}

/// Lowers the block through one stage; `false` when the stage breaks it.
fn lower(layout: &Descriptor, stage: &Transform, parts: &mut Vec<Part>) -> bool {
    let len = |d: DimId| layout.dims[d].len;
    let upper = stage.upper();
    if !parts.iter().any(|p| upper.contains(&p.dim)) {
        return true;
    }
    match stage {
        Transform::Merge { lower, upper } => {
            let at = parts.iter().position(|p| p.dim == *upper).unwrap_or(0);
            let Part {
                len: run, aligned, ..
            } = parts[at];
            match digits(lower, run, aligned, &len) {
                Some(digits) => {
                    parts.splice(at..=at, digits);
                    true
                }
                None => false,
            }
        }
        Transform::Unmerge { lower, upper } => {
            let strides =
                crate::ir::row_major_strides(&upper.iter().map(|&d| len(d)).collect::<Vec<_>>());
            strides.is_some_and(|strides| strided(parts, upper, &strides, *lower, &len))
        }
        Transform::Embed {
            lower,
            upper,
            strides,
        } => strided(parts, upper, strides, *lower, &len),
        Transform::Morton { lower, upper } => morton(parts, upper, *lower, &len),
        Transform::Xor { lower, upper, key } => {
            // A key that varies inside the block scrambles the target; a target run survives
            // only a key that is always 0 modulo its length.
            let key_varies = parts.iter().any(|p| p.dim == *key);
            let scrambled = len(*key) > 1 && len(*upper) > 1;
            match parts.iter_mut().find(|p| p.dim == *upper) {
                _ if key_varies => false,
                Some(_) if scrambled => false,
                Some(part) => {
                    part.dim = *lower;
                    true
                }
                None => true,
            }
        }
        Transform::Swizzle {
            lower,
            upper,
            bits,
            base,
            shift,
        } => {
            let Some(part) = parts.iter_mut().find(|p| p.dim == *upper) else {
                return true;
            };
            // The bits that vary inside an aligned power-of-two run are its low ones; the
            // swizzle must neither read nor write any of them.
            let swizzle = CuteSwizzle {
                bits: *bits,
                base: *base,
                shift: *shift,
            };
            let (source, target) = (swizzle.source(), swizzle.target());
            let varying = part.len.trailing_zeros();
            let untouched = *bits == 0
                || (part.len.is_power_of_two()
                    && part.aligned
                    && source >= varying
                    && target >= i64::from(varying));
            part.dim = *lower;
            untouched
        }
        Transform::Pad {
            lower, upper, left, ..
        } => shifted(parts, *upper, *lower, *left),
        Transform::Slice {
            lower,
            upper,
            begin: by,
        }
        | Transform::Offset { lower, upper, by } => shifted(parts, *upper, *lower, *by),
        // A broadcast dim that varies inside the block sends it to one element.
        Transform::Replicate { .. } => false,
        Transform::Freeze { .. } => true,
    }
}

/// The run `run` of a merged dim as runs of its digits (last digit fastest): whole digits
/// inside, a part of one digit outside; `None` if the run straddles digits unevenly.
fn digits(
    lower: &[DimId],
    run: usize,
    aligned: bool,
    len: &dyn Fn(DimId) -> usize,
) -> Option<Vec<Part>> {
    let mut rest = run;
    let mut parts = Vec::new();
    for &digit in lower.iter().rev() {
        if rest == 1 {
            break;
        }
        let size = len(digit);
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

/// `lower = Σ upper_i · stride_i` (unmerge, embed, the memory): the block's parts among
/// `upper` become one run of `lower` when they are adjacent and their strides are those of
/// a row-major block (innermost stride 1, each outer stride the product of the inner runs).
/// The run stays aligned when the other dims move it by multiples of its length.
fn strided(
    parts: &mut Vec<Part>,
    upper: &[DimId],
    strides: &[usize],
    lower: DimId,
    len: &dyn Fn(DimId) -> usize,
) -> bool {
    let stride = |dim: DimId| upper.iter().position(|&d| d == dim).map(|i| strides[i]);
    let touched: Vec<usize> = (0..parts.len())
        .filter(|&i| stride(parts[i].dim).is_some())
        .collect();
    let (Some(&first), Some(&last)) = (touched.first(), touched.last()) else {
        return true;
    };
    if last - first + 1 != touched.len() {
        return false;
    }
    let mut expected = 1usize;
    for part in parts[first..=last].iter().rev() {
        if stride(part.dim) != Some(expected) {
            return false;
        }
        expected = expected.saturating_mul(part.len);
    }
    let others_aligned = upper.iter().zip(strides).all(|(&dim, &stride)| {
        len(dim) == 1 || stride % expected == 0 || parts[first..=last].iter().any(|p| p.dim == dim)
    });
    let aligned = parts[first].aligned && others_aligned;
    parts.splice(
        first..=last,
        [Part {
            dim: lower,
            len: expected,
            aligned,
        }],
    );
    true
}

/// `morton`: the block's bits (innermost part's low bits first) must land on the interleaved
/// dim's bits 0, 1, 2, … in that order.
fn morton(
    parts: &mut Vec<Part>,
    upper: &[DimId],
    lower: DimId,
    len: &dyn Fn(DimId) -> usize,
) -> bool {
    let widths: Vec<u32> = upper.iter().map(|&d| len(d).trailing_zeros()).collect();
    let positions = morton_bits(&widths);
    let touched: Vec<usize> = (0..parts.len())
        .filter(|&i| upper.contains(&parts[i].dim))
        .collect();
    let (first, last) = (touched[0], touched[touched.len() - 1]);
    if last - first + 1 != touched.len() {
        return false;
    }
    let mut next = 0u32;
    for part in parts[first..=last].iter().rev() {
        if !part.len.is_power_of_two() || !part.aligned {
            return false;
        }
        let dim = upper.iter().position(|&d| d == part.dim).unwrap_or(0);
        for bit in 0..part.len.trailing_zeros() {
            if positions[dim].get(bit as usize) != Some(&next) {
                return false;
            }
            next += 1;
        }
    }
    parts.splice(
        first..=last,
        [Part {
            dim: lower,
            len: 1 << next,
            aligned: true,
        }],
    );
    true
}

/// `pad`, `slice`, `offset`: the run moves by `by`, staying a run; it stays aligned only if
/// `by` is a multiple of its length.
fn shifted(parts: &mut [Part], upper: DimId, lower: DimId, by: usize) -> bool {
    if let Some(part) = parts.iter_mut().find(|p| p.dim == upper) {
        part.dim = lower;
        part.aligned &= by.is_multiple_of(part.len);
    }
    true
}

/// A stage as the language writes it.
fn describe_stage(layout: &Descriptor, stage: &Transform) -> String {
    let name = |d: DimId| layout.dims[d].name.to_string();
    let names = |dims: &[DimId]| dims.iter().map(|&d| name(d)).collect::<Vec<_>>().join(", ");
    match stage {
        Transform::Unmerge { lower, upper }
        | Transform::Morton { lower, upper }
        | Transform::Embed { lower, upper, .. } => {
            format!("{} {} -> [{}]", stage.keyword(), name(*lower), names(upper))
        }
        Transform::Merge { lower, upper } => {
            format!("merge [{}] -> {}", names(lower), name(*upper))
        }
        Transform::Xor { upper, key, .. } => format!("xor {} by {}", name(*upper), name(*key)),
        Transform::Pad {
            lower,
            upper,
            left,
            right,
        } => format!("pad {} -> {} ({left}, {right})", name(*lower), name(*upper)),
        Transform::Slice {
            lower,
            upper,
            begin,
        } => format!(
            "slice {} -> {} ({begin}..{})",
            name(*lower),
            name(*upper),
            begin + layout.dims[*upper].len
        ),
        Transform::Offset { lower, upper, by } => {
            format!("offset {} -> {} (+{by})", name(*lower), name(*upper))
        }
        Transform::Freeze { lower, value } => format!("freeze {} = {value}", name(*lower)),
        Transform::Replicate { upper } => format!("replicate -> [{}]", names(upper)),
        Transform::Swizzle {
            lower,
            upper,
            bits,
            base,
            shift,
        } => format!(
            "swizzle {} -> {} ({bits}, {base}, {shift})",
            name(*lower),
            name(*upper)
        ),
    }
}
