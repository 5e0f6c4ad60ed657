//! Packs and unpacks of elements of up to 32 bits between the row-major image and a layout of
//! tiles, staged through workgroup memory so that every global access moves whole `vec4`
//! words: a workgroup takes a region of tiles along one row of the grid, copies it in with two
//! `vec4`s per thread (image rows for a pack, tile blocks for an unpack), and each thread then
//! builds as many `vec4`s of the other side from the elements in workgroup memory, found
//! through the tile's own straight-line functions (its inverse for a pack, its offset for an
//! unpack). Against the gather kernels (`narrow` for 8 and 16 bits, the copies of `kernel` for
//! 32), which find every element of a word through the whole layout's inverse and the image's
//! offset in global memory, this moves the same bytes with a fraction of the arithmetic, and
//! reads and writes both sides in whole runs, so it keeps up with a plain copy where the
//! gathers fall behind it (BENCHMARKS.md#gpu-packs-unpacks-and-transposes).
//!
//! It applies to a layout of tiles of a bijection of rank 2, row-major over its grid, whose
//! blocks and rows split into `vec4`s (see [`Staged::plan`]) and whose `vec4`s are not
//! simply permuted images of each other (those take `permuted`); `Gpu::pack_kernel` and
//! `unpack_kernel` fall back to the gather kernels otherwise.

use super::plan::{Plan, Work, word};
use crate::gpu::GpuLayout;
use crate::gpu::layout::Planar;
use crate::gpu::shader::assemble;
use swizzle_core::emit::wgsl::expr::{Expr, call, hex, int, name, numbered, u};
use swizzle_core::emit::wgsl::layout_call;
use swizzle_core::emit::wgsl::module::{Access, Block, Builtin, Entry, Module, array};

/// Threads per workgroup where the tiles are small enough to share one: two subgroups, so
/// that a workgroup's barrier waits on few loads and many workgroups interleave on an SM.
/// Workgroups of 32, 128 or 256 threads, or of more `vec4`s a thread, were slower
/// (BENCHMARKS.md#gpu-packs-unpacks-and-transposes, "What we tried").
const THREADS: usize = 64;
/// The `vec4`s each of those threads moves (its region stays far within WebGPU's 16 KiB of
/// workgroup memory).
const QUADS: usize = 2;
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
    /// Tiles per region (along a row of the grid), threads per workgroup, `vec4`s per
    /// thread.
    region: usize,
    threads: usize,
    quads: usize,
    /// The tile's WGSL prefix.
    prefix: String,
    /// For each element a thread moves, where it lies in the region (for a pack, and for an
    /// unpack): each word of workgroup memory is loaded once.
    pack_shared: Vec<Share>,
    unpack_shared: Vec<Share>,
    /// For an unpack, where each element of row `2r + 1` lies in its word against the same
    /// column's element of row `2r` (its place XOR this), where every element of the two
    /// rows shares its word: a thread then writes both rows from the words it loads once.
    /// `None` where they do not (or a thread moves one `vec4`).
    unpack_pairs: Option<Vec<usize>>,
}

/// What [`shared_words`] finds: [`Staged::pack_shared`], [`Staged::unpack_shared`] and
/// [`Staged::unpack_pairs`] (before the thread count decides whether rows pair).
struct Shared {
    pack: Vec<Share>,
    unpack: Vec<Share>,
    unpack_pairs: Option<Vec<usize>>,
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
        let Planar {
            tiles,
            tile: [rows, columns],
            grid: [grid_y, grid_x],
            extents: [height, width],
            per,
            quad,
        } = layout.planar()?;
        let space = tiles.space;
        if !(space.is_multiple_of(quad) && width.is_multiple_of(quad)) {
            return None;
        }
        // As many tiles as make `QUADS` vec4s for each of `THREADS` threads, or one tile of up
        // to `MAX_THREADS` threads of one.
        let moved = THREADS * QUADS * quad;
        let (region, threads, quads) = match (THREADS * quad).is_multiple_of(space) {
            true => (moved / space, THREADS, QUADS),
            false if space.is_multiple_of(THREADS * quad) && space / quad <= MAX_THREADS => {
                (1, space / quad, 1)
            }
            false => return None,
        };
        // The region's image rows must split into vec4s.
        if !(region * columns).is_multiple_of(quad) {
            return None;
        }
        let shared = match columns.is_multiple_of(per) {
            true => shared_words(&tiles.descriptor, [rows, columns], per)?,
            false => {
                let own: Vec<Share> = (0..quad).map(|i| Share { word: i, xor: None }).collect();
                Shared {
                    pack: own.clone(),
                    unpack: own,
                    unpack_pairs: None,
                }
            }
        };
        Some(Staged {
            pack_shared: shared.pack,
            unpack_shared: shared.unpack,
            unpack_pairs: shared.unpack_pairs.filter(|_| quads == 2),
            tile: [rows, columns],
            space,
            per,
            bits: layout.element_bits(),
            grid: [grid_y, grid_x],
            extents: [height, width],
            region,
            threads,
            quads,
            prefix: tiles.prefix.clone(),
        })
    }

    /// Workgroups `[x, y]`: regions along each row of tiles, rows of tiles.
    pub(super) fn groups(&self) -> [usize; 2] {
        [self.grid[1].div_ceil(self.region), self.grid[0]]
    }

    /// The kernel of `body` (its [`Staged::pack`] or [`Staged::unpack`]) after `layout`'s
    /// functions, over [`Staged::groups`], with buffers of `lengths` elements.
    pub(super) fn kernel(&self, layout: &GpuLayout, body: Module, lengths: [usize; 2]) -> Plan {
        Plan {
            wgsl: assemble(&[layout], &body.finish()),
            work: Work::Groups(self.groups()),
            lengths,
            bits: layout.element_bits(),
        }
    }

    /// Whether a tile can reach past the image (its cells outside keep their contents).
    fn partial(&self) -> bool {
        !self.extents[0].is_multiple_of(self.tile[0])
            || !self.extents[1].is_multiple_of(self.tile[1])
    }

    /// The constants, the bindings, the region in workgroup memory and its helpers.
    fn preamble(&self) -> Module {
        let [rows, columns] = self.tile;
        let [height, width] = self.extents;
        let quad = 4 * self.per;
        let words = self.region * self.space / self.per;
        let mut module = Module::new();
        module
            .constant("TILE_ROWS", u(rows))
            .constant("TILE_COLUMNS", u(columns))
            .constant("TILE_SPACE", u(self.space))
            .constant("GRID_COLUMNS", u(self.grid[1]))
            .constant("HEIGHT", u(height))
            .constant("WIDTH", u(width))
            .note("Elements per word, bits per element.")
            .constant("PER", u(self.per))
            .constant("BITS", u(self.bits))
            .constant("MASK", hex((1 << self.bits) - 1))
            .note("Tiles per region, the region's image columns, vec4s per region row and per tile block.")
            .constant("REGION", u(self.region))
            .constant("REGION_COLUMNS", u(self.region * columns))
            .constant("ROW_QUADS", u(self.region * columns / quad))
            .constant("TILE_QUADS", u(self.space / quad))
            .note("vec4s per image row.")
            .constant("WIDTH_QUADS", u(width / quad))
            .note("Threads per workgroup: each moves a vec4 at its index and at each multiple of THREADS past it.")
            .constant("THREADS", u(self.threads))
            .paragraph()
            .storage("src", Access::Read, "array<vec4<u32>>")
            .storage("dst", Access::ReadWrite, "array<vec4<u32>>")
            .note(
                "The region's words, one padding word after every 32 (a bank's worth), so that threads\n\
                 reading it across tiles (a tile's space apart) fall on different banks.",
            )
            .workgroup("region", array("u32", Some(words + words / 32)))
            .text(include_str!("staged.wgsl"));
        module
    }

    /// The entry point, and its body's head: the thread, the region's row of tiles and
    /// first tile column.
    fn entry(&self) -> (Entry, Block) {
        let entry = Entry::new(self.threads)
            .builtin(Builtin::LocalInvocationIndex, "thread")
            .builtin(Builtin::WorkgroupId, "group");
        let mut body = Block::new();
        body.let_("tile_y", "group.y")
            .let_("first_x", "group.x * REGION");
        (entry, body)
    }

    /// Elements in one vec4 of words.
    fn quad(&self) -> usize {
        4 * self.per
    }

    /// The region's vec4 that a thread moves `k`-th.
    fn index(k: usize) -> Expr {
        match k {
            0 => name("thread"),
            k => name("thread") + u(k) * name("THREADS"),
        }
    }

    /// The first phase: the thread's vec4s of the source, all loaded (`load`, a block over
    /// `index`, the vec4 of the region, that assigns it to the variable it is given, which
    /// stays zero outside the image), then staged into workgroup memory, then the barrier.
    fn stage_in(&self, body: &mut Block, load: impl Fn(&mut Block, &Expr)) {
        let loaded = |k: usize| numbered("loaded", [k]);
        for k in 0..self.quads {
            body.declare(loaded(k), "vec4<u32>").scope(|scope| {
                scope.let_("index", Self::index(k));
                load(scope, &loaded(k));
            });
        }
        for k in 0..self.quads {
            body.call(call("stage", [Self::index(k), loaded(k)]));
        }
        body.line("workgroupBarrier();");
    }

    /// The second phase: `write` (a block over `index`, the vec4 of the region it writes)
    /// once for each of the thread's vec4s, each in its own scope.
    fn write_out(&self, body: &mut Block, write: impl Fn(&mut Block)) {
        for k in 0..self.quads {
            body.scope(|scope| {
                scope.let_("index", Self::index(k));
                write(scope);
            });
        }
    }

    /// The vec4 of words from `elements` (one per element, in order): straight-line, each
    /// element shifted into its place, printed a word a line (a word of bytes is four
    /// elements long).
    fn words(&self, elements: &[Expr]) -> Expr {
        let lines: String = elements
            .chunks(self.per)
            .map(|elements| word(elements.iter().cloned(), self.bits).to_string())
            .map(|word| ["            ", &word, ",\n"].concat())
            .collect();
        Expr::text(["vec4<u32>(\n", &lines, "        )"].concat())
    }

    /// A pack: image rows in, tile blocks out. The module, after the layout's functions.
    pub(super) fn pack(&self) -> Module {
        let quad = self.quad();
        let partial = self.partial();
        let prefix = &self.prefix;
        // Each element of the thread's vec4 of the block, found through the tile's inverse.
        let mut elements = Vec::new();
        let mut kept = Vec::new();
        let mut find = Block::new();
        // The coordinate in its tile of element `i`, and its place in its word.
        let rc = |i: usize| numbered("rc", [i]);
        let place = |i: usize| rc(i).index(int(1)) % name("PER");
        for i in 0..quad {
            let Share { word, xor } = self.pack_shared[i];
            // An element whose place follows from its word's first element's needs neither
            // an inverse nor a bounds test of its own: a word lies wholly in the image or not.
            let (place, inside) = match xor {
                Some(k) if word != i => (place(word) ^ u(k), word),
                _ => {
                    let first = name("first") + u(i);
                    find.let_(rc(i), layout_call(prefix, "coord", [first]));
                    if partial {
                        let y = name("top") + rc(i).index(int(0));
                        let x = name("tile_left") + rc(i).index(int(1));
                        let inside = y.lt(name("HEIGHT")).and(x.lt(name("WIDTH")));
                        find.let_(numbered("in", [i]), inside);
                    }
                    (place(i), i)
                }
            };
            if word == i {
                let [y, x] = [0, 1].map(|j| rc(i).index(int(j)));
                let at = y * name("REGION_COLUMNS") + name("left") + x;
                find.let_(numbered("w", [i]), region_word(at / name("PER")));
            }
            let value = element(word, place);
            match partial {
                true => {
                    let inside = numbered("in", [inside]);
                    elements.push(call("select", [u(0), value, inside.clone()]));
                    kept.push(call("select", [name("MASK"), u(0), inside]));
                }
                false => elements.push(value),
            }
        }
        find.let_("words", self.words(&elements))
            .let_("block", tile_block());
        match partial {
            true => find
                .let_("kept", self.words(&kept))
                .assign("dst[block]", "words | (dst[block] & kept)"),
            false => find.assign("dst[block]", "words"),
        };
        let (entry, mut body) = self.entry();
        body.comment("The region's image rows, vec4s of them.");
        self.stage_in(&mut body, |load, loaded| {
            image_quad(load, |inside| {
                inside.assign(loaded, name("src").index(image_index(name("y"))));
            });
        });
        body.comment("vec4s of tiles' blocks, each element found through the tile's inverse.");
        self.write_out(&mut body, |write| {
            tile_quad(write, |tile| {
                tile.let_("first", name("quad") * u(quad))
                    .let_("left", "c * TILE_COLUMNS")
                    .let_("top", "tile_y * TILE_ROWS")
                    .let_("tile_left", "tile_x * TILE_COLUMNS")
                    .extend(find.clone());
            });
        });
        let mut module = self.preamble();
        module.entry(entry, body);
        module
    }

    /// An unpack: tile blocks in, image rows out. The module, after the layout's functions.
    pub(super) fn unpack(&self) -> Module {
        let quad = self.quad();
        let prefix = &self.prefix;
        // Each element of the thread's vec4 of the row, found through the tile's offset.
        let mut elements = Vec::new();
        // And of the row below, where rows share their words in pairs.
        let mut below = Vec::new();
        let mut find = Block::new();
        find.let_("first", name("column") * u(quad));
        // The element's index in the region, and its place in its word: the place of element
        // `at` there, XOR `k`.
        let at = |i: usize| numbered("at", [i]);
        let place = |i: usize, k: usize| match k {
            0 => at(i) % name("PER"),
            k => (at(i) % name("PER")) ^ u(k),
        };
        for i in 0..quad {
            let Share { word, xor } = self.unpack_shared[i];
            let (first, k) = match xor {
                Some(k) if word != i => (word, k),
                _ => {
                    let x = numbered("x", [i]);
                    let column = x.clone() % name("TILE_COLUMNS");
                    let offset = layout_call(prefix, "offset", [name("row"), column]);
                    find.let_(x.clone(), name("first") + u(i)).let_(
                        at(i),
                        x / name("TILE_COLUMNS") * name("TILE_SPACE") + offset,
                    );
                    (i, 0)
                }
            };
            if word == i {
                find.let_(numbered("w", [i]), region_word(at(i) / name("PER")));
            }
            elements.push(element(word, place(first, k)));
            if let Some(pairs) = &self.unpack_pairs {
                below.push(element(word, place(first, k ^ pairs[i])));
            }
        }
        let dst = name("dst");
        find.assign(
            dst.clone().index(image_index(name("y"))),
            self.words(&elements),
        );
        if self.unpack_pairs.is_some() {
            let next = name("y") + u(1);
            find.if_(next.clone().lt(name("HEIGHT")), |pair| {
                pair.assign(dst.index(image_index(next)), self.words(&below));
            });
        }
        let (entry, mut body) = self.entry();
        body.comment("The region's tile blocks, vec4s of them.");
        self.stage_in(&mut body, |load, loaded| {
            tile_quad(load, |tile| {
                tile.assign(loaded, name("src").index(tile_block()));
            });
        });
        body.comment("vec4s of image rows, each element found through the tile's offset.");
        let write = |write: &mut Block| {
            image_quad(write, |inside| {
                inside.extend(find.clone());
            });
        };
        match self.unpack_pairs {
            // A thread's two vec4s: one column of rows `2r` and `2r + 1`, from the same words.
            Some(_) => {
                body.scope(|scope| {
                    scope.let_(
                        "index",
                        "thread / ROW_QUADS * 2u * ROW_QUADS + thread % ROW_QUADS",
                    );
                    write(scope);
                });
            }
            None => self.write_out(&mut body, write),
        }
        let mut module = self.preamble();
        module.entry(entry, body);
        module
    }
}

/// Over `index`, a vec4 of the region as the image holds it: its `row` and vec4 `column` in
/// the region, its image row `y` and vec4 column `x_quad`; then `inside` where the image has
/// it.
fn image_quad(block: &mut Block, inside: impl FnOnce(&mut Block)) {
    block
        .let_("row", "index / ROW_QUADS")
        .let_("column", "index % ROW_QUADS")
        .let_("y", "tile_y * TILE_ROWS + row")
        .let_("x_quad", "first_x * TILE_COLUMNS / (4u * PER) + column")
        .if_("y < HEIGHT && x_quad < WIDTH_QUADS", inside);
}

/// The image's vec4 of row `y` at the vec4 column `x_quad` ([`image_quad`]).
fn image_index(y: Expr) -> Expr {
    y * name("WIDTH_QUADS") + name("x_quad")
}

/// Over `index`, a vec4 of the region as the tiles hold it: its tile `c` in the region and
/// vec4 `quad` in that tile, the tile's grid column `tile_x`; then `tile` where the grid has
/// that tile.
fn tile_quad(block: &mut Block, tile: impl FnOnce(&mut Block)) {
    block
        .let_("c", "index / TILE_QUADS")
        .let_("quad", "index % TILE_QUADS")
        .let_("tile_x", "first_x + c")
        .if_("tile_x < GRID_COLUMNS", tile);
}

/// The tiles' vec4 `quad` of tile `tile_x` of the region's row of tiles ([`tile_quad`]).
fn tile_block() -> Expr {
    let tile = name("tile_y") * name("GRID_COLUMNS") + name("tile_x");
    tile * name("TILE_QUADS") + name("quad")
}

/// `region[padded(word)]`: word `word` of the region in workgroup memory.
fn region_word(word: Expr) -> Expr {
    name("region").index(call("padded", [word]))
}

/// The element at `place` (in elements) of the region word `w<word>` a thread loaded.
fn element(word: usize, place: Expr) -> Expr {
    (numbered("w", [word]) >> (place * name("BITS"))) & name("MASK")
}

/// For the elements a thread moves (`4 · per` of them), the first element that lies in the
/// same region word wherever the thread is: for a pack, the elements at tile offsets
/// `first + i` (`first` a multiple of `4 · per`), whose words are the rows' aligned runs of
/// `per`; for an unpack, the elements at row columns `first + i`, whose words are the tile
/// blocks' aligned runs of `per`; and for an unpack, where rows `2r` and `2r + 1` share
/// every word (see [`Staged::unpack_pairs`]). `None` where the tile's offsets cannot be
/// evaluated.
fn shared_words(
    descriptor: &swizzle_core::ir::Descriptor,
    [rows, columns]: [usize; 2],
    per: usize,
) -> Option<Shared> {
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
    // Rows in pairs: `unpack` holds `period / quad` places per row.
    let per_row = period / quad;
    let pairs = rows.is_multiple_of(2).then(|| {
        (0..quad)
            .map(|i| {
                let both = |at: usize| Some((unpack[at][i]?, unpack[at + per_row][i]?));
                let ((_, above), (_, below)) = both(0)?;
                let k = above ^ below;
                (0..rows)
                    .step_by(2)
                    .flat_map(|y| (0..per_row).map(move |q| y * per_row + q))
                    .all(|at| matches!(both(at), Some(((a, p), (b, q))) if a == b && p ^ k == q))
                    .then_some(k)
            })
            .collect::<Option<Vec<usize>>>()
    });
    Some(Shared {
        pack: shares(&pack),
        unpack: shares(&unpack),
        unpack_pairs: pairs.flatten(),
    })
}

fn gcd(a: usize, b: usize) -> usize {
    match b {
        0 => a,
        b => gcd(b, a % b),
    }
}
