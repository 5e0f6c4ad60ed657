//! The playground's API natively: errors with their line and column, a grid, pictures, and
//! every example of the menu checking cleanly.

use swizzle_playground::{EXAMPLES, check, examples};

const MORTON: &str = include_str!("../examples/morton.layout");

/// The first `"key":` value of `json` after `from`, up to the next `,`, `]` or `}`.
fn value_after<'a>(json: &'a str, from: &str, key: &str) -> &'a str {
    let start = json
        .find(from)
        .unwrap_or_else(|| panic!("no {from} in {json}"));
    let rest = &json[start..];
    let at = rest.find(&format!("\"{key}\":")).unwrap() + key.len() + 3;
    let rest = &rest[at..];
    &rest[..rest.find([',', ']', '}']).unwrap()]
}

#[test]
fn morton_texture_grid_and_picture() {
    let json = check(MORTON);
    assert!(json.starts_with(r#"{"errors":[],"items":["#), "{json}");
    // Rows y, columns x: offset(1, 2) = 6 and offset(7, 7) = 63 (CK Tile's Morton table).
    let rows = &json[json.find(r#""rows":["#).unwrap()..];
    assert!(
        rows.starts_with(r#""rows":[[0,1,4,5,16,17,20,21],[2,3,6,7,18,19,22,23],"#),
        "{rows}"
    );
    assert!(rows.contains(r#"[42,43,46,47,58,59,62,63]]"#), "{rows}");
    assert!(json.contains(r#""svg":"<svg"#));
    // The traversal's visit order and its picture.
    assert!(json.contains(r#""kind":"traversal","name":"Pairs""#));
    // Generated Rust and WGSL.
    assert!(json.contains("struct MortonTexture;"));
    assert!(json.contains("fn morton_texture_offset(y: u32, x: u32) -> u32"));
}

#[test]
fn errors_have_the_macros_text_and_place() {
    let text = "layout Broken {\n    memory [n: 64];\n    unmerge n -> [y: 8, x: 4];\n    coords [y, x];\n}\n";
    let json = check(text);
    let message = value_after(&json, r#""errors":["#, "message");
    assert!(message.contains("64") || message.contains("32"), "{json}");
    assert_eq!(value_after(&json, r#""errors":["#, "line"), "3", "{json}");
    let column = value_after(&json, r#""errors":["#, "column");
    assert!(column.parse::<usize>().unwrap() > 1, "{json}");
    // The macro gives the same message.
    let tokens: proc_macro2::TokenStream = text.parse().unwrap();
    let expanded = swizzle_syntax::expand(tokens).to_string();
    let quoted = message.trim_matches('"');
    assert!(expanded.contains(quoted), "{expanded}\n{quoted}");
}

#[test]
fn a_lexer_error_is_placed_too() {
    let json = check("layout A {\n    memory [n: 4];\n    coords [n];\n}\n\"open");
    assert_eq!(value_after(&json, r#""errors":["#, "line"), "5", "{json}");
}

#[test]
fn every_example_checks_without_errors() {
    for (title, _, text) in EXAMPLES {
        let json = check(text);
        assert!(json.starts_with(r#"{"errors":[],"#), "{title}: {json}");
        assert!(json.contains(r#""rust":"#), "{title}");
    }
    assert!(examples().contains("Morton texture"));
}

#[test]
fn views_of_accesses_threads_kernels_and_copies() {
    let gemm = check(EXAMPLES.iter().find(|e| e.1 == "gemm").unwrap().2);
    assert!(
        gemm.contains(r#""kind":"threads","name":"GemmFragments""#),
        "{gemm}"
    );
    assert!(gemm.contains(r#""threads":""#), "{gemm}");
    assert!(gemm.contains(r#""kind":"access","name":"ALoadWrite","on":[{"layout":"GemmA""#));
    assert!(gemm.contains("conflict-free"), "{gemm}");
    assert!(gemm.contains(r#""kind":"tiled_copy","name":"LoadTile","instructions":"#));
    assert!(gemm.contains("transactions"), "{gemm}");
    let orders = check(EXAMPLES.iter().find(|e| e.1 == "ck_snake").unwrap().2);
    // morton(4) on a 10 × 12 grid: the first square is tiles 0..16 in Z order.
    assert!(
        orders.contains(r#""kind":"raster","name":"Squares","order":"morton(4): "#),
        "{orders}"
    );
    assert!(
        orders.contains(r#""rows":[[0,1,4,5,16,17,20,21,32,33,36,37],"#),
        "{orders}"
    );
    let tegra = check(EXAMPLES.iter().find(|e| e.1 == "tegra_gob").unwrap().2);
    assert!(
        tegra.contains(r#""kind":"kernel","name":"Swizzle32","plan":"Copies"#),
        "{tegra}"
    );
}

#[test]
fn a_broken_layouts_rust_ends_with_its_compile_error() {
    let json = check("layout A {\n    memory [n: 4];\n    coords [m];\n}\n");
    assert!(json.contains("compile_error!"), "{json}");
}

/// Where a check's time goes, natively (`cargo test --release -p swizzle-playground --
/// --ignored --nocapture`): the whole check against the macro's expansion alone.
#[test]
#[ignore]
fn timing() {
    for (title, _, text) in EXAMPLES {
        let time = |f: &dyn Fn()| {
            let start = std::time::Instant::now();
            for _ in 0..5 {
                f();
            }
            start.elapsed().as_secs_f64() * 1000.0 / 5.0
        };
        let whole = time(&|| {
            check(text);
        });
        let expand = time(&|| {
            swizzle_syntax::expand(text.parse().unwrap());
        });
        println!("{title}: check {whole:.1} ms, expansion alone {expand:.1} ms");
    }
}
