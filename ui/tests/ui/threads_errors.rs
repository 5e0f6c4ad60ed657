swizzle::layout! {
    /// Misses the right half of every row: `tx` is frozen at 0.
    threads Half {
        tile [y: 4, x: 8];
        unmerge x -> [tx: 2, v: 4];
        freeze tx = 0;
        threads [y];
        values [v];
    }
    /// Eight threads over four rows: threads 4..8 hold rows 0..4 again (`modulo` wraps).
    threads Twice {
        tile [y: 4, x: 8];
        modulo y -> t (8);
        threads [t];
        values [x];
    }
    /// 2048 threads.
    threads Huge {
        tile [y: 64, x: 32];
        merge [y, x] -> thread;
        threads [thread];
        values [];
    }
    /// A run-time tile.
    threads Dynamic {
        tile [y: dyn, x: 32];
        threads [y];
        values [x];
    }
    /// A layout statement in a thread-value layout.
    threads Mixed {
        tile [y: 4, x: 4];
        coords [y, x];
    }
}

fn main() {}
