//! The checked intermediate representation of a layout: named dims, a memory base and the
//! transforms stacked on it, exactly as docs/semantics.md describes them.
//!
//! Every list is a `Cow<'static, [_]>` so that the macro can embed a layout's IR in the
//! generated code as `const` data (borrowed) while the checker builds it at expansion time
//! (owned). Lists hold [`DimId`]s: indices into [`Descriptor::dims`].

pub mod interp;
pub mod transform;

use std::borrow::Cow;

pub use crate::ir::transform::Transform;

/// A list that is borrowed when embedded as const data and owned when built by the checker.
pub type List<T> = Cow<'static, [T]>;

/// Index of a dim in [`Descriptor::dims`].
pub type DimId = usize;

/// One dim: its name (as written by the user, so shadowed dims share names) and length.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Dim {
    pub name: Cow<'static, str>,
    pub len: usize,
}

/// The memory base: the offset space split into dims with strides (row-major when packed).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Memory {
    pub dims: List<DimId>,
    pub strides: List<usize>,
}

/// A whole checked layout: the IR that the generated code embeds as `const` data.
///
/// A layout with run-time (`dyn`) outer dims is described by one tile: its run-time dims
/// have length 1 in `dims`, and [`Descriptor::grid`] says which coordinates they scale.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Descriptor {
    pub name: Cow<'static, str>,
    pub dims: List<Dim>,
    pub memory: Memory,
    /// Oldest (closest to memory) first; evaluation runs them newest-first.
    pub stages: List<Transform>,
    /// The user's coordinates, in `coords` order.
    pub coords: List<DimId>,
    /// The run-time outer memory dims, outermost first (empty for a fixed-size layout).
    pub grid: List<GridDim>,
}

/// A run-time (`dyn`) memory dim: it counts tiles along the coordinate it becomes, either
/// directly or as the slowest digit of a `merge`. Tiles are stored row-major over the grid
/// dims, each tile a whole copy of the layout's element space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GridDim {
    /// The memory dim (length 1 in the tile).
    pub dim: DimId,
    /// The index, in `coords` order, of the coordinate it scales.
    pub coord: usize,
}

impl Memory {
    /// Number of elements the base addresses: `1 + Σ (len_i − 1)·stride_i`, `None` on overflow.
    pub fn space(&self, dims: &[Dim]) -> Option<usize> {
        self.dims
            .iter()
            .zip(self.strides.iter())
            .try_fold(1usize, |acc, (&dim, &stride)| {
                let len = dims.get(dim)?.len;
                acc.checked_add(len.checked_sub(1)?.checked_mul(stride)?)
            })
    }
}

impl Descriptor {
    /// The dense row-major array of `extents` (last fastest), with coordinates `i0, i1, …`:
    /// what `layout Name { memory [i0: E0, i1: E1, …]; coords [i0, i1, …]; }` checks to.
    /// `None` when its element space overflows `usize`.
    pub fn row_major(name: &str, extents: &[usize]) -> Option<Descriptor> {
        let strides = row_major_strides(extents)?;
        let dims: Vec<Dim> = extents
            .iter()
            .enumerate()
            .map(|(i, &len)| Dim {
                name: Cow::Owned(format!("i{i}")),
                len,
            })
            .collect();
        let descriptor = Descriptor {
            name: Cow::Owned(name.to_owned()),
            dims: Cow::Owned(dims),
            memory: Memory {
                dims: (0..extents.len()).collect(),
                strides: Cow::Owned(strides),
            },
            stages: Cow::Borrowed(&[]),
            coords: (0..extents.len()).collect(),
            grid: Cow::Borrowed(&[]),
        };
        descriptor.space().map(|_| descriptor)
    }

    /// Lengths of the coordinates, in `coords` order.
    pub fn shape(&self) -> Vec<usize> {
        self.coords.iter().map(|&c| self.dims[c].len).collect()
    }

    /// Number of coordinates (product of the shape), `None` on overflow.
    pub fn size(&self) -> Option<usize> {
        self.coords
            .iter()
            .try_fold(1usize, |acc, &c| acc.checked_mul(self.dims[c].len))
    }

    /// Size of the element space the offsets index into.
    pub fn space(&self) -> Option<usize> {
        self.memory.space(&self.dims)
    }

    /// A coordinate with its names, as errors and reports show it: `(m=0, k=8)`.
    pub fn describe(&self, coord: &[usize]) -> String {
        let parts: Vec<String> = self
            .coords
            .iter()
            .zip(coord)
            .map(|(&dim, value)| format!("{}={value}", self.dims[dim].name))
            .collect();
        format!("({})", parts.join(", "))
    }

    /// Whether coordinate `j` (in `coords` order) is scaled by a run-time dim: its extent
    /// counts tiles.
    pub fn is_dynamic(&self, j: usize) -> bool {
        self.grid.iter().any(|g| g.coord == j)
    }

    /// Whether some outer dims have run-time lengths: the descriptor then describes one tile.
    pub fn is_tiled(&self) -> bool {
        !self.grid.is_empty()
    }

    /// Whether any transform can make a coordinate invalid (padding).
    pub fn is_padded(&self) -> bool {
        self.stages.iter().any(Transform::pads)
    }

    /// This fixed-size layout as the grid of tiles it is, where it is one: its outermost
    /// memory dims (packed row-major) each become a coordinate directly or as the slowest
    /// digit of a `merge`, and no other transform reads them or those coordinates — the
    /// shape of a layout whose outer dims are `dyn` (docs/semantics.md, "Run-time
    /// extents"). The result describes one tile (those dims of length 1, named in `grid`);
    /// at this layout's shape it has this layout's offsets, which is checked here on the
    /// interpreter at the first tile's every coordinate and at the corners and middles of
    /// the grid. `None` where the layout is tiled already, or is no such grid, or no outer
    /// dim is a `merge`'s slowest digit (a plain array would be a grid of 1 × … × 1 tiles).
    pub fn as_tiles(&self) -> Option<Descriptor> {
        if self.is_tiled() || !self.memory_is_dense() {
            return None;
        }
        let mut dims = self.dims.to_vec();
        let mut grid = Vec::new();
        for &outer in self.memory.dims.iter() {
            // The transform that builds the dim from memory upwards, if one does, and
            // whether it is the only one.
            let scaled = match self.readers(outer).collect::<Vec<_>>()[..] {
                [] => outer,
                [Transform::Merge(merge)]
                    if merge.lower.first() == Some(&outer)
                        && self.readers(merge.upper).next().is_none() =>
                {
                    merge.upper
                }
                _ => break,
            };
            let Some(coord) = self.coords.iter().position(|&c| c == scaled) else {
                break;
            };
            let count = self.dims[outer].len;
            if count < 2 {
                break;
            }
            dims[outer].len = 1;
            if scaled != outer {
                dims[scaled].len /= count;
            }
            grid.push(GridDim { dim: outer, coord });
        }
        if grid.iter().all(|g| self.coords[g.coord] == g.dim) {
            return None;
        }
        let tiles = self.resized(dims, Cow::Owned(grid))?;
        let shape = self.shape();
        let tile = tiles.shape();
        let first = coordinates(&tile).take(1 << 12);
        let marks = |(len, tile): (usize, usize)| [0, 1, tile - 1, tile, len / 2, len - 1];
        let corners = shape.iter().zip(&tile).map(|(&l, &t)| marks((l, t)));
        let corners: Vec<Vec<usize>> = corners
            .fold(vec![vec![]], |acc, marks| {
                acc.iter()
                    .flat_map(|prefix| {
                        marks.iter().map(move |&m| {
                            let mut next = prefix.clone();
                            next.push(m);
                            next
                        })
                    })
                    .collect()
            })
            .into_iter()
            .filter(|c| c.iter().zip(&shape).all(|(&v, &len)| v < len))
            .collect();
        let same = first
            .chain(corners)
            .all(|c| self.offset(&c).ok() == tiles.offset_in(&shape, &c).ok());
        same.then_some(tiles)
    }
}

impl Descriptor {
    /// This tiled layout's tile as sub-tiles stacked along its first coordinate, where it is
    /// that: the outermost memory dim inside the tile (`gy: 16` of a block-linear block of
    /// 16 GOBs) is read by the first coordinate's `merge` alone, as the digit directly below
    /// that coordinate's grid dim, so the tile is `n` sub-tiles along the first coordinate
    /// stored one after another. The result is the sub-tile's layout (that dim of length 1:
    /// one GOB) and `n`; a grid of these tiles is the grid of sub-tiles stacked `n` high
    /// (the runtime's `Frame::Stacked`). Checked here on the interpreter at every
    /// coordinate of the tile: its offset is the sub-tile's, plus its sub-tile's place times
    /// the sub-tile's space. `None` for a fixed-size layout, one of fewer than two
    /// coordinates (stacks need a coordinate beside theirs), or a tile of another shape.
    pub fn as_stacked(&self) -> Option<(Descriptor, usize)> {
        if self.coords.len() < 2 {
            return None;
        }
        let first = self.grid.iter().find(|g| g.coord == 0)?;
        if !self.memory_is_dense() {
            return None;
        }
        // The grid dims are the outermost memory dims; the next one is the candidate.
        let in_grid = |dim: DimId| self.grid.iter().any(|g| g.dim == dim);
        let outer = *self.memory.dims.iter().find(|&&d| !in_grid(d))?;
        let count = self.dims[outer].len;
        let merge = match self.readers(outer).collect::<Vec<_>>()[..] {
            [Transform::Merge(merge)] => merge,
            _ => return None,
        };
        let first_coord = self.coords[0];
        if count < 2
            || merge.lower.get(..2) != Some(&[first.dim, outer][..])
            || merge.upper != first_coord
            || self.readers(first_coord).next().is_some()
        {
            return None;
        }
        let mut dims = self.dims.to_vec();
        dims[outer].len = 1;
        dims[first_coord].len /= count;
        let sub = self.resized(dims, self.grid.clone())?;
        let (rows, sub_space) = (sub.dims[first_coord].len, sub.space()?);
        if self.space()? != sub_space.checked_mul(count)? {
            return None;
        }
        let same = coordinates(&self.shape()).all(|coord| {
            let mut within = coord.clone();
            within[0] %= rows;
            let stacked = sub
                .offset(&within)
                .ok()
                .map(|o| coord[0] / rows * sub_space + o);
            self.offset(&coord).ok() == stacked
        });
        same.then_some((sub, count))
    }
}

impl Descriptor {
    /// Whether memory is dense and row-major over its dims (no padding, no strides of the
    /// user's), as the tiles of a grid are stored.
    fn memory_is_dense(&self) -> bool {
        let lens: Vec<usize> = self.memory.dims.iter().map(|&d| self.dims[d].len).collect();
        row_major_strides(&lens).is_some_and(|strides| strides[..] == self.memory.strides[..])
    }

    /// The transforms that read `dim` (it is one of their lower dims).
    fn readers(&self, dim: DimId) -> impl Iterator<Item = &Transform> {
        self.stages.iter().filter(move |s| s.lower().contains(&dim))
    }

    /// This layout with its dims at the lengths of `dims` and run-time dims `grid`, its
    /// memory dense and row-major over the new lengths; `None` past `usize::MAX`.
    fn resized(&self, dims: Vec<Dim>, grid: List<GridDim>) -> Option<Descriptor> {
        let lens: Vec<usize> = self.memory.dims.iter().map(|&d| dims[d].len).collect();
        Some(Descriptor {
            name: self.name.clone(),
            dims: Cow::Owned(dims),
            memory: Memory {
                dims: self.memory.dims.clone(),
                strides: Cow::Owned(row_major_strides(&lens)?),
            },
            stages: self.stages.clone(),
            coords: self.coords.clone(),
            grid,
        })
    }
}

/// Every coordinate of `shape` in row-major order (last fastest); none if a length is 0.
pub fn coordinates(shape: &[usize]) -> impl Iterator<Item = Vec<usize>> + '_ {
    let first = (!shape.contains(&0)).then(|| vec![0; shape.len()]);
    std::iter::successors(first, |previous| {
        let mut next = previous.clone();
        for d in (0..shape.len()).rev() {
            next[d] += 1;
            if next[d] < shape[d] {
                return Some(next);
            }
            next[d] = 0;
        }
        None
    })
}

/// Row-major strides of `lens` (last dim fastest), `None` on overflow.
pub fn row_major_strides(lens: &[usize]) -> Option<Vec<usize>> {
    let mut strides = vec![1usize; lens.len()];
    for i in (0..lens.len().saturating_sub(1)).rev() {
        strides[i] = strides[i + 1].checked_mul(lens[i + 1])?;
    }
    Some(strides)
}

/// A borrowed list, for const data emitted by the macro (not part of the API).
#[doc(hidden)]
pub const fn list<T: Clone>(items: &'static [T]) -> List<T> {
    Cow::Borrowed(items)
}

/// A borrowed name, for const data emitted by the macro (not part of the API).
#[doc(hidden)]
pub const fn text(name: &'static str) -> Cow<'static, str> {
    Cow::Borrowed(name)
}

/// A borrowed list's items, restated as a new borrowed list (see [`Transform::restate`]).
/// A list that owns its items has no place in const data, and stops the evaluation.
#[doc(hidden)]
pub const fn restated<T: Clone>(items: &List<T>) -> List<T> {
    match items {
        Cow::Borrowed(items) => Cow::Borrowed(items),
        Cow::Owned(_) => panic!("const data borrows its lists"),
    }
}

/// Declares a const fn that lays `base` then `own` out in one array, each item copied by
/// its const `restate`: the dims and stages of a layout `over` a base, which start with the
/// base's, read from the base's const data instead of being repeated.
macro_rules! then {
    ($name:ident, $item:ty, $filler:expr) => {
        #[doc(hidden)]
        pub const fn $name<const N: usize>(base: &[$item], own: &[$item]) -> [$item; N] {
            assert!(base.len() + own.len() == N, "the lists fill the array");
            let mut out = [const { $filler }; N];
            let mut i = 0;
            while i < N {
                let item = match i < base.len() {
                    true => &base[i],
                    false => &own[i - base.len()],
                };
                // The filler owns nothing: forgetting it leaks nothing.
                core::mem::forget(core::mem::replace(&mut out[i], item.restate()));
                i += 1;
            }
            out
        }
    };
}

then!(dims_then, Dim, Dim::new("", 0));
then!(
    stages_then,
    Transform,
    Transform::Replicate(crate::ir::transform::Replicate {
        upper: Cow::Borrowed(&[])
    })
);

impl Dim {
    /// A copy in const data (see [`Transform::restate`]).
    pub const fn restate(&self) -> Dim {
        Dim {
            name: match &self.name {
                Cow::Borrowed(name) => Cow::Borrowed(name),
                Cow::Owned(_) => panic!("const data borrows its names"),
            },
            len: self.len,
        }
    }

    pub const fn new(name: &'static str, len: usize) -> Dim {
        Dim {
            name: Cow::Borrowed(name),
            len,
        }
    }
}
