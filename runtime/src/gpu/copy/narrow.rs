//! Copies of 8- and 16-bit elements, which share 32-bit words. Into a layout with an inverse
//! a thread builds whole words of the output, its offsets in order; into any other, a thread
//! per coordinate sets its element's bits with atomics, since the rest of the word belongs to
//! other threads.

use super::plan::{bindings, entry, holds, reads, source};
use crate::gpu::GpuLayout;
use swizzle_core::emit::wgsl::module::{Function, Module};

/// How elements of `bits` bits lie in a word: `per` of them, the first in the low bits.
struct Packing {
    bits: usize,
    per: usize,
    mask: u32,
}

impl Packing {
    fn of(layout: &GpuLayout) -> Packing {
        let bits = layout.element_bits();
        Packing {
            bits,
            per: 32 / bits,
            mask: (1 << bits) - 1,
        }
    }

    /// WGSL `word_at(o)` (after `source(o)` where it needs it): the word of the output
    /// whose first element is at offset `o`, every element of it found through the output's
    /// inverse `coord`: one load where an unpadded `from` keeps them all in one word, else one
    /// `vec4` load where it keeps them in one aligned `vec4` (a 2×2 Morton block of bytes),
    /// else one load each.
    fn word_at(&self, module: &mut Module, from: &GpuLayout, coord: &str) {
        let Packing { bits, per, mask } = self;
        let lanes = ["x", "y", "z", "w"];
        let join = |part: &dyn Fn(usize) -> String| {
            (0..*per)
                .map(|i| match i {
                    0 => part(i),
                    _ => format!("({} << {}u)", part(i), i * bits),
                })
                .collect::<Vec<_>>()
                .join(" | ")
        };
        let mut word_at = Function::new("word_at", ["o: u32"]).returns("u32");
        if from.is_padded() {
            let value = |i: usize| format!("value_at({coord}(o + {i}u))");
            word_at.body.ret(join(&value));
            module.function(&word_at);
            return;
        }
        let sources: Vec<String> = (0..*per).map(|i| format!("source(o + {i}u)")).collect();
        let from_word = |i: usize| format!("((word >> shift.{}) & {mask:#x}u)", lanes[i]);
        let from_quad = |i: usize| format!("((v[lane.{0}] >> shift.{0}) & {mask:#x}u)", lanes[i]);
        let element = |i: usize| format!("element(s.{})", lanes[i]);
        let vector = format!("vec{per}<u32>");
        word_at
            .body
            .let_("s", format_args!("{vector}({})", sources.join(", ")))
            .let_("words", format_args!("s / {vector}({per}u)"))
            .let_("shift", format_args!("s % {vector}({per}u) * {bits}u"))
            .if_(format_args!("all(words == {vector}(words.x))"), |one| {
                one.let_("word", "src[words.x / 4u][words.x % 4u]")
                    .ret(join(&from_word));
            })
            .if_(
                format_args!("all(words / 4u == {vector}(words.x / 4u))"),
                |quad| {
                    quad.let_("v", "src[words.x / 4u]")
                        .let_("lane", format_args!("words % {vector}(4u)"))
                        .ret(join(&from_quad));
                },
            )
            .ret(join(&element));
        module.function(&source(from, coord)).function(&word_at);
    }

    /// WGSL reading the source (see [`reads`]): an element is some bits of a word.
    fn reads(&self, module: &mut Module, from: &GpuLayout) {
        let Packing { bits, per, mask } = self;
        let element = format!(
            "(src[s / {}u][s / {per}u % 4u] >> (s % {per}u * {bits}u)) & {mask:#x}u",
            4 * per
        );
        reads(module, from, &element)
    }
}

/// A copy to a layout with an inverse: whole words of the output in order, four per thread
/// (one `vec4<u32>` store) where every word is full, their elements found through the
/// inverse ([`Packing::word_at`]). Offsets that hold no element (in partial tiles, or past
/// the end of the last word) keep their contents. The module and its threads.
pub(super) fn gather(from: &GpuLayout, to: &GpuLayout) -> (Module, usize) {
    let packing = Packing::of(to);
    let Packing { bits, per, mask } = packing;
    let coord = format!("{}_coord", to.prefix());
    let space = to.space();
    let words = space.div_ceil(per);
    let whole = !to.is_padded() && space.is_multiple_of(per);
    let quads = whole && space.is_multiple_of(4 * per);
    let (element, threads) = match quads {
        true => ("vec4<u32>", words / 4),
        false => ("u32", words),
    };
    let mut module = Module::new();
    bindings(&mut module, "vec4<u32>", element);
    packing.reads(&mut module, from);
    packing.word_at(&mut module, from, &coord);
    if !whole {
        module.function(&holds(to, &coord, Some(space)));
    }
    let (entry, mut body) = entry(threads as u64);
    match (whole, quads) {
        (true, true) => {
            body.let_("o", format_args!("t * {}u", 4 * per)).assign(
                "dst[t]",
                format_args!(
                    "vec4<u32>(word_at(o), word_at(o + {per}u), word_at(o + {}u), word_at(o + {}u))",
                    2 * per,
                    3 * per
                ),
            );
        }
        (true, false) => {
            body.assign("dst[t]", format_args!("word_at(t * {per}u)"));
        }
        (false, _) => {
            body.let_("o", format_args!("t * {per}u"))
                .var("word", "0u")
                .var("kept", "0u")
                .for_(format_args!("var i = 0u; i < {per}u; i++"), |each| {
                    each.if_else(
                        "holds(o + i)",
                        |held| {
                            held.line(format_args!(
                                "word |= value_at({coord}(o + i)) << (i * {bits}u);"
                            ));
                        },
                        |kept| {
                            kept.line(format_args!("kept |= {mask:#x}u << (i * {bits}u);"));
                        },
                    );
                })
                .if_("kept != 0u", |partial| {
                    partial.line("word |= dst[t] & kept;");
                })
                .assign("dst[t]", "word");
        }
    }
    module.entry(entry, body);
    (module, threads)
}

/// A copy to an injective layout without an inverse: a thread per coordinate (row-major
/// through `rows`), skipping `to`'s padding, clearing and setting its element's bits of a
/// word with two atomics (other threads own the other bits). The module and its threads.
pub(super) fn scatter(from: &GpuLayout, to: &GpuLayout, rows: &GpuLayout) -> (Module, usize) {
    let packing = Packing::of(to);
    let Packing { bits, per, mask } = packing;
    let size = to.size();
    let mut module = Module::new();
    bindings(&mut module, "vec4<u32>", "atomic<u32>");
    packing.reads(&mut module, from);
    let (entry, mut body) = entry(size as u64);
    body.let_("c", format_args!("{}_coord(t)", rows.prefix()));
    if to.is_padded() {
        body.guard(to.call("is_valid", "c"), "return;");
    }
    body.let_("o", to.call("offset", "c"))
        .let_("shift", format_args!("o % {per}u * {bits}u"))
        .line(format_args!(
            "atomicAnd(&dst[o / {per}u], ~({mask:#x}u << shift));"
        ))
        .line(format_args!(
            "atomicOr(&dst[o / {per}u], value_at(c) << shift);"
        ));
    module.entry(entry, body);
    (module, size)
}
