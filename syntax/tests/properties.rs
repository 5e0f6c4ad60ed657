//! Property tests: random pipelines, evaluated exhaustively. The code the macro emits, the
//! symbolic form, the F2 form and the printed Rust must all agree with the reference
//! interpreter; inverses must invert; injectivity verdicts must be true.

mod common;
use common::generator::Generator;
use common::layout;
use proptest::prelude::*;
use std::collections::HashMap;
use swizzle_core::CoordError;
use swizzle_core::analysis::runs::culprit;
use swizzle_core::budget::REQUESTED_ENUMERATION;
use swizzle_core::canon::{Canonical, Injectivity};
use swizzle_core::emit::code::Block;
use swizzle_core::ir::{Descriptor, coordinates};

fn env(names: &[String], coord: &[usize]) -> HashMap<String, u64> {
    names
        .iter()
        .cloned()
        .zip(coord.iter().map(|&c| c as u64))
        .collect()
}

/// Evaluates a printed Rust expression, as rustc would parse it.
fn eval_rust(expr: &syn::Expr, env: &HashMap<String, u64>) -> u64 {
    use syn::{BinOp, Expr, Lit};
    match expr {
        Expr::Paren(p) => eval_rust(&p.expr, env),
        Expr::Path(p) => env[&p.path.get_ident().expect("a local").to_string()],
        Expr::Lit(l) => match &l.lit {
            Lit::Int(i) => i.base10_parse().expect("an integer"),
            other => panic!("unexpected literal {}", quote::quote!(#other)),
        },
        Expr::Binary(b) => {
            let (x, y) = (eval_rust(&b.left, env), eval_rust(&b.right, env));
            match b.op {
                BinOp::Add(_) => x.wrapping_add(y),
                BinOp::Sub(_) => x.wrapping_sub(y),
                BinOp::Mul(_) => x.wrapping_mul(y),
                BinOp::Div(_) => x / y,
                BinOp::Rem(_) => x % y,
                BinOp::Shl(_) => x << y,
                BinOp::Shr(_) => x >> y,
                BinOp::BitAnd(_) => x & y,
                BinOp::BitOr(_) => x | y,
                BinOp::BitXor(_) => x ^ y,
                _ => panic!("unexpected operator"),
            }
        }
        other => panic!("unexpected expression {}", quote::quote!(#other)),
    }
}

/// A block as rustc would read it: its printed Rust, parsed back by syn.
struct Printed {
    locals: Vec<(String, syn::Expr)>,
    results: Vec<syn::Expr>,
}

impl Printed {
    fn new(block: &Block) -> Printed {
        let parse = |code: &swizzle_core::emit::code::Code| {
            let code = swizzle_syntax::Rust(code);
            syn::parse2::<syn::Expr>(quote::quote!(#code)).expect("valid Rust")
        };
        Printed {
            locals: block
                .locals
                .iter()
                .map(|(name, code)| (name.clone(), parse(code)))
                .collect(),
            results: block.results.iter().map(parse).collect(),
        }
    }

    fn eval(&self, env: &HashMap<String, u64>) -> Vec<u64> {
        let mut env = env.clone();
        for (name, expr) in &self.locals {
            let value = eval_rust(expr, &env);
            env.insert(name.clone(), value);
        }
        self.results
            .iter()
            .map(|expr| eval_rust(expr, &env))
            .collect()
    }
}

fn check(source: &str) {
    let descriptor: Descriptor = layout(source);
    let canonical = Canonical::new(&descriptor);
    let names = &canonical.coord_names;
    let shape = descriptor.shape();
    let offset = canonical.offset_block();
    let printed = Printed::new(&offset);
    let valid = canonical.valid_code();
    let inputs = canonical.inputs();
    let mut seen: HashMap<usize, Vec<usize>> = HashMap::new();
    let mut collision = None;
    for coord in coordinates(&shape) {
        let env = env(names, &coord);
        let is_valid = valid.iter().all(|(code, lo, hi)| {
            let v = i128::from(code.eval(&env).expect("evaluates"));
            lo.is_none_or(|lo| v >= lo) && hi.is_none_or(|hi| v < hi)
        });
        assert_eq!(
            is_valid,
            descriptor.is_valid(&coord),
            "validity of {coord:?} in\n{source}"
        );
        if !is_valid {
            assert!(
                matches!(descriptor.offset(&coord), Err(CoordError::Padding { .. })),
                "{coord:?} must be reported as padding in\n{source}"
            );
        }
        let Ok(expected) = descriptor.offset(&coord) else {
            continue;
        };
        let generated = offset.eval(&env).expect("evaluates")[0];
        assert_eq!(
            generated, expected as u64,
            "offset of {coord:?} in\n{source}"
        );
        assert_eq!(
            printed.eval(&env)[0],
            expected as u64,
            "printed offset of {coord:?} in\n{source}"
        );
        assert_eq!(
            canonical.eval(&coord),
            expected as i128,
            "symbolic offset of {coord:?} in\n{source}"
        );
        if let (Some(f2), Some(inputs)) = (&canonical.f2, &inputs) {
            let bits = coord
                .iter()
                .enumerate()
                .fold(0u128, |acc, (i, &c)| acc | (c as u128) << inputs.start(i));
            assert_eq!(
                f2.eval(bits),
                expected as u128,
                "F2 offset of {coord:?} in\n{source}"
            );
        }
        if let Some(first) = seen.insert(expected, coord.clone()) {
            collision.get_or_insert((first, coord));
        }
    }
    match canonical.injectivity(&descriptor, REQUESTED_ENUMERATION) {
        Injectivity::Injective => assert_eq!(collision, None, "claimed injective:\n{source}"),
        Injectivity::Collides(c) => {
            assert_ne!(c.a, c.b);
            assert_eq!(
                descriptor.offset(&c.a),
                Ok(c.offset),
                "witness a in\n{source}"
            );
            assert_eq!(
                descriptor.offset(&c.b),
                Ok(c.offset),
                "witness b in\n{source}"
            );
        }
        Injectivity::Unknown => panic!("small layouts are always decided:\n{source}"),
    }
    let bijective = collision.is_none()
        && canonical.valid.is_empty()
        && descriptor.size() == descriptor.space();
    match canonical.inverse_block(&descriptor, REQUESTED_ENUMERATION) {
        Some(inverse) => {
            assert!(bijective, "inverse of a non-bijection:\n{source}");
            let printed = Printed::new(&inverse);
            for coord in coordinates(&shape) {
                let offset = descriptor
                    .offset(&coord)
                    .expect("bijections have no padding");
                let env = HashMap::from([("offset".to_owned(), offset as u64)]);
                let expected: Vec<u64> = coord.iter().map(|&c| c as u64).collect();
                assert_eq!(
                    inverse.eval(&env).expect("evaluates"),
                    expected,
                    "coord({offset}) in\n{source}"
                );
                assert_eq!(
                    printed.eval(&env),
                    expected,
                    "printed coord({offset}) in\n{source}"
                );
            }
        }
        // Every bijection gets an inverse, but for broadcasts that a later transform narrows
        // back down (a stride-0 memory dim, a replicated dim sliced to one index): no
        // transform-by-transform inverse recovers their value.
        None => {
            let broadcast = descriptor.memory.strides.contains(&0)
                || descriptor
                    .stages
                    .iter()
                    .any(|stage| !stage.injective(&descriptor.dims));
            assert!(
                !bijective || broadcast,
                "bijection without inverse:\n{source}"
            );
        }
    }
    let tokens: proc_macro2::TokenStream = source.parse().expect("tokens");
    let expansion = swizzle_syntax::expand(tokens).to_string();
    assert!(!expansion.contains("compile_error"), "{expansion}");
    syn::parse_str::<syn::File>(&expansion).expect("the expansion parses");
}

/// Whether every aligned block `[(coordinate, len)]` (outermost first) has its valid elements
/// at consecutive offsets in the block's row-major order, by evaluating every coordinate.
fn blocks_are_runs(descriptor: &Descriptor, block: &[(usize, usize)]) -> bool {
    let shape = descriptor.shape();
    let mut lens = vec![1; shape.len()];
    for &(axis, len) in block {
        lens[axis] = len;
    }
    let starts: Vec<usize> = shape
        .iter()
        .zip(&lens)
        .map(|(s, l)| s.div_ceil(*l))
        .collect();
    coordinates(&starts).all(|start| {
        let origin: Vec<usize> = start.iter().zip(&lens).map(|(s, l)| s * l).collect();
        let mut anchor: Option<(i128, i128)> = None;
        let block_lens: Vec<usize> = block.iter().map(|&(_, len)| len).collect();
        coordinates(&block_lens).enumerate().all(|(place, inside)| {
            let mut coord = origin.clone();
            for (&(axis, _), i) in block.iter().zip(&inside) {
                coord[axis] += i;
            }
            let Ok(offset) = descriptor.offset(&coord) else {
                return true;
            };
            let (offset, place) = (offset as i128, place as i128);
            let (first, at) = *anchor.get_or_insert((offset, place));
            offset - first == place - at
        })
    })
}

/// The structural walk that names the transform breaking a run must never call a broken block
/// contiguous; this also checks that it finds most contiguous blocks.
fn check_runs(source: &str, seed: u64) -> (usize, usize) {
    let descriptor = layout(source);
    let shape = descriptor.shape();
    let (mut claimed, mut true_runs) = (0, 0);
    let mut state = seed | 1;
    let mut below = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n.max(1) as u64) as usize
    };
    for _ in 0..8 {
        if shape.is_empty() {
            break;
        }
        // Any length, with a partial block at the dim's end; a quarter of the time only lengths
        // that divide the dim.
        let divisor = |len: usize, pick: usize| {
            let divisors: Vec<usize> = (1..=len)
                .filter(|d| pick < 6 || len.is_multiple_of(*d))
                .collect();
            divisors[pick % divisors.len()]
        };
        let inner = below(shape.len());
        let mut block = vec![(inner, divisor(shape[inner], below(8)))];
        if shape.len() > 1 && below(2) == 0 {
            let outer = (inner + 1 + below(shape.len() - 1)) % shape.len();
            block.insert(0, (outer, divisor(shape[outer], below(8))));
        }
        let contiguous = blocks_are_runs(&descriptor, &block);
        true_runs += usize::from(contiguous);
        if culprit(&descriptor, &block).is_none() {
            claimed += 1;
            assert!(
                contiguous,
                "the walk calls {block:?} contiguous, but it is not:\n{source}"
            );
        }
    }
    (claimed, true_runs)
}

/// A draw of `walk_verdicts_are_sound` that the walk once got wrong: the block `d5 × d8`
/// (2 × 2) is one run of 4 of `d3` after the `embed`, but it starts at `2 · d6`, not on a
/// multiple of 4 (its inner part covers half of `d4`), so the `modulo` of 4 above it wraps
/// the run; the walk took the run for aligned and called the block contiguous.
#[test]
fn a_run_whose_inner_part_is_shorter_than_its_dim_is_not_aligned() {
    let source = "layout Random {
        memory [d1: 4, d2: 1] strides [1, 1];
        modulo d1 -> d3 (8);
        embed d3 -> [d4: 4, d5: 3] strides [1, 2];
        unmerge d4 -> [d6: 2, d7: 2];
        modulo d7 -> d8 (2);
        coords [d8, d2, d6, d5];
    }";
    let descriptor = layout(source);
    let block = [(3, 2), (0, 2)];
    assert!(!blocks_are_runs(&descriptor, &block));
    let blamed = culprit(&descriptor, &block).map(|c| c.describe(&descriptor));
    assert_eq!(blamed.as_deref(), Some("modulo d1 -> d3 (8)"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn walk_verdicts_are_sound(seed in any::<u64>(), power_of_two in any::<bool>()) {
        check_runs(&Generator::generate(seed, power_of_two), seed);
    }

    #[test]
    fn mixed_pipelines_agree_with_the_interpreter(seed in any::<u64>()) {
        check(&Generator::generate(seed, false));
    }

    #[test]
    fn power_of_two_pipelines_agree_with_the_interpreter(seed in any::<u64>()) {
        check(&Generator::generate(seed, true));
    }
}

#[test]
fn power_of_two_pipelines_mostly_have_an_f2_form() {
    // Guards the generator: the F2 path must actually be exercised.
    let with_f2 = (0..200u64)
        .filter(|&seed| {
            Canonical::new(&layout(&Generator::generate(seed, true)))
                .f2
                .is_some()
        })
        .count();
    assert!(
        with_f2 > 100,
        "only {with_f2} of 200 power-of-two layouts have an F2 form"
    );
}

/// The F2 form computed transform by transform on bit vectors (for pipelines whose symbolic
/// form would grow too large) equals the one read off the folded expression, wherever both
/// exist; and it exists for most power-of-two pipelines.
#[test]
fn the_pipeline_f2_form_equals_the_folded_one() {
    let mut compared = 0;
    for seed in 0..300u64 {
        let descriptor = layout(&Generator::generate(seed, true));
        let canonical = Canonical::new(&descriptor);
        let (Some(folded), Some(inputs)) = (&canonical.f2, canonical.inputs()) else {
            continue;
        };
        if let Some(lowered) = swizzle_core::canon::f2_pipeline::lower(&descriptor, &inputs) {
            assert_eq!(&lowered, folded, "seed {seed}");
            compared += 1;
        }
    }
    assert!(compared > 100, "only {compared} F2 forms compared");
}

#[test]
fn morton_shapes_of_every_width() {
    // Wide dims are where shift networks replace one-term-per-shift code; every shape up to
    // 64×64 and 16×16×16, with and without a swizzle on top, must still agree.
    for (wy, wx) in (0..=6).flat_map(|y| (0..=6).map(move |x| (y, x))) {
        let (y, x) = (1 << wy, 1 << wx);
        check(&format!(
            "layout M {{ memory [m: {}]; morton m -> [y: {y}, x: {x}]; coords [y, x]; }}",
            y * x
        ));
        if wy > 0 {
            check(&format!(
                "layout M {{ memory [m: {}]; morton m -> [y: {y}, x: {x}]; swizzle y -> s (1, 0, 1); coords [s, x]; }}",
                y * x
            ));
        }
    }
    for w in 0..=4 {
        let n = 1 << w;
        check(&format!(
            "layout M {{ memory [m: {}]; morton m -> [z: {n}, y: {n}, x: {n}]; coords [x, z, y]; }}",
            n * n * n
        ));
    }
    check(
        "layout M { memory [a: 16, b: 64]; xor b by a; merge [a, b] -> i; morton i -> [y: 32, x: 32]; coords [y, x]; }",
    );
}

#[test]
fn wide_mortons_use_shift_networks() {
    let descriptor =
        layout("layout M { memory [m: 4096]; morton m -> [y: 64, x: 64]; coords [y, x]; }");
    let canonical = Canonical::new(&descriptor);
    let locals: Vec<String> = canonical
        .offset_block()
        .locals
        .into_iter()
        .map(|(name, _)| name)
        .collect();
    assert!(locals.contains(&"x_spread_1".to_owned()), "{locals:?}");
    let inverse = canonical
        .inverse_block(&descriptor, REQUESTED_ENUMERATION)
        .expect("a bijection");
    let locals: Vec<String> = inverse.locals.into_iter().map(|(name, _)| name).collect();
    assert!(locals.contains(&"y_bits_1".to_owned()), "{locals:?}");
}

#[test]
fn the_walk_finds_most_runs() {
    // Guards the soundness property: the walk must actually claim contiguity, and on most of
    // the blocks that are contiguous.
    let (mut claimed, mut runs) = (0, 0);
    for seed in 0..300u64 {
        let (c, r) = check_runs(&Generator::generate(seed, seed % 2 == 0), seed);
        claimed += c;
        runs += r;
    }
    assert!(
        claimed * 10 >= runs * 7,
        "the walk claims {claimed} of {runs} contiguous blocks"
    );
}
