//! `slice l -> u (begin..end)`: `l = u + begin`, `len(u) = end − begin`; the window must be
//! non-empty and lie in `l`.

use super::check::{Blame, Context};
use super::{Domain, Field, Lowering, Stage};
use crate::analysis::runs::Walk;
use crate::ir::{Dim, DimId};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Slice {
    pub lower: DimId,
    pub upper: DimId,
    pub begin: usize,
}

impl Slice {
    /// A copy in const data (see [`Transform::restate`](super::Transform::restate)).
    pub const fn restate(&self) -> Self {
        *self
    }
}

impl Stage for Slice {
    const KEYWORD: &'static str = "slice";

    fn lower(&self) -> Vec<DimId> {
        vec![self.lower]
    }

    fn upper(&self) -> Vec<DimId> {
        vec![self.upper]
    }

    fn apply<D: Domain>(&self, on: &mut Lowering<'_, D>) -> Result<(), D::Error> {
        let moved = on.domain.add(on.get(self.upper)?, on.domain.constant(self.begin)?)?;
        on.set(self.lower, moved)
    }

    fn raise<D: Domain>(&self, on: &mut Lowering<'_, D>) -> Result<(), D::Error> {
        let moved = on.domain.sub(on.get(self.lower)?, on.domain.constant(self.begin)?)?;
        on.set(self.upper, moved)
    }

    fn injective(&self, _: &[Dim]) -> bool {
        true
    }

    fn runs(&self, walk: &mut Walk<'_>) -> bool {
        walk.shifted(self.upper, self.lower, self.begin)
    }

    fn describe(&self, dims: &[Dim]) -> String {
        let (lower, upper) = (&dims[self.lower].name, &dims[self.upper].name);
        let end = self.begin + dims[self.upper].len;
        format!("slice {lower} -> {upper} ({}..{end})", self.begin)
    }

    fn fields(&self) -> Vec<(&'static str, Field<'_>)> {
        vec![
            ("lower", Field::Dim(self.lower)),
            ("upper", Field::Dim(self.upper)),
            ("begin", Field::Count(self.begin)),
        ]
    }

    fn check(cx: &mut dyn Context) -> Option<Self> {
        let lower = cx.consume(0, false);
        let (begin, end) = (
            cx.value(0, "a slice bound", 0),
            cx.value(1, "a slice bound", 0),
        );
        let len = match (lower.and_then(|l| cx.len(l)), begin, end) {
            (Some(len), Some(b), Some(e)) => {
                let name = cx.lower_name(0);
                let problem = if e > len {
                    Some(format!(
                        "runs past the end of `{name}` (length {len}): the end must be at \
                         most {len}"
                    ))
                } else if b >= e {
                    Some("is empty: the beginning must be less than the end".to_owned())
                } else {
                    None
                };
                if let Some(problem) = &problem {
                    cx.error(Blame::Args, format!("slice {b}..{e} {problem}"));
                }
                problem.is_none().then(|| e - b)
            }
            _ => None,
        };
        let upper = cx.declare(0, len);
        len?;
        Some(Slice {
            lower: lower?,
            upper,
            begin: begin?,
        })
    }
}
