//! The WGSL of layouts: naga 30 accepts it for every seed and random layout, it computes
//! what the interpreter computes (a small WGSL evaluator over naga's IR would be a second
//! reference; instead the GPU tests run it), and it reads well (snapshot).

mod common;
use common::generator::Generator;
use common::{LDS_A, MORTON_TEXTURE};
use proptest::prelude::*;
use std::time::Duration;

/// The WGSL of the single layout in `source`.
fn wgsl(source: &str) -> Result<String, String> {
    let checked = swizzle_syntax::layouts(source).unwrap_or_else(|e| panic!("{e}\n{source}"));
    let [checked] = <[_; 1]>::try_from(checked).unwrap_or_else(|_| panic!("one layout"));
    let name = checked.descriptor.name.to_string();
    swizzle_core::wgsl::layout(&name, &checked.descriptor, checked.inverse.is_some())
}

/// Parses and validates `text` as a WGSL module, with naga's report on failure.
fn validate(text: &str) -> Result<naga::Module, String> {
    let module = naga::front::wgsl::parse_str(text).map_err(|e| e.emit_to_string(text))?;
    naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::default(),
    )
    .validate(&module)
    .map_err(|e| e.emit_to_string(text))?;
    Ok(module)
}

fn function_names(module: &naga::Module) -> Vec<String> {
    let mut names: Vec<String> = module
        .functions
        .iter()
        .filter_map(|(_, f)| f.name.clone())
        .collect();
    names.sort();
    names
}

const PADDED: &str = "
layout PaddedRow {
    memory [r: 3, c: 10];
    pad c -> x (2, 3);
    coords [r, x];
}";

const CUTE: &str = "
layout CuteSwizzled {
    memory [row: 8, col: 64];
    merge [row, col] -> i;
    swizzle i -> s (3, 3, 3);
    unmerge s -> [y: 8, x: 64];
    coords [y, x];
    inverse;
}";

const MIXED: &str = "
layout Mixed {
    memory [c: 6, r: 5];
    merge [r, c] -> i;
    unmerge i -> [a: 3, b: 10];
    coords [a, b];
    inverse;
}";

const TILED: &str = "
layout TiledMorton {
    memory [ty: dyn, tx: dyn, m: 16];
    morton m -> [yi: 4, xi: 4];
    merge [ty, yi] -> y;
    merge [tx, xi] -> x;
    coords [y, x];
}";

#[test]
fn seed_layouts_validate_with_the_functions_they_promise() {
    let cases = [
        (
            MORTON_TEXTURE,
            vec!["morton_texture_coord", "morton_texture_offset"],
        ),
        (LDS_A, vec!["lds_a_coord", "lds_a_offset"]),
        (PADDED, vec!["padded_row_is_valid", "padded_row_offset"]),
        (CUTE, vec!["cute_swizzled_coord", "cute_swizzled_offset"]),
        (MIXED, vec!["mixed_coord", "mixed_offset"]),
        (
            TILED,
            vec!["tiled_morton_tile_coord", "tiled_morton_tile_offset"],
        ),
    ];
    for (source, expected) in cases {
        let text = wgsl(source).expect("fits u32");
        let module = validate(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(function_names(&module), expected, "{text}");
    }
}

#[test]
fn names_wgsl_reserves_are_renamed() {
    let text = wgsl(
        "layout Reserved { memory [target: 4, r#type: 8]; merge [target, r#type] -> array; \
         unmerge array -> [fn_: 8, u32: 4]; coords [u32, fn_]; inverse; }",
    )
    .expect("fits u32");
    validate(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert!(
        text.contains("fn reserved_offset(u32_: u32, fn_: u32) -> u32"),
        "{text}"
    );
}

/// Rust allows names that start with `__`; WGSL reserves them. Renaming them once hung the
/// macro (appending `_` to `__a` never yields a valid name), so each case runs under a deadline.
#[test]
fn names_with_leading_underscores_are_renamed_without_hanging() {
    let source = "layout __Under { memory [__a: 4, ___b: 2, _c: 2]; merge [__a, ___b] -> __; \
                  unmerge __ -> [v__a: 2, __d: 4]; coords [v__a, __d, _c]; inverse; }";
    let text = common::within(Duration::from_secs(10), source, || wgsl(source)).expect("fits u32");
    let module = validate(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert!(function_names(&module).contains(&"v__under_offset".to_owned()));
    // Three parameters, none of them reserved: `__a`'s new name must not take the user's
    // `v__a`, which naga would reject as a duplicate.
    assert!(text.contains("fn v__under_offset(v__a"), "{text}");
    // The macro's whole expansion, which includes this WGSL, ends too.
    let expansion = common::within(Duration::from_secs(10), source, || {
        let tokens: proc_macro2::TokenStream = source.parse().expect("tokens");
        swizzle_syntax::expand(tokens).to_string()
    });
    assert!(!expansion.contains("compile_error"), "{expansion}");
}

#[test]
fn layouts_beyond_u32_have_no_wgsl() {
    let error = wgsl("layout Big { memory [a: 2, b: 4] strides [4294967296, 1]; coords [a, b]; }")
        .expect_err("space 2^32 + 4");
    assert!(error.contains("element space (4294967300)"), "{error}");
    // Exactly 2^32 elements still fit: offsets go up to u32::MAX.
    let text = wgsl("layout Full { memory [a: 65536, b: 65536]; coords [a, b]; }").expect("2^32");
    validate(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
}

#[test]
fn morton_texture_wgsl() {
    insta::assert_snapshot!(wgsl(MORTON_TEXTURE).expect("fits u32"));
}

#[test]
fn padded_wgsl() {
    insta::assert_snapshot!(wgsl(PADDED).expect("fits u32"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_layouts_validate(seed in any::<u64>(), power_of_two in any::<bool>()) {
        let source = Generator::generate(seed, power_of_two);
        let text = wgsl(&source).map_err(|e| TestCaseError::fail(format!("{e}\n{source}")))?;
        validate(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{source}\n{text}")))?;
    }
}
