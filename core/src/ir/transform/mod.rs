//! The transforms, one module each. A module holds everything its transform means: how it
//! is checked ([`Stage::check`]), its lowering and its inverse over any numeric [`Domain`]
//! (checked integers for the interpreter, symbols for the canonical form, bit vectors for
//! the F2 form), whether it is injective, how it treats a contiguous run, how the language
//! writes it and its fields as const data. The `layout!` macro's documentation
//! (`macros/src/lib.rs`, docs/semantics.md §2) is the table of them all.
//!
//! Adding a transform is one new module, one line in `transforms!` below and one arm in
//! the parser.

mod check;
mod domain;

pub use check::{Blame, Context, Written, show};
pub use domain::{Domain, Lowering};

use crate::analysis::runs::Walk;
use crate::ir::{Dim, DimId};
use std::cell::Cell;

thread_local! {
    static APPLIED: Cell<u64> = const { Cell::new(0) };
}

/// How many stages this thread has applied ([`Transform::apply`]), in any domain: the
/// interpreter's integers, the canonical form's symbols, the F2 form's bit vectors. The
/// measure of work that the tests of `over` chains compare between chain lengths, to catch
/// a layout that re-runs its bases' stages (work quadratic in the chain) without timing.
#[doc(hidden)]
pub fn applied() -> u64 {
    APPLIED.with(Cell::get)
}

/// What every transform provides. The `Transform` enum dispatches each method to the
/// variant's module.
pub trait Stage: Sized {
    /// The keyword that introduces it in the language.
    const KEYWORD: &'static str;

    /// The dims it computes (closer to memory).
    fn lower(&self) -> Vec<DimId>;

    /// The dims it reads (closer to the user).
    fn upper(&self) -> Vec<DimId>;

    /// Computes the lower dims from the upper ones.
    fn apply<D: Domain>(&self, on: &mut Lowering<'_, D>) -> Result<(), D::Error>;

    /// Computes the upper dims from the lower ones, where the transform is invertible on its
    /// valid indices; fails through [`Domain::fail`] where it is not.
    fn raise<D: Domain>(&self, on: &mut Lowering<'_, D>) -> Result<(), D::Error>;

    /// Whether distinct upper indices always give distinct lower ones.
    fn injective(&self, dims: &[Dim]) -> bool;

    /// Lowers a contiguous block through the transform; `false` when it breaks the block.
    fn runs(&self, walk: &mut Walk<'_>) -> bool;

    /// The transform as the language writes it (`xor x by k`), for messages.
    fn describe(&self, dims: &[Dim]) -> String;

    /// Its fields in declaration order, for the macro to embed as const data.
    fn fields(&self) -> Vec<(&'static str, Field<'_>)>;

    /// Checks a parsed statement of this transform, reporting every problem to `cx`.
    fn check(cx: &mut dyn Context) -> Option<Self>;

    /// Whether some upper indices lie in padding (are not valid coordinates).
    fn pads(&self) -> bool {
        false
    }
}

/// A stage between one upper and one lower dim that is its own inverse (`xor`, `swizzle`):
/// the one [`SelfInverse::flip`] computes either dim from the other, so its `apply` and
/// `raise` are [`SelfInverse::flip_from`] in the two directions.
trait SelfInverse {
    /// The value of one end given the other's.
    fn flip<D: Domain>(&self, on: &Lowering<'_, D>, value: D::Value) -> Result<D::Value, D::Error>;

    /// Sets `to` to the flip of `from`'s value.
    fn flip_from<D: Domain>(
        &self,
        on: &mut Lowering<'_, D>,
        from: DimId,
        to: DimId,
    ) -> Result<(), D::Error> {
        let value = self.flip(on, on.get(from)?)?;
        on.set(to, value)
    }
}

/// [`Stage::apply`] and [`Stage::raise`] of a [`SelfInverse`] stage from `self.upper` to
/// `self.lower` (`xor`, `swizzle`): its flip in each direction, in the stage's `impl Stage`.
macro_rules! self_inverse_stage {
    () => {
        fn apply<D: Domain>(&self, on: &mut Lowering<'_, D>) -> Result<(), D::Error> {
            self.flip_from(on, self.upper, self.lower)
        }

        fn raise<D: Domain>(&self, on: &mut Lowering<'_, D>) -> Result<(), D::Error> {
            self.flip_from(on, self.lower, self.upper)
        }
    };
}

/// The dims, fields and runs of a stage that changes `self.upper` into `self.lower` by a
/// key `self.key` that passes through (`xor`, `cyclic_shift`), in the stage's
/// `impl Stage`: it reads the target and the key, computes the target's new value, and
/// keeps a run only where the key cannot scramble it ([`Walk::keyed`]).
macro_rules! keyed_stage {
    () => {
        fn lower(&self) -> Vec<DimId> {
            vec![self.lower]
        }

        fn upper(&self) -> Vec<DimId> {
            vec![self.upper, self.key]
        }

        fn runs(&self, walk: &mut Walk<'_>) -> bool {
            walk.keyed(self.upper, self.key, self.lower)
        }

        fn fields(&self) -> Vec<(&'static str, Field<'_>)> {
            vec![
                ("lower", Field::Dim(self.lower)),
                ("upper", Field::Dim(self.upper)),
                ("key", Field::Dim(self.key)),
            ]
        }
    };
}

/// A field of a transform, as const data.
#[derive(Clone, Copy, Debug)]
pub enum Field<'a> {
    Dim(DimId),
    Dims(&'a [DimId]),
    Count(usize),
    Counts(&'a [usize]),
    Bits(&'a [u128]),
    Unsigned(u32),
    Signed(i32),
}

/// Declares the transforms: their modules, the [`Transform`] enum and its dispatch.
macro_rules! transforms {
    ($($module:ident :: $variant:ident),* $(,)?) => {
        $(pub mod $module; pub use $module::$variant;)*

        /// One transform, named after CK's: it computes its lower dims from its upper dims.
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        pub enum Transform {
            $($variant($variant),)*
        }

        /// Every transform's keyword, in the order the language documents them.
        pub const KEYWORDS: &[&str] = &[$($variant::KEYWORD),*];

        impl Transform {
            /// The keyword that introduces this transform.
            pub fn keyword(&self) -> &'static str {
                match self { $(Self::$variant(_) => $variant::KEYWORD,)* }
            }

            /// The dims this transform computes (closer to memory).
            pub fn lower(&self) -> Vec<DimId> {
                match self { $(Self::$variant(t) => t.lower(),)* }
            }

            /// The dims this transform reads (closer to the user).
            pub fn upper(&self) -> Vec<DimId> {
                match self { $(Self::$variant(t) => t.upper(),)* }
            }

            /// See [`Stage::apply`]. Counted in [`applied`].
            pub fn apply<D: Domain>(&self, on: &mut Lowering<'_, D>) -> Result<(), D::Error> {
                APPLIED.with(|applied| applied.set(applied.get() + 1));
                match self { $(Self::$variant(t) => t.apply(on),)* }
            }

            /// See [`Stage::raise`].
            pub fn raise<D: Domain>(&self, on: &mut Lowering<'_, D>) -> Result<(), D::Error> {
                match self { $(Self::$variant(t) => t.raise(on),)* }
            }

            /// See [`Stage::injective`].
            pub fn injective(&self, dims: &[Dim]) -> bool {
                match self { $(Self::$variant(t) => t.injective(dims),)* }
            }

            /// See [`Stage::runs`].
            pub fn runs(&self, walk: &mut Walk<'_>) -> bool {
                match self { $(Self::$variant(t) => t.runs(walk),)* }
            }

            /// See [`Stage::describe`].
            pub fn describe(&self, dims: &[Dim]) -> String {
                match self { $(Self::$variant(t) => t.describe(dims),)* }
            }

            /// The variant's name and its fields, for the macro to embed as const data.
            pub fn fields(&self) -> (&'static str, Vec<(&'static str, Field<'_>)>) {
                match self { $(Self::$variant(t) => (stringify!($variant), t.fields()),)* }
            }

            /// A copy of a transform of const data, field by field (a const fn cannot call
            /// `Clone`): its lists must be borrowed, as every const value's are. A layout
            /// `over` another copies its base's stages so, instead of repeating them.
            pub const fn restate(&self) -> Transform {
                match self { $(Self::$variant(t) => Self::$variant(t.restate()),)* }
            }

            /// See [`Stage::pads`].
            pub fn pads(&self) -> bool {
                match self { $(Self::$variant(t) => t.pads(),)* }
            }

            /// Checks a statement introduced by `keyword`; `None` for a keyword that names no
            /// transform, `Some(None)` when the statement has errors (reported to `cx`).
            pub fn check(keyword: &str, cx: &mut dyn Context) -> Option<Option<Transform>> {
                match keyword {
                    $($variant::KEYWORD => Some($variant::check(cx).map(Self::$variant)),)*
                    _ => None,
                }
            }
        }
    };
}

transforms! {
    unmerge::Unmerge,
    merge::Merge,
    xor::Xor,
    morton::Morton,
    embed::Embed,
    pad::Pad,
    slice::Slice,
    offset::Offset,
    freeze::Freeze,
    replicate::Replicate,
    swizzle::Swizzle,
    bits::Bits,
    cyclic_shift::CyclicShift,
    modulo::Modulo,
}

/// `dims` written as the language lists them: `y, x`.
fn names(dims: &[Dim], ids: &[DimId]) -> String {
    let names: Vec<&str> = ids.iter().map(|&d| dims[d].name.as_ref()).collect();
    names.join(", ")
}
