//! Pictures of where a level's blocks land on the tiled side, drawn by tiling the level
//! with the platform's own kernels.

use crate::error::unsupported;
use crate::kernel::Options;
use crate::picture::{Cells, PictureError, cells_map, tile_svg};
use crate::platform::Direction;
use crate::{Surface, TextureError};
use swizzle_core::budget::PICTURE_CELLS;

impl Surface {
    /// Where each block of mip `mip` of layer `layer` starts among the level's tiled bytes
    /// (from the level's start), `[depth, rows, columns]` row-major, as cells for the
    /// pictures ([`picture::cells_map`](cells_map),
    /// [`picture::tile_svg`](tile_svg)). Computed by tiling the level with
    /// the surface's own kernels: once with each block's byte positions, then once per
    /// base-256 digit of each block's index, and reading them back where they landed.
    ///
    /// A level of more blocks than a picture holds is refused before anything is drawn.
    pub fn level_cells(&self, layer: usize, mip: usize) -> Result<Cells, TextureError> {
        self.cells_and_blocks(layer, mip).map(|(cells, _)| cells)
    }

    /// [`level_cells`](Self::level_cells), and the level's size in blocks (`[depth, rows,
    /// columns]`), from one layout of the surface's levels.
    fn cells_and_blocks(
        &self,
        layer: usize,
        mip: usize,
    ) -> Result<(Cells, [usize; 3]), TextureError> {
        let geometry = self.geometry()?;
        let (tiling, level) = geometry
            .tiling_of(layer, mip)
            .ok_or(TextureError::Level { layer, mip })?;
        let bytes = self.format.bytes_per_block();
        if bytes >= u8::MAX as usize {
            return Err(unsupported(
                self.platform,
                "pictures of blocks past 254 bytes",
            ));
        }
        let blocks = level
            .blocks
            .iter()
            .try_fold(1usize, |acc, &n| acc.checked_mul(n))
            .filter(|&blocks| blocks <= PICTURE_CELLS)
            .ok_or_else(|| {
                TextureError::Picture(PictureError::TooLarge {
                    shape: level.blocks.to_vec(),
                })
            })?;
        let tile = |mark: &dyn Fn(usize, usize) -> u8| -> Result<Vec<u8>, TextureError> {
            let linear: Vec<u8> = (0..level.linear.len())
                .map(|i| mark(i / bytes, i % bytes))
                .collect();
            let mut tiled = vec![0; level.swizzled.len()];
            let one = Options::default().threads(1);
            tiling.copy_level(one, Direction::Swizzle, &level, &linear, &mut tiled)?;
            Ok(tiled)
        };
        // Byte j of every block marked j + 1: a block starts where a 1 landed.
        let starts = tile(&|_, byte| byte as u8 + 1)?;
        let mut index = vec![0usize; starts.len()];
        let mut shift = 0;
        while shift < usize::BITS && blocks.checked_shr(shift).unwrap_or(0) > 0 {
            let digits = tile(&|block, _| (block >> shift) as u8)?;
            for (index, digit) in index.iter_mut().zip(digits) {
                *index |= usize::from(digit) << shift;
            }
            shift += 8;
        }
        let mut offsets = vec![None; blocks];
        for (at, _) in starts.iter().enumerate().filter(|(_, mark)| **mark == 1) {
            offsets[index[at]] = Some(at);
        }
        let [depth, rows, columns] = level.blocks;
        let (names, shape): (&[&str], Vec<usize>) = match depth {
            1 => (&["y", "x"], vec![rows, columns]),
            _ => (&["z", "y", "x"], vec![depth, rows, columns]),
        };
        let row_major = |coord: &[usize]| coord.iter().zip(&shape).fold(0, |i, (c, n)| i * n + c);
        let cells = Cells::from_fn(names, &shape, |coord| offsets[row_major(coord)])
            .map_err(TextureError::Picture)?;
        Ok((cells, level.blocks))
    }

    /// A text grid of mip `mip` of layer `layer`: each block's first tiled byte
    /// ([`level_cells`](Self::level_cells)), rows of blocks down, columns across.
    pub fn offset_map(&self, layer: usize, mip: usize) -> Result<String, TextureError> {
        Ok(cells_map(&self.level_cells(layer, mip)?))
    }

    /// An SVG picture of mip `mip` of layer `layer`: each block numbered with its first
    /// tiled byte and coloured by the `tile_bytes`-byte tile that holds it (512: the
    /// Switch's GOBs; 256: the Wii U's pipe groups).
    pub fn svg(&self, layer: usize, mip: usize, tile_bytes: usize) -> Result<String, TextureError> {
        let (cells, [_, h, w]) = self.cells_and_blocks(layer, mip)?;
        let title = format!(
            "{}, layer {layer}, mip {mip}: {w} × {h} blocks of {} bytes",
            self.platform,
            self.format.bytes_per_block()
        );
        Ok(tile_svg(&cells, &title, tile_bytes))
    }
}
