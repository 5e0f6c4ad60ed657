//! Why a kernel refused a copy. Nothing is written to the destination then.

use super::Level;
use std::fmt;

/// Why a copy was rejected before anything was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KernelError {
    /// A buffer has the wrong number of elements for its extents.
    Length {
        side: &'static str,
        expected: usize,
        found: usize,
    },
    /// The two sides have different extents.
    Extents { from: Vec<usize>, to: Vec<usize> },
    /// A side has another number of coordinates than the kernel's tile.
    Rank { expected: usize, found: usize },
    /// A tiled side's grid is not the one its extents need.
    Grid {
        expected: Vec<usize>,
        found: Vec<usize>,
    },
    /// The extents need more than `usize::MAX` elements.
    Overflow { extents: Vec<usize> },
    /// A buffer is shorter than the [`View`](super::View) of its side reaches.
    Reach {
        side: &'static str,
        needed: usize,
        found: usize,
    },
    /// A view's order of the coordinates is not a permutation of them.
    Order { order: Vec<usize>, rank: usize },
    /// A pitched view's rows are closer than they are wide.
    Pitch { pitch: usize, width: usize },
    /// A view's strides put two coordinates on one element.
    Overlap {
        extents: Vec<usize>,
        strides: Vec<usize>,
    },
    /// A sub-view reaches outside its image.
    SubView {
        origin: Vec<usize>,
        extents: Vec<usize>,
        image: Vec<usize>,
    },
    /// Stacked tiles need a stack of at least one tile and a grid of two coordinates or
    /// more.
    Stack { stack: usize, rank: usize },
    /// A placed side's tables of starts (`Frame::Placed`) are not one per tile of the grid
    /// along each coordinate: their lengths, against the grid.
    Starts {
        grid: Vec<usize>,
        starts: Vec<usize>,
    },
    /// A byte buffer does not hold whole elements.
    Bytes {
        side: &'static str,
        len: usize,
        element_size: usize,
    },
    /// A byte buffer of [`copy_bytes`](super::copy_bytes) has the wrong length: exactly
    /// `expected` bytes (a row-major array, tiles), or at least (a view).
    ByteLength {
        side: &'static str,
        expected: usize,
        found: usize,
        exact: bool,
    },
    /// Byte buffers of an element size [`copy_bytes`](super::copy_bytes) does not copy.
    ElementSize { element_size: usize },
    /// Elements of 0 bytes (the pixels of `swizzle::tegra`), which hold nothing.
    ZeroSizedElement,
    /// The requested [`Level`] does not run on this CPU.
    Unsupported(Level),
    /// A hand-built [`Plan`](super::Plan) that is not consistent (the macro's always are).
    Plan(&'static str),
}

impl KernelError {
    /// A length error of a copy over elements of `element_size` bytes, restated in bytes
    /// (for byte-buffer entry points); any other error as it is.
    pub fn in_bytes(self, element_size: usize) -> Self {
        let bytes = |elements: usize| elements.saturating_mul(element_size);
        match self {
            KernelError::Length {
                side,
                expected,
                found,
            } => KernelError::ByteLength {
                side,
                expected: bytes(expected),
                found: bytes(found),
                exact: true,
            },
            KernelError::Reach {
                side,
                needed,
                found,
            } => KernelError::ByteLength {
                side,
                expected: bytes(needed),
                found: bytes(found),
                exact: false,
            },
            other => other,
        }
    }
}

fn shape(extents: &[usize]) -> String {
    let parts: Vec<String> = extents.iter().map(usize::to_string).collect();
    parts.join(" × ")
}

impl fmt::Display for KernelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Length {
                side,
                expected,
                found,
            } => write!(
                f,
                "the {side} has {found} elements but its layout needs {expected}: give a buffer of exactly {expected}"
            ),
            Self::Extents { from, to } => write!(
                f,
                "the source has extents {} but the destination {}: a copy needs the same extents",
                shape(from),
                shape(to)
            ),
            Self::Rank { expected, found } => write!(
                f,
                "{found} extents for a kernel over {expected} coordinates: give one extent per coordinate"
            ),
            Self::Grid { expected, found } => write!(
                f,
                "a grid of {} tiles where the extents need {}: build the layout value with the same extents",
                shape(found),
                shape(expected)
            ),
            Self::Overflow { extents } => write!(
                f,
                "extents {} need more than `usize::MAX` elements",
                shape(extents)
            ),
            Self::Reach {
                side,
                needed,
                found,
            } => write!(
                f,
                "the {side} has {found} elements but its view reaches {needed}: give a buffer of at least {needed}"
            ),
            Self::Order { order, rank } => write!(
                f,
                "order {order:?} is not a permutation of the {rank} coordinates: name each of 0..{rank} once, slowest first"
            ),
            Self::Pitch { pitch, width } => write!(
                f,
                "a row pitch of {pitch} is smaller than the row's {width} elements: rows would overlap; give a pitch of at least {width}"
            ),
            Self::Overlap { extents, strides } => write!(
                f,
                "strides {strides:?} over extents {} put two coordinates on one element: each stride must reach past the faster coordinates",
                shape(extents)
            ),
            Self::SubView {
                origin,
                extents,
                image,
            } => write!(
                f,
                "a sub-view of {} at {origin:?} reaches outside the {} image: keep origin + extent within the image along every coordinate",
                shape(extents),
                shape(image)
            ),
            Self::Stack { stack, rank } => write!(
                f,
                "stacks of {stack} tiles over a grid of {rank} coordinates: stack at least one tile, over two coordinates or more"
            ),
            Self::Starts { grid, starts } => write!(
                f,
                "tables of {} tile starts for a grid of {} tiles: give one start per tile along \
                 each coordinate",
                shape(starts),
                shape(grid)
            ),
            Self::Bytes {
                side,
                len,
                element_size,
            } => write!(
                f,
                "the {side} has {len} bytes, not a whole number of {element_size}-byte elements: give a multiple of {element_size}"
            ),
            Self::ByteLength {
                side,
                expected,
                found,
                exact,
            } => {
                let (needs, give) = match exact {
                    true => ("needs", "exactly"),
                    false => ("reaches", "at least"),
                };
                write!(
                    f,
                    "the {side} has {found} bytes but its layout {needs} {expected}: give a buffer of {give} {expected} bytes"
                )
            }
            Self::ElementSize { element_size } => write!(
                f,
                "elements of {element_size} bytes: byte buffers take elements of {:?} bytes; copy typed slices otherwise",
                super::ELEMENT_SIZES
            ),
            Self::ZeroSizedElement => {
                f.write_str("elements of 0 bytes hold nothing: give each at least one byte")
            }
            Self::Unsupported(level) => write!(f, "this CPU cannot run {level:?} code"),
            Self::Plan(why) => write!(f, "malformed plan: {why}"),
        }
    }
}

impl std::error::Error for KernelError {}
