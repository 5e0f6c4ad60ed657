//! A layout as the GPU kernels see it: its WGSL functions, shape and element space, from a
//! `layout!` type, from any descriptor, or row-major of any extents.

use super::{GpuError, Word};
use crate::Layout;
use swizzle_core::budget;
use swizzle_core::canon::{Canonical, Injectivity};
use swizzle_core::ir::{Descriptor, GridDim};
use swizzle_core::wgsl;

/// A layout's WGSL and the facts kernels need: which functions exist, shape and space.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GpuLayout {
    name: String,
    prefix: String,
    wgsl: String,
    shape: Vec<usize>,
    space: usize,
    /// Bits per element. The two words of a 64-bit element are a last coordinate of
    /// `shape` (and count in `space`), so that kernels move words; 8- and 16-bit elements
    /// are packed into words by the kernels.
    bits: usize,
    inverse: bool,
    padded: bool,
    injective: bool,
}

impl GpuLayout {
    /// The layout of a `layout!` type (a fixed-size one: see [`GpuLayout::tiled`]).
    pub fn of<L: Layout<N>, const N: usize>() -> Result<GpuLayout, GpuError> {
        GpuLayout::from_descriptor(&L::DESCRIPTOR)
    }

    /// The fixed-size layout `descriptor`, from any source (a `layout!` type's
    /// `DESCRIPTOR`, the command line's parser, or built at run time). Its WGSL functions are
    /// printed here, from the same canonical form as the macro's, with the inverse searched
    /// as hard as for a layout that says `inverse;`; the printer says which functions exist.
    pub fn from_descriptor(descriptor: &Descriptor) -> Result<GpuLayout, GpuError> {
        let name = descriptor.name.to_string();
        let unsupported = |why: &str| GpuError::Unsupported {
            layout: name.clone(),
            why: why.to_owned(),
        };
        if descriptor.is_tiled() {
            return Err(unsupported(
                "it has run-time (`dyn`) dims: give its extents to `GpuLayout::tiled`",
            ));
        }
        if descriptor.coords.is_empty() {
            return Err(unsupported(
                "a layout without coordinates has nothing to move",
            ));
        }
        let space = descriptor
            .space()
            .ok_or_else(|| unsupported("its element space overflows"))?;
        let functions = functions(descriptor)?;
        Ok(GpuLayout {
            bits: 32,
            inverse: functions.coord,
            padded: functions.is_valid,
            prefix: functions.prefix,
            wgsl: functions.text,
            shape: descriptor.shape(),
            space,
            injective: injective(descriptor),
            name,
        })
    }

    /// A dense row-major array of `extents` (last fastest): the plain image.
    pub fn row_major(extents: &[usize]) -> Result<GpuLayout, GpuError> {
        let name: Vec<String> = extents.iter().map(usize::to_string).collect();
        let name = format!("RowMajor{}", name.join("x"));
        let descriptor =
            Descriptor::row_major(&name, extents).ok_or_else(|| GpuError::Unsupported {
                layout: name,
                why: "its element space overflows `usize`".to_owned(),
            })?;
        GpuLayout::from_descriptor(&descriptor)
    }

    /// A layout with run-time (`dyn`) dims (its `DESCRIPTOR`, which describes one tile) at
    /// `extents` (one per coordinate; a coordinate without a run-time dim has its tile's
    /// length): the tile's functions, and around them, over the whole array, the tile counts
    /// folded in as constants: `<prefix>_offset`; `<prefix>_coord` when the tile is a
    /// bijection; and `<prefix>_is_valid` when a tile is partial (the cells outside the
    /// extents are padding) or the tile is padded.
    pub fn tiled(descriptor: &Descriptor, extents: &[usize]) -> Result<GpuLayout, GpuError> {
        let name = descriptor.name.to_string();
        let unsupported = |why: String| GpuError::Unsupported {
            layout: name.clone(),
            why,
        };
        if !descriptor.is_tiled() {
            return Err(unsupported(
                "it has no run-time dims: use `GpuLayout::of` or `GpuLayout::from_descriptor`"
                    .to_owned(),
            ));
        }
        let tile = descriptor.shape();
        let dynamic: Vec<bool> = (0..tile.len())
            .map(|j| descriptor.grid.iter().any(|g| g.coord == j))
            .collect();
        let fixed = (0..tile.len()).any(|j| !dynamic[j] && extents.get(j) != Some(&tile[j]));
        if extents.len() != tile.len() || fixed || extents.contains(&0) {
            return Err(GpuError::Shape {
                from: extents.to_vec(),
                to: tile,
            });
        }
        let tile_space = descriptor
            .space()
            .ok_or_else(|| unsupported("its tile's space overflows".to_owned()))?;
        let tiles: Vec<usize> = (0..tile.len())
            .map(|j| extents[j].div_ceil(tile[j]))
            .collect();
        let space = descriptor
            .grid
            .iter()
            .try_fold(tile_space, |acc, g| acc.checked_mul(tiles[g.coord]))
            .filter(|&space| space as u64 <= 1 << 32)
            .ok_or_else(|| GpuError::TooLarge {
                what: format!("the element space of `{name}` at {extents:?}"),
                // Saturating: extents of 2^40 × 2^40 have a space past every integer type.
                value: descriptor
                    .grid
                    .iter()
                    .fold(tile_space as u128, |acc, g| {
                        acc.saturating_mul(tiles[g.coord] as u128)
                    })
                    .try_into()
                    .unwrap_or(u64::MAX),
                limit: 1 << 32,
            })?;
        let prefix = wgsl::snake_case(&name);
        let tile_functions = functions(descriptor)?;
        let grid = Grid {
            prefix: &prefix,
            tile: &tile,
            tiles: &tiles,
            dynamic: &dynamic,
            grid: &descriptor.grid,
        };
        let mut wrapper = format!(
            "{}
// `{name}` at extents {extents:?}: {tiles:?} tiles of {tile_space} elements.
{}",
            tile_functions.text,
            grid.offset(tile_space)
        );
        let partial = (0..tile.len()).any(|j| !extents[j].is_multiple_of(tile[j]));
        let padded = partial || tile_functions.is_valid;
        if padded {
            wrapper.push_str(&grid.is_valid(extents, tile_functions.is_valid));
        }
        let inverse = tile_functions.coord;
        if inverse {
            wrapper.push_str(&grid.coord(tile_space));
        }
        let injective = injective(descriptor);
        Ok(GpuLayout {
            name,
            prefix,
            wgsl: wrapper,
            shape: extents.to_vec(),
            space,
            bits: 32,
            inverse,
            padded,
            injective,
        })
    }

    /// The layout's name (its Rust type name).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The prefix of its WGSL functions: `<prefix>_offset`, ….
    pub fn prefix(&self) -> &str {
        &self.prefix
    }

    /// Its WGSL functions.
    pub fn wgsl(&self) -> &str {
        &self.wgsl
    }

    /// Coordinate lengths.
    pub fn shape(&self) -> &[usize] {
        &self.shape[..self.shape.len() - usize::from(self.bits == 64)]
    }

    /// Number of coordinates.
    pub fn size(&self) -> usize {
        self.word_size() / self.words()
    }

    /// Number of elements a buffer in this layout holds.
    pub fn space(&self) -> usize {
        self.space / self.words()
    }

    /// Bits per element: 32, or what [`GpuLayout::with_element`] set.
    pub fn element_bits(&self) -> usize {
        self.bits
    }

    /// The same layout for elements of `T` (from a 32-bit layout: a layout of another width
    /// is `Unsupported`), whose kernels take `Buffer<T>`s. A 64-bit
    /// element is two words, the low one first, at offsets `2 · offset` and `2 · offset + 1`
    /// of a buffer of 32-bit words, so its WGSL functions take the word as a last coordinate
    /// (`<prefix>_w2_offset(…, word)`). 8- and 16-bit elements keep the functions; kernels
    /// pack them into words.
    pub fn with_element<T: Word>(&self) -> Result<GpuLayout, GpuError> {
        self.for_bits(T::BITS)
    }

    /// The layout of `bits`-bit elements of this 32-bit layout.
    pub(crate) fn for_bits(&self, bits: usize) -> Result<GpuLayout, GpuError> {
        if bits == self.bits {
            return Ok(self.clone());
        }
        if self.bits != 32 {
            return Err(
                self.unsupported(format!("its elements are already {} bits wide", self.bits))
            );
        }
        let layout = match bits {
            64 => self.widened(2)?,
            _ => GpuLayout {
                bits,
                ..self.clone()
            },
        };
        Ok(GpuLayout {
            name: format!("{} of {bits}-bit elements", self.name),
            ..layout
        })
    }

    /// The dense row-major image of this layout's shape and element width.
    pub(crate) fn image(&self) -> Result<GpuLayout, GpuError> {
        GpuLayout::row_major(self.shape())?.for_bits(self.bits)
    }

    /// 32-bit words per element in the shape kernels see (one for narrow elements, which
    /// kernels pack).
    pub(crate) fn words(&self) -> usize {
        (self.bits / 32).max(1)
    }

    /// The layout of `words`-word elements of this one-word layout.
    fn widened(&self, words: usize) -> Result<GpuLayout, GpuError> {
        let space = self
            .space
            .checked_mul(words)
            .filter(|&space| space as u64 <= 1 << 32)
            .ok_or_else(|| GpuError::TooLarge {
                what: format!("the space of `{}` in 32-bit words", self.name),
                value: self.space as u64 * words as u64,
                limit: 1 << 32,
            })?;
        let prefix = format!("{}_w{words}", self.prefix);
        let rank = self.shape.len();
        let coords: Vec<String> = (0..rank).map(|j| format!("c{j}")).collect();
        let (params, coords) = (params(rank), coords.join(", "));
        let inner = &self.prefix;
        let mut wgsl = format!(
            "{}
// `{}` with elements of {words} words, the low word first.

fn {prefix}_offset({params}, word: u32) -> u32 {{
    return {inner}_offset({coords}) * {words}u + word;
}}
",
            self.wgsl, self.name
        );
        if self.padded {
            wgsl.push_str(&format!(
                "\nfn {prefix}_is_valid({params}, word: u32) -> bool {{\n    return {inner}_is_valid({coords});\n}}\n"
            ));
        }
        if self.inverse {
            let parts: Vec<String> = (0..rank).map(|j| format!("c[{j}]")).collect();
            wgsl.push_str(&format!(
                "
fn {prefix}_coord(offset: u32) -> array<u32, {}> {{
    let c = {inner}_coord(offset / {words}u);
    return array<u32, {0}>({}, offset % {words}u);
}}
",
                rank + 1,
                parts.join(", ")
            ));
        }
        let mut shape = self.shape.clone();
        shape.push(words);
        Ok(GpuLayout {
            prefix,
            wgsl,
            shape,
            space,
            bits: 32 * words,
            ..self.clone()
        })
    }

    /// Coordinate lengths as kernels see them: with the word of an element last.
    pub(crate) fn word_shape(&self) -> &[usize] {
        &self.shape
    }

    /// Number of words of all coordinates.
    pub(crate) fn word_size(&self) -> usize {
        self.shape.iter().product()
    }

    /// Number of words a buffer in this layout holds.
    pub(crate) fn word_space(&self) -> usize {
        self.space
    }

    /// Whether every offset holds exactly one coordinate's element (it has `<prefix>_coord`
    /// and no padding).
    pub fn is_bijective(&self) -> bool {
        self.inverse && !self.padded
    }

    /// Whether it has `<prefix>_coord`, the coordinate at every offset: the inverse of a
    /// bijection, or of tiles of a bijection, where the coordinates of partial tiles' cells
    /// lie outside the extents (`<prefix>_is_valid` says which).
    pub fn has_inverse(&self) -> bool {
        self.inverse
    }

    /// Whether it has `<prefix>_is_valid` (padding).
    pub fn is_padded(&self) -> bool {
        self.padded
    }

    /// Whether distinct valid coordinates are known to get distinct offsets.
    pub fn is_injective(&self) -> bool {
        self.injective
    }

    /// WGSL calling `<prefix>_<function>` on the coordinate array `coord`.
    pub(crate) fn call(&self, function: &str, coord: &str) -> String {
        let args: Vec<String> = (0..self.shape.len())
            .map(|i| format!("{coord}[{i}]"))
            .collect();
        format!("{}_{function}({})", self.prefix, args.join(", "))
    }

    pub(crate) fn unsupported(&self, why: impl Into<String>) -> GpuError {
        GpuError::Unsupported {
            layout: self.name.clone(),
            why: why.into(),
        }
    }
}

/// The grid of a tiled layout at given extents, which its whole-array WGSL functions walk.
struct Grid<'a> {
    prefix: &'a str,
    tile: &'a [usize],
    tiles: &'a [usize],
    /// Whether each coordinate has a run-time dim.
    dynamic: &'a [bool],
    /// The run-time dims, outermost first.
    grid: &'a [GridDim],
}

impl Grid<'_> {
    fn params(&self) -> String {
        params(self.tile.len())
    }

    /// The coordinates within the tile, as arguments of the tile's functions.
    fn inside(&self) -> String {
        let inside: Vec<String> = (0..self.tile.len())
            .map(|j| match (self.dynamic[j], self.tile[j]) {
                (false, _) => format!("c{j}"),
                (true, 1) => "0u".to_owned(),
                (true, t) => format!("c{j} % {t}u"),
            })
            .collect();
        inside.join(", ")
    }

    fn offset(&self, tile_space: usize) -> String {
        // Row-major over the grid dims, outermost first, as the Rust `offset` does.
        let place = self.grid.iter().fold(String::new(), |acc, g| {
            let j = g.coord;
            let quotient = match self.tile[j] {
                1 => format!("c{j}"),
                t => format!("c{j} / {t}u"),
            };
            match acc.is_empty() {
                true => quotient,
                false => format!("({acc}) * {}u + {quotient}", self.tiles[j]),
            }
        });
        format!(
            "
fn {p}_offset({}) -> u32 {{
    let tile = {place};
    return tile * {tile_space}u + {p}_tile_offset({});
}}
",
            self.params(),
            self.inside(),
            p = self.prefix
        )
    }

    fn is_valid(&self, extents: &[usize], tile_is_valid: bool) -> String {
        let mut valid: Vec<String> = (0..self.tile.len())
            .map(|j| format!("c{j} < {}u", extents[j]))
            .collect();
        if tile_is_valid {
            valid.push(format!("{}_tile_is_valid({})", self.prefix, self.inside()));
        }
        format!(
            "
fn {}_is_valid({}) -> bool {{
    return {};
}}
",
            self.prefix,
            self.params(),
            valid.join(" && ")
        )
    }

    /// The inverse: the tile's place in the grid (innermost grid dim last) and the
    /// coordinate within it.
    fn coord(&self, tile_space: usize) -> String {
        let rank = self.tile.len();
        // `tile` shrinks as inner grid dims are peeled off it, where there are any.
        let binding = match self.grid.len() {
            1 => "let",
            _ => "var",
        };
        let mut lines = format!(
            "    let inside = {}_tile_coord(offset % {tile_space}u);\n    {binding} tile = offset / {tile_space}u;\n",
            self.prefix
        );
        let mut coords: Vec<String> = (0..rank).map(|j| format!("inside[{j}]")).collect();
        for (k, g) in self.grid.iter().enumerate().rev() {
            let j = g.coord;
            let place = match k {
                0 => "tile".to_owned(),
                _ => {
                    lines.push_str(&format!(
                        "    let g{j} = tile % {n}u;\n    tile = tile / {n}u;\n",
                        n = self.tiles[j]
                    ));
                    format!("g{j}")
                }
            };
            coords[j] = match self.tile[j] {
                1 => place,
                t => format!("{place} * {t}u + inside[{j}]"),
            };
        }
        format!(
            "
fn {p}_coord(offset: u32) -> array<u32, {rank}> {{
{lines}    return array<u32, {rank}>({});
}}
",
            coords.join(", "),
            p = self.prefix
        )
    }
}

/// The parameters of a whole-array WGSL function of `rank` coordinates: `c0: u32, …`.
fn params(rank: usize) -> String {
    let params: Vec<String> = (0..rank).map(|j| format!("c{j}: u32")).collect();
    params.join(", ")
}

/// The WGSL functions of `descriptor` (of one tile, for a tiled layout), as the macro prints
/// them for a layout that says `inverse;`.
fn functions(descriptor: &Descriptor) -> Result<wgsl::Functions, GpuError> {
    let name = descriptor.name.to_string();
    wgsl::layout(&name, descriptor, true).map_err(|why| GpuError::Unsupported { layout: name, why })
}

/// Whether distinct valid coordinates provably get distinct offsets (structurally, or by
/// enumerating a small layout).
fn injective(descriptor: &Descriptor) -> bool {
    let canonical = Canonical::new(descriptor);
    matches!(
        canonical.injectivity(descriptor, budget::DEFAULT_ENUMERATION),
        Injectivity::Injective
    )
}
