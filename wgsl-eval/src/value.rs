//! Values and the scalar operations on them, with WGSL's semantics.

use crate::Error;
use half::f16;
use naga::{BinaryOperator, ScalarKind, UnaryOperator};
use std::rc::Rc;

/// A WGSL scalar.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scalar {
    Bool(bool),
    U32(u32),
    I32(i32),
    F32(f32),
    F16(f16),
}

/// A WGSL value of one invocation.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Scalar(Scalar),
    /// A vector: its first `len` components.
    Vector {
        len: u8,
        items: [Scalar; 4],
    },
    /// An array or a structure.
    Composite(Rc<Vec<Value>>),
    /// A pointer (a reference in WGSL's terms).
    Pointer(Pointer),
    /// A cooperative matrix: one value of a whole subgroup, shared by its lanes.
    Matrix(Rc<Matrix>),
    /// Not evaluated yet (an expression before it is emitted, a lane that did not run).
    Undefined,
}

/// Where a pointer points: into a memory of bytes (storage, uniform and workgroup
/// variables) or into a variable of one invocation (function and private variables).
#[derive(Clone, Debug, PartialEq)]
pub struct Pointer(pub(crate) Target);

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Target {
    Memory {
        /// The global variable's index.
        memory: usize,
        offset: usize,
        pointee: Pointee,
        /// The stride of the array this points into an element of (a cooperative load's
        /// stride counts these).
        element_stride: Option<usize>,
    },
    Variable {
        root: Root,
        path: Vec<u32>,
    },
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Root {
    Local(naga::Handle<naga::LocalVariable>),
    Private(naga::Handle<naga::GlobalVariable>),
}

/// The type a memory pointer points at.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Pointee {
    Type(naga::Handle<naga::Type>),
    Scalar(naga::Scalar),
}

/// A cooperative matrix (`coop_mat<R>x<C><T, role>`): `rows × columns` elements, row by
/// row, held as f32 (f16 elements exactly).
#[derive(Clone, Debug, PartialEq)]
pub struct Matrix {
    pub rows: usize,
    pub columns: usize,
    pub scalar: naga::Scalar,
    pub role: naga::CooperativeRole,
    pub elements: Vec<f32>,
}

impl Value {
    /// The value as a `u32`.
    pub fn u32(&self) -> Result<u32, Error> {
        match self {
            Value::Scalar(Scalar::U32(value)) => Ok(*value),
            other => Err(Error::new(format!("expected a u32, found {other:?}"))),
        }
    }

    /// The value as a `bool`.
    pub fn bool(&self) -> Result<bool, Error> {
        match self {
            Value::Scalar(Scalar::Bool(value)) => Ok(*value),
            other => Err(Error::new(format!("expected a bool, found {other:?}"))),
        }
    }

    /// The `u32`s of an array or a vector.
    pub fn array(&self) -> Result<Vec<u32>, Error> {
        match self {
            Value::Composite(items) => items.iter().map(Value::u32).collect(),
            Value::Vector { len, items } => items[..*len as usize]
                .iter()
                .map(|&item| Value::Scalar(item).u32())
                .collect(),
            other => Err(Error::new(format!(
                "expected an array or a vector, found {other:?}"
            ))),
        }
    }

    pub(crate) fn scalar(&self) -> Result<Scalar, Error> {
        match self {
            Value::Scalar(scalar) => Ok(*scalar),
            other => Err(Error::new(format!("expected a scalar, found {other:?}"))),
        }
    }

    pub(crate) fn vector(items: &[Scalar]) -> Value {
        let mut padded = [Scalar::Bool(false); 4];
        padded[..items.len()].copy_from_slice(items);
        Value::Vector {
            len: items.len() as u8,
            items: padded,
        }
    }

    /// The scalars of a scalar (one) or a vector.
    pub(crate) fn components(&self) -> Result<&[Scalar], Error> {
        match self {
            Value::Scalar(scalar) => Ok(std::slice::from_ref(scalar)),
            Value::Vector { len, items } => Ok(&items[..*len as usize]),
            other => Err(Error::new(format!(
                "expected a scalar or a vector, found {other:?}"
            ))),
        }
    }

    /// `f` on each component of a scalar or a vector.
    pub(crate) fn map(&self, f: impl Fn(Scalar) -> Result<Scalar, Error>) -> Result<Value, Error> {
        match self {
            Value::Scalar(scalar) => Ok(Value::Scalar(f(*scalar)?)),
            Value::Vector { len, items } => {
                let mut out = *items;
                for item in &mut out[..*len as usize] {
                    *item = f(*item)?;
                }
                Ok(Value::Vector {
                    len: *len,
                    items: out,
                })
            }
            other => Err(Error::new(format!(
                "expected a scalar or a vector, found {other:?}"
            ))),
        }
    }

    /// `f` on the components of scalars and vectors of one length, a scalar standing for
    /// each component where the other is a vector (as naga's IR allows for `*`).
    pub(crate) fn zip(
        &self,
        other: &Value,
        f: impl Fn(Scalar, Scalar) -> Result<Scalar, Error>,
    ) -> Result<Value, Error> {
        let (left, right) = (self.components()?, other.components()?);
        let len = left.len().max(right.len());
        if left.len() != right.len() && left.len() != 1 && right.len() != 1 {
            return Err(Error::new(format!(
                "operands of {} and {} components",
                left.len(),
                right.len()
            )));
        }
        let at = |side: &[Scalar], i: usize| side[if side.len() == 1 { 0 } else { i }];
        let items: Vec<Scalar> = (0..len)
            .map(|i| f(at(left, i), at(right, i)))
            .collect::<Result<_, _>>()?;
        Ok(match (self, other) {
            (Value::Scalar(_), Value::Scalar(_)) => Value::Scalar(items[0]),
            _ => Value::vector(&items),
        })
    }
}

impl Scalar {
    /// The zero of `scalar`'s type.
    pub(crate) fn zero(scalar: naga::Scalar) -> Result<Scalar, Error> {
        Ok(match (scalar.kind, scalar.width) {
            (ScalarKind::Bool, _) => Scalar::Bool(false),
            (ScalarKind::Uint, 4) => Scalar::U32(0),
            (ScalarKind::Sint, 4) => Scalar::I32(0),
            (ScalarKind::Float, 4) => Scalar::F32(0.0),
            (ScalarKind::Float, 2) => Scalar::F16(f16::ZERO),
            _ => return Err(unsupported_scalar(scalar)),
        })
    }

    /// The value of `literal` (abstract integers, which naga leaves only where a `u32` is
    /// meant, as a `u32`).
    pub(crate) fn literal(literal: &naga::Literal) -> Result<Scalar, Error> {
        use naga::Literal as L;
        Ok(match *literal {
            L::Bool(value) => Scalar::Bool(value),
            L::U32(value) => Scalar::U32(value),
            L::I32(value) => Scalar::I32(value),
            L::F32(value) => Scalar::F32(value),
            L::F16(value) => Scalar::F16(value),
            L::AbstractInt(value) => Scalar::U32(
                u32::try_from(value)
                    .map_err(|_| Error::new(format!("literal {value} is not a u32")))?,
            ),
            ref other => return Err(Error::new(format!("unsupported literal {other:?}"))),
        })
    }

    /// Its bytes, little-endian, as a host-shareable WGSL value is laid out.
    pub(crate) fn bytes(self) -> Result<Vec<u8>, Error> {
        Ok(match self {
            Scalar::U32(value) => value.to_le_bytes().to_vec(),
            Scalar::I32(value) => value.to_le_bytes().to_vec(),
            Scalar::F32(value) => value.to_le_bytes().to_vec(),
            Scalar::F16(value) => value.to_le_bytes().to_vec(),
            Scalar::Bool(_) => return Err(Error::new("a bool in host-shareable memory")),
        })
    }

    /// The `scalar` in `bytes` (its width of them).
    pub(crate) fn from_bytes(scalar: naga::Scalar, bytes: &[u8]) -> Result<Scalar, Error> {
        let word = || u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
        Ok(match (scalar.kind, scalar.width) {
            (ScalarKind::Uint, 4) => Scalar::U32(word()),
            (ScalarKind::Sint, 4) => Scalar::I32(word() as i32),
            (ScalarKind::Float, 4) => Scalar::F32(f32::from_bits(word())),
            (ScalarKind::Float, 2) => Scalar::F16(f16::from_le_bytes([bytes[0], bytes[1]])),
            _ => return Err(unsupported_scalar(scalar)),
        })
    }

    pub(crate) fn bool(self) -> Result<bool, Error> {
        match self {
            Scalar::Bool(value) => Ok(value),
            other => Err(Error::new(format!("expected a bool, found {other:?}"))),
        }
    }

    /// As an index (`u32` or non-negative `i32`).
    pub(crate) fn index(self) -> Result<usize, Error> {
        match self {
            Scalar::U32(value) => Ok(value as usize),
            Scalar::I32(value) if value >= 0 => Ok(value as usize),
            other => Err(Error::new(format!("{other:?} is not an index"))),
        }
    }

    pub(crate) fn f32(self) -> Result<f32, Error> {
        match self {
            Scalar::F32(value) => Ok(value),
            Scalar::F16(value) => Ok(value.to_f32()),
            other => Err(Error::new(format!("expected a float, found {other:?}"))),
        }
    }

    /// `op a` as WGSL defines it.
    pub(crate) fn unary(op: UnaryOperator, a: Scalar) -> Result<Scalar, Error> {
        use UnaryOperator as U;
        Ok(match (op, a) {
            (U::LogicalNot, Scalar::Bool(a)) => Scalar::Bool(!a),
            (U::BitwiseNot, Scalar::U32(a)) => Scalar::U32(!a),
            (U::BitwiseNot, Scalar::I32(a)) => Scalar::I32(!a),
            (U::Negate, Scalar::I32(a)) => Scalar::I32(a.wrapping_neg()),
            (U::Negate, Scalar::F32(a)) => Scalar::F32(-a),
            (U::Negate, Scalar::F16(a)) => Scalar::F16(-a),
            (op, a) => return Err(Error::new(format!("unsupported {op:?} of {a:?}"))),
        })
    }

    /// `a op b` as WGSL defines it: integers wrap, shifts take their amount modulo the bit
    /// width, integer division by zero (or `i32::MIN / -1`) gives `a` and the remainder 0,
    /// f16 arithmetic is rounded once to f16 (done in f32, which holds every exact sum,
    /// difference and product of two f16 and rounds quotients correctly before the f16
    /// rounding).
    pub(crate) fn binary(op: BinaryOperator, a: Scalar, b: Scalar) -> Result<Scalar, Error> {
        use BinaryOperator as B;
        use Scalar as S;
        let compare = |ordering: Option<std::cmp::Ordering>| {
            use std::cmp::Ordering::*;
            Some(S::Bool(match (op, ordering) {
                (B::Equal, o) => o == Some(Equal),
                (B::NotEqual, o) => o != Some(Equal),
                (B::Less, o) => o == Some(Less),
                (B::LessEqual, o) => matches!(o, Some(Less | Equal)),
                (B::Greater, o) => o == Some(Greater),
                (B::GreaterEqual, o) => matches!(o, Some(Greater | Equal)),
                _ => return None,
            }))
        };
        let result = match (a, b) {
            (S::Bool(x), S::Bool(y)) => match op {
                B::LogicalAnd | B::And => Some(S::Bool(x && y)),
                B::LogicalOr | B::InclusiveOr => Some(S::Bool(x || y)),
                B::Equal => Some(S::Bool(x == y)),
                B::NotEqual => Some(S::Bool(x != y)),
                _ => None,
            },
            (S::U32(x), S::U32(y)) => match op {
                B::Add => Some(S::U32(x.wrapping_add(y))),
                B::Subtract => Some(S::U32(x.wrapping_sub(y))),
                B::Multiply => Some(S::U32(x.wrapping_mul(y))),
                B::Divide => Some(S::U32(x.checked_div(y).unwrap_or(x))),
                B::Modulo => Some(S::U32(x.checked_rem(y).unwrap_or(0))),
                B::And => Some(S::U32(x & y)),
                B::InclusiveOr => Some(S::U32(x | y)),
                B::ExclusiveOr => Some(S::U32(x ^ y)),
                B::ShiftLeft => Some(S::U32(x << (y % 32))),
                B::ShiftRight => Some(S::U32(x >> (y % 32))),
                _ => compare(x.partial_cmp(&y)),
            },
            (S::I32(x), S::I32(y)) => match op {
                B::Add => Some(S::I32(x.wrapping_add(y))),
                B::Subtract => Some(S::I32(x.wrapping_sub(y))),
                B::Multiply => Some(S::I32(x.wrapping_mul(y))),
                B::Divide => Some(S::I32(x.checked_div(y).unwrap_or(x))),
                B::Modulo => Some(S::I32(x.checked_rem(y).unwrap_or(0))),
                B::And => Some(S::I32(x & y)),
                B::InclusiveOr => Some(S::I32(x | y)),
                B::ExclusiveOr => Some(S::I32(x ^ y)),
                _ => compare(x.partial_cmp(&y)),
            },
            (S::I32(x), S::U32(y)) => match op {
                B::ShiftLeft => Some(S::I32(x << (y % 32))),
                B::ShiftRight => Some(S::I32(x >> (y % 32))),
                _ => None,
            },
            (S::F32(x), S::F32(y)) => float(op, x, y)
                .map(S::F32)
                .or_else(|| compare(x.partial_cmp(&y))),
            (S::F16(x), S::F16(y)) => float(op, x.to_f32(), y.to_f32())
                .map(|v| S::F16(f16::from_f32(v)))
                .or_else(|| compare(x.partial_cmp(&y))),
            _ => None,
        };
        result.ok_or_else(|| Error::new(format!("unsupported {op:?} of {a:?} and {b:?}")))
    }

    /// The value conversion `T(a)` to `kind` of `width` bytes: floats to integers clamp
    /// (NaN gives 0), integers to f16 round once.
    pub(crate) fn convert(self, kind: ScalarKind, width: u8) -> Result<Scalar, Error> {
        use Scalar as S;
        let target = naga::Scalar { kind, width };
        let wide: f64 = match self {
            S::Bool(value) => value as u32 as f64,
            S::U32(value) => value as f64,
            S::I32(value) => value as f64,
            S::F32(value) => value as f64,
            S::F16(value) => value.to_f64(),
        };
        Ok(match (kind, width) {
            (ScalarKind::Bool, _) => S::Bool(wide != 0.0),
            (ScalarKind::Uint, 4) => S::U32(match self {
                S::I32(value) => value as u32,
                _ => wide as u32,
            }),
            (ScalarKind::Sint, 4) => S::I32(match self {
                S::U32(value) => value as i32,
                _ => wide as i32,
            }),
            (ScalarKind::Float, 4) => S::F32(wide as f32),
            (ScalarKind::Float, 2) => S::F16(f16::from_f64(wide)),
            _ => return Err(unsupported_scalar(target)),
        })
    }

    /// `bitcast<kind>(a)` between 32-bit scalars.
    pub(crate) fn bitcast(self, kind: ScalarKind) -> Result<Scalar, Error> {
        let bits = match self {
            Scalar::U32(value) => value,
            Scalar::I32(value) => value as u32,
            Scalar::F32(value) => value.to_bits(),
            other => return Err(Error::new(format!("unsupported bitcast of {other:?}"))),
        };
        Ok(match kind {
            ScalarKind::Uint => Scalar::U32(bits),
            ScalarKind::Sint => Scalar::I32(bits as i32),
            ScalarKind::Float => Scalar::F32(f32::from_bits(bits)),
            other => return Err(Error::new(format!("unsupported bitcast to {other:?}"))),
        })
    }
}

/// `x op y` of floats; `None` for the comparisons and what floats lack.
fn float(op: BinaryOperator, x: f32, y: f32) -> Option<f32> {
    use BinaryOperator as B;
    Some(match op {
        B::Add => x + y,
        B::Subtract => x - y,
        B::Multiply => x * y,
        B::Divide => x / y,
        // WGSL's float remainder truncates, as Rust's.
        B::Modulo => x % y,
        _ => return None,
    })
}

pub(crate) fn unsupported_scalar(scalar: naga::Scalar) -> Error {
    Error::new(format!(
        "unsupported scalar type {:?} of {} bytes",
        scalar.kind, scalar.width
    ))
}
