//! `swizzle::tegra` against the `tegra_swizzle` crate, byte for byte: textures of many sizes
//! (GOB and block multiples and not), every block height, pixels of 1 to 16 bytes, both
//! directions; and the errors.

use swizzle::kernel::KernelError;
use swizzle::texture::switch::{deswizzle, swizzle, swizzled_size};
use tegra_swizzle::BlockHeight;

const BLOCK_HEIGHTS: [usize; 6] = [1, 2, 4, 8, 16, 32];

fn block_height(gobs: usize) -> BlockHeight {
    BlockHeight::new(gobs as u32).expect("a Tegra block height")
}

/// A texture whose every byte differs from its neighbours'.
fn texture(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 7 + i / 251) as u8).collect()
}

fn check(width: usize, height: usize, bytes_per_pixel: usize, gobs: usize) {
    let linear = texture(width * height * bytes_per_pixel);
    let (w, h, bpp) = (width as u32, height as u32, bytes_per_pixel as u32);
    let expected =
        tegra_swizzle::swizzle::swizzle_block_linear(w, h, 1, &linear, block_height(gobs), bpp)
            .expect("tegra_swizzle swizzles it");
    let size = swizzled_size(width, height, bytes_per_pixel, gobs).expect("fits");
    assert_eq!(
        size,
        expected.len(),
        "{width}×{height}×{bytes_per_pixel}, {gobs}"
    );
    // Zeroed, as tegra_swizzle's output: the parts of edge GOBs outside stay zero.
    let mut tiled = vec![0u8; size];
    swizzle(width, height, bytes_per_pixel, gobs, &linear, &mut tiled).expect("fits");
    assert!(
        tiled == expected,
        "swizzle of {width}×{height}×{bytes_per_pixel}, block height {gobs}"
    );
    let mut back = vec![0u8; linear.len()];
    deswizzle(width, height, bytes_per_pixel, gobs, &tiled, &mut back).expect("fits");
    let untiled =
        tegra_swizzle::swizzle::deswizzle_block_linear(w, h, 1, &tiled, block_height(gobs), bpp)
            .expect("tegra_swizzle deswizzles it");
    assert!(
        back == untiled && back == linear,
        "deswizzle of {width}×{height}×{bytes_per_pixel}"
    );
}

#[test]
fn equal_bytes_to_tegra_swizzle() {
    let sizes = [
        (1, 1),
        (16, 8),
        (17, 9),
        (64, 64),
        (100, 37),
        (33, 300),
        (256, 130),
    ];
    for (width, height) in sizes {
        for bytes_per_pixel in [1, 2, 3, 4, 8, 12, 16] {
            for gobs in BLOCK_HEIGHTS {
                check(width, height, bytes_per_pixel, gobs);
            }
        }
    }
}

#[test]
fn equal_bytes_on_threads() {
    // 4 MiB of RGBA8: split across threads.
    for gobs in [1, 16] {
        check(1024, 1000, 4, gobs);
    }
    // Rows of blocks are cut into bands of at most 256 KiB of consecutive blocks where the
    // copy spreads over threads: 8 rows of 128-row blocks, fewer than the threads (16, 24);
    // 2 rows of 2 MiB, whole bands in a row (2, 3 threads); rows of 63 blocks, bands
    // across rows' ends.
    use swizzle::kernel::Options;
    for (width, height) in [(1024, 1000), (4096, 256), (1000, 1000)] {
        let (bytes_per_pixel, gobs) = (4, 16);
        let src = texture(width * height * bytes_per_pixel);
        let size = swizzle::texture::switch::swizzled_size(width, height, bytes_per_pixel, gobs)
            .expect("fits");
        let swizzled = |threads: usize| {
            let mut tiled = vec![0; size];
            let options = Options::default().threads(threads);
            swizzle::texture::switch::swizzle_with(
                options,
                width,
                height,
                bytes_per_pixel,
                gobs,
                &src,
                &mut tiled,
            )
            .unwrap();
            tiled
        };
        let one = swizzled(1);
        for threads in [2, 3, 16, 24] {
            assert!(
                swizzled(threads) == one,
                "{width}×{height}, {threads} threads"
            );
        }
    }
}

#[test]
fn bad_textures_are_errors() {
    let mut dst = vec![0u8; 4096];
    assert_eq!(
        swizzle(16, 8, 4, 0, &[0; 512], &mut dst[..512]),
        Err(KernelError::Stack { stack: 0, rank: 2 })
    );
    assert!(matches!(
        swizzle(16, 8, 4, 1, &[0; 511], &mut dst[..512]),
        Err(KernelError::Bytes { side: "source", .. })
    ));
    assert!(matches!(
        swizzle(16, 8, 4, 2, &[0; 512], &mut dst[..512]),
        Err(KernelError::ByteLength {
            side: "destination",
            expected: 1024,
            found: 512,
            exact: true,
        })
    ));
    assert_eq!(swizzled_size(16, 8, 4, 0), None);
    assert_eq!(swizzled_size(usize::MAX, 8, 4, 1), None);
    // Pixels of 0 bytes (once a copy of nothing that returned `Ok`).
    for copy in [swizzle, deswizzle] {
        assert_eq!(
            copy(16, 8, 0, 1, &[0; 512], &mut dst[..512]),
            Err(KernelError::ZeroSizedElement)
        );
    }
    assert_eq!(swizzled_size(16, 8, 0, 1), None);
}

/// `swizzle_with` and `deswizzle_with` give the default's bytes at every level this CPU runs
/// and on one thread or four, for word and byte pixels.
#[test]
fn every_options_give_the_same_bytes() {
    use swizzle::kernel::{Level, Options};
    let (width, height, block_height) = (37, 29, 2);
    for bytes_per_pixel in [4, 3] {
        let size =
            swizzle::texture::switch::swizzled_size(width, height, bytes_per_pixel, block_height)
                .expect("fits");
        let src: Vec<u8> = (0..width * height * bytes_per_pixel)
            .map(|i| i as u8)
            .collect();
        let mut expected = vec![0; size];
        swizzle::texture::switch::swizzle(
            width,
            height,
            bytes_per_pixel,
            block_height,
            &src,
            &mut expected,
        )
        .unwrap();
        let levels = Level::ALL.into_iter().filter(|level| level.is_available());
        for level in levels.map(Some).chain([None]) {
            for threads in [1, 4] {
                let options = Options {
                    level,
                    ..Options::default().threads(threads)
                };
                let mut tiled = vec![0; size];
                swizzle::texture::switch::swizzle_with(
                    options,
                    width,
                    height,
                    bytes_per_pixel,
                    block_height,
                    &src,
                    &mut tiled,
                )
                .unwrap();
                assert_eq!(tiled, expected, "{bytes_per_pixel} bytes, {options:?}");
                let mut back = vec![0; src.len()];
                swizzle::texture::switch::deswizzle_with(
                    options,
                    width,
                    height,
                    bytes_per_pixel,
                    block_height,
                    &tiled,
                    &mut back,
                )
                .unwrap();
                assert_eq!(back, src, "{bytes_per_pixel} bytes, {options:?}");
            }
        }
    }
}
