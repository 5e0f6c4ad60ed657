//! Workgroup orders: which tile of a grid of tiles the `g`-th workgroup works on. GPUs start
//! workgroups roughly in index order, so the order decides which tiles are in flight
//! together, and with it how much of what they read is still in L2 (CUTLASS's threadblock
//! swizzles, Triton's `GROUP_SIZE_M`, CubeCL's cube counts). Every order here is a bijection
//! from `0..grid_y * grid_x` onto the grid for every grid size, partial groups included, and
//! is one straight-line [`RasterProgram`] of the grid's run-time extents, which the Rust and
//! WGSL printers print.
//!
//! - `row_major`: tiles along each row of the grid, row after row.
//! - `snake`: the same, every other row right to left, so that consecutive workgroups are
//!   always neighbours.
//! - `grouped(n)`: bands of `n` rows of tiles, band after band; inside a band, column by
//!   column (Triton's grouped ordering): `n` consecutive workgroups share one column of
//!   tiles, and a band sweeps its rows once. The last band has the rows that are left.
//! - `morton(n)` (`n` a power of two): the same bands, each cut into `n × n` squares walked
//!   in Morton (Z) order, square after square; a square cut short by the grid's last
//!   columns, and the last band, are walked column by column as `grouped` does.

use crate::emit::code::{Code, Op};
use crate::emit::function::Condition;
use std::collections::HashMap;
use std::fmt;

/// The largest group (rows per band, or square side) an order accepts.
pub const MAX_GROUP: usize = 256;

/// A workgroup order over a two-dimensional grid of tiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Raster {
    RowMajor,
    Snake,
    Grouped(usize),
    Morton(usize),
}

impl fmt::Display for Raster {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Raster::RowMajor => f.write_str("row_major"),
            Raster::Snake => f.write_str("snake"),
            Raster::Grouped(n) => write!(f, "grouped({n})"),
            Raster::Morton(n) => write!(f, "morton({n})"),
        }
    }
}

/// One branch of a [`RasterProgram`]: where every test holds, bind the locals and return
/// the tile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    pub when: Vec<Condition>,
    pub lets: Vec<(String, Code)>,
    /// `[y, x]`: the tile's row and column in the grid.
    pub tile: [Code; 2],
}

/// A workgroup order as straight-line code of the workgroup's index and the grid's extents:
/// the prologue, then the cases in order, the last one unconditional.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RasterProgram {
    /// The workgroup's index.
    pub group: String,
    /// The grid's rows and columns of tiles.
    pub grid: [String; 2],
    pub prologue: Vec<(String, Code)>,
    pub cases: Vec<Case>,
}

impl Raster {
    /// Why the order cannot be built, if it cannot: a group of 0 or past [`MAX_GROUP`], or
    /// a Morton square whose side is not a power of two.
    pub fn check(&self) -> Result<(), String> {
        match *self {
            Raster::Grouped(n) | Raster::Morton(n) if n == 0 || n > MAX_GROUP => Err(format!(
                "a group of {n} rows of tiles: give 1 to {MAX_GROUP}"
            )),
            Raster::Morton(n) if !n.is_power_of_two() => Err(format!(
                "Morton squares have a power-of-two side, not {n}: try {}",
                n.next_power_of_two() / 2
            )),
            _ => Ok(()),
        }
    }

    /// The order's code; [`Raster::check`] must pass.
    pub fn program(&self) -> RasterProgram {
        let (group, grid_y, grid_x) = (var("group"), var("grid_y"), var("grid_x"));
        let mut prologue = Vec::new();
        let cases = match *self {
            Raster::RowMajor => vec![Case {
                when: Vec::new(),
                lets: Vec::new(),
                tile: [
                    Code::bin(Op::Div, group.clone(), grid_x.clone()),
                    Code::bin(Op::Rem, group, grid_x),
                ],
            }],
            Raster::Snake => {
                // x = c on even rows, grid_x - 1 - c on odd ones, without a branch.
                let lets = vec![
                    (
                        "y".to_owned(),
                        Code::bin(Op::Div, group.clone(), grid_x.clone()),
                    ),
                    ("c".to_owned(), Code::bin(Op::Rem, group, grid_x.clone())),
                    ("odd".to_owned(), Code::bin(Op::And, var("y"), Code::Lit(1))),
                ];
                let back = Code::bin(Op::Sub, Code::bin(Op::Sub, grid_x, Code::Lit(1)), var("c"));
                let x = Code::bin(
                    Op::Add,
                    Code::bin(
                        Op::Mul,
                        Code::bin(Op::Sub, Code::Lit(1), var("odd")),
                        var("c"),
                    ),
                    Code::bin(Op::Mul, var("odd"), back),
                );
                vec![Case {
                    when: Vec::new(),
                    lets,
                    tile: [var("y"), x],
                }]
            }
            Raster::Grouped(n) | Raster::Morton(n) => {
                let n = n as u128;
                // The workgroup's row in row-major order, the first row of its band of `n`
                // rows, and its index inside the band. No value passes `group` or the grid's
                // extents: `first · grid_x ≤ row · grid_x ≤ group`, where the band's size
                // `n · grid_x` may not fit an index.
                prologue.push((
                    "row".to_owned(),
                    Code::bin(Op::Div, group.clone(), grid_x.clone()),
                ));
                prologue.push(("first".to_owned(), var("row").quotient(n).times(n)));
                prologue.push((
                    "within".to_owned(),
                    Code::bin(
                        Op::Sub,
                        group,
                        Code::bin(Op::Mul, var("first"), grid_x.clone()),
                    ),
                ));
                // `first < grid_y`: the rows left never underflow, and `first + n` is
                // never computed.
                let full_band = Condition::AtLeast(
                    Code::bin(Op::Sub, grid_y.clone(), var("first")),
                    Code::Lit(n),
                );
                let mut cases = Vec::new();
                if let Raster::Morton(_) = self {
                    // The square of the band the workgroup is in.
                    prologue.push(("square".to_owned(), var("within").quotient(n * n)));
                    cases.extend(morton_cases(n, &full_band, &grid_x));
                } else {
                    cases.push(Case {
                        when: vec![full_band],
                        lets: Vec::new(),
                        tile: columns(var("first"), Code::Lit(0), var("within"), Code::Lit(n)),
                    });
                }
                // The last band: the rows that are left, column by column.
                cases.push(Case {
                    when: Vec::new(),
                    lets: vec![(
                        "rows".to_owned(),
                        Code::bin(Op::Sub, grid_y.clone(), var("first")),
                    )],
                    tile: columns(var("first"), Code::Lit(0), var("within"), var("rows")),
                });
                cases
            }
        };
        RasterProgram {
            group: "group".to_owned(),
            grid: ["grid_y".to_owned(), "grid_x".to_owned()],
            prologue,
            cases,
        }
    }

    /// The tile of workgroup `group` in a grid of `grid` (`[rows, columns]`) tiles; `None`
    /// for a group past the grid.
    pub fn tile(&self, group: u64, grid: [u64; 2]) -> Option<[u64; 2]> {
        let tiles = grid[0].checked_mul(grid[1])?;
        if group >= tiles || self.check().is_err() {
            return None;
        }
        self.program().run(group, grid)
    }
}

/// The cases of a full band walked in `n × n` Morton squares (`square` bound by the
/// prologue): a whole square, then a square cut short by the grid's last columns (column by
/// column).
fn morton_cases(n: u128, full_band: &Condition, grid_x: &Code) -> Vec<Case> {
    let square_size = n * n;
    let bits = n.trailing_zeros();
    let i = var("i");
    // Bit k of x is bit 2k of i, bit k of y bit 2k + 1.
    let deinterleave = |from: u32| {
        let terms = (0..bits).map(|k| {
            let bit = i.clone().shifted(Op::Shr, 2 * k + from);
            Code::bin(Op::And, bit, Code::Lit(1)).shifted(Op::Shl, k)
        });
        Code::fold(Op::Or, terms).unwrap_or(Code::Lit(0))
    };
    let square = Code::var("square");
    let left = square.clone().times(n);
    // `left < grid_x`, so the columns left never underflow (`left + n` could overflow).
    let whole_square = Condition::AtLeast(
        Code::bin(Op::Sub, grid_x.clone(), left.clone()),
        Code::Lit(n),
    );
    let whole = Case {
        when: vec![full_band.clone(), whole_square],
        lets: vec![("i".to_owned(), var("within").remainder(square_size))],
        tile: [
            Code::bin(Op::Add, var("first"), deinterleave(1)),
            Code::bin(Op::Add, left.clone(), deinterleave(0)),
        ],
    };
    let cut = Case {
        when: vec![full_band.clone()],
        lets: vec![(
            "j".to_owned(),
            Code::bin(Op::Sub, var("within"), square.times(square_size)),
        )],
        tile: columns(var("first"), left, var("j"), Code::Lit(n)),
    };
    vec![whole, cut]
}

/// `[top + index % rows, left + index / rows]`: column by column down `rows` rows.
fn columns(top: Code, left: Code, index: Code, rows: Code) -> [Code; 2] {
    let (down, across) = match rows {
        Code::Lit(n) => (index.clone().remainder(n), index.quotient(n)),
        rows => (
            Code::bin(Op::Rem, index.clone(), rows.clone()),
            Code::bin(Op::Div, index, rows),
        ),
    };
    [plus(top, down), plus(left, across)]
}

fn plus(a: Code, b: Code) -> Code {
    match (&a, &b) {
        (Code::Lit(0), _) => b,
        (_, Code::Lit(0)) => a,
        _ => Code::bin(Op::Add, a, b),
    }
}

fn var(name: &str) -> Code {
    Code::var(name)
}

impl RasterProgram {
    /// Runs the program as the printed code does; `None` where a value does not compute.
    pub fn run(&self, group: u64, grid: [u64; 2]) -> Option<[u64; 2]> {
        let mut env: HashMap<String, u64> = HashMap::new();
        env.insert(self.group.clone(), group);
        env.insert(self.grid[0].clone(), grid[0]);
        env.insert(self.grid[1].clone(), grid[1]);
        for (name, code) in &self.prologue {
            let value = code.eval(&env)?;
            env.insert(name.clone(), value);
        }
        for case in &self.cases {
            if !Condition::all_hold(&case.when, &env)? {
                continue;
            }
            for (name, code) in &case.lets {
                let value = code.eval(&env)?;
                env.insert(name.clone(), value);
            }
            return Some([case.tile[0].eval(&env)?, case.tile[1].eval(&env)?]);
        }
        None
    }
}

#[cfg(test)]
mod tests;
