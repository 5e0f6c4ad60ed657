//! A small evaluator of WGSL on the CPU, over naga's IR: the integer subset that the layout
//! printer emits (`u32` arithmetic, comparisons, `!`, `&&`/`||` — which naga lowers to an
//! `if` over a local variable —, `if` with an early `return`, `array` results, `let` and
//! `return`). It follows WGSL's rules, not Rust's — `u32` arithmetic wraps, shifts take
//! their amount modulo 32, division and remainder by zero give `e1` and `0` — so that a
//! printer that relies on Rust's semantics fails the property tests on every machine, not
//! only where a GPU runs the shader.

// Each test binary that includes this module uses part of it.
#![allow(dead_code)]

use naga::{
    BinaryOperator, Block, Expression, Function, Handle, Literal, LocalVariable, Module, Statement,
    UnaryOperator,
};
use std::collections::HashMap;

/// A WGSL value of the subset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    U32(u32),
    I32(i32),
    Bool(bool),
    Array(Vec<Value>),
}

impl Value {
    pub fn u32(&self) -> Result<u32, String> {
        match self {
            Value::U32(value) => Ok(*value),
            other => Err(format!("expected a u32, found {other:?}")),
        }
    }

    pub fn bool(&self) -> Result<bool, String> {
        match self {
            Value::Bool(value) => Ok(*value),
            other => Err(format!("expected a bool, found {other:?}")),
        }
    }

    pub fn array(&self) -> Result<Vec<u32>, String> {
        match self {
            Value::Array(items) => items.iter().map(Value::u32).collect(),
            other => Err(format!("expected an array, found {other:?}")),
        }
    }
}

/// Calls the function `name` of `module` with `u32` arguments.
pub fn call(module: &Module, name: &str, args: &[u32]) -> Result<Value, String> {
    let function = module
        .functions
        .iter()
        .map(|(_, function)| function)
        .find(|function| function.name.as_deref() == Some(name))
        .ok_or_else(|| format!("no function `{name}`"))?;
    if function.arguments.len() != args.len() {
        return Err(format!(
            "`{name}` takes {} arguments, given {}",
            function.arguments.len(),
            args.len()
        ));
    }
    let mut frame = Frame {
        function,
        args,
        values: HashMap::new(),
        locals: HashMap::new(),
    };
    frame
        .run(&function.body)?
        .ok_or_else(|| format!("`{name}` returns nothing"))
}

/// One call: its arguments, the values of the expressions evaluated so far (each is evaluated
/// once, as WGSL evaluates it once where it is emitted) and of the local variables.
struct Frame<'a> {
    function: &'a Function,
    args: &'a [u32],
    values: HashMap<Handle<Expression>, Value>,
    locals: HashMap<Handle<LocalVariable>, Value>,
}

impl Frame<'_> {
    /// Runs `block`; `Some` with the returned value once a `return` is reached.
    fn run(&mut self, block: &Block) -> Result<Option<Value>, String> {
        for statement in block.iter() {
            match statement {
                // Expressions are evaluated where they are used.
                Statement::Emit(_) => {}
                Statement::Block(inner) => {
                    if let Some(value) = self.run(inner)? {
                        return Ok(Some(value));
                    }
                }
                Statement::Return { value: Some(value) } => return self.eval(*value).map(Some),
                Statement::If {
                    condition,
                    accept,
                    reject,
                } => {
                    let branch = match self.eval(*condition)?.bool()? {
                        true => accept,
                        false => reject,
                    };
                    if let Some(value) = self.run(branch)? {
                        return Ok(Some(value));
                    }
                }
                Statement::Store { pointer, value } => {
                    let local = self.local(*pointer)?;
                    let value = self.eval(*value)?;
                    self.locals.insert(local, value);
                }
                other => return Err(format!("unsupported statement {other:?}")),
            }
        }
        Ok(None)
    }

    /// The local variable that `pointer` points at.
    fn local(&self, pointer: Handle<Expression>) -> Result<Handle<LocalVariable>, String> {
        match self.function.expressions[pointer] {
            Expression::LocalVariable(local) => Ok(local),
            ref other => Err(format!("unsupported pointer {other:?}")),
        }
    }

    fn eval(&mut self, handle: Handle<Expression>) -> Result<Value, String> {
        if let Some(value) = self.values.get(&handle) {
            return Ok(value.clone());
        }
        // Operands come before their uses in naga's arena, so one pass in arena order
        // evaluates a long chain of `let`s without recursing down it; what reads a local
        // variable is left to the recursion below, where statements have run.
        for (earlier, expression) in self.function.expressions.iter() {
            if earlier.index() >= handle.index() {
                break;
            }
            if !self.values.contains_key(&earlier) && self.ready(expression) {
                let value = self.eval_one(earlier)?;
                self.values.insert(earlier, value);
            }
        }
        self.eval_one(handle)
    }

    /// Whether `expression` is pure and its operands are evaluated.
    fn ready(&self, expression: &Expression) -> bool {
        match expression {
            Expression::Literal(_) | Expression::FunctionArgument(_) => true,
            Expression::Binary { left, right, .. } => {
                self.values.contains_key(left) && self.values.contains_key(right)
            }
            Expression::Compose { components, .. } => {
                components.iter().all(|c| self.values.contains_key(c))
            }
            Expression::Unary { expr, .. } => self.values.contains_key(expr),
            Expression::Select {
                condition,
                accept,
                reject,
            } => [condition, accept, reject]
                .iter()
                .all(|e| self.values.contains_key(*e)),
            _ => false,
        }
    }

    fn eval_one(&mut self, handle: Handle<Expression>) -> Result<Value, String> {
        if let Some(value) = self.values.get(&handle) {
            return Ok(value.clone());
        }
        let value = match &self.function.expressions[handle] {
            Expression::Literal(literal) => literal_value(literal)?,
            Expression::FunctionArgument(index) => Value::U32(self.args[*index as usize]),
            Expression::Binary { op, left, right } => {
                let (left, right) = (self.eval(*left)?, self.eval(*right)?);
                binary(*op, left, right)?
            }
            // A load is read where it is used: the variable may be stored to in between.
            Expression::Load { pointer } => {
                let local = self.local(*pointer)?;
                return match self.locals.get(&local) {
                    Some(value) => Ok(value.clone()),
                    None => match self.function.local_variables[local].init {
                        Some(init) => self.eval(init),
                        None => Err("a load of an unset local variable".to_owned()),
                    },
                };
            }
            Expression::Unary {
                op: UnaryOperator::LogicalNot,
                expr,
            } => Value::Bool(!self.eval(*expr)?.bool()?),
            Expression::Compose { components, .. } => Value::Array(
                components
                    .iter()
                    .map(|&component| self.eval(component))
                    .collect::<Result<_, _>>()?,
            ),
            Expression::Select {
                condition,
                accept,
                reject,
            } => match self.eval(*condition)?.bool()? {
                true => self.eval(*accept)?,
                false => self.eval(*reject)?,
            },
            other => return Err(format!("unsupported expression {other:?}")),
        };
        self.values.insert(handle, value.clone());
        Ok(value)
    }
}

fn literal_value(literal: &Literal) -> Result<Value, String> {
    Ok(match *literal {
        Literal::U32(value) => Value::U32(value),
        Literal::I32(value) => Value::I32(value),
        Literal::Bool(value) => Value::Bool(value),
        Literal::AbstractInt(value) => {
            Value::U32(u32::try_from(value).map_err(|_| format!("literal {value} is not a u32"))?)
        }
        other => return Err(format!("unsupported literal {other:?}")),
    })
}

/// `left op right` as WGSL defines it for `u32` (and `bool` for the logical operators).
fn binary(op: BinaryOperator, left: Value, right: Value) -> Result<Value, String> {
    use BinaryOperator as B;
    if let (Value::Bool(a), Value::Bool(b)) = (&left, &right) {
        return match op {
            B::LogicalAnd => Ok(Value::Bool(*a && *b)),
            B::LogicalOr => Ok(Value::Bool(*a || *b)),
            B::Equal => Ok(Value::Bool(a == b)),
            B::NotEqual => Ok(Value::Bool(a != b)),
            other => Err(format!("unsupported bool operator {other:?}")),
        };
    }
    let (a, b) = (left.u32()?, right.u32()?);
    Ok(match op {
        B::Add => Value::U32(a.wrapping_add(b)),
        B::Subtract => Value::U32(a.wrapping_sub(b)),
        B::Multiply => Value::U32(a.wrapping_mul(b)),
        // WGSL: an integer division by zero is `e1`, a remainder by zero is 0.
        B::Divide => Value::U32(a.checked_div(b).unwrap_or(a)),
        B::Modulo => Value::U32(a.checked_rem(b).unwrap_or(0)),
        B::And => Value::U32(a & b),
        B::ExclusiveOr => Value::U32(a ^ b),
        B::InclusiveOr => Value::U32(a | b),
        // WGSL shifts by the amount modulo the bit width.
        B::ShiftLeft => Value::U32(a << (b % 32)),
        B::ShiftRight => Value::U32(a >> (b % 32)),
        B::Equal => Value::Bool(a == b),
        B::NotEqual => Value::Bool(a != b),
        B::Less => Value::Bool(a < b),
        B::LessEqual => Value::Bool(a <= b),
        B::Greater => Value::Bool(a > b),
        B::GreaterEqual => Value::Bool(a >= b),
        B::LogicalAnd | B::LogicalOr => return Err(format!("{op:?} of u32 values")),
    })
}
