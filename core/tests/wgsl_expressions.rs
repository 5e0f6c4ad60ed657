//! The WGSL expression builder (`emit::wgsl::expr`) against WGSL itself: random expression
//! trees over `u32` values and booleans, printed by the builder, must parse and validate
//! with naga (every parenthesis WGSL's grammar requires is there) and evaluate on the CPU
//! evaluator to what the tree computes in Rust with WGSL's semantics (no parenthesis the
//! builder left out changed the meaning).

use proptest::prelude::*;
use swizzle_core::emit::wgsl::expr::{Expr, call, name, u};

/// A `u32` expression.
#[derive(Clone, Debug)]
enum Value {
    /// One of the function's parameters `a`, `b`, `c`.
    Parameter(usize),
    Literal(u32),
    Binary(Arithmetic, Box<Value>, Box<Value>),
    /// `value / divisor` or `value % divisor`, by a non-zero literal.
    Divide(bool, Box<Value>, u32),
    /// `value << amount` or `value >> amount`, by a literal below 32.
    Shift(bool, Box<Value>, u32),
    Min(Box<Value>, Box<Value>),
    /// `select(0u, 1u, condition)`.
    Select(Box<Condition>),
}

#[derive(Clone, Copy, Debug)]
enum Arithmetic {
    Add,
    Sub,
    Mul,
    And,
    Or,
    Xor,
}

/// A boolean expression.
#[derive(Clone, Debug)]
enum Condition {
    Compare(Comparison, Box<Value>, Box<Value>),
    And(Box<Condition>, Box<Condition>),
    Or(Box<Condition>, Box<Condition>),
    Not(Box<Condition>),
}

#[derive(Clone, Copy, Debug)]
enum Comparison {
    Lt,
    Le,
    Gt,
    Ge,
    Equals,
    Differs,
}

impl Value {
    /// The tree with no operation over literals alone: WGSL evaluates those when it
    /// creates the shader and rejects one that overflows (`1u - 2u`), where at run time
    /// values wrap. The leftmost literal of such an operation becomes the parameter `a`.
    fn at_run_time(self) -> Value {
        let mut value = self;
        if !value.reads_a_parameter() && !matches!(value, Value::Literal(_)) {
            value.leftmost_literal_to_parameter();
        }
        value.map_operands(Value::at_run_time)
    }

    fn reads_a_parameter(&self) -> bool {
        let mut reads = matches!(self, Value::Parameter(_));
        self.each_operand(&mut |v| reads |= v.reads_a_parameter());
        reads
    }

    fn leftmost_literal_to_parameter(&mut self) -> bool {
        match self {
            Value::Literal(_) => {
                *self = Value::Parameter(0);
                true
            }
            Value::Parameter(_) => false,
            Value::Binary(_, l, r) | Value::Min(l, r) => {
                l.leftmost_literal_to_parameter() || r.leftmost_literal_to_parameter()
            }
            Value::Divide(_, v, _) | Value::Shift(_, v, _) => v.leftmost_literal_to_parameter(),
            Value::Select(c) => c.leftmost_literal_to_parameter(),
        }
    }

    fn each_operand(&self, f: &mut impl FnMut(&Value)) {
        match self {
            Value::Parameter(_) | Value::Literal(_) => {}
            Value::Binary(_, l, r) | Value::Min(l, r) => {
                f(l);
                f(r);
            }
            Value::Divide(_, v, _) | Value::Shift(_, v, _) => f(v),
            Value::Select(c) => c.each_value(f),
        }
    }

    fn map_operands(self, f: fn(Value) -> Value) -> Value {
        let boxed = |v: Box<Value>| Box::new(f(*v));
        match self {
            Value::Parameter(_) | Value::Literal(_) => self,
            Value::Binary(op, l, r) => Value::Binary(op, boxed(l), boxed(r)),
            Value::Min(l, r) => Value::Min(boxed(l), boxed(r)),
            Value::Divide(rem, v, d) => Value::Divide(rem, boxed(v), d),
            Value::Shift(right, v, s) => Value::Shift(right, boxed(v), s),
            Value::Select(c) => Value::Select(Box::new(c.map_values(f))),
        }
    }

    fn evaluate(&self, parameters: [u32; 3]) -> u32 {
        match self {
            Value::Parameter(i) => parameters[*i],
            Value::Literal(value) => *value,
            Value::Binary(op, left, right) => {
                let (l, r) = (left.evaluate(parameters), right.evaluate(parameters));
                match op {
                    Arithmetic::Add => l.wrapping_add(r),
                    Arithmetic::Sub => l.wrapping_sub(r),
                    Arithmetic::Mul => l.wrapping_mul(r),
                    Arithmetic::And => l & r,
                    Arithmetic::Or => l | r,
                    Arithmetic::Xor => l ^ r,
                }
            }
            Value::Divide(remainder, value, divisor) => match remainder {
                false => value.evaluate(parameters) / divisor,
                true => value.evaluate(parameters) % divisor,
            },
            Value::Shift(right, value, amount) => match right {
                false => value.evaluate(parameters) << amount,
                true => value.evaluate(parameters) >> amount,
            },
            Value::Min(left, right) => left.evaluate(parameters).min(right.evaluate(parameters)),
            Value::Select(condition) => u32::from(condition.evaluate(parameters)),
        }
    }

    fn expr(&self) -> Expr {
        match self {
            Value::Parameter(i) => name(["a", "b", "c"][*i]),
            Value::Literal(value) => u(*value as usize),
            Value::Binary(op, left, right) => {
                let (l, r) = (left.expr(), right.expr());
                match op {
                    Arithmetic::Add => l + r,
                    Arithmetic::Sub => l - r,
                    Arithmetic::Mul => l * r,
                    Arithmetic::And => l & r,
                    Arithmetic::Or => l | r,
                    Arithmetic::Xor => l ^ r,
                }
            }
            Value::Divide(remainder, value, divisor) => match remainder {
                false => value.expr() / u(*divisor as usize),
                true => value.expr() % u(*divisor as usize),
            },
            Value::Shift(right, value, amount) => match right {
                false => value.expr() << u(*amount as usize),
                true => value.expr() >> u(*amount as usize),
            },
            Value::Min(left, right) => call("min", [left.expr(), right.expr()]),
            Value::Select(condition) => call("select", [u(0), u(1), condition.expr()]),
        }
    }
}

impl Condition {
    fn each_value(&self, f: &mut impl FnMut(&Value)) {
        match self {
            Condition::Compare(_, l, r) => {
                f(l);
                f(r);
            }
            Condition::And(l, r) | Condition::Or(l, r) => {
                l.each_value(f);
                r.each_value(f);
            }
            Condition::Not(c) => c.each_value(f),
        }
    }

    fn leftmost_literal_to_parameter(&mut self) -> bool {
        match self {
            Condition::Compare(_, l, r) => {
                l.leftmost_literal_to_parameter() || r.leftmost_literal_to_parameter()
            }
            Condition::And(l, r) | Condition::Or(l, r) => {
                l.leftmost_literal_to_parameter() || r.leftmost_literal_to_parameter()
            }
            Condition::Not(c) => c.leftmost_literal_to_parameter(),
        }
    }

    fn map_values(self, f: fn(Value) -> Value) -> Condition {
        match self {
            Condition::Compare(op, l, r) => {
                Condition::Compare(op, Box::new(f(*l)), Box::new(f(*r)))
            }
            Condition::And(l, r) => {
                Condition::And(Box::new(l.map_values(f)), Box::new(r.map_values(f)))
            }
            Condition::Or(l, r) => {
                Condition::Or(Box::new(l.map_values(f)), Box::new(r.map_values(f)))
            }
            Condition::Not(c) => Condition::Not(Box::new(c.map_values(f))),
        }
    }

    fn evaluate(&self, parameters: [u32; 3]) -> bool {
        match self {
            Condition::Compare(op, left, right) => {
                let (l, r) = (left.evaluate(parameters), right.evaluate(parameters));
                match op {
                    Comparison::Lt => l < r,
                    Comparison::Le => l <= r,
                    Comparison::Gt => l > r,
                    Comparison::Ge => l >= r,
                    Comparison::Equals => l == r,
                    Comparison::Differs => l != r,
                }
            }
            Condition::And(left, right) => left.evaluate(parameters) && right.evaluate(parameters),
            Condition::Or(left, right) => left.evaluate(parameters) || right.evaluate(parameters),
            Condition::Not(condition) => !condition.evaluate(parameters),
        }
    }

    fn expr(&self) -> Expr {
        match self {
            Condition::Compare(op, left, right) => {
                let (l, r) = (left.expr(), right.expr());
                match op {
                    Comparison::Lt => l.lt(r),
                    Comparison::Le => l.le(r),
                    Comparison::Gt => l.gt(r),
                    Comparison::Ge => l.ge(r),
                    Comparison::Equals => l.equals(r),
                    Comparison::Differs => l.differs(r),
                }
            }
            Condition::And(left, right) => left.expr().and(right.expr()),
            Condition::Or(left, right) => left.expr().or(right.expr()),
            Condition::Not(condition) => !condition.expr(),
        }
    }
}

fn arithmetic() -> impl Strategy<Value = Arithmetic> {
    prop_oneof![
        Just(Arithmetic::Add),
        Just(Arithmetic::Sub),
        Just(Arithmetic::Mul),
        Just(Arithmetic::And),
        Just(Arithmetic::Or),
        Just(Arithmetic::Xor),
    ]
}

fn comparison() -> impl Strategy<Value = Comparison> {
    prop_oneof![
        Just(Comparison::Lt),
        Just(Comparison::Le),
        Just(Comparison::Gt),
        Just(Comparison::Ge),
        Just(Comparison::Equals),
        Just(Comparison::Differs),
    ]
}

/// Conditions over `values`.
fn condition(values: BoxedStrategy<Value>) -> impl Strategy<Value = Condition> {
    let compare = (comparison(), values.clone(), values)
        .prop_map(|(op, l, r)| Condition::Compare(op, Box::new(l), Box::new(r)));
    compare.prop_recursive(3, 8, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone())
                .prop_map(|(l, r)| Condition::And(Box::new(l), Box::new(r))),
            (inner.clone(), inner.clone())
                .prop_map(|(l, r)| Condition::Or(Box::new(l), Box::new(r))),
            inner.prop_map(|c| Condition::Not(Box::new(c))),
        ]
    })
}

fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        (0..3usize).prop_map(Value::Parameter),
        prop_oneof![0..16u32, any::<u32>()].prop_map(Value::Literal),
    ];
    leaf.prop_recursive(5, 24, 2, |inner| {
        let boxed = inner.clone().boxed();
        prop_oneof![
            4 => (arithmetic(), inner.clone(), inner.clone())
                .prop_map(|(op, l, r)| Value::Binary(op, Box::new(l), Box::new(r))),
            1 => (any::<bool>(), inner.clone(), 1..100u32)
                .prop_map(|(rem, v, d)| Value::Divide(rem, Box::new(v), d)),
            1 => (any::<bool>(), inner.clone(), 0..32u32)
                .prop_map(|(right, v, s)| Value::Shift(right, Box::new(v), s)),
            1 => (inner.clone(), inner.clone())
                .prop_map(|(l, r)| Value::Min(Box::new(l), Box::new(r))),
            1 => condition(boxed).prop_map(|c| Value::Select(Box::new(c))),
        ]
    })
}

/// `value` as the body of `fn f(a: u32, b: u32, c: u32) -> u32`, parsed and validated by
/// naga and called on the CPU evaluator.
fn run(value: &Expr, parameters: [u32; 3]) -> Result<u32, String> {
    let text = format!("fn f(a: u32, b: u32, c: u32) -> u32 {{\n    return {value};\n}}\n");
    let module = naga::front::wgsl::parse_str(&text)
        .map_err(|e| format!("{}\n{text}", e.emit_to_string(&text)))?;
    naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::default(),
    )
    .validate(&module)
    .map_err(|e| format!("{}\n{text}", e.emit_to_string(&text)))?;
    let result = wgsl_eval::call(&module, "f", &parameters).map_err(|e| format!("{e}\n{text}"))?;
    result.u32().map_err(|e| format!("{e}\n{text}"))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn printed_expressions_parse_and_compute_what_they_were_built_from(
        value in value().prop_map(Value::at_run_time),
        parameters in any::<[u32; 3]>(),
    ) {
        let expected = value.evaluate(parameters);
        let actual = run(&value.expr(), parameters).map_err(TestCaseError::fail)?;
        prop_assert_eq!(actual, expected, "{}", value.expr());
    }
}
