//! The grid of a layout with run-time (`dyn`) outer dims, in one place: how many tiles an
//! extent takes, how large the grid's element space is, where a coordinate lies, and the
//! functions over the whole array that wrap the tile's own, which the macro prints as Rust
//! and the GPU backend as WGSL with the tile counts as constants.

use crate::emit::code::{Code, Op};
use crate::emit::function::{Condition, Function, Kind, Stmt, Value};
use crate::ir::Descriptor;

/// The number of tiles along each coordinate at `extents` (`ceil(extent / tile)`; 1 along a
/// coordinate without a run-time dim, whose extent must be the tile's).
pub fn tile_counts(descriptor: &Descriptor, extents: &[usize]) -> Option<Vec<usize>> {
    let tile = descriptor.shape();
    if extents.len() != tile.len() {
        return None;
    }
    (0..tile.len())
        .map(|j| match descriptor.is_dynamic(j) {
            true => Some(extents[j].div_ceil(tile[j])),
            false => (extents[j] == tile[j]).then_some(1),
        })
        .collect()
}

/// The element space of a grid of tiles: the product of the tile counts along each
/// coordinate, times the elements of one tile; `None` past `usize::MAX`.
pub const fn space(tiles: &[usize], tile_space: usize) -> Option<usize> {
    let mut space = tile_space;
    let mut axis = 0;
    while axis < tiles.len() {
        space = match space.checked_mul(tiles[axis]) {
            Some(space) => space,
            None => return None,
        };
        axis += 1;
    }
    Some(space)
}

/// Where `coord` lies in the grid of `tiles` tile counts: the tile's place, row-major over
/// the grid dims, and the coordinate inside the tile; `None` on overflow. The interpreter's
/// arithmetic of what [`Grid::offset`] computes in code (tests hold the two equal).
pub fn locate(
    descriptor: &Descriptor,
    tiles: &[usize],
    coord: &[usize],
) -> Option<(usize, Vec<usize>)> {
    let tile = descriptor.shape();
    let mut place = 0usize;
    for g in descriptor.grid.iter() {
        let along = coord.get(g.coord)? / tile[g.coord];
        place = place
            .checked_mul(*tiles.get(g.coord)?)?
            .checked_add(along)?;
    }
    let inside = coord
        .iter()
        .enumerate()
        .map(|(j, &c)| {
            if descriptor.is_dynamic(j) {
                c % tile[j]
            } else {
                c
            }
        })
        .collect();
    Some((place, inside))
}

/// The grid of a layout with run-time (`dyn`) outer dims: tiles of the layout's element
/// space, row-major over its grid dims, `ceil(extent / tile)` along each. Its wrappers call
/// the tile's own functions. The tile counts and extents are code: variables where the
/// target holds them at run time (the Rust type's fields), literals where the extents are
/// known when the code is printed (a GPU kernel's module).
pub struct Grid<'a> {
    descriptor: &'a Descriptor,
    coords: &'a [String],
    /// The number of tiles along each coordinate.
    pub tiles: Vec<Code>,
    /// The extent of each coordinate.
    pub extents: Vec<Code>,
}

impl<'a> Grid<'a> {
    pub fn new(
        descriptor: &'a Descriptor,
        coords: &'a [String],
        tiles: Vec<Code>,
        extents: Vec<Code>,
    ) -> Grid<'a> {
        Grid {
            descriptor,
            coords,
            tiles,
            extents,
        }
    }

    /// A local named after `base` that no coordinate's name takes.
    fn local(&self, base: &str) -> String {
        let mut used = self.coords.iter().cloned().collect();
        crate::emit::code::fresh(base, &mut used)
    }

    fn tile(&self) -> Vec<usize> {
        self.descriptor.shape()
    }

    /// Each coordinate's place inside its tile.
    fn inside(&self) -> Vec<Code> {
        let tile = self.tile();
        (0..self.coords.len())
            .map(|j| match self.descriptor.is_dynamic(j) {
                true => Code::var(&self.coords[j]).remainder(tile[j] as u128),
                false => Code::var(&self.coords[j]),
            })
            .collect()
    }

    /// The offset: the tile's place in the row-major grid, then the place inside it.
    pub fn offset(&self) -> Function {
        let tile = self.tile();
        let space = self.descriptor.space().unwrap_or(0) as u128;
        let mut place: Option<Code> = None;
        for g in self.descriptor.grid.iter() {
            let along = Code::var(&self.coords[g.coord]).quotient(tile[g.coord] as u128);
            place = Some(match place {
                None => along,
                Some(outer) => Code::bin(
                    Op::Add,
                    Code::bin(Op::Mul, outer, self.tiles[g.coord].clone()),
                    along,
                ),
            });
        }
        let place = place.unwrap_or(Code::Lit(0));
        let (tile, within) = (self.local("tile"), self.local("within"));
        let body = vec![
            Stmt::Let(tile.clone(), place),
            Stmt::Call {
                names: vec![within.clone()],
                kind: Kind::Offset,
                args: self.inside(),
            },
        ];
        let start = Code::bin(Op::Mul, Code::var(&tile), Code::Lit(space));
        Function {
            kind: Kind::Offset,
            params: self.coords.to_vec(),
            body,
            result: Value::Index(Code::bin(Op::Add, start, Code::var(&within))),
        }
    }

    /// Inside the extents, and (when the tile is padded) outside the tile's padding.
    pub fn is_valid(&self, padded: bool) -> Function {
        let mut holds: Vec<Condition> = (0..self.coords.len())
            .map(|j| Condition::Below(Code::var(&self.coords[j]), self.extents[j].clone()))
            .collect();
        let mut body = Vec::new();
        if padded {
            let valid = self.local("valid");
            body.push(Stmt::Require(std::mem::take(&mut holds)));
            body.push(Stmt::Call {
                names: vec![valid.clone()],
                kind: Kind::IsValid,
                args: self.inside(),
            });
            holds.push(Condition::True(valid));
        }
        Function {
            kind: Kind::IsValid,
            params: self.coords.to_vec(),
            body,
            result: Value::Holds(holds),
        }
    }

    /// The inverse: the tile's inverse of the offset inside the tile, and the tile's place
    /// in the grid by division by the tile counts, innermost grid dim first.
    pub fn coord(&self) -> Function {
        let tile = self.tile();
        let space = self.descriptor.space().unwrap_or(0) as u128;
        let offset = Code::var("offset");
        let within: Vec<String> = self
            .coords
            .iter()
            .map(|c| self.local(&format!("{c}_within")))
            .collect();
        let tile_name = self.local("tile");
        let mut body = vec![
            Stmt::Call {
                names: within.clone(),
                kind: Kind::Coord,
                args: vec![offset.clone().remainder(space)],
            },
            Stmt::Let(tile_name.clone(), offset.quotient(space)),
        ];
        // Innermost grid dim first: a remainder by its tile count, the quotient for the
        // dims outside it.
        let mut rest = Code::var(&tile_name);
        let mut places = vec![Code::Lit(0); self.coords.len()];
        for (i, g) in self.descriptor.grid.iter().enumerate().rev() {
            let name = self.local(&format!("{}_tile", self.coords[g.coord]));
            let count = self.tiles[g.coord].clone();
            let place = match i {
                0 => rest.clone(),
                _ => Code::bin(Op::Rem, rest.clone(), count.clone()),
            };
            rest = Code::bin(Op::Div, rest, count);
            body.push(Stmt::Let(name.clone(), place));
            places[g.coord] = Code::var(&name);
        }
        let results = (0..self.coords.len())
            .map(|j| match (self.descriptor.is_dynamic(j), tile[j]) {
                (false, _) => Code::var(&within[j]),
                (true, 1) => places[j].clone(),
                (true, t) => Code::bin(
                    Op::Add,
                    Code::bin(Op::Mul, places[j].clone(), Code::Lit(t as u128)),
                    Code::var(&within[j]),
                ),
            })
            .collect();
        Function {
            kind: Kind::Coord,
            params: vec!["offset".to_owned()],
            body,
            result: Value::Coordinate(results),
        }
    }
}
