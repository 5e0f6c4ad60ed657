//! Space-filling curves: CK Tile's `space_filling_curve`, exactly (docs/semantics.md §4). A
//! traversal cuts a tensor of `lengths` into accesses of `vector` scalars per dim, visits them
//! in dim `order` (position 0 is the outermost loop), optionally as a snake, and says where
//! each access starts. This is the reference the generated `index`, `for_each` and the kernels
//! are tested against.
//!
//! Unlike CK, a vector need not divide its length: the access count is a ceiling division and
//! the last access along such a dim is partial ([`Sfc::extent`] says how many of its scalars
//! are in bounds).

use crate::emit::code::Code;
use crate::ir::List;
use std::collections::HashMap;

/// A space-filling curve: the const data a `traversal` item embeds as `SFC`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Sfc {
    /// Tensor lengths, in tensor (coordinate) order.
    pub lengths: List<usize>,
    /// Dims from the outermost loop to the innermost.
    pub order: List<usize>,
    /// Scalars per access along each dim (CK's `scalars_per_access`).
    pub vector: List<usize>,
    /// Whether inner loops run backwards after an odd number of outer steps.
    pub snake: bool,
}

impl Sfc {
    /// Accesses along each dim, in tensor order: `ceil(lengths / vector)`.
    pub fn access_lengths(&self) -> Vec<usize> {
        self.lengths
            .iter()
            .zip(self.vector.iter())
            .map(|(&len, &vector)| len.div_ceil(vector.max(1)))
            .collect()
    }

    /// Number of accesses: the product of the access lengths.
    pub fn num_access(&self) -> usize {
        self.access_lengths().iter().product()
    }

    /// The tensor index where access `i` starts (CK's `get_index`).
    pub fn index(&self, i: usize) -> Vec<usize> {
        let access = self.access_lengths();
        let n = self.order.len();
        // Row-major digits of `i` over the access lengths in loop order.
        let mut ordered = vec![0; n];
        let mut rest = i;
        for k in (0..n).rev() {
            let len = access[self.order[k]];
            ordered[k] = rest % len;
            rest /= len;
        }
        let mut index = vec![0; n];
        let mut outer = 0; // row-major flattening of the outer loops' digits
        for (&dim, &digit) in self.order.iter().zip(&ordered) {
            let reversed = self.snake && outer % 2 == 1;
            let step = if reversed {
                access[dim] - 1 - digit
            } else {
                digit
            };
            index[dim] = step * self.vector[dim];
            outer = outer * access[dim] + digit;
        }
        index
    }

    /// How many scalars of access `i` are in bounds along each dim: the vector, except at the
    /// end of a dim that the vector does not divide.
    pub fn extent(&self, i: usize) -> Vec<usize> {
        self.index(i)
            .iter()
            .zip(self.lengths.iter().zip(self.vector.iter()))
            .map(|(&start, (&len, &vector))| vector.min(len - start))
            .collect()
    }

    /// `index(b) − index(a)` (CK's `get_step_between`).
    pub fn step_between(&self, a: usize, b: usize) -> Vec<isize> {
        let (from, to) = (self.index(a), self.index(b));
        from.iter()
            .zip(&to)
            .map(|(&from, &to)| to as isize - from as isize)
            .collect()
    }

    /// The step from access `i` to access `i + 1` (CK's `get_forward_step`).
    pub fn forward_step(&self, i: usize) -> Vec<isize> {
        self.step_between(i, i + 1)
    }

    /// The step from access `i` to access `i − 1` (CK's `get_backward_step`).
    pub fn backward_step(&self, i: usize) -> Vec<isize> {
        self.step_between(i, i - 1)
    }

    /// Every access's start, in visiting order.
    pub fn indices(&self) -> impl Iterator<Item = Vec<usize>> + '_ {
        (0..self.num_access()).map(|i| self.index(i))
    }
}

/// One access of a traversal, as its generated `for_each` hands it over: every field a
/// constant of the unrolled code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Visit<const N: usize> {
    /// The access number, in visiting order.
    pub access: usize,
    /// Where the access starts.
    pub index: [usize; N],
    /// The offset of `index` in the layout the traversal walks (row-major over its lengths
    /// when it walks none).
    pub offset: usize,
    /// How many scalars along each dim are in bounds: the vector, except for the last access
    /// along a dim that the vector does not divide.
    pub extent: [usize; N],
}

/// One dim of [`IndexProgram`]: its digit of the access index, reversed on the odd passes
/// of a snake, times its vector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexStep {
    /// The local it is bound to.
    pub name: String,
    /// The dim's digit of the access index.
    pub digit: Code,
    /// Snake order: where `odd` is 1 the digit runs backwards, `last − digit`.
    pub reverse: Option<(Code, u128)>,
    /// Scalars per access along the dim.
    pub vector: u128,
}

/// `index(i)` as straight-line code over the access index: one step per dim, outermost loop
/// first, then the start of the access in tensor order. What the Rust and the WGSL printers
/// print.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexProgram {
    pub param: String,
    pub steps: Vec<IndexStep>,
    /// The locals, in tensor order.
    pub results: Vec<String>,
}

impl Sfc {
    /// [`Sfc::index`] as code: `names` the dims' locals (in tensor order), `param` the access
    /// index.
    pub fn index_program(&self, names: &[String], param: &str) -> IndexProgram {
        let access = self.access_lengths();
        let i = Code::var(param);
        // The product of the access lengths of the loops from position `k` inward.
        let inner = |k: usize| {
            self.order[k..]
                .iter()
                .map(|&d| access[d] as u128)
                .product::<u128>()
        };
        let steps = self
            .order
            .iter()
            .enumerate()
            .map(|(k, &dim)| {
                // The outermost digit takes no remainder: `i` is below the number of accesses.
                let digit = match k {
                    0 => i.clone().quotient(inner(1)),
                    _ => i
                        .clone()
                        .quotient(inner(k + 1))
                        .remainder(access[dim] as u128),
                };
                let reverse = (self.snake && k > 0 && access[dim] > 1).then(|| {
                    let odd = i.clone().quotient(inner(k)).remainder(2);
                    (odd, access[dim] as u128 - 1)
                });
                IndexStep {
                    name: names[dim].clone(),
                    digit,
                    reverse,
                    vector: self.vector[dim] as u128,
                }
            })
            .collect();
        IndexProgram {
            param: param.to_owned(),
            steps,
            results: names.to_vec(),
        }
    }
}

impl IndexProgram {
    /// Runs the program as the printed code does; `None` where a value does not compute.
    pub fn run(&self, i: u64) -> Option<Vec<u64>> {
        let mut env: HashMap<String, u64> = HashMap::new();
        env.insert(self.param.clone(), i);
        for step in &self.steps {
            let mut value = step.digit.eval(&env)?;
            if let Some((odd, last)) = &step.reverse
                && odd.eval(&env)? == 1
            {
                value = u64::try_from(*last).ok()?.checked_sub(value)?;
            }
            value = value.checked_mul(u64::try_from(step.vector).ok()?)?;
            env.insert(step.name.clone(), value);
        }
        self.results.iter().map(|r| env.get(r).copied()).collect()
    }
}
