//! What the copy kernels share: a kernel's plan before it meets a device, the entry point of
//! the one-dimensional kernels, the bindings and the WGSL that reads a copy's source. The
//! kernel front ([`super::kernel`]) and the specialised copies (narrow, permuted, staged)
//! import it, not each other.

use crate::gpu::GpuLayout;
use swizzle_core::emit::wgsl::module::{Access, Block, Builtin, Entry, Function, Module};

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
    let mut body = Block::new();
    body.let_(
        "t",
        format_args!("(group.y * groups.x + group.x) * {GROUP}u + lane"),
    )
    .if_(format_args!("t >= {threads}u"), |past| {
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
        .storage("src", Access::Read, format_args!("array<{source}>"))
        .storage(
            "dst",
            Access::ReadWrite,
            format_args!("array<{destination}>"),
        );
}

/// WGSL reading the source of a copy: `element(s)`, the element at offset `s` of `src` (bound
/// as `vec4<u32>`s, so that a kernel can also load four words at once), which returns
/// `element`, and `value_at(c)`, the element at coordinate `c`, zero in `from`'s padding.
pub(super) fn reads(module: &mut Module, from: &GpuLayout, element: &str) {
    let rank = from.word_shape().len();
    let mut element_at = Function::new("element", ["s: u32"]).returns("u32");
    element_at.body.ret(element);
    let mut value_at = Function::new("value_at", [format!("c: array<u32, {rank}>")]).returns("u32");
    if from.is_padded() {
        value_at
            .body
            .guard(from.call("is_valid", "c"), "return 0u;");
    }
    value_at
        .body
        .ret(format_args!("element({})", from.call("offset", "c")));
    module.function(&element_at).function(&value_at);
}

/// WGSL `source(o)`: the offset in `from` of the coordinate at offset `o` of the output,
/// found through the output's inverse `coord`.
pub(super) fn source(from: &GpuLayout, coord: &str) -> Function {
    let mut source = Function::new("source", ["o: u32"]).returns("u32");
    source
        .body
        .let_("c", format_args!("{coord}(o)"))
        .ret(from.call("offset", "c"));
    source
}

/// WGSL `holds(o)`: whether offset `o` of `to` holds an element, its coordinate found
/// through the inverse `coord`: below `space` where given, and valid where `to` is padded.
pub(super) fn holds(to: &GpuLayout, coord: &str, space: Option<usize>) -> Function {
    let mut holds = Function::new("holds", ["o: u32"])
        .returns("bool")
        .comment("Whether offset `o` holds an element.");
    if let Some(space) = space {
        holds
            .body
            .guard(format_args!("(o < {space}u)"), "return false;");
    }
    match to.is_padded() {
        true => holds
            .body
            .let_("c", format_args!("{coord}(o)"))
            .ret(to.call("is_valid", "c")),
        false => holds.body.ret("true"),
    };
    holds
}
