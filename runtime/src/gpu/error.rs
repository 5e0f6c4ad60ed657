//! Why a GPU operation failed: one typed error for the whole backend.

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
    /// Two layouts (or a layout and an image) of different shapes.
    Shape { from: Vec<usize>, to: Vec<usize> },
    /// A layout that no GPU kernel here can use, and why.
    Unsupported { layout: String, why: String },
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
