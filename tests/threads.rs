//! Thread-value layouts and tiled copies, compiled: their functions against the
//! interpreter and the core's checks.

use swizzle::threads::{Slot, ThreadValues};

swizzle::layout! {
    /// 256 threads load a 32 × 32 tile, four consecutive elements of a row each.
    threads RowsOfFour {
        tile [y: 32, x: 32];
        unmerge x -> [tx: 8, v: 4];
        merge [y, tx] -> thread;
        threads [thread];
        values [v];
    }

    /// A warp-split layout: 8 subgroups of 32 lanes; lane `l` of subgroup `s` holds column
    /// `l` of rows `4s..4s + 4`.
    threads Columns {
        tile [y: 32, x: 32];
        unmerge y -> [s: 8, v: 4];
        threads [s, x];
        values [v];
    }
}

#[test]
fn counts_and_tile() {
    assert_eq!((RowsOfFour::THREADS, RowsOfFour::VALUES), (256, 4));
    assert_eq!(RowsOfFour::TILE, [32, 32]);
    assert_eq!(Columns::THREADS, 256);
}

#[test]
fn elements_agree_with_the_interpreter() {
    let layouts: [(&swizzle::ir::Descriptor, usize); 2] =
        [(&RowsOfFour::DESCRIPTOR, 1), (&Columns::DESCRIPTOR, 2)];
    for (descriptor, thread_coords) in layouts {
        let threads = ThreadValues::new(descriptor, thread_coords);
        assert_eq!(threads.coverage(false), Ok(()));
        for thread in 0..256 {
            for value in 0..4 {
                let slot = Slot { thread, value };
                let element = threads.element(slot).unwrap();
                let generated = match thread_coords {
                    1 => RowsOfFour::element(thread, value),
                    _ => Columns::element(thread / 32, thread % 32, value),
                };
                assert_eq!(element, generated, "{slot}");
            }
        }
    }
    assert_eq!(RowsOfFour::element(9, 2), [1, 6]);
    assert_eq!(Columns::element(1, 5, 3), [7, 5]);
}
