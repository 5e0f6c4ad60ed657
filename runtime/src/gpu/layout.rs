//! A layout as the GPU kernels see it: its WGSL functions, shape and element space, from a
//! `layout!` type, from any descriptor, or row-major of any extents.

use super::{GpuError, Unsupported, Word};
use crate::Layout;
use swizzle_core::budget;
use swizzle_core::canon::{Canonical, Injectivity};
use swizzle_core::emit::code::{Code, Op};
use swizzle_core::emit::function::{Condition, Function, Kind, Stmt, Value};
use swizzle_core::emit::grid::{self, Grid};
use swizzle_core::emit::wgsl;
use swizzle_core::emit::wgsl::expr::{Expr, int, numbered};
use swizzle_core::emit::wgsl::module::Module;
use swizzle_core::ir::Descriptor;

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
    /// For a layout of tiles (`GpuLayout::tiled`): its tile and the grid of them.
    tiles: Option<Tiles>,
    /// For a fixed-size layout: its descriptor, for the kernels that ask on the host which
    /// elements it keeps together ([`GpuLayout::element_offset`]).
    fixed: Option<Descriptor>,
}

/// A layout of tiles: blocks of one fixed tile, row-major over a grid, the tile at grid
/// place `t` holding the coordinates `t · tile + r` at offsets `block(t) · space + o(r)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Tiles {
    /// The tile's lengths and element space.
    pub shape: Vec<usize>,
    pub space: usize,
    /// Tiles along each coordinate.
    pub counts: Vec<usize>,
    /// The prefix of the tile's own WGSL functions (`<prefix>_offset`, `<prefix>_coord`).
    pub prefix: String,
    /// Whether the tile is a bijection onto its space (has `_coord`, no padding).
    pub bijective: bool,
    /// The tile, for the kernels that ask what its offsets keep together.
    pub descriptor: Descriptor,
}

/// A layout of tiles as the packs and unpacks that move whole tiles address it: tiles of a
/// bijection of rank 2, each `rows × columns` elements packed, row-major over the grid (the
/// tile at grid row `ty`, column `tx` starts at element `(ty · columns + tx) · space`), of
/// elements of up to 32 bits.
pub(crate) struct Planar<'a> {
    pub tiles: &'a Tiles,
    /// Tile rows and columns.
    pub tile: [usize; 2],
    /// Tiles along the grid's rows and columns.
    pub grid: [usize; 2],
    /// The image's rows and columns.
    pub extents: [usize; 2],
    /// Elements per 32-bit word, and per `vec4` of words.
    pub per: usize,
    pub quad: usize,
}

impl GpuLayout {
    /// The layout of a `layout!` type (a fixed-size one: see [`GpuLayout::tiled`]).
    pub fn of<L: Layout<N>, const N: usize>() -> Result<GpuLayout, GpuError> {
        // What the macro proved needs no second search; a cautious `false` (a hand-written
        // layout) is searched.
        GpuLayout::build(&L::DESCRIPTOR, |descriptor| {
            L::INJECTIVE || injective(descriptor)
        })
    }

    /// The fixed-size layout `descriptor`, from any source (a `layout!` type's
    /// `DESCRIPTOR`, the command line's parser, or built at run time). Its WGSL functions are
    /// printed here, from the same canonical form as the macro's, with the inverse searched
    /// as hard as for a layout that says `inverse;`; the printer says which functions exist.
    /// A grid of tiles written with fixed lengths (`memory [ty: 2048, tx: 2048, …]` merged
    /// into the coordinates as their slowest digits: [`Descriptor::as_tiles`]) is built as
    /// its tile at its shape, as [`GpuLayout::tiled`] builds it, so that its packs and
    /// unpacks take the kernels that move whole tiles.
    pub fn from_descriptor(descriptor: &Descriptor) -> Result<GpuLayout, GpuError> {
        GpuLayout::build(descriptor, injective)
    }

    /// The fixed-size layout `descriptor`, whose injectivity `injective` decides.
    fn build(
        descriptor: &Descriptor,
        injective: impl FnOnce(&Descriptor) -> bool,
    ) -> Result<GpuLayout, GpuError> {
        let name = descriptor.name.to_string();
        let unsupported = |why: &'static str| GpuError::unsupported(&name, why);
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
        // A grid of tiles written with fixed lengths is the same layout as its tile at
        // these extents: the kernels that move whole tiles then find them.
        if let Some(tiles) = descriptor.as_tiles() {
            let layout = GpuLayout::tiled(&tiles, &descriptor.shape())?;
            return Ok(GpuLayout {
                injective: injective(descriptor),
                ..layout
            });
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
            tiles: None,
            fixed: Some(descriptor.clone()),
        })
    }

    /// A dense row-major array of `extents` (last fastest): the plain image.
    pub fn row_major(extents: &[usize]) -> Result<GpuLayout, GpuError> {
        let name: Vec<String> = extents.iter().map(usize::to_string).collect();
        let name = format!("RowMajor{}", name.join("x"));
        let descriptor = Descriptor::row_major(&name, extents)
            .ok_or_else(|| GpuError::unsupported(&name, "its element space overflows `usize`"))?;
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
        let unsupported = |why: &'static str| GpuError::unsupported(&name, why);
        if !descriptor.is_tiled() {
            return Err(unsupported(
                "it has no run-time dims: use `GpuLayout::of` or `GpuLayout::from_descriptor`",
            ));
        }
        let tile = descriptor.shape();
        let tiles = grid::tile_counts(descriptor, extents)
            .filter(|_| !extents.contains(&0))
            .ok_or_else(|| GpuError::Shape {
                from: extents.to_vec(),
                to: tile.clone(),
            })?;
        let tile_space = descriptor
            .space()
            .ok_or_else(|| unsupported("its tile's space overflows"))?;
        let space = grid::space(&tiles, tile_space)
            .filter(|&space| space as u64 <= 1 << 32)
            .ok_or_else(|| GpuError::TooLarge {
                what: format!("the element space of `{name}` at {extents:?}"),
                // Saturating: extents of 2^40 × 2^40 have a space past every integer type.
                value: tiles
                    .iter()
                    .fold(tile_space as u128, |acc, &t| acc.saturating_mul(t as u128))
                    .try_into()
                    .unwrap_or(u64::MAX),
                limit: 1 << 32,
            })?;
        let prefix = wgsl::snake_case(&name);
        let tile_functions = functions(descriptor)?;
        // The grid's functions with the tile counts and extents as constants.
        let coords = coordinates(tile.len());
        let constants = |values: &[usize]| values.iter().map(|&v| Code::Lit(v as u128)).collect();
        let grid = Grid::new(descriptor, &coords, constants(&tiles), constants(extents));
        let callee = &tile_functions.prefix;
        let print = |function: &Function| {
            wgsl::print(&prefix, function, callee, None)
                .map_err(|why| GpuError::unsupported(&name, Unsupported::Wgsl(why)))
        };
        let mut wrapper = Module::new();
        wrapper
            .text(&tile_functions.text)
            .note(format_args!(
                "`{name}` at extents {extents:?}: {tiles:?} tiles of {tile_space} elements."
            ))
            .text(&print(&grid.offset())?);
        let partial = (0..tile.len()).any(|j| !extents[j].is_multiple_of(tile[j]));
        let padded = partial || tile_functions.is_valid;
        if padded {
            wrapper.text(&print(&grid.is_valid(tile_functions.is_valid))?);
        }
        let inverse = tile_functions.coord;
        if inverse {
            wrapper.text(&print(&grid.coord())?);
        }
        let injective = injective(descriptor);
        let tiles = Tiles {
            shape: tile.clone(),
            space: tile_space,
            counts: tiles.clone(),
            prefix: tile_functions.prefix.clone(),
            bijective: tile_functions.coord && !tile_functions.is_valid,
            descriptor: descriptor.clone(),
        };
        Ok(GpuLayout {
            name,
            prefix,
            wgsl: wrapper.finish(),
            shape: extents.to_vec(),
            space,
            bits: 32,
            inverse,
            padded,
            injective,
            tiles: Some(tiles),
            fixed: None,
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

    /// Its tiles, for a layout of tiles of one-word or narrower elements.
    pub(crate) fn tiles(&self) -> Option<&Tiles> {
        self.tiles.as_ref().filter(|_| self.bits <= 32)
    }

    /// Its tiles as [`Planar`], where it is such a layout.
    pub(crate) fn planar(&self) -> Option<Planar<'_>> {
        let tiles = self.tiles()?;
        let ([rows, columns], grid, extents) = (
            <[usize; 2]>::try_from(tiles.shape.as_slice()).ok()?,
            <[usize; 2]>::try_from(tiles.counts.as_slice()).ok()?,
            <[usize; 2]>::try_from(self.shape()).ok()?,
        );
        // The grid's run-time dims in the coordinates' order: row-major tiles.
        let dims = &tiles.descriptor.grid;
        let row_major = dims.windows(2).all(|pair| pair[0].coord < pair[1].coord);
        let per = 32 / self.bits;
        (tiles.bijective && row_major && tiles.space == rows * columns).then_some(Planar {
            tiles,
            tile: [rows, columns],
            grid,
            extents,
            per,
            quad: 4 * per,
        })
    }

    /// The offset of the element at `coord` (the interpreter's, in elements), where it can be
    /// evaluated on the host: for kernels that choose their accesses by which elements the
    /// layout keeps together.
    pub(crate) fn element_offset(&self, coord: &[usize]) -> Option<usize> {
        match (&self.tiles, &self.fixed) {
            (Some(tiles), _) => tiles.descriptor.offset_in(self.shape(), coord).ok(),
            (None, Some(descriptor)) => descriptor.offset(coord).ok(),
            (None, None) => None,
        }
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
        let prefix = numbered(&[&self.prefix, "_w"].concat(), [words]).to_string();
        let coords = coordinates(self.shape.len());
        let element: Vec<Code> = coords.iter().map(|c| Code::var(c)).collect();
        let mut params = coords.clone();
        params.push("word".to_owned());
        let (count, word) = (Code::Lit(words as u128), Code::var("word"));
        let offset = Function {
            kind: Kind::Offset,
            params: params.clone(),
            body: vec![Stmt::Call {
                names: vec!["element".to_owned()],
                kind: Kind::Offset,
                args: element.clone(),
            }],
            result: Value::Index(Code::bin(
                Op::Add,
                Code::bin(Op::Mul, Code::var("element"), count.clone()),
                word,
            )),
        };
        let mut functions = vec![offset];
        if self.padded {
            functions.push(Function {
                kind: Kind::IsValid,
                params,
                body: vec![Stmt::Call {
                    names: vec!["valid".to_owned()],
                    kind: Kind::IsValid,
                    args: element.clone(),
                }],
                result: Value::Holds(vec![Condition::True("valid".to_owned())]),
            });
        }
        if self.inverse {
            let offset = Code::var("offset");
            let mut coordinate = element;
            coordinate.push(Code::bin(Op::Rem, offset.clone(), count.clone()));
            functions.push(Function {
                kind: Kind::Coord,
                params: vec!["offset".to_owned()],
                body: vec![Stmt::Call {
                    names: coords,
                    kind: Kind::Coord,
                    args: vec![Code::bin(Op::Div, offset, count)],
                }],
                result: Value::Coordinate(coordinate),
            });
        }
        let mut wgsl = Module::new();
        wgsl.text(&self.wgsl).note(format_args!(
            "`{}` with elements of {words} words, the low word first.",
            self.name
        ));
        for function in &functions {
            let printed = wgsl::print(&prefix, function, &self.prefix, None)
                .map_err(|why| self.unsupported(Unsupported::Wgsl(why)))?;
            wgsl.text(&printed);
        }
        let mut shape = self.shape.clone();
        shape.push(words);
        Ok(GpuLayout {
            prefix,
            wgsl: wgsl.finish(),
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

    /// `<prefix>_<function>(coord[0], …)`: one of its functions of a coordinate, on the
    /// coordinate array `coord`.
    pub(crate) fn call(&self, function: &str, coord: impl Into<Expr>) -> Expr {
        let coord = coord.into();
        let args = (0..self.shape.len()).map(|i| coord.clone().index(int(i)));
        wgsl::layout_call(&self.prefix, function, args)
    }

    /// `<prefix>_coord(offset)`: the coordinate array at `offset`, through its inverse.
    pub(crate) fn coord_at(&self, offset: impl Into<Expr>) -> Expr {
        wgsl::layout_call(&self.prefix, "coord", [offset])
    }

    pub(crate) fn unsupported(&self, why: impl Into<Unsupported>) -> GpuError {
        GpuError::unsupported(&self.name, why)
    }
}

/// The names of the coordinates `c0, c1, …` of a function of `rank` coordinates.
fn coordinates(rank: usize) -> Vec<String> {
    (0..rank).map(|j| numbered("c", [j]).to_string()).collect()
}

/// The WGSL functions of `descriptor` (of one tile, for a tiled layout), as the macro prints
/// them for a layout that says `inverse;`.
fn functions(descriptor: &Descriptor) -> Result<wgsl::Functions, GpuError> {
    let name = descriptor.name.to_string();
    wgsl::layout(&name, descriptor, true)
        .map_err(|why| GpuError::unsupported(name, Unsupported::Wgsl(why)))
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

#[cfg(test)]
mod tests {
    use super::GpuLayout;
    use crate::wgsl::validate;

    /// Every row-major layout's WGSL validates without a device, with one-word and two-word
    /// elements of every rank (a wide element's `coord` returns one index more). Tiled
    /// layouts are validated from `layout!` types in `tests/wgsl.rs`.
    #[test]
    fn plain_and_wide_wrappers_validate_without_a_gpu() {
        for extents in [&[5][..], &[3, 4], &[2, 3, 4]] {
            let plain = GpuLayout::row_major(extents).expect("row-major");
            validate(plain.wgsl()).unwrap_or_else(|e| panic!("{e}\n{}", plain.wgsl()));
            let wide = plain.with_element::<u64>().expect("64-bit elements");
            validate(wide.wgsl()).unwrap_or_else(|e| panic!("{e}\n{}", wide.wgsl()));
        }
    }
}
