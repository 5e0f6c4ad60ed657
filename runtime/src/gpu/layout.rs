//! A layout as the GPU kernels see it: its WGSL functions, shape and element space, from a
//! `layout!` type, from layout text, or row-major of any extents.

use super::GpuError;
use crate::Layout;
use swizzle_core::canon::{Canonical, DEFAULT_ENUMERATION_LIMIT, Injectivity};
use swizzle_core::ir::Descriptor;
use swizzle_core::wgsl;

/// A layout's WGSL and the facts kernels need: which functions exist, shape and space.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GpuLayout {
    name: String,
    prefix: String,
    wgsl: String,
    shape: Vec<usize>,
    space: usize,
    bijective: bool,
    padded: bool,
    injective: bool,
}

impl GpuLayout {
    /// The layout of a `layout!` type.
    pub fn of<L: Layout<N>, const N: usize>() -> Result<GpuLayout, GpuError> {
        GpuLayout::new(&L::DESCRIPTOR, L::WGSL)
    }

    /// The first layout in `text`, written in the `layout!` language (what the CLI reads).
    pub fn parse(text: &str) -> Result<GpuLayout, GpuError> {
        let unsupported = |why: String| GpuError::Unsupported {
            layout: "<text>".to_owned(),
            why,
        };
        let checked = swizzle_core::layouts(text).map_err(|e| unsupported(e.to_string()))?;
        let checked = checked
            .into_iter()
            .next()
            .ok_or_else(|| unsupported("the text holds no layout".to_owned()))?;
        let name = checked.descriptor.name.to_string();
        let text = wgsl::layout(&name, &checked).map_err(|why| GpuError::Unsupported {
            layout: name.clone(),
            why,
        })?;
        GpuLayout::new(&checked.descriptor, &text)
    }

    /// A dense row-major array of `extents` (last fastest): the plain image.
    pub fn row_major(extents: &[usize]) -> Result<GpuLayout, GpuError> {
        let dims: Vec<String> = extents
            .iter()
            .enumerate()
            .map(|(i, e)| format!("i{i}: {e}"))
            .collect();
        let coords: Vec<String> = (0..extents.len()).map(|i| format!("i{i}")).collect();
        let name: Vec<String> = extents.iter().map(usize::to_string).collect();
        GpuLayout::parse(&format!(
            "layout RowMajor{} {{ memory [{}]; coords [{}]; }}",
            name.join("x"),
            dims.join(", "),
            coords.join(", ")
        ))
    }

    /// The layout of `descriptor` with its WGSL `text` (as `swizzle_core::wgsl` prints it).
    pub fn new(descriptor: &Descriptor, text: &str) -> Result<GpuLayout, GpuError> {
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
        let prefix = wgsl::snake_case(&name);
        let has = |function: &str| text.contains(&format!("fn {prefix}_{function}("));
        if !has("offset") {
            return Err(unsupported("its WGSL has no offset function"));
        }
        let injective = injective(descriptor);
        Ok(GpuLayout {
            bijective: has("coord"),
            padded: has("is_valid"),
            prefix,
            wgsl: text.to_owned(),
            shape: descriptor.shape(),
            space,
            injective,
            name,
        })
    }

    /// A layout with run-time (`dyn`) dims at `extents` (one per coordinate; a coordinate
    /// without a run-time dim has its tile's length): the tile's functions `text` (its
    /// `WGSL`), and around them `<prefix>_offset` and `<prefix>_is_valid` over the whole
    /// array, the tile counts folded in as constants. Partial tiles are padding.
    pub fn tiled(
        descriptor: &Descriptor,
        text: &str,
        extents: &[usize],
    ) -> Result<GpuLayout, GpuError> {
        let name = descriptor.name.to_string();
        let unsupported = |why: String| GpuError::Unsupported {
            layout: name.clone(),
            why,
        };
        if !descriptor.is_tiled() {
            return Err(unsupported(
                "it has no run-time dims: use `GpuLayout::new` or `GpuLayout::of`".to_owned(),
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
                value: tiles.iter().product::<usize>() as u64 * tile_space as u64,
                limit: 1 << 32,
            })?;
        let prefix = wgsl::snake_case(&name);
        let params: Vec<String> = (0..tile.len()).map(|j| format!("c{j}: u32")).collect();
        let inside: Vec<String> = (0..tile.len())
            .map(|j| match (dynamic[j], tile[j]) {
                (false, _) => format!("c{j}"),
                (true, 1) => "0u".to_owned(),
                (true, t) => format!("c{j} % {t}u"),
            })
            .collect();
        // Row-major over the grid dims, outermost first, as the Rust `offset` does.
        let place = descriptor.grid.iter().fold(String::new(), |acc, g| {
            let j = g.coord;
            let quotient = match tile[j] {
                1 => format!("c{j}"),
                t => format!("c{j} / {t}u"),
            };
            match acc.is_empty() {
                true => quotient,
                false => format!("({acc}) * {}u + {quotient}", tiles[j]),
            }
        });
        let inside = inside.join(", ");
        let mut valid: Vec<String> = (0..tile.len())
            .map(|j| format!("c{j} < {}u", extents[j]))
            .collect();
        if text.contains(&format!("fn {prefix}_tile_is_valid(")) {
            valid.push(format!("{prefix}_tile_is_valid({inside})"));
        }
        let params = params.join(", ");
        let wrapper = format!(
            "{text}
// `{name}` at extents {extents:?}: {tiles:?} tiles of {tile_space} elements.

fn {prefix}_offset({params}) -> u32 {{
    let tile = {place};
    return tile * {tile_space}u + {prefix}_tile_offset({inside});
}}

fn {prefix}_is_valid({params}) -> bool {{
    return {};
}}
",
            valid.join(" && ")
        );
        let injective = injective(descriptor);
        Ok(GpuLayout {
            name,
            prefix,
            wgsl: wrapper,
            shape: extents.to_vec(),
            space,
            bijective: false,
            padded: true,
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
        &self.shape
    }

    /// Number of coordinates.
    pub fn size(&self) -> usize {
        self.shape.iter().product()
    }

    /// Number of elements a buffer in this layout holds.
    pub fn space(&self) -> usize {
        self.space
    }

    /// Whether it has `<prefix>_coord`, the inverse.
    pub fn is_bijective(&self) -> bool {
        self.bijective
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

/// Whether distinct valid coordinates provably get distinct offsets (structurally, or by
/// enumerating a small layout).
fn injective(descriptor: &Descriptor) -> bool {
    let canonical = Canonical::new(descriptor);
    matches!(
        canonical.injectivity(descriptor, DEFAULT_ENUMERATION_LIMIT),
        Injectivity::Injective
    )
}
