//! Copies of 8- and 16-bit elements, which share 32-bit words. Into a layout with an inverse
//! a thread builds whole words of the output, its offsets in order; into any other, a thread
//! per coordinate sets its element's bits with atomics, since the rest of the word belongs to
//! other threads.

use super::plan::{bindings, entry, holds, plus, reads, source, value_at, word};
use crate::gpu::GpuLayout;
use swizzle_core::emit::wgsl::expr::{Expr, call, hex, name, u};
use swizzle_core::emit::wgsl::module::{Function, Module, vector};

/// How elements of `bits` bits lie in a word: `per` of them, the first in the low bits.
struct Packing {
    bits: usize,
    per: usize,
    mask: u64,
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

    /// The word whose `i`-th element is `element(i)`.
    fn word(&self, element: impl Fn(usize) -> Expr) -> Expr {
        word((0..self.per).map(element), self.bits)
    }

    /// The element of `self.bits` bits at `shift` of `word`.
    fn element(&self, word: Expr, shift: Expr) -> Expr {
        (word >> shift) & hex(self.mask)
    }

    /// WGSL `word_at(o)` (after `source(o)` where it needs it): the word of the output `to`
    /// whose first element is at offset `o`, every element of it found through the output's
    /// inverse: one load where an unpadded `from` keeps them all in one word, else one
    /// `vec4` load where it keeps them in one aligned `vec4` (a 2×2 Morton block of bytes),
    /// else one load each.
    fn word_at(&self, module: &mut Module, from: &GpuLayout, to: &GpuLayout) {
        let per = self.per;
        let lane = |vector: &str, i: usize| name(vector).field(["x", "y", "z", "w"][i]);
        let o = |i: usize| name("o") + u(i);
        let mut word_at = Function::new("word_at", ["o: u32"]).returns("u32");
        if from.is_padded() {
            word_at.body.ret(self.word(|i| value_at(to.coord_at(o(i)))));
            module.function(&word_at);
            return;
        }
        let words = name("words");
        let first = words.clone().field("x");
        let vector = vector("u32", per);
        let splat = |value: Expr| call(&vector, [value]);
        let from_word = |i| self.element(name("word"), lane("shift", i));
        let from_quad = |i| self.element(name("v").index(lane("lane", i)), lane("shift", i));
        let element = |i| call("element", [lane("s", i)]);
        word_at
            .body
            .let_("s", call(&vector, (0..per).map(|i| call("source", [o(i)]))))
            .let_("words", name("s") / splat(u(per)))
            .let_("shift", name("s") % splat(u(per)) * u(self.bits))
            .if_(
                call("all", [words.clone().equals(splat(first.clone()))]),
                |one| {
                    one.let_("word", "src[words.x / 4u][words.x % 4u]")
                        .ret(self.word(from_word));
                },
            )
            .if_(
                call("all", [(words.clone() / u(4)).equals(splat(first / u(4)))]),
                |quad| {
                    quad.let_("v", "src[words.x / 4u]")
                        .let_("lane", words % splat(u(4)))
                        .ret(self.word(from_quad));
                },
            )
            .ret(self.word(element));
        module.function(&source(from, to)).function(&word_at);
    }

    /// WGSL reading the source (see [`reads`]): an element is some bits of a word.
    fn reads(&self, module: &mut Module, from: &GpuLayout) {
        let Packing { bits, per, .. } = *self;
        let s = name("s");
        let word = name("src")
            .index(s.clone() / u(4 * per))
            .index(s.clone() / u(per) % u(4));
        reads(module, from, self.element(word, s % u(per) * u(bits)))
    }
}

/// A copy to a layout with an inverse: whole words of the output in order, four per thread
/// (one `vec4<u32>` store) where every word is full, their elements found through the
/// inverse ([`Packing::word_at`]). Offsets that hold no element (in partial tiles, or past
/// the end of the last word) keep their contents. The module and its threads.
pub(super) fn gather(from: &GpuLayout, to: &GpuLayout) -> (Module, usize) {
    let packing = Packing::of(to);
    let per = packing.per;
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
    packing.word_at(&mut module, from, to);
    if !whole {
        module.function(&holds(to, Some(space)));
    }
    let (t, o) = (name("t"), name("o"));
    let word_at = |offset: Expr| call("word_at", [offset]);
    // The `i`-th element's bits in its word.
    let place = |bits: Expr| bits << (name("i") * u(packing.bits));
    let (entry, mut body) = entry(threads as u64);
    match (whole, quads) {
        (true, true) => {
            let words = (0..4).map(|k| word_at(plus(&o, k * per)));
            body.let_("o", t * u(4 * per))
                .assign("dst[t]", call("vec4<u32>", words));
        }
        (true, false) => {
            body.assign("dst[t]", word_at(t * u(per)));
        }
        (false, _) => {
            body.let_("o", t * u(per))
                .var("word", "0u")
                .var("kept", "0u")
                .for_range("i", u(per), |each| {
                    each.if_else(
                        "holds(o + i)",
                        |held| {
                            held.compound("word", "|", place(value_at(to.coord_at(o + name("i")))));
                        },
                        |kept| {
                            kept.compound("kept", "|", place(hex(packing.mask)));
                        },
                    );
                })
                .if_("kept != 0u", |partial| {
                    partial.compound("word", "|", "dst[t] & kept");
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
    let (o, shift) = (name("o"), name("shift"));
    let word = name("dst").index(o.clone() / u(per)).address_of();
    let mut module = Module::new();
    bindings(&mut module, "vec4<u32>", "atomic<u32>");
    packing.reads(&mut module, from);
    let (entry, mut body) = entry(size as u64);
    body.let_("c", rows.coord_at(name("t")));
    if to.is_padded() {
        body.guard(to.call("is_valid", "c"), "return;");
    }
    let cleared = (hex(mask) << shift.clone()).complement();
    body.let_("o", to.call("offset", "c"))
        .let_("shift", o % u(per) * u(bits))
        .call(call("atomicAnd", [word.clone(), cleared]))
        .call(call("atomicOr", [word, value_at(name("c")) << shift]));
    module.entry(entry, body);
    (module, size)
}
