//! Access patterns, compile-time assertions and automatic swizzles, compiled: everything
//! asserted here held at expansion time (or this file would not compile), and the runtime
//! analyses agree with what the macro decided.

use swizzle::Layout;
use swizzle::analysis::bank_conflicts;

swizzle::layout! {
    /// 8 lanes read one column of an 8×8 tile of 4-byte words.
    access Column {
        lanes 8;
        bytes 4;
        y = lane;
        x = 3;
    }

    /// 8 lanes read one row.
    access Row {
        lanes 8;
        bytes 4;
        y = 5;
        x = lane;
    }

    /// An 8×8 tile in rows of 32 words: rows are conflict-free, columns hit one bank 8 times.
    layout Plain {
        memory [y: 8, x: 8] strides [32, 1];
        coords [y, x];
        assert conflict_free(for Row);
        assert max_conflict(8, for Column);
        assert vector(8);
    }

    /// The same tile with CuTe's `Swizzle<3, 0, 3>`: columns become conflict-free too.
    layout Swizzled {
        memory [y: 8, x: 8] strides [32, 1];
        merge [y, x] -> i;
        swizzle i -> s (3, 0, 3);
        unmerge s -> [y: 8, x: 8];
        coords [y, x];
    }

    /// The macro chooses the swizzle: conflict-free for both accesses.
    layout Auto {
        memory [m: 64];
        swizzle m -> s (auto for Row, Column);
        unmerge s -> [y: 8, x: 8];
        coords [y, x];
        assert conflict_free(for Row);
        assert conflict_free(for Column);
        assert bijective;
    }
}

#[test]
fn accesses_build_their_patterns() {
    let column = Column::access();
    assert_eq!(
        (column.lanes, column.element_bytes, column.vector),
        (8, 4, 1)
    );
    let touches = column.touches(&Plain::DESCRIPTOR).expect("fits");
    let offsets: Vec<usize> = touches.iter().map(|t| t.offset).collect();
    assert_eq!(offsets, (0..8).map(|y| y * 32 + 3).collect::<Vec<_>>());
}

#[test]
fn runtime_analyses_agree_with_the_assertions() {
    fn degree(descriptor: &swizzle::ir::Descriptor, access: &swizzle::analysis::Access) -> usize {
        bank_conflicts(descriptor, access, Column::BANKS)
            .expect("fits")
            .degree
    }
    assert_eq!(degree(&Plain::DESCRIPTOR, &Column::access()), 8);
    assert_eq!(degree(&Plain::DESCRIPTOR, &Row::access()), 1);
    // Swizzle<3, 0, 3> xors the row into the column: lane y reads word y·32 + (3 ^ y).
    assert_eq!(degree(&Swizzled::DESCRIPTOR, &Column::access()), 1);
    assert_eq!(degree(&Auto::DESCRIPTOR, &Column::access()), 1);
    assert_eq!(degree(&Auto::DESCRIPTOR, &Row::access()), 1);
}

#[test]
fn auto_swizzles_are_exact_layouts() {
    for index in 0..Auto::SIZE {
        let coord = [index / 8, index % 8];
        assert_eq!(
            Ok(<Auto as Layout<2>>::offset(coord)),
            Auto::DESCRIPTOR.offset(&coord)
        );
    }
}
