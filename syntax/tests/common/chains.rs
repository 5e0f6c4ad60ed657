//! Long pipelines that do not fold into a small expression, as layout text: for the tests
//! of linear expansion and for the expansion bench. Each includer uses some of them.
#![allow(dead_code)]

/// `xor a by b; xor b by a; …` over 64×64: F2-linear, but its symbolic form doubles.
pub fn xor_chain(transforms: usize) -> String {
    let body: Vec<&str> = (0..transforms)
        .map(|i| match i % 2 {
            0 => "xor a by b;",
            _ => "xor b by a;",
        })
        .collect();
    format!(
        "layout XorChain {{ memory [a: 64, b: 64]; {} coords [a, b]; }}",
        body.join(" ")
    )
}

/// `merge` then `unmerge` into the lengths rotated by one, over and over: mixed-radix digits
/// of digits that never simplify. `pad` (when given) pads the first dim near memory, so
/// that validity depends on the whole chain.
pub fn rotation_chain(lens: &[usize], transforms: usize, pad: bool) -> String {
    let names: Vec<String> = (0..lens.len()).map(|i| format!("d{i}")).collect();
    let decls = |lens: &[usize]| -> String {
        let pairs: Vec<String> = names
            .iter()
            .zip(lens)
            .map(|(n, l)| format!("{n}: {l}"))
            .collect();
        pairs.join(", ")
    };
    let mut current = lens.to_vec();
    let mut statements = Vec::new();
    if pad {
        statements.push("pad d0 -> d0 (1, 1);".to_owned());
        current[0] += 2;
    }
    for _ in 0..transforms / 2 {
        statements.push(format!("merge [{}] -> m;", names.join(", ")));
        current.rotate_left(1);
        statements.push(format!("unmerge m -> [{}];", decls(&current)));
    }
    format!(
        "layout Rotation {{ memory [{}]; {} coords [{}]; }}",
        decls(lens),
        statements.join(" "),
        names.join(", ")
    )
}

/// `pairs` pairs of `cyclic_shift c by r; cyclic_shift r by c;` over 6 × 5: a bijection of
/// 30 elements whose offset and inverse are chains of dependent remainders.
pub fn shift_chain(pairs: usize) -> String {
    let body = "cyclic_shift c by r; cyclic_shift r by c; ".repeat(pairs);
    format!("layout Shifts {{ memory [r: 6, c: 5]; {body}coords [r, c]; inverse; }}")
}

/// `m` of 420 elements split in two and merged back transposed, `transforms` times, with a
/// different split each time: a bijection whose inverse does not fold.
pub fn transpose_chain(transforms: usize) -> String {
    const LEN: usize = 420;
    let divisors: Vec<usize> = (2..LEN).filter(|&d| LEN.is_multiple_of(d)).collect();
    let body: Vec<String> = (0..transforms.div_ceil(2))
        .map(|i| {
            let a = divisors[(i * 7 + 3) % divisors.len()];
            format!("unmerge m -> [a: {a}, b: {}]; merge [b, a] -> m;", LEN / a)
        })
        .collect();
    format!(
        "layout Transposes {{ memory [m: {LEN}]; {} unmerge m -> [a: 12, b: 35]; coords [a, b]; \
         inverse; }}",
        body.join(" ")
    )
}

/// `layouts` layouts over 6 × 5, each `over` the one before with one `cyclic_shift`; the
/// last asks for its inverse.
pub fn over_chain(layouts: usize) -> String {
    let shifts = ["cyclic_shift c by r;", "cyclic_shift r by c;"];
    layered(layouts, ["r: 6", "c: 5"], shifts, "inverse;")
}

/// `layouts` layouts over 16 × 16, each `over` the one before with one `xor`: F2 through
/// and through, so that each one's code is small and only its descriptor could grow.
pub fn xor_over_chain(layouts: usize) -> String {
    layered(
        layouts,
        ["y: 16", "x: 16"],
        ["xor x by y;", "xor y by x;"],
        "",
    )
}

/// `layouts` layouts `O0`, `O1`, …: the first from `memory [dims]`, each other `over` the
/// one before, each applying the next of `steps` in turn; the last ends with `last`.
fn layered(layouts: usize, dims: [&str; 2], steps: [&str; 2], last: &str) -> String {
    let names = dims.map(|dim| dim.split(':').next().unwrap_or_default());
    let coords = names.join(", ");
    (0..layouts)
        .map(|i| {
            let start = match i {
                0 => format!("memory [{}]", dims.join(", ")),
                i => format!("over O{}", i - 1),
            };
            let (step, end) = (steps[i % 2], if i + 1 == layouts { last } else { "" });
            format!("layout O{i} {{ {start}; {step} coords [{coords}]; {end} }}")
        })
        .collect::<Vec<_>>()
        .join("\n")
}
