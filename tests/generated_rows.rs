//! The SIMD rows of kernels (unrolled from the tables `layout!` emits: AVX-512, AVX2, NEON), at every
//! level this CPU runs, against the reference. Small images, so that Miri runs it too (CI:
//! AVX2 under Miri, NEON under qemu-user).

use std::fmt::Debug;
// The rows are the generated code's side of the contract, not the public API.
use swizzle::__private::simd::{FullTiles, Rows};
use swizzle::kernel::{Element, KernelError, Level, Options, Stores, View};

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

    /// 8 × 64 tiles, rows XOR-swizzled in groups of eight: rows of 64 fill AVX-512's
    /// registers of bytes, 32 of them AVX2's.
    layout Xor64 {
        memory [ty: dyn, tx: dyn, r: 8, co: 8, ci: 8];
        xor co by r;
        merge [co, ci] -> c;
        merge [ty, r] -> y;
        merge [tx, c] -> x;
        coords [y, x];
    }
    kernel PackXor64 = pack(Xor64);
    kernel UnpackXor64 = unpack(Xor64);

    /// 8 × 8 Morton tiles: 64 elements, so that AVX-512's four 16-byte lanes load a tile in
    /// 16 registers, which fit its register file.
    layout Morton8 {
        memory [ty: dyn, tx: dyn, m: 64];
        morton m -> [yi: 8, xi: 8];
        merge [ty, yi] -> y;
        merge [tx, xi] -> x;
        coords [y, x];
    }
    kernel PackMorton8 = pack(Morton8);
    kernel UnpackMorton8 = unpack(Morton8);
}

/// Elements of every size rows are generated for, with a poison no image element has.
trait Value: Element + PartialEq + Debug {
    const POISON: Self;
    fn of(index: usize) -> Self;
}

macro_rules! value {
    ($($ty:ty),*) => {$(
        impl Value for $ty {
            const POISON: Self = <$ty>::MAX;
            fn of(index: usize) -> Self {
                // Below the poison, and distinct for images of fewer than 251 elements
                // in bytes.
                (index % (<$ty>::MAX as usize).min(251)) as $ty
            }
        }
    )*};
}

value!(u8, u16, u32, u64, u128);

/// A row-major image of `y × x` elements of `T`, and the same pitched: 3 elements past
/// each row and 2 past the last, poisoned.
fn images<T: Value>(y: usize, x: usize) -> (Vec<T>, View, Vec<T>) {
    let image: Vec<T> = (0..y * x).map(T::of).collect();
    let pitch = x + 3;
    let view = View::pitched(&[y, x], pitch).expect("a valid view");
    let mut pitched = vec![T::POISON; y * pitch + 2];
    for (i, value) in image.iter().enumerate() {
        pitched[i / x * pitch + i % x] = *value;
    }
    (image, view, pitched)
}

/// `image` stored as `descriptor` says over `[y, x]`, `POISON` elsewhere.
fn stored<T: Value>(
    descriptor: &swizzle::ir::Descriptor,
    [y, x]: [usize; 2],
    space: usize,
    image: &[T],
) -> Vec<T> {
    let mut stored = vec![T::POISON; space];
    for (i, coord) in swizzle::ir::coordinates(&[y, x]).enumerate() {
        stored[descriptor.offset_in(&[y, x], &coord).expect("valid")] = image[i];
    }
    stored
}

/// The levels of this CPU: each pinned, so that each level's rows run.
fn levels() -> impl Iterator<Item = Options> {
    Level::ALL
        .into_iter()
        .filter(|level| level.is_available())
        .map(Options::from)
}

type Run<'a, T> = &'a dyn Fn(Options, &[T], &mut [T]) -> Result<(), KernelError>;
type RunView<'a, T> = &'a dyn Fn(&View, &[T], &mut [T]) -> Result<(), KernelError>;

/// Pack and unpack of one tiled layout at every level, from and into a pitched view too,
/// against the interpreter.
#[allow(clippy::too_many_arguments)]
fn round_trip<T: Value>(
    [y, x]: [usize; 2],
    space: usize,
    descriptor: &swizzle::ir::Descriptor,
    pack: Run<T>,
    unpack: Run<T>,
    pack_view: RunView<T>,
    unpack_view: RunView<T>,
) -> Vec<T> {
    let (image, view, pitched) = images::<T>(y, x);
    let expected = stored(descriptor, [y, x], space, &image);
    for options in levels() {
        let mut tiles = vec![T::POISON; space];
        pack(options, &image, &mut tiles).expect("fits");
        assert_eq!(tiles, expected, "pack, {options:?}, {y}×{x}");
        let mut back = vec![T::POISON; y * x];
        unpack(options, &tiles, &mut back).expect("fits");
        assert_eq!(back, image, "unpack, {options:?}, {y}×{x}");
    }
    let mut from_view = vec![T::POISON; space];
    pack_view(&view, &pitched, &mut from_view).expect("fits");
    assert_eq!(from_view, expected, "pack from a view, {y}×{x}");
    let mut to_view = vec![T::POISON; pitched.len()];
    unpack_view(&view, &expected, &mut to_view).expect("fits");
    assert_eq!(to_view, pitched, "unpack into a view, {y}×{x}");
    expected
}

/// 16 × 16 Morton tiles, and their copy into XOR-swizzled tiles, in elements of `T`.
fn morton16<T: Value>(sizes: &[[usize; 2]]) {
    for &[y, x] in sizes {
        let (morton, xor) = (
            Morton16::new(y, x).expect("fits"),
            Xor16::new(y, x).expect("fits"),
        );
        let tiles = round_trip::<T>(
            [y, x],
            morton.space(),
            &Morton16::DESCRIPTOR,
            &|options, src, dst| PackMorton16::run_with(&morton, options, src, dst),
            &|options, src, dst| UnpackMorton16::run_with(&morton, options, src, dst),
            &|view, src, dst| PackMorton16::run_view(&morton, view, src, dst),
            &|view, src, dst| UnpackMorton16::run_view(&morton, view, src, dst),
        );
        let (image, ..) = images::<T>(y, x);
        let retiled = stored(&Xor16::DESCRIPTOR, [y, x], xor.space(), &image);
        for options in levels() {
            let mut other = vec![T::POISON; xor.space()];
            Retile16::run_with(&morton, &xor, options, &tiles, &mut other).expect("fits");
            assert_eq!(other, retiled, "copy, {options:?}, {y}×{x}");
        }
    }
}

/// Defines `fn $name<T>(sizes)`: pack and unpack of `$layout` at each size, in elements of `T`
/// ([`round_trip`]).
macro_rules! round_trips {
    ($(#[$doc:meta])* $name:ident: $layout:ident, $pack:ident, $unpack:ident) => {
        $(#[$doc])*
        fn $name<T: Value>(sizes: &[[usize; 2]]) {
            for &[y, x] in sizes {
                let layout = $layout::new(y, x).expect("fits");
                round_trip::<T>(
                    [y, x],
                    layout.space(),
                    &$layout::DESCRIPTOR,
                    &|options, src, dst| $pack::run_with(&layout, options, src, dst),
                    &|options, src, dst| $unpack::run_with(&layout, options, src, dst),
                    &|view, src, dst| $pack::run_view(&layout, view, src, dst),
                    &|view, src, dst| $unpack::run_view(&layout, view, src, dst),
                );
            }
        }
    };
}

round_trips!(
    /// 8 × 64 XOR-swizzled tiles in elements of `T`.
    xor64: Xor64, PackXor64, UnpackXor64
);

round_trips!(
    /// 8 × 8 Morton tiles in elements of `T`.
    morton8: Morton8, PackMorton8, UnpackMorton8
);

/// Streamed packs into tiles that start off a cache line (a `Vec` of many MiB from glibc
/// starts 16 bytes into its pages) stream through a stage: at every offset into a line, at
/// every level, on one thread and on three, the interpreter's elements and nothing written
/// around them. Rows of 20 tiles of 1 KiB: longer than a stage's chunk (15 such tiles).
#[test]
#[cfg_attr(
    miri,
    ignore = "minutes under Miri; the stage's unsafe stores run there in kernel::stage's tests"
)]
fn streamed_packs_off_a_line() {
    const LINE: usize = 64;
    let (y, x) = (48, 320);
    let layout = Morton16::new(y, x).expect("fits");
    let (image, ..) = images::<u32>(y, x);
    let space = layout.space();
    let expected = stored(&Morton16::DESCRIPTOR, [y, x], space, &image);
    let words = LINE / size_of::<u32>();
    let mut buffer = vec![u32::POISON; space + 2 * words];
    let line = buffer.as_ptr().align_offset(LINE);
    for options in levels() {
        for threads in [1, 3] {
            let options = options.threads(threads).stores(Stores::Streaming);
            for start in line..line + words {
                buffer.fill(u32::POISON);
                let dst = &mut buffer[start..start + space];
                PackMorton16::run_with(&layout, options, &image, dst).expect("fits");
                let past = (start - line) * size_of::<u32>();
                assert!(dst == expected, "{options:?}, {past} bytes past a line");
                let mut around = buffer[..start].iter().chain(&buffer[start + space..]);
                assert!(
                    around.all(|&e| e == u32::POISON),
                    "{options:?}, {past} bytes"
                );
            }
        }
    }
}

/// A kernel's rows for each size of `Rows::SIZES`.
fn sizes<K: FullTiles>() -> [Rows; Rows::SIZES.len()] {
    [
        Rows::generated::<K, u8>(),
        Rows::generated::<K, u16>(),
        Rows::generated::<K, u32>(),
        Rows::generated::<K, u64>(),
        Rows::generated::<K, u128>(),
    ]
}

/// The levels each element size has rows for: every network the tiles allow.
#[test]
fn rows_exist_where_registers_fit() {
    let has = |rows: &[Rows; Rows::SIZES.len()], size: usize| {
        let rows = rows[Rows::SIZES.iter().position(|&s| s == size).expect("a size")];
        (
            rows.avx512.is_some(),
            rows.avx2.is_some(),
            rows.neon.is_some(),
        )
    };
    let x86 = cfg!(target_arch = "x86_64");
    let arm = cfg!(target_arch = "aarch64");
    // 16 × 16 tiles: the image's rows of 16 elements fill 16-byte registers of bytes,
    // 32-byte ones of 2-byte elements, 64-byte ones of words.
    for rows in [&sizes::<PackMorton16>(), &sizes::<UnpackMorton16>()] {
        assert_eq!(has(rows, 1), (false, false, arm));
        assert_eq!(has(rows, 2), (false, x86, arm));
        assert_eq!(has(rows, 4), (x86, x86, arm));
        assert_eq!(has(rows, 8), (x86, x86, false));
        // AVX-512's four 16-byte lanes have a network, whose 64 source registers the route
        // leaves to the straight-line tile.
        assert_eq!(has(rows, 16), (x86, false, false));
    }
    // Between two layouts, registers cut whole tiles of 256: every size has rows (NEON's
    // two 8-byte lanes are too few for a network).
    for size in [1, 2, 4] {
        assert_eq!(has(&sizes::<Retile16>(), size), (x86, x86, arm));
    }
    assert_eq!(has(&sizes::<Retile16>(), 8), (x86, x86, false));
    assert_eq!(has(&sizes::<Retile16>(), 16), (x86, false, false));
    // 8 × 64 tiles: rows of 64 bytes fill AVX-512's registers.
    for rows in [&sizes::<PackXor64>(), &sizes::<UnpackXor64>()] {
        assert_eq!(has(rows, 1), (x86, x86, arm));
        assert_eq!(has(rows, 2), (x86, x86, arm));
        assert_eq!(has(rows, 16), (x86, false, false));
    }
    // 8 × 8 tiles: a register never spans two of the image's rows of 8, so bytes have no
    // rows, and 16-byte elements only AVX-512's four lanes (AVX2's two are too few).
    for rows in [&sizes::<PackMorton8>(), &sizes::<UnpackMorton8>()] {
        assert_eq!(has(rows, 1), (false, false, false));
        assert_eq!(has(rows, 2), (false, false, arm));
        assert_eq!(has(rows, 4), (false, x86, arm));
        assert_eq!(has(rows, 8), (x86, x86, false));
        assert_eq!(has(rows, 16), (x86, false, false));
    }
}

/// 16-byte elements take AVX-512's generated rows where the tile's 4-lane registers fit
/// its register file (8 × 8 Morton tiles: 16), and not where they would spill (16 × 16: 64).
#[test]
fn sixteen_byte_rows_where_registers_fit() {
    use swizzle::kernel::TileCopy;
    let options = Options::default();
    let avx512 = Level::Avx512.is_available();
    for route in [
        PackMorton8::route::<u128>(options),
        UnpackMorton8::route::<u128>(options),
        PackMorton8::route::<[u8; 16]>(options),
    ] {
        let route = route.expect("a level this CPU runs");
        assert_eq!(route.tiles == TileCopy::GeneratedRows, avx512, "{route}");
        assert_eq!(route.level == Level::Avx512, avx512, "{route}");
    }
    for route in [
        PackMorton16::route::<u128>(options),
        UnpackMorton16::route::<u128>(options),
    ] {
        let route = route.expect("a level this CPU runs");
        assert_ne!(route.tiles, TileCopy::GeneratedRows, "{route}");
    }
}

/// The generated SIMD rows at every level this CPU runs and for every element size,
/// against the reference: sizes with edge tiles (the runtime copies those) and pitched
/// views (the rows' pitch is a run-time value of the generated code), into poisoned
/// buffers.
#[test]
fn generated_rows_at_every_level() {
    // Under Miri, one size per layout (a row of two full tiles and the edges around them)
    // and the sizes whose AVX2 rows move words and bytes.
    if cfg!(miri) {
        morton16::<u32>(&[[20, 35]]);
        xor64::<u16>(&[[10, 140]]);
        return;
    }
    // 300 columns: 18 full tiles a row, past one group of the passes' tiles (16 of `u32`,
    // 8 of `u64`) into a partial one.
    let sizes = [[16, 16], [48, 80], [37, 53], [15, 100], [20, 35], [33, 300]];
    morton16::<u8>(&sizes);
    morton16::<u16>(&sizes);
    morton16::<u32>(&sizes);
    morton16::<u64>(&sizes);
    morton16::<u128>(&sizes);
    let sizes = [[8, 64], [24, 192], [19, 150], [10, 140]];
    xor64::<u8>(&sizes);
    xor64::<u16>(&sizes);
    xor64::<u32>(&sizes);
    xor64::<u128>(&sizes);
    let sizes = [[8, 8], [24, 40], [19, 45], [7, 100], [33, 300]];
    morton8::<u8>(&sizes);
    morton8::<u16>(&sizes);
    morton8::<u32>(&sizes);
    morton8::<u64>(&sizes);
    morton8::<u128>(&sizes);
}
