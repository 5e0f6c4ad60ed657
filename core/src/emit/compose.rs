//! A layout `over` another, lowered only down to its base's coordinates: its functions call
//! the base's (`Base::offset(…)`, `Base::coord(offset)`) instead of repeating the base's
//! stages, and its verdicts (injectivity, bijectivity) compose the base's with those of its
//! own stages. A chain of layouts, each `over` the one before, then costs each layout its own
//! stages alone, in the expansion and in the checks, however long the chain.
//!
//! The layout's own stages are lowered as a layout of their own, [`Composed::own`]: the same
//! dims and stages, over a memory that is the base's coordinates packed row-major. Its
//! canonical form gives each base coordinate as an expression of the layout's coordinates
//! (the arguments of the base's functions), its validity tests, and whether it is one-to-one
//! and onto the base's coordinates.

use crate::canon::f2::F2Map;
use crate::canon::sym::Sym;
use crate::canon::{self, Canonical, Collision, F2Base, Injectivity, NoInverse, Start, sym_code};
use crate::emit::code::{Code, fresh};
use crate::emit::function::{Function, Kind, LayoutFunctions, Stmt, Value};
use crate::ir::{Descriptor, Memory, coordinates, row_major_strides};
use std::borrow::Cow;
use std::collections::HashSet;

/// What a layout `over` a base needs to know of the base, decided once when the base was
/// checked.
#[derive(Clone, Debug)]
pub struct Base<'a> {
    /// The base's checked descriptor: its coordinates are dims of the layout's, with the
    /// same ids.
    pub descriptor: &'a Descriptor,
    /// The base is injective (proved, not merely unrefuted).
    pub injective: bool,
    /// Two base coordinates the base sends to one offset, where it was proved not
    /// injective.
    pub collision: Option<&'a Collision>,
    /// The base has a `coord` function: it is a bijection onto its element space.
    pub coord: bool,
    /// The base's F2 map, where its canonical form has one.
    pub f2: Option<&'a F2Map>,
}

/// A layout `over` a base, lowered down to the base's coordinates.
pub struct Composed {
    /// The layout's own stages over the base's coordinates packed row-major.
    pub own: Descriptor,
    /// The canonical form of [`Composed::own`].
    pub canonical: Canonical,
    /// Each base coordinate's value, over the layout's coordinates and the own canonical
    /// form's locals.
    args: Vec<Sym>,
    /// The base's coordinate dims and lengths.
    base_dims: Vec<usize>,
    base_lens: Vec<usize>,
    /// The base is proved injective, so the layout is exactly when its own stages are.
    base_injective: bool,
    /// Two base coordinates that collide, where the base was proved not injective.
    base_collision: Option<Collision>,
    base_coord: bool,
}

impl Composed {
    /// `descriptor` (a layout whose first `base_stages` stages are `base`'s) lowered over
    /// `base`'s functions; `None` where the base's functions cannot be called as they are: a
    /// base or layout with run-time dims (whose functions are per tile), or a padded base
    /// (whose validity the layout would have to repeat).
    pub fn new(descriptor: &Descriptor, base_stages: usize, base: &Base<'_>) -> Option<Composed> {
        let parent = base.descriptor;
        if parent.is_padded() {
            return None;
        }
        let own = own_stages(descriptor, base_stages, parent)?;
        let (canonical, args) = Canonical::staged_parts(&own);
        Some(Composed {
            own,
            canonical,
            args,
            base_dims: parent.coords.to_vec(),
            base_lens: parent.shape(),
            base_injective: base.injective,
            base_collision: base.collision.cloned(),
            base_coord: base.coord,
        })
    }

    /// Whether distinct valid coordinates of the whole layout (`descriptor`) get distinct
    /// offsets: exactly when its own stages send them to distinct base coordinates, the base
    /// being injective. Two coordinates its own stages send to one base coordinate collide
    /// in the whole layout too, and so do two that they send to the two base coordinates
    /// of the base's collision (found within `limit` coordinates).
    pub fn injectivity(&self, descriptor: &Descriptor, limit: usize) -> Injectivity {
        match self.canonical.injectivity(&self.own, limit) {
            Injectivity::Collides(mut collision) => match descriptor.offset(&collision.a) {
                Ok(offset) => {
                    collision.offset = offset;
                    Injectivity::Collides(collision)
                }
                Err(_) => Injectivity::Unknown,
            },
            Injectivity::Injective if self.base_injective => Injectivity::Injective,
            _ => self
                .base_collision_reached(limit)
                .map_or(Injectivity::Unknown, Injectivity::Collides),
        }
    }

    /// Two valid coordinates of the layout that its own stages send to the two colliding
    /// coordinates of the base, found by running the own stages alone on each of at most
    /// `limit` coordinates: their offsets are the base's at those, one offset.
    fn base_collision_reached(&self, limit: usize) -> Option<Collision> {
        let base = self.base_collision.as_ref()?;
        let index = |coord: &[usize]| {
            coord
                .iter()
                .zip(&self.base_lens)
                .fold(0, |index, (&c, &len)| index * len + c)
        };
        let (a_index, b_index) = (index(&base.a), index(&base.b));
        self.own.size().filter(|&size| size <= limit)?;
        let (mut a, mut b) = (None, None);
        for coord in coordinates(&self.own.shape()) {
            match self.own.offset(&coord) {
                Ok(index) if index == a_index && a.is_none() => a = Some(coord),
                Ok(index) if index == b_index && b.is_none() => b = Some(coord),
                _ => {}
            }
            if let (Some(a), Some(b)) = (&a, &b) {
                return Some(Collision {
                    a: a.clone(),
                    b: b.clone(),
                    offset: base.offset,
                });
            }
        }
        None
    }

    /// Why the whole layout is not a bijection onto `0..space`, if it is not, as
    /// [`Canonical::bijectivity`] says it.
    pub fn bijectivity(&self, descriptor: &Descriptor, limit: usize) -> Result<(), String> {
        let padded = !self.canonical.valid.is_empty();
        canon::verdict(
            descriptor,
            self.injectivity(descriptor, limit),
            padded,
            limit,
        )
    }

    /// Whether the layout is padded: only its own stages can be (the base is not).
    pub fn is_padded(&self) -> bool {
        !self.canonical.valid.is_empty()
    }

    /// The inverse's body over `offset`: the base's `coord`, then the own stages run
    /// upwards from the base coordinates it returns. Where the whole layout is a bijection
    /// (proved by [`Composed::bijectivity`]) and the base has an inverse, its own stages
    /// are a bijection onto the base's coordinates.
    pub fn inverse(&self, descriptor: &Descriptor, limit: usize) -> Result<Function, NoInverse> {
        self.bijectivity(descriptor, limit)
            .map_err(NoInverse::NotBijective)?;
        if !self.base_coord {
            return Err(NoInverse::NotBijective(
                "its base has no inverse".to_owned(),
            ));
        }
        let coords = &self.canonical.coord_names;
        let mut used: HashSet<String> = coords.iter().cloned().collect();
        used.insert("offset".to_owned());
        let params: Vec<String> = self.base_names(&mut used);
        let taken: Vec<String> = used.into_iter().collect();
        let start = Start::Dims(&self.base_dims, &self.base_lens);
        let block = canon::raised_block(&self.own, start, &params, &taken)?;
        let mut coord = Function::coord(&block, coords);
        coord.body.insert(
            0,
            Stmt::Call {
                names: params,
                kind: Kind::Coord,
                args: vec![Code::var("offset")],
            },
        );
        Ok(coord)
    }

    /// The layout's functions: `offset` (and `is_valid` where its own stages pad) call the
    /// base's `offset` at the base coordinates; `coord`, when given, is
    /// [`Composed::inverse`]'s.
    pub fn functions(&self, coord: Option<Function>) -> LayoutFunctions {
        let own = &self.canonical;
        let variables = self.variables();
        let args: Vec<Code> = self
            .args
            .iter()
            .map(|sym| sym_code(sym, &variables))
            .collect();
        let mut used: HashSet<String> = variables.iter().cloned().collect();
        let result = fresh("offset", &mut used);
        let mut body = self.locals_for(&args);
        body.push(Stmt::Call {
            names: vec![result.clone()],
            kind: Kind::Offset,
            args,
        });
        let offset = Function {
            kind: Kind::Offset,
            params: own.coord_names.clone(),
            body,
            result: Value::Index(Code::var(&result)),
        };
        LayoutFunctions {
            offset,
            // The base is not padded: the layout's own tests are all.
            is_valid: Function::is_valid(own),
            coord,
            element: None,
        }
    }

    /// The names of the variables in code: the coordinates', then the own form's locals'.
    fn variables(&self) -> Vec<String> {
        self.canonical.var_names()
    }

    /// The own form's locals that `codes` read, as statements.
    fn locals_for(&self, codes: &[Code]) -> Vec<Stmt> {
        let needed: Vec<&Code> = codes.iter().collect();
        let locals = canon::live_locals(
            &self.canonical.locals,
            &self.variables(),
            self.canonical.lens.len(),
            &needed,
        );
        locals
            .into_iter()
            .map(|(name, code)| Stmt::Let(name, code))
            .collect()
    }

    /// A name for each base coordinate, after the base's own, none in `used`.
    fn base_names(&self, used: &mut HashSet<String>) -> Vec<String> {
        self.base_dims
            .iter()
            .map(|&dim| fresh(&self.own.dims[dim].name, used))
            .collect()
    }
}

/// The stages `descriptor` adds to its base's (those after the first `base_stages`), as a
/// layout of their own: the same dims and coordinates, over a memory that is `base`'s
/// coordinates packed row-major, so that its offset is the row-major index of the base
/// coordinate a coordinate of `descriptor` reaches. `None` where either layout has run-time
/// dims (its coordinates are per tile) or the base's shape overflows `usize`.
pub fn own_stages(
    descriptor: &Descriptor,
    base_stages: usize,
    base: &Descriptor,
) -> Option<Descriptor> {
    if descriptor.is_tiled() || base.is_tiled() {
        return None;
    }
    let own = Descriptor {
        name: descriptor.name.clone(),
        dims: descriptor.dims.clone(),
        memory: Memory {
            dims: Cow::Owned(base.coords.to_vec()),
            strides: Cow::Owned(row_major_strides(&base.shape())?),
        },
        stages: Cow::Owned(descriptor.stages.get(base_stages..)?.to_vec()),
        coords: descriptor.coords.clone(),
        grid: Cow::Borrowed(&[]),
    };
    own.space()?;
    Some(own)
}

/// Whether `canonical` is staged: its offset did not fold into one expression (nor into an
/// F2 map). A layout `over` a staged layout calls its functions instead of repeating them.
pub fn is_staged(canonical: &Canonical) -> bool {
    !canonical.locals.is_empty() && canonical.f2.is_none()
}

/// How a layout's functions and verdicts are built: from its whole pipeline, or over its
/// base's functions.
// One per layout, kept while it is checked: the variants' sizes do not matter.
#[allow(clippy::large_enum_variant)]
pub enum Form {
    Whole(Canonical),
    Over(Composed),
}

impl Form {
    /// The form of `descriptor`: over `base`'s functions where it starts `over` (after
    /// `base_stages` stages of the base's) a base that is itself staged or composed, and
    /// the base's functions can be called as they are; else its whole canonical form, its
    /// F2 map (where it needs one) composed from the base's where the base has one.
    pub fn new(descriptor: &Descriptor, over: Option<(usize, Base<'_>, bool)>) -> Form {
        let composed = over
            .as_ref()
            .filter(|&&(_, _, staged)| staged)
            .and_then(|(stages, base, _)| Composed::new(descriptor, *stages, base));
        match composed {
            Some(composed) => Form::Over(composed),
            None => {
                let f2 = over.and_then(|(stages, base, _)| {
                    Some(F2Base {
                        stages,
                        descriptor: base.descriptor,
                        f2: base.f2?,
                    })
                });
                Form::Whole(Canonical::over(descriptor, f2))
            }
        }
    }

    /// Whether a layout `over` this one calls its functions: this one's code is staged or
    /// itself calls its base's, so repeating it would grow with the chain.
    pub fn is_staged(&self) -> bool {
        match self {
            Form::Whole(canonical) => is_staged(canonical),
            Form::Over(_) => true,
        }
    }

    /// [`Canonical::injectivity`], of the whole layout.
    pub fn injectivity(&self, descriptor: &Descriptor, limit: usize) -> Injectivity {
        match self {
            Form::Whole(canonical) => canonical.injectivity(descriptor, limit),
            Form::Over(composed) => composed.injectivity(descriptor, limit),
        }
    }

    /// [`Canonical::bijectivity`], of the whole layout.
    pub fn bijectivity(&self, descriptor: &Descriptor, limit: usize) -> Result<(), String> {
        match self {
            Form::Whole(canonical) => canonical.bijectivity(descriptor, limit),
            Form::Over(composed) => composed.bijectivity(descriptor, limit),
        }
    }

    /// The `coord` function, where the layout is a bijection within `limit`.
    pub fn coord(&self, descriptor: &Descriptor, limit: usize) -> Result<Function, NoInverse> {
        match self {
            Form::Whole(canonical) => {
                let inverse = canonical.inverse(descriptor, limit)?;
                Ok(Function::coord(&inverse, &canonical.coord_names))
            }
            Form::Over(composed) => composed.inverse(descriptor, limit),
        }
    }

    /// The layout's functions, with `coord` where it has one.
    pub fn functions(&self, coord: Option<Function>) -> LayoutFunctions {
        match self {
            Form::Whole(canonical) => LayoutFunctions {
                coord,
                ..LayoutFunctions::new(canonical, None)
            },
            Form::Over(composed) => composed.functions(coord),
        }
    }
}
