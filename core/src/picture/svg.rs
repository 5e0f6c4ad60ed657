//! SVG pictures: cells coloured by bank or by the lane that touches them, offsets written in
//! the cells when they fit, row and column indices, a title and a legend, and optionally a
//! [`Path`] over the cells: arrows between its stops, frames around a traversal's vector
//! accesses. Plain SVG 1.1 with no scripts or styles, so browsers, editors and `resvg` all
//! draw it alike.

use super::cells::{Cells, PictureError};
use super::geometry::{
    CHAR_WIDTH, Geometry, HEADER, LABEL_FONT, MARGIN, corner_label, digits, text_width,
};
use super::palette;
use super::path::{Path, Stop};
use crate::analysis::Access;
use crate::analysis::banks::{Banks, bank_of};
use crate::ir::Descriptor;
use std::fmt::Write;

/// What the colour of a cell says.
#[derive(Clone, Debug)]
pub enum Coloring {
    /// The shared-memory bank of the cell's element.
    Bank { element_bytes: usize, banks: Banks },
    /// The lane of the access that touches the cell (the first one, where lanes share an
    /// element); cells no lane touches are light grey.
    Lane(Access),
}

/// Smallest font that numbers in cells are written with; in smaller cells they are dropped
/// and only colours remain (a 128 × 128 tile).
const MIN_NUMBER_FONT: f64 = 7.0;
/// Side of a legend swatch.
const SWATCH: u32 = 12;
/// Narrowest picture, so that the title and legend have room next to a small grid.
const MIN_WIDTH: u32 = 400;

/// An SVG picture of `descriptor`, coloured as `coloring` says.
pub fn svg(descriptor: &Descriptor, coloring: &Coloring) -> Result<String, PictureError> {
    picture(descriptor, coloring, None)
}

/// [`svg`] with `path` drawn over the cells as arrows; a traversal's vector accesses are
/// outlined.
pub fn svg_with_path(
    descriptor: &Descriptor,
    coloring: &Coloring,
    path: &Path,
) -> Result<String, PictureError> {
    picture(descriptor, coloring, Some(path))
}

/// An SVG picture of cells built otherwise ([`Cells::from_fn`]) under `title`: each cell
/// numbered with its offset and coloured by the tile of `tile` elements that holds it
/// (`offset / tile`: a texture's GOB or pipe group).
pub fn tile_svg(cells: &Cells, title: &str, tile: usize) -> String {
    let tile = tile.max(1);
    let of: Vec<Option<usize>> = (0..cells.len())
        .map(|i| cells.offset(i).map(|o| o / tile))
        .collect();
    let count = of.iter().flatten().max().map_or(1, |last| last + 1);
    let classes = Classes {
        kind: "tile",
        count,
        of,
        caption: format!(
            "colour: the tile of {tile} elements holding each cell; number: its offset"
        ),
        untouched: false,
        empty: "padding",
    };
    draw(cells, &classes, title, None)
}

fn picture(
    descriptor: &Descriptor,
    coloring: &Coloring,
    path: Option<&Path>,
) -> Result<String, PictureError> {
    let cells = Cells::new(descriptor)?;
    let stops = path.map(|path| path.stops(&cells)).transpose()?;
    let classes = Classes::new(descriptor, &cells, coloring)?;
    let title = format!("{} — {}", descriptor.name, shape_text(descriptor));
    let path = path.zip(stops);
    Ok(draw(
        &cells,
        &classes,
        &title,
        path.as_ref().map(|(p, s)| (*p, s.as_slice())),
    ))
}

/// The picture of `cells` (each numbered with its value), coloured by `classes`, with the
/// path's stops drawn over it.
pub(super) fn draw(
    cells: &Cells,
    classes: &Classes,
    title: &str,
    path: Option<(&Path, &[Stop])>,
) -> String {
    let geometry = Geometry::new(cells);
    let note = path.map(|(path, _)| format!("path: {}", path.describe()));
    let width = (geometry.right() + MARGIN)
        .max(text_width(title.chars().count(), 16) + 2 * MARGIN)
        .max(text_width(classes.caption.chars().count(), 12) + 2 * MARGIN)
        .max(note.as_ref().map_or(0, |note| {
            text_width(note.chars().count(), LABEL_FONT) + 2 * MARGIN
        }))
        .max(MIN_WIDTH);
    let legend = Legend::new(classes, cells, note, width);
    let height = geometry.bottom() + legend.height() + MARGIN;

    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Verdana, sans-serif" fill="{ink}">"#,
        ink = palette::INK
    );
    let _ = writeln!(
        out,
        r#"<rect width="{width}" height="{height}" fill="white"/>"#
    );
    let _ = writeln!(
        out,
        r#"<text x="{MARGIN}" y="{}" font-size="16" font-weight="bold">{}</text>"#,
        MARGIN + 16,
        escape(title)
    );
    let _ = writeln!(
        out,
        r#"<text x="{MARGIN}" y="{}" font-size="12">{}</text>"#,
        MARGIN + HEADER - 14,
        escape(&classes.caption)
    );
    indices(&mut out, cells, &geometry);
    fills(&mut out, cells, classes, &geometry);
    numbers(&mut out, cells, &geometry);
    if let Some((path, stops)) = path {
        if path.outlined() {
            outlines(&mut out, cells, &geometry, stops);
        }
        arrows(&mut out, cells, &geometry, stops);
    }
    legend.write(&mut out, geometry.bottom());
    out.push_str("</svg>\n");
    out
}

/// `name — m × k = 128 × 32`.
fn shape_text(descriptor: &Descriptor) -> String {
    let names: Vec<&str> = descriptor
        .coords
        .iter()
        .map(|&c| descriptor.dims[c].name.as_ref())
        .collect();
    let lens: Vec<String> = descriptor.shape().iter().map(usize::to_string).collect();
    format!("{} = {}", names.join(" × "), lens.join(" × "))
}

/// The colour class (bank, lane or thread) of every cell, `None` for grey cells.
pub(super) struct Classes {
    /// `bank`, `lane` or `thread`, for the legend.
    pub kind: &'static str,
    /// Number of classes.
    pub count: usize,
    pub of: Vec<Option<usize>>,
    /// One line under the title that says what the colours mean.
    pub caption: String,
    /// Whether grey can also mean "no lane touches this".
    pub untouched: bool,
    /// What the legend calls a cell without a value.
    pub empty: &'static str,
}

impl Classes {
    fn new(
        descriptor: &Descriptor,
        cells: &Cells,
        coloring: &Coloring,
    ) -> Result<Classes, PictureError> {
        Ok(match coloring {
            Coloring::Bank {
                element_bytes,
                banks,
            } => Classes {
                kind: "bank",
                count: banks.count,
                of: (0..cells.len())
                    .map(|i| cells.offset(i).map(|o| bank_of(o, *element_bytes, *banks)))
                    .collect(),
                caption: format!(
                    "colour: bank of each element ({} banks × {} B, {element_bytes}-byte elements)",
                    banks.count, banks.width_bytes
                ),
                untouched: false,
                empty: "padding",
            },
            Coloring::Lane(access) => {
                let mut of = vec![None; cells.len()];
                for touch in access.touches(descriptor).map_err(PictureError::Access)? {
                    if let Some(index) = cells.index(&touch.coord) {
                        of[index].get_or_insert(touch.lane);
                    }
                }
                let name = if access.name.is_empty() {
                    String::new()
                } else {
                    format!(" `{}`", access.name)
                };
                Classes {
                    kind: "lane",
                    count: access.lanes,
                    of,
                    caption: format!(
                        "colour: lane of access{name} ({} lanes × {} element{})",
                        access.lanes,
                        access.vector,
                        if access.vector == 1 { "" } else { "s" }
                    ),
                    untouched: true,
                    empty: "padding",
                }
            }
        })
    }

    fn fill(&self, cells: &Cells, index: usize) -> String {
        match (self.of[index], cells.offset(index)) {
            (Some(class), _) => palette::class(class, self.count),
            (None, None) => palette::PADDING.to_owned(),
            (None, Some(_)) => palette::UNTOUCHED.to_owned(),
        }
    }
}

/// Row indices left of each plane, column indices above it, the corner label and the
/// plane's label.
fn indices(out: &mut String, cells: &Cells, geometry: &Geometry) {
    let step = geometry.index_step();
    let corner = corner_label(cells);
    let _ = writeln!(
        out,
        r#"<g font-family="DejaVu Sans Mono, monospace" font-size="{LABEL_FONT}" fill="{}">"#,
        palette::INK
    );
    for plane in 0..cells.planes() {
        let top = geometry.plane_top(plane);
        if let Some(label) = cells.plane_label(plane) {
            let _ = writeln!(
                out,
                r#"<text x="{MARGIN}" y="{}">{}</text>"#,
                top + LABEL_FONT,
                escape(&label)
            );
        }
        let (_, cells_top) = geometry.origin(plane, 0, 0);
        let baseline = cells_top - 4;
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{baseline}" text-anchor="end" font-style="italic">{}</text>"#,
            geometry.left - 6,
            escape(&corner)
        );
        for column in (0..cells.columns()).step_by(step) {
            let (x, _) = geometry.centre(plane, 0, column);
            let _ = writeln!(
                out,
                r#"<text x="{x}" y="{baseline}" text-anchor="middle">{column}</text>"#
            );
        }
        if cells.row_name().is_some() {
            for row in (0..cells.rows()).step_by(step) {
                let (_, y) = geometry.centre(plane, row, 0);
                let _ = writeln!(
                    out,
                    r#"<text x="{}" y="{}" text-anchor="end">{row}</text>"#,
                    geometry.left - 6,
                    baseline_of(y, LABEL_FONT as f64)
                );
            }
        }
    }
    out.push_str("</g>\n");
}

/// One square per cell, short of the white gap between cells.
fn fills(out: &mut String, cells: &Cells, classes: &Classes, geometry: &Geometry) {
    let side = geometry.cell - geometry.gap();
    let _ = writeln!(out, r#"<g shape-rendering="crispEdges">"#);
    for index in 0..cells.len() {
        let (plane, row, column) = cells.place(index);
        let (x, y) = geometry.origin(plane, row, column);
        let _ = writeln!(
            out,
            r#"<rect x="{x}" y="{y}" width="{side}" height="{side}" fill="{}"/>"#,
            classes.fill(cells, index)
        );
    }
    out.push_str("</g>\n");
}

/// The offset in each cell, when the widest offset fits a cell at a readable size.
fn numbers(out: &mut String, cells: &Cells, geometry: &Geometry) {
    let widest = digits(cells.offsets().max().unwrap_or(0));
    let cell = f64::from(geometry.cell);
    let font = (cell * 0.45).min((cell - 3.0) / (widest as f64 * CHAR_WIDTH));
    if font < MIN_NUMBER_FONT {
        return;
    }
    let _ = writeln!(
        out,
        r#"<g font-family="DejaVu Sans Mono, monospace" font-size="{font:.1}" text-anchor="middle">"#
    );
    for index in 0..cells.len() {
        let Some(offset) = cells.offset(index) else {
            continue;
        };
        let (plane, row, column) = cells.place(index);
        let (x, y) = geometry.centre(plane, row, column);
        let _ = writeln!(
            out,
            r#"<text x="{x}" y="{:.1}">{offset}</text>"#,
            baseline_of(y, font)
        );
    }
    out.push_str("</g>\n");
}

/// Where a stop's block lies: a rectangle `(x, y, width, height)` in each plane it covers,
/// first plane first.
fn blocks(cells: &Cells, geometry: &Geometry, stop: &Stop) -> Vec<(f64, f64, f64, f64)> {
    let (rows, columns) = stop.size();
    let cell = f64::from(geometry.cell);
    stop.corners()
        .filter_map(|corner| cells.index(&corner))
        .map(|index| {
            let (plane, row, column) = cells.place(index);
            let (x, y) = geometry.origin(plane, row, column);
            (
                f64::from(x),
                f64::from(y),
                columns as f64 * cell,
                rows as f64 * cell,
            )
        })
        .collect()
}

/// Width of the lines of a path, in proportion to the cells.
fn stroke_width(geometry: &Geometry) -> f64 {
    (f64::from(geometry.cell) / 12.0).clamp(0.75, 2.5)
}

/// A frame just inside each stop's block, so that a vector access reads as one piece and
/// the frames of neighbouring accesses stay apart.
fn outlines(out: &mut String, cells: &Cells, geometry: &Geometry, stops: &[Stop]) {
    let stroke = stroke_width(geometry);
    let inset = stroke / 2.0;
    // The frame leaves the white gap after the block's last cell alone.
    let gap = f64::from(geometry.gap());
    let _ = writeln!(
        out,
        r#"<g class="accesses" fill="none" stroke="{ink}" stroke-width="{stroke:.2}">"#,
        ink = palette::INK
    );
    for stop in stops {
        for (x, y, width, height) in blocks(cells, geometry, stop) {
            let _ = writeln!(
                out,
                r#"<rect x="{:.2}" y="{:.2}" width="{:.2}" height="{:.2}"/>"#,
                x + inset,
                y + inset,
                width - gap - stroke,
                height - gap - stroke
            );
        }
    }
    out.push_str("</g>\n");
}

/// One arrow per step of the path, from the centre of a stop's block (in its first plane)
/// to the next one's, with its head short of the next centre so that consecutive arrows
/// read as a chain.
fn arrows(out: &mut String, cells: &Cells, geometry: &Geometry, stops: &[Stop]) {
    let stroke = stroke_width(geometry);
    let _ = writeln!(
        out,
        r#"<defs><marker id="head" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="5" markerHeight="5" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{ink}"/></marker></defs>"#,
        ink = palette::INK
    );
    let _ = writeln!(
        out,
        r#"<g class="path" stroke="{ink}" stroke-width="{stroke:.2}" stroke-opacity="0.8" marker-end="url(#head)">"#,
        ink = palette::INK
    );
    let centres: Vec<(f64, f64)> = stops
        .iter()
        .filter_map(|stop| {
            let (x, y, width, height) = *blocks(cells, geometry, stop).first()?;
            Some((x + width / 2.0, y + height / 2.0))
        })
        .collect();
    for step in centres.windows(2) {
        let ((x1, y1), (x2, y2)) = (step[0], step[1]);
        // Stop a fifth of a cell short of the target centre, where the next arrow starts.
        let (dx, dy) = (x2 - x1, y2 - y1);
        let length = dx.hypot(dy);
        if length == 0.0 {
            continue;
        }
        let shorten = (f64::from(geometry.cell) / 5.0).min(length / 2.0) / length;
        let (x2, y2) = (x2 - dx * shorten, y2 - dy * shorten);
        let _ = writeln!(
            out,
            r#"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}"/>"#
        );
    }
    out.push_str("</g>\n");
}

/// The baseline that centres text of size `font` vertically on `y` (digits are about 0.7
/// of the font size tall).
fn baseline_of(y: f64, font: f64) -> f64 {
    y + font * 0.35
}

/// The colour key under the grid: a heading (`bank:` or `lane:`), one swatch per class,
/// then the greys that occur, flowed into lines as wide as the picture; then a line that
/// says what the arrows are, if there are any.
struct Legend {
    heading: String,
    /// Fill, label and top-left corner (relative to the legend's first line) of each swatch.
    swatches: Vec<(String, String, u32, u32)>,
    /// Lines of swatches.
    lines: u32,
    note: Option<String>,
}

impl Legend {
    /// Height of one line of swatches.
    const LINE: u32 = 18;
    /// Space between the grid and the legend.
    const TOP: u32 = 14;

    fn new(classes: &Classes, cells: &Cells, note: Option<String>, width: u32) -> Legend {
        let mut items: Vec<(String, String)> = (0..classes.count)
            .map(|class| (palette::class(class, classes.count), class.to_string()))
            .collect();
        if cells.offsets().count() < cells.len() {
            items.push((palette::PADDING.to_owned(), classes.empty.to_owned()));
        }
        if classes.untouched {
            items.push((palette::UNTOUCHED.to_owned(), "untouched".to_owned()));
        }
        let heading = format!("{}:", classes.kind);
        let start = MARGIN + text_width(heading.len(), LABEL_FONT) + 8;
        let (mut x, mut line) = (start, 0);
        let mut swatches = Vec::with_capacity(items.len());
        for (fill, label) in items {
            let item_width = SWATCH + 4 + text_width(label.chars().count(), LABEL_FONT) + 8;
            if x > start && x + item_width > width - MARGIN {
                (x, line) = (start, line + 1);
            }
            swatches.push((fill, label, x, line * Self::LINE));
            x += item_width;
        }
        Legend {
            heading,
            swatches,
            lines: line + 1,
            note,
        }
    }

    fn height(&self) -> u32 {
        Self::TOP + (self.lines + u32::from(self.note.is_some())) * Self::LINE
    }

    fn write(&self, out: &mut String, grid_bottom: u32) {
        let top = grid_bottom + Self::TOP;
        let _ = writeln!(
            out,
            r#"<g font-family="DejaVu Sans Mono, monospace" font-size="{LABEL_FONT}">"#
        );
        let _ = writeln!(
            out,
            r#"<text x="{MARGIN}" y="{}">{}</text>"#,
            top + SWATCH - 2,
            self.heading
        );
        for (fill, label, x, y) in &self.swatches {
            let y = top + y;
            let _ = writeln!(
                out,
                r#"<rect x="{x}" y="{y}" width="{SWATCH}" height="{SWATCH}" fill="{fill}"/><text x="{}" y="{}">{label}</text>"#,
                x + SWATCH + 4,
                y + SWATCH - 2
            );
        }
        if let Some(note) = &self.note {
            let _ = writeln!(
                out,
                r#"<text x="{MARGIN}" y="{}">{}</text>"#,
                top + self.lines * Self::LINE + SWATCH - 2,
                escape(note)
            );
        }
        out.push_str("</g>\n");
    }
}

/// Text with XML's special characters escaped.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
