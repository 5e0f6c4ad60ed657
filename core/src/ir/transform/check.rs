//! What a transform's check asks of the front end, and the rules several transforms share.
//!
//! A statement reaches a transform's [`Stage::check`](super::Stage::check) as positions:
//! its lower names (dims it consumes), its upper names (dims it declares, some with a written
//! length), its keys (live dims it reads) and its arguments. The front end owns the tokens;
//! the transform says what is wrong and [`Blame`]s a position, and the front end puts the
//! error on the tokens there. So a transform's rules live in its module, free of syn.

use crate::ir::DimId;

/// Where an error belongs in the statement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Blame {
    /// The keyword.
    Keyword,
    /// The `i`-th lower name.
    Lower(usize),
    /// Every lower name.
    Lowers,
    /// The length written for the `i`-th upper dim.
    UpperLength(usize),
    /// Every upper dim with its length.
    Uppers,
    /// The `i`-th key.
    Key(usize),
    /// The `i`-th argument.
    Arg(usize),
    /// Every argument (the keyword when there are none).
    Args,
    /// The upper dims and the arguments.
    UppersAndArgs,
}

/// The front end's side of checking one transform statement.
pub trait Context {
    /// The statement's keyword.
    fn keyword(&self) -> String;

    /// How many names, upper dims, keys and arguments the statement wrote.
    fn lowers(&self) -> usize;
    fn uppers(&self) -> usize;
    fn keys(&self) -> usize;
    fn args(&self) -> usize;

    /// The spelling of the `i`-th lower name, upper name or key.
    fn lower_name(&self, i: usize) -> String;
    fn upper_name(&self, i: usize) -> String;
    fn key_name(&self, i: usize) -> String;

    /// Consumes the dim named by the `i`-th lower name. Only the slowest digit of a `merge`
    /// and the dim an `unmerge` divides may be a run-time (`dyn`) dim: `allow_dynamic` says
    /// whether this one may.
    fn consume(&mut self, i: usize, allow_dynamic: bool) -> Option<DimId>;

    /// Looks up the live dim the `i`-th key names, without consuming it.
    fn key(&mut self, i: usize) -> Option<DimId>;

    /// Declares the `i`-th upper dim with the length the transform computed (`None`: an error
    /// was reported and the dim's length is unknown).
    fn declare(&mut self, i: usize, len: Option<usize>) -> DimId;

    /// The length written for the `i`-th upper dim (its evaluation errors reported).
    fn written(&mut self, i: usize) -> Written;

    /// The `i`-th argument as an integer of at least `min`; `what` names it in errors.
    fn value(&mut self, i: usize, what: &str, min: usize) -> Option<usize>;

    /// The `i`-th argument as a signed integer.
    fn signed(&mut self, i: usize) -> Option<i128>;

    /// The `i`-th argument as an XOR of bits of the upper dims (`y[4] ^ x[5]`, or `0`/`1`):
    /// each term as `(upper dim index, bit)`, and the constant. `widths` are the upper
    /// dims' widths in bits, to check the bits against.
    fn bits(&mut self, i: usize, widths: &[u32]) -> Option<(Vec<(usize, u32)>, bool)>;

    /// The length of a dim, `None` when an error made it unknown.
    fn len(&self, dim: DimId) -> Option<usize>;

    /// The name of a dim.
    fn name(&self, dim: DimId) -> String;

    /// Whether the dim's length is known only at run time.
    fn is_dynamic(&self, dim: DimId) -> bool;

    /// Records that `upper` counts tiles as `first` does: a `merge` whose slowest digit
    /// `first` is a run-time dim, or the outermost part `upper` of an `unmerge` that divides
    /// the run-time dim `first`.
    fn counts_tiles(&mut self, first: DimId, upper: DimId);

    /// Whether the statement leaves its parameters to the macro (`swizzle … (auto for …)`).
    fn is_auto(&self) -> bool;

    fn error(&mut self, blame: Blame, message: String);
}

/// The length written for an upper dim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Written {
    /// A constant length; `None` where it could not be evaluated (the error is reported).
    Len(Option<usize>),
    /// `dyn`: known only at run time.
    Dyn,
    /// No length written: the transform computes it.
    Inferred,
}

/// Declares every upper dim with its written length: `None` where it could not be
/// evaluated, is missing, or is `dyn` (which only the outermost memory dims and the part of
/// a run-time dim an `unmerge` divides may be).
pub(super) fn declare_written(cx: &mut dyn Context) -> (Vec<DimId>, Vec<Option<usize>>) {
    (0..cx.uppers())
        .map(|i| {
            let len = match cx.written(i) {
                Written::Len(len) => len,
                Written::Inferred => None,
                Written::Dyn => {
                    let name = cx.upper_name(i);
                    cx.error(
                        Blame::UpperLength(i),
                        format!(
                            "only the outermost dims of `memory`, and the outermost part of \
                             a run-time dim that `unmerge` divides, have a run-time length: \
                             give `{name}` a constant length"
                        ),
                    );
                    None
                }
            };
            (cx.declare(i, len), len)
        })
        .unzip()
}

/// Errors if a list of `count` dims is empty.
pub(super) fn nonempty(cx: &mut dyn Context, count: usize) -> Option<()> {
    if count == 0 {
        let keyword = cx.keyword();
        cx.error(
            Blame::Keyword,
            format!("`{keyword}` needs at least one dim in its list"),
        );
        return None;
    }
    Some(())
}

/// Errors if the statement declares no upper dim.
pub(super) fn nonempty_uppers(cx: &mut dyn Context) -> Option<()> {
    let count = cx.uppers();
    nonempty(cx, count)
}

/// Errors unless `len` is a power of two.
pub(super) fn power_of_two(cx: &mut dyn Context, at: Blame, len: usize, what: &str) -> Option<()> {
    if len.is_power_of_two() {
        return Some(());
    }
    let below = 1usize << len.ilog2();
    let suggestion = match len.checked_next_power_of_two() {
        Some(above) => format!("try {below} or {above}"),
        None => format!("try {below}"),
    };
    cx.error(
        at,
        format!("{what} must have a power-of-two length, found {len} ({suggestion})"),
    );
    None
}

/// Errors unless the upper dims' lengths multiply to the length of `lower`.
pub(super) fn product(cx: &mut dyn Context, lens: &[usize], lower: DimId) -> Option<()> {
    let expected = cx.len(lower)?;
    let product = lens
        .iter()
        .try_fold(1u128, |acc, &l| acc.checked_mul(l as u128));
    if product == Some(expected as u128) {
        return Some(());
    }
    let (keyword, name) = (cx.keyword(), cx.name(lower));
    let product = product.map_or("more than 2^128".into(), show);
    let message = if let [len] = lens {
        format!("`{keyword}` length {len} must equal {expected}, the length of `{name}`")
    } else {
        let lens: Vec<String> = lens.iter().map(|&l| show(l as u128)).collect();
        format!(
            "`{keyword}` lengths {} = {product} must multiply to {expected}, the length \
             of `{name}`: change them so that their product is {expected}",
            lens.join(" × ")
        )
    };
    cx.error(Blame::Uppers, message);
    None
}

/// Consumes the one lower dim and declares the one upper dim with the same length: the
/// shape of `xor`, `swizzle` and other bijections of one dim onto itself.
pub(super) fn same_length(cx: &mut dyn Context) -> (Option<DimId>, DimId, Option<usize>) {
    let lower = cx.consume(0, false);
    let len = lower.and_then(|l| cx.len(l));
    let upper = cx.declare(0, len);
    (lower, upper, len)
}

/// Declares the written upper dims, requiring one at least and every length known.
pub(super) fn written(cx: &mut dyn Context) -> Option<(Vec<DimId>, Vec<usize>)> {
    nonempty_uppers(cx)?;
    let (ids, lens) = declare_written(cx);
    Some((ids, lens.into_iter().collect::<Option<_>>()?))
}

/// Declares the written upper dims, each of a power-of-two length (`what` names them in
/// errors): their ids and lengths, and whether every length is a power of two. `None` when a
/// length is unknown (its error is recorded); every known length is checked either way.
pub(super) fn written_powers_of_two(
    cx: &mut dyn Context,
    what: &str,
) -> Option<(Vec<DimId>, Vec<usize>, bool)> {
    nonempty_uppers(cx)?;
    let (ids, lens) = declare_written(cx);
    let mut ok = true;
    for (i, len) in lens.iter().enumerate() {
        if let Some(len) = *len {
            ok &= power_of_two(cx, Blame::UpperLength(i), len, what).is_some();
        }
    }
    let lens = lens.into_iter().collect::<Option<_>>()?;
    Some((ids, lens, ok))
}

/// `target by key` (`xor`, `cyclic_shift`): consumes the target, declares its new self with
/// the same length, and looks up the key, which must be another dim (`verb` says what the
/// transform does with it). Returns the lower and upper target, its length and the key.
pub(super) fn keyed(
    cx: &mut dyn Context,
    verb: &str,
) -> (Option<DimId>, DimId, Option<usize>, Option<DimId>) {
    let (target, key) = (cx.lower_name(0), cx.key_name(0));
    let key = if target == key {
        let keyword = cx.keyword();
        cx.error(
            Blame::Key(0),
            format!(
                "`{keyword}` needs a key other than its target: `{key}` cannot {verb} itself; \
                 use another live dim as the key"
            ),
        );
        None
    } else {
        cx.key(0)
    };
    let (lower, upper, len) = same_length(cx);
    (lower, upper, len, key)
}

/// A number as messages show it: `2^40` for large powers of two.
pub fn show(value: u128) -> String {
    if value >= 1 << 32 && value.is_power_of_two() {
        format!("2^{}", value.trailing_zeros())
    } else {
        value.to_string()
    }
}
