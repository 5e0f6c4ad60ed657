//! Long pipelines that do not fold into a small expression, as layout text: for the tests
//! of linear expansion and for the expansion bench.

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
