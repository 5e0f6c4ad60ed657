//! Pictures of layouts: text grids and bank maps as snapshots (the Morton tile exactly as
//! CK Tile's Morton texture example prints it), the structure of the SVG, and the walks drawn
//! over it (memory order, traversals). That the SVG renders, with the right colours in the
//! right cells and the arrows and frames where they belong, is checked by the facade's tests
//! with `resvg`.

mod common;

use common::{LDS_A, MORTON_TEXTURE, layout};
use swizzle_core::analysis::{Access, Banks, LaneExpr};
use swizzle_core::ir::Descriptor;
use swizzle_core::picture::{
    Cells, Coloring, Geometry, Path, PictureError, Stop, bank_map, offset_map, svg, svg_with_path,
};
use swizzle_core::plans::sfc::Sfc;

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
fn morton_tile_is_ck_tiles_table() {
    let table = offset_map(&layout(MORTON_4X4)).unwrap();
    assert_eq!(
        table,
        " 0  1  4  5\n 2  3  6  7\n 8  9 12 13\n10 11 14 15\n"
    );
    insta::assert_snapshot!(table);
}

#[test]
fn morton_texture_grid() {
    insta::assert_snapshot!(offset_map(&layout(MORTON_TEXTURE)).unwrap());
}

#[test]
fn lds_xor_bank_map() {
    // fp16: two elements per 4-byte bank word. Each row of 32 halves spans 16 banks, and
    // the XOR moves each 8-half vector (4 banks) to a different group in every row.
    insta::assert_snapshot!(bank_map(&layout(LDS_A), 2, Banks::default()).unwrap());
}

#[test]
fn padding_shows_as_dots() {
    insta::assert_snapshot!(offset_map(&layout(PADDED)).unwrap(), @r"
     0  1  2  3  ·  ·
     4  5  6  7  ·  ·
     8  9 10 11  ·  ·
    ");
    // CK's pad test: 10 elements padded by 2 on the left and 3 on the right.
    let ck = layout("layout P { memory [l: 10]; pad l -> u (2, 3); coords [u]; }");
    assert_eq!(offset_map(&ck).unwrap(), "· · 0 1 2 3 4 5 6 7 8 9 · · ·\n");
}

#[test]
fn one_dimension_is_one_row() {
    let strided = "layout Strided { memory [x: 6] strides [3]; coords [x]; }";
    assert_eq!(offset_map(&layout(strided)).unwrap(), " 0  3  6  9 12 15\n");
}

#[test]
fn no_coordinates_is_one_cell() {
    let point = "layout Point { memory [a: 4, b: 3]; freeze a = 1; freeze b = 2; coords []; }";
    assert_eq!(offset_map(&layout(point)).unwrap(), "5\n");
}

#[test]
fn outer_coordinates_label_their_planes() {
    let cube = "
    layout Cube {
        memory [n: 8];
        morton n -> [z: 2, y: 2, x: 2];
        coords [z, y, x];
    }";
    insta::assert_snapshot!(offset_map(&layout(cube)).unwrap(), @r"
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
    let text = offset_map(&big).unwrap();
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
        offset_map(&huge),
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

/// The layout and the traversal of `source`, which holds one of each.
fn walked(source: &str) -> (Descriptor, Sfc) {
    let mut source = swizzle_syntax::source(source).unwrap_or_else(|e| panic!("{e}\n{source}"));
    assert_eq!((source.layouts.len(), source.traversals.len()), (1, 1));
    let sfc = source.traversals.remove(0).checked.sfc;
    (source.layouts.remove(0).descriptor, sfc)
}

/// CK Tile's `SpaceFillingCurve` snake over a 4×8 tile, four scalars an access.
const SNAKE_4X8: &str = "
layout Tile { memory [y: 4, x: 8]; coords [y, x]; }
traversal Snake = sfc(over Tile, vector [1, 4]);";

/// Each stop as `start+extent`, e.g. `(0,4)+1×4`.
fn stops(descriptor: &Descriptor, path: &Path) -> Vec<String> {
    let join = |values: &[usize], by: &str| {
        let values: Vec<String> = values.iter().map(usize::to_string).collect();
        values.join(by)
    };
    path.stops(&Cells::new(descriptor).unwrap())
        .unwrap()
        .iter()
        .map(|Stop { start, extent }| format!("({})+{}", join(start, ","), join(extent, "×")))
        .collect()
}

#[test]
fn the_snake_walks_four_cells_at_a_time_and_turns_back() {
    let (tile, sfc) = walked(SNAKE_4X8);
    assert_eq!(
        stops(&tile, &Path::Traversal(sfc)),
        [
            "(0,0)+1×4",
            "(0,4)+1×4",
            "(1,4)+1×4",
            "(1,0)+1×4",
            "(2,0)+1×4",
            "(2,4)+1×4",
            "(3,4)+1×4",
            "(3,0)+1×4"
        ]
    );
}

#[test]
fn cks_scalar_curve_visits_cks_cells() {
    let (cube, sfc) = walked(
        "layout Cube { memory [a: 3, b: 2, c: 2]; coords [a, b, c]; }
         traversal CkScalar = sfc(over Cube, order [2, 0, 1], snake = false);",
    );
    let starts: Vec<String> = stops(&cube, &Path::Traversal(sfc))
        .iter()
        .map(|stop| {
            stop.strip_suffix("+1×1×1")
                .expect("scalar accesses")
                .to_owned()
        })
        .collect();
    // docs/semantics.md §4, from CK's own test.
    assert_eq!(
        starts.join(" "),
        "(0,0,0) (0,1,0) (1,0,0) (1,1,0) (2,0,0) (2,1,0) \
         (0,0,1) (0,1,1) (1,0,1) (1,1,1) (2,0,1) (2,1,1)"
    );
}

#[test]
fn partial_accesses_are_as_large_as_they_are() {
    // CK Tile's non-divisible `SpaceFillingCurve`: 5×7 in 2×3 accesses, 3×3 of them.
    let (ragged, sfc) = walked(
        "layout Ragged { memory [y: 5, x: 7]; coords [y, x]; }
         traversal Edges = sfc(lengths [5, 7], vector [2, 3], snake = false);",
    );
    assert_eq!(
        stops(&ragged, &Path::Traversal(sfc)),
        [
            "(0,0)+2×3",
            "(0,3)+2×3",
            "(0,6)+2×1",
            "(2,0)+2×3",
            "(2,3)+2×3",
            "(2,6)+2×1",
            "(4,0)+1×3",
            "(4,3)+1×3",
            "(4,6)+1×1"
        ]
    );
}

#[test]
fn memory_order_is_the_z_curve_of_a_morton_tile() {
    let morton = layout(MORTON_4X4);
    let first: Vec<String> = stops(&morton, &Path::MemoryOrder)
        .into_iter()
        .take(6)
        .collect();
    assert_eq!(
        first,
        [
            "(0,0)+1×1",
            "(0,1)+1×1",
            "(1,0)+1×1",
            "(1,1)+1×1",
            "(0,2)+1×1",
            "(0,3)+1×1"
        ]
    );
    let outside = Path::Coords(vec![vec![0, 0], vec![4, 0], vec![3, 3]]);
    assert_eq!(stops(&morton, &outside), ["(0,0)+1×1", "(3,3)+1×1"]);
}

/// The lines of the SVG element `<g class="{class}" …>`, without the group's own tags.
fn group<'a>(picture: &'a str, class: &str) -> Vec<&'a str> {
    let open = format!("<g class=\"{class}\"");
    picture
        .lines()
        .skip_while(|line| !line.starts_with(&open))
        .skip(1)
        .take_while(|line| *line != "</g>")
        .collect()
}

/// The numeric attribute `name` of an SVG element.
fn attribute(element: &str, name: &str) -> f64 {
    let start = element.find(&format!(" {name}=\"")).expect(name) + name.len() + 3;
    let end = start + element[start..].find('"').unwrap();
    element[start..end].parse().unwrap()
}

#[test]
fn svg_frames_each_access_and_joins_their_centres() {
    let (tile, sfc) = walked(SNAKE_4X8);
    let picture = svg_with_path(&tile, &banks(), &Path::Traversal(sfc)).unwrap();
    let geometry = Geometry::new(&Cells::new(&tile).unwrap());
    let cell = f64::from(geometry.cell);
    // Access k starts at (row, column) and is four cells wide.
    let starts = [
        (0, 0),
        (0, 4),
        (1, 4),
        (1, 0),
        (2, 0),
        (2, 4),
        (3, 4),
        (3, 0),
    ];
    let centre = |(row, column): (usize, usize)| {
        let (x, y) = geometry.origin(0, row, column);
        (f64::from(x) + 2.0 * cell, f64::from(y) + cell / 2.0)
    };
    assert!(picture.contains(
        ">path: traversal of 8 accesses of 1 × 4 cells, framed, order [0, 1], snake</text>"
    ));
    let frames = group(&picture, "accesses");
    assert_eq!(frames.len(), starts.len());
    for (frame, &(row, column)) in frames.iter().zip(&starts) {
        let (x, y) = geometry.origin(0, row, column);
        // Just inside the block of four cells, short of the gap after its last cell.
        assert!(
            (0.0..2.0).contains(&(attribute(frame, "x") - f64::from(x))),
            "{frame}"
        );
        assert!(
            (0.0..2.0).contains(&(attribute(frame, "y") - f64::from(y))),
            "{frame}"
        );
        assert!((4.0 * cell - 4.0..4.0 * cell).contains(&attribute(frame, "width")));
        assert!((cell - 4.0..cell).contains(&attribute(frame, "height")));
    }
    let arrows = group(&picture, "path");
    assert_eq!(arrows.len(), starts.len() - 1);
    for (arrow, step) in arrows.iter().zip(starts.windows(2)) {
        let ((x1, y1), (x2, y2)) = (centre(step[0]), centre(step[1]));
        assert_eq!((attribute(arrow, "x1"), attribute(arrow, "y1")), (x1, y1));
        // The head stops a fifth of a cell short of the next centre, on the way there.
        let (ex, ey) = (attribute(arrow, "x2"), attribute(arrow, "y2"));
        assert!(
            ((ex - x2).hypot(ey - y2) - cell / 5.0).abs() < 0.2,
            "{arrow}"
        );
        assert!(
            ((ex - x1) * (y2 - y1) - (ey - y1) * (x2 - x1)).abs() < 1.0,
            "{arrow}"
        );
    }
    // The snake on the picture: frames of 4 × 1 cells of 40 pixels, arrows between their
    // centres (right, down, left, down, …).
    insta::assert_snapshot!(format!("{}\n{}", frames.join("\n"), arrows.join("\n")), @r#"
    <rect x="56.25" y="81.25" width="156.50" height="36.50"/>
    <rect x="216.25" y="81.25" width="156.50" height="36.50"/>
    <rect x="216.25" y="121.25" width="156.50" height="36.50"/>
    <rect x="56.25" y="121.25" width="156.50" height="36.50"/>
    <rect x="56.25" y="161.25" width="156.50" height="36.50"/>
    <rect x="216.25" y="161.25" width="156.50" height="36.50"/>
    <rect x="216.25" y="201.25" width="156.50" height="36.50"/>
    <rect x="56.25" y="201.25" width="156.50" height="36.50"/>
    <line x1="135.0" y1="100.0" x2="287.0" y2="100.0"/>
    <line x1="295.0" y1="100.0" x2="295.0" y2="132.0"/>
    <line x1="295.0" y1="140.0" x2="143.0" y2="140.0"/>
    <line x1="135.0" y1="140.0" x2="135.0" y2="172.0"/>
    <line x1="135.0" y1="180.0" x2="287.0" y2="180.0"/>
    <line x1="295.0" y1="180.0" x2="295.0" y2="212.0"/>
    <line x1="295.0" y1="220.0" x2="143.0" y2="220.0"/>
    "#);
}

#[test]
fn scalar_walks_are_not_framed() {
    let (tile, _) = walked(SNAKE_4X8);
    let scalar = Sfc {
        lengths: vec![4, 8].into(),
        order: vec![1, 0].into(),
        vector: vec![1, 1].into(),
        snake: true,
    };
    let picture = svg_with_path(&tile, &banks(), &Path::Traversal(scalar)).unwrap();
    assert!(group(&picture, "accesses").is_empty());
    assert_eq!(group(&picture, "path").len(), 31);
    assert!(picture.contains(">path: traversal of 32 scalar accesses, order [1, 0], snake<"));
    let memory = svg_with_path(&tile, &banks(), &Path::MemoryOrder).unwrap();
    assert!(group(&memory, "accesses").is_empty());
    assert!(memory.contains(">path: memory order, from offset to offset<"));
    // The legend grows by the line that says what the arrows are.
    let height = |picture: &str| attribute(picture.lines().next().unwrap(), "height");
    assert_eq!(
        height(&memory),
        height(&svg(&tile, &banks()).unwrap()) + 18.0
    );
}

#[test]
fn blocks_across_outer_coordinates_are_framed_in_every_plane() {
    let (cube, sfc) = walked(
        "layout Cube { memory [z: 4, y: 2, x: 6]; coords [z, y, x]; }
         traversal Pairs = sfc(lengths [4, 2, 6], vector [2, 1, 3]);",
    );
    let picture = svg_with_path(&cube, &banks(), &Path::Traversal(sfc)).unwrap();
    // 2 × 2 × 2 accesses, each spanning two planes.
    assert_eq!(group(&picture, "accesses").len(), 16);
    assert_eq!(group(&picture, "path").len(), 7);
}

#[test]
fn traversals_of_other_lengths_are_refused() {
    let (tile, sfc) = walked(SNAKE_4X8);
    let morton = layout(MORTON_4X4);
    let error = svg_with_path(&morton, &banks(), &Path::Traversal(sfc.clone())).unwrap_err();
    assert_eq!(
        error,
        PictureError::TraversalShape {
            lengths: vec![4, 8],
            shape: vec![4, 4]
        }
    );
    assert_eq!(
        error.to_string(),
        "the traversal walks lengths [4, 8], but the layout's shape is [4, 4]: draw it over a \
         layout of its lengths"
    );
    let flat = Sfc {
        lengths: vec![32].into(),
        order: vec![0].into(),
        vector: vec![4].into(),
        snake: false,
    };
    assert!(matches!(
        svg_with_path(&tile, &banks(), &Path::Traversal(flat)),
        Err(PictureError::TraversalShape { .. })
    ));
}

#[test]
fn malformed_traversals_are_refused() {
    let (tile, sfc) = walked(SNAKE_4X8);
    let malformed = [
        Sfc {
            order: vec![0, 0].into(),
            ..sfc.clone()
        },
        Sfc {
            order: vec![0, 2].into(),
            ..sfc.clone()
        },
        Sfc {
            order: vec![0].into(),
            ..sfc.clone()
        },
        Sfc {
            vector: vec![1, 0].into(),
            ..sfc.clone()
        },
        Sfc {
            vector: vec![4].into(),
            ..sfc.clone()
        },
    ];
    for sfc in malformed {
        let error = svg_with_path(&tile, &banks(), &Path::Traversal(sfc.clone())).unwrap_err();
        assert_eq!(error, PictureError::MalformedTraversal(sfc));
        assert!(
            error
                .to_string()
                .starts_with("the traversal is malformed: its order")
        );
    }
}
