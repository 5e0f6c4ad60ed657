//! Every path the generated code names in the `swizzle` crate, and nothing else: the
//! expander's side of the contract `swizzle::__private` keeps (serde's `__private` is the
//! model). Generated code reaches the library only through these, so that the public API
//! can change without breaking what `layout!` emits, and the contract is read in one place.
//!
//! Each function is one item of `::swizzle::__private`; a test checks that no other file
//! of the expander writes `::swizzle::`.

use proc_macro2::TokenStream;
use quote::quote;

/// Declares one function per item of `__private`: `fn name = Item;` returns
/// `::swizzle::__private::Item`.
macro_rules! paths {
    ($($(#[doc = $doc:literal])+ fn $name:ident = $($segment:ident)::+;)*) => {
        $(
            $(#[doc = $doc])+
            pub fn $name() -> TokenStream {
                quote!(::swizzle::__private::$($segment)::+)
            }
        )*
    };
}

paths! {
    /// The trait of every layout: shape, space, offsets.
    fn layout = Layout;
    /// The trait of layouts that are bijections onto their space.
    fn bijective = Bijective;
    /// The trait of layouts with run-time extents (and of fixed ones).
    fn indexing = Indexing;
    /// The trait of `traversal` items.
    fn traversal = Traversal;
    /// The error of a tiled layout's `new` with extents it cannot hold.
    fn extent_error = ExtentError;

    /// A layout's IR, the type of its `DESCRIPTOR`.
    fn descriptor = descriptor::Descriptor;
    /// The module a descriptor's const expression globs: the IR's types, every transform's
    /// struct, `list` and `text`.
    fn descriptor_items = descriptor;
    /// `&'static [T]` as the IR's list, in const items.
    fn list = list;
    /// Tiles × tile space of a tiled layout, `None` past `usize::MAX`.
    fn grid_space = grid_space;

    /// A traversal's curve as data.
    fn sfc = Sfc;
    /// One access of a traversal, as its `for_each` hands it over.
    fn visit = Visit;
    /// A raster's order of workgroups.
    fn raster = Raster;
    /// A thread-value layout as the analyses and the GPU backend take it.
    fn thread_values = ThreadValues;

    /// An access pattern, built by an `access` item's `access()`.
    fn access = Access;
    /// A lane expression of an access pattern; its variants are globbed.
    fn lane_expr = LaneExpr;
    /// A binary operator of a lane expression; its variants are globbed.
    fn op = Op;
    /// The shared-memory banks an access is analysed against.
    fn banks = Banks;

    /// The error of a tiled copy's `run`.
    fn copy_error = CopyError;
    /// Checks what one run of a tiled copy is given.
    fn check_run = check_run;

    /// Element types a kernel copies.
    fn element = Element;
    /// The error of a kernel's copy.
    fn kernel_error = KernelError;
    /// How a copy runs: level and threads.
    fn options = Options;
    /// Which code copies a kernel's full tiles, and why.
    fn route = Route;
    /// A kernel's plan of one tile.
    fn plan_type = Plan;
    /// One side of a copy.
    fn side = Side;
    /// How one side of a copy stores its coordinates.
    fn frame = Frame;
    /// A strided image, the other side of pack and unpack.
    fn view = View;
    /// Plans the copy of one tile (the `kernel` item's `plan()`).
    fn plan = plan;
    /// Plans the copy of a tile as the sub-tiles it stacks (a `kernel` item's
    /// `stacked_plan()`).
    fn stacked = stacked;
    /// What a side of a plan stores: a layout or a row-major array.
    fn storage = Storage;
    /// What a kernel's deprecated `PLAN` constant holds: its `plan()`, behind `Deref`.
    fn plan_constant = PlanConstant;
    /// What `layout!` generated for a kernel's full tiles of one element type.
    fn generated_code = GeneratedCode;
    /// The copy with a kernel's generated code.
    fn copy_generated = copy_generated;
    /// The copy of byte buffers whose element size is known at run time, with code.
    fn copy_bytes_with = copy_bytes_with;
    /// A kernel's generated code, for each element size of a byte copy.
    fn code_of = CodeOf;

    /// The operations of generated SIMD rows: level tokens, `Rows`, `TileRow`, `rows` and
    /// `rows_mut`.
    fn simd = simd;
}

#[cfg(test)]
mod tests {
    /// No other file of the expander (the item kinds' folders and the printer) names the
    /// library: every path goes through this one.
    #[test]
    fn only_this_file_names_the_library() {
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut pending = vec![src.join("items"), src.join("print")];
        let mut checked = 0;
        while let Some(dir) = pending.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    pending.push(path);
                    continue;
                }
                if path.file_name().unwrap() == "paths.rs" {
                    continue;
                }
                let source = std::fs::read_to_string(&path).unwrap();
                let code: String = source
                    .lines()
                    .filter(|line| !line.trim_start().starts_with("//"))
                    .collect();
                assert!(
                    !code.contains("::swizzle::") && !code.contains(":: swizzle ::"),
                    "{} names `::swizzle::` itself: add the item to `__private` and to paths.rs",
                    path.display()
                );
                checked += 1;
            }
        }
        assert!(
            checked >= 20,
            "only {checked} expander files found in {}",
            src.display()
        );
    }
}
