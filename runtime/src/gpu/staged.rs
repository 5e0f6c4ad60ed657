//! Packs and unpacks of 8- and 16-bit elements between the row-major image and a layout of
//! tiles, staged through workgroup memory so that every global access moves whole `vec4`
//! words: a workgroup takes a region of tiles along one row of the grid, copies it in with
//! one `vec4` per thread (image rows for a pack, tile blocks for an unpack), and each thread
//! then builds one `vec4` of the other side from the elements in workgroup memory, found
//! through the tile's own straight-line functions (its inverse for a pack, its offset for an
//! unpack). Against the gather kernels (`narrow`), which find every element of a word
//! through the whole layout's inverse and the image's offset in global memory, this moves
//! the same bytes with a fraction of the arithmetic.
//!
//! It applies to a layout of tiles of a bijection of rank 2 whose blocks and rows split into
//! `vec4`s (see [`Staged::plan`]); `Gpu::pack_kernel` and `unpack_kernel` fall back to the
//! gather kernels otherwise.

use super::GpuLayout;

/// Threads per workgroup where the tiles are small enough to share one.
const THREADS: usize = 256;
/// The most threads one workgroup may take for one large tile.
const MAX_THREADS: usize = 1024;

/// The region of tiles a workgroup stages, and how its threads cover it.
pub(super) struct Staged {
    /// Tile rows and columns, elements per tile and per word.
    tile: [usize; 2],
    space: usize,
    per: usize,
    bits: usize,
    /// Tiles along the grid's rows and columns.
    grid: [usize; 2],
    /// The image's rows and columns.
    extents: [usize; 2],
    /// Tiles per region (along a row of the grid), threads per workgroup.
    region: usize,
    threads: usize,
    /// The tile's WGSL prefix.
    prefix: String,
    /// For each element a thread moves, where it lies in the region (for a pack, and for an
    /// unpack): each word of workgroup memory is loaded once.
    pack_shared: Vec<Share>,
    unpack_shared: Vec<Share>,
}

/// Where one of a thread's elements lies in the region, relative to the others.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Share {
    /// The first element that always lies in the same word (itself if none before it).
    word: usize,
    /// Where its place in that word is always the first one's XOR a constant, that constant:
    /// its coordinate then needs no computing of its own.
    xor: Option<usize>,
}

impl Staged {
    /// The plan for `layout`, a layout of tiles of `bits`-bit elements; `None` where the
    /// staged kernels do not apply.
    pub(super) fn plan(layout: &GpuLayout) -> Option<Staged> {
        let bits = layout.element_bits();
        let tiles = layout.tiles()?;
        let per = 32 / bits;
        let quad = 4 * per;
        let ([rows, columns], [grid_y, grid_x], [height, width]) = (
            <[usize; 2]>::try_from(tiles.shape.as_slice()).ok()?,
            <[usize; 2]>::try_from(tiles.counts.as_slice()).ok()?,
            <[usize; 2]>::try_from(layout.shape()).ok()?,
        );
        let space = tiles.space;
        let fits = bits < 32
            && tiles.bijective
            && space == rows * columns
            && space.is_multiple_of(quad)
            && width.is_multiple_of(quad);
        if !fits {
            return None;
        }
        // As many tiles as make `THREADS` vec4s, or one tile of up to `MAX_THREADS`.
        let (region, threads) = match (THREADS * quad).is_multiple_of(space) {
            true => (THREADS * quad / space, THREADS),
            false if space.is_multiple_of(THREADS * quad) && space / quad <= MAX_THREADS => {
                (1, space / quad)
            }
            false => return None,
        };
        // The region's image rows must split into vec4s.
        if !(region * columns).is_multiple_of(quad) {
            return None;
        }
        let (pack_shared, unpack_shared) = match columns.is_multiple_of(per) {
            true => shared_words(&tiles.descriptor, [rows, columns], per)?,
            false => {
                let own: Vec<Share> = (0..quad).map(|i| Share { word: i, xor: None }).collect();
                (own.clone(), own)
            }
        };
        Some(Staged {
            pack_shared,
            unpack_shared,
            tile: [rows, columns],
            space,
            per,
            bits,
            grid: [grid_y, grid_x],
            extents: [height, width],
            region,
            threads,
            prefix: tiles.prefix.clone(),
        })
    }

    /// Workgroups `[x, y]`: regions along each row of tiles, rows of tiles.
    pub(super) fn groups(&self) -> [usize; 2] {
        [self.grid[1].div_ceil(self.region), self.grid[0]]
    }

    /// Whether a tile can reach past the image (its cells outside keep their contents).
    fn partial(&self) -> bool {
        !self.extents[0].is_multiple_of(self.tile[0])
            || !self.extents[1].is_multiple_of(self.tile[1])
    }

    /// The constants and the region in workgroup memory, as WGSL declarations.
    fn preamble(&self) -> String {
        let [rows, columns] = self.tile;
        let [height, width] = self.extents;
        format!(
            "const TILE_ROWS = {rows}u;
const TILE_COLUMNS = {columns}u;
const TILE_SPACE = {space}u;
const GRID_COLUMNS = {grid_x}u;
const HEIGHT = {height}u;
const WIDTH = {width}u;
// Elements per word, bits per element.
const PER = {per}u;
const BITS = {bits}u;
const MASK = {mask:#x}u;
// Tiles per region, the region's image columns, vec4s per region row and per tile block.
const REGION = {region}u;
const REGION_COLUMNS = {region_columns}u;
const ROW_QUADS = {row_quads}u;
const TILE_QUADS = {tile_quads}u;
// vec4s per image row.
const WIDTH_QUADS = {width_quads}u;

@group(0) @binding(0) var<storage, read> src: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read_write> dst: array<vec4<u32>>;
// The region's words, one padding word after every 32 (a bank's worth), so that threads
// reading it across tiles (a tile's space apart) fall on different banks.
var<workgroup> region: array<u32, {padded}>;

/// Where word `w` of the region lies.
fn padded(w: u32) -> u32 {{
    return w + w / 32u;
}}

/// The element at index `at` of the region in workgroup memory.
fn staged(at: u32) -> u32 {{
    return (region[padded(at / PER)] >> (at % PER * BITS)) & MASK;
}}

/// Stores a vec4 of the source into the region at vec4 `index`.
fn stage(index: u32, v: vec4<u32>) {{
    region[padded(index * 4u)] = v.x;
    region[padded(index * 4u + 1u)] = v.y;
    region[padded(index * 4u + 2u)] = v.z;
    region[padded(index * 4u + 3u)] = v.w;
}}
",
            space = self.space,
            grid_x = self.grid[1],
            per = self.per,
            bits = self.bits,
            mask = (1u64 << self.bits) - 1,
            region = self.region,
            region_columns = self.region * columns,
            row_quads = self.region * columns / (4 * self.per),
            tile_quads = self.space / (4 * self.per),
            width_quads = width / (4 * self.per),
            padded = {
                let words = self.region * self.space / self.per;
                words + words / 32
            },
        )
    }

    /// The entry point's head: the thread, the region's row of tiles and first tile column.
    fn entry(&self) -> String {
        format!(
            "@compute @workgroup_size({})
fn main(
    @builtin(local_invocation_index) thread: u32,
    @builtin(workgroup_id) group: vec3<u32>,
) {{
    let tile_y = group.y;
    let first_x = group.x * REGION;
",
            self.threads
        )
    }

    /// Elements each thread moves: one vec4 of words.
    fn quad(&self) -> usize {
        4 * self.per
    }

    /// The vec4 of words from `elements` (one WGSL expression per element, in order):
    /// straight-line, each element shifted into its place.
    fn words(&self, elements: &[String]) -> String {
        let words: Vec<String> = elements
            .chunks(self.per)
            .map(|word| {
                let parts: Vec<String> = word
                    .iter()
                    .enumerate()
                    .map(|(e, element)| match e {
                        0 => element.clone(),
                        e => format!("({element} << {}u)", e * self.bits),
                    })
                    .collect();
                parts.join(" | ")
            })
            .collect();
        format!(
            "vec4<u32>(\n            {},\n        )",
            words.join(",\n            ")
        )
    }

    /// A pack: image rows in, tile blocks out. The body, after the layout's functions.
    pub(super) fn pack(&self) -> String {
        let quad = self.quad();
        let partial = self.partial();
        let mut body = String::new();
        let mut elements = Vec::new();
        let mut kept = Vec::new();
        for i in 0..quad {
            let Share { word, xor } = self.pack_shared[i];
            // An element whose place follows from its word's first element's needs neither
            // an inverse nor a bounds test of its own: a word lies wholly in the image or not.
            let (place, inside) = match xor {
                Some(k) if word != i => (format!("((rc{word}[1] % PER) ^ {k}u)"), word),
                _ => {
                    body.push_str(&format!(
                        "        let rc{i} = {}_coord(first + {i}u);\n",
                        self.prefix
                    ));
                    if partial {
                        body.push_str(&format!(
                            "        let in{i} = top + rc{i}[0] < HEIGHT && tile_left + rc{i}[1] < WIDTH;\n"
                        ));
                    }
                    (format!("(rc{i}[1] % PER)"), i)
                }
            };
            if word == i {
                body.push_str(&format!(
                    "        let w{i} = region[padded((rc{i}[0] * REGION_COLUMNS + left + rc{i}[1]) / PER)];\n"
                ));
            }
            let value = format!("((w{word} >> ({place} * BITS)) & MASK)");
            match partial {
                true => {
                    elements.push(format!("select(0u, {value}, in{inside})"));
                    kept.push(format!("select(MASK, 0u, in{inside})"));
                }
                false => elements.push(value),
            }
        }
        let store = match partial {
            true => format!(
                "        let kept = {};
        dst[block] = words | (dst[block] & kept);
",
                self.words(&kept)
            ),
            false => "        dst[block] = words;\n".to_owned(),
        };
        format!(
            "{preamble}
{entry}    // The region's image rows, one vec4 per thread.
    let row = thread / ROW_QUADS;
    let column = thread % ROW_QUADS;
    let y = tile_y * TILE_ROWS + row;
    let x_quad = first_x * TILE_COLUMNS / (4u * PER) + column;
    var loaded = vec4<u32>(0u);
    if (y < HEIGHT && x_quad < WIDTH_QUADS) {{
        loaded = src[y * WIDTH_QUADS + x_quad];
    }}
    stage(thread, loaded);
    workgroupBarrier();
    // One vec4 of one tile's block per thread, each element found through the tile's
    // inverse.
    let c = thread / TILE_QUADS;
    let quad = thread % TILE_QUADS;
    let tile_x = first_x + c;
    if (tile_x < GRID_COLUMNS) {{
        let first = quad * {quad}u;
        let left = c * TILE_COLUMNS;
        let top = tile_y * TILE_ROWS;
        let tile_left = tile_x * TILE_COLUMNS;
{body}        let words = {words};
        let block = (tile_y * GRID_COLUMNS + tile_x) * TILE_QUADS + quad;
{store}    }}
}}
",
            preamble = self.preamble(),
            entry = self.entry(),
            words = self.words(&elements),
        )
    }

    /// An unpack: tile blocks in, image rows out. The body, after the layout's functions.
    pub(super) fn unpack(&self) -> String {
        let quad = self.quad();
        let mut elements = Vec::new();
        let mut body = String::new();
        for i in 0..quad {
            let Share { word, xor } = self.unpack_shared[i];
            let place = match xor {
                Some(k) if word != i => format!("((at{word} % PER) ^ {k}u)"),
                _ => {
                    body.push_str(&format!(
                        "        let x{i} = first + {i}u;
        let at{i} = x{i} / TILE_COLUMNS * TILE_SPACE + {}_offset(row, x{i} % TILE_COLUMNS);
",
                        self.prefix
                    ));
                    format!("(at{i} % PER)")
                }
            };
            if word == i {
                body.push_str(&format!(
                    "        let w{i} = region[padded(at{i} / PER)];\n"
                ));
            }
            elements.push(format!("((w{word} >> ({place} * BITS)) & MASK)"));
        }
        format!(
            "{preamble}
{entry}    // The region's tile blocks, one vec4 per thread.
    let c = thread / TILE_QUADS;
    let quad = thread % TILE_QUADS;
    let tile_x = first_x + c;
    var loaded = vec4<u32>(0u);
    if (tile_x < GRID_COLUMNS) {{
        loaded = src[(tile_y * GRID_COLUMNS + tile_x) * TILE_QUADS + quad];
    }}
    stage(thread, loaded);
    workgroupBarrier();
    // One vec4 of an image row per thread, each element found through the tile's offset.
    let row = thread / ROW_QUADS;
    let column = thread % ROW_QUADS;
    let y = tile_y * TILE_ROWS + row;
    let x_quad = first_x * TILE_COLUMNS / (4u * PER) + column;
    if (y < HEIGHT && x_quad < WIDTH_QUADS) {{
        let first = column * {quad}u;
{body}        dst[y * WIDTH_QUADS + x_quad] = {words};
    }}
}}
",
            preamble = self.preamble(),
            entry = self.entry(),
            words = self.words(&elements),
        )
    }
}

/// For the elements a thread moves (`4 · per` of them), the first element that lies in the
/// same region word wherever the thread is: for a pack, the elements at tile offsets
/// `first + i` (`first` a multiple of `4 · per`), whose words are the rows' aligned runs of
/// `per`; for an unpack, the elements at row columns `first + i`, whose words are the tile
/// blocks' aligned runs of `per`. `None` where the tile's offsets cannot be evaluated.
fn shared_words(
    descriptor: &swizzle_core::ir::Descriptor,
    [rows, columns]: [usize; 2],
    per: usize,
) -> Option<(Vec<Share>, Vec<Share>)> {
    let quad = 4 * per;
    let mut coord_of = vec![None; rows * columns];
    let mut offset_of = vec![0; rows * columns];
    for y in 0..rows {
        for x in 0..columns {
            let offset = descriptor.offset(&[y, x]).ok()?;
            *coord_of.get_mut(offset)? = Some([y, x]);
            offset_of[y * columns + x] = offset;
        }
    }
    // The word of each element and its place in it, at every place a thread can be.
    type Placed = Option<([usize; 2], usize)>;
    let pack: Vec<Vec<Placed>> = (0..rows * columns)
        .step_by(quad)
        .map(|first| {
            (0..quad)
                .map(|i| coord_of[first + i].map(|[y, x]| ([y, x / per], x % per)))
                .collect()
        })
        .collect();
    // Row columns repeat with the tiles: `first` over one period of tiles and quads.
    let period = columns * quad / gcd(columns, quad);
    let unpack: Vec<Vec<Placed>> = (0..rows)
        .flat_map(|y| (0..period).step_by(quad).map(move |first| (y, first)))
        .map(|(y, first)| {
            (0..quad)
                .map(|i| {
                    let x = first + i;
                    let offset = offset_of[y * columns + x % columns];
                    Some(([x / columns, offset / per], offset % per))
                })
                .collect()
        })
        .collect();
    let shares = |places: &[Vec<Placed>]| -> Vec<Share> {
        (0..quad)
            .map(|i| {
                let same_word = |j: usize| {
                    places.iter().all(|at| match (at[j], at[i]) {
                        (Some((a, _)), Some((b, _))) => a == b,
                        _ => false,
                    })
                };
                let word = (0..i).find(|&j| same_word(j)).unwrap_or(i);
                let first = places.first().and_then(|at| Some(at[word]?.1 ^ at[i]?.1));
                let xor = first.filter(|&k| {
                    places
                        .iter()
                        .all(|at| matches!((at[word], at[i]), (Some((_, a)), Some((_, b))) if a ^ k == b))
                });
                Share { word, xor }
            })
            .collect()
    };
    Some((shares(&pack), shares(&unpack)))
}

fn gcd(a: usize, b: usize) -> usize {
    match b {
        0 => a,
        b => gcd(b, a % b),
    }
}
