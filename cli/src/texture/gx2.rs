//! Wii U files as their GX2 headers describe them: mip 0's pitch (checked against the
//! surface's), and mips that lie at the header's offsets, padded apart further than the
//! library packs them. The tiled file is repacked between those offsets and the library's
//! [`Level::swizzled`](swizzle::texture::Level) ranges.

use super::args::{MipOffsetsArg, SurfaceArgs, offsets};
use crate::Failure;
use crate::files::Source;
use std::io::{self, Write};
use std::ops::Range;
use swizzle::texture::Surface;
use swizzle::texture::wiiu::level_info;

/// The most bytes a `--mip-offsets @FILE` may hold: 13 offsets as text, with room to spare.
const OFFSETS_FILE_LIMIT: u64 = 64 * 1024;

/// Where each mip lies in the tiled file and in the library's tiled buffer.
pub struct FileLayout {
    /// Per mip: its bytes in the file, and in the library's buffer (the same length).
    mips: Vec<(usize, Range<usize>)>,
    file_size: usize,
    library_size: usize,
}

/// Checks `--pitch` and reads `--mip-offsets` of a Wii U surface: the file's layout when its
/// mips lie elsewhere than the library packs them.
pub fn file_layout(args: &SurfaceArgs, surface: &Surface) -> Result<Option<FileLayout>, Failure> {
    if let Some(pitch) = args.pitch {
        let actual = level_info(surface, 0)
            .map_err(|e| Failure::Input(e.to_string()))?
            .pitch;
        if actual != pitch {
            return Err(Failure::Input(format!(
                "--pitch {pitch} is not the surface's: its mip 0 has a pitch of {actual} blocks \
                 (check --width, --format and --tile-mode against the header)"
            )));
        }
    }
    let offsets = match &args.mip_offsets {
        None => return Ok(None),
        Some(MipOffsetsArg::List(offsets)) => offsets.clone(),
        Some(MipOffsetsArg::File(path)) => {
            let source = Source::new(path.clone());
            let bytes = source
                .open()?
                .read_up_to(OFFSETS_FILE_LIMIT, "a file of mip offsets holds")?;
            let text = String::from_utf8(bytes).map_err(|_| {
                Failure::Input(format!(
                    "{} is not text: mip offsets are written as text",
                    source.name()
                ))
            })?;
            offsets(&text).map_err(|e| Failure::Input(format!("{}: {e}", source.name())))?
        }
    };
    FileLayout::new(surface, &offsets).map(Some)
}

impl FileLayout {
    /// The layout of GX2 offsets `offsets`: mip 1 at `offsets[0]`, mip `k` ≥ 2 at
    /// `offsets[0] + offsets[k - 1]` (GX2 counts mips after the first from mip 1's start);
    /// offsets past the last mip must be 0, as a header leaves them.
    pub fn new(surface: &Surface, offsets: &[usize]) -> Result<FileLayout, Failure> {
        let fail = |message: String| Failure::Input(format!("--mip-offsets: {message}"));
        let needed = surface.mips - 1;
        if offsets.len() < needed {
            return Err(fail(format!(
                "{} offset(s) given; the surface's {} mips need {needed}",
                offsets.len(),
                surface.mips
            )));
        }
        if let Some(extra) = offsets[needed..].iter().position(|&offset| offset != 0) {
            return Err(fail(format!(
                "offset {} is {}, but the surface has only {} mips (a header leaves the \
                 offsets past its mips 0)",
                needed + extra,
                offsets[needed + extra],
                surface.mips
            )));
        }
        let library = library_spans(surface)?;
        let mut mips = Vec::with_capacity(library.len());
        let mut end = 0usize;
        for (mip, span) in library.into_iter().enumerate() {
            let start = match mip {
                0 => 0,
                1 => offsets[0],
                _ => offsets[0]
                    .checked_add(offsets[mip - 1])
                    .ok_or_else(|| fail(format!("mip {mip}'s offset overflows")))?,
            };
            if start < end {
                return Err(fail(format!(
                    "mip {mip} would start at byte {start}, inside mip {} (which ends at {end})",
                    mip - 1
                )));
            }
            end = start
                .checked_add(span.len())
                .ok_or_else(|| fail(format!("mip {mip}'s end overflows")))?;
            mips.push((start, span));
        }
        // The surface's padding after its last mip (a whole tile of slices) ends the file as
        // it ends the library's buffer.
        let library_size = surface
            .swizzled_size()
            .map_err(|e| Failure::Input(e.to_string()))?;
        let tail = mips.last().map_or(0, |(_, span)| library_size - span.end);
        Ok(FileLayout {
            mips,
            file_size: end
                .checked_add(tail)
                .ok_or_else(|| fail("the file's size overflows".to_owned()))?,
            library_size,
        })
    }

    /// The tiled file's size.
    pub fn file_size(&self) -> usize {
        self.file_size
    }

    /// Writes the file of the library's tiled buffer `tiled`: each mip at its offset, zeros
    /// between (streamed: offsets far apart cost no memory).
    pub fn write(&self, tiled: &[u8], out: &mut dyn Write) -> io::Result<()> {
        const ZEROS: [u8; 4096] = [0; 4096];
        let mut at = 0;
        for (start, span) in &self.mips {
            while at < *start {
                let gap = (*start - at).min(ZEROS.len());
                out.write_all(&ZEROS[..gap])?;
                at += gap;
            }
            out.write_all(&tiled[span.clone()])?;
            at += span.len();
        }
        Ok(())
    }

    /// The library's tiled buffer of the tiled file `file`.
    pub fn unpack(&self, file: &[u8]) -> Vec<u8> {
        let mut tiled = vec![0; self.library_size];
        for (start, span) in &self.mips {
            tiled[span.clone()].copy_from_slice(&file[*start..][..span.len()]);
        }
        tiled
    }
}

/// Each mip's bytes in the library's tiled buffer, all its layers (or slices) together:
/// GX2 stores a mip's slices one after the other, mip after mip.
fn library_spans(surface: &Surface) -> Result<Vec<Range<usize>>, Failure> {
    let input = |e: swizzle::texture::TextureError| Failure::Input(e.to_string());
    let mut spans: Vec<Range<usize>> = Vec::with_capacity(surface.mips);
    for mip in 0..surface.mips {
        let first = surface.level(0, mip).map_err(input)?.swizzled;
        let last = surface
            .level(surface.layers - 1, mip)
            .map_err(input)?
            .swizzled;
        if spans
            .last()
            .is_some_and(|previous| previous.end > first.start)
        {
            return Err(Failure::Input(
                "--mip-offsets: this surface's mips are not stored one after the other".to_owned(),
            ));
        }
        spans.push(first.start..last.end);
    }
    Ok(spans)
}
