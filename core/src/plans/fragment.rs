//! A thread's register fragment of a product's tile (`C = A · B`). A thread-value layout over
//! C's tile `[m, n]` says which elements each thread accumulates. For every step along `k`
//! a thread then reads one element of A's tile per distinct row its values lie on and one
//! of B's tile per distinct column, and adds each value's row element times its column
//! element. Which rows and columns those are, which of them can be read as one vector of
//! the tiles' arrays, and how the reads fall on the banks of workgroup memory are derived
//! here from the layouts, once, for the WGSL printer and for the analysis.

use crate::analysis::access::Touch;
use crate::analysis::banks::{self, BankReport, Banks};
use crate::canon::sym::Sym;
use crate::ir::Descriptor;
use crate::plans::threads::{ThreadValues, digits};

/// The rows and columns of one thread's values, over the thread coordinates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fragment {
    /// The lengths of the thread coordinates (variable `i` of a [`Sym`] is coordinate `i`).
    pub thread_lens: Vec<usize>,
    /// The distinct rows (`m`) the thread's values lie on, in order of first use.
    pub rows: Vec<Sym>,
    /// The distinct columns (`n`).
    pub columns: Vec<Sym>,
    /// For each value, in value order: the index of its row in `rows` and of its column in
    /// `columns`.
    pub values: Vec<(usize, usize)>,
}

/// Which operand a read is of: A's tile is over `[m, k]`, B's over `[k, n]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    A,
    B,
}

/// Consecutive rows (or columns) of a fragment that one access reads: `width` elements from
/// the place of the first, which lies at a multiple of `width` in the tile's array at every
/// thread and every step of `k`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Read {
    pub first: usize,
    pub width: usize,
}

/// Where a fragment read lies at one step of k: `delta` elements past the place of read
/// `read` (an index into the reads) at step `step`, which a thread computes once
/// ([`Fragment::bases`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Base {
    pub read: usize,
    pub step: usize,
    pub delta: usize,
}

/// The places a thread computes once for [`Fragment::bases`]' reads: each read and step
/// that is its own base, in order.
pub fn roots(bases: &[Vec<Base>]) -> impl Iterator<Item = Base> + '_ {
    bases.iter().enumerate().flat_map(|(read, steps)| {
        steps
            .iter()
            .enumerate()
            .filter(move |&(step, base)| base.read == read && base.step == step)
            .map(|(_, &base)| base)
    })
}

impl Fragment {
    /// The fragment of `threads` (a layout over C's tile `[m, n]`): `None` where its
    /// elements do not fold into expressions of the thread, or a slot lies in padding.
    pub fn of(threads: &ThreadValues<'_>) -> Option<Fragment> {
        let shape = threads.descriptor.shape();
        let thread_lens = shape[..threads.thread_coords].to_vec();
        let (mut rows, mut columns, mut values) = (Vec::new(), Vec::new(), Vec::new());
        for value in 0..threads.value_count() {
            let lowered = threads.element_of_thread(value)?;
            if !lowered.valid.is_empty() {
                return None;
            }
            let [row, column] = <[Sym; 2]>::try_from(lowered.memory).ok()?;
            let index = |list: &mut Vec<Sym>, sym: Sym| match list.iter().position(|s| *s == sym) {
                Some(i) => i,
                None => {
                    list.push(sym);
                    list.len() - 1
                }
            };
            values.push((index(&mut rows, row), index(&mut columns, column)));
        }
        Some(Fragment {
            thread_lens,
            rows,
            columns,
            values,
        })
    }

    /// Threads in the workgroup.
    pub fn thread_count(&self) -> usize {
        self.thread_lens.iter().product()
    }

    /// The rows (A) or columns (B) the operand's reads are over.
    fn lines(&self, operand: Operand) -> &[Sym] {
        match operand {
            Operand::A => &self.rows,
            Operand::B => &self.columns,
        }
    }

    /// The tile coordinate of line `line` of `operand` at step `k`, for `thread`.
    fn coordinate(&self, operand: Operand, line: usize, thread: usize, k: usize) -> Vec<usize> {
        let at = digits(thread, &self.thread_lens);
        let place = self.lines(operand)[line].eval(&at).max(0) as usize;
        match operand {
            Operand::A => vec![place, k],
            Operand::B => vec![k, place],
        }
    }

    /// The offset in `tile` of line `line` of `operand` at step `k`, for `thread`.
    fn offset(
        &self,
        tile: &Descriptor,
        operand: Operand,
        line: usize,
        thread: usize,
        k: usize,
    ) -> Option<usize> {
        tile.offset(&self.coordinate(operand, line, thread, k)).ok()
    }

    /// The operand's reads from its tile, whose array holds entries of `words` elements:
    /// runs of `words` consecutive lines that lie together in one entry at every thread and
    /// every step of `k` are one read, every other line a read of its own.
    pub fn reads(&self, operand: Operand, tile: &Descriptor, words: usize) -> Vec<Read> {
        let depth = self.depth(operand, tile);
        let lines = self.lines(operand).len();
        let together = |first: usize| {
            first + words <= lines
                && (0..self.thread_count()).all(|thread| {
                    (0..depth).all(|k| {
                        let Some(start) = self.offset(tile, operand, first, thread, k) else {
                            return false;
                        };
                        start.is_multiple_of(words)
                            && (1..words).all(|i| {
                                self.offset(tile, operand, first + i, thread, k) == Some(start + i)
                            })
                    })
                })
        };
        let mut reads = Vec::new();
        let mut line = 0;
        while line < lines {
            let width = if words > 1 && together(line) {
                words
            } else {
                1
            };
            reads.push(Read { first: line, width });
            line += width;
        }
        reads
    }

    /// For each read and each step `k` of the tile, where it lies as a place computed
    /// before it plus a constant: a [`Base`] (an earlier read's, or this read's at a step
    /// at or before `k`) with `offset = offset(base) + delta` at every thread, so that a
    /// thread computes one offset per distinct base, once, and each read adds a constant
    /// (which the GPU folds into the access). Reads of rows or columns a constant apart
    /// (and of one width) share their bases where the tile keeps them that far apart. A
    /// padded or row-major tile has one base for all its reads; an XOR keyed by k's group
    /// of four has four.
    pub fn bases(&self, operand: Operand, tile: &Descriptor, reads: &[Read]) -> Vec<Vec<Base>> {
        let depth = self.depth(operand, tile);
        let threads = self.thread_count();
        let offsets = |read: Read, k: usize| -> Vec<Option<usize>> {
            (0..threads)
                .map(|thread| self.offset(tile, operand, read.first, thread, k))
                .collect()
        };
        // The places computed so far, and their offsets at every thread.
        let mut roots: Vec<(Base, Vec<Option<usize>>)> = Vec::new();
        let mut all = Vec::with_capacity(reads.len());
        for (i, &read) in reads.iter().enumerate() {
            let mut steps = Vec::with_capacity(depth);
            for k in 0..depth {
                let at = offsets(read, k);
                let constant_from = |from: &[Option<usize>]| -> Option<usize> {
                    let mut deltas = at.iter().zip(from).map(|(at, from)| {
                        at.zip(*from).and_then(|(at, from)| at.checked_sub(from))
                    });
                    let first = deltas.next()??;
                    deltas.all(|d| d == Some(first)).then_some(first)
                };
                // A base holds elements or whole entries as its read does: only reads of
                // one width share it.
                let found = roots.iter().find_map(|(root, from)| {
                    if reads[root.read].width != read.width {
                        return None;
                    }
                    Some(Base {
                        delta: constant_from(from)?,
                        ..*root
                    })
                });
                let base = found.unwrap_or_else(|| {
                    let root = Base {
                        read: i,
                        step: k,
                        delta: 0,
                    };
                    roots.push((root, at));
                    root
                });
                steps.push(base);
            }
            all.push(steps);
        }
        all
    }

    /// Steps of k in the operand's tile.
    fn depth(&self, operand: Operand, tile: &Descriptor) -> usize {
        match operand {
            Operand::A => tile.shape().get(1).copied(),
            Operand::B => tile.shape().first().copied(),
        }
        .unwrap_or(0)
    }

    /// The worst bank conflict of the operand's reads over every step of `k` and every
    /// subgroup of `subgroup` lanes (32-bit elements, the default banks).
    pub fn read_conflicts(
        &self,
        operand: Operand,
        tile: &Descriptor,
        reads: &[Read],
        subgroup: usize,
    ) -> BankReport {
        let mut worst: Option<BankReport> = None;
        for (_, report) in self.read_reports(operand, tile, reads, subgroup) {
            if worst.as_ref().is_none_or(|w| report.degree > w.degree) {
                worst = Some(report);
            }
        }
        worst.unwrap_or(BankReport {
            degree: 0,
            phases: 0,
            wavefronts: 0,
            worst: None,
        })
    }

    /// The wavefronts (passes of the banks, [`BankReport::wavefronts`]) that one subgroup's
    /// reads of the operand take over one tile: every read at every step of `k`, each the
    /// worst subgroup's.
    pub fn read_wavefronts(
        &self,
        operand: Operand,
        tile: &Descriptor,
        reads: &[Read],
        subgroup: usize,
    ) -> usize {
        let mut worst: Vec<usize> = Vec::new();
        for (at, report) in self.read_reports(operand, tile, reads, subgroup) {
            if worst.len() <= at {
                worst.resize(at + 1, 0);
            }
            worst[at] = worst[at].max(report.wavefronts);
        }
        worst.iter().sum()
    }

    /// The bank report of every read at every step of `k` for every subgroup of `subgroup`
    /// lanes, each with the index of its read and step (`read · depth + k`).
    fn read_reports<'a>(
        &'a self,
        operand: Operand,
        tile: &'a Descriptor,
        reads: &'a [Read],
        subgroup: usize,
    ) -> impl Iterator<Item = (usize, BankReport)> + 'a {
        let depth = self.depth(operand, tile);
        let threads = self.thread_count();
        let subgroup = subgroup.max(1);
        reads.iter().enumerate().flat_map(move |(r, read)| {
            (0..depth).flat_map(move |k| {
                (0..threads).step_by(subgroup).map(move |start| {
                    let touches: Vec<Touch> = (start..threads.min(start + subgroup))
                        .filter_map(|thread| {
                            let coord = self.coordinate(operand, read.first, thread, k);
                            let offset = tile.offset(&coord).ok()?;
                            Some(Touch {
                                lane: thread - start,
                                coord,
                                offset,
                            })
                        })
                        .collect();
                    let report =
                        banks::conflicts_of(&touches, subgroup, read.width, 4, Banks::default());
                    (r * depth + k, report)
                })
            })
        })
    }

    /// Runs of `width` consecutive columns that start at a multiple of `width` for every
    /// thread: the values a thread stores to C's row-major rows as one vector.
    pub fn column_runs(&self, width: usize) -> Vec<Read> {
        let columns = self.columns.len();
        let together = |first: usize| {
            first + width <= columns
                && (0..self.thread_count()).all(|thread| {
                    let at = digits(thread, &self.thread_lens);
                    let start = self.columns[first].eval(&at);
                    start % width as i128 == 0
                        && (1..width)
                            .all(|i| self.columns[first + i].eval(&at) == start + i as i128)
                })
        };
        let mut runs = Vec::new();
        let mut column = 0;
        while column < columns {
            let run = if width > 1 && together(column) {
                width
            } else {
                1
            };
            runs.push(Read {
                first: column,
                width: run,
            });
            column += run;
        }
        runs
    }
}
