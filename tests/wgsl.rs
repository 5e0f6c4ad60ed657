//! The `WGSL` constant of generated layouts: the same text through the type and the
//! `Layout` trait, and absent-but-harmless for a layout beyond `u32` (ui/tests/ui has
//! the compile error for using it).

use swizzle::Layout;

swizzle::layout! {
    /// The texture of CK Tile's Morton texture example.
    pub layout MortonTexture {
        memory [n: 64];
        unmerge n -> [ty: 2, tx: 2, m: 16];
        morton m -> [yi: 4, xi: 4];
        merge [ty, yi] -> y;
        merge [tx, xi] -> x;
        coords [y, x];
    }

    /// Offsets up to 2^33: fine in Rust, out of reach of WGSL's u32.
    layout Big {
        memory [a: 2, b: 4] strides [4294967296, 1];
        coords [a, b];
    }
}

fn wgsl_of<L: Layout<2>>() -> &'static str {
    L::WGSL
}

#[test]
fn the_trait_gives_the_types_wgsl() {
    assert_eq!(wgsl_of::<MortonTexture>(), MortonTexture::WGSL);
    assert!(MortonTexture::WGSL.contains("fn morton_texture_offset(y: u32, x: u32) -> u32"));
    assert!(MortonTexture::WGSL.contains("fn morton_texture_coord(offset: u32) -> array<u32, 2>"));
}

#[test]
fn a_layout_beyond_u32_keeps_its_rust_code() {
    assert_eq!(Big::offset(1, 3), (1 << 32) + 3);
    assert_eq!(<Big as Layout<2>>::offset([1, 2]), (1 << 32) + 2);
}
