//! The macro must never panic: thousands of random, truncated and mutated inputs go through
//! `expand`, whose output must always be a list of items (errors included) that parses.

use proc_macro2::TokenStream;
mod common;
use common::{LDS_A, MORTON_TEXTURE};
use proptest::prelude::*;

/// The words of the language besides the transforms' keywords, which [`vocabulary`] adds.
const OTHER_WORDS: &[&str] = &[
    "layout",
    "pub",
    "memory",
    "coords",
    "inverse",
    "const",
    "by",
    "strides",
    "a",
    "__a",
    "_b",
    "b",
    "x",
    "y",
    "K",
    "0",
    "1",
    "2",
    "3",
    "4",
    "7",
    "16",
    "64",
    "4096",
    "-1",
    "18446744073709551615",
    "18446744073709551616",
    "340282366920938463463374607431768211455",
    "99999999999999999999999999999999999999999",
    "->",
    ":",
    ";",
    ",",
    "..",
    "+",
    "-",
    "*",
    "/",
    "%",
    "<<",
    ">>",
    "^",
    "&",
    "|",
    "=",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "/// doc\n",
    "#[doc = \"d\"]",
    "access",
    "r#type",
    "Type",
    "assert",
    "auto",
    "for",
    "lanes",
    "bytes",
    "vector",
    "along",
    "banks",
    "lane",
    "bijective",
    "conflict_free",
    "max_conflict",
    "transactions",
    "<=",
    "cc13",
    "traversal",
    "sfc",
    "lengths",
    "over",
    "order",
    "snake",
    "dyn",
    "kernel",
    "pack",
    "unpack",
    "copy",
    "walk",
];

/// Every word of the language: each transform's keyword, and the rest.
fn vocabulary() -> Vec<&'static str> {
    let transforms = swizzle_core::ir::transform::KEYWORDS.iter();
    transforms.chain(OTHER_WORDS).copied().collect()
}

const SEEDS: &[&str] = &[
    MORTON_TEXTURE,
    LDS_A,
    "access Row { lanes 8; bytes 4; y = 5; x = lane; }
    access Column { lanes 8; bytes 4; vector 2 along y; banks (32, 4); y = lane / 2 * 2; x = 3; }
    layout Tile {
        memory [m: 64];
        swizzle m -> s (auto for Row, Column);
        unmerge s -> [y: 8, x: 8];
        coords [y, x];
        assert conflict_free(for Row);
        assert max_conflict(2, for Column);
        assert vector(2);
        assert transactions(<= 8, for Row, cc13);
        assert bijective;
    }",
    "layout T {
        memory [a: 4, b: 10, c: 64];
        slice b -> s (2..7); offset a -> o (+1); pad s -> p (1, 2);
        swizzle c -> w (2, 1, -3); freeze w = 5; replicate -> [r: 5];
        embed o -> [e: 2, f: 1] strides [1, 1];
        coords [e, f, p, r];
    }",
    "layout M { memory [ty: dyn, tx: dyn, m: 64]; morton m -> [yi: 8, xi: 8];
        merge [ty, yi] -> y; merge [tx, xi] -> x; coords [y, x]; }
    layout X { memory [ty: dyn, tx: dyn, r: 8, c: 8]; xor c by r;
        merge [ty, r] -> y; merge [tx, c] -> x; coords [y, x]; }
    traversal Q = sfc(over M, order [x, y], vector [2, 2], snake = false);
    traversal W = sfc(lengths [16, 10, 9], order [2, 0, 1], vector [4, 2, 3]);
    kernel P = pack(M, walk Q);
    kernel U = unpack(X, vector 4);
    kernel C = copy(M -> X);",
];

/// Expands `source` if it lexes; the output must parse as items.
fn expand_never_panics(source: &str) {
    let Ok(tokens) = source.parse::<TokenStream>() else {
        return;
    };
    let output = swizzle_syntax::expand(tokens);
    if let Err(error) = syn::parse2::<syn::File>(output.clone()) {
        panic!("expansion of {source:?} is not a list of items: {error}\n{output}");
    }
}

fn words(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(vocabulary()), 0..max)
        .prop_map(|words| words.join(" "))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn random_token_soup(source in words(40)) {
        expand_never_panics(&source);
    }

    #[test]
    fn random_statements_in_a_layout(statements in prop::collection::vec(words(12), 0..8)) {
        expand_never_panics(&format!("layout L {{ {} }}", statements.join(" ; ")));
    }

    #[test]
    fn mutated_seeds(seed in 0..SEEDS.len(), at in any::<prop::sample::Index>(), word in prop::sample::select(vocabulary())) {
        let source = SEEDS[seed];
        let tokens: Vec<&str> = source.split_whitespace().collect();
        let at = at.index(tokens.len());
        let mut mutated = tokens.clone();
        mutated[at] = word;
        expand_never_panics(&mutated.join(" "));
    }
}

#[test]
fn every_truncation_of_the_seeds() {
    for source in SEEDS {
        for (end, _) in source.char_indices() {
            expand_never_panics(&source[..end]);
        }
    }
}

#[test]
fn extreme_numbers_in_every_position() {
    for source in SEEDS {
        let tokens: Vec<&str> = source.split_whitespace().collect();
        for (i, token) in tokens.iter().enumerate() {
            if !token
                .trim_end_matches([',', ';', ']', ')'])
                .chars()
                .all(|c| c.is_ascii_digit())
            {
                continue;
            }
            for number in [
                "0",
                "-1",
                "18446744073709551616",
                "340282366920938463463374607431768211455",
            ] {
                let mut mutated = tokens.clone();
                let suffix = token.trim_start_matches(|c: char| c.is_ascii_digit());
                let replaced = format!("{number}{suffix}");
                mutated[i] = &replaced;
                expand_never_panics(&mutated.join(" "));
            }
        }
    }
}
