//! The `#[target_feature]` attribute that compiles code for a SIMD level of
//! [`swizzle_core::simd::Level`] (whose `is_available` detects the level on this CPU).
//!
//! `#[target_feature(enable = ..)]` takes only a string literal, so each level's features are
//! written once more here, in [`target_features!`]; a test holds them to
//! [`Level::target_features`](swizzle_core::simd::Level::target_features), the one definition.

/// Compiles the items that follow for a level: `target_features!(Avx512, fn …)` puts
/// `#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]` on them;
/// `target_features!(Avx512)` is that string.
macro_rules! target_features {
    (Neon) => {
        "neon"
    };
    (Avx2) => {
        "avx2"
    };
    (Avx512) => {
        "avx512f,avx512bw,avx512vbmi"
    };
    (Neon, $($item:tt)*) => {
        #[target_feature(enable = "neon")]
        $($item)*
    };
    (Avx2, $($item:tt)*) => {
        #[target_feature(enable = "avx2")]
        $($item)*
    };
    (Avx512, $($item:tt)*) => {
        #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
        $($item)*
    };
}

#[cfg(test)]
mod tests {
    use swizzle_core::simd::Level;

    #[test]
    fn the_attribute_literals_are_the_levels_features() {
        let literals = [
            (Level::Neon, target_features!(Neon)),
            (Level::Avx2, target_features!(Avx2)),
            (Level::Avx512, target_features!(Avx512)),
        ];
        for level in Level::SIMD {
            let literal = literals.iter().find(|(l, _)| *l == level).map(|(_, f)| *f);
            assert_eq!(literal, Some(level.target_features()), "{level:?}");
        }
    }
}
