//! A surface and its levels: sizes in closed form, every level's place in O(1), and the
//! copies between the linear and the tiled side.

use crate::kernel::{Options, Stores, zeroed_output};
use crate::platform::{Direction, Tiling};
use crate::{Format, Platform, TextureError, checked_product};
use std::iter::FusedIterator;
use std::ops::Range;

/// A texture surface: a platform's tiling of `layers` images of `mips` levels each, mip 0
/// `width × height × depth` pixels of `format`.
///
/// Any values may be given; each method checks them and says what it refuses
/// ([`TextureError`]): no size is computed by a loop over layers or levels, and no
/// buffer is allocated before the input's length is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Surface {
    pub platform: Platform,
    pub width: usize,
    pub height: usize,
    pub depth: usize,
    pub layers: usize,
    pub mips: usize,
    pub format: Format,
}

/// One level of one layer: its size and where it lies on each side.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Level {
    pub layer: usize,
    pub mip: usize,
    /// The level's size in pixels (at least 1 each).
    pub width: usize,
    pub height: usize,
    pub depth: usize,
    /// Its size in blocks: `[depth, rows, columns]`.
    pub blocks: [usize; 3],
    /// Its bytes in the linear buffer.
    pub linear: Range<usize>,
    /// Its bytes in the tiled buffer, padding included.
    pub swizzled: Range<usize>,
}

impl Surface {
    /// One image, one level, of `width × height` pixels.
    pub fn new(platform: Platform, width: usize, height: usize, format: Format) -> Surface {
        Surface {
            platform,
            width,
            height,
            depth: 1,
            layers: 1,
            mips: 1,
            format,
        }
    }

    /// This surface with `depth` slices (a 3-D texture).
    pub fn depth(self, depth: usize) -> Surface {
        Surface { depth, ..self }
    }

    /// This surface with `layers` array layers (6 for a cube map).
    pub fn layers(self, layers: usize) -> Surface {
        Surface { layers, ..self }
    }

    /// This surface with `mips` mip levels.
    pub fn mips(self, mips: usize) -> Surface {
        Surface { mips, ..self }
    }

    /// Whether the surface holds no pixel (a zero size, layer count or mip count).
    pub fn is_empty(&self) -> bool {
        [self.width, self.height, self.depth, self.layers, self.mips].contains(&0)
    }

    /// The most mip levels the surface can have: one for each halving of its largest side
    /// down to 1 pixel (`⌊log2(largest side)⌋ + 1`; 0 for an empty size).
    pub fn max_mips(&self) -> usize {
        let largest = self.width.max(self.height).max(self.depth);
        (usize::BITS - largest.leading_zeros()) as usize
    }

    /// Mip `mip`'s size in pixels and in blocks (`[depth, rows, columns]`): each halving,
    /// rounded down, at least 1; blocks rounded up.
    pub fn mip_size(&self, mip: usize) -> ([usize; 3], [usize; 3]) {
        let block = self.format.block();
        let half = |n: usize| {
            let shift = u32::try_from(mip).unwrap_or(u32::MAX);
            n.checked_shr(shift).unwrap_or(0).max(1)
        };
        let pixels = [half(self.depth), half(self.height), half(self.width)];
        let blocks = [
            pixels[0].div_ceil(block.depth.max(1)),
            pixels[1].div_ceil(block.height.max(1)),
            pixels[2].div_ceil(block.width.max(1)),
        ];
        (pixels, blocks)
    }

    /// Bytes of the linear surface: every level tightly packed.
    pub fn linear_size(&self) -> Result<usize, TextureError> {
        Ok(self.geometry()?.linear_size)
    }

    /// Bytes of the tiled surface, padding and alignment included.
    pub fn swizzled_size(&self) -> Result<usize, TextureError> {
        Ok(self.geometry()?.tiled_size)
    }

    /// Every level, layer by layer and mip by mip within a layer (the linear buffer's
    /// order; [`Level::swizzled`] says where each lies on the tiled side), each made as
    /// it is reached.
    pub fn levels(&self) -> Result<Levels, TextureError> {
        let geometry = self.geometry()?;
        let end = geometry.layers * geometry.mips.len();
        Ok(Levels {
            geometry,
            next: 0,
            end,
        })
    }

    /// Mip `mip` of layer `layer`.
    pub fn level(&self, layer: usize, mip: usize) -> Result<Level, TextureError> {
        self.geometry()?
            .level(layer, mip)
            .ok_or(TextureError::Level { layer, mip })
    }

    /// Tiles the linear surface `src` ([`linear_size`](Self::linear_size) bytes) into `dst`
    /// ([`swizzled_size`](Self::swizzled_size) bytes). Padding bytes of `dst` are left as
    /// they were.
    pub fn swizzle(&self, src: &[u8], dst: &mut [u8]) -> Result<(), TextureError> {
        self.swizzle_with(Options::default(), src, dst)
    }

    /// [`swizzle`](Self::swizzle) with options (threads, SIMD level).
    pub fn swizzle_with(
        &self,
        options: Options,
        src: &[u8],
        dst: &mut [u8],
    ) -> Result<(), TextureError> {
        self.geometry()?.copy(options, Direction::Swizzle, src, dst)
    }

    /// The inverse of [`swizzle`](Self::swizzle): the tiled `src` into the linear `dst`.
    pub fn deswizzle(&self, src: &[u8], dst: &mut [u8]) -> Result<(), TextureError> {
        self.deswizzle_with(Options::default(), src, dst)
    }

    /// [`deswizzle`](Self::deswizzle) with options (threads, SIMD level).
    pub fn deswizzle_with(
        &self,
        options: Options,
        src: &[u8],
        dst: &mut [u8],
    ) -> Result<(), TextureError> {
        self.geometry()?
            .copy(options, Direction::Deswizzle, src, dst)
    }

    /// [`swizzle`](Self::swizzle) into a new zeroed buffer.
    pub fn swizzle_to_vec(&self, src: &[u8]) -> Result<Vec<u8>, TextureError> {
        self.swizzle_to_vec_with(Options::default(), src)
    }

    /// [`swizzle_to_vec`](Self::swizzle_to_vec) with options (threads, SIMD level). The
    /// source's length is checked before the buffer is allocated; a buffer the allocator
    /// cannot give is [`TextureError::OutOfMemory`]. A large buffer is advised to use huge
    /// pages (Linux), which saves most of its first-touch page faults. The new buffer is
    /// written through the cache unless `options` say how ([`Stores::Cached`]: its
    /// zeroing just brought it there).
    pub fn swizzle_to_vec_with(
        &self,
        options: Options,
        src: &[u8],
    ) -> Result<Vec<u8>, TextureError> {
        self.geometry()?
            .copy_to_vec(options, Direction::Swizzle, src)
    }

    /// [`deswizzle`](Self::deswizzle) into a new buffer.
    pub fn deswizzle_to_vec(&self, src: &[u8]) -> Result<Vec<u8>, TextureError> {
        self.deswizzle_to_vec_with(Options::default(), src)
    }

    /// [`deswizzle_to_vec`](Self::deswizzle_to_vec) with options (threads, SIMD level), its
    /// checks and buffer as [`swizzle_to_vec_with`](Self::swizzle_to_vec_with)'s.
    pub fn deswizzle_to_vec_with(
        &self,
        options: Options,
        src: &[u8],
    ) -> Result<Vec<u8>, TextureError> {
        self.geometry()?
            .copy_to_vec(options, Direction::Deswizzle, src)
    }

    /// The surface's levels laid out, after every check: the format, the mip count, the
    /// platform's rules, and every size in checked arithmetic.
    pub(crate) fn geometry(&self) -> Result<Geometry, TextureError> {
        if let Some(reason) = self.format.defect() {
            return Err(TextureError::Format {
                format: self.format,
                reason,
            });
        }
        if self.mips > self.max_mips() && !self.is_empty() {
            return Err(TextureError::Mips {
                mips: self.mips,
                max: self.max_mips(),
            });
        }
        if self.is_empty() {
            return Ok(Geometry::EMPTY);
        }
        let tiling = self.platform.tiling(self)?;
        let bytes = self.format.bytes_per_block();
        let add = |a: usize, b: usize| a.checked_add(b).ok_or(TextureError::Overflow);
        let mul = |a: usize, b: usize| a.checked_mul(b).ok_or(TextureError::Overflow);
        // One layer's mips (at most 64): their places within a layer, or, mip by mip,
        // each mip's slots' place in the tiled buffer.
        let mip_major = tiling.mip_slots(0).is_some();
        let (mut linear, mut tiled) = (0, 0);
        let mut mips = Vec::with_capacity(self.mips);
        for mip in 0..self.mips {
            let (pixels, blocks) = self.mip_size(mip);
            let linear_len = checked_product([bytes, blocks[0], blocks[1], blocks[2]])?;
            let tiled_len = tiling.level_size(mip, blocks)?;
            mips.push(Mip {
                pixels,
                blocks,
                linear: linear..add(linear, linear_len)?,
                tiled: tiled..add(tiled, tiled_len)?,
            });
            linear = add(linear, linear_len)?;
            let slots = tiling.mip_slots(mip).transpose()?.unwrap_or(1);
            tiled = add(tiled, mul(tiled_len, slots)?)?;
        }
        let tiled_layer = match mip_major {
            true => None,
            false => Some(
                tiled
                    .checked_next_multiple_of(tiling.layer_alignment())
                    .ok_or(TextureError::Overflow)?,
            ),
        };
        Ok(Geometry {
            tiling: Some(tiling),
            layers: self.layers,
            linear_layer: linear,
            tiled_layer,
            linear_size: mul(linear, self.layers)?,
            tiled_size: match tiled_layer {
                None => tiled,
                Some(stride) => mul(stride, self.layers)?,
            },
            mips,
        })
    }
}

/// One mip of one layer: its size, and its bytes within a layer (linear; tiled, layer by
/// layer) or its first layer's (tiled, mip by mip).
struct Mip {
    pixels: [usize; 3],
    blocks: [usize; 3],
    linear: Range<usize>,
    tiled: Range<usize>,
}

/// A surface's levels laid out: every level's place follows from one layer's mips in
/// O(1), whatever the layer count.
pub(crate) struct Geometry {
    /// The platform's tiling (`None` only for an empty surface, which has no level).
    tiling: Option<Box<dyn Tiling>>,
    layers: usize,
    mips: Vec<Mip>,
    /// Linear bytes of one layer.
    linear_layer: usize,
    /// Tiled bytes from one layer's start to the next; `None` where the tiled side is mip
    /// by mip (a layer's level then lies after the same level of the layers before).
    tiled_layer: Option<usize>,
    linear_size: usize,
    tiled_size: usize,
}

impl Geometry {
    const EMPTY: Geometry = Geometry {
        tiling: None,
        layers: 0,
        mips: Vec::new(),
        linear_layer: 0,
        tiled_layer: None,
        linear_size: 0,
        tiled_size: 0,
    };

    /// Mip `mip` of layer `layer`, if the surface has it. Every sum and product is at
    /// most the surface's size, which was computed in checked arithmetic.
    fn level(&self, layer: usize, mip: usize) -> Option<Level> {
        let place = self.mips.get(mip).filter(|_| layer < self.layers)?;
        let shift = |range: &Range<usize>, by: usize| range.start + by..range.end + by;
        let tiled = match self.tiled_layer {
            None => shift(&place.tiled, layer * place.tiled.len()),
            Some(stride) => shift(&place.tiled, layer * stride),
        };
        let [depth, height, width] = place.pixels;
        Some(Level {
            layer,
            mip,
            width,
            height,
            depth,
            blocks: place.blocks,
            linear: shift(&place.linear, layer * self.linear_layer),
            swizzled: tiled,
        })
    }

    /// Copies the whole surface, after checking both buffers' lengths.
    fn copy(
        &self,
        options: Options,
        direction: Direction,
        src: &[u8],
        dst: &mut [u8],
    ) -> Result<(), TextureError> {
        let (src_len, dst_len) = self.lengths(direction);
        check_length("source", src_len, src.len())?;
        check_length("destination", dst_len, dst.len())?;
        let Some(tiling) = &self.tiling else {
            return Ok(());
        };
        let mut parts = self.parts(direction, src, dst);
        let copy = |(level, src, dst): (Level, &[u8], &mut [u8])| {
            tiling.copy_level(options, direction, &level, src, dst)
        };
        // The levels at once where the copy may take rayon's whole pool (which then bounds
        // its threads): each level's setup, its bands and the small levels, each on one
        // thread, share the threads, the largest levels first, which take longest. Otherwise
        // one after the other, each spread over the threads it may take.
        let whole_pool = options
            .threads
            .is_none_or(|threads| threads.get() >= rayon::current_num_threads());
        match whole_pool && options.threads_for(self.lengths(direction).1, parts.len()) > 1 {
            true => {
                use rayon::prelude::*;
                parts.sort_by_key(|(_, _, dst)| std::cmp::Reverse(dst.len()));
                parts.into_par_iter().with_max_len(1).try_for_each(copy)
            }
            false => parts.into_iter().try_for_each(copy),
        }
    }

    /// Every level with its bytes on either side of a copy (`src` and `dst` of the
    /// surface's lengths), in the destination's order.
    fn parts<'b>(
        &self,
        direction: Direction,
        src: &'b [u8],
        dst: &'b mut [u8],
    ) -> Vec<(Level, &'b [u8], &'b mut [u8])> {
        let mut levels: Vec<Level> = (0..self.layers)
            .flat_map(|layer| (0..self.mips.len()).map(move |mip| (layer, mip)))
            .filter_map(|(layer, mip)| self.level(layer, mip))
            .collect();
        let sides = |level: &Level| match direction {
            Direction::Swizzle => (level.linear.clone(), level.swizzled.clone()),
            Direction::Deswizzle => (level.swizzled.clone(), level.linear.clone()),
        };
        levels.sort_by_key(|level| sides(level).1.start);
        // The levels' destinations are disjoint and inside it (the surface's layout, its
        // length checked): each is cut from what lies past the one before.
        let (mut rest, mut at) = (dst, 0);
        let mut parts = Vec::with_capacity(levels.len());
        for level in levels {
            let (from, to) = sides(&level);
            let tail = &mut std::mem::take(&mut rest)[to.start - at..];
            let (part, tail) = tail.split_at_mut(to.len());
            (rest, at) = (tail, to.end);
            parts.push((level, &src[from], part));
        }
        parts
    }

    /// [`copy`](Self::copy) into a new zeroed buffer of the destination's size, allocated
    /// only once the source's length is right; through the cache where `options` leave
    /// the choice to the runtime (the zeroing wrote the buffer's lines into the cache,
    /// and streaming stores over them would write each line to memory twice).
    fn copy_to_vec(
        &self,
        options: Options,
        direction: Direction,
        src: &[u8],
    ) -> Result<Vec<u8>, TextureError> {
        let (src_len, dst_len) = self.lengths(direction);
        check_length("source", src_len, src.len())?;
        let mut dst = zeroed_output(dst_len).ok_or(TextureError::OutOfMemory { bytes: dst_len })?;
        let options = match options.stores {
            Stores::Auto => options.stores(Stores::Cached),
            _ => options,
        };
        self.copy(options, direction, src, &mut dst)?;
        Ok(dst)
    }

    /// The source's and the destination's lengths of a copy.
    fn lengths(&self, direction: Direction) -> (usize, usize) {
        match direction {
            Direction::Swizzle => (self.linear_size, self.tiled_size),
            Direction::Deswizzle => (self.tiled_size, self.linear_size),
        }
    }

    /// The platform's tiling and a level of the surface, for the pictures.
    pub(crate) fn tiling_of(&self, layer: usize, mip: usize) -> Option<(&dyn Tiling, Level)> {
        Some((self.tiling.as_deref()?, self.level(layer, mip)?))
    }
}

/// A buffer's length against the surface's, or [`TextureError::Length`].
fn check_length(side: &'static str, expected: usize, found: usize) -> Result<(), TextureError> {
    match expected == found {
        true => Ok(()),
        false => Err(TextureError::Length {
            side,
            expected,
            found,
        }),
    }
}

/// The levels of a surface ([`Surface::levels`]), layer by layer, mip by mip, each made
/// as it is reached.
pub struct Levels {
    geometry: Geometry,
    next: usize,
    end: usize,
}

impl Iterator for Levels {
    type Item = Level;

    fn next(&mut self) -> Option<Level> {
        if self.next == self.end {
            return None;
        }
        let mips = self.geometry.mips.len();
        let level = self.geometry.level(self.next / mips, self.next % mips);
        self.next += 1;
        level
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.end - self.next;
        (left, Some(left))
    }

    fn nth(&mut self, n: usize) -> Option<Level> {
        self.next = self.next.saturating_add(n).min(self.end);
        self.next()
    }
}

impl ExactSizeIterator for Levels {}

impl FusedIterator for Levels {}
