//! Why a surface cannot be tiled, or a buffer does not fit it.

use crate::kernel::KernelError;
use crate::picture::PictureError;
use crate::{Format, Platform};
use std::fmt;

/// Why a surface cannot be tiled, or a buffer does not fit it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TextureError {
    /// A format no surface can be made of: the reason (an empty block, an ASTC footprint
    /// the standard does not have).
    Format {
        format: Format,
        reason: &'static str,
    },
    /// A size past `usize::MAX`.
    Overflow,
    /// The platform does not tile this surface: the reason.
    Unsupported { platform: Platform, reason: String },
    /// A buffer of the wrong length (in bytes).
    Length {
        side: &'static str,
        expected: usize,
        found: usize,
    },
    /// More mip levels than the largest side has halvings (`max`: its level count).
    Mips { mips: usize, max: usize },
    /// No such layer or mip.
    Level { layer: usize, mip: usize },
    /// The allocator has no buffer of `bytes` bytes for an allocating copy.
    OutOfMemory { bytes: usize },
    /// The kernel refused a level (not expected: sizes are checked before).
    Kernel(KernelError),
    /// A picture of a level could not be drawn (too many blocks).
    Picture(PictureError),
}

impl fmt::Display for TextureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TextureError::Format { format, reason } => {
                write!(f, "format {format} makes no surface: {reason}")
            }
            TextureError::Overflow => write!(f, "the surface's size overflows usize"),
            TextureError::Unsupported { platform, reason } => {
                write!(f, "{platform} does not tile this surface: {reason}")
            }
            TextureError::Length {
                side,
                expected,
                found,
            } => write!(f, "the {side} holds {found} bytes, the surface {expected}"),
            TextureError::Mips { mips, max } => write!(
                f,
                "{mips} mip levels asked, the surface has at most {max}: one for each halving \
                 of its largest side, down to 1 pixel"
            ),
            TextureError::Level { layer, mip } => {
                write!(f, "the surface has no layer {layer}, mip {mip}")
            }
            TextureError::OutOfMemory { bytes } => {
                write!(f, "no memory for a buffer of {bytes} bytes")
            }
            TextureError::Kernel(error) => write!(f, "{error}"),
            TextureError::Picture(error) => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for TextureError {}

impl From<KernelError> for TextureError {
    fn from(error: KernelError) -> Self {
        TextureError::Kernel(error)
    }
}

/// The error for a surface `platform` does not tile.
pub(crate) fn unsupported(platform: Platform, reason: impl Into<String>) -> TextureError {
    TextureError::Unsupported {
        platform,
        reason: reason.into(),
    }
}
