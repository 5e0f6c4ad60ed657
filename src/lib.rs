// The README is the crate's front page. Its links lead to docs.rs and to the repository's
// files; these definitions come first, and Markdown takes a label's first definition, so
// that in the API docs (a local `cargo doc` as on docs.rs) the guide's links lead to this
// crate's own pages, and the files' links to the files of the published crate.
#![doc = "[guide]: crate::guide"]
#![doc = "[reference]: crate::layout"]
#![doc = "[tour]: crate::guide::tour"]
#![doc = "[kernels]: crate::guide::kernels"]
#![doc = "[textures]: crate::guide::textures"]
#![doc = "[traversals]: crate::guide::traversals"]
#![doc = "[analysis]: crate::guide::analysis"]
#![doc = "[threads]: crate::guide::threads"]
#![doc = "[gpu]: crate::guide::gpu"]
#![doc = "[cli]: crate::guide::cli"]
#![doc = "[checks]: crate::guide::checks"]
#![doc = "[cookbook]: crate::guide::cookbook"]
#![doc = "[docs/semantics.md]: https://docs.rs/crate/swizzle-layout/latest/source/docs/semantics.md"]
#![doc = "[BENCHMARKS.md]: https://docs.rs/crate/swizzle-layout/latest/source/BENCHMARKS.md"]
#![doc = "[CONTRIBUTING.md]: https://docs.rs/crate/swizzle-layout/latest/source/CONTRIBUTING.md"]
#![doc = "[ARCHITECTURE.md]: https://docs.rs/crate/swizzle-layout/latest/source/ARCHITECTURE.md"]
#![doc = "[CHANGELOG.md]: https://docs.rs/crate/swizzle-layout/latest/source/CHANGELOG.md"]
// The playground is not part of the published crate: the section that builds it.
#![doc = "[playground/README.md]: #the-demo"]
#![doc = include_str!("../README.md")]

// The crate's own `layout!` blocks name it `::swizzle`, as users' do.
extern crate self as swizzle;

// The API is curated here, one home per concept: the macro, the traits its types implement,
// and one module per subject. The crates behind it (`swizzle-core`, the IR and the
// compile-time work; `swizzle-runtime`, the run-time services) keep more public items for
// each other, for the macro's front end and the command line, which are not the user's.

pub use swizzle_core::CoordError;
pub use swizzle_macros::layout;
pub use swizzle_runtime::{Bijective, ExtentError, Indexing, Layout, RowMajor, Traversal};

pub use swizzle_runtime::batch;
pub use swizzle_runtime::batch::offsets;

#[cfg(feature = "wgsl")]
pub mod gemm;
#[cfg(feature = "wgsl")]
pub use swizzle_runtime::gpu;
pub use swizzle_runtime::kernel;
#[cfg(feature = "wgsl")]
pub use swizzle_runtime::wgsl;
pub mod guide;
#[doc(inline)]
pub use swizzle_texture as texture;

/// Tegra X1 block-linear textures: the Switch platform's single-image functions, under
/// their old path.
#[deprecated(
    since = "0.2.0",
    note = "the Switch is a texture platform: use `swizzle::texture::switch::{swizzle, deswizzle, swizzled_size}`, or a `Surface` of `Platform::SWITCH`"
)]
pub mod tegra {
    pub use swizzle_texture::switch::{
        deswizzle, deswizzle_with, swizzle, swizzle_with, swizzled_size,
    };
}

/// The layout IR: a layout's checked transform pipeline (its `DESCRIPTOR`), which the
/// reference interpreter runs ([`ir::Descriptor::offset`]) and the analyses and pictures read.
pub mod ir {
    pub use swizzle_core::ir::{
        Descriptor, Dim, DimId, GridDim, List, Memory, Transform, coordinates, list,
        row_major_strides, text,
    };
}

/// The transforms of a pipeline, one struct per [`ir::Transform`] variant, to read a
/// descriptor's stages or write one by hand.
pub mod transform {
    pub use swizzle_core::ir::transform::{
        Bits, CyclicShift, Embed, Freeze, Merge, Modulo, Morton, Offset, Pad, Replicate, Slice,
        Swizzle, Unmerge, Xor,
    };
}

/// What a layout does to memory accesses: bank conflicts, coalescing, vector widths and
/// locality, for the access patterns that `access` items build.
pub mod analysis {
    pub use swizzle_core::analysis::transactions::transactions_of;
    pub use swizzle_core::analysis::{
        Access, AccessError, BankConflict, BankReport, Banks, Coalescing, LaneExpr, Locality, Op,
        Touch, Transactions, bank_conflicts, bank_of, locality, transactions, vector_width,
    };

    /// The bank analysis under its old path.
    #[deprecated(
        since = "0.2.0",
        note = "one path per item: use `swizzle::analysis::{Banks, bank_conflicts, …}`"
    )]
    pub mod banks {
        pub use swizzle_core::analysis::banks::{
            BankConflict, BankReport, Banks, bank_conflicts, bank_of,
        };
    }
}

/// Pictures of layouts: text grids of offsets, banks and threads, and SVG.
pub mod picture {
    #[allow(deprecated)]
    pub use swizzle_core::picture::grid;
    pub use swizzle_core::picture::{
        Cells, Coloring, Geometry, Path, PictureError, Stop, bank_map, cells_map, offset_map, svg,
        svg_with_path, thread_grid, thread_svg, tile_svg,
    };
}

/// Space-filling curves: what `traversal` items are, and the accesses they visit.
pub mod sfc {
    pub use swizzle_core::plans::sfc::{Sfc, Visit};
}

/// Orders of workgroups over a grid of tiles (`raster` items).
pub mod raster {
    pub use swizzle_core::plans::raster::{MAX_GROUP, Raster};
}

/// Thread-value layouts: which thread holds which element of a tile.
pub mod threads {
    pub use swizzle_core::plans::threads::{Coverage, MAX_WORKGROUP_THREADS, Slot, ThreadValues};
}

/// Tiled copies between an image and workgroup memory (`tiled copy` items): their errors.
pub mod tiled_copy {
    pub use swizzle_core::plans::tiled_copy::{CopyError, MAX_VECTOR_BYTES, Part};
}

/// Matrix-multiply fragments: which lane reads which element.
pub mod fragment {
    pub use swizzle_core::plans::fragment::{Fragment, Operand, Read};
}

#[doc(hidden)]
pub use swizzle_runtime::__private;
