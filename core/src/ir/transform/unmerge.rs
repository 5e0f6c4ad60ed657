//! `unmerge l -> [a: A, b: B, …]`: `l = row-major(a, b, …)`, the last dim fastest. The
//! lengths multiply to `len(l)`.
//!
//! Where `l` has a run-time length (it counts tiles of a layout with `dyn` dims), the
//! unmerge divides it: `unmerge l -> [n: dyn, b: B, …]` cuts `l` into blocks of `B · …`
//! elements and `n` counts them at run time (CuTe's divide with a dynamic rest mode). In the
//! descriptor, which describes one tile, `n` has the length of the tile's blocks along `l`
//! (`len(l) / (B · …)`, so the block must divide the tile) and counts tiles as `l` did.

use super::check::{self, Blame, Context, Written};
use super::{Domain, Field, Lowering, Stage, names};
use crate::analysis::runs::Walk;
use crate::ir::{Dim, DimId, List, row_major_strides, restated};
use std::borrow::Cow;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Unmerge {
    pub lower: DimId,
    pub upper: List<DimId>,
}

impl Unmerge {
    /// A copy in const data (see [`Transform::restate`](super::Transform::restate)).
    pub const fn restate(&self) -> Self {
        Unmerge { lower: self.lower, upper: restated(&self.upper) }
    }
}

impl Unmerge {
    fn strides<D: Domain>(&self, on: &Lowering<'_, D>) -> Result<Vec<usize>, D::Error> {
        let lens: Vec<usize> = self.upper.iter().map(|&d| on.len(d)).collect();
        row_major_strides(&lens).ok_or_else(|| on.domain.fail("arithmetic overflow"))
    }
}

impl Stage for Unmerge {
    const KEYWORD: &'static str = "unmerge";

    fn lower(&self) -> Vec<DimId> {
        vec![self.lower]
    }

    fn upper(&self) -> Vec<DimId> {
        self.upper.to_vec()
    }

    fn apply<D: Domain>(&self, on: &mut Lowering<'_, D>) -> Result<(), D::Error> {
        let value = on.strided(&self.upper, &self.strides(on)?)?;
        on.set(self.lower, value)
    }

    fn raise<D: Domain>(&self, on: &mut Lowering<'_, D>) -> Result<(), D::Error> {
        on.digits(on.get(self.lower)?, &self.upper)
    }

    fn injective(&self, _: &[Dim]) -> bool {
        true
    }

    fn runs(&self, walk: &mut Walk<'_>) -> bool {
        let lens: Vec<usize> = self.upper.iter().map(|&d| walk.len(d)).collect();
        row_major_strides(&lens)
            .is_some_and(|strides| walk.strided(&self.upper, &strides, self.lower))
    }

    fn describe(&self, dims: &[Dim]) -> String {
        let (lower, upper) = (&dims[self.lower].name, names(dims, &self.upper));
        format!("unmerge {lower} -> [{upper}]")
    }

    fn fields(&self) -> Vec<(&'static str, Field<'_>)> {
        vec![
            ("lower", Field::Dim(self.lower)),
            ("upper", Field::Dims(&self.upper)),
        ]
    }

    fn check(cx: &mut dyn Context) -> Option<Self> {
        let lower = cx.consume(0, true);
        if let Some(lower) = lower.filter(|&l| cx.is_dynamic(l)) {
            return divide(cx, lower);
        }
        let (upper, lens) = check::written(cx)?;
        let lower = lower?;
        check::product(cx, &lens, lower)?;
        Some(Unmerge {
            lower,
            upper: Cow::Owned(upper),
        })
    }
}

/// `unmerge l -> [n: dyn, b: B, …]` of a run-time dim `l`: the blocks `B · …` must divide
/// the tile along `l`, and `n` counts them (the tile's blocks in the descriptor).
fn divide(cx: &mut dyn Context, lower: DimId) -> Option<Unmerge> {
    check::nonempty_uppers(cx)?;
    let name = cx.name(lower);
    // Every upper dim is declared even after an error, so that no use of one cascades.
    let mut ok = true;
    if cx.written(0) != Written::Dyn {
        let first = cx.upper_name(0);
        cx.error(
            Blame::UpperLength(0),
            format!(
                "`{name}` has a run-time length: an `unmerge` of it counts its blocks at run \
                 time, so its outermost dim is `dyn` (`{first}: dyn`)"
            ),
        );
        ok = false;
    }
    let mut block = Some(1usize);
    let mut inner = Vec::new();
    for i in 1..cx.uppers() {
        let len = match cx.written(i) {
            Written::Len(len) => len,
            Written::Dyn | Written::Inferred => {
                let upper = cx.upper_name(i);
                cx.error(
                    Blame::UpperLength(i),
                    format!(
                        "only the outermost dim of an `unmerge` of a run-time dim counts at run \
                         time: give `{upper}` a constant length"
                    ),
                );
                None
            }
        };
        block = block.zip(len).and_then(|(b, l)| b.checked_mul(l));
        inner.push(len);
    }
    let blocks = block.zip(cx.len(lower)).filter(|_| ok);
    let blocks = blocks.and_then(|(block, tile)| match tile % block {
        0 => Some(tile / block),
        _ => {
            cx.error(
                Blame::Uppers,
                format!(
                    "a tile holds {tile} of `{name}`, and blocks of {block} do not divide it: \
                     the lengths after `dyn` must multiply to a divisor of {tile}"
                ),
            );
            None
        }
    });
    let counted = cx.declare(0, blocks);
    let mut upper = vec![counted];
    for (i, len) in inner.into_iter().enumerate() {
        upper.push(cx.declare(i + 1, len));
    }
    cx.counts_tiles(lower, counted);
    blocks?;
    Some(Unmerge {
        lower,
        upper: Cow::Owned(upper),
    })
}
