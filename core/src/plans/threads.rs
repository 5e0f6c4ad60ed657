//! Thread-value layouts: which thread of a workgroup holds which elements of a tile (CuTe's
//! TV layouts, CK Tile's tile distributions, Triton's lane and register bases).
//!
//! A thread-value layout is a layout whose "memory" is a tile's coordinates, row-major, and
//! whose own coordinates are thread coordinates (a thread index, or a subgroup and a lane)
//! followed by value coordinates: its offset of `(thread…, value…)` is the row-major index
//! of the tile element that thread holds as that value. Everything a layout has (folding,
//! inverse, WGSL, analyses) it has too; this module adds what is particular to threads:
//! the linear thread and value indices, the element each holds, the proof that every
//! element is held exactly once, and the elements as symbolic expressions of the thread
//! for code unrolled per thread.

use crate::budget;
use crate::canon::sym::Sym;
use crate::canon::{self, Lowered};
use crate::emit::function::{Function, Kind, Value};
use crate::ir::{Descriptor, row_major_strides};
use std::fmt;

/// The most threads one workgroup may have on any GPU API (Vulkan, Metal, DX12 and CUDA
/// all cap it at 1024; WebGPU's default limit is 256, which adapters raise).
pub const MAX_WORKGROUP_THREADS: usize = 1024;

/// A checked thread-value layout.
#[derive(Clone, Copy, Debug)]
pub struct ThreadValues<'d> {
    /// Memory: the tile's coordinates, row-major; coordinates: threads, then values.
    pub descriptor: &'d Descriptor,
    /// How many of the leading coordinates index threads.
    pub thread_coords: usize,
}

/// One value of one thread: both as linear indices (row-major over their coordinates).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Slot {
    pub thread: usize,
    pub value: usize,
}

impl fmt::Display for Slot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "thread {} value {}", self.thread, self.value)
    }
}

/// Why a thread-value layout does not hold each element of its tile exactly once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Coverage {
    /// Two slots hold one element (and replication was not declared).
    Repeated {
        element: Vec<usize>,
        a: Slot,
        b: Slot,
    },
    /// No slot holds this element.
    Missing { element: Vec<usize> },
    /// The tile or the slots are too many to enumerate (past [`budget::REQUESTED_ENUMERATION`]).
    TooLarge { elements: usize },
}

impl<'d> ThreadValues<'d> {
    pub fn new(descriptor: &'d Descriptor, thread_coords: usize) -> ThreadValues<'d> {
        ThreadValues {
            descriptor,
            thread_coords: thread_coords.min(descriptor.coords.len()),
        }
    }

    /// The tile's lengths: the lengths of the memory dims.
    pub fn tile(&self) -> Vec<usize> {
        let dims = &self.descriptor.dims;
        self.descriptor
            .memory
            .dims
            .iter()
            .map(|&d| dims[d].len)
            .collect()
    }

    /// The tile's coordinate names.
    pub fn tile_names(&self) -> Vec<String> {
        let dims = &self.descriptor.dims;
        let names = self.descriptor.memory.dims.iter();
        names.map(|&d| dims[d].name.to_string()).collect()
    }

    /// The lengths of the thread coordinates, then of the value coordinates.
    fn split(&self) -> (Vec<usize>, Vec<usize>) {
        let mut shape = self.descriptor.shape();
        let values = shape.split_off(self.thread_coords);
        (shape, values)
    }

    /// Threads in the workgroup: the product of the thread coordinates' lengths.
    pub fn thread_count(&self) -> usize {
        self.split().0.iter().product()
    }

    /// Values per thread: the product of the value coordinates' lengths.
    pub fn value_count(&self) -> usize {
        self.split().1.iter().product()
    }

    /// The layout's coordinates of a slot: the linear thread and value indices split into
    /// their coordinates, row-major.
    pub fn coordinate(&self, slot: Slot) -> Vec<usize> {
        let (threads, values) = self.split();
        let mut coord = digits(slot.thread, &threads);
        coord.extend(digits(slot.value, &values));
        coord
    }

    /// The tile element a slot holds; `None` for a slot in the layout's padding (or out of
    /// range).
    pub fn element(&self, slot: Slot) -> Option<Vec<usize>> {
        if slot.thread >= self.thread_count() || slot.value >= self.value_count() {
            return None;
        }
        let index = self.descriptor.offset(&self.coordinate(slot)).ok()?;
        Some(digits(index, &self.tile()))
    }

    /// The slots holding each element of the tile (row-major), or `TooLarge`.
    pub fn holders(&self) -> Result<Vec<Vec<Slot>>, Coverage> {
        let (threads, values) = (self.thread_count(), self.value_count());
        let elements: usize = self.tile().iter().product();
        let work = threads.saturating_mul(values).max(elements);
        if work > budget::REQUESTED_ENUMERATION {
            return Err(Coverage::TooLarge { elements: work });
        }
        let mut holders = vec![Vec::new(); elements];
        for thread in 0..threads {
            for value in 0..values {
                let slot = Slot { thread, value };
                let coordinate = self.coordinate(slot);
                if let Ok(index) = self.descriptor.offset(&coordinate)
                    && let Some(held) = holders.get_mut(index)
                {
                    held.push(slot);
                }
            }
        }
        Ok(holders)
    }

    /// Checks that every element of the tile is held, by exactly one slot unless
    /// `replicated` allows several; the first element that breaks it otherwise, as a
    /// witness.
    pub fn coverage(&self, replicated: bool) -> Result<(), Coverage> {
        let tile = self.tile();
        for (index, held) in self.holders()?.iter().enumerate() {
            let element = || digits(index, &tile);
            match held.as_slice() {
                [] => return Err(Coverage::Missing { element: element() }),
                [a, b, ..] if !replicated => {
                    return Err(Coverage::Repeated {
                        element: element(),
                        a: *a,
                        b: *b,
                    });
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// The element that value `value` of each thread holds, and the tests that say whether
    /// the thread holds one at all (padding), as expressions of the thread coordinates
    /// (variables `0..thread_coords`, over their lengths). `None` where the folded
    /// expressions pass the symbolic budget.
    pub fn element_of_thread(&self, value: usize) -> Option<Lowered> {
        let (threads, values) = self.split();
        let value_coords = digits(value, &values);
        let mut inputs: Vec<Sym> = (0..threads.len()).map(Sym::Var).collect();
        inputs.extend(value_coords.iter().map(|&v| Sym::constant(v as i128)));
        canon::lower_at(self.descriptor, &inputs, &threads)
    }

    /// `element(threads…, values…)`: the tile coordinates a slot holds, folded, for the
    /// printers. `None` where the expressions pass the symbolic budget.
    pub fn element_function(&self) -> Option<Function> {
        let lens = self.descriptor.shape();
        let inputs: Vec<Sym> = (0..lens.len()).map(Sym::Var).collect();
        let lowered = canon::lower_at(self.descriptor, &inputs, &lens)?;
        let descriptor = self.descriptor;
        let names: Vec<String> = descriptor
            .coords
            .iter()
            .map(|&c| descriptor.dims[c].name.to_string())
            .collect();
        let element = lowered
            .memory
            .iter()
            .map(|sym| canon::sym_code(sym, &names));
        Some(Function {
            kind: Kind::Element,
            params: names.clone(),
            body: Vec::new(),
            result: Value::Coordinate(element.collect()),
        })
    }

    /// The row-major strides of the tile, to turn an element into its index.
    pub fn tile_strides(&self) -> Vec<usize> {
        row_major_strides(&self.tile()).unwrap_or_default()
    }
}

/// `index` split into row-major digits of `lens` (the last fastest).
pub fn digits(mut index: usize, lens: &[usize]) -> Vec<usize> {
    let mut out = vec![0; lens.len()];
    for (digit, &len) in out.iter_mut().zip(lens).rev() {
        let len = len.max(1);
        *digit = index % len;
        index /= len;
    }
    out
}

#[cfg(test)]
pub(crate) mod fixtures {
    use crate::ir::transform::{Merge, Transform, Unmerge};
    use crate::ir::{Descriptor, Dim, Memory};
    use std::borrow::Cow;

    /// A 4 × 8 tile held by 8 threads, 4 values each along `x`: `tile [y: 4, x: 8];
    /// unmerge x -> [tx: 2, v: 4]; merge [y, tx] -> t; threads [t]; values [v];`.
    pub(crate) fn rows_of_four() -> Descriptor {
        let dim = |name: &'static str, len| Dim {
            name: Cow::Borrowed(name),
            len,
        };
        Descriptor {
            name: Cow::Borrowed("Rows"),
            dims: Cow::Owned(vec![
                dim("y", 4),
                dim("x", 8),
                dim("tx", 2),
                dim("v", 4),
                dim("t", 8),
            ]),
            memory: Memory {
                dims: Cow::Owned(vec![0, 1]),
                strides: Cow::Owned(vec![8, 1]),
            },
            stages: Cow::Owned(vec![
                Transform::Unmerge(Unmerge {
                    lower: 1,
                    upper: Cow::Owned(vec![2, 3]),
                }),
                Transform::Merge(Merge {
                    lower: Cow::Owned(vec![0, 2]),
                    upper: 4,
                }),
            ]),
            coords: Cow::Owned(vec![4, 3]),
            grid: Cow::Borrowed(&[]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::fixtures::rows_of_four;
    use super::*;

    #[test]
    fn each_thread_holds_a_run_of_four() {
        let descriptor = rows_of_four();
        let tv = ThreadValues::new(&descriptor, 1);
        assert_eq!((tv.thread_count(), tv.value_count()), (8, 4));
        assert_eq!(tv.tile(), [4, 8]);
        // Thread 3 is row 1, second half: x = 4..8.
        let held: Vec<Vec<usize>> = (0..4)
            .map(|value| tv.element(Slot { thread: 3, value }).unwrap())
            .collect();
        assert_eq!(held, [[1, 4], [1, 5], [1, 6], [1, 7]]);
        assert_eq!(tv.coverage(false), Ok(()));
    }

    #[test]
    fn symbolic_elements_agree_with_the_interpreter() {
        let descriptor = rows_of_four();
        let tv = ThreadValues::new(&descriptor, 1);
        for value in 0..4 {
            let lowered = tv.element_of_thread(value).unwrap();
            for thread in 0..8 {
                let element: Vec<usize> = lowered
                    .memory
                    .iter()
                    .map(|sym| sym.eval(&[thread]) as usize)
                    .collect();
                assert_eq!(Some(element), tv.element(Slot { thread, value }));
            }
        }
    }

    #[test]
    fn a_missing_element_is_named() {
        // Threads that hold only x = 0..4 of each row: `slice`-free, by halving the threads.
        let mut descriptor = rows_of_four();
        descriptor.dims.to_mut()[4].len = 4; // t: 4 threads, rows 0..2 only
        let tv = ThreadValues::new(&descriptor, 1);
        assert_eq!(
            tv.coverage(false),
            Err(Coverage::Missing {
                element: vec![2, 0]
            })
        );
    }

    #[test]
    fn digits_are_row_major() {
        assert_eq!(digits(13, &[4, 8]), [1, 5]);
        assert_eq!(digits(0, &[]), Vec::<usize>::new());
    }
}
