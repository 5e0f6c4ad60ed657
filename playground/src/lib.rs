//! `swizzle-playground`: the `layout!` driver on text, as the browser playground shows it.
//!
//! [`check`] runs `swizzle_syntax::inspect_text` — the macro's own parser, checker and
//! expansion, in one pass — and returns, as JSON, every error (the macro's text, with its line
//! and column) and per item what the page draws: a layout's offset grid, facts and SVG; a
//! `threads` item's `thread.value` map; an access's bank map, conflicts and transactions on
//! each layout it fits; a traversal's visit order; a kernel's plan; a tiled copy's
//! instructions; and the generated Rust (formatted by prettyplease, as `cargo expand` shows
//! it) and WGSL. Built for `wasm32-unknown-unknown` it exports [`check`] and [`examples`]
//! through wasm-bindgen (playground/build.sh); natively its tests run with the workspace's.

mod json;

use json::Json;
use proc_macro2::TokenStream;
use swizzle_core::analysis::{Banks, bank_conflicts};
use swizzle_core::picture::{self, Cells, Coloring, Path};
use swizzle_core::report;
use swizzle_syntax::View;
use swizzle_syntax::items::layout::Checked;

#[cfg(target_arch = "wasm32")]
use wasm_bindgen::prelude::wasm_bindgen;

/// The examples of the page's menu: `(title, file name, text)`.
pub const EXAMPLES: &[(&str, &str, &str)] = &[
    (
        "Morton texture (CK Tile)",
        "morton",
        include_str!("../examples/morton.layout"),
    ),
    (
        "LDS XOR (CK Tile GEMM's A tile)",
        "lds_xor",
        include_str!("../examples/lds_xor.layout"),
    ),
    (
        "CK space-filling curve, snake",
        "ck_snake",
        include_str!("../examples/ck_snake.layout"),
    ),
    (
        "GEMM tiles, fragments and a tiled copy",
        "gemm",
        include_str!("../examples/gemm.layout"),
    ),
    (
        "Tegra X1 GOB (block linear)",
        "tegra_gob",
        include_str!("../examples/tegra_gob.layout"),
    ),
    (
        "CuTe Swizzle<3, 4, 3>",
        "cute_swizzle",
        include_str!("../examples/cute_swizzle.layout"),
    ),
];

/// The examples as JSON: `[{"title", "name", "text"}]`.
#[cfg_attr(target_arch = "wasm32", wasm_bindgen)]
pub fn examples() -> String {
    let mut out = Json::default();
    out.array(|out| {
        for (title, name, text) in EXAMPLES {
            out.object(|out| {
                out.field("title").string(title);
                out.field("name").string(name);
                out.field("text").string(text);
            });
        }
    });
    out.into_string()
}

/// Banks a layout is coloured by when no access says otherwise: 32 banks of 4 bytes, 4-byte
/// elements (the CLI's default).
const DEFAULT_ELEMENT_BYTES: usize = 4;

/// The grid of tiles a `raster` order is shown on: rows of a partial band, columns of a
/// partial square.
const RASTER_GRID: [usize; 2] = [10, 12];

/// Accesses of a traversal listed in its visit order, at most.
const ORDER_LIMIT: usize = 256;

/// Checks `text` (the items of one `layout! { .. }`) and returns what the page shows, as
/// JSON: `{"errors": [{"message", "line", "column", "end_line", "end_column"}], "items":
/// [..], "rust", "wgsl"}`. Lines and columns count from 1; an error without a place (the
/// parser's call site) has line 0.
#[cfg_attr(target_arch = "wasm32", wasm_bindgen)]
pub fn check(text: &str) -> String {
    let mut items: Vec<(usize, Json)> = Vec::new();
    let mut accesses = Vec::new();
    let mut layouts: Vec<(String, swizzle_core::ir::Descriptor)> = Vec::new();
    let (tokens, result) = swizzle_syntax::inspect_text(text, |view| match view {
        View::Access(item, checked) => {
            accesses.push((line_of(&item.name), checked.access.clone(), checked.banks));
        }
        View::Layout(item, verified) => {
            let checked = &verified.checked;
            if checked.thread_values().is_none() {
                layouts.push((item.name.to_string(), checked.descriptor.clone()));
            }
            items.push((line_of(&item.name), layout(checked)));
        }
        View::Traversal(item, checked, walked) => {
            let mut out = Json::default();
            out.object(|out| {
                out.field("kind").string("traversal");
                out.field("name").string(&item.name.to_string());
                let sfc = &checked.sfc;
                let mut order = format!(
                    "{} accesses over {} ({}), vector {:?}, order {:?}, snake {}\n",
                    sfc.num_access(),
                    checked.dims.join(" × "),
                    join(&sfc.lengths, " × "),
                    sfc.vector,
                    sfc.order,
                    if sfc.snake { "on" } else { "off" }
                );
                for (i, index) in sfc.indices().take(ORDER_LIMIT).enumerate() {
                    let at: Vec<String> = checked
                        .dims
                        .iter()
                        .zip(&index)
                        .map(|(dim, value)| format!("{dim}={value}"))
                        .collect();
                    order.push_str(&format!("{i:>4}  ({})\n", at.join(", ")));
                }
                if sfc.num_access() > ORDER_LIMIT {
                    order.push_str(&format!("  … {} more\n", sfc.num_access() - ORDER_LIMIT));
                }
                out.field("order").string(&order);
                if let Some(layout) = walked {
                    let coloring = default_coloring();
                    let path = Path::Traversal(sfc.clone());
                    match picture::svg_with_path(&layout.descriptor, &coloring, &path) {
                        Ok(svg) => out.field("svg").string(&svg),
                        Err(error) => out.field("svg_error").string(&error.to_string()),
                    }
                }
            });
            items.push((line_of(&item.name), out));
        }
        View::Raster(item, raster) => {
            let mut out = Json::default();
            out.object(|out| {
                out.field("kind").string("raster");
                out.field("name").string(&item.name.to_string());
                out.field("order").string(&format!(
                    "{raster}: the workgroup that takes each tile of a {} × {} grid of tiles",
                    RASTER_GRID[0], RASTER_GRID[1]
                ));
                let mut groups = vec![None; RASTER_GRID[0] * RASTER_GRID[1]];
                for group in 0..groups.len() {
                    let grid = RASTER_GRID.map(|n| n as u64);
                    if let Some([y, x]) = raster.tile(group as u64, grid) {
                        groups[y as usize * RASTER_GRID[1] + x as usize] = Some(group);
                    }
                }
                out.field("grid").object(|out| {
                    out.field("row_name").string("tile_y");
                    out.field("column_name").string("tile_x");
                    out.field("planes").array(|out| {
                        out.object(|out| {
                            out.field("label").string("");
                            out.field("rows").array(|out| {
                                for row in groups.chunks(RASTER_GRID[1]) {
                                    out.array(|out| {
                                        for group in row {
                                            match group {
                                                Some(group) => out.number(*group),
                                                None => out.null(),
                                            }
                                        }
                                    });
                                }
                            });
                        });
                    });
                });
            });
            items.push((line_of(&item.name), out));
        }
        View::Kernel(item, _, doc) => {
            items.push((
                line_of(&item.name),
                lines("kernel", &item.name, "plan", &doc),
            ));
        }
        View::TiledCopy(item, _, doc) => {
            let name = &item.name;
            let out = lines("tiled_copy", name, "instructions", &doc);
            items.push((line_of(name), out));
        }
    });
    // Each access on every layout it fits: its bank map, conflicts and transactions.
    for (line, access, (count, width_bytes)) in &accesses {
        let banks = Banks {
            count: *count,
            width_bytes: *width_bytes,
        };
        let mut out = Json::default();
        out.object(|out| {
            out.field("kind").string("access");
            out.field("name").string(&access.name);
            out.field("on").array(|out| {
                for (name, descriptor) in &layouts {
                    if bank_conflicts(descriptor, access, banks).is_err() {
                        continue;
                    }
                    out.object(|out| {
                        out.field("layout").string(name);
                        let analysis = report::analyze(descriptor, access, banks, 128);
                        out.field("analysis")
                            .string(&analysis.unwrap_or_else(|error| error));
                        // The grid alone: the layout's facts are on its own card.
                        let map = picture::bank_map(descriptor, access.element_bytes, banks);
                        let names: Vec<&str> = descriptor
                            .coords
                            .iter()
                            .map(|&c| descriptor.dims[c].name.as_ref())
                            .collect();
                        let axes = match names.as_slice() {
                            [.., row, column] => format!("; rows {row}, columns {column}"),
                            _ => String::new(),
                        };
                        let head = format!(
                            "bank of each element ({count} banks × {width_bytes} B, {}-byte \
                             elements{axes}):\n",
                            access.element_bytes
                        );
                        out.field("banks").string(&match map {
                            Ok(map) => head + &map,
                            Err(error) => format!("not drawn: {error}"),
                        });
                        let coloring = Coloring::Lane(access.clone());
                        if let Ok(svg) = picture::svg(descriptor, &coloring) {
                            out.field("svg").string(&svg);
                        }
                    });
                }
            });
        });
        items.push((*line, out));
    }
    items.sort_by_key(|(line, _)| *line);
    // The expansion ends with the errors' `compile_error!`s, as the macro's does.
    let mut tokens = tokens;
    if let Err(errors) = &result {
        for error in errors {
            let error = format!("::core::compile_error! {{ {:?} }}", error.message);
            tokens.extend(error.parse::<proc_macro2::TokenStream>());
        }
    }
    let (rust, wgsl) = generated(tokens);
    let mut out = Json::default();
    out.object(|out| {
        out.field("errors").array(|out| {
            if let Err(errors) = result {
                for error in errors {
                    error_json(out, &error);
                }
            }
        });
        out.field("items").array(|out| {
            for (_, item) in items {
                out.raw(&item.into_string());
            }
        });
        out.field("rust").string(&rust);
        out.field("wgsl").string(&wgsl);
    });
    // proc-macro2 keeps the text of every parse for its line and column lookups: forget
    // this one, so that a page that re-checks on every keystroke does not grow.
    proc_macro2::extra::invalidate_current_thread_spans();
    out.into_string()
}

/// A layout or `threads` item: its facts, offset grid and SVG (coloured by bank), or its
/// `thread.value` map.
fn layout(checked: &Checked) -> Json {
    let descriptor = &checked.descriptor;
    let mut out = Json::default();
    out.object(|out| {
        let threads = checked.thread_values();
        let kind = if threads.is_some() {
            "threads"
        } else {
            "layout"
        };
        out.field("kind").string(kind);
        out.field("name").string(&descriptor.name);
        let mut facts = report::show(descriptor, None, DEFAULT_ELEMENT_BYTES);
        // The grid is drawn as a table; the facts are the lines before it.
        if let Some(at) = facts.find("\noffsets") {
            facts.truncate(at + 1);
        }
        if let Some(threads) = &threads {
            facts.push_str(&format!(
                "  threads        {} × {} values each\n",
                threads.thread_count(),
                threads.value_count()
            ));
        }
        out.field("facts").string(&facts);
        // A `threads` item's offsets number its thread-value slots: its map says more.
        match Cells::new(descriptor) {
            _ if threads.is_some() => {}
            Ok(cells) => {
                out.field("grid");
                grid_json(out, &cells);
            }
            Err(error) => out.field("grid_error").string(&error.to_string()),
        }
        let svg = match &threads {
            Some(threads) => {
                match picture::thread_grid(threads) {
                    Ok(grid) => out.field("threads").string(&grid),
                    Err(error) => out.field("threads_error").string(&error.to_string()),
                }
                picture::thread_svg(threads)
            }
            None => picture::svg(descriptor, &default_coloring()),
        };
        match svg {
            Ok(svg) => out.field("svg").string(&svg),
            Err(error) => out.field("svg_error").string(&error.to_string()),
        }
    });
    out
}

/// `{"row_name", "column_name", "shape", "planes": [{"label", "rows": [[offset or null]]}]}`.
fn grid_json(out: &mut Json, cells: &Cells) {
    out.object(|out| {
        out.field("row_name").string(cells.row_name().unwrap_or(""));
        out.field("column_name")
            .string(cells.column_name().unwrap_or(""));
        out.field("planes").array(|out| {
            for plane in 0..cells.planes() {
                out.object(|out| {
                    out.field("label")
                        .string(&cells.plane_label(plane).unwrap_or_default());
                    out.field("rows").array(|out| {
                        for row in 0..cells.rows() {
                            out.array(|out| {
                                for offset in cells.row(plane, row) {
                                    match offset {
                                        Some(offset) => out.number(*offset),
                                        None => out.null(),
                                    }
                                }
                            });
                        }
                    });
                });
            }
        });
    });
}

fn default_coloring() -> Coloring {
    Coloring::Bank {
        element_bytes: DEFAULT_ELEMENT_BYTES,
        banks: Banks::default(),
    }
}

/// An item shown as its rustdoc lines (a kernel's plan, a tiled copy's instructions).
fn lines(kind: &str, name: &syn::Ident, what: &str, doc: &[String]) -> Json {
    let mut out = Json::default();
    out.object(|out| {
        out.field("kind").string(kind);
        out.field("name").string(&name.to_string());
        let text: Vec<&str> = doc.iter().map(|line| line.trim_start()).collect();
        out.field(what).string(&text.join("\n"));
    });
    out
}

/// One error: the macro's message and where it is.
fn error_json(out: &mut Json, error: &swizzle_syntax::Diagnostic) {
    let (start, end) = (error.start, error.end);
    let placed = error.is_placed();
    out.object(|out| {
        out.field("message").string(&error.message);
        out.field("line")
            .number(if placed { start.line } else { 0 });
        out.field("column").number(start.column + 1);
        out.field("end_line")
            .number(if placed { end.line } else { 0 });
        out.field("end_column").number(end.column + 1);
    });
}

/// The line an item's name is on, to list the items in the order written.
fn line_of(name: &syn::Ident) -> usize {
    name.span().start().line
}

fn join(values: &[usize], separator: &str) -> String {
    let values: Vec<String> = values.iter().map(usize::to_string).collect();
    values.join(separator)
}

/// The expansion as `cargo expand` prints it, and the WGSL of its items (their `WGSL`
/// constants, in order).
fn generated(tokens: TokenStream) -> (String, String) {
    let file = match syn::parse2::<syn::File>(tokens.clone()) {
        Ok(file) => file,
        Err(_) => return (tokens.to_string(), String::new()),
    };
    let mut wgsl = String::new();
    for item in &file.items {
        let syn::Item::Impl(block) = item else {
            continue;
        };
        for item in &block.items {
            let syn::ImplItem::Const(constant) = item else {
                continue;
            };
            let syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(text),
                ..
            }) = &constant.expr
            else {
                continue;
            };
            let text = text.value();
            if constant.ident == "WGSL" && !text.is_empty() {
                wgsl.push_str(&text);
                if !text.ends_with('\n') {
                    wgsl.push('\n');
                }
                wgsl.push('\n');
            }
        }
    }
    (prettyplease::unparse(&file), wgsl)
}
