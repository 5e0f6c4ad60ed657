//! The SIMD levels of [`swizzle_core::simd::Level`] on this CPU: run-time detection of their
//! target features, and the `#[target_feature]` attribute that compiles code for them.
//!
//! `#[target_feature(enable = ..)]` takes only a string literal, so each level's features are
//! written once more here, in [`target_features!`]; a test holds them to
//! [`Level::target_features`], the one definition.

use swizzle_core::simd::Level;

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

/// Whether this CPU runs `level`: it is of this architecture and has every one of its
/// target features.
pub fn detected(level: Level) -> bool {
    cfg!(target_arch = "x86_64") == (level.arch() == "x86_64")
        && cfg!(target_arch = "aarch64") == (level.arch() == "aarch64")
        && level.target_features().split(',').all(feature_detected)
}

/// Run-time detection of one target feature of a level (the standard macros take only
/// literals); false for a feature of another architecture or one no level names.
fn feature_detected(feature: &str) -> bool {
    match feature {
        #[cfg(target_arch = "x86_64")]
        "avx2" => std::arch::is_x86_feature_detected!("avx2"),
        #[cfg(target_arch = "x86_64")]
        "avx512f" => std::arch::is_x86_feature_detected!("avx512f"),
        #[cfg(target_arch = "x86_64")]
        "avx512bw" => std::arch::is_x86_feature_detected!("avx512bw"),
        #[cfg(target_arch = "x86_64")]
        "avx512vbmi" => std::arch::is_x86_feature_detected!("avx512vbmi"),
        #[cfg(target_arch = "aarch64")]
        "neon" => std::arch::is_aarch64_feature_detected!("neon"),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_attribute_literals_are_the_levels_features() {
        let literals = [
            (Level::Neon, target_features!(Neon)),
            (Level::Avx2, target_features!(Avx2)),
            (Level::Avx512, target_features!(Avx512)),
        ];
        for level in Level::ALL {
            let literal = literals.iter().find(|(l, _)| *l == level).map(|(_, f)| *f);
            assert_eq!(literal, Some(level.target_features()), "{level:?}");
        }
    }

    #[test]
    fn every_feature_of_this_architecture_is_detectable() {
        // A feature `feature_detected` does not know would make its level undetectable.
        #[cfg(target_arch = "x86_64")]
        assert!(detected(Level::Avx2) == std::arch::is_x86_feature_detected!("avx2"));
        #[cfg(target_arch = "aarch64")]
        assert!(detected(Level::Neon));
        for level in Level::ALL {
            if detected(level) {
                assert!(level.target_features().split(',').all(feature_detected));
            }
        }
    }
}
