//! Pictures of layouts: text grids and bank maps as snapshots (the Morton tile exactly as
//! seed 000 prints it), and the structure of the SVG. That the SVG renders, with the right
//! colours in the right cells, is checked by the facade's tests with `resvg`.

mod common;

use common::{LDS_A, MORTON_TEXTURE, layout};
use swizzle_core::analysis::{Access, Banks, LaneExpr};
use swizzle_core::picture::{Cells, Coloring, Geometry, PictureError, bank_map, grid, svg};

const MORTON_4X4: &str = "
layout Morton4 {
    memory [n: 16];
    morton n -> [y: 4, x: 4];
    coords [y, x];
}";

/// Three rows of four elements, padded by two columns on the right.
const PADDED: &str = "
layout Padded {
    memory [n: 12];
    unmerge n -> [y: 3, xi: 4];
    pad xi -> x (0, 2);
    coords [y, x];
}";

#[test]
fn morton_tile_is_seed_000s_table() {
    let table = grid(&layout(MORTON_4X4)).unwrap();
    assert_eq!(
        table,
        " 0  1  4  5\n 2  3  6  7\n 8  9 12 13\n10 11 14 15\n"
    );
    insta::assert_snapshot!(table);
}

#[test]
fn morton_texture_grid() {
    insta::assert_snapshot!(grid(&layout(MORTON_TEXTURE)).unwrap());
}

#[test]
fn lds_xor_bank_map() {
    // fp16: two elements per 4-byte bank word. Each row of 32 halves spans 16 banks, and
    // the XOR moves each 8-half vector (4 banks) to a different group in every row.
    insta::assert_snapshot!(bank_map(&layout(LDS_A), 2, Banks::default()).unwrap());
}

#[test]
fn padding_shows_as_dots() {
    insta::assert_snapshot!(grid(&layout(PADDED)).unwrap(), @r"
     0  1  2  3  ·  ·
     4  5  6  7  ·  ·
     8  9 10 11  ·  ·
    ");
    // CK's pad test: 10 elements padded by 2 on the left and 3 on the right.
    let ck = layout("layout P { memory [l: 10]; pad l -> u (2, 3); coords [u]; }");
    assert_eq!(grid(&ck).unwrap(), "· · 0 1 2 3 4 5 6 7 8 9 · · ·\n");
}

#[test]
fn one_dimension_is_one_row() {
    let strided = "layout Strided { memory [x: 6] strides [3]; coords [x]; }";
    assert_eq!(grid(&layout(strided)).unwrap(), " 0  3  6  9 12 15\n");
}

#[test]
fn no_coordinates_is_one_cell() {
    let point = "layout Point { memory [a: 4, b: 3]; freeze a = 1; freeze b = 2; coords []; }";
    assert_eq!(grid(&layout(point)).unwrap(), "5\n");
}

#[test]
fn outer_coordinates_label_their_planes() {
    let cube = "
    layout Cube {
        memory [n: 8];
        morton n -> [z: 2, y: 2, x: 2];
        coords [z, y, x];
    }";
    insta::assert_snapshot!(grid(&layout(cube)).unwrap(), @r"
    z = 0:
    0 1
    2 3

    z = 1:
    4 5
    6 7
    ");
}

#[test]
fn bank_map_wraps_around_the_banks() {
    let row_major = "layout Rows { memory [y: 2, x: 8]; coords [y, x]; }";
    let banks = Banks {
        count: 4,
        width_bytes: 4,
    };
    assert_eq!(
        bank_map(&layout(row_major), 4, banks).unwrap(),
        "0 1 2 3 0 1 2 3\n0 1 2 3 0 1 2 3\n"
    );
    // 8-byte elements cover two 4-byte words; the bank is that of the first.
    assert_eq!(
        bank_map(&layout(row_major), 8, banks).unwrap(),
        "0 2 0 2 0 2 0 2\n0 2 0 2 0 2 0 2\n"
    );
}

#[test]
fn a_128_by_128_tile_is_128_lines_of_128_cells() {
    let big =
        layout("layout Big { memory [m: 16384]; morton m -> [y: 128, x: 128]; coords [y, x]; }");
    let text = grid(&big).unwrap();
    assert_eq!(text.lines().count(), 128);
    assert!(
        text.lines()
            .all(|line| line.split_whitespace().count() == 128)
    );
    // Right-aligned to the widest offset, 16383.
    assert!(text.lines().all(|line| line.len() == 128 * 6 - 1));
}

#[test]
fn too_many_cells_is_an_error() {
    let huge = layout("layout Huge { memory [y: 4096, x: 4096]; coords [y, x]; }");
    assert_eq!(
        grid(&huge),
        Err(PictureError::TooLarge {
            shape: vec![4096, 4096]
        })
    );
}

fn banks() -> Coloring {
    Coloring::Bank {
        element_bytes: 4,
        banks: Banks::default(),
    }
}

#[test]
fn svg_of_a_small_tile_writes_offsets_in_cells() {
    let picture = svg(&layout(MORTON_4X4), &banks()).unwrap();
    assert!(picture.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(picture.trim_end().ends_with("</svg>"));
    assert!(picture.contains("Morton4 — y × x = 4 × 4"));
    for offset in 0..16 {
        assert!(picture.contains(&format!(">{offset}</text>")), "{offset}");
    }
    // 16 cells and 32 legend swatches.
    assert_eq!(picture.matches("<rect").count(), 1 + 16 + 32);
}

#[test]
fn svg_of_a_128_by_128_tile_stays_small() {
    let big =
        layout("layout Big { memory [m: 16384]; morton m -> [y: 128, x: 128]; coords [y, x]; }");
    let picture = svg(&big, &banks()).unwrap();
    let cells = picture.matches("<rect").count() - 1 - 32;
    assert_eq!(cells, 128 * 128);
    // Cells of 8 pixels are too small for five-digit offsets: no numbers, so the file is
    // about 60 bytes a cell.
    assert!(!picture.contains(">16383</text>"));
    assert!(picture.len() < 16384 * 70, "{} bytes", picture.len());
    let geometry = Geometry::new(&Cells::new(&big).unwrap());
    assert_eq!(geometry.cell, 8);
    assert!(geometry.right() - geometry.left == 1024);
}

#[test]
fn svg_by_lane_greys_untouched_cells() {
    // Lane L reads row L % 4, columns 2·(L / 4) and the next one.
    let access = Access::new("pairs", 8, 4)
        .vector(2, Some("x"))
        .coord("y", LaneExpr::lane() % 4)
        .coord("x", LaneExpr::lane() / 4 * 2);
    let picture = svg(&layout(MORTON_4X4), &Coloring::Lane(access)).unwrap();
    assert!(picture.contains("lane of access `pairs` (8 lanes × 2 elements)"));
    assert!(picture.contains(">untouched</text>"));
    // Every cell is touched here, so no cell is grey; the legend still shows the swatch.
    assert_eq!(picture.matches("fill=\"#e0e0e0\"").count(), 1);
}

#[test]
fn svg_reports_accesses_that_do_not_fit() {
    let access = Access::new("outside", 32, 4)
        .coord("y", LaneExpr::lane())
        .coord("x", 0);
    let error = svg(&layout(MORTON_4X4), &Coloring::Lane(access)).unwrap_err();
    assert_eq!(
        error.to_string(),
        "lane 4 touches [4, 0], outside the layout or in its padding"
    );
}

#[test]
fn geometry_stacks_planes_without_overlap() {
    let cube = layout("layout Cube { memory [z: 3, y: 4, x: 5]; coords [z, y, x]; }");
    let cells = Cells::new(&cube).unwrap();
    let geometry = Geometry::new(&cells);
    let cell = geometry.cell;
    for plane in 0..3 {
        let (x, y) = geometry.origin(plane, 1, 2);
        assert_eq!(geometry.origin(plane, 2, 3), (x + cell, y + cell));
        assert_eq!(
            geometry.centre(plane, 1, 2),
            (
                f64::from(x) + f64::from(cell) / 2.0,
                f64::from(y) + f64::from(cell) / 2.0
            )
        );
    }
    let last_row_of_first = geometry.origin(0, 3, 0).1 + cell;
    assert!(geometry.plane_top(1) > last_row_of_first);
    assert!(geometry.origin(1, 0, 0).1 >= geometry.plane_top(1) + geometry.plane_header());
    assert_eq!(geometry.bottom(), geometry.origin(2, 3, 0).1 + cell);
}
