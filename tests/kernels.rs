//! Copy kernels compiled: pack, unpack and layout → layout copies at every SIMD level this
//! CPU runs and for every element size, against the reference (the interpreter's offset of
//! every coordinate), with poisoned destinations so that a missed or stray write shows.

use swizzle::Indexing;
use swizzle::kernel::{
    Element, KernelError, Level, Options, Reason, Stores, TileCopy, View, stacked_space,
};

#[path = "common/kernels.rs"]
#[macro_use]
mod kernels;

/// The kernel bench's layouts: `Block16` (a block of 16 GOBs of words as one 2048-element
/// tile) and `Morton16` (16×16 Morton tiles, whose unpack writes 16 image rows in two passes
/// of eight) among them.
#[allow(dead_code, reason = "the tests use two of the bench's layouts")]
mod bench_layouts {
    kernel_layouts!(swizzle::layout);
}
use bench_layouts::{Block16, PackBlock16, PackMorton16, UnpackBlock16, UnpackMorton16};

swizzle::layout! {
    /// The 8×8 texture of CK Tile's Morton texture example: 4×4 Morton tiles.
    layout MortonTexture {
        memory [n: 64];
        unmerge n -> [ty: 2, tx: 2, m: 16];
        morton m -> [yi: 4, xi: 4];
        merge [ty, yi] -> y;
        merge [tx, xi] -> x;
        coords [y, x];
    }
    kernel PackTexture = pack(MortonTexture);
    kernel UnpackTexture = unpack(MortonTexture);

    /// An image of any size in 8×8 Morton tiles.
    layout MortonTiles {
        memory [ty: dyn, tx: dyn, m: 64];
        morton m -> [yi: 8, xi: 8];
        merge [ty, yi] -> y;
        merge [tx, xi] -> x;
        coords [y, x];
    }
    kernel PackMorton = pack(MortonTiles);
    kernel UnpackMorton = unpack(MortonTiles);

    /// The same image in 8×8 tiles whose columns are XOR-swizzled by the row.
    layout XorTiles {
        memory [ty: dyn, tx: dyn, r: 8, c: 8];
        xor c by r;
        merge [ty, r] -> y;
        merge [tx, c] -> x;
        coords [y, x];
    }
    kernel PackXor = pack(XorTiles);
    kernel UnpackXor = unpack(XorTiles);
    kernel Retile = copy(MortonTiles -> XorTiles);

    /// 2×2 quads, each four consecutive elements of a Morton tile.
    traversal Quads = sfc(over MortonTiles, vector [2, 2], snake = false);
    kernel PackQuads = pack(MortonTiles, walk Quads);

    /// Tiles of 3 rows × 6 columns (no power of two), rows padded by one on each side.
    layout Padded {
        memory [ty: dyn, tx: dyn, r: 3, c: 4];
        pad c -> x6 (1, 1);
        merge [ty, r] -> y;
        merge [tx, x6] -> x;
        coords [y, x];
    }
    kernel PackPadded = pack(Padded);
    kernel UnpackPadded = unpack(Padded, vector 2);


    /// A block of 4 GOBs: the same shape, a quarter as tall.
    layout Block4 {
        memory [by: dyn, bx: dyn, gy: 4, xh: 2, yq: 4, xq: 2, y1: 2, x4: 4];
        merge [by, gy, yq, y1] -> y;
        merge [bx, xh, xq, x4] -> x;
        coords [y, x];
    }
    kernel PackBlock4 = pack(Block4);
    kernel UnpackBlock4 = unpack(Block4);
}

/// A poison value no source element has.
trait Poison: Element + PartialEq + std::fmt::Debug {
    const POISON: Self;
    fn from_index(i: usize) -> Self;
}

macro_rules! poison {
    ($($ty:ty => $poison:expr),*) => {$(
        impl Poison for $ty {
            const POISON: Self = $poison;
            fn from_index(i: usize) -> Self {
                // Never the poison: the index modulo the type's range, below the maximum.
                (i % (<$ty>::MAX as usize)) as $ty
            }
        }
    )*};
}
poison!(u8 => u8::MAX, u16 => u16::MAX, u32 => u32::MAX, u64 => u64::MAX, u128 => u128::MAX);

/// Row-major index of `coord` over `extents`.
fn row_major(extents: &[usize], coord: &[usize]) -> usize {
    coord.iter().zip(extents).fold(0, |acc, (c, e)| acc * e + c)
}

/// Packs and unpacks `layout` at every level, checking both against the interpreter.
fn round_trip<T: Poison, L: Indexing<2>>(
    layout: &L,
    descriptor: &swizzle::ir::Descriptor,
    pack: impl Fn(Level, &[T], &mut [T]) -> Result<(), KernelError>,
    unpack: impl Fn(Level, &[T], &mut [T]) -> Result<(), KernelError>,
) {
    let extents = layout.extents();
    let image: Vec<T> = (0..extents.iter().product()).map(T::from_index).collect();
    for level in Level::ALL.into_iter().filter(|l| l.is_available()) {
        let mut packed = vec![T::POISON; layout.space()];
        pack(level, &image, &mut packed).expect("lengths fit");
        let mut expected = vec![T::POISON; layout.space()];
        for coord in swizzle::ir::coordinates(&extents) {
            if let Ok(offset) = descriptor.offset_in(&extents, &coord) {
                expected[offset] = image[row_major(&extents, &coord)];
            }
        }
        assert_eq!(packed, expected, "pack at {level:?}, extents {extents:?}");
        let mut unpacked = vec![T::POISON; image.len()];
        unpack(level, &packed, &mut unpacked).expect("lengths fit");
        assert_eq!(unpacked, image, "unpack at {level:?}, extents {extents:?}");
    }
}

/// [`round_trip`] through the `pack` and `unpack` plans between the row-major image and the
/// layout's `tiles` (the grid, and each tile's space).
fn round_trip_tiles<T: Poison, L: Indexing<2>>(
    layout: &L,
    descriptor: &swizzle::ir::Descriptor,
    (tiles, tile_space): (&[usize], usize),
    [pack, unpack]: [&swizzle::kernel::Plan; 2],
) {
    use swizzle::kernel::{Frame, Side, copy_with};
    let extents = layout.extents();
    let row_major = Side {
        extents: &extents,
        frame: Frame::RowMajor,
    };
    let tiled = Side {
        extents: &extents,
        frame: Frame::Tiles { tiles, tile_space },
    };
    round_trip::<T, _>(
        layout,
        descriptor,
        |level, src, dst| copy_with(level, pack, row_major, tiled, src, dst),
        |level, src, dst| copy_with(level, unpack, tiled, row_major, src, dst),
    );
}

fn morton_tiles<T: Poison>() {
    for (y, x) in [
        (8, 8),
        (16, 24),
        (13, 5),
        (17, 33),
        (64, 64),
        (1, 1),
        (0, 7),
    ] {
        let layout = MortonTiles::new(y, x).expect("fits");
        let tiles = (&layout.tiles()[..], MortonTiles::TILE_SPACE);
        let plans = [PackMorton::plan(), UnpackMorton::plan()];
        round_trip_tiles::<T, _>(&layout, &MortonTiles::DESCRIPTOR, tiles, plans);
        // The generated `run` is `copy` at the detected level.
        let image: Vec<T> = (0..y * x).map(T::from_index).collect();
        let (mut a, mut b) = (vec![T::POISON; layout.space()], vec![T::POISON; y * x]);
        PackMorton::run(&layout, &image, &mut a).expect("fits");
        UnpackMorton::run(&layout, &a, &mut b).expect("fits");
        assert_eq!(b, image);
        let mut quads = vec![T::POISON; layout.space()];
        PackQuads::run(&layout, &image, &mut quads).expect("fits");
        assert_eq!(quads, a, "walking quads packs the same");
    }
}

#[test]
fn morton_tiles_every_element_size() {
    morton_tiles::<u8>();
    morton_tiles::<u16>();
    morton_tiles::<u32>();
    morton_tiles::<u64>();
    morton_tiles::<u128>();
}

/// A block-linear block of 128 rows (`Block16`), too tall for any level's registers, and one
/// of 32 (`Block4`): packed and unpacked at every level against the interpreter, with one
/// tile and several along a row, full and partial, by the whole tile's plan and by the
/// kernels' `run`, which copies the blocks' GOBs stacked.
fn tall_tiles<T: Poison>() {
    for (y, x) in [
        (128, 16),
        (128, 64),
        (300, 40),
        (257, 49),
        (129, 17),
        (1, 1),
    ] {
        let layout = Block16::new(y, x).expect("fits");
        let tiles = (&layout.tiles()[..], Block16::TILE_SPACE);
        let plans = [PackBlock16::plan(), UnpackBlock16::plan()];
        round_trip_tiles::<T, _>(&layout, &Block16::DESCRIPTOR, tiles, plans);
        round_trip::<T, _>(
            &layout,
            &Block16::DESCRIPTOR,
            |level, src, dst| PackBlock16::run_with(&layout, level.into(), src, dst),
            |level, src, dst| UnpackBlock16::run_with(&layout, level.into(), src, dst),
        );
        let layout = Block4::new(y, x).expect("fits");
        let tiles = (&layout.tiles()[..], Block4::TILE_SPACE);
        let plans = [PackBlock4::plan(), UnpackBlock4::plan()];
        round_trip_tiles::<T, _>(&layout, &Block4::DESCRIPTOR, tiles, plans);
        round_trip::<T, _>(
            &layout,
            &Block4::DESCRIPTOR,
            |level, src, dst| PackBlock4::run_with(&layout, level.into(), src, dst),
            |level, src, dst| UnpackBlock4::run_with(&layout, level.into(), src, dst),
        );
    }
}

#[test]
fn tall_tiles_every_element_size() {
    tall_tiles::<u8>();
    tall_tiles::<u16>();
    tall_tiles::<u32>();
    tall_tiles::<u64>();
    tall_tiles::<u128>();
}

#[test]
fn networks_exist_where_registers_fit() {
    // 8×8 tiles: rows of 8 fill a 32-byte register of 4-byte elements, so AVX2 has a network;
    // 64-byte registers would need rows of 16.
    let lanes: Vec<usize> = PackMorton::plan()
        .networks
        .iter()
        .map(|n| n.lanes)
        .collect();
    assert_eq!(lanes, [4, 8]);
    assert_eq!(PackMorton::VECTOR, 2);
    assert_eq!(
        Level::Avx2
            .network::<u32>(PackMorton::plan())
            .map(|n| n.lanes),
        Some(8)
    );
    assert_eq!(
        Level::Avx2
            .network::<u64>(PackMorton::plan())
            .map(|n| n.lanes),
        Some(4)
    );
    assert!(Level::Avx512.network::<u32>(PackMorton::plan()).is_none());
    // AVX-512's four 16-byte lanes take the same 4-lane network (a 2 × 2 block).
    assert_eq!(
        Level::Avx512
            .network::<u128>(PackMorton::plan())
            .map(|n| n.lanes),
        Some(4)
    );
    assert!(Level::Avx2.network::<u128>(PackMorton::plan()).is_none());
    // A Morton register of 8 is a 2×4 block: two rows, so two permutes per store.
    let network = &PackMorton::plan().networks[1];
    assert_eq!((network.stores.len(), network.steps.len()), (8, 16));
}

#[test]
fn fixed_size_texture() {
    let image: Vec<u32> = (0..64).collect();
    let mut packed = vec![u32::MAX; 64];
    PackTexture::run(&image, &mut packed).expect("fits");
    for y in 0..8 {
        for x in 0..8 {
            assert_eq!(packed[MortonTexture::offset(y, x)], (y * 8 + x) as u32);
        }
    }
    let mut back = vec![0; 64];
    UnpackTexture::run(&packed, &mut back).expect("fits");
    assert_eq!(back, image);
}

#[test]
fn layout_to_layout() {
    for (y, x) in [(16, 16), (9, 23)] {
        let (morton, xor) = (
            MortonTiles::new(y, x).expect("fits"),
            XorTiles::new(y, x).expect("fits"),
        );
        let image: Vec<u16> = (0..y * x).map(|i| i as u16).collect();
        let mut a = vec![u16::MAX; morton.space()];
        PackMorton::run(&morton, &image, &mut a).expect("fits");
        let mut b = vec![u16::MAX; xor.space()];
        Retile::run(&morton, &xor, &a, &mut b).expect("fits");
        let mut expected = vec![u16::MAX; xor.space()];
        PackXor::run(&xor, &image, &mut expected).expect("fits");
        assert_eq!(b, expected);
    }
}

#[test]
fn padded_tiles_and_declared_vectors() {
    assert_eq!(PackPadded::VECTOR, 6);
    assert_eq!(UnpackPadded::VECTOR, 2);
    for (y, x) in [(3, 6), (7, 13)] {
        let layout = Padded::new(y, x).expect("fits");
        let image: Vec<u64> = (0..(y * x) as u64).collect();
        let mut packed = vec![u64::MAX; layout.space()];
        PackPadded::run(&layout, &image, &mut packed).expect("fits");
        let mut valid = 0;
        for coord in swizzle::ir::coordinates(&[y, x]) {
            if let Ok(offset) = Padded::DESCRIPTOR.offset_in(&[y, x], &coord) {
                assert_eq!(
                    packed[offset],
                    (coord[0] * x + coord[1]) as u64,
                    "{coord:?}"
                );
                valid += 1;
            }
        }
        let written = packed.iter().filter(|&&v| v != u64::MAX).count();
        assert_eq!(written, valid, "padding is not written");
        let mut back = vec![u64::MAX; y * x];
        UnpackPadded::run(&layout, &packed, &mut back).expect("fits");
        for coord in swizzle::ir::coordinates(&[y, x]) {
            let i = coord[0] * x + coord[1];
            let valid = Padded::DESCRIPTOR.offset_in(&[y, x], &coord).is_ok();
            assert_eq!(back[i] == image[i], valid, "{coord:?}");
        }
    }
}

#[test]
fn bad_buffers_are_errors() {
    let layout = MortonTiles::new(10, 10).expect("fits");
    let image = vec![0u32; 100];
    let mut short = vec![0u32; layout.space() - 1];
    assert_eq!(
        PackMorton::run(&layout, &image, &mut short)
            .unwrap_err()
            .to_string(),
        format!(
            "the destination has {} elements but its layout needs {}: give a buffer of exactly {}",
            layout.space() - 1,
            layout.space(),
            layout.space()
        )
    );
    let mut out = vec![0u32; layout.space()];
    let error = PackMorton::run(&layout, &image[..99], &mut out).unwrap_err();
    assert!(matches!(
        error,
        KernelError::Length {
            side: "source",
            expected: 100,
            found: 99
        }
    ));
    let other = XorTiles::new(10, 11).expect("fits");
    let error = Retile::run(&layout, &other, &out, &mut vec![0; other.space()]).unwrap_err();
    assert_eq!(
        error.to_string(),
        "the source has extents 10 × 10 but the destination 10 × 11: a copy needs the same extents"
    );
}

#[test]
fn large_arrays_stream_and_run_on_threads() {
    // 8.4 MB of u32 each way: past the streaming-store and the threading thresholds.
    let (y, x) = (1032, 2048);
    let layout = XorTiles::new(y, x).expect("fits");
    let image: Vec<u32> = (0..(y * x) as u32).collect();
    for level in Level::ALL.into_iter().filter(|l| l.is_available()) {
        let (extents, tiles) = (layout.extents(), layout.tiles());
        let row_major = swizzle::kernel::Side {
            extents: &extents,
            frame: swizzle::kernel::Frame::RowMajor,
        };
        let tiled = swizzle::kernel::Side {
            extents: &extents,
            frame: swizzle::kernel::Frame::Tiles {
                tiles: &tiles,
                tile_space: XorTiles::TILE_SPACE,
            },
        };
        let mut packed = vec![u32::MAX; layout.space()];
        for stores in [Stores::Cached, Stores::Streaming, Stores::Auto] {
            packed.fill(u32::MAX);
            swizzle::kernel::copy_with(
                Options::from(level).stores(stores),
                PackXor::plan(),
                row_major,
                tiled,
                &image,
                &mut packed,
            )
            .expect("fits");
            for (i, coord) in swizzle::ir::coordinates(&[y, x]).enumerate() {
                assert_eq!(
                    packed[layout.offset(coord[0], coord[1])],
                    image[i],
                    "{level:?} {stores:?}"
                );
            }
        }
        let mut back = vec![u32::MAX; image.len()];
        let unpack = UnpackXor::plan().clone();
        swizzle::kernel::copy_with(level, &unpack, tiled, row_major, &packed, &mut back)
            .expect("fits");
        let wrong = back.iter().zip(&image).position(|(b, i)| b != i);
        assert_eq!(wrong, None, "first wrong element of unpack at {level:?}");
    }
}

#[test]
fn malformed_plans_are_errors() {
    use swizzle::kernel::{Frame, Plan, Side, copy};
    let layout = MortonTiles::new(8, 8).expect("fits");
    let (extents, tiles) = (layout.extents(), layout.tiles());
    let sides = (
        Side {
            extents: &extents,
            frame: Frame::RowMajor,
        },
        Side {
            extents: &extents,
            frame: Frame::Tiles {
                tiles: &tiles,
                tile_space: MortonTiles::TILE_SPACE,
            },
        },
    );
    let image = vec![0u32; 64];
    let attempt = |plan: Plan| copy(&plan, sides.0, sides.1, &image, &mut vec![0; 64]);
    let mut runs = PackMorton::plan().runs.to_vec();
    runs[3].len = 7; // past the end of its row
    let plan = Plan {
        runs: runs.into(),
        ..PackMorton::plan().clone()
    };
    assert_eq!(
        attempt(plan).unwrap_err().to_string(),
        "malformed plan: a run leaves its row or its tile"
    );
    // Every network a step off (a copy checks the one it runs, whichever the CPU's level).
    let networks: Vec<_> = PackMorton::plan()
        .networks
        .iter()
        .map(|network| {
            let mut steps = network.steps.to_vec();
            steps[5].load = 99;
            swizzle::kernel::Network {
                steps: steps.into(),
                ..network.clone()
            }
        })
        .collect();
    let malformed = Plan {
        networks: networks.into(),
        ..PackMorton::plan().clone()
    };
    let routed = swizzle::kernel::route::<u32>(&malformed, Options::default());
    let runs_a_network = routed.is_ok_and(|route| route.tiles != TileCopy::Runs);
    match runs_a_network {
        true => assert_eq!(
            attempt(malformed.clone()).unwrap_err().to_string(),
            "malformed plan: a network names registers or lanes outside its tiles"
        ),
        // Where no level runs a network (no SIMD here, Miri), the runs copy every tile.
        false => assert!(attempt(malformed.clone()).is_ok()),
    }
    // The runs, which never read a network, copy a plan whose networks are malformed.
    let scalar = |plan: &Plan| {
        let options = Options::from(Level::Scalar);
        swizzle::kernel::copy_with(options, plan, sides.0, sides.1, &image, &mut vec![0; 64])
    };
    assert!(scalar(&malformed).is_ok());
    assert!(attempt(PackMorton::plan().clone()).is_ok());
}

/// `run_view`: pack from a pitched image and a rectangle of a larger one, unpack into a
/// column-major image, each against the layout's offsets; the buffers' other elements stay
/// untouched.
#[test]
fn images_as_views() {
    use swizzle::kernel::View;
    let layout = MortonTiles::new(20, 13).expect("fits");
    let (pitch, whole) = (16, [23, 17]);
    let pitched = View::pitched(&[20, 13], pitch).expect("a valid view");
    let inner = View::row_major(&whole)
        .and_then(|image| image.sub_view(&[2, 3], &[20, 13]))
        .expect("a valid view");
    for view in [pitched, inner] {
        let image: Vec<u32> = (0..view.reach().expect("fits") as u32 + 5).collect();
        let mut tiles = vec![u32::MAX; layout.space()];
        PackMorton::run_view(&layout, &view, &image, &mut tiles).expect("fits");
        for y in 0..20 {
            for x in 0..13 {
                let at = view.offset(&[y, x]).expect("inside");
                assert_eq!(
                    tiles[layout.offset(y, x)],
                    image[at],
                    "({y}, {x}) of {view:?}"
                );
            }
        }
        let columns = View::column_major(&[20, 13]).expect("a valid view");
        let mut back = vec![u32::MAX; 20 * 13 + 2];
        UnpackMorton::run_view(&layout, &columns, &tiles, &mut back).expect("fits");
        for y in 0..20 {
            for x in 0..13 {
                assert_eq!(
                    back[x * 20 + y],
                    image[view.offset(&[y, x]).expect("inside")]
                );
            }
        }
        assert_eq!(back[20 * 13..], [u32::MAX; 2]);
    }
    let wrong = View::row_major(&[13, 20]).expect("a valid view");
    let mut tiles = vec![0u32; layout.space()];
    assert!(matches!(
        PackMorton::run_view(&layout, &wrong, &[0u32; 260], &mut tiles),
        Err(KernelError::Extents { .. })
    ));
    let short = View::pitched(&[20, 13], 16).expect("a valid view");
    assert!(matches!(
        PackMorton::run_view(&layout, &short, &[0u32; 300], &mut tiles),
        Err(KernelError::Reach { needed: 317, .. })
    ));
}

/// `run_with`: every thread count and level gives `run`'s bytes; a level the CPU lacks is
/// an error, not a fallback.
#[test]
fn options_pick_threads_and_levels() {
    use swizzle::kernel::Options;
    // 1.2 MiB of u32: large enough that the default splits it across threads.
    let layout = MortonTiles::new(600, 520).expect("fits");
    let image: Vec<u32> = (0..600 * 520).collect();
    let mut expected = vec![0u32; layout.space()];
    PackMorton::run(&layout, &image, &mut expected).expect("fits");
    for level in Level::ALL.into_iter().filter(|level| level.is_available()) {
        for threads in [0, 1, 2, 3, 7, 100] {
            let options = Options::default().level(level).threads(threads);
            let mut tiles = vec![0u32; layout.space()];
            PackMorton::run_with(&layout, options, &image, &mut tiles).expect("fits");
            assert!(tiles == expected, "{options:?}");
        }
    }
    if let Some(missing) = Level::ALL.into_iter().find(|level| !level.is_available()) {
        let mut tiles = vec![0u32; layout.space()];
        let options = Options::default().level(missing);
        assert_eq!(
            PackMorton::run_with(&layout, options, &image, &mut tiles),
            Err(KernelError::Unsupported(missing))
        );
    }
}

/// `run_bytes`: an RGB8 image (3-byte pixels) packed from bytes equals the typed copy of
/// `[u8; 3]` pixels; unsupported sizes and partial elements are errors.
#[test]
fn byte_buffers_of_any_pixel_size() {
    let layout = MortonTiles::new(17, 9).expect("fits");
    let pixels: Vec<[u8; 3]> = (0..17 * 9).map(|i| [i as u8, (i >> 8) as u8, 7]).collect();
    let mut typed = vec![[0u8; 3]; layout.space()];
    PackMorton::run(&layout, &pixels, &mut typed).expect("fits");
    let bytes: Vec<u8> = pixels.iter().flatten().copied().collect();
    let mut packed = vec![0u8; 3 * layout.space()];
    PackMorton::run_bytes(&layout, 3, &bytes, &mut packed).expect("fits");
    assert_eq!(packed, typed.concat());
    for size in [1, 2, 4, 8] {
        let bytes: Vec<u8> = (0..17 * 9 * size).map(|i| i as u8).collect();
        let mut packed = vec![0u8; size * layout.space()];
        PackMorton::run_bytes(&layout, size, &bytes, &mut packed).expect("fits");
        for (y, x) in [(0, 0), (16, 8), (5, 3)] {
            let (at, to) = ((y * 9 + x) * size, layout.offset(y, x) * size);
            assert_eq!(
                packed[to..to + size],
                bytes[at..at + size],
                "({y}, {x}) of {size}"
            );
        }
    }
    let mut packed = vec![0u8; 5 * layout.space()];
    assert_eq!(
        PackMorton::run_bytes(&layout, 5, &[0; 5 * 153], &mut packed),
        Err(KernelError::ElementSize { element_size: 5 })
    );
    assert!(matches!(
        PackMorton::run_bytes(&layout, 4, &[0; 611], &mut packed),
        Err(KernelError::Bytes {
            side: "source",
            len: 611,
            ..
        })
    ));
}

/// Every options a copy may take on this CPU: each available level pinned, or detected, on
/// one thread with streaming stores wherever the rows allow them (whatever the size), or on
/// four with the default rule (which streams none of these small images).
fn every_options() -> Vec<Options> {
    let levels = Level::ALL.into_iter().filter(|level| level.is_available());
    let levels = levels.map(Some).chain([None]);
    levels
        .flat_map(|level| {
            [(1, Stores::Streaming), (4, Stores::Auto)].map(|(threads, stores)| Options {
                level,
                ..Options::default().threads(threads).stores(stores)
            })
        })
        .collect()
}

/// The reference of a pack of `MortonTiles` stacked `stack` high: `run_stacked`'s buffer,
/// element by element from the interpreter's offsets.
fn stacked_reference(layout: &MortonTiles, stack: usize, src: &[u32]) -> Vec<u32> {
    let tiles = (&MortonTiles::DESCRIPTOR, MortonTiles::TILE_SPACE);
    stacked_pack_reference(tiles, layout.extents(), layout.tiles(), stack, src)
}

/// The reference of a pack of the `extents` image `src` into tiles of `descriptor` (of
/// `tile_space` elements each) over the grid `tiles`, stacked `stack` high, element by
/// element from the interpreter's offsets; elements of no coordinate stay poisoned.
fn stacked_pack_reference<T: Poison>(
    (descriptor, tile_space): (&swizzle::ir::Descriptor, usize),
    [y, x]: [usize; 2],
    tiles: [usize; 2],
    stack: usize,
    src: &[T],
) -> Vec<T> {
    let tile = descriptor.shape();
    let space = stacked_space(&tiles, tile_space, stack).expect("fits");
    let mut dst = vec![T::POISON; space];
    for (i, &value) in src.iter().enumerate() {
        let (row, col) = (i / x, i % x);
        let (tile_y, tile_x) = (row / tile[0], col / tile[1]);
        let inside = descriptor
            .offset(&[row % tile[0], col % tile[1]])
            .expect("in the tile");
        let (stack_index, in_stack) = (tile_y / stack, tile_y % stack);
        let at = (stack_index * tiles[1] + tile_x) * stack + in_stack;
        dst[at * tile_space + inside] = value;
    }
    assert_eq!(src.len(), y * x);
    dst
}

/// Tiles that are GOBs stacked (`Block16`, `Block4`) are copied as their GOBs stacked:
/// their kernels' route for words is the generated rows of the widest level this CPU runs
/// (a GOB's source registers fit every level's register file), where the whole tile's plan
/// takes runs (`hand_written_plans_take_the_level_of_the_cost_model`); on the baseline, the
/// GOB's straight-line tile.
#[test]
fn tall_tiles_copy_their_gobs_stacked() {
    let widest = Level::ALL.into_iter().rev().find(|l| l.is_available());
    let routes = [
        PackBlock16::route::<u32>(Options::default()),
        UnpackBlock16::route::<u32>(Options::default()),
        PackBlock4::route::<u32>(Options::default()),
        UnpackBlock4::route::<u32>(Options::default()),
    ];
    for route in routes {
        let route = route.unwrap();
        let expected = match widest {
            Some(Level::Scalar) | None => (
                Level::Scalar,
                TileCopy::StraightLineTile,
                Reason::StraightLineFirst,
            ),
            Some(level) => (level, TileCopy::GeneratedRows, Reason::WidestGenerated),
        };
        assert_eq!(
            (route.level, route.tiles, route.reason),
            expected,
            "{route}"
        );
    }
    // The whole tile's plan stays what `plan()` returns, for copies by hand with its tiles.
    assert_eq!(PackBlock16::plan().tile[..], [128, 16]);
    assert_eq!(PackBlock4::plan().tile[..], [32, 16]);
}

/// Packs `y × x` elements into `$layout` with `$pack` and back with `$unpack`, tiles stacked
/// `stack` high, by every entry point (typed and bytes; pitched and column-major images
/// where the tiles are not stacked), each against the interpreter.
macro_rules! check_stacked_gobs {
    ($layout:ident, $pack:ident, $unpack:ident, $ty:ty, $y:expr, $x:expr, $stack:expr, $options:expr) => {{
        let (y, x, stack, options): (usize, usize, usize, Options) = ($y, $x, $stack, $options);
        let layout = $layout::new(y, x).expect("fits");
        let src: Vec<$ty> = (0..y * x).map(<$ty>::from_index).collect();
        let tiles = (&$layout::DESCRIPTOR, $layout::TILE_SPACE);
        let expected = stacked_pack_reference(tiles, [y, x], layout.tiles(), stack, &src);
        let case = format!(
            "{} {y} × {x}, stack {stack}, {options:?}",
            stringify!($layout)
        );
        let mut packed = vec![<$ty>::POISON; expected.len()];
        $pack::run_stacked_with(&layout, stack, options, &src, &mut packed).unwrap();
        assert!(packed == expected, "run_stacked_with, {case}");
        let mut back = vec![<$ty>::POISON; src.len()];
        $unpack::run_stacked_with(&layout, stack, options, &packed, &mut back).unwrap();
        assert!(back == src, "run_stacked_with (unpack), {case}");
        let size = size_of::<$ty>();
        let mut bytes = vec![<$ty>::POISON; expected.len()];
        let (src_bytes, dst) = (
            bytemuck::cast_slice(&src),
            bytemuck::cast_slice_mut(&mut bytes),
        );
        $pack::run_stacked_bytes_with(&layout, stack, options, size, src_bytes, dst).unwrap();
        assert!(bytes == expected, "run_stacked_bytes_with, {case}");
        if stack == 1 {
            let mut plain = vec![<$ty>::POISON; expected.len()];
            $pack::run_with(&layout, options, &src, &mut plain).unwrap();
            assert!(plain == expected, "run_with, {case}");
            // A pitched image: rows 3 elements apart beyond their width.
            let pitch = x + 3;
            let view = View::pitched(&[y, x], pitch).expect("a valid view");
            let mut image = vec![<$ty>::POISON; y * pitch];
            for (i, &value) in src.iter().enumerate() {
                image[i / x.max(1) * pitch + i % x.max(1)] = value;
            }
            let mut tiled = vec![<$ty>::POISON; expected.len()];
            $pack::run_view_with(&layout, &view, options, &image, &mut tiled).unwrap();
            assert!(tiled == expected, "run_view_with, {case}");
            let mut back = vec![<$ty>::POISON; image.len()];
            $unpack::run_view_with(&layout, &view, options, &tiled, &mut back).unwrap();
            assert!(back == image, "run_view_with (unpack), {case}");
            let mut back = vec![<$ty>::POISON; src.len()];
            let dst = bytemuck::cast_slice_mut(&mut back);
            $unpack::run_bytes_with(&layout, options, size, bytemuck::cast_slice(&tiled), dst)
                .unwrap();
            assert!(back == src, "run_bytes_with (unpack), {case}");
            // A column-major image: no run of the tile is contiguous in it.
            let columns = View::column_major(&[y, x]).expect("a valid view");
            let mut image = vec![<$ty>::POISON; y * x];
            for (i, &value) in src.iter().enumerate() {
                image[i % x.max(1) * y + i / x.max(1)] = value;
            }
            let mut tiled = vec![<$ty>::POISON; expected.len()];
            $pack::run_view_with(&layout, &columns, options, &image, &mut tiled).unwrap();
            assert!(tiled == expected, "run_view_with (column-major), {case}");
            let mut back = vec![<$ty>::POISON; image.len()];
            $unpack::run_view_with(&layout, &columns, options, &tiled, &mut back).unwrap();
            assert!(back == image, "run_view_with (column-major unpack), {case}");
        }
    }};
}

#[test]
fn every_entry_point_takes_options_and_bytes_and_agrees() {
    let (y, x) = (40, 24);
    let layout = MortonTiles::new(y, x).expect("fits");
    let src: Vec<u32> = (0..y * x).map(u32::from_index).collect();
    for stack in [1, 2, 4] {
        let expected = stacked_reference(&layout, stack, &src);
        let src_bytes: &[u8] = bytemuck::cast_slice(&src);
        for options in every_options() {
            let mut typed = vec![u32::POISON; expected.len()];
            PackMorton::run_stacked_with(&layout, stack, options, &src, &mut typed).unwrap();
            assert_eq!(
                typed, expected,
                "run_stacked_with, stack {stack}, {options:?}"
            );
            let mut bytes = vec![u32::POISON; expected.len()];
            let dst = bytemuck::cast_slice_mut(&mut bytes);
            PackMorton::run_stacked_bytes_with(&layout, stack, options, 4, src_bytes, dst).unwrap();
            assert_eq!(
                bytes, expected,
                "run_stacked_bytes_with, stack {stack}, {options:?}"
            );
        }
        let mut bytes = vec![u32::POISON; expected.len()];
        let dst = bytemuck::cast_slice_mut(&mut bytes);
        PackMorton::run_stacked_bytes(&layout, stack, 4, src_bytes, dst).unwrap();
        assert_eq!(bytes, expected, "run_stacked_bytes, stack {stack}");
    }
    // A stack of one is plain tiles: `run` and its forms.
    let expected = stacked_reference(&layout, 1, &src);
    let image = View::row_major(&[y, x]).expect("fits");
    for options in every_options() {
        let mut view = vec![u32::POISON; expected.len()];
        PackMorton::run_view_with(&layout, &image, options, &src, &mut view).unwrap();
        assert_eq!(view, expected, "run_view_with, {options:?}");
        let mut bytes = vec![u32::POISON; expected.len()];
        let (src, dst) = (
            bytemuck::cast_slice(&src),
            bytemuck::cast_slice_mut(&mut bytes),
        );
        PackMorton::run_view_bytes_with(&layout, &image, options, 4, src, dst).unwrap();
        assert_eq!(bytes, expected, "run_view_bytes_with, {options:?}");
        let mut back = vec![u32::POISON; src.len() / 4];
        let dst = bytemuck::cast_slice_mut(&mut back);
        UnpackMorton::run_bytes_with(&layout, options, 4, bytemuck::cast_slice(&bytes), dst)
            .unwrap();
        assert_eq!(
            bytemuck::cast_slice::<u32, u8>(&back),
            src,
            "run_bytes_with, {options:?}"
        );
    }
}

#[test]
fn route_tells_the_path_of_each_element_type() {
    for options in every_options() {
        let route = PackMorton::route::<u32>(options).expect("an available level");
        // The route is the copy's: its level is the one pinned, or the detected one.
        if let Some(level) = options.level {
            assert_eq!(route.level, level);
            assert_eq!(route.reason, Reason::Pinned);
        }
        // Runs have no network: full tiles go through the straight-line tile or runs.
        if route.level == Level::Scalar {
            assert!(matches!(
                route.tiles,
                TileCopy::StraightLineTile | TileCopy::Runs
            ));
        }
        assert!(
            route.to_string().starts_with(&format!("{}: ", route.level)),
            "{route}"
        );
    }
    // Detected: the widest level with generated rows (x86-64 and aarch64 generate them for
    // 4-byte elements of an 8×8 Morton tile), and the route says so.
    let route = PackMorton::route::<u32>(Options::default()).unwrap();
    if route.tiles == TileCopy::GeneratedRows {
        assert_eq!(route.reason, Reason::WidestGenerated);
        assert!(route.to_string().contains("generated SIMD rows"), "{route}");
    }
    // A 3-byte element has no network: runs, whatever the CPU.
    let route = PackMorton::route::<[u8; 3]>(Options::default()).unwrap();
    assert_eq!(route.level, Level::Scalar);
    // A level this CPU does not run is the copy's error.
    if let Some(missing) = Level::ALL.into_iter().find(|level| !level.is_available()) {
        assert!(matches!(
            PackMorton::route::<u32>(Options::default().level(missing)),
            Err(KernelError::Unsupported(level)) if level == missing
        ));
    }
}

/// The method users called before `route` existed still answers, with `route`'s level.
#[test]
#[allow(deprecated)]
fn the_old_level_method_answers_as_route_does() {
    let route = PackMorton::route::<u32>(Options::default()).unwrap();
    assert_eq!(
        PackMorton::code::<u32>().level(PackMorton::plan()),
        route.level
    );
    let route = PackMorton::route::<[u8; 3]>(Options::default()).unwrap();
    assert_eq!(
        PackMorton::code::<[u8; 3]>().level(PackMorton::plan()),
        route.level
    );
}

/// A plan copied by hand (no generated code) takes the default level of the cost model:
/// a small network (an 8 × 8 Morton tile's) at the widest level that has one, a network
/// whose controls would leave the L1 cache (a 2048-word block-linear tile's) not at all;
/// either copy equals the pinned runs' copy, which the interpreter checks elsewhere.
#[test]
fn hand_written_plans_take_the_level_of_the_cost_model() {
    use swizzle::kernel::{Frame, Side, copy, copy_with, interpreted_level, route};
    let any_network = |plan: &swizzle::kernel::Plan| {
        Level::ALL
            .into_iter()
            .any(|level| level.is_available() && level.network::<u32>(plan).is_some())
    };
    let small = route::<u32>(PackMorton::plan(), Options::default()).unwrap();
    assert_eq!(small.level, interpreted_level::<u32>(PackMorton::plan()));
    // Interpreted networks run on x86-64 only; elsewhere the route is the rule's answer,
    // checked just above.
    match any_network(PackMorton::plan()) {
        _ if !cfg!(target_arch = "x86_64") => {}
        true => {
            assert_ne!(small.level, Level::Scalar);
            assert_eq!(
                (small.tiles, small.reason),
                (TileCopy::InterpretedNetwork, Reason::WidestNetwork)
            );
        }
        false => assert_eq!(small.reason, Reason::NoNetwork),
    }
    let plan = PackBlock16::plan();
    let large = route::<u32>(plan, Options::default()).unwrap();
    assert_eq!((large.level, large.tiles), (Level::Scalar, TileCopy::Runs));
    let reason = match any_network(plan) {
        true => Reason::LargeNetwork,
        false => Reason::NoNetwork,
    };
    assert_eq!(large.reason, reason, "{large}");
    // Its generated rows would hold more source registers than any level has; the kernel
    // copies its GOBs stacked instead, with theirs (`tall_tiles_copy_their_gobs_stacked`).
    // The default copy and the runs agree on an image of partial blocks.
    let layout = Block16::new(300, 40).expect("fits");
    let image: Vec<u32> = (0..300 * 40).collect();
    let sides = (
        Side {
            extents: &[300, 40],
            frame: Frame::RowMajor,
        },
        Side {
            extents: &[300, 40],
            frame: Frame::Tiles {
                tiles: &layout.tiles(),
                tile_space: Block16::TILE_SPACE,
            },
        },
    );
    let mut detected = vec![u32::MAX; layout.space()];
    copy(plan, sides.0, sides.1, &image, &mut detected).expect("fits");
    let mut runs = vec![u32::MAX; layout.space()];
    copy_with(Level::Scalar, plan, sides.0, sides.1, &image, &mut runs).expect("fits");
    assert!(detected == runs);
    let mut packed = vec![u32::MAX; layout.space()];
    PackBlock16::run(&layout, &image, &mut packed).expect("fits");
    assert!(
        packed == runs,
        "the hand-written copy differs from the kernel's"
    );
}

/// Code written when a kernel's plan was the constant `K::PLAN` still compiles (with a
/// deprecation warning naming `plan()`), and reads the same plan.
#[test]
#[allow(deprecated)]
fn the_plan_constant_still_compiles() {
    let old: &swizzle::kernel::Plan = &PackMorton::PLAN;
    assert!(std::ptr::eq(old, PackMorton::plan()));
    assert_eq!(PackMorton::PLAN.runs.len(), PackMorton::plan().runs.len());
}

/// `f!(n)` for each byte element size of `swizzle::kernel::ELEMENT_SIZES`, with `$e` the
/// type `[u8; n]`: the typed copy a byte copy of `n`-byte elements must equal.
macro_rules! for_element_size {
    ($size:expr, |$e:ident| $body:expr) => {
        match $size {
            1 => { type $e = [u8; 1]; $body }
            2 => { type $e = [u8; 2]; $body }
            3 => { type $e = [u8; 3]; $body }
            4 => { type $e = [u8; 4]; $body }
            6 => { type $e = [u8; 6]; $body }
            8 => { type $e = [u8; 8]; $body }
            12 => { type $e = [u8; 12]; $body }
            16 => { type $e = [u8; 16]; $body }
            size => unreachable!("no element size {size}"),
        }
    };
}

/// The bytes of a pack of `MortonTiles` stacked `stack` high, elements of `size` bytes:
/// each element's place from the interpreter's offset in its tile; bytes of no element
/// stay `0xEE`.
fn stacked_bytes_reference(layout: &MortonTiles, stack: usize, size: usize, src: &[u8]) -> Vec<u8> {
    let [y, x] = layout.extents();
    let tiles = layout.tiles();
    let space = stacked_space(&tiles, MortonTiles::TILE_SPACE, stack).expect("fits");
    let mut dst = vec![0xEE; space * size];
    for i in 0..y * x {
        let (row, col) = (i / x, i % x);
        let (tile_y, tile_x) = (row / 8, col / 8);
        let inside = MortonTiles::DESCRIPTOR
            .offset(&[row % 8, col % 8])
            .expect("in the tile");
        let (stack_index, in_stack) = (tile_y / stack, tile_y % stack);
        let tile = (stack_index * tiles[1] + tile_x) * stack + in_stack;
        let at = (tile * MortonTiles::TILE_SPACE + inside) * size;
        dst[at..at + size].copy_from_slice(&src[i * size..(i + 1) * size]);
    }
    dst
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    /// The byte forms (`run_bytes*`, `run_view_bytes*`, `run_stacked_bytes*`) equal the
    /// typed forms over `[u8; n]` and the interpreter, byte for byte, for every element
    /// size, stack and options, and unpack undoes them.
    #[test]
    fn byte_forms_equal_the_typed_forms_and_the_interpreter(
        y in 0usize..41,
        x in 0usize..41,
        size_index in 0usize..8,
        stack in 1usize..4,
        options_index in 0usize..16,
        seed in proptest::prelude::any::<u8>(),
    ) {
        let size = swizzle::kernel::ELEMENT_SIZES[size_index];
        let all = every_options();
        let options = all[options_index % all.len()];
        let layout = MortonTiles::new(y, x).expect("fits");
        let src: Vec<u8> = (0..y * x * size).map(|i| (i as u8).wrapping_mul(seed | 1) ^ 0x5A).collect();
        let expected = stacked_bytes_reference(&layout, stack, size, &src);
        let mut bytes = vec![0xEE; expected.len()];
        PackMorton::run_stacked_bytes_with(&layout, stack, options, size, &src, &mut bytes)
            .unwrap();
        proptest::prop_assert_eq!(&bytes, &expected, "run_stacked_bytes_with");
        let typed: Vec<u8> = for_element_size!(size, |E| {
            let mut typed = vec![0xEE; expected.len()];
            let (src, dst): (&[E], &mut [E]) =
                (bytemuck::cast_slice(&src), bytemuck::cast_slice_mut(&mut typed));
            PackMorton::run_stacked_with(&layout, stack, options, src, dst).unwrap();
            typed
        });
        proptest::prop_assert_eq!(&typed, &expected, "run_stacked_with");
        let mut back = vec![0xEE; src.len()];
        UnpackMorton::run_stacked_bytes_with(&layout, stack, options, size, &bytes, &mut back)
            .unwrap();
        proptest::prop_assert_eq!(&back, &src, "run_stacked_bytes_with (unpack)");
        if stack == 1 {
            let image = View::row_major(&[y, x]).expect("fits");
            let mut view = vec![0xEE; expected.len()];
            PackMorton::run_view_bytes_with(&layout, &image, options, size, &src, &mut view)
                .unwrap();
            proptest::prop_assert_eq!(&view, &expected, "run_view_bytes_with");
            let mut plain = vec![0xEE; expected.len()];
            PackMorton::run_bytes_with(&layout, options, size, &src, &mut plain).unwrap();
            proptest::prop_assert_eq!(&plain, &expected, "run_bytes_with");
            let mut back = vec![0xEE; src.len()];
            UnpackMorton::run_view_bytes_with(&layout, &image, options, size, &plain, &mut back)
                .unwrap();
            proptest::prop_assert_eq!(&back, &src, "run_view_bytes_with (unpack)");
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

    /// Kernels of tiles that are GOBs stacked, which copy the GOBs stacked, agree with the
    /// interpreter at any extents (partial tiles at the edges included), stack, options
    /// and element size, by every entry point.
    #[test]
    fn stacked_gobs_agree_with_the_interpreter(
        y in 0usize..300,
        x in 0usize..50,
        stack in 1usize..4,
        options_index in 0usize..16,
        size_index in 0usize..4,
    ) {
        let all = every_options();
        let options = all[options_index % all.len()];
        match size_index {
            0 => {
                check_stacked_gobs!(Block16, PackBlock16, UnpackBlock16, u8, y, x, stack, options);
                check_stacked_gobs!(Block4, PackBlock4, UnpackBlock4, u8, y, x, stack, options);
            }
            1 => {
                check_stacked_gobs!(Block16, PackBlock16, UnpackBlock16, u16, y, x, stack, options);
                check_stacked_gobs!(Block4, PackBlock4, UnpackBlock4, u16, y, x, stack, options);
            }
            2 => {
                check_stacked_gobs!(Block16, PackBlock16, UnpackBlock16, u32, y, x, stack, options);
                check_stacked_gobs!(Block4, PackBlock4, UnpackBlock4, u32, y, x, stack, options);
            }
            _ => {
                check_stacked_gobs!(Block16, PackBlock16, UnpackBlock16, u64, y, x, stack, options);
                check_stacked_gobs!(Block4, PackBlock4, UnpackBlock4, u64, y, x, stack, options);
            }
        }
    }
}

/// A kernel's byte forms take the route of its typed forms over `[u8; n]`: the route
/// `route::<[u8; n]>` tells is the one the byte copy runs (`route_bytes`, which shares the
/// byte copy's choice of element type and code), generated SIMD rows where the typed
/// forms have them. A hand-written plan's byte copy has no generated code, and its route
/// says so.
#[test]
fn byte_forms_run_the_route_their_element_type_tells() {
    use swizzle::kernel::{CodeOf, ELEMENT_SIZES, NoCode, route, route_bytes};
    for options in every_options() {
        for size in ELEMENT_SIZES {
            let typed = for_element_size!(size, |E| PackMorton::route::<E>(options).unwrap());
            let bytes = route_bytes::<CodeOf<PackMorton>>(size, PackMorton::plan(), options);
            assert_eq!(bytes, Ok(typed), "{size}-byte elements, {options:?}");
            let plain = for_element_size!(size, |E| route::<E>(PackMorton::plan(), options));
            assert_eq!(
                route_bytes::<NoCode>(size, PackMorton::plan(), options),
                plain,
                "{size}-byte elements of a plan alone, {options:?}"
            );
        }
    }
    // Where the typed forms of words run generated rows, so do the byte forms of 4 bytes;
    // the same plan without its code never does.
    if PackMorton::route::<u32>(Options::default()).unwrap().tiles == TileCopy::GeneratedRows {
        let options = Options::default();
        let route = route_bytes::<CodeOf<PackMorton>>(4, PackMorton::plan(), options).unwrap();
        assert_eq!(route.tiles, TileCopy::GeneratedRows, "{route}");
        for size in ELEMENT_SIZES {
            let plain = route_bytes::<NoCode>(size, PackMorton::plan(), options).unwrap();
            assert_ne!(plain.tiles, TileCopy::GeneratedRows, "{size}: {plain}");
        }
    }
    // 16-byte pixels (BC blocks, RGBA32F) take AVX-512's rows of four lanes where it runs.
    let route = route_bytes::<CodeOf<PackMorton>>(16, PackMorton::plan(), Options::default());
    let route = route.unwrap();
    let avx512 = Level::Avx512.is_available();
    assert_eq!(route.tiles == TileCopy::GeneratedRows, avx512, "{route}");
    assert_eq!(
        route_bytes::<NoCode>(5, PackMorton::plan(), Options::default()),
        Err(KernelError::ElementSize { element_size: 5 })
    );
}

/// Tiles placed by table in a Morton order of their own (the PS3's large squares): each row
/// of tiles is several runs of equally spaced ones, each copied by one call of the generated
/// rows, whose unpacks write the tiles' 16 image rows in two passes. Packed and unpacked
/// through the kernels' generated code at every level this CPU runs, for full and partial
/// grids, against each element's place.
fn placed_tiles<T: Poison>() {
    use swizzle::kernel::{Frame, PreparedCopy, Side};
    // Bit `b` of `v` to bit `2b + place`.
    let spread = |v: usize, place: usize| -> usize {
        (0..16).map(|b| (v >> b & 1) << (2 * b + place)).sum()
    };
    for [rows, columns] in [[64_usize, 64], [48, 80], [37, 70], [16, 256]] {
        let grid = [rows.div_ceil(16), columns.div_ceil(16)];
        let down: Vec<usize> = (0..grid[0]).map(|i| spread(i, 1) * 256).collect();
        let along: Vec<usize> = (0..grid[1]).map(|i| spread(i, 0) * 256).collect();
        let space = down[grid[0] - 1] + along[grid[1] - 1] + 256;
        let image: Vec<T> = (0..rows * columns).map(T::from_index).collect();
        let mut expected = vec![T::POISON; space];
        for (y, x) in (0..rows).flat_map(|y| (0..columns).map(move |x| (y, x))) {
            let at = down[y / 16] + along[x / 16] + spread(x % 16, 0) + spread(y % 16, 1);
            expected[at] = image[y * columns + x];
        }
        let extents = [rows, columns];
        let starts = [&down[..], &along[..]];
        let linear = Side {
            extents: &extents,
            frame: Frame::RowMajor,
        };
        let placed = Side {
            extents: &extents,
            frame: Frame::Placed {
                tiles: &grid,
                tile_space: 256,
                starts: &starts,
            },
        };
        for level in Level::ALL.into_iter().filter(|l| l.is_available()) {
            let options = Options::default().level(level);
            let mut tiled = vec![T::POISON; space];
            let (plan, code) = (PackMorton16::plan(), PackMorton16::code::<T>());
            PreparedCopy::new(options, plan, code, linear, placed, space)
                .and_then(|copy| copy.run(&image, &mut tiled))
                .expect("sides fit");
            assert_eq!(tiled, expected, "pack at {level:?}, extents {extents:?}");
            let mut back = vec![T::POISON; image.len()];
            let (plan, code) = (UnpackMorton16::plan(), UnpackMorton16::code::<T>());
            PreparedCopy::new(options, plan, code, placed, linear, image.len())
                .and_then(|copy| copy.run(&expected, &mut back))
                .expect("sides fit");
            assert_eq!(back, image, "unpack at {level:?}, extents {extents:?}");
        }
    }
}

#[test]
fn tiles_placed_by_table_copy_at_every_level() {
    placed_tiles::<u8>();
    placed_tiles::<u32>();
    placed_tiles::<u64>();
    placed_tiles::<u128>();
}
