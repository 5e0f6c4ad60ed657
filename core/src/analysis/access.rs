//! Access patterns: what the lanes of a warp (32) or wave (64) touch at once. Each lane
//! reads or writes `vector` consecutive elements along one coordinate, starting at a
//! coordinate given by integer expressions of its lane id (`m = lane % 16, k = lane / 16 * 8`).

use crate::emit::code::{Op, checked};
use crate::ir::Descriptor;
use std::fmt;
use std::ops;

/// An integer expression of the lane id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LaneExpr {
    Lane,
    Lit(i128),
    Neg(Box<LaneExpr>),
    Binary(Op, Box<LaneExpr>, Box<LaneExpr>),
}

impl LaneExpr {
    /// The lane id, to build expressions from Rust: `LaneExpr::lane() % 16`.
    pub fn lane() -> Self {
        LaneExpr::Lane
    }

    /// The value for `lane`, `None` on overflow, division by zero or a shift out of range.
    pub fn eval(&self, lane: usize) -> Option<i128> {
        Some(match self {
            LaneExpr::Lane => lane as i128,
            LaneExpr::Lit(value) => *value,
            LaneExpr::Neg(operand) => operand.eval(lane)?.checked_neg()?,
            LaneExpr::Binary(op, lhs, rhs) => {
                let (a, b) = (lhs.eval(lane)?, rhs.eval(lane)?);
                let shift = u32::try_from(b).ok().filter(|&s| s < 127);
                checked!(*op, a, b, shift?)?
            }
        })
    }
}

/// `LaneExpr` op `LaneExpr` and `LaneExpr` op integer, so that runtime users write
/// `LaneExpr::lane() / 16 * 8` as they would in `layout!`.
macro_rules! lane_expr_ops {
    ($($trait:ident $method:ident $kind:ident),*) => {$(
        impl ops::$trait for LaneExpr {
            type Output = LaneExpr;
            fn $method(self, rhs: LaneExpr) -> LaneExpr {
                LaneExpr::Binary(Op::$kind, Box::new(self), Box::new(rhs))
            }
        }
        impl ops::$trait<i128> for LaneExpr {
            type Output = LaneExpr;
            fn $method(self, rhs: i128) -> LaneExpr {
                ops::$trait::$method(self, LaneExpr::Lit(rhs))
            }
        }
    )*};
}

lane_expr_ops!(
    Add add Add, Sub sub Sub, Mul mul Mul, Div div Div, Rem rem Rem, Shl shl Shl, Shr shr Shr,
    BitAnd bitand And, BitXor bitxor Xor, BitOr bitor Or
);

impl ops::Neg for LaneExpr {
    type Output = LaneExpr;
    fn neg(self) -> LaneExpr {
        LaneExpr::Neg(Box::new(self))
    }
}

impl From<i128> for LaneExpr {
    fn from(value: i128) -> Self {
        LaneExpr::Lit(value)
    }
}

/// What the lanes of one warp or wave touch in one instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Access {
    pub name: String,
    /// Lanes per warp (32) or wave (64).
    pub lanes: usize,
    /// Bytes per element.
    pub element_bytes: usize,
    /// Consecutive elements each lane touches along `along`.
    pub vector: usize,
    /// The coordinate the vector runs along; `None` means the layout's last coordinate.
    pub along: Option<String>,
    /// Each coordinate of the layout as an expression of the lane id.
    pub coords: Vec<(String, LaneExpr)>,
}

/// One element a lane touches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Touch {
    pub lane: usize,
    /// In the layout's `coords` order.
    pub coord: Vec<usize>,
    pub offset: usize,
}

/// Why an access does not fit a layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AccessError {
    /// The access gives no expression for this coordinate of the layout.
    MissingCoord(String),
    /// The access names a coordinate the layout does not have.
    UnknownCoord(String),
    /// A lane's expression does not evaluate (overflow, division by zero).
    Eval { lane: usize, coord: String },
    /// A lane touches a coordinate outside the layout or in its padding.
    Outside { lane: usize, coord: Vec<usize> },
    /// The access is larger than an analysis may walk: `count` of `what`, past the budget.
    OverBudget {
        what: &'static str,
        count: u128,
        budget: usize,
    },
}

impl fmt::Display for AccessError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::MissingCoord(c) => {
                write!(f, "the access gives no expression for coordinate `{c}`")
            }
            Self::UnknownCoord(c) => write!(f, "the layout has no coordinate `{c}`"),
            Self::Eval { lane, coord } => write!(f, "`{coord}` does not evaluate for lane {lane}"),
            Self::Outside { lane, coord } => {
                write!(
                    f,
                    "lane {lane} touches {coord:?}, outside the layout or in its padding"
                )
            }
            Self::OverBudget {
                what,
                count,
                budget,
            } => write!(
                f,
                "it touches {count} {what}, more than the analyses' budget of {budget}: \
                 give it fewer lanes, a shorter vector or smaller elements"
            ),
        }
    }
}

impl std::error::Error for AccessError {}

impl Access {
    /// An access of `lanes` lanes, each touching one element of `element_bytes` bytes; add
    /// coordinates with [`Access::coord`], a vector with [`Access::vector`].
    pub fn new(name: impl Into<String>, lanes: usize, element_bytes: usize) -> Self {
        Access {
            name: name.into(),
            lanes,
            element_bytes,
            vector: 1,
            along: None,
            coords: Vec::new(),
        }
    }

    /// Each lane touches `vector` consecutive elements along `along` (`None`: the layout's
    /// last coordinate).
    pub fn vector(mut self, vector: usize, along: Option<&str>) -> Self {
        self.vector = vector;
        self.along = along.map(str::to_owned);
        self
    }

    /// Coordinate `name` of each lane is `expr` of its lane id.
    pub fn coord(mut self, name: impl Into<String>, expr: impl Into<LaneExpr>) -> Self {
        self.coords.push((name.into(), expr.into()));
        self
    }

    /// Every element every lane touches, lane by lane, each lane's vector in order; at most
    /// [`ACCESS_ELEMENTS`](crate::budget::ACCESS_ELEMENTS) of them.
    pub fn touches(&self, layout: &Descriptor) -> Result<Vec<Touch>, AccessError> {
        let elements = self.lanes as u128 * self.vector as u128;
        if elements > crate::budget::ACCESS_ELEMENTS as u128 {
            return Err(AccessError::OverBudget {
                what: "elements",
                count: elements,
                budget: crate::budget::ACCESS_ELEMENTS,
            });
        }
        let names: Vec<&str> = layout
            .coords
            .iter()
            .map(|&d| layout.dims[d].name.as_ref())
            .collect();
        if let Some((name, _)) = self
            .coords
            .iter()
            .find(|(n, _)| !names.contains(&n.as_str()))
        {
            return Err(AccessError::UnknownCoord(name.clone()));
        }
        let exprs: Vec<&LaneExpr> = names
            .iter()
            .map(|name| {
                self.coords
                    .iter()
                    .find(|(n, _)| n == name)
                    .map(|(_, e)| e)
                    .ok_or_else(|| AccessError::MissingCoord((*name).to_owned()))
            })
            .collect::<Result<_, _>>()?;
        let along = match &self.along {
            Some(name) => names
                .iter()
                .position(|n| n == name)
                .ok_or_else(|| AccessError::UnknownCoord(name.clone()))?,
            None => names.len().saturating_sub(1),
        };
        let mut touches = Vec::new();
        for lane in 0..self.lanes {
            let start: Vec<usize> = exprs
                .iter()
                .zip(&names)
                .map(|(expr, name)| {
                    expr.eval(lane)
                        .and_then(|v| usize::try_from(v).ok())
                        .ok_or_else(|| AccessError::Eval {
                            lane,
                            coord: (*name).to_owned(),
                        })
                })
                .collect::<Result<_, _>>()?;
            for step in 0..self.vector {
                let mut coord = start.clone();
                if let Some(c) = coord.get_mut(along) {
                    *c = c.checked_add(step).ok_or_else(|| AccessError::Eval {
                        lane,
                        coord: names[along].to_owned(),
                    })?;
                }
                let offset = layout.offset(&coord).map_err(|_| AccessError::Outside {
                    lane,
                    coord: coord.clone(),
                })?;
                touches.push(Touch {
                    lane,
                    coord,
                    offset,
                });
            }
        }
        Ok(touches)
    }
}
