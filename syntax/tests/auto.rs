//! `swizzle (auto for ...)`: the chosen swizzle keeps the layout a bijection, is never worse
//! than no swizzle, and reaches the best bank-conflict degree any CuTe swizzle of the dim
//! reaches (found here by an independent brute force).

mod common;
use common::layout;
use proptest::prelude::*;
use swizzle_core::analysis::{Access, LaneExpr, bank_conflicts};
use swizzle_core::budget::REQUESTED_ENUMERATION;
use swizzle_core::canon::{Canonical, Injectivity};
use swizzle_core::ir::Descriptor;

/// A read by `lanes` lanes: lane i reads row `row`, column `column` (expressions of `lane`).
#[derive(Debug)]
struct Read {
    lanes: usize,
    bytes: usize,
    row: String,
    column: String,
}

impl Read {
    fn declaration(&self, name: &str) -> String {
        format!(
            "access {name} {{ lanes {}; bytes {}; y = {}; x = {}; }}",
            self.lanes, self.bytes, self.row, self.column
        )
    }

    /// The same access, built through the runtime API.
    fn access(&self, name: &str) -> Access {
        Access::new(name, self.lanes, self.bytes)
            .coord("y", lane_expr(&self.row))
            .coord("x", lane_expr(&self.column))
    }
}

/// The expressions used below: `lane`, `lane / k`, `lane % k`, `c` (a constant).
fn lane_expr(text: &str) -> LaneExpr {
    let lane = LaneExpr::lane();
    if text == "lane" {
        return lane;
    }
    if let Some(k) = text.strip_prefix("lane / ") {
        return lane / k.parse::<i128>().expect("k");
    }
    if let Some(k) = text.strip_prefix("lane % ") {
        return lane % k.parse::<i128>().expect("k");
    }
    LaneExpr::Lit(text.parse().expect("a constant"))
}

fn degree(descriptor: &Descriptor, access: &Access) -> usize {
    bank_conflicts(descriptor, access, Default::default())
        .expect("fits")
        .degree
}

/// The layout with `swizzle m -> s (B, M, S)` at its only swizzle.
fn with(rows: usize, columns: usize, swizzle: &str) -> Descriptor {
    layout(&format!(
        "layout T {{ memory [m: {}]; swizzle m -> s {swizzle}; unmerge s -> [y: {rows}, x: {columns}]; coords [y, x]; }}",
        rows * columns
    ))
}

/// How the lanes spread over the tile, wrapping so that every lane stays inside it.
#[derive(Clone, Copy, Debug)]
enum Pattern {
    /// All lanes in one column.
    Column(usize),
    /// All lanes in one row.
    Row(usize),
    /// `k` lanes per row, rows below each other.
    Block(usize),
}

impl Pattern {
    fn read(self, lanes: usize, bytes: usize, rows: usize, columns: usize) -> Read {
        let (row, column) = match self {
            Pattern::Column(c) => (format!("lane % {rows}"), c.to_string()),
            Pattern::Row(r) => (r.to_string(), format!("lane % {columns}")),
            Pattern::Block(k) => (format!("lane / {k}"), format!("lane % {k}")),
        };
        Read {
            lanes,
            bytes,
            row,
            column,
        }
    }
}

fn patterns() -> impl Strategy<Value = Pattern> {
    prop_oneof![
        (0..8usize).prop_map(Pattern::Column),
        (0..8usize).prop_map(Pattern::Row),
        // 32 lanes / 4 per row = 8 rows: inside every tile tried.
        prop::sample::select(vec![4usize, 8]).prop_map(Pattern::Block),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn auto_is_a_bijection_and_optimal(
        rows_log in 3u32..=5,
        columns_log in 3u32..=5,
        lanes in prop::sample::select(vec![8usize, 16, 32]),
        bytes in prop::sample::select(vec![1usize, 2, 4, 8]),
        pattern in patterns(),
    ) {
        let (rows, columns) = (1usize << rows_log, 1usize << columns_log);
        let read = pattern.read(lanes, bytes, rows, columns);
        let chosen = layout(&format!(
            "{} layout T {{ memory [m: {}]; swizzle m -> s (auto for A); unmerge s -> [y: {rows}, x: {columns}]; coords [y, x]; }}",
            read.declaration("A"),
            rows * columns
        ));
        let canonical = Canonical::new(&chosen);
        prop_assert_eq!(canonical.injectivity(&chosen, REQUESTED_ENUMERATION), Injectivity::Injective);
        prop_assert_eq!(chosen.size(), chosen.space());

        let access = read.access("A");
        let identity = degree(&with(rows, columns, "(0, 0, 0)"), &access);
        let width = rows_log + columns_log;
        let mut best = identity;
        for bits in 1..=width / 2 {
            for base in 0..width {
                for shift in bits..=width {
                    if base + shift + bits <= width {
                        for s in [shift as i32, -(shift as i32)] {
                            best = best.min(degree(&with(rows, columns, &format!("({bits}, {base}, {s})")), &access));
                        }
                    }
                }
            }
        }
        let got = degree(&chosen, &access);
        prop_assert!(got <= identity, "auto made it worse: {} > {}", got, identity);
        prop_assert_eq!(got, best, "auto missed the best degree");
    }
}
