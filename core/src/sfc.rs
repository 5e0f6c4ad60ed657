//! Space-filling curves: CK Tile's `space_filling_curve`, exactly (docs/semantics.md §4). A
//! traversal cuts a tensor of `lengths` into accesses of `vector` scalars per dim, visits them
//! in dim `order` (position 0 is the outermost loop), optionally as a snake, and says where
//! each access starts. This is the reference the generated `index`, `for_each` and the kernels
//! are tested against.
//!
//! Unlike CK, a vector need not divide its length: the access count is a ceiling division and
//! the last access along such a dim is partial ([`Sfc::extent`] says how many of its scalars
//! are in bounds).

use crate::ir::List;

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
