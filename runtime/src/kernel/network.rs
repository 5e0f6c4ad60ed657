//! A plan's network made ready for one call: element lanes become byte controls for the
//! chosen level and element size, and frame offsets become byte offsets in the buffers.

use super::grid::Grid;
use super::simd::{Bound, Rows, TileRow};
use super::stage::{self, Staging};
use super::{CACHE_LINE, Element, Level, Network, Step};
use std::ops::Range;
use swizzle_core::simd::Permute;

/// The byte controls of one step. AVX-512 uses `control` (64 byte indices) and `keep`;
/// AVX2 uses the first 32 bytes of `control` (eight `u32` indices for 4- and 8-byte
/// elements, in-lane byte indices otherwise), `cross` and `blend`.
#[repr(C, align(64))]
pub struct Control {
    pub control: [u8; 64],
    /// AVX2, 1- and 2-byte elements: 0x80 where the byte comes from the other 128-bit lane.
    pub cross: [u8; 32],
    /// AVX2: 0xFF where the step writes the byte.
    pub blend: [u8; 32],
    /// AVX-512: bit `b` set where the step writes byte `b`.
    pub keep: u64,
    /// Byte offset of the source register from the tile's start.
    pub load: usize,
}

impl Control {
    /// The controls of `step` at `level` for elements of `size` bytes, its source register
    /// `load` bytes from the tile's start.
    fn new(level: Level, size: usize, step: &Step, load: usize) -> Self {
        let mut control = Control {
            control: [0; 64],
            cross: [0; 32],
            blend: [0; 32],
            keep: 0,
            load,
        };
        if level == Level::Scalar {
            return control;
        }
        // Byte permutes on AVX-512 (`vpermb`) whatever the size; AVX2's as the generated
        // rows permute: words (`vpermd`) for 4- and 8-byte elements, bytes otherwise.
        let permute = match level {
            Level::Avx512 => Permute::bytes(level, size),
            _ => Permute::new(level, size),
        };
        let step = permute.step(step);
        let bytes = |values: &[u32], into: &mut [u8]| {
            for (byte, &value) in into.iter_mut().zip(values) {
                *byte = value as u8;
            }
        };
        match level {
            Level::Avx512 => {
                bytes(&step.sources, &mut control.control);
                control.keep = step.writes;
            }
            _ if permute.words() => {
                // Little-endian `u32` word indices; a word's four bytes blend alike.
                for (word, &source) in step.sources.iter().enumerate() {
                    control.control[word * 4] = source as u8;
                    let blend = if step.writes >> word & 1 == 1 {
                        0xFF
                    } else {
                        0
                    };
                    control.blend[word * 4..][..4].fill(blend);
                }
            }
            _ => {
                let (within, cross) = step.in_halves();
                bytes(&within, &mut control.control);
                bytes(&cross, &mut control.cross);
                bytes(&step.blend(), &mut control.blend);
            }
        }
        control
    }
}

/// Bytes of controls an interpreted network may read per tile: a quarter of a 32 KiB L1
/// data cache, so that they stay there beside the tile's registers and the runs of the
/// edges. Past it, every step's controls come from L2, and the network loses to the plan's
/// runs (a 2048-word block-linear tile's AVX-512 network has 256 steps, 48 KiB of
/// controls: BENCHMARKS.md#copy-kernels, "What we tried").
const INTERPRETED_CONTROL_BYTES: usize = 8 << 10;

/// Whether the interpreted network of `level` for `E` beats the plan's runs, by the cost
/// model the default level follows: its controls fit [`INTERPRETED_CONTROL_BYTES`], and it
/// takes fewer steps than the tile has runs (a step, one load, permute and blend, costs
/// about what a run's load and store do).
pub fn interpreting_pays<E>(level: Level, plan: &super::Plan) -> bool {
    level.network::<E>(plan).is_some_and(|network| {
        network.steps.len() * size_of::<Control>() <= INTERPRETED_CONTROL_BYTES
            && network.steps.len() < plan.runs.len()
    })
}

/// A network ready to copy full tiles of one call.
#[cfg_attr(
    not(target_arch = "x86_64"),
    expect(dead_code, reason = "the controls are interpreted on x86-64 only")
)]
pub struct Prepared {
    pub level: Level,
    /// The kernel's generated rows of the level, bound to its token: they copy the full
    /// tiles where there are some, the controls below (then left empty) where not.
    generated: Option<Bound>,
    /// Bytes per register.
    pub register: usize,
    /// Whether stores may bypass the caches: the destination is larger than the caches, a
    /// tile writes whole cache lines, every store lies a multiple of the register from the
    /// tile's start, and every tile starts a multiple of it from the previous one.
    pub stream: bool,
    /// Where the destination is too large for the caches but its rows start off a line:
    /// how its tiles lie in it, for the generated rows to stream through a stage.
    staging: Option<Staging>,
    /// AVX2 with 4- or 8-byte elements: one `vpermd` per step.
    pub words: bool,
    /// Byte offsets of the destination registers from the tile's start, with their steps.
    pub stores: Vec<(usize, Range<usize>)>,
    pub steps: Vec<Control>,
    /// Bytes past a tile's start that the loads and stores reach.
    load_end: usize,
    store_end: usize,
}

impl Prepared {
    pub fn new<E: Element>(
        level: Level,
        network: &Network,
        rows: Rows,
        grid: &Grid,
        stream: bool,
    ) -> Self {
        let size = size_of::<E>();
        let register = level.register_bytes();
        let tile = grid.tile();
        let loads: Vec<usize> = network
            .loads
            .iter()
            .map(|&at| grid.from.frame_offset(at, tile) * size)
            .collect();
        // Steps come grouped by store, in store order (`Plan`s are validated for it).
        let mut stores: Vec<(usize, Range<usize>)> = Vec::with_capacity(network.stores.len());
        for (index, step) in network.steps.iter().enumerate() {
            let open = stores.len();
            match stores.last_mut() {
                Some((_, range)) if step.store + 1 == open => range.end = index + 1,
                _ => {
                    let offset = grid.to.frame_offset(network.stores[step.store], tile) * size;
                    stores.push((offset, index..index + 1));
                }
            }
        }
        // The interpreter's controls, where no generated rows take their place.
        let generated = rows.bind(level);
        let steps = match generated {
            Some(_) => Vec::new(),
            None => network
                .steps
                .iter()
                .map(|step| Control::new(level, size, step, loads[step.load]))
                .collect(),
        };
        let end = |offsets: &mut dyn Iterator<Item = usize>| offsets.max().unwrap_or(0) + register;
        let aligned = |offset: usize| offset.is_multiple_of(register);
        // A source placed by table is copied a few equally spaced tiles at a time (a pair of
        // sub-tiles side by side in a Morton order): streamed, each such row would write a
        // line or two of every destination row between lines written through the cache,
        // which ran at less than half the speed of writing them all through it.
        let stream = stream && !grid.from.is_placed();
        // A stage's row is written out whole: a tile of one row stages only where its
        // stores write every byte of it (a layout's tile space may have holes).
        let staging = grid
            .to
            .abutting_rows(tile)
            .filter(|_| stream && generated.is_some())
            .filter(|&[rows, width]| {
                rows > 1 || writes_every_byte(stores.iter().map(|s| s.0), register, width * size)
            })
            .and_then(|[rows, width]| Staging::new(level, rows, width * size));
        // Streaming only pays where a tile writes whole cache lines: partial lines written
        // around the caches are read back from memory. Tiles placed by table are not
        // known to start on lines, nor to fill the buffer.
        let stream = stream
            && !grid.to.is_placed()
            && (grid.to.run_len(tile) * size).is_multiple_of(CACHE_LINE)
            && stores.iter().all(|&(offset, _)| aligned(offset))
            && grid.to.units().iter().all(|&unit| aligned(unit * size));
        Prepared {
            level,
            generated,
            register,
            stream,
            staging,
            words: size >= 4,
            load_end: end(&mut loads.iter().copied()),
            store_end: end(&mut stores.iter().map(|&(offset, _)| offset)),
            stores,
            steps,
        }
    }

    /// Copies `count` full tiles, the `i`-th starting at `from + i · from_step` in `src` and
    /// `to + i · to_step` in `dst` (an image side's rows `pitches` elements apart); `false`
    /// (nothing copied) when a register would reach past either buffer, or the level has
    /// neither generated rows nor an interpreter here.
    pub fn copy_row<E: Element>(
        &self,
        src: &[E],
        dst: &mut [E],
        tiles: super::grid::Tiles,
        pitches: [usize; 2],
    ) -> bool {
        let (src, dst): (&[u8], &mut [u8]) =
            (bytemuck::cast_slice(src), bytemuck::cast_slice_mut(dst));
        let size = size_of::<E>();
        // The last tile reaches furthest: offsets grow with the tile.
        let end = |start: usize, step: usize, reach: usize| {
            let last = tiles
                .count
                .checked_sub(1)?
                .checked_mul(step)?
                .checked_add(start)?;
            last.checked_mul(size)?.checked_add(reach)
        };
        let fits = |start, step, reach, len| end(start, step, reach).is_some_and(|e| e <= len);
        let (src_len, dst_len) = (src.len(), dst.len());
        if !fits(tiles.from, tiles.from_step, self.load_end, src_len)
            || !fits(tiles.to, tiles.to_step, self.store_end, dst_len)
        {
            return false;
        }
        let row = TileRow {
            from: tiles.from * size,
            from_step: tiles.from_step * size,
            to: tiles.to * size,
            to_step: tiles.to_step * size,
            count: tiles.count,
            pitches: pitches.map(|pitch| pitch * size),
            stream: self.stream,
        };
        // The generated code's slices reach no further than the registers checked above:
        // it cannot panic.
        if let Some(generated) = self.generated {
            // Streaming stores where each lies on a line; through the stage where the
            // rows start off one.
            let on_lines = (dst.as_ptr() as usize + row.to).is_multiple_of(CACHE_LINE)
                && row.pitches[1].is_multiple_of(CACHE_LINE);
            let staged = match self.staging {
                Some(staging) if !(self.stream && on_lines) => {
                    stage::copy_row(generated, staging, src, dst, row)
                }
                _ => false,
            };
            if !staged {
                generated.copy(src, dst, row);
                row.finish_streams();
            }
            return true;
        }
        #[cfg(target_arch = "x86_64")]
        if matches!(self.level, Level::Avx2 | Level::Avx512) {
            // SAFETY: `Prepared` exists for a level only when `Level::is_available` said the
            // CPU runs it (checked in `copy_with`). Every load reads `register` bytes at most
            // `load_end` bytes past its tile's start, every store writes them at most
            // `store_end` past it, and the tiles' starts grow with `i`: the last tile's
            // reach, checked against the buffers just above, bounds them all.
            unsafe { super::x86::copy_row(self, src, dst, row) };
            row.finish_streams();
            return true;
        }
        false
    }
}

/// Whether registers of `register` bytes stored at `offsets` write every byte of `0..len`,
/// and none past it.
fn writes_every_byte(offsets: impl Iterator<Item = usize>, register: usize, len: usize) -> bool {
    let mut starts: Vec<usize> = offsets.collect();
    starts.sort_unstable();
    let mut end = 0;
    for start in starts {
        if start > end {
            return false;
        }
        end = end.max(start + register);
    }
    end == len
}

#[cfg(test)]
mod tests {
    use super::*;
    use swizzle_core::plans::kernel::Plan;
    use swizzle_core::simd::ELEMENT_SIZES;

    include!("../../../tests/common/kernels.rs");

    /// The plans of the kernel bench's kernels, as the front end checks them, and of the
    /// sub-tiles of those that copy their tiles as sub-tiles stacked.
    fn bench_plans() -> Vec<(String, Plan)> {
        let mut plans = Vec::new();
        let (_, checked) = swizzle_syntax::inspect_text(kernel_layouts!(stringify), |view| {
            if let swizzle_syntax::View::Kernel(item, kernel, _) = view {
                plans.push((item.name.to_string(), kernel.plan.clone()));
                if let Some(stacked) = &kernel.stacked {
                    plans.push((format!("{} (sub-tile)", item.name), stacked.plan.clone()));
                }
            }
        });
        checked.expect("the bench's kernels check");
        plans
    }

    /// For each byte of the register a step writes, the byte of its source register.
    type Sources = Vec<Option<usize>>;

    /// The sources of the interpreter's controls.
    fn interpreted(level: Level, control: &Control, words: bool) -> Sources {
        (0..level.register_bytes())
            .map(|byte| match level {
                Level::Avx512 => {
                    (control.keep >> byte & 1 == 1).then(|| control.control[byte].into())
                }
                _ if control.blend[byte] != 0xFF => None,
                _ if words => Some(usize::from(control.control[byte / 4 * 4]) * 4 + byte % 4),
                _ => {
                    let half = match control.cross[byte] {
                        0x80 => 16 - byte / 16 * 16,
                        _ => byte / 16 * 16,
                    };
                    Some(half + usize::from(control.control[byte]))
                }
            })
            .collect()
    }

    /// The sources of the generated rows' controls, in units of `unit` bytes.
    fn generated(control: &swizzle_core::simd::StepControl, unit: usize) -> Sources {
        (0..control.sources.len() * unit)
            .map(|byte| {
                let u = byte / unit;
                (control.writes >> u & 1 == 1)
                    .then(|| control.sources[u] as usize * unit + byte % unit)
            })
            .collect()
    }

    /// Unpacking 16 × 16 Morton tiles of words into a large image streams from tiles in a
    /// row, and never from the same tiles placed by table (copied a few at a time).
    #[test]
    fn a_source_placed_by_table_never_streams() {
        use super::super::{Frame, Side};
        let plans = bench_plans();
        let (_, plan) = plans
            .iter()
            .find(|(name, _)| name == "UnpackMorton16")
            .expect("the bench unpacks Morton tiles");
        let network = Level::Avx512
            .network::<u32>(plan)
            .expect("a network of words");
        let (extents, tiles) = ([64, 64], [4, 4]);
        let starts: [&[usize]; 2] = [&[0, 1024, 2048, 3072], &[0, 256, 512, 768]];
        let image = Side {
            extents: &extents,
            frame: Frame::RowMajor,
        };
        let in_a_row = Frame::Tiles {
            tiles: &tiles,
            tile_space: 256,
        };
        let placed = Frame::Placed {
            tiles: &tiles,
            tile_space: 256,
            starts: &starts,
        };
        let streams = |frame| {
            let from = Side {
                extents: &extents,
                frame,
            };
            let grid = Grid::new(plan, from, image).expect("the grid of a whole image");
            Prepared::new::<u32>(Level::Avx512, network, Rows::NONE, &grid, true).stream
        };
        assert!(streams(in_a_row));
        assert!(!streams(placed));
    }

    #[test]
    fn a_stage_row_is_staged_only_where_the_stores_write_all_of_it() {
        let every = |offsets: &[usize], len| writes_every_byte(offsets.iter().copied(), 32, len);
        assert!(every(&[0, 32, 64, 96], 128));
        assert!(every(&[96, 0, 64, 32], 128), "in any order");
        assert!(every(&[0, 16, 32], 64), "overlapping");
        assert!(!every(&[0, 64, 96], 128), "a hole");
        assert!(!every(&[0, 32, 64], 128), "short of the end");
        assert!(!every(&[0, 32, 64, 96], 120), "past the end");
        assert!(!every(&[32, 64, 96], 128), "short of the start");
        assert!(every(&[], 0) && !every(&[], 32));
    }

    #[test]
    fn generated_rows_and_interpreted_networks_build_the_same_controls() {
        let plans = bench_plans();
        // Eight kernels, and the sub-tiles of Block16's two.
        assert_eq!(plans.len(), 10, "every kernel of the bench");
        let mut compared = 0;
        for (name, plan) in &plans {
            for level in [Level::Avx2, Level::Avx512] {
                for size in ELEMENT_SIZES {
                    let lanes = level.lanes(size);
                    let Some(network) = plan.networks.iter().find(|n| n.lanes == lanes) else {
                        continue;
                    };
                    let permute = Permute::new(level, size);
                    let generated_controls = swizzle_syntax::step_controls(permute, network);
                    for (step, generated_control) in network.steps.iter().zip(&generated_controls) {
                        let control = Control::new(level, size, step, 0);
                        assert_eq!(
                            interpreted(level, &control, permute.words()),
                            generated(generated_control, permute.unit),
                            "{name}, {level:?}, {size}-byte elements, {step:?}"
                        );
                        compared += 1;
                    }
                }
            }
        }
        assert!(compared > 0);
    }
}
