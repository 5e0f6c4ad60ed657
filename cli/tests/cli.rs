//! The `swizzle` command line, run as a user runs it: exit codes and messages for good and
//! malformed files, unknown layouts and bad flags; and the SVG it writes, rendered with
//! `resvg` and checked pixel by pixel.

use resvg::tiny_skia::{Pixmap, Transform};
use std::path::PathBuf;
use std::process::{Command, Output};
use swizzle_core::picture::{Cells, Geometry};

const MORTON: &str = "\
/// The 4×4 Morton tile of CK Tile's Morton texture example.
layout Morton4 {
    memory [n: 16];
    morton n -> [y: 4, x: 4];
    coords [y, x];
}
";

const LDS: &str = "\
/// ck_tile's universal-GEMM A tile in LDS, fp16, M=128, K=32, KPack=8 (CK Tile's LDS index
/// swapping example).
layout LdsA {
    const M = 128; const K = 32; const KPACK = 8;
    const L = 2; const K0 = K / KPACK;
    memory [k0l: K0 * L, mr: M / L, k1: KPACK] strides [KPACK, K * L, 1];
    xor k0l by mr;
    unmerge k0l -> [l: L, k0: K0];
    merge [mr, l] -> m;
    merge [k0, k1] -> k;
    coords [m, k];
}

/// The same tile, row-major.
layout RowMajorA {
    memory [m: 128, k: 32];
    coords [m, k];
}
";

/// The read of that tile: 16 rows of two 8-half vectors.
const LDS_READ: &str = "lanes 32; bytes 2; vector 8 along k; m = lane % 16; k = lane / 16 * 8;";

/// Writes `text` to a file of the test's own in the target's scratch directory.
fn file(name: &str, text: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, text).expect("the scratch directory is writable");
    path
}

fn swizzle(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_swizzle"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8")
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("UTF-8")
}

/// Runs `swizzle`, expecting exit code `code`; its standard output and error.
fn run(args: &[&str], code: i32) -> (String, String) {
    let output = swizzle(args);
    let (out, err) = (stdout(&output), stderr(&output));
    assert_eq!(output.status.code(), Some(code), "{args:?}\n{out}\n{err}");
    (out, err)
}

#[test]
fn show_prints_facts_and_the_grid() {
    let path = file("show_morton.layout", MORTON);
    let (out, err) = run(&["show", path.to_str().unwrap()], 0);
    assert_eq!(err, "");
    assert_eq!(
        out,
        "\
Morton4
  coordinates    y × x = 4 × 4
  size           16
  element space  16
  bijective      yes, onto 0..16
  vector width   2 along x
offsets (rows y, columns x):
 0  1  4  5
 2  3  6  7
 8  9 12 13
10 11 14 15
"
    );
}

#[test]
fn rust_files_are_read_through_their_layout_invocations() {
    // Two invocations, one inside a module, amid other Rust: the layouts of both, and
    // errors located in the Rust file.
    let rust = format!(
        "use std::fmt;\n\nswizzle::layout! {{\n{MORTON}}}\n\nmod tiles {{\n    \
         crate::layout! {{\n        layout Row {{ memory [n: 4]; coords [n]; }}\n    }}\n}}\n"
    );
    let path = file("layouts.rs", &rust);
    let (out, _) = run(&["show", path.to_str().unwrap()], 0);
    assert!(
        out.starts_with("Morton4\n") && out.contains("\nRow\n"),
        "{out}"
    );
    let broken = rust.replace("coords [n];", "coords [m];");
    let path = file("broken.rs", &broken);
    let (_, err) = run(&["show", path.to_str().unwrap()], 1);
    assert!(
        err.contains("unknown dim `m`") && err.contains("broken.rs:14:"),
        "{err}"
    );
}

#[test]
fn show_banks_of_one_layout() {
    let path = file("show_banks.layout", LDS);
    let path = path.to_str().unwrap();
    let (out, _) = run(
        &[
            "show",
            path,
            "--layout",
            "LdsA",
            "--banks",
            "--element-bytes",
            "2",
        ],
        0,
    );
    assert!(out.starts_with("LdsA\n"), "{out}");
    assert!(!out.contains("RowMajorA"));
    assert!(out.contains("banks (32 × 4 B, 2-byte elements; rows m, columns k):\n"));
    assert!(
        out.contains("\n 4  4  5  5  6  6  7  7  0  0  1  1"),
        "{out}"
    );
    let (out, _) = run(&["show", path, "--layout=RowMajorA", "--banks=16x4"], 0);
    assert!(out.contains("\n 0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15  0  1"));
}

#[test]
fn show_says_why_a_grid_is_not_drawn() {
    let path = file(
        "show_huge.layout",
        "layout Huge { memory [y: 4096, x: 4096]; coords [y, x]; }",
    );
    let (out, _) = run(&["show", path.to_str().unwrap()], 0);
    assert!(out.contains("  size           16777216\n"), "{out}");
    assert!(out.ends_with(
        "offsets (rows y, columns x):\n  not drawn: the layout's shape [4096, 4096] has more than \
         4194304 coordinates, too many to draw\n"
    ));
}

#[test]
fn show_without_a_name_shows_every_layout() {
    let path = file("show_all.layout", LDS);
    let (out, _) = run(&["show", path.to_str().unwrap()], 0);
    assert!(out.starts_with("LdsA\n"));
    assert!(out.contains("\nRowMajorA\n"));
    assert!(out.contains("  vector width   8 along k\n"));
    assert!(out.contains("  vector width   32 along k\n"));
}

#[test]
fn analyze_reports_conflicts_transactions_and_locality() {
    let path = file("analyze.layout", LDS);
    let path = path.to_str().unwrap();
    let args = |layout| ["analyze", path, "--layout", layout, "--access", LDS_READ];
    let (out, _) = run(&args("LdsA"), 0);
    assert!(out.contains("bank conflicts (32 banks × 4 B, 4 phases of 8 lanes):\n  conflict-free"));
    assert!(out.contains("32-byte sectors (per warp)      512 B            16        512 B"));
    assert!(out.contains("  cache lines  64\n"));
    let (out, _) = run(&args("RowMajorA"), 0);
    assert!(
        out.contains(
            "  4-way: in phase 0 (lanes 0..8), bank 0 serves 4 distinct words:
    lane 0  (m=0, k=0) → 0
    lane 2  (m=2, k=0) → 64
    lane 4  (m=4, k=0) → 128
    lane 6  (m=6, k=0) → 192
"
        ),
        "{out}"
    );
}

#[test]
fn malformed_files_are_located() {
    let path = file(
        "malformed.layout",
        "layout Broken {\n    memory [n: 16];\n    morton n -> [y: 4, x: 3];\n    coords [y, x];\n}\n",
    );
    let (out, err) = run(&["show", path.to_str().unwrap()], 1);
    assert_eq!(out, "");
    let location = format!(" --> {}:3:27\n", path.display());
    assert!(
        err.starts_with("error: every dim of `morton` must have a power-of-two length"),
        "{err}"
    );
    assert!(err.contains(&location), "{err}");
    assert!(err.contains("3 |     morton n -> [y: 4, x: 3];\n  |                           ^\n"));

    let path = file("unlexable.layout", "layout L {\n    memory [n: 4] \"\n}\n");
    let (_, err) = run(&["show", path.to_str().unwrap()], 1);
    assert!(err.starts_with("error: "), "{err}");
    assert!(err.contains(&format!("{}:2:", path.display())), "{err}");
}

#[test]
fn unknown_layouts_and_unfit_accesses_fail_with_one() {
    let path = file("unknown.layout", LDS);
    let path = path.to_str().unwrap();
    let (_, err) = run(&["show", path, "--layout", "Nope"], 1);
    assert_eq!(
        err,
        format!("error: {path} holds no layout `Nope`; it holds `LdsA` and `RowMajorA`\n")
    );
    let (_, err) = run(
        &[
            "analyze",
            path,
            "--layout",
            "LdsA",
            "--access",
            "lanes 32; bytes 4; m = lane * 8; k = 0;",
        ],
        1,
    );
    assert_eq!(
        err,
        "error: lane 16 touches [128, 0], outside the layout or in its padding\n"
    );
    let (_, err) = run(&["show", "/nonexistent/file.layout"], 1);
    assert!(err.starts_with("error: cannot read /nonexistent/file.layout: "));
}

/// Usage errors exit with 2 and show the usage of the subcommand that failed. The
/// messages about the command line's shape (an unknown command or option, a missing or
/// extra argument, a value that is not one of a list) are clap's; those about values are
/// the tool's own.
#[test]
fn usage_errors_exit_with_two() {
    let path = file("usage.layout", LDS);
    let path = path.to_str().unwrap();
    for (args, message, usage) in [
        (vec![], "Usage: swizzle <COMMAND>", "swizzle <COMMAND>"),
        (
            vec!["draw", path],
            "unrecognized subcommand 'draw'",
            "swizzle <COMMAND>",
        ),
        (
            vec!["show"],
            "the following required arguments were not provided:\n  <FILE>",
            "swizzle show",
        ),
        (
            vec!["show", path, "--frobnicate"],
            "unexpected argument '--frobnicate' found",
            "swizzle show",
        ),
        (
            vec!["show", path, "--layout"],
            "a value is required for '--layout <NAME>' but none was supplied",
            "swizzle show",
        ),
        (
            vec!["show", path, path],
            "unexpected argument",
            "swizzle show",
        ),
        (
            vec!["show", path, "--element-bytes", "0"],
            "invalid value '0' for '--element-bytes <BYTES>': expected a positive integer, not `0`",
            "swizzle show",
        ),
        (
            vec!["analyze", path, "--layout", "LdsA"],
            "the following required arguments were not provided:\n  --access <SPEC|NAME>",
            "swizzle analyze",
        ),
        (
            vec![
                "analyze",
                path,
                "--layout",
                "LdsA",
                "--access",
                "lanes 1000000; bytes 4; m = 0; k = 0;",
            ],
            "--access: the lane count 1000000 is more than 4096, the most an access may set",
            "swizzle analyze",
        ),
        (
            vec![
                "analyze",
                path,
                "--layout",
                "LdsA",
                "--access",
                "lanes 32; m = lane %;",
            ],
            "--access: expected an integer, a constant name or `(`",
            "swizzle analyze",
        ),
        (
            vec![
                "analyze",
                path,
                "--layout",
                "LdsA",
                "--access",
                "lanes 32; bytes 4; m = 0; k = 0;",
                "--banks",
                "32",
            ],
            "expected banks as COUNTxWIDTH_BYTES (e.g. 32x4), found `32`",
            "swizzle analyze",
        ),
        (
            vec![
                "analyze",
                path,
                "--access",
                "lanes 32; bytes 4; m = 0; k = 0;",
            ],
            "holds several layouts (`LdsA` and `RowMajorA`): choose one with --layout NAME",
            "swizzle analyze",
        ),
        (
            vec!["svg", path, "--layout", "LdsA", "--color", "lane"],
            "--color lane needs --access SPEC",
            "swizzle svg",
        ),
        (
            vec!["svg", path, "--layout", "LdsA", "--color", "red"],
            "invalid value 'red' for '--color <COLOR>'\n  [possible values: bank, lane, thread]",
            "swizzle svg",
        ),
    ] {
        let (out, err) = run(&args, 2);
        assert_eq!(out, "");
        assert!(err.contains(message), "{args:?}: {err}");
        assert!(
            err.starts_with("error: ") || args.is_empty(),
            "{args:?}: {err}"
        );
        assert!(err.contains(&format!("Usage: {usage}")), "{args:?}: {err}");
    }
}

#[test]
fn help_and_version_succeed() {
    let (out, _) = run(&["--help"], 0);
    assert!(out.contains("Usage: swizzle <COMMAND>"), "{out}");
    assert!(out.contains("An access SPEC is the body of an `access` item"));
    for command in ["show", "analyze", "svg", "texture"] {
        assert!(out.contains(&format!("\n  {command} ")), "{command}: {out}");
    }
    // Each subcommand's help is its own.
    let (out, _) = run(&["svg", "-h"], 0);
    assert!(out.contains("Usage: swizzle svg [OPTIONS] <FILE>"), "{out}");
    assert!(
        out.contains("--path <memory|NAME>") && !out.contains("--line-bytes"),
        "{out}"
    );
    let (out, _) = run(&["help", "analyze"], 0);
    assert!(out.contains("Usage: swizzle analyze"), "{out}");
    let (out, _) = run(&["--version"], 0);
    assert_eq!(out, format!("swizzle {}\n", env!("CARGO_PKG_VERSION")));
}

/// Writes the SVG of `layout` in `source` through the command line and renders it.
fn rendered(name: &str, source: &str, layout: &str, options: &[&str]) -> (Pixmap, Geometry) {
    let path = file(&format!("{name}.layout"), source);
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}.svg"));
    let mut args = vec!["svg", path.to_str().unwrap(), "--layout", layout];
    args.extend(options);
    args.extend(["-o", out.to_str().unwrap()]);
    // The status line goes to standard error, never into the data.
    let (said, status) = run(&args, 0);
    assert_eq!(said, "");
    assert!(
        status.starts_with(&format!("wrote {} (", out.display())),
        "{status}"
    );
    let svg = std::fs::read_to_string(&out).expect("the SVG is written");
    let tree = resvg::usvg::Tree::from_str(&svg, &resvg::usvg::Options::default())
        .expect("the SVG parses");
    let size = tree.size().to_int_size();
    let mut pixmap = Pixmap::new(size.width(), size.height()).expect("a non-empty picture");
    resvg::render(&tree, Transform::default(), &mut pixmap.as_mut());
    let descriptor = swizzle_syntax::layouts(source)
        .unwrap()
        .into_iter()
        .find(|checked| checked.descriptor.name == layout)
        .unwrap()
        .descriptor;
    (pixmap, Geometry::new(&Cells::new(&descriptor).unwrap()))
}

/// The colour inside cell (row, column) of the first plane, near its top-left corner (away
/// from the number in its centre).
fn colour(pixmap: &Pixmap, geometry: &Geometry, row: usize, column: usize) -> (u8, u8, u8) {
    let (x, y) = geometry.origin(0, row, column);
    let pixel = pixmap
        .pixel(x + 2, y + 2)
        .expect("the cell is inside the picture");
    assert_eq!(pixel.alpha(), 255);
    (pixel.red(), pixel.green(), pixel.blue())
}

fn is_grey((r, g, b): (u8, u8, u8)) -> bool {
    r == g && g == b
}

#[test]
fn svg_colours_cells_by_bank() {
    // Offset 40·y + x, bank (offset % 32) for 4-byte elements.
    let rows = "layout Rows { memory [y: 2, x: 40]; coords [y, x]; }";
    let (pixmap, geometry) = rendered("banks", rows, "Rows", &[]);
    let cell = |y: usize, x: usize| colour(&pixmap, &geometry, y, x);
    assert!(!is_grey(cell(0, 0)));
    assert_ne!(cell(0, 0), cell(0, 1));
    assert_eq!(cell(0, 0), cell(0, 32));
    assert_eq!(cell(1, 0), cell(0, 8));
    assert_ne!(cell(1, 0), cell(0, 0));
}

#[test]
fn svg_greys_padding() {
    let padded = "layout Padded { memory [l: 10]; pad l -> u (2, 3); coords [u]; }";
    let (pixmap, geometry) = rendered("padding", padded, "Padded", &[]);
    let cell = |x: usize| colour(&pixmap, &geometry, 0, x);
    assert!(is_grey(cell(0)) && is_grey(cell(1)) && is_grey(cell(14)));
    assert!(!is_grey(cell(2)) && !is_grey(cell(11)));
    assert_eq!(cell(0), cell(12));
}

#[test]
fn svg_colours_cells_by_lane() {
    let (pixmap, geometry) = rendered(
        "lanes",
        MORTON,
        "Morton4",
        &[
            "--access",
            "lanes 4; bytes 4; y = lane; x = lane / 2 * 2; vector 2;",
        ],
    );
    let cell = |y: usize, x: usize| colour(&pixmap, &geometry, y, x);
    // Lane 0 reads (0, 0..2), lane 1 (1, 0..2), lane 2 (2, 2..4), lane 3 (3, 2..4).
    assert_eq!(cell(0, 0), cell(0, 1));
    assert_ne!(cell(0, 0), cell(1, 0));
    assert!(!is_grey(cell(3, 3)));
    let untouched = cell(0, 2);
    assert!(is_grey(untouched));
    assert_eq!(untouched, cell(3, 0));
    // Untouched cells are lighter than padding.
    let (padding, padding_geometry) = rendered(
        "lanes_padding",
        "layout P { memory [l: 2]; pad l -> u (1, 0); coords [u]; }",
        "P",
        &[],
    );
    assert!(colour(&padding, &padding_geometry, 0, 0).0 < untouched.0);
}

#[test]
fn svg_of_a_128_by_128_tile_renders() {
    let big = "layout Big { memory [m: 16384]; morton m -> [y: 128, x: 128]; coords [y, x]; }";
    let (pixmap, geometry) = rendered("big", big, "Big", &[]);
    assert!(pixmap.width() < 1200 && pixmap.height() < 1300);
    let cell = |y: usize, x: usize| colour(&pixmap, &geometry, y, x);
    // Morton offsets: (0, 0) → 0 and (127, 127) → 16383 are both bank 0 and 31 apart.
    assert_ne!(cell(0, 0), cell(127, 127));
    assert_eq!(cell(0, 0), cell(4, 0)); // offset 32
}

#[test]
fn svg_draws_the_memory_order_as_arrows() {
    let source = "layout Morton4 { memory [m: 16]; morton m -> [y: 4, x: 4]; coords [y, x]; }";
    // Memory runs (0,0) → (0,1) first: a horizontal arrow through the right part of cell
    // (0,0), whose centre holds the number 0 and whose left part stays the bank colour.
    let probe = |pixmap: &Pixmap, geometry: &Geometry| {
        let (x, y) = geometry.centre(0, 0, 0);
        let pixel = pixmap
            .pixel((x + f64::from(geometry.cell) * 0.4) as u32, y as u32)
            .unwrap();
        (pixel.red(), pixel.green(), pixel.blue())
    };
    let (plain, geometry) = rendered("morton_plain", source, "Morton4", &[]);
    let (walked, _) = rendered("morton_walk", source, "Morton4", &["--path", "memory"]);
    let fill = colour(&plain, &geometry, 0, 0);
    assert_eq!(
        probe(&plain, &geometry),
        fill,
        "without a path the cell is its bank colour"
    );
    let (r, g, b) = probe(&walked, &geometry);
    assert!(
        u32::from(r) + u32::from(g) + u32::from(b) < 200,
        "the arrow is dark: {:?}",
        (r, g, b)
    );
    // From (0,1) memory goes down-left to (1,0): nothing is drawn between (0,1) and (0,2).
    let (x, y) = geometry.centre(0, 0, 1);
    let gap = walked
        .pixel((x + f64::from(geometry.cell) * 0.4) as u32, y as u32)
        .unwrap();
    assert_eq!(
        (gap.red(), gap.green(), gap.blue()),
        colour(&walked, &geometry, 0, 1)
    );
    let walk = file("walk.layout", source);
    let (_, said) = run(&["svg", walk.to_str().unwrap(), "--path", "zig-zag"], 2);
    assert!(
        said.contains("--path takes `memory` or the NAME of a traversal, not `zig-zag`"),
        "{said}"
    );
}

/// Two layouts and CK Tile's space-filling-curve snake over the 4×8 one, four scalars an access.
const SNAKE: &str = "
layout Tile { memory [y: 4, x: 8]; coords [y, x]; }
layout Morton4 { memory [n: 16]; morton n -> [y: 4, x: 4]; coords [y, x]; }
traversal Snake = sfc(over Tile, vector [1, 4]);
traversal Flat = sfc(lengths [32], vector [4]);
";

/// The colour of one pixel.
fn rgb(pixmap: &Pixmap, (x, y): (f64, f64)) -> (u8, u8, u8) {
    let pixel = pixmap
        .pixel(x as u32, y as u32)
        .expect("inside the picture");
    (pixel.red(), pixel.green(), pixel.blue())
}

fn is_dark((r, g, b): (u8, u8, u8)) -> bool {
    r.max(g).max(b) < 100
}

#[test]
fn svg_draws_a_traversal_as_framed_accesses_joined_by_arrows() {
    let (plain, geometry) = rendered("snake_plain", SNAKE, "Tile", &[]);
    let (walked, _) = rendered("snake_walk", SNAKE, "Tile", &["--path", "Snake"]);
    let cell = f64::from(geometry.cell);
    let corner = |row, column| {
        let (x, y) = geometry.origin(0, row, column);
        (f64::from(x), f64::from(y))
    };
    let both = |point| (rgb(&plain, point), rgb(&walked, point));
    // The frame of access 0, cells (0, 0..4): a dark left edge on cell (0, 0) …
    let (x, y) = corner(0, 0);
    let (fill, framed) = both((x + 1.0, y + cell * 0.3));
    assert!(!is_dark(fill) && is_dark(framed), "{fill:?} {framed:?}");
    // … but none inside the access, on the left edge of cell (0, 2).
    let (x, y) = corner(0, 2);
    let (fill, inside) = both((x + 1.0, y + cell * 0.3));
    assert_eq!(fill, inside);
    // Access 0 → access 1: an arrow along row 0 through cell (0, 3), between the centres of
    // the two blocks of four cells.
    let (x, y) = corner(0, 3);
    let (fill, arrow) = both((x + cell * 0.2, y + cell / 2.0));
    assert!(!is_dark(fill) && is_dark(arrow), "{fill:?} {arrow:?}");
    // The snake turns down from access 1 (0, 4..8) to access 2 (1, 4..8): a vertical arrow
    // down the middle of the right half, through the top of cell (1, 6).
    let (x, y) = corner(1, 6);
    let (fill, arrow) = both((x, y + cell * 0.2));
    assert!(!is_dark(fill) && is_dark(arrow), "{fill:?} {arrow:?}");
    // The path reaches row 1 only on the right: nothing runs down the middle of the left
    // half from row 0, while from row 1 to row 2 (access 3 → access 4) an arrow does.
    let (x, y) = corner(1, 2);
    let (fill, none) = both((x, y + cell * 0.2));
    assert_eq!(fill, none);
    let (x, y) = corner(2, 2);
    let (fill, arrow) = both((x, y + cell * 0.2));
    assert!(!is_dark(fill) && is_dark(arrow), "{fill:?} {arrow:?}");
}

#[test]
fn a_traversal_over_a_layout_is_drawn_over_it() {
    let path = file("snake.layout", SNAKE);
    let path = path.to_str().unwrap();
    // The file holds two layouts; the traversal's `over` chooses.
    let (svg, _) = run(&["svg", path, "--path", "Snake"], 0);
    assert!(svg.contains("Tile — y × x = 4 × 8"), "{svg}");
    assert_eq!(svg.matches("<line ").count(), 7);
    // A traversal of lengths only needs --layout, and a layout of its lengths.
    let (_, said) = run(&["svg", path, "--path", "Flat"], 2);
    assert!(said.contains("choose one with --layout NAME"), "{said}");
    let (_, said) = run(&["svg", path, "--path", "Flat", "--layout", "Tile"], 1);
    assert_eq!(
        said,
        "error: cannot draw traversal `Flat` over layout `Tile`: the traversal walks lengths \
         [32], but the layout's shape is [4, 8]: draw it over a layout of its lengths\n"
    );
    let (_, said) = run(&["svg", path, "--path", "Snake", "--layout", "Morton4"], 1);
    assert!(
        said.contains("walks lengths [4, 8], but the layout's shape is [4, 4]"),
        "{said}"
    );
    let (_, said) = run(&["svg", path, "--path", "Spiral"], 1);
    assert_eq!(
        said,
        format!("error: {path} holds no traversal `Spiral`; its traversals: Snake, Flat\n")
    );
}

#[test]
fn faulty_traversals_in_the_file_are_located() {
    let path = file(
        "faulty_traversal.layout",
        "layout Tile { memory [y: 4, x: 8]; coords [y, x]; }\n\
         traversal Wide = sfc(over Tile, vector [1, 16]);\n",
    );
    let (out, err) = run(&["svg", path.to_str().unwrap(), "--path", "Wide"], 1);
    assert_eq!(out, "");
    assert!(
        err.starts_with("error: vector 16 along `x` is wider than its length 8"),
        "{err}"
    );
    assert!(err.contains(&format!("{}:2:", path.display())), "{err}");
}

#[test]
fn faulty_kernels_in_the_file_are_located() {
    let path = file(
        "faulty_kernel.layout",
        "layout Tile { memory [m: 64]; morton m -> [y: 8, x: 8]; coords [y, x]; }\n\
         kernel Pack = pack(Tile, vector 4);\n",
    );
    let (out, err) = run(&["show", path.to_str().unwrap()], 1);
    assert_eq!(out, "");
    assert!(
        err.starts_with("error: runs of 4 elements along `x` are not contiguous in `Tile`"),
        "{err}"
    );
    assert!(err.contains(&format!("{}:2:", path.display())), "{err}");
}

#[test]
fn accesses_declared_in_the_file_are_used_by_name() {
    let source = "
        /// 8 lanes read column 0 of 8×32 words: every row starts in bank 0.
        access Column { lanes 8; bytes 4; banks (32, 4); y = lane; x = 0; }
        layout Tile { memory [y: 8, x: 32]; coords [y, x]; }
    ";
    let path = file("named_access.layout", source);
    let path = path.to_str().unwrap();
    let (named, _) = run(&["analyze", path, "--access", "Column"], 0);
    assert!(named.contains("8-way"), "{named}");
    let (_, said) = run(&["analyze", path, "--access", "Row"], 1);
    assert!(
        said.contains("holds no access `Row`; its accesses: Column"),
        "{said}"
    );
    // The same access written inline gives the same bank-conflict report.
    let (inline, _) = run(
        &[
            "analyze",
            path,
            "--access",
            "lanes 8; bytes 4; y = lane; x = 0;",
        ],
        0,
    );
    let conflicts = |report: &str| {
        let section = report
            .lines()
            .skip_while(|line| !line.starts_with("bank conflicts"));
        section.take(3).collect::<Vec<_>>().join("\n")
    };
    assert!(!conflicts(&named).is_empty());
    assert_eq!(conflicts(&inline), conflicts(&named));
}

/// The text of `rust` with everything outside the braces of its `layout! { … }` blanked
/// (newlines kept), so that every token keeps its line and column; `None` without a macro.
fn macro_body(rust: &str) -> Option<String> {
    let open = rust.find("layout! {")? + "layout! ".len();
    let mut depth = 0;
    let close = rust[open..].char_indices().find_map(|(i, c)| {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ => {}
        }
        (depth == 0).then_some(open + i)
    })?;
    let blank = |text: &str| -> String {
        text.chars()
            .map(|c| if c == '\n' { '\n' } else { ' ' })
            .collect()
    };
    Some(format!(
        "{}{}{}",
        blank(&rust[..=open]),
        &rust[open + 1..close],
        blank(&rust[close..])
    ))
}

/// The errors a rustc-style report holds: each message with its `line:column`, or `-` for
/// one without a location. Errors with a code (`error[E0080]`) are rustc's own.
fn located_errors(report: &str) -> Vec<(String, String)> {
    let lines: Vec<&str> = report.lines().collect();
    let mut errors = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(message) = line.strip_prefix("error: ") else {
            continue;
        };
        if message.starts_with("aborting due to") {
            continue;
        }
        let location = lines
            .get(i + 1)
            .and_then(|next| next.trim_start().strip_prefix("--> "))
            .and_then(|place| {
                let mut parts = place.rsplitn(3, ':');
                let column = parts.next()?;
                let line = parts.next()?;
                parts.next().map(|_| format!("{line}:{column}"))
            })
            .unwrap_or_else(|| "-".to_owned());
        errors.push((message.to_owned(), location));
    }
    errors
}

/// Every trybuild case of the macro, through the command line: the same errors at the same
/// places, since both read one driver. A case whose only errors are rustc's (the use of a
/// constant that does not exist) has nothing to compare.
#[test]
fn the_command_line_reports_every_ui_case_as_the_macro_does() {
    let cases = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../ui/tests/ui");
    let mut names: Vec<PathBuf> = std::fs::read_dir(&cases)
        .expect("ui/tests/ui exists")
        .map(|entry| entry.expect("readable").path())
        .filter(|path| path.extension().is_some_and(|e| e == "rs"))
        .collect();
    names.sort();
    let mut compared = 0;
    for case in names {
        let rust = std::fs::read_to_string(&case).expect("readable");
        let stderr = std::fs::read_to_string(case.with_extension("stderr")).expect("a .stderr");
        let expected = located_errors(&stderr);
        let Some(body) = macro_body(&rust).filter(|_| !expected.is_empty()) else {
            continue;
        };
        let name = case.file_stem().and_then(|s| s.to_str()).expect("a name");
        let path = file(&format!("ui_{name}.layout"), &body);
        let (_, err) = run(&["show", path.to_str().unwrap()], 1);
        assert_eq!(located_errors(&err), expected, "{name}:\n{err}");
        compared += 1;
    }
    assert!(compared >= 70, "only {compared} UI cases compared");
}

/// `--access SPEC` is the body of an `access` item, read by the macro's parser and checks:
/// the UI cases of malformed accesses, their bodies given inline, fail with the macro's
/// message, on the same text where the error has a place in the body.
#[test]
fn inline_accesses_fail_as_the_macro_does() {
    let cases = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../ui/tests/ui");
    let layout = file(
        "inline_access.layout",
        "layout Tile { memory [m: 64, k: 64]; coords [m, k]; }",
    );
    let mut placed = 0;
    for name in ["access_setting_too_large", "access_without_lanes"] {
        let read = |extension| {
            std::fs::read_to_string(cases.join(name).with_extension(extension)).expect("readable")
        };
        let (rust, stderr) = (read("rs"), read("stderr"));
        let open = rust
            .find("access ")
            .and_then(|at| rust[at..].find('{').map(|i| at + i + 1));
        let body = open
            .and_then(|open| {
                rust[open..]
                    .find('}')
                    .map(|close| rust[open..open + close].trim())
            })
            .expect("an access item");
        let message = stderr.lines().next().expect("an error");
        let message = message.strip_prefix("error: ").expect("an error");
        let (_, err) = run(&["analyze", layout.to_str().unwrap(), "--access", body], 2);
        assert!(
            err.starts_with(&format!("error: --access: {message}\n")),
            "{name}: {err}"
        );
        if let Some(cli) = underlined(&err) {
            assert_eq!(Some(cli), underlined(&stderr), "{name}: {err}");
            placed += 1;
        }
    }
    assert_eq!(placed, 1, "the too-large setting is underlined in the SPEC");
}

/// The text under the first error's carets (`1 << 30`), where it has a place.
fn underlined(rendered: &str) -> Option<String> {
    let lines: Vec<&str> = rendered.lines().collect();
    lines.windows(2).find_map(|pair| {
        let (_, code) = pair[0].split_once(" | ")?;
        let (_, marks) = pair[1].split_once(" | ")?;
        let start = marks.find('^')?;
        let len = marks[start..].chars().take_while(|&c| c == '^').count();
        Some(code.chars().skip(start).take(len).collect())
    })
}

/// Hostile files end with a located error, never a crash: before the budgets, a constant of
/// 20 000 terms or 200 000 nested brackets overflowed the stack (SIGABRT).
#[test]
fn huge_and_deep_input_is_a_located_error() {
    let terms = vec!["1"; 20_000].join(" + ");
    let cases = [
        (
            "terms",
            format!(
                "layout L {{\n    const A = {terms};\n    memory [n: 4];\n    coords [n];\n}}\n"
            ),
            "error: this constant expression has more than 256 operators and parentheses",
            ":2:",
        ),
        (
            "parens",
            format!(
                "layout L {{\n    const A = {}1{};\n    memory [n: 4];\n    coords [n];\n}}\n",
                "(".repeat(200_000),
                ")".repeat(200_000)
            ),
            "error: brackets nest deeper than 128 levels here",
            ":2:",
        ),
        (
            "braces",
            format!(
                "layout L {{\n    memory [n: 4];\n    {}{}\n}}\n",
                "{".repeat(200_000),
                "}".repeat(200_000)
            ),
            "error: brackets nest deeper than 128 levels here",
            ":3:",
        ),
    ];
    for (name, text, message, line) in cases {
        let path = file(&format!("hostile_{name}.layout"), &text);
        let (out, err) = run(&["show", path.to_str().unwrap()], 1);
        assert_eq!(out, "", "{name}");
        assert!(err.starts_with(message), "{name}: {err}");
        assert!(
            err.contains(&format!("{}{line}", path.display())),
            "{name}: {err}"
        );
    }
    let deep = format!(
        "lanes 32; bytes 4; m = {}lane{}; k = 0;",
        "(".repeat(30_000),
        ")".repeat(30_000)
    );
    let path = file(
        "hostile_access.layout",
        "layout T { memory [m: 64, k: 64]; coords [m, k]; }",
    );
    let (_, err) = run(&["analyze", path.to_str().unwrap(), "--access", &deep], 2);
    assert!(
        err.starts_with("error: --access: brackets nest deeper than 128 levels here"),
        "{err}"
    );
}

/// Lexer errors say what is wrong, at its line and column.
#[test]
fn lexer_errors_say_what_is_wrong() {
    let cases = [
        (
            "string",
            "layout L {\n    memory [n: 4] \"\n}\n",
            "this string is never closed",
            ":2:19",
        ),
        (
            "comment",
            "layout L {\n    memory [n: 4]; /* open\n coords [n]; }\n",
            "this comment is never closed",
            ":2:20",
        ),
        (
            "brace",
            "layout L {\n    memory [n: 4]; }\n coords [n]; }\n",
            "this closing bracket has no opening one",
            ":3:14",
        ),
    ];
    for (name, text, message, place) in cases {
        let path = file(&format!("lex_{name}.layout"), text);
        let (_, err) = run(&["show", path.to_str().unwrap()], 1);
        assert!(
            err.starts_with(&format!("error: {message}")),
            "{name}: {err}"
        );
        assert!(
            err.contains(&format!("{}{place}\n", path.display())),
            "{name}: {err}"
        );
    }
}

/// Random bytes, and valid files with random bytes flipped, never crash the command line:
/// each run ends within its deadline, with output (exit 0) or located errors (exit 1).
#[test]
fn random_files_end_with_output_or_located_errors() {
    use std::time::{Duration, Instant};
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let valid = LDS.as_bytes();
    for case in 0..120 {
        let bytes: Vec<u8> = match case % 3 {
            0 => (0..next() % 400).map(|_| next() as u8).collect(),
            // Printable soup of the language's characters.
            1 => {
                let alphabet = b"layoutmemorycoordsxorbypad[]{}();:,->0123456789 \n/*\"'#rdyn";
                (0..next() % 400)
                    .map(|_| alphabet[next() as usize % alphabet.len()])
                    .collect()
            }
            _ => {
                let mut bytes = valid.to_vec();
                for _ in 0..1 + next() % 8 {
                    let at = next() as usize % bytes.len();
                    bytes[at] = next() as u8;
                }
                bytes
            }
        };
        let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("random_{case}.layout"));
        std::fs::write(&path, &bytes).expect("writable");
        let mut child = Command::new(env!("CARGO_BIN_EXE_swizzle"))
            .args(["show", path.to_str().unwrap()])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("the binary runs");
        let started = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().expect("waitable") {
                break status;
            }
            if started.elapsed() > Duration::from_secs(30) {
                let _ = child.kill();
                panic!("case {case} ran past 30 s: {}", path.display());
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        let mut err = String::new();
        std::io::Read::read_to_string(&mut child.stderr.take().expect("piped"), &mut err)
            .expect("UTF-8 errors");
        match status.code() {
            Some(0) => {}
            Some(1) => {
                assert!(err.starts_with("error: "), "case {case}: {err}");
                assert!(err.contains(" --> "), "case {case}: {err}");
            }
            other => panic!(
                "case {case} ({}) ended with {other:?}: {err}",
                path.display()
            ),
        }
    }
}

const FOURS: &str = "\
/// 8 threads, four consecutive elements of a row each.
threads Fours {
    tile [y: 4, x: 8];
    unmerge x -> [tx: 2, v: 4];
    merge [y, tx] -> thread;
    threads [thread];
    values [v];
}
/// A plain layout of the tile's shape: its cells are where the picture draws the tile's.
layout Shape { memory [y: 4, x: 8]; coords [y, x]; }
";

#[test]
fn show_draws_who_holds_each_element() {
    let path = file("fours.layout", FOURS);
    let (out, _) = run(&["show", path.to_str().unwrap(), "--layout", "Fours"], 0);
    assert!(out.contains("threads        8 × 4 values each"), "{out}");
    assert!(
        out.contains("0.0 0.1 0.2 0.3 1.0 1.1 1.2 1.3\n2.0 2.1"),
        "{out}"
    );
}

#[test]
fn svg_colours_a_thread_value_layout_by_thread() {
    let (pixmap, _) = rendered("threads", FOURS, "Fours", &[]);
    let shape = swizzle_syntax::layouts(FOURS)
        .unwrap()
        .pop()
        .unwrap()
        .descriptor;
    let geometry = Geometry::new(&Cells::new(&shape).unwrap());
    let cell = |y: usize, x: usize| colour(&pixmap, &geometry, y, x);
    // Thread 2y holds x = 0..4 of row y, thread 2y + 1 the rest.
    assert_eq!(cell(0, 0), cell(0, 3));
    assert_ne!(cell(0, 3), cell(0, 4));
    assert_ne!(cell(0, 0), cell(1, 0));
    assert!(!is_grey(cell(3, 7)));
    // --color thread on a plain layout says what it draws.
    let path = file("shape.layout", FOURS);
    let (_, err) = run(
        &[
            "svg",
            path.to_str().unwrap(),
            "--layout",
            "Shape",
            "--color",
            "thread",
        ],
        1,
    );
    assert!(err.contains("not a thread-value layout"), "{err}");
}

/// `-` is standard input for FILE, and standard output for `svg -o`.
#[test]
fn dash_is_standard_input_and_output() {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_swizzle"))
        .args(["svg", "-", "-o", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .expect("piped")
        .write_all(MORTON.as_bytes())
        .expect("the layout is read");
    let output = child.wait_with_output().expect("the binary ends");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stdout(&output).starts_with("<svg"), "{}", stdout(&output));
    assert_eq!(stderr(&output), "");
}
