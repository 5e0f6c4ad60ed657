//! The WGSL of layouts: naga 30 accepts it for every reference and random layout, it computes
//! what the interpreter computes (evaluated on the CPU over naga's IR, with WGSL's own
//! arithmetic), and it reads well (snapshot).

mod common;
use common::generator::Generator;
use common::{LDS_A, MIXED, MORTON_TEXTURE};
use proptest::prelude::*;
use std::time::Duration;

/// The WGSL of the single layout in `source`.
fn wgsl(source: &str) -> Result<String, String> {
    let checked = swizzle_syntax::layouts(source).unwrap_or_else(|e| panic!("{e}\n{source}"));
    let [checked] = <[_; 1]>::try_from(checked).unwrap_or_else(|_| panic!("one layout"));
    let name = checked.descriptor.name.to_string();
    swizzle_core::emit::wgsl::layout(&name, &checked.descriptor, checked.inverse.is_some())
        .map(|functions| functions.text)
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

const TILED: &str = "
layout TiledMorton {
    memory [ty: dyn, tx: dyn, m: 16];
    morton m -> [yi: 4, xi: 4];
    merge [ty, yi] -> y;
    merge [tx, xi] -> x;
    coords [y, x];
}";

#[test]
fn reference_layouts_validate_with_the_functions_they_promise() {
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

/// Runs the WGSL functions of the layout in `source` on `coords` (all of them up to 4096,
/// else an even sample) and compares them with the reference interpreter: `_offset` on every
/// valid coordinate, `_is_valid` on every coordinate, `_coord` as the inverse.
fn evaluate_against_the_interpreter(source: &str) -> Result<usize, String> {
    let checked = swizzle_syntax::layouts(source).map_err(|e| e.to_string())?;
    let descriptor = &checked[0].descriptor;
    let text = wgsl(source)?;
    let module = validate(&text)?;
    let names = function_names(&module);
    let prefix = match descriptor.is_tiled() {
        true => format!(
            "{}_tile",
            swizzle_core::emit::wgsl::snake_case(&descriptor.name)
        ),
        false => swizzle_core::emit::wgsl::snake_case(&descriptor.name),
    };
    let function = |suffix: &str| {
        let name = format!("{prefix}_{suffix}");
        names.contains(&name).then_some(name)
    };
    let offset = function("offset").ok_or("no offset function")?;
    let (is_valid, coord) = (function("is_valid"), function("coord"));
    let shape = descriptor.shape();
    let size = descriptor.size().ok_or("size overflows")?;
    let step = size.div_ceil(4096).max(1);
    let mut checked_coords = 0;
    for (index, c) in swizzle_core::ir::coordinates(&shape).enumerate() {
        if index % step != 0 {
            continue;
        }
        let args: Vec<u32> = c.iter().map(|&v| v as u32).collect();
        let valid = descriptor.is_valid(&c);
        if let Some(is_valid) = &is_valid {
            let wgsl_valid = wgsl_eval::call(&module, is_valid, &args)?.bool()?;
            if wgsl_valid != valid {
                return Err(format!(
                    "{is_valid}{c:?} = {wgsl_valid}, the interpreter says {valid}\n{text}"
                ));
            }
        }
        if !valid {
            continue;
        }
        let expected = descriptor.offset(&c).map_err(|e| e.to_string())?;
        let actual = wgsl_eval::call(&module, &offset, &args)?.u32()?;
        if actual as usize != expected {
            return Err(format!(
                "{offset}{c:?} = {actual}, the interpreter says {expected}\n{text}"
            ));
        }
        if let Some(coord) = &coord {
            let back = wgsl_eval::call(&module, coord, &[actual])?.array()?;
            if back != args {
                return Err(format!("{coord}({actual}) = {back:?}, not {c:?}\n{text}"));
            }
        }
        checked_coords += 1;
    }
    Ok(checked_coords)
}

/// A GF(2) texture tiling (`bits`), whose inverse comes from its matrix.
const TEXTURE_TILED: &str = "
layout TextureTiled {
    memory [a: 2048];
    bits a -> [y: 32, x: 64] (
        x[0], y[0], x[1], y[1], x[2], y[2], x[3], y[3], x[4], y[4] ^ x[5] ^ x[4], x[5]
    );
    coords [y, x];
    inverse;
}";

#[test]
fn reference_layouts_evaluate_as_the_interpreter_does() {
    for source in [MORTON_TEXTURE, LDS_A, PADDED, CUTE, MIXED, TEXTURE_TILED] {
        let checked =
            evaluate_against_the_interpreter(source).unwrap_or_else(|e| panic!("{e}\n{source}"));
        assert!(checked > 0, "{source}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// The WGSL of random pipelines of every transform, evaluated with WGSL's semantics.
    #[test]
    fn random_layouts_evaluate_as_the_interpreter_does(seed in any::<u64>(), power_of_two in any::<bool>()) {
        let source = Generator::generate(seed, power_of_two);
        match wgsl(&source) {
            // Layouts past u32 have no WGSL (tested above); nothing to evaluate.
            Err(why) if why.contains("32-bit") => {}
            Err(why) => return Err(TestCaseError::fail(format!("{why}\n{source}"))),
            Ok(_) => {
                evaluate_against_the_interpreter(&source)
                    .map_err(|e| TestCaseError::fail(format!("{e}\n{source}")))?;
            }
        }
    }
}

/// Every workgroup order's WGSL, evaluated on the CPU over naga's IR, visits the tiles the
/// core's program says, on grids with partial bands and squares.
#[test]
fn raster_wgsl_agrees_with_the_core() {
    use swizzle_core::plans::raster::Raster;
    for raster in [
        Raster::RowMajor,
        Raster::Snake,
        Raster::Grouped(3),
        Raster::Morton(2),
        Raster::Morton(4),
    ] {
        let text = swizzle_core::emit::wgsl::raster("order", "test", &raster.program());
        let module = validate(&text).unwrap_or_else(|e| panic!("{raster}: {e}\n{text}"));
        for grid in [[1u64, 1], [5, 7], [8, 8], [9, 6]] {
            for group in 0..grid[0] * grid[1] {
                let args = [group as u32, grid[0] as u32, grid[1] as u32];
                let tile = wgsl_eval::call(&module, "order", &args)
                    .and_then(|v| v.array())
                    .unwrap_or_else(|e| panic!("{raster} {grid:?} {group}: {e}\n{text}"));
                let expected = raster.tile(group, grid).unwrap().map(|v| v as u32);
                assert_eq!(tile, expected, "{raster} {grid:?} {group}\n{text}");
            }
        }
    }
}

/// Every traversal's `index` in WGSL, evaluated on the CPU over naga's IR, starts each access
/// where the reference curve does: CK's examples, snake and not, ragged vectors.
#[test]
fn traversal_wgsl_agrees_with_the_curve() {
    let source = swizzle_syntax::source(
        "traversal Ck = sfc(lengths [16, 10, 9], order [2, 0, 1], vector [4, 2, 3]);
         traversal Straight = sfc(lengths [16, 10, 9], order [2, 0, 1], vector [4, 2, 3], snake = false);
         traversal Ragged = sfc(lengths [5, 7], vector [2, 3], snake = false);
         traversal Snake = sfc(lengths [6, 5], vector [1, 2]);",
    )
    .expect("the traversals check");
    for traversal in &source.traversals {
        let sfc = &traversal.checked.sfc;
        let names: Vec<String> = (0..sfc.lengths.len()).map(|d| format!("d{d}")).collect();
        let program = sfc.index_program(&names, "i");
        let text = swizzle_core::emit::wgsl::sfc_index(&traversal.name, "test", &program);
        let module = validate(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let function = format!(
            "{}_index",
            swizzle_core::emit::wgsl::snake_case(&traversal.name)
        );
        for i in 0..sfc.num_access() {
            let start = wgsl_eval::call(&module, &function, &[i as u32])
                .and_then(|v| v.array())
                .unwrap_or_else(|e| panic!("{e}\n{text}"));
            let expected: Vec<u32> = sfc.index(i).iter().map(|&v| v as u32).collect();
            assert_eq!(start, expected, "{} access {i}\n{text}", traversal.name);
            assert_eq!(program.run(i as u64).map(|v| v.len()), Some(expected.len()));
        }
    }
}
