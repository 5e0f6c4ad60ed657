//! The canonical form of a checked layout: its offset as one folded symbolic expression of
//! the coordinates, the F2 bit-matrix when the whole map is F2-affine, the validity
//! conditions of its padding, and the inverse when it is a bijection.

pub mod f2;
pub mod f2_pipeline;
pub mod sym;

use crate::budget;
use crate::canon::f2::{F2Map, Inputs};
use crate::canon::sym::{Sym, Vars};
use crate::emit::code::{self, Block, Code, Op};
use crate::ir::transform::embed::{dominating_strides, unstride};
use crate::ir::transform::{Domain, Lowering};
use crate::ir::{Descriptor, DimId, coordinates};
use std::collections::{HashMap, HashSet};

/// The enumeration limit for a layout that asks for its inverse (`inverse;`) or not: the one
/// place that choice is made, for the Rust and the WGSL code alike.
pub fn enumeration_limit(inverse_requested: bool) -> usize {
    match inverse_requested {
        true => budget::REQUESTED_ENUMERATION,
        false => budget::DEFAULT_ENUMERATION,
    }
}

/// A base whose F2 map a layout `over` it composes ([`Canonical::over`]).
#[derive(Clone, Copy, Debug)]
pub struct F2Base<'a> {
    /// How many of the layout's first stages are the base's.
    pub stages: usize,
    pub descriptor: &'a Descriptor,
    /// The base's F2 map, over its coordinates' bits.
    pub f2: &'a F2Map,
}

pub struct Canonical {
    /// The offset, over the coordinates (variable `i` is `coords[i]`).
    pub offset: Sym,
    /// The F2 form of the offset, when it has one.
    pub f2: Option<F2Map>,
    /// `lo ≤ expr < hi` for each padding a coordinate must avoid.
    pub valid: Vec<(Sym, i128, i128)>,
    /// A dim name for each intermediate expression, to name shared locals after.
    pub names: HashMap<Sym, String>,
    /// The coordinates' lengths.
    pub lens: Vec<usize>,
    pub coord_names: Vec<String>,
    /// Intermediate values named as locals, in order, when the pipeline does not fold into
    /// a small expression (past [`budget::SYMBOLIC_NODES`]): each over the coordinates and
    /// the locals before it, as variables `lens.len()` onwards.
    pub locals: Vec<Local>,
}

/// One validity test, `lo ≤ code < hi` (either bound may be implied), after the locals it
/// needs.
#[derive(Clone, Debug)]
pub struct ValidStep {
    pub locals: Vec<(String, Code)>,
    pub code: Code,
    pub lo: Option<i128>,
    pub hi: Option<i128>,
}

/// An intermediate value of a staged layout: the dim it computes and its expression.
#[derive(Clone, Debug)]
pub struct Local {
    pub name: String,
    pub value: Sym,
    /// The dim's length, which bounds the value on valid coordinates.
    pub len: usize,
}

/// Two coordinates with the same offset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Collision {
    pub a: Vec<usize>,
    pub b: Vec<usize>,
    pub offset: usize,
}

/// The verdict on injectivity.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Injectivity {
    Injective,
    Collides(Collision),
    /// Too large to enumerate and no structural argument applies.
    Unknown,
}

impl Canonical {
    /// The canonical form of `descriptor`: its pipeline folded into one expression per
    /// coordinate, or — when that passes [`budget::SYMBOLIC_NODES`] — lowered in stages,
    /// every intermediate value past [`budget::STAGE_NODES`] a named local, so that no
    /// pipeline makes the expansion grow faster than its length.
    pub fn new(descriptor: &Descriptor) -> Canonical {
        Canonical::over(descriptor, None)
    }

    /// [`Canonical::new`] of `descriptor`; where it starts `over` a base with an F2 map
    /// (`base`), the F2 form, where needed, is the base's composed with its own stages'
    /// ([`f2_pipeline::compose`]) instead of its whole pipeline lowered again: the same form
    /// at a cost that does not grow with the base's stages.
    pub fn over(descriptor: &Descriptor, base: Option<F2Base<'_>>) -> Canonical {
        let folded = Canonical::fold(descriptor, budget::SYMBOLIC_NODES, true);
        if folded.locals.is_empty() {
            return folded;
        }
        let f2 = power_of_two_inputs(&folded.lens, &folded.coord_names).and_then(|inputs| {
            let composed = base.and_then(|base| {
                f2_pipeline::compose(descriptor, &inputs, base.stages, base.descriptor, base.f2)
            });
            let f2 = composed.or_else(|| f2_pipeline::lower(descriptor, &inputs))?;
            Some((f2, inputs))
        });
        match f2 {
            Some((f2, inputs)) => Canonical::from_f2(f2, &inputs, folded.lens),
            None => Canonical::fold(descriptor, budget::STAGE_NODES, false),
        }
    }

    /// The canonical form of an F2-affine layout from its map alone; its symbolic offset is
    /// the map's, bit by bit.
    fn from_f2(f2: F2Map, inputs: &Inputs, lens: Vec<usize>) -> Canonical {
        let vars = Vars { lens: &lens };
        let bit = |input: u32| -> Sym {
            let (var, bit) = inputs.locate(input).unwrap_or((0, 0));
            Sym::Var(var).div(1 << bit, vars).rem(2, vars)
        };
        let mut offset = Sym::constant(0);
        for (position, row) in f2.rows.iter().enumerate() {
            let mut value = Sym::constant(i128::from(row.constant));
            for input in (0..inputs.total()).filter(|&i| row.mask >> i & 1 == 1) {
                value = value.xor(bit(input));
            }
            offset = offset.plus(value.scale(1 << position));
        }
        Canonical {
            offset,
            f2: Some(f2),
            valid: Vec::new(),
            names: HashMap::new(),
            lens,
            coord_names: inputs.names.clone(),
            locals: Vec::new(),
        }
    }

    /// Runs the stages newest-first on symbolic values; a value of more than `local_past`
    /// nodes becomes a local (a fresh variable). A `probe` stops at the first local: its
    /// caller only asks whether the pipeline folds, and the rest would be wasted work.
    fn fold(descriptor: &Descriptor, local_past: usize, probe: bool) -> Canonical {
        Canonical::fold_parts(descriptor, local_past, probe).0
    }

    /// The canonical form of `descriptor` lowered symbolically and staged (never from its F2
    /// map), with the value of each memory dim over its variables: what a layout `over`
    /// another passes to its base's functions ([`crate::emit::compose`]).
    pub(crate) fn staged_parts(descriptor: &Descriptor) -> (Canonical, Vec<Sym>) {
        let folded = Canonical::fold_parts(descriptor, budget::SYMBOLIC_NODES, true);
        match folded.0.locals.is_empty() {
            true => folded,
            false => Canonical::fold_parts(descriptor, budget::STAGE_NODES, false),
        }
    }

    /// [`Canonical::fold`], with the value of each memory dim (in memory order).
    fn fold_parts(
        descriptor: &Descriptor,
        local_past: usize,
        probe: bool,
    ) -> (Canonical, Vec<Sym>) {
        let lens = descriptor.shape();
        // The variables' lengths grow with the locals: the coordinates', then the locals'.
        let symbolic = Symbolic {
            lens: lens.clone(),
            valid: Vec::new(),
        };
        let mut on = Lowering::new(symbolic, &descriptor.dims);
        for (i, &dim) in descriptor.coords.iter().enumerate() {
            on.values[dim] = Some(Sym::Var(i));
        }
        let mut stager = Stager::new(local_past);
        for stage in descriptor.stages.iter().rev() {
            // Checked descriptors never fail; a stage that did would leave its dims at 0.
            let _ = stage.apply(&mut on);
            stager.settle(&mut on, &stage.lower());
            if probe && !stager.locals.is_empty() {
                break;
            }
        }
        let Stager { locals, names, .. } = stager;
        let memory = descriptor
            .memory
            .dims
            .iter()
            .map(|&dim| on.values[dim].clone().unwrap_or_else(|| Sym::constant(0)))
            .collect();
        let offset = on
            .offset(&descriptor.memory)
            .unwrap_or_else(|_| Sym::constant(0));
        let valid = on.domain.valid;
        let coord_names: Vec<String> = descriptor
            .coords
            .iter()
            .map(|&d| descriptor.dims[d].name.to_string())
            .collect();
        // An F2 form is over the coordinates alone.
        let f2 = power_of_two_inputs(&lens, &coord_names)
            .filter(|_| locals.is_empty())
            .and_then(|inputs| F2Map::from_sym(&offset, &inputs));
        let canonical = Canonical {
            offset,
            f2,
            valid,
            names,
            lens,
            coord_names,
            locals,
        };
        (canonical, memory)
    }

    /// The names of the variables in code: the coordinates', then the locals'.
    pub(crate) fn var_names(&self) -> Vec<String> {
        variable_names(&self.coord_names, &self.coord_names, &self.locals)
    }

    /// The lengths that bound the variables: the coordinates', then the locals'.
    fn var_lens(&self) -> Vec<usize> {
        let locals = self.locals.iter().map(|local| local.len);
        self.lens.iter().copied().chain(locals).collect()
    }

    /// The values of the variables at `coord`: the coordinates, then each local in order.
    fn variables(&self, coord: &[usize]) -> Vec<usize> {
        let mut values = coord.to_vec();
        for local in &self.locals {
            // Wrapped like the generated code on a padded coordinate; never read there.
            values.push(local.value.eval(&values) as usize);
        }
        values
    }

    /// The offset of `coord`, as the canonical form computes it (meaningless where padded).
    pub fn eval(&self, coord: &[usize]) -> i128 {
        self.offset.eval(&self.variables(coord))
    }

    /// Whether `coord` avoids every padding.
    pub fn is_valid(&self, coord: &[usize]) -> bool {
        let values = self.variables(coord);
        self.valid
            .iter()
            .all(|(sym, lo, hi)| (*lo..*hi).contains(&sym.eval(&values)))
    }

    /// The F2 inputs (coordinates), when every coordinate length is a power of two.
    pub fn inputs(&self) -> Option<Inputs> {
        power_of_two_inputs(&self.lens, &self.coord_names)
    }

    /// The straight-line code of the offset, with names for its intermediate values.
    fn offset_code(&self) -> (Code, HashMap<Code, String>) {
        let variables = self.var_names();
        let mut names = self
            .names
            .iter()
            .map(|(sym, name)| (sym_code(sym, &variables), name.clone()))
            .collect();
        let code = match (&self.f2, self.inputs()) {
            (Some(f2), Some(inputs)) => f2.to_code(&inputs, &mut names, None),
            _ => sym_code(&self.offset, &variables),
        };
        (code, names)
    }

    /// The locals of a staged layout as code, in order; `needed` keeps only those the given
    /// code reads (directly or through another local).
    fn local_code(&self, needed: &[&Code]) -> Vec<(String, Code)> {
        live_locals(&self.locals, &self.var_names(), self.lens.len(), needed)
    }

    /// The validity conditions as `(expr, lo, hi)` code, dropping bounds the coordinate
    /// range already implies.
    pub fn valid_code(&self) -> Vec<(Code, Option<i128>, Option<i128>)> {
        let lens = self.var_lens();
        let vars = Vars { lens: &lens };
        let variables = self.var_names();
        self.valid
            .iter()
            .map(|(sym, lo, hi)| {
                let (min, max) = sym.range(vars);
                (
                    sym_code(sym, &variables),
                    (*lo > min).then_some(*lo),
                    (*hi <= max).then_some(*hi),
                )
            })
            .collect()
    }

    /// The validity tests of [`Canonical::valid_code`] in the order a coordinate meets them,
    /// each with the locals of a staged layout that it reads and no earlier test did (none
    /// unless staged). A local may subtract a padding that only the earlier tests rule out,
    /// so a printer computes it after them.
    pub fn valid_steps(&self) -> Vec<ValidStep> {
        let mut emitted: HashSet<String> = HashSet::new();
        self.valid_code()
            .into_iter()
            .map(|(code, lo, hi)| {
                let locals: Vec<(String, Code)> = self
                    .local_code(&[&code])
                    .into_iter()
                    .filter(|(name, _)| emitted.insert(name.clone()))
                    .collect();
                ValidStep {
                    locals,
                    code,
                    lo,
                    hi,
                }
            })
            .collect()
    }

    /// The offset function's body, shared subexpressions bound to locals named after dims
    /// (after the locals of a staged layout).
    pub fn offset_block(&self) -> Block {
        let (code, names) = self.offset_code();
        let params = &self.coord_names;
        staged_block(vec![code], &names, params, params, &self.locals)
    }

    /// The inverse's body (one result per coordinate, over the variable `offset`), when the
    /// layout is provably a bijection onto `0..space` within `limit` enumerated coordinates:
    /// the proof is [`Canonical::bijectivity`]'s, the one `assert bijective` checks. An
    /// inverse that does not fold into one expression per coordinate is staged as the
    /// offset is (one named local per large intermediate value).
    pub fn inverse(&self, descriptor: &Descriptor, limit: usize) -> Result<Block, NoInverse> {
        self.bijectivity(descriptor, limit)
            .map_err(NoInverse::NotBijective)?;
        // Locals must not shadow the parameter or the coordinates bound after them.
        let offset = ["offset".to_owned()];
        let taken: Vec<String> = self.coord_names.iter().chain(&offset).cloned().collect();
        if let (Some(f2), Some(inputs)) = (&self.f2, self.inputs()) {
            // Full column rank (the bijectivity above) makes the F2 map invertible.
            if let Some(inverse) = f2.inverse(inputs.total()) {
                let source = Inputs {
                    names: offset.to_vec(),
                    widths: vec![inputs.total()],
                };
                let mut names = HashMap::new();
                let coords = (0..inputs.names.len())
                    .map(|var| {
                        // Stages are named after the coordinate they extract, not `offset`.
                        let label = format!("{}_bits", inputs.names[var]);
                        let slice = inverse.slice(inputs.start(var), inputs.widths[var]);
                        slice.to_code(&source, &mut names, Some(&label))
                    })
                    .collect();
                return Ok(Block::share(coords, &names, &taken));
            }
        }
        raised_block(descriptor, Start::Offset, &offset, &taken)
    }

    /// [`Canonical::inverse`], where there is one.
    pub fn inverse_block(&self, descriptor: &Descriptor, limit: usize) -> Option<Block> {
        self.inverse(descriptor, limit).ok()
    }

    /// Decides whether distinct valid coordinates always get distinct offsets, enumerating at
    /// most `limit` coordinates when no structural argument applies. The structural proofs
    /// hold on every coordinate in range, so on the valid ones of a padded layout too.
    pub fn injectivity(&self, descriptor: &Descriptor, limit: usize) -> Injectivity {
        if let (Some(f2), Some(inputs)) = (&self.f2, self.inputs()) {
            match f2.kernel(inputs.total()) {
                None => return Injectivity::Injective,
                // A collision of two coordinates in range; with padding they may be invalid,
                // so the enumeration below decides.
                Some(witness) if self.valid.is_empty() => {
                    let b = unpack_bits(witness, &inputs);
                    let offset = self.offset.eval(&b) as usize;
                    let a = vec![0; b.len()];
                    return Injectivity::Collides(Collision { a, b, offset });
                }
                Some(_) => {}
            }
        }
        if stagewise_injective(descriptor) {
            return Injectivity::Injective;
        }
        if let Some(collision) = self.affine_collision() {
            return Injectivity::Collides(collision);
        }
        match self.enumerate(limit) {
            // Too large to enumerate, but a few coordinates may still collide.
            Injectivity::Unknown => self
                .step_collision(descriptor)
                .map_or(Injectivity::Unknown, Injectivity::Collides),
            verdict => verdict,
        }
    }

    /// Two coordinates an affine offset `Σ c_i · x_i + k` sends to one offset, found from its
    /// coefficients alone: a coordinate it ignores, or a coefficient that is a small multiple
    /// of another (`c_j = m · c_i` with `m < len(x_i)`: one step of `x_j` equals `m` steps
    /// of `x_i`, as in an `embed` whose rows overlap). `None` proves nothing.
    fn affine_collision(&self) -> Option<Collision> {
        if !self.valid.is_empty() || !self.locals.is_empty() {
            return None;
        }
        let mut coefficients = vec![0i128; self.lens.len()];
        match &self.offset {
            Sym::Var(i) => *coefficients.get_mut(*i)? = 1,
            Sym::Sum { terms, .. } => {
                for (term, c) in terms {
                    let Sym::Var(i) = term else { return None };
                    *coefficients.get_mut(*i)? = *c;
                }
            }
            _ => return None,
        }
        let unit = |var: usize, value: usize| {
            let mut coord = vec![0; self.lens.len()];
            coord[var] = value;
            coord
        };
        let collision = |a: Vec<usize>, b: Vec<usize>| {
            let offset = self.eval(&a);
            (offset == self.eval(&b)).then_some(Collision {
                a,
                b,
                offset: offset as usize,
            })
        };
        for (i, &c_i) in coefficients.iter().enumerate() {
            if self.lens[i] < 2 {
                continue;
            }
            if c_i == 0 {
                return collision(unit(i, 0), unit(i, 1));
            }
            for (j, &c_j) in coefficients.iter().enumerate() {
                let multiple = (c_j % c_i == 0).then(|| c_j / c_i);
                if j != i
                    && self.lens[j] > 1
                    && multiple.is_some_and(|m| m > 0 && m < self.lens[i] as i128)
                {
                    let m = multiple? as usize;
                    return collision(unit(i, m), unit(j, 1));
                }
            }
        }
        None
    }

    /// Two coordinates that differ in one coordinate by the length of some dim (or by 1) and
    /// share an offset: the collisions of the transforms that are not one-to-one, found by
    /// evaluating a few coordinates instead of all of them. A `modulo` onto `N > len(l)`
    /// sends `0` and `len(l)` to one index, a broadcast dim any two values; either way the
    /// step is a dim's length or 1. `None` proves nothing.
    fn step_collision(&self, descriptor: &Descriptor) -> Option<Collision> {
        let mut steps: Vec<usize> = descriptor.dims.iter().map(|dim| dim.len).collect();
        steps.push(1);
        steps.sort_unstable();
        steps.dedup();
        let valid = |coord: &[usize]| self.valid.is_empty() || self.is_valid(coord);
        let a = vec![0; self.lens.len()];
        if !valid(&a) {
            return None;
        }
        let offset = self.eval(&a);
        (0..self.lens.len()).find_map(|var| {
            steps
                .iter()
                .filter(|&&step| step > 0 && step < self.lens[var])
                .find_map(|&step| {
                    let mut b = a.clone();
                    b[var] = step;
                    (valid(&b) && self.eval(&b) == offset).then(|| Collision {
                        a: a.clone(),
                        b,
                        offset: offset as usize,
                    })
                })
        })
    }

    /// Why the layout is not a bijection onto `0..space`, if it is not: two colliding
    /// coordinates, padding, unused offsets, or a layout too large to decide.
    pub fn bijectivity(&self, descriptor: &Descriptor, limit: usize) -> Result<(), String> {
        let padded = !self.valid.is_empty();
        verdict(
            descriptor,
            self.injectivity(descriptor, limit),
            padded,
            limit,
        )
    }
    /// Checks injectivity by evaluating every valid coordinate.
    fn enumerate(&self, limit: usize) -> Injectivity {
        let size = self.lens.iter().try_fold(1usize, |a, &l| a.checked_mul(l));
        let Some(size) = size.filter(|&s| s <= limit) else {
            return Injectivity::Unknown;
        };
        // Offsets are unique per coordinate here, so the map is keyed by offset: the first
        // coordinate that reached each one, to name it if another does too.
        let mut seen: HashMap<i128, Vec<usize>> = HashMap::with_capacity(size);
        for coord in coordinates(&self.lens) {
            let values = self.variables(&coord);
            if self
                .valid
                .iter()
                .any(|(s, lo, hi)| !(*lo..*hi).contains(&s.eval(&values)))
            {
                continue;
            }
            let offset = self.offset.eval(&values);
            if let Some(a) = seen.insert(offset, coord.clone()) {
                let offset = offset as usize;
                return Injectivity::Collides(Collision {
                    a,
                    b: coord,
                    offset,
                });
            }
        }
        Injectivity::Injective
    }
}

/// Whether a layout is a bijection onto `0..space`, from its injectivity verdict and whether
/// it is padded: `Err` says why not, as errors and reports show it.
pub(crate) fn verdict(
    descriptor: &Descriptor,
    injectivity: Injectivity,
    padded: bool,
    limit: usize,
) -> Result<(), String> {
    let (size, space) = (
        descriptor.size().unwrap_or(0),
        descriptor.space().unwrap_or(0),
    );
    match injectivity {
        Injectivity::Collides(c) => Err(format!(
            "coordinates {} and {} both map to offset {}",
            descriptor.describe(&c.a),
            descriptor.describe(&c.b),
            c.offset
        )),
        _ if padded => Err("this layout is padded".to_owned()),
        Injectivity::Injective if size == space => Ok(()),
        Injectivity::Injective => Err(format!(
            "the {size} coordinates cover only part of the {space} offsets"
        )),
        Injectivity::Unknown => Err(format!(
            "this layout is too large ({size} coordinates, more than {limit}) to check by \
             enumeration: build it from power-of-two or one-to-one transforms, which are \
             checked without enumerating"
        )),
    }
}

fn power_of_two_inputs(lens: &[usize], names: &[String]) -> Option<Inputs> {
    lens.iter().all(|l| l.is_power_of_two()).then(|| Inputs {
        names: names.to_vec(),
        widths: lens.iter().map(|l| l.trailing_zeros()).collect(),
    })
}

fn unpack_bits(bits: u128, inputs: &Inputs) -> Vec<usize> {
    (0..inputs.names.len())
        .map(|var| ((bits >> inputs.start(var)) & ((1u128 << inputs.widths[var]) - 1)) as usize)
        .collect()
}

/// Whether every stage, and the memory, maps distinct upper indices to distinct lower ones:
/// then so does the whole layout. Bijective stages are (`unmerge`, `merge`, `xor`,
/// `morton`, CuTe's `swizzle`); `pad`, `slice` and `offset` add a constant; `freeze` fixes a
/// dim no coordinate reaches; an embedding (or strided memory) is when its strides dominate
/// (each larger than the span of the smaller ones), as in a padded row pitch. Only
/// `replicate` of a dim longer than 1 maps several coordinates to one index.
fn stagewise_injective(descriptor: &Descriptor) -> bool {
    let memory = &descriptor.memory;
    dominating_strides(&memory.dims, &memory.strides, &descriptor.dims)
        && descriptor
            .stages
            .iter()
            .all(|stage| stage.injective(&descriptor.dims))
}

/// Why a layout has no inverse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoInverse {
    /// It is not a bijection onto `0..space` (or could not be proved one): why, as
    /// [`Canonical::bijectivity`] says.
    NotBijective(String),
    /// It is a bijection, but one of its stages has no inverse of its own (a wrapping
    /// `modulo` whose upper values a later stage restricts), so it cannot be undone stage by
    /// stage: that stage as the language writes it, and why.
    Stage { stage: String, why: &'static str },
}

/// A layout's inverse run on symbols: each coordinate over variable 0 (the offset) and the
/// locals (variables 1 onwards), with a dim name for intermediate expressions.
struct Raised {
    coords: Vec<Sym>,
    names: HashMap<Sym, String>,
    locals: Vec<Local>,
}

/// Where an inverse starts: the offset (memory's dims unstrided from it), or the values of
/// some dims, each a variable of its own (the base coordinates of a layout `over` another).
#[derive(Clone, Copy)]
pub(crate) enum Start<'a> {
    Offset,
    /// Dims and their lengths: variable `i` is the value of `dims[i]`.
    Dims(&'a [DimId], &'a [usize]),
}

/// The inverse's body from `start`, one result per coordinate over `params` (the start's
/// variables), staged as [`raise`] stages it; no local is named as one of `taken`.
pub(crate) fn raised_block(
    descriptor: &Descriptor,
    start: Start<'_>,
    params: &[String],
    taken: &[String],
) -> Result<Block, NoInverse> {
    let raised = raise(descriptor, start)?;
    let variables = variable_names(params, taken, &raised.locals);
    let names = raised
        .names
        .iter()
        .map(|(sym, name)| (sym_code(sym, &variables), name.clone()))
        .collect();
    let coords = raised
        .coords
        .iter()
        .map(|sym| sym_code(sym, &variables))
        .collect();
    Ok(staged_block(coords, &names, params, taken, &raised.locals))
}

/// The inverse by running every stage upwards (memory first), for bijective layouts that are
/// not F2-affine: folded into one expression per coordinate when it fits
/// [`budget::SYMBOLIC_NODES`], else staged past [`budget::STAGE_NODES`], as
/// [`Canonical::new`] stages the offset.
fn raise(descriptor: &Descriptor, start: Start<'_>) -> Result<Raised, NoInverse> {
    let folded = raise_staged(descriptor, start, budget::SYMBOLIC_NODES, true)?;
    match folded.locals.is_empty() {
        true => Ok(folded),
        false => raise_staged(descriptor, start, budget::STAGE_NODES, false),
    }
}

/// The stages run upwards, every value past `local_past` nodes a local. A `probe` stops at
/// the first local (its `coords` are then empty): its caller only asks whether the inverse
/// folds.
fn raise_staged(
    descriptor: &Descriptor,
    start: Start<'_>,
    local_past: usize,
    probe: bool,
) -> Result<Raised, NoInverse> {
    let mut stager = Stager::new(local_past);
    let mut on = match start {
        Start::Offset => {
            let space = descriptor.space().unwrap_or(0);
            let symbolic = Symbolic {
                lens: vec![space],
                valid: Vec::new(),
            };
            let mut on = Lowering::new(symbolic, &descriptor.dims);
            let memory = &descriptor.memory;
            // A checked memory always unstrides (its strides dominate, as the bijectivity
            // proved).
            let unstrided = unstride(&mut on, Sym::Var(0), &memory.dims, &memory.strides);
            unstrided.map_err(|why| NoInverse::Stage {
                stage: "memory".to_owned(),
                why,
            })?;
            stager.settle(&mut on, &memory.dims);
            on
        }
        Start::Dims(dims, lens) => {
            let symbolic = Symbolic {
                lens: lens.to_vec(),
                valid: Vec::new(),
            };
            let mut on = Lowering::new(symbolic, &descriptor.dims);
            for (i, &dim) in dims.iter().enumerate() {
                on.values[dim] = Some(Sym::Var(i));
            }
            on
        }
    };
    // The forward values of the dims, for a stage that is one-to-one only on the values
    // the stages above it leave (computed once, where one needs them).
    let mut forward: Option<Option<Forward>> = None;
    for stage in descriptor.stages.iter() {
        if let Err(why) = stage.raise(&mut on) {
            let forward = forward.get_or_insert_with(|| forward_values(descriptor));
            restricted_raise(stage, forward.as_ref(), &mut on).ok_or_else(|| NoInverse::Stage {
                stage: stage.describe(&descriptor.dims),
                why,
            })?;
        }
        stager.settle(&mut on, &stage.upper());
        if probe && !stager.locals.is_empty() {
            return Ok(Raised {
                coords: Vec::new(),
                names: HashMap::new(),
                locals: stager.locals,
            });
        }
    }
    let coords = descriptor
        .coords
        .iter()
        // A coordinate no stage raised is one a stage ignores: 0 is its only value.
        .map(|&d| on.values[d].clone().unwrap_or_else(|| Sym::constant(0)))
        .collect();
    Ok(Raised {
        coords,
        names: stager.names,
        locals: stager.locals,
    })
}

/// The value of every dim of a layout run forward (coordinates to memory), staged: where
/// each stage's upper values lie.
struct Forward {
    /// Each dim's value over the variables (`None` for one never computed).
    values: Vec<Option<Sym>>,
    /// The variables' lengths: the coordinates', then the locals'.
    lens: Vec<usize>,
}

/// [`Forward`] of `descriptor`; `None` where a stage fails.
fn forward_values(descriptor: &Descriptor) -> Option<Forward> {
    let symbolic = Symbolic {
        lens: descriptor.shape(),
        valid: Vec::new(),
    };
    let mut on = Lowering::new(symbolic, &descriptor.dims);
    for (i, &dim) in descriptor.coords.iter().enumerate() {
        on.values[dim] = Some(Sym::Var(i));
    }
    let mut stager = Stager::new(budget::STAGE_NODES);
    let mut values: Vec<Option<Sym>> = on.values.clone();
    for stage in descriptor.stages.iter().rev() {
        stage.apply(&mut on).ok()?;
        stager.settle(&mut on, &stage.lower());
        for &dim in &stage.lower() {
            values[dim] = on.values[dim].clone();
        }
    }
    Some(Forward {
        values,
        lens: on.domain.lens,
    })
}

/// Raises a stage that has no inverse of its own on the values the stages above it leave:
/// a wrapping `modulo l -> u (N)` whose `u` stays within `lo..lo + len(l)` on every
/// coordinate (a `slice` above it, say) is `u = lo + (l - lo) mod len(l)` there. `None`
/// where no such range is known.
fn restricted_raise(
    stage: &crate::ir::Transform,
    forward: Option<&Forward>,
    on: &mut Lowering<'_, Symbolic>,
) -> Option<()> {
    let crate::ir::Transform::Modulo(modulo) = stage else {
        return None;
    };
    let forward = forward?;
    let upper = forward.values.get(modulo.upper)?.as_ref()?;
    let (lo, hi) = upper.range(Vars {
        lens: &forward.lens,
    });
    let len = on.len(modulo.lower) as i128;
    if lo < 0 || hi - lo >= len {
        return None;
    }
    let lower = on.values[modulo.lower].clone()?;
    let vars = on.domain.vars();
    let value = match lo {
        0 => lower,
        lo => lower
            .plus(Sym::constant(len - lo % len))
            .rem(len, vars)
            .plus(Sym::constant(lo)),
    };
    on.values[modulo.upper] = Some(value);
    Some(())
}

/// The values of a pipeline run on symbols, kept small: after each stage, a value past
/// `local_past` nodes (or [`budget::SYMBOLIC_DEPTH`] levels) becomes a local, a fresh
/// variable bounded by its dim's length, so that no chain of transforms grows the code
/// faster than its length.
struct Stager {
    local_past: usize,
    locals: Vec<Local>,
    /// A dim name for each intermediate expression, to name shared locals after.
    names: HashMap<Sym, String>,
}

impl Stager {
    fn new(local_past: usize) -> Stager {
        Stager {
            local_past,
            locals: Vec::new(),
            names: HashMap::new(),
        }
    }

    /// Settles the values a stage has just computed for `dims`.
    fn settle(&mut self, on: &mut Lowering<'_, Symbolic>, dims: &[DimId]) {
        for &dim in dims {
            let Some(mut sym) = on.values[dim].take() else {
                continue;
            };
            if !matches!(sym, Sym::Var(_)) && sym.as_constant().is_none() {
                let name = on.dims[dim].name.to_string();
                if sym.fits(self.local_past, budget::SYMBOLIC_DEPTH) {
                    self.names.entry(sym.clone()).or_insert(name);
                } else {
                    let len = on.dims[dim].len;
                    on.domain.lens.push(len);
                    self.locals.push(Local {
                        name,
                        value: sym,
                        len,
                    });
                    sym = Sym::Var(on.domain.lens.len() - 1);
                }
            }
            on.values[dim] = Some(sym);
        }
    }
}

/// The names of the variables in code: the parameters, then the locals, each named after
/// its dim and made unique (`m`, `m1`, …) among themselves and `taken`.
fn variable_names(params: &[String], taken: &[String], locals: &[Local]) -> Vec<String> {
    let mut used: HashSet<String> = params.iter().chain(taken).cloned().collect();
    let mut names = params.to_vec();
    for local in locals {
        names.push(code::fresh(&local.name, &mut used));
    }
    names
}

/// The `locals` of a staged pipeline (variables `first` onwards of `variables`) as code, in
/// order, keeping only those the `needed` code reads (directly or through another local).
pub(crate) fn live_locals(
    locals: &[Local],
    variables: &[String],
    first: usize,
    needed: &[&Code],
) -> Vec<(String, Code)> {
    let mut live: HashSet<String> = HashSet::new();
    for code in needed {
        code.collect_vars(&mut live);
    }
    let mut kept = Vec::new();
    for (i, local) in locals.iter().enumerate().rev() {
        let name = &variables[first + i];
        if live.contains(name) {
            let code = sym_code(&local.value, variables);
            code.collect_vars(&mut live);
            kept.push((name.clone(), code));
        }
    }
    kept.reverse();
    kept
}

/// A block of `results` over `params` and the `locals` of a staged pipeline: the locals the
/// results read, in order, then the subexpressions the results share, no local named as
/// one of `taken`.
fn staged_block(
    results: Vec<Code>,
    names: &HashMap<Code, String>,
    params: &[String],
    taken: &[String],
    locals: &[Local],
) -> Block {
    let variables = variable_names(params, taken, locals);
    let needed: Vec<&Code> = results.iter().collect();
    let staged = live_locals(locals, &variables, params.len(), &needed);
    let used: Vec<String> = variables.iter().chain(taken).cloned().collect();
    let mut block = Block::share(results, names, &used);
    block.locals.splice(0..0, staged);
    block
}

/// Integer code for a symbolic expression: power-of-two factors and divisors become shifts
/// and masks, terms come largest coefficient first (row-major reading order).
pub fn sym_code(sym: &Sym, names: &[String]) -> Code {
    match sym {
        Sym::Var(i) => Code::var(names.get(*i).map_or("_", String::as_str)),
        Sym::Sum { terms, constant } => {
            // Every addition before every subtraction: a sum that is never negative then
            // never passes through a negative value, which unsigned code cannot hold.
            let mut terms: Vec<(Code, i128)> = terms
                .iter()
                .map(|(term, coefficient)| {
                    let term = sym_code(term, names);
                    let scaled = match coefficient.unsigned_abs() {
                        1 => term,
                        m if m.is_power_of_two() => {
                            Code::bin(Op::Shl, term, Code::Lit(u128::from(m.trailing_zeros())))
                        }
                        m => Code::bin(Op::Mul, term, Code::Lit(m)),
                    };
                    (scaled, *coefficient)
                })
                .collect();
            terms.sort_by_key(|&(_, c)| std::cmp::Reverse(c));
            let split = terms.partition_point(|&(_, c)| c > 0);
            if *constant != 0 {
                terms.insert(split, (Code::Lit(constant.unsigned_abs()), *constant));
            }
            let mut code: Option<Code> = None;
            for (scaled, coefficient) in terms {
                code = Some(match (code, coefficient < 0) {
                    // A sum with no positive part is never positive: it is 0 exactly where
                    // every term is, or it lies in padding, whose offset is meaningless but
                    // must compute without overflow. Its magnitude is right wherever it
                    // matters.
                    (None, _) => scaled,
                    (Some(acc), false) => Code::bin(Op::Add, acc, scaled),
                    (Some(acc), true) => Code::bin(Op::Sub, acc, scaled),
                });
            }
            code.unwrap_or(Code::Lit(0))
        }
        Sym::Div(x, m) => {
            let x = sym_code(x, names);
            match u128::try_from(*m) {
                Ok(m) if m.is_power_of_two() => {
                    Code::bin(Op::Shr, x, Code::Lit(u128::from(m.trailing_zeros())))
                }
                _ => Code::bin(Op::Div, x, Code::Lit(m.unsigned_abs())),
            }
        }
        Sym::Rem(x, m) => {
            let x = sym_code(x, names);
            match u128::try_from(*m) {
                Ok(m) if m.is_power_of_two() => Code::bin(Op::And, x, Code::Mask(m - 1)),
                _ => Code::bin(Op::Rem, x, Code::Lit(m.unsigned_abs())),
            }
        }
        Sym::Xor(a, b) => Code::bin(Op::Xor, sym_code(a, names), sym_code(b, names)),
    }
}

/// Symbolic values over the variables (the coordinates, then the locals of a staged
/// layout), simplified with the variables' ranges as they are built.
struct Symbolic {
    /// The variables' lengths.
    lens: Vec<usize>,
    /// `lo ≤ expr < hi` for each padding a coordinate must avoid.
    valid: Vec<(Sym, i128, i128)>,
}

impl Symbolic {
    fn vars(&self) -> Vars<'_> {
        Vars { lens: &self.lens }
    }
}

impl Domain for Symbolic {
    type Value = Sym;
    type Error = &'static str;

    fn fail(&self, why: &'static str) -> &'static str {
        why
    }

    fn missing(&self) -> Result<Sym, &'static str> {
        Ok(Sym::constant(0))
    }

    fn constant(&self, value: usize) -> Result<Sym, &'static str> {
        Ok(Sym::constant(value as i128))
    }

    fn add(&self, a: Sym, b: Sym) -> Result<Sym, &'static str> {
        Ok(a.plus(b))
    }

    fn sub(&self, a: Sym, b: Sym) -> Result<Sym, &'static str> {
        Ok(a.plus(b.scale(-1)))
    }

    fn scale(&self, a: Sym, by: usize) -> Result<Sym, &'static str> {
        Ok(a.scale(by as i128))
    }

    fn div(&self, a: Sym, by: usize) -> Result<Sym, &'static str> {
        Ok(a.div(by as i128, self.vars()))
    }

    fn rem(&self, a: Sym, by: usize) -> Result<Sym, &'static str> {
        Ok(a.rem(by as i128, self.vars()))
    }

    fn xor(&self, a: Sym, b: Sym) -> Result<Sym, &'static str> {
        Ok(a.xor(b))
    }

    fn guard(&mut self, value: &Sym, lo: usize, hi: usize, _: usize) -> Result<(), &'static str> {
        self.valid.push((value.clone(), lo as i128, hi as i128));
        Ok(())
    }
}

/// A layout lowered at symbolic coordinates: the value of each memory dim, the offset and
/// the padding tests, each over the caller's variables.
#[derive(Clone, Debug)]
pub struct Lowered {
    /// One value per memory dim, in memory order.
    pub memory: Vec<Sym>,
    pub offset: Sym,
    /// `lo ≤ expr < hi` for each padding the coordinates must avoid.
    pub valid: Vec<(Sym, i128, i128)>,
    /// The value of every dim of the descriptor on the way (`None` for one not computed):
    /// what a printer can name, as the thread's own coordinates of a thread-value layout.
    pub dims: Vec<Option<Sym>>,
}

/// `descriptor` lowered at `inputs` (one symbolic value per coordinate), whose variables
/// range over `0..lens[i]`: what a layout composed over other values computes, folded as one
/// expression (a thread-value layout at a constant value index, a tile layout at the
/// coordinates a thread holds). `None` where the rank differs, a stage fails, or a value
/// passes [`budget::SYMBOLIC_NODES`].
pub fn lower_at(descriptor: &Descriptor, inputs: &[Sym], lens: &[usize]) -> Option<Lowered> {
    if inputs.len() != descriptor.coords.len() {
        return None;
    }
    let symbolic = Symbolic {
        lens: lens.to_vec(),
        valid: Vec::new(),
    };
    let mut on = Lowering::new(symbolic, &descriptor.dims);
    for (input, &dim) in inputs.iter().zip(descriptor.coords.iter()) {
        on.values[dim] = Some(input.clone());
    }
    for stage in descriptor.stages.iter().rev() {
        stage.apply(&mut on).ok()?;
        let lower = stage.lower();
        let fits = |value: &Option<Sym>| {
            value
                .as_ref()
                .is_none_or(|sym| sym.fits(budget::SYMBOLIC_NODES, budget::SYMBOLIC_DEPTH))
        };
        if !lower.iter().all(|&dim| fits(&on.values[dim])) {
            return None;
        }
    }
    let memory = descriptor
        .memory
        .dims
        .iter()
        .map(|&dim| on.values[dim].clone())
        .collect::<Option<Vec<Sym>>>()?;
    let offset = on.offset(&descriptor.memory).ok()?;
    Some(Lowered {
        memory,
        offset,
        valid: on.domain.valid,
        dims: on.values,
    })
}
