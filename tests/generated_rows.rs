//! The SIMD rows `layout!` generates for kernels (`K::ROWS`: AVX-512, AVX2, NEON), at every
//! level this CPU runs, against the reference. Small images, so that Miri runs it too (CI:
//! AVX2 under Miri, NEON under qemu-user).

use swizzle::kernel::Level;

swizzle::layout! {
    /// 16×16 Morton tiles: rows of 16 fill AVX-512's registers of 4-byte elements, so every
    /// level has a network and generated rows.
    layout Morton16 {
        memory [ty: dyn, tx: dyn, m: 256];
        morton m -> [yi: 16, xi: 16];
        merge [ty, yi] -> y;
        merge [tx, xi] -> x;
        coords [y, x];
    }
    kernel PackMorton16 = pack(Morton16);
    kernel UnpackMorton16 = unpack(Morton16);
    /// 16×16 tiles, 16-word rows XOR-swizzled in groups of four: retiling draws each row
    /// from several Morton registers.
    layout Xor16 {
        memory [ty: dyn, tx: dyn, r: 16, co: 4, ci: 4];
        xor co by r;
        merge [co, ci] -> c;
        merge [ty, r] -> y;
        merge [tx, c] -> x;
        coords [y, x];
    }
    kernel Retile16 = copy(Morton16 -> Xor16);
}

/// The generated SIMD rows (`K::ROWS`) at every level this CPU runs, against the reference:
/// sizes with edge tiles (the runtime copies those) and pitched views (the rows' pitch is a
/// run-time value of the generated code), into poisoned buffers.
#[test]
fn generated_rows_at_every_level() {
    use swizzle::kernel::{Options, View};
    #[cfg(target_arch = "x86_64")]
    for rows in [PackMorton16::ROWS, UnpackMorton16::ROWS, Retile16::ROWS] {
        assert!(rows.avx2.is_some() && rows.avx512.is_some());
    }
    #[cfg(target_arch = "aarch64")]
    for rows in [PackMorton16::ROWS, UnpackMorton16::ROWS, Retile16::ROWS] {
        assert!(rows.neon.is_some());
    }
    // Under Miri, one size: a row of two full tiles and the edges around them.
    let sizes: &[(usize, usize)] = match cfg!(miri) {
        true => &[(20, 35)],
        false => &[(16, 16), (48, 80), (37, 53), (15, 100), (20, 35)],
    };
    for &(y, x) in sizes {
        let (morton, xor) = (
            Morton16::new(y, x).expect("fits"),
            Xor16::new(y, x).expect("fits"),
        );
        let image: Vec<u32> = (0..(y * x) as u32).collect();
        let mut expected = vec![u32::MAX; morton.space()];
        for (i, coord) in swizzle::ir::coordinates(&[y, x]).enumerate() {
            expected[Morton16::DESCRIPTOR
                .offset_in(&[y, x], &coord)
                .expect("valid")] = image[i];
        }
        let mut retiled = vec![u32::MAX; xor.space()];
        for coord in swizzle::ir::coordinates(&[y, x]) {
            let from = Morton16::DESCRIPTOR
                .offset_in(&[y, x], &coord)
                .expect("valid");
            let to = Xor16::DESCRIPTOR.offset_in(&[y, x], &coord).expect("valid");
            retiled[to] = expected[from];
        }
        // The image pitched: 3 elements past each row, and 2 past the last.
        let pitch = x + 3;
        let view = View::pitched(&[y, x], pitch).expect("a valid view");
        let mut pitched = vec![u32::MAX - 1; y * pitch + 2];
        for (i, value) in image.iter().enumerate() {
            pitched[i / x * pitch + i % x] = *value;
        }
        for level in Level::ALL.into_iter().filter(|level| level.is_available()) {
            let options = Options::default().level(level);
            let mut tiles = vec![u32::MAX; morton.space()];
            PackMorton16::run_with(&morton, options, &image, &mut tiles).expect("fits");
            assert_eq!(tiles, expected, "pack at {level:?}, {y}×{x}");
            let mut back = vec![u32::MAX; y * x];
            UnpackMorton16::run_with(&morton, options, &tiles, &mut back).expect("fits");
            assert_eq!(back, image, "unpack at {level:?}, {y}×{x}");
            let mut other = vec![u32::MAX; xor.space()];
            Retile16::run_with(&morton, &xor, options, &tiles, &mut other).expect("fits");
            assert_eq!(other, retiled, "copy at {level:?}, {y}×{x}");
            let mut from_view = vec![u32::MAX; morton.space()];
            PackMorton16::run_view(&morton, &view, &pitched, &mut from_view).expect("fits");
            assert_eq!(from_view, expected, "pack from a view, {y}×{x}");
            let mut to_view = vec![u32::MAX - 1; y * pitch + 2];
            UnpackMorton16::run_view(&morton, &view, &tiles, &mut to_view).expect("fits");
            assert_eq!(to_view, pitched, "unpack into a view, {y}×{x}");
        }
    }
}
