//! Copies between two [`View`]s of one image. Where both store the same coordinate fastest,
//! the copy moves lines; where they do not (row-major ↔ column-major), it is a transpose:
//! the plane is cut into bands of 64 destination rows and blocks of columns, and each block
//! into register-sized squares transposed in registers, with scalar code at the edges and
//! for other element sizes: AVX2 squares (8 × 8 of 4-byte elements, 4 × 4 of 8-byte ones)
//! staged in L1 a tile of 64 rows × 256 bytes at a time; AVX-512 squares (16 × 16 and 8 × 8,
//! a whole cache line a register) written straight into the destination. More coordinates
//! are planes of two, one after the other.

use super::{Element, KernelError, Level, Options, View};

/// Destination rows per band of a transpose: the source lines a band reads are 64 elements
/// long (whole cache lines for every element size up to 8 bytes).
const BLOCK: usize = 64;
/// Destination columns per cache block of a band: long runs of each destination row
/// written one after the other, while the block's source lines (512 × 64 elements) stay
/// in L2. Measured at 4096² f32 against blocks of 32 to 256 columns
/// (BENCHMARKS.md#transposes, in the file's git history).
const BLOCK_COLS: usize = 512;

/// Copies `src`, laid out as `from` says, into `dst`, laid out as `to` says, with the
/// widest SIMD this CPU runs, across threads from 1 MiB of destination on. Both views
/// must have the same extents; views of more than two coordinates are copied plane by
/// plane. Elements of `dst` outside `to` are left as they were.
///
/// `copy_views(&View::row_major(&[h, w])?, &View::column_major(&[h, w])?, ..)` is the
/// transpose of an `h × w` row-major matrix into a `w × h` row-major one.
pub fn copy_views<E: Element>(
    from: &View,
    to: &View,
    src: &[E],
    dst: &mut [E],
) -> Result<(), KernelError> {
    copy_views_with(Options::default(), from, to, src, dst)
}

/// [`copy_views`] as `options` say: the level ([`Level::Scalar`]: scalar code on any CPU) and
/// the threads.
pub fn copy_views_with<E: Element>(
    options: Options,
    from: &View,
    to: &View,
    src: &[E],
    dst: &mut [E],
) -> Result<(), KernelError> {
    let level = options.level.unwrap_or_else(|| {
        Level::ALL
            .into_iter()
            .rev()
            .find(|level| level.is_available())
            .unwrap_or(Level::Scalar)
    });
    if !level.is_available() {
        return Err(KernelError::Unsupported(level));
    }
    if from.extents() != to.extents() {
        return Err(KernelError::Extents {
            from: from.extents().to_vec(),
            to: to.extents().to_vec(),
        });
    }
    for (side, view, len) in [("source", from, src.len()), ("destination", to, dst.len())] {
        let needed = view.reach().ok_or_else(|| KernelError::Overflow {
            extents: view.extents().to_vec(),
        })?;
        if len < needed {
            return Err(KernelError::Reach {
                side,
                needed,
                found: len,
            });
        }
    }
    match from.extents().len() {
        _ if from.is_empty() => return Ok(()),
        // No coordinates: one element.
        0 => {
            dst[to.origin()] = src[from.origin()];
            return Ok(());
        }
        _ => {}
    }
    if from.extents().len() <= 2 {
        copy_plane(level, options, from, to, src, dst);
        return Ok(());
    }
    // More coordinates: one plane over the destination's fastest coordinate and the
    // source's (or the destination's next, where they agree) for every value of the others.
    let [a, b] = plane_coordinates(from, to);
    let extents = from.extents();
    let mut others = extents.to_vec();
    others[a] = 1;
    others[b] = 1;
    let plane_extents = [extents[a], extents[b]];
    for place in swizzle_core::ir::coordinates(&others) {
        // Sub-views of valid views: they fit and do not overlap.
        let plane = |view: &View| {
            let origin = view.offset(&place).unwrap_or(view.origin());
            let strides = [view.strides()[a], view.strides()[b]];
            View::strided(&plane_extents, &strides, origin)
        };
        copy_plane(level, options, &plane(from)?, &plane(to)?, src, dst);
    }
    Ok(())
}

/// The two coordinates of the planes a copy of more than two coordinates is cut into: the
/// destination's fastest, and the source's fastest (or, where that is the same one, the
/// destination's next); each among the coordinates of more than one element where there
/// are enough.
fn plane_coordinates(from: &View, to: &View) -> [usize; 2] {
    let by_stride = |view: &View| {
        let mut order: Vec<usize> = (0..view.extents().len()).collect();
        order.sort_by_key(|&i| (view.extents()[i] <= 1, view.strides()[i]));
        order
    };
    let (source, destination) = (by_stride(from), by_stride(to));
    let a = destination[0];
    let b = match source[0] == a {
        true => destination[1],
        false => source[0],
    };
    [a, b]
}

/// A copy of one or two coordinates, its bands across threads as `options` say. The
/// views fit their buffers (checked by the caller).
fn copy_plane<E: Element>(
    level: Level,
    options: Options,
    from: &View,
    to: &View,
    src: &[E],
    dst: &mut [E],
) {
    let plane = Plane::new(from, to);
    super::options::for_each_band(
        &mut dst[to.origin()..],
        plane.band_len(),
        plane.bands(),
        options.threads,
        |band, dst| plane.copy_band(level, band, src, dst),
    );
}

/// The copy as a plane of `rows × cols`, rows along the destination's slowest coordinate.
/// Element `(r, c)` lies at `src_origin + r · src_row + c · src_col` in the source and at
/// `r · dst_row + c · dst_col` past the destination's origin. A band is `BLOCK` rows of
/// the destination where the copy is a transpose, one row where the source's lines run the
/// same way.
struct Plane {
    rows: usize,
    cols: usize,
    src_origin: usize,
    src_row: usize,
    src_col: usize,
    dst_row: usize,
    dst_col: usize,
    /// Rows per band.
    band_rows: usize,
}

impl Plane {
    /// Rows are the destination's slowest coordinate with more than one element, columns
    /// the other (a plane of one row in one dimension).
    fn new(from: &View, to: &View) -> Self {
        let extents = to.extents();
        let (row, col) = match extents.len() {
            1 => (None, 0),
            _ => {
                // The destination's outermost coordinate: its lines occupy disjoint ranges.
                let outer = match (extents[0] > 1, extents[1] > 1) {
                    (true, true) => usize::from(to.strides()[1] > to.strides()[0]),
                    (false, _) => 1,
                    (true, false) => 0,
                };
                (Some(outer), 1 - outer)
            }
        };
        let (rows, src_row, dst_row) = match row {
            Some(row) => (extents[row], from.strides()[row], to.strides()[row]),
            None => (1, 0, 0),
        };
        let (cols, src_col, dst_col) = (extents[col], from.strides()[col], to.strides()[col]);
        // A transpose when the source's lines cross the destination's.
        let transposed = rows > 1 && cols > 1 && src_row < src_col;
        Plane {
            rows,
            cols,
            src_origin: from.origin(),
            src_row,
            src_col,
            dst_row,
            dst_col,
            band_rows: if transposed { BLOCK } else { 1 },
        }
    }

    fn bands(&self) -> usize {
        self.rows.div_ceil(self.band_rows)
    }

    /// Elements of the destination between the starts of two bands: every element of a
    /// band lies in its range, as the destination's rows do not overlap.
    fn band_len(&self) -> usize {
        match self.rows {
            1 => (self.cols - 1) * self.dst_col + 1,
            _ => self.band_rows * self.dst_row,
        }
    }

    /// Copies band `band` into `dst`, the band's range of the destination.
    fn copy_band<E: Element>(&self, level: Level, band: usize, src: &[E], dst: &mut [E]) {
        let first = band * self.band_rows;
        let rows = first..(first + self.band_rows).min(self.rows);
        if self.band_rows == 1 {
            return self.copy_line(first, src, dst);
        }
        for col in (0..self.cols).step_by(BLOCK_COLS) {
            let cols = col..(col + BLOCK_COLS).min(self.cols);
            let block = Block {
                rows: rows.clone(),
                cols,
                band_start: first,
            };
            self.transpose_block(level, &block, src, dst);
        }
    }

    /// One row of the destination, from a line of the source that runs the same way.
    fn copy_line<E: Element>(&self, row: usize, src: &[E], dst: &mut [E]) {
        let start = self.src_origin + row * self.src_row;
        if self.src_col == 1 && self.dst_col == 1 {
            dst[..self.cols].copy_from_slice(&src[start..start + self.cols]);
            return;
        }
        for c in 0..self.cols {
            dst[c * self.dst_col] = src[start + c * self.src_col];
        }
    }

    /// A cache block of a band: squares in registers where the level and the element size
    /// have them and both sides' lines are contiguous, scalar code for the rest.
    fn transpose_block<E: Element>(&self, level: Level, block: &Block, src: &[E], dst: &mut [E]) {
        let (rows, cols) = (block.rows.len(), block.cols.len());
        let contiguous = self.src_row == 1 && self.dst_col == 1;
        // The area the squares cover, where they run: whole squares from the block's start.
        let whole = match (square::<E>(level), contiguous) {
            (Some(side), true) => {
                let whole = [rows - rows % side, cols - cols % side];
                let covered = whole[0] > 0
                    && whole[1] > 0
                    && self.squares(level, block, whole, side, src, dst);
                if covered { whole } else { [0, 0] }
            }
            _ => [0, 0],
        };
        // Whatever the squares left: the columns past them in every row, and the rows past
        // them in their columns.
        for r in block.rows.clone() {
            let skip = match r - block.rows.start < whole[0] {
                true => whole[1],
                false => 0,
            };
            for c in block.cols.start + skip..block.cols.end {
                dst[(r - block.band_start) * self.dst_row + c * self.dst_col] =
                    src[self.src_origin + r * self.src_row + c * self.src_col];
            }
        }
    }

    /// The `whole[0] × whole[1]` elements at the block's start in `level`'s squares of
    /// `side`, in registers; `false` (nothing written) if a square would reach past a buffer.
    fn squares<E: Element>(
        &self,
        level: Level,
        block: &Block,
        whole: [usize; 2],
        side: usize,
        src: &[E],
        dst: &mut [E],
    ) -> bool {
        let (r0, c0) = (block.rows.start, block.cols.start);
        // The furthest element of the area on each side (offsets grow with r and c).
        let (r_last, c_last) = (r0 + whole[0] - 1, c0 + whole[1] - 1);
        let src_start = self.src_origin + r0 + c0 * self.src_col;
        let src_end = self.src_origin + r_last + c_last * self.src_col;
        let dst_start = (r0 - block.band_start) * self.dst_row + c0;
        let dst_end = (r_last - block.band_start) * self.dst_row + c_last;
        if src_end >= src.len() || dst_end >= dst.len() {
            return false;
        }
        #[cfg(target_arch = "x86_64")]
        {
            let size = size_of::<E>();
            let area = super::transpose_x86::Area {
                rows: whole[0],
                cols: whole[1],
                side,
                size,
                src_line: self.src_col * size,
                dst_line: self.dst_row * size,
            };
            let (from, to) = (
                src.as_ptr().wrapping_add(src_start).cast(),
                dst.as_mut_ptr().wrapping_add(dst_start).cast(),
            );
            // SAFETY: `square` gives a side only at the AVX2 and AVX-512 levels (checked as
            // available by `copy_views_with`: each has the target features of its squares)
            // for 4- and 8-byte elements, the side of the level's squares. Source element
            // (r, c) of the area lies at `src_start + r + c · src_col` (`src_row` is 1) and
            // destination element at `dst_start + r · dst_row + c` (`dst_col` is 1): both
            // grow with `r` and `c`, so the last element of each, checked against the
            // buffers just above, bounds them all (and the starts lie inside them).
            unsafe {
                match level {
                    Level::Avx512 => super::transpose_x86::transpose_area_avx512(from, to, area),
                    Level::Avx2 => super::transpose_x86::transpose_area(from, to, area),
                    Level::Scalar | Level::Neon => return false,
                }
            }
            true
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (level, src_start, dst_start, side);
            false
        }
    }
}

/// Elements per side of the squares transposed in registers at `level`, for elements of
/// `E`: a register's lanes, AVX2's eight 4-byte or four 8-byte ones, AVX-512's sixteen or
/// eight (none at NEON yet: runs there).
fn square<E>(level: Level) -> Option<usize> {
    let lanes = level.register_bytes() / size_of::<E>().max(1);
    match (level, size_of::<E>()) {
        (Level::Scalar | Level::Neon, _) => None,
        (_, 4 | 8) => Some(lanes),
        _ => None,
    }
}

/// The part of a band one cache block covers: destination rows and columns, with the
/// band's first row (its origin in the band's slice).
struct Block {
    rows: std::ops::Range<usize>,
    cols: std::ops::Range<usize>,
    band_start: usize,
}
