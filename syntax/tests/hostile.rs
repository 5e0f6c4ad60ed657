//! A standing suite of hostile inputs (issue "Never hang, never blow up"): generated names,
//! huge and tiny lengths, deep and long pipelines, huge accesses, deep constant
//! expressions. Each goes through the macro's expansion and through `source()` (the command
//! line's entry) on a thread of its own under a deadline, and must come back with items or
//! with errors that point into the input — never a hang, a panic or an unlocated error.

#[path = "common/chains.rs"]
mod chains;
mod common;

use std::time::Duration;
use swizzle_core::canon::Injectivity;

/// Generous for an unoptimized build on a loaded 2-core machine; the inputs take
/// milliseconds when nothing is wrong.
const DEADLINE: Duration = Duration::from_secs(60);

/// Runs `text` through the expansion and through `source()`; panics (failing the test,
/// naming the input) on a hang, a panic, or an error with no location.
fn survives(text: String) {
    let name = text.chars().take(120).collect::<String>();
    let input = text.clone();
    let expansion = common::within(DEADLINE, &name, move || {
        let tokens: proc_macro2::TokenStream = match input.parse() {
            Ok(tokens) => tokens,
            // Text that rustc would not lex never reaches the macro.
            Err(_) => return String::new(),
        };
        swizzle_syntax::expand(tokens).to_string()
    });
    // Whatever it says, the expansion is a list of items rustc can read.
    if !expansion.is_empty() {
        syn::parse_file(&expansion).unwrap_or_else(|e| panic!("{name}: unparsable: {e}"));
    }
    let errors = common::within(DEADLINE, &name, move || {
        match swizzle_syntax::source(&text) {
            Ok(_) => Vec::new(),
            Err(errors) => errors.into_iter().map(|e| (e.message, e.bytes)).collect(),
        }
    });
    for (message, range) in errors {
        assert!(!message.is_empty(), "{name}: an empty message");
        assert!(range != (0..0), "{name}: `{message}` has no location");
    }
}

/// Names Rust or WGSL reserve, or that are odd: leading underscores, keywords of both
/// languages, raw identifiers, non-ASCII letters, very long names.
#[test]
fn generated_names() {
    let long = "n".repeat(5000);
    let names = [
        "_",
        "__",
        "___x",
        "__proto__",
        "r#loop",
        "r#type",
        "loop",
        "fn",
        "let",
        "var",
        "array",
        "u32",
        "usize",
        "bool",
        "f32",
        "select",
        "override",
        "workgroup",
        "Self",
        "self",
        "crate",
        "δ",
        "ñandú",
        "変数",
        "x\u{301}",
        &long,
    ];
    for name in names {
        survives(format!(
            "layout L {{ memory [{name}: 8]; coords [{name}]; }}"
        ));
        survives(format!("layout {name} {{ memory [n: 8]; coords [n]; }}"));
        survives(format!(
            "layout L {{ memory [n: 16]; unmerge n -> [{name}: 4, b: 4]; coords [b, {name}]; inverse; }}"
        ));
    }
}

/// Lengths of 0, 1, powers of two up to 2^63 and past `usize`, on every transform.
#[test]
fn huge_and_tiny_lengths() {
    let lengths = [
        "0",
        "1",
        "2",
        "4294967296",
        "4294967297",
        "9223372036854775808",
        "18446744073709551615",
        "18446744073709551616",
        "340282366920938463463374607431768211456",
    ];
    for len in lengths {
        for body in [
            format!("memory [n: {len}]; coords [n];"),
            format!("memory [a: {len}, b: {len}]; coords [a, b]; inverse;"),
            format!("memory [n: {len}]; morton n -> [y: {len}, x: 1]; coords [y, x];"),
            format!("memory [n: {len}]; unmerge n -> [y: {len}, x: 1]; coords [y, x];"),
            format!("memory [a: 4, b: {len}]; pad b -> x (1, 2); coords [a, x];"),
            format!(
                "memory [n: {len}]; embed n -> [y: 3, x: 3] strides [{len}, 1]; coords [y, x];"
            ),
            format!("memory [n: {len}]; swizzle n -> s (3, 3, 3); coords [s]; inverse;"),
            format!("memory [ty: dyn, m: {len}]; merge [ty, m] -> y; coords [y];"),
        ] {
            survives(format!("layout L {{ {body} }}"));
        }
    }
}

/// Long pipelines of every transform, and deep nesting of constants.
#[test]
fn long_and_deep_pipelines() {
    let xors = "xor a by b; xor b by a; ".repeat(150);
    survives(format!(
        "layout L {{ memory [a: 64, b: 64]; {xors} coords [a, b]; inverse; }}"
    ));
    let merges = "merge [a, b] -> m; unmerge m -> [a: 70, b: 60]; merge [a, b] -> m; unmerge m -> [a: 60, b: 70]; ".repeat(40);
    survives(format!(
        "layout L {{ memory [a: 60, b: 70]; {merges} coords [a, b]; inverse; }}"
    ));
    let swizzles = "swizzle n -> n (3, 0, 3); ".repeat(300);
    survives(format!(
        "layout L {{ memory [n: 64]; {swizzles} coords [n]; inverse; }}"
    ));
    let pads = "pad n -> n (1, 1); ".repeat(300);
    survives(format!("layout L {{ memory [n: 4]; {pads} coords [n]; }}"));
    let consts: String = (1..200)
        .map(|i| format!("const C{i} = C{} * 2 + 1; ", i - 1))
        .collect();
    survives(format!(
        "layout L {{ const C0 = 1; {consts} memory [n: C199]; coords [n]; }}"
    ));
    let sum = vec!["1"; 5000].join(" + ");
    survives(format!(
        "layout L {{ const A = {sum}; memory [n: 4]; coords [n]; }}"
    ));
    let nested = format!("{}1{}", "(".repeat(120), ")".repeat(120));
    survives(format!(
        "layout L {{ const A = {nested}; memory [n: 4]; coords [n]; }}"
    ));
    let negated = "-".repeat(3000);
    survives(format!(
        "layout L {{ const A = {negated}1; memory [n: 4]; coords [n]; }}"
    ));
}

/// Accesses past every budget, and assertions about them.
#[test]
fn huge_accesses() {
    for (lanes, bytes, vector) in [
        ("1 << 30", "4", "1"),
        ("32", "1 << 40", "1"),
        ("32", "4", "1 << 30"),
        ("4096", "4096", "4096"),
        ("0", "0", "0"),
    ] {
        survives(format!(
            "access A {{ lanes {lanes}; bytes {bytes}; vector {vector} along x; y = lane; x = 0; }}
             layout L {{ memory [y: 64, x: 64]; coords [y, x]; assert conflict_free(for A);
                         assert transactions(<= 1, for A); }}"
        ));
    }
    survives(
        "access A { lanes 64; bytes 4; y = lane * 1000000007 % 64; x = lane << 40; }
         layout L { memory [y: 64, x: 64]; coords [y, x]; swizzle x -> s (auto for A); }"
            .to_owned(),
    );
}

/// Many items in one invocation, of every kind, with names that clash.
#[test]
fn many_items() {
    let layouts: String = (0..300)
        .map(|i| {
            format!("layout L{i} {{ memory [n: 64]; morton n -> [y: 8, x: 8]; coords [y, x]; }} ")
        })
        .collect();
    let kernels: String = (0..40)
        .map(|i| format!("kernel K{i} = pack(L{i}); kernel U{i} = unpack(L{i}); "))
        .collect();
    survives(format!(
        "{layouts} {kernels} layout L0 {{ memory [n: 4]; coords [n]; }}"
    ));
}

/// An overlapping `embed` of 2047×2047 is not a bijection; the collision comes from its
/// coefficients, not from enumerating 4 million coordinates (7 s in an unoptimized macro).
#[test]
fn overlapping_embeds_collide_without_enumeration() {
    let source = "layout E { memory [n: 4188163]; embed n -> [y: 2047, x: 2047] strides [2046, 1]; \
                  coords [y, x]; assert bijective; }";
    let message = common::within(DEADLINE, source, move || {
        swizzle_syntax::source(source).err().map(|e| e.to_string())
    });
    assert_eq!(
        message.as_deref(),
        Some(
            "`assert bijective` fails: coordinates (y=0, x=2046) and (y=1, x=0) both map to \
             offset 2046: make every transform one-to-one"
        )
    );
}

/// A `bits` map is decided by the rank of its matrix over GF(2) at every width, singular
/// or not, with two colliding coordinates as the witness (issue "Never hang, round two",
/// item 4: a singular map whose equal rows folded into one term of coefficient `2^i + 2^j`
/// lost its F2 form and was enumerated, 9.1 s and 470 MB at 22 bits, "too large" past).
#[test]
fn bits_are_decided_by_rank_at_every_width() {
    for width in [8, 16, 22, 23, 32, 48, 63] {
        for singular in [true, false] {
            let source = bits_map(width, singular);
            let descriptor = common::layout(&source);
            let verdict = common::within(DEADLINE, &source, move || {
                let canonical = swizzle_core::canon::Canonical::new(&descriptor);
                let limit = swizzle_core::budget::REQUESTED_ENUMERATION;
                (canonical.injectivity(&descriptor, limit), descriptor)
            });
            match verdict {
                (Injectivity::Collides(c), descriptor) if singular => {
                    assert_ne!(c.a, c.b, "{width}");
                    assert_eq!(descriptor.offset(&c.a), descriptor.offset(&c.b), "{width}");
                }
                (Injectivity::Injective, _) if !singular => {}
                (verdict, _) => panic!("{width} bits, singular {singular}: {verdict:?}"),
            }
        }
    }
}

/// `bits l -> [y, x]` over `width` bits: row `j` reads input bit `j`, every third XORed
/// with the next; `singular` makes the last row a copy of the first.
fn bits_map(width: u32, singular: bool) -> String {
    let high = width / 2;
    let low = width - high;
    let input = |k: u32| match k < low {
        true => format!("x[{k}]"),
        false => format!("y[{}]", k - low),
    };
    let rows: Vec<String> = (0..width)
        .map(|j| match j {
            j if singular && j == width - 1 => format!("{} ^ {}", input(0), input(1)),
            j if j % 3 == 0 && j + 1 < width => format!("{} ^ {}", input(j), input(j + 1)),
            j => input(j),
        })
        .collect();
    format!(
        "layout B {{ memory [l: {}]; bits l -> [y: {}, x: {}] ({}); coords [y, x]; }}",
        1u64 << width,
        1u64 << high,
        1u64 << low,
        rows.join(", ")
    )
}

/// The cases of issue "Never hang, round two", each of which once gave a wrong answer, a
/// panic or minutes of work.
#[test]
fn round_two() {
    // Item 1: staged bijections, refused `inverse;` with an empty reason.
    survives(chains::shift_chain(8));
    survives(chains::transpose_chain(21));
    survives(chains::over_chain(30));
    survives(
        "layout W { memory [l: 6]; modulo l -> u (10); slice u -> v (0..6); coords [v]; \
         inverse; }"
            .to_owned(),
    );
    // Item 3: the 50-shift chain that took rustc minutes at opt-level 1 (see opt_level.rs).
    survives(chains::shift_chain(25));
    // Item 5: `over` chains of 200 layouts (once 5.1 MB and 10.4 MB of tokens).
    survives(chains::over_chain(200));
    survives(chains::xor_over_chain(200));
    // Item 7: errors that misled.
    let errors = [
        (
            "layout A { over A; coords [n]; }",
            "`A` cannot start `over` itself: start it from `memory` or from a layout declared \
             before it",
        ),
        (
            "layout M { memory [l: 4]; modulo l -> u (18446744073709551615); coords [u]; \
             assert bijective; }",
            "`assert bijective` fails: coordinates (u=0) and (u=4) both map to offset 0: make \
             every transform one-to-one",
        ),
        (
            "access A { lanes 32; bytes 4096; y = lane; x = 0; }
             layout L { memory [y: 64, x: 64]; coords [y, x]; assert conflict_free(for A); }",
            "`A` has 32-way bank conflicts, more than the 1 asserted: lane 0 hits bank 0 in \
             phase 0: (y=0, x=0) → 0 (32 words); one lane's 4096 bytes span every bank more \
             than once whatever the layout: access fewer bytes per lane",
        ),
    ];
    for (source, expected) in errors {
        survives(source.to_owned());
        let message = swizzle_syntax::source(source).err().map(|e| e.to_string());
        assert_eq!(message.as_deref(), Some(expected), "{source}");
    }
    let row = vec!["x[0]"; 20_001].join(" ^ ");
    let source = format!(
        "layout B {{ memory [l: 4]; bits l -> [y: 2, x: 2] ({row}, y[0]); coords [y, x]; }}"
    );
    survives(source.clone());
    let message = swizzle_syntax::source(&source).err().map(|e| e.to_string());
    assert!(
        message.is_some_and(|m| m.starts_with("this row of `bits` has more than 256 operators")),
        "{source}"
    );
}

/// Issue 28 item 2: tiled copies of large tiles. Within the budgets they expand (one thread
/// holding 64 × 64, 32 threads holding rows of 128 × 128); past them the copy's `threads T`
/// names the budget (one thread holding 256 × 256 took over 600 s, 1024 × 1024 over 4 GB).
#[test]
fn tiled_copies_of_large_tiles() {
    let copy = |n: usize, body: &str| {
        format!(
            "threads T {{ tile [y: {n}, x: {n}]; {body} }}
             layout P {{ memory [y: {n}, x: {n}]; coords [y, x]; }}
             kernel K = tiled_copy(image -> P, threads T);"
        )
    };
    let one = "threads []; values [y, x];";
    let rows = |v: usize| format!("unmerge y -> [ty: 32, v: {v}]; threads [ty]; values [x, v];");
    for source in [copy(64, one), copy(128, &rows(4))] {
        survives(source.clone());
        assert!(swizzle_syntax::source(&source).is_ok(), "{source}");
    }
    let refused = [
        (
            copy(256, one),
            "each thread of `T` moves 65536 values in vectors of 4: 16384 moves",
        ),
        (
            copy(256, &rows(8)),
            "each thread of `T` moves 2048 values in vectors of 1: 2048 moves",
        ),
        (
            copy(1024, one),
            "`T` distributes a tile of 1024 × 1024 = 1048576 elements",
        ),
    ];
    for (source, start) in refused {
        survives(source.clone());
        let message = swizzle_syntax::source(&source).err().map(|e| e.to_string());
        assert!(
            message.as_deref().is_some_and(|m| m.starts_with(start)),
            "{source}: {message:?}"
        );
    }
}
