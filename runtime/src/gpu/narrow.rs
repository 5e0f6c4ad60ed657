//! Copies of 8- and 16-bit elements, which share 32-bit words. Into a layout with an inverse
//! a thread builds whole words of the output, its offsets in order; into any other, a thread
//! per coordinate sets its element's bits with atomics, since the rest of the word belongs to
//! other threads.

use super::GpuLayout;
use super::kernel::{entry, guard};

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

    /// WGSL reading the source: `element(s)`, the element at offset `s` of `src`, and
    /// `value_at(c)`, the element at coordinate `c`, zero in `from`'s padding.
    fn reads(&self, from: &GpuLayout) -> String {
        let Packing { bits, per, mask } = self;
        let rank = from.shape().len();
        let valid = match from.is_padded() {
            true => guard(&from.call("is_valid", "c"), "return 0u;"),
            false => String::new(),
        };
        format!(
            "fn element(s: u32) -> u32 {{
    return (src[s / {per}u] >> (s % {per}u * {bits}u)) & {mask:#x}u;
}}

fn value_at(c: array<u32, {rank}>) -> u32 {{
{valid}    return element({});
}}
",
            from.call("offset", "c")
        )
    }
}

/// A copy to a layout with an inverse: a thread per word of the output, its elements found
/// through the inverse. Offsets that hold no element (in partial tiles, or past the end of
/// the last word) keep their contents. The body and its threads.
pub(super) fn gather(from: &GpuLayout, to: &GpuLayout) -> (String, usize) {
    let packing = Packing::of(to);
    let Packing { bits, per, mask } = packing;
    let coord = format!("{}_coord", to.prefix());
    let space = to.space();
    let mut helpers = packing.reads(from);
    let partial = to.is_padded() || !space.is_multiple_of(per);
    let store = match partial {
        false => format!(
            "    var word = 0u;
    for (var i = 0u; i < {per}u; i++) {{
        word |= value_at({coord}(o + i)) << (i * {bits}u);
    }}
"
        ),
        true => {
            let valid = match to.is_padded() {
                true => format!(
                    "    let c = {coord}(o);\n    return {};\n",
                    to.call("is_valid", "c")
                ),
                false => "    return true;\n".to_owned(),
            };
            helpers.push_str(&format!(
                "
/// Whether offset `o` holds an element.
fn holds(o: u32) -> bool {{
    if (o >= {space}u) {{
        return false;
    }}
{valid}}}
"
            ));
            format!(
                "    var word = 0u;
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
"
            )
        }
    };
    let threads = space.div_ceil(per);
    let text = format!(
        "{}{helpers}\n{}    let o = t * {per}u;\n{store}    dst[t] = word;\n}}\n",
        bindings("u32"),
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
        bindings("atomic<u32>"),
        packing.reads(from),
        entry(size as u64),
        rows.prefix(),
        to.call("offset", "c")
    );
    (text, size)
}

/// The input (`src`, words) and output (`dst`, `destination`s) bindings.
fn bindings(destination: &str) -> String {
    format!(
        "@group(0) @binding(0) var<storage, read> src: array<u32>;
@group(0) @binding(1) var<storage, read_write> dst: array<{destination}>;

"
    )
}
