//! What the copy kernels share: a kernel's plan before it meets a device, the entry point of
//! the one-dimensional kernels, the bindings and the WGSL that reads a copy's source. The
//! kernel front ([`super::kernel`]) and the specialised copies (narrow, permuted, staged)
//! import it, not each other.

use crate::gpu::GpuLayout;
use swizzle_core::emit::wgsl::expr::{Expr, call, name, u};
use swizzle_core::emit::wgsl::module::{
    Access, Block, Builtin, Entry, Function, Module, array, param,
};

/// Threads per workgroup of the one-dimensional kernels.
pub(in crate::gpu) const GROUP: u32 = 256;

/// The entry point of a one-dimensional kernel of `threads` threads, and its body up to
/// the thread index `t`, which returns at or past `threads` (the grid is two-dimensional
/// past 65535 workgroups).
pub(in crate::gpu) fn entry(threads: u64) -> (Entry, Block) {
    let entry = Entry::new(GROUP)
        .builtin(Builtin::WorkgroupId, "group")
        .builtin(Builtin::NumWorkgroups, "groups")
        .builtin(Builtin::LocalInvocationIndex, "lane");
    let (group, groups) = (name("group"), name("groups"));
    let flat = group.clone().field("y") * groups.field("x") + group.field("x");
    let t = flat * u(GROUP as usize) + name("lane");
    let mut body = Block::new();
    body.let_("t", t)
        .if_(name("t").ge(u(threads as usize)), |past| {
            past.line("return;");
        });
    (entry, body)
}

/// A copy kernel before it meets a device: its WGSL, its work (one-dimensional threads or a
/// grid of workgroups), its buffers' lengths and bits per element. Built without a device,
/// so that the tests can run its WGSL on the CPU evaluator.
#[derive(Debug)]
pub(in crate::gpu) struct Plan {
    pub(in crate::gpu) wgsl: String,
    pub(in crate::gpu) work: Work,
    /// Elements of the input and the output buffer.
    pub(in crate::gpu) lengths: [usize; 2],
    pub(in crate::gpu) bits: usize,
}

/// What a [`Plan`] runs over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::gpu) enum Work {
    /// One-dimensional threads, numbered as [`entry`] numbers them.
    Threads(u64),
    /// Workgroups `[x, y]`.
    Groups([usize; 2]),
}

/// Binds the input `src` (an array of `source`) and the output `dst` (of `destination`).
pub(super) fn bindings(module: &mut Module, source: &str, destination: &str) {
    module
        .storage("src", Access::Read, array(source, None))
        .storage("dst", Access::ReadWrite, array(destination, None));
}

/// WGSL reading the source of a copy: `element(s)`, the element at offset `s` of `src` (bound
/// as `vec4<u32>`s, so that a kernel can also load four words at once), which returns
/// `element`, and `value_at(c)`, the element at coordinate `c`, zero in `from`'s padding.
pub(super) fn reads(module: &mut Module, from: &GpuLayout, element: Expr) {
    let rank = from.word_shape().len();
    let mut element_at = Function::new("element", ["s: u32"]).returns("u32");
    element_at.body.ret(element);
    let coord = param("c", array("u32", Some(rank)));
    let mut value_at = Function::new("value_at", [coord]).returns("u32");
    if from.is_padded() {
        value_at
            .body
            .guard(from.call("is_valid", "c"), "return 0u;");
    }
    value_at
        .body
        .ret(call("element", [from.call("offset", "c")]));
    module.function(&element_at).function(&value_at);
}

/// `base + k`, or `base` where `k` is 0: the `k`-th of a run of offsets from `base`.
pub(super) fn plus(base: &Expr, k: usize) -> Expr {
    match k {
        0 => base.clone(),
        k => base.clone() + u(k),
    }
}

/// The word of narrow `elements` of `bits` bits each, the first in the low bits:
/// `e0 | (e1 << 8u) | …` (`0u` of none).
pub(super) fn word(elements: impl IntoIterator<Item = Expr>, bits: usize) -> Expr {
    let shifted = elements
        .into_iter()
        .enumerate()
        .map(|(i, element)| match i {
            0 => element,
            i => element << u(i * bits),
        });
    shifted
        .reduce(|word, element| word | element)
        .unwrap_or_else(|| u(0))
}

/// `value_at(coord)`: the source's element at the coordinate array `coord` ([`reads`]).
pub(super) fn value_at(coord: Expr) -> Expr {
    call("value_at", [coord])
}

/// WGSL `source(o)`: the offset in `from` of the coordinate at offset `o` of the output `to`,
/// found through its inverse.
pub(super) fn source(from: &GpuLayout, to: &GpuLayout) -> Function {
    let mut source = Function::new("source", ["o: u32"]).returns("u32");
    source
        .body
        .let_("c", to.coord_at(name("o")))
        .ret(from.call("offset", "c"));
    source
}

/// WGSL `holds(o)`: whether offset `o` of `to` holds an element, its coordinate found
/// through its inverse: below `space` where given, and valid where `to` is padded.
pub(super) fn holds(to: &GpuLayout, space: Option<usize>) -> Function {
    let mut holds = Function::new("holds", ["o: u32"])
        .returns("bool")
        .comment("Whether offset `o` holds an element.");
    if let Some(space) = space {
        holds.body.if_(!name("o").lt(u(space)), |past| {
            past.line("return false;");
        });
    }
    match to.is_padded() {
        true => holds
            .body
            .let_("c", to.coord_at(name("o")))
            .ret(to.call("is_valid", "c")),
        false => holds.body.ret("true"),
    };
    holds
}
