//! Why a GPU operation failed: one typed error for the whole backend.

use super::cooperative::Operands;
use std::borrow::Cow;
use std::fmt;

/// Everything that can go wrong between a layout and a result read back from the GPU.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum GpuError {
    /// No adapter on any enabled backend (no Vulkan driver, not even lavapipe; GL is
    /// tried only when `WGPU_BACKEND` names it).
    NoAdapter { backends: String },
    /// wgpu panicked while `doing` something (some drivers' failure mode), with its
    /// message: the panic was caught, the device is not usable.
    Backend {
        doing: &'static str,
        message: String,
    },
    /// The adapter refused a device with its own limits.
    RequestDevice(String),
    /// A buffer of the wrong length for the kernel it was given to.
    Length {
        buffer: &'static str,
        expected: usize,
        actual: usize,
    },
    /// More bytes (or elements, or workgroups) than the device allows.
    TooLarge {
        what: String,
        value: u64,
        limit: u64,
    },
    /// Elements of one width given where a kernel or copy needs another, in bits.
    Element { expected: usize, actual: usize },
    /// GEMM operands of one type given to a kernel built for another of the same width
    /// (f16 buffers to a bf16 kernel).
    Operands {
        expected: Operands,
        actual: Operands,
    },
    /// Two layouts (or a layout and an image) of different shapes.
    Shape { from: Vec<usize>, to: Vec<usize> },
    /// A layout that no GPU kernel here can use, and why.
    Unsupported { layout: String, why: Unsupported },
    /// A shader failed validation: naga's report, with the offending WGSL line.
    Shader(String),
    /// wgpu reported an error (validation, out of memory, internal).
    Wgpu(String),
    /// The device was lost (driver reset, GPU removed).
    DeviceLost(String),
    /// Timing was asked of an adapter without timestamp queries.
    NoTimestamps,
    /// A kernel needs an optional feature this adapter lacks (`SHADER_F16` for f16
    /// operands).
    MissingFeature {
        feature: &'static str,
        for_what: &'static str,
    },
}

impl fmt::Display for GpuError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoAdapter { backends } => write!(
                f,
                "no GPU adapter found on backends {backends}: install a Vulkan driver \
                 (Debian's mesa-vulkan-drivers gives the lavapipe software rasteriser), or \
                 set WGPU_BACKEND=gl to use OpenGL, one thread at a time"
            ),
            Self::Backend { doing, message } => {
                write!(f, "wgpu failed while {doing}: {message}")
            }
            Self::RequestDevice(why) => write!(f, "the adapter refused a device: {why}"),
            Self::Length {
                buffer,
                expected,
                actual,
            } => write!(
                f,
                "the {buffer} buffer holds {actual} elements but this kernel needs {expected}"
            ),
            Self::TooLarge { what, value, limit } => {
                write!(f, "{what} is {value}, over this device's limit of {limit}")
            }
            Self::Element { expected, actual } => write!(
                f,
                "{actual}-bit elements where {expected}-bit ones are needed: give a kernel \
                 buffers of its element type, and build it from layouts `with_element` of \
                 one type"
            ),
            Self::Operands { expected, actual } => write!(
                f,
                "{} operands where the kernel was built for {}: give it buffers of the type its \
                 `Gemm::operands` names",
                actual.name(),
                expected.name()
            ),
            Self::Shape { from, to } => write!(
                f,
                "shapes differ: {from:?} against {to:?}; both sides need the same shape"
            ),
            Self::Unsupported { layout, why } => write!(f, "layout `{layout}`: {why}"),
            Self::Shader(report) => write!(f, "the WGSL does not validate:\n{report}"),
            Self::Wgpu(message) => write!(f, "wgpu: {message}"),
            Self::DeviceLost(why) => write!(f, "the GPU device was lost: {why}"),
            Self::MissingFeature { feature, for_what } => write!(
                f,
                "{for_what} need the adapter feature {feature}, which this adapter lacks \
                 (`Gpu::has_f16` says whether it has 16-bit floats)"
            ),
            Self::NoTimestamps => {
                write!(
                    f,
                    "this adapter has no timestamp queries, so kernels cannot be timed"
                )
            }
        }
    }
}

impl std::error::Error for GpuError {}

impl GpuError {
    /// The error of `layout`, which no kernel here can use, for `why`.
    pub(crate) fn unsupported(layout: impl fmt::Display, why: impl Into<Unsupported>) -> Self {
        GpuError::Unsupported {
            layout: layout.to_string(),
            why: why.into(),
        }
    }
}

/// Why a layout cannot serve a kernel: the reason of [`GpuError::Unsupported`], to match
/// on; its `Display` says what to change.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Unsupported {
    /// A tile of `rank` coordinates where the kernel's tiles are matrices (a GEMM's and a
    /// transpose's).
    Rank { rank: usize },
    /// A layout over `shape` (a thread-value layout's tile, or a stage) where the kernel
    /// needs one over `expected`.
    Shape {
        shape: Vec<usize>,
        expected: Vec<usize>,
    },
    /// A thread-value layout of `threads` threads beside others of `expected`: one
    /// workgroup runs them all.
    Threads { threads: usize, expected: usize },
    /// B's tile has `b` rows of k where A's tile has `a` columns.
    Depth { a: usize, b: usize },
    /// A length of the tile (`what`) that is not a multiple of `of`.
    NotMultiple {
        what: &'static str,
        len: usize,
        of: usize,
    },
    /// A tile whose element `at` is not at `row · pitch + column`: the kernel reads rows
    /// of consecutive elements at one pitch.
    Rows { at: [usize; 2], pitch: usize },
    /// A number of the layouts (`what`) that is `value`, outside `range`.
    Range {
        what: &'static str,
        value: usize,
        range: std::ops::RangeInclusive<usize>,
    },
    /// A thread-value layout whose elements do not fold into expressions of the thread
    /// small enough to unroll.
    Unroll,
    /// A thread's `values` of a GEMM's fragments lie on `rows` rows and `columns` columns
    /// but are not every element where those cross.
    Fragment {
        values: usize,
        rows: usize,
        columns: usize,
    },
    /// The workgroup order cannot be generated, and why.
    Order(String),
    /// The layout's WGSL cannot be generated, and why.
    Wgsl(String),
    /// Any other reason, in words.
    Other(Cow<'static, str>),
}

impl From<&'static str> for Unsupported {
    fn from(why: &'static str) -> Self {
        Unsupported::Other(Cow::Borrowed(why))
    }
}

impl From<String> for Unsupported {
    fn from(why: String) -> Self {
        Unsupported::Other(Cow::Owned(why))
    }
}

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Rank { rank } => write!(
                f,
                "has {rank} coordinates where the kernel's tiles have two: give a matrix"
            ),
            Self::Shape { shape, expected } => {
                write!(f, "is over {shape:?}, but the kernel needs {expected:?}")
            }
            Self::Threads { threads, expected } => write!(
                f,
                "has {threads} threads but the others have {expected}: one workgroup runs \
                 them all"
            ),
            Self::Depth { a, b } => write!(f, "has {b} rows of k but A's tile has {a}"),
            Self::NotMultiple { what, len, of } => {
                write!(f, "{what} = {len} is not a multiple of {of}")
            }
            Self::Rows { at, pitch } => write!(
                f,
                "{at:?} is not at row · {pitch} + column: the kernel reads rows of \
                 consecutive elements at one pitch"
            ),
            Self::Range { what, value, range } => write!(
                f,
                "{what} is {value}: give {} to {}",
                range.start(),
                range.end()
            ),
            Self::Unroll => f.write_str(
                "its elements do not fold into expressions of the thread small enough to \
                 unroll",
            ),
            Self::Fragment {
                values,
                rows,
                columns,
            } => write!(
                f,
                "a thread's {values} values lie on {rows} rows and {columns} columns: a \
                 fragment holds every element where its rows and columns cross"
            ),
            Self::Order(why) => write!(f, "its workgroup order: {why}"),
            Self::Wgsl(why) => write!(f, "its WGSL: {why}"),
            Self::Other(why) => f.write_str(why),
        }
    }
}
