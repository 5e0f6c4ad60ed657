//! Copies of 8- and 16-bit elements, which share 32-bit words. Into a layout with an inverse
//! a thread builds whole words of the output, its offsets in order; into any other, a thread
//! per coordinate sets its element's bits with atomics, since the rest of the word belongs to
//! other threads.

use super::GpuLayout;
use super::kernel::{bindings, entry, guard, holds, reads, source};

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

    /// WGSL `word_at(o)`: the word of the output whose first element is at offset `o`,
    /// every element of it found through the output's inverse `coord`: one load where an
    /// unpadded `from` keeps them all in one word, else one `vec4` load where it keeps them
    /// in one aligned `vec4` (a 2×2 Morton block of bytes), else one load each.
    fn word_at(&self, from: &GpuLayout, coord: &str) -> String {
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
        if from.is_padded() {
            let value = |i: usize| format!("value_at({coord}(o + {i}u))");
            return format!(
                "\nfn word_at(o: u32) -> u32 {{\n    return {};\n}}\n",
                join(&value)
            );
        }
        let sources: Vec<String> = (0..*per).map(|i| format!("source(o + {i}u)")).collect();
        let from_word = |i: usize| format!("((word >> shift.{}) & {mask:#x}u)", lanes[i]);
        let from_quad = |i: usize| format!("((v[lane.{0}] >> shift.{0}) & {mask:#x}u)", lanes[i]);
        let element = |i: usize| format!("element(s.{})", lanes[i]);
        format!(
            "{}
fn word_at(o: u32) -> u32 {{
    let s = vec{per}<u32>({});
    let words = s / vec{per}<u32>({per}u);
    let shift = s % vec{per}<u32>({per}u) * {bits}u;
    if (all(words == vec{per}<u32>(words.x))) {{
        let word = src[words.x / 4u][words.x % 4u];
        return {};
    }}
    if (all(words / 4u == vec{per}<u32>(words.x / 4u))) {{
        let v = src[words.x / 4u];
        let lane = words % vec{per}<u32>(4u);
        return {};
    }}
    return {};
}}
",
            source(from, coord),
            sources.join(", "),
            join(&from_word),
            join(&from_quad),
            join(&element),
        )
    }

    /// WGSL reading the source (see [`reads`]): an element is some bits of a word.
    fn reads(&self, from: &GpuLayout) -> String {
        let Packing { bits, per, mask } = self;
        let element = format!(
            "(src[s / {}u][s / {per}u % 4u] >> (s % {per}u * {bits}u)) & {mask:#x}u",
            4 * per
        );
        reads(from, &element)
    }
}

/// A copy to a layout with an inverse: whole words of the output in order, four per thread
/// (one `vec4<u32>` store) where every word is full, their elements found through the
/// inverse ([`Packing::word_at`]). Offsets that hold no element (in partial tiles, or past
/// the end of the last word) keep their contents. The body and its threads.
pub(super) fn gather(from: &GpuLayout, to: &GpuLayout) -> (String, usize) {
    let packing = Packing::of(to);
    let Packing { bits, per, mask } = packing;
    let coord = format!("{}_coord", to.prefix());
    let space = to.space();
    let mut helpers = packing.reads(from);
    helpers.push_str(&packing.word_at(from, &coord));
    let words = space.div_ceil(per);
    let (store, element, threads) = match (to.is_padded(), space % (4 * per)) {
        (false, 0) => (
            format!(
                "    let o = t * {}u;
    dst[t] = vec4<u32>(word_at(o), word_at(o + {per}u), word_at(o + {}u), word_at(o + {}u));
",
                4 * per,
                2 * per,
                3 * per
            ),
            "vec4<u32>",
            words / 4,
        ),
        (false, _) if space.is_multiple_of(per) => {
            (format!("    dst[t] = word_at(t * {per}u);\n"), "u32", words)
        }
        _ => {
            helpers.push_str(&holds(to, &coord, Some(space)));
            let store = format!(
                "    let o = t * {per}u;
    var word = 0u;
    var kept = 0u;
    for (var i = 0u; i < {per}u; i++) {{
        if (holds(o + i)) {{
            word |= value_at({coord}(o + i)) << (i * {bits}u);
        }} else {{
            kept |= {mask:#x}u << (i * {bits}u);
        }}
    }}
    if (kept != 0u) {{
        word |= dst[t] & kept;
    }}
    dst[t] = word;
"
            );
            (store, "u32", words)
        }
    };
    let text = format!(
        "{}{helpers}\n{}{store}}}\n",
        bindings("vec4<u32>", element),
        entry(threads as u64)
    );
    (text, threads)
}

/// A copy to an injective layout without an inverse: a thread per coordinate (row-major
/// through `rows`), skipping `to`'s padding, clearing and setting its element's bits of a
/// word with two atomics (other threads own the other bits). The body and its threads.
pub(super) fn scatter(from: &GpuLayout, to: &GpuLayout, rows: &GpuLayout) -> (String, usize) {
    let packing = Packing::of(to);
    let Packing { bits, per, mask } = packing;
    let skip = match to.is_padded() {
        true => guard(&to.call("is_valid", "c"), "return;"),
        false => String::new(),
    };
    let size = to.size();
    let text = format!(
        "{}{}\n{}    let c = {}_coord(t);
{skip}    let o = {};
    let shift = o % {per}u * {bits}u;
    atomicAnd(&dst[o / {per}u], ~({mask:#x}u << shift));
    atomicOr(&dst[o / {per}u], value_at(c) << shift);
}}
",
        bindings("vec4<u32>", "atomic<u32>"),
        packing.reads(from),
        entry(size as u64),
        rows.prefix(),
        to.call("offset", "c")
    );
    (text, size)
}
