// The kernel bench's layouts and kernels (benches/kernel.rs), one block for every place that
// needs them: `kernel_layouts!(swizzle::layout)` compiles them, and
// `kernel_layouts!(stringify)` is their text, for the front end (the runtime's test that
// the generated rows and the interpreted networks build the same controls, in
// runtime/src/kernel/network.rs). Beside the tests, so that no test compiles bench code.

/// Hands the kernel bench's `layout!` block to the macro `$then`.
macro_rules! kernel_layouts {
    ($($then:tt)::+) => {
        $($then)::+! {
            /// 8×8 Morton tiles.
            pub layout Morton8 {
                memory [ty: dyn, tx: dyn, m: 64];
                morton m -> [yi: 8, xi: 8];
                merge [ty, yi] -> y;
                merge [tx, xi] -> x;
                coords [y, x];
            }
            pub kernel PackMorton8 = pack(Morton8);
            pub kernel UnpackMorton8 = unpack(Morton8);

            /// 16×16 Morton tiles: rows fill 64-byte registers of 4-byte elements.
            pub layout Morton16 {
                memory [ty: dyn, tx: dyn, m: 256];
                morton m -> [yi: 16, xi: 16];
                merge [ty, yi] -> y;
                merge [tx, xi] -> x;
                coords [y, x];
            }
            pub kernel PackMorton16 = pack(Morton16);
            pub kernel UnpackMorton16 = unpack(Morton16);

            /// 8×8 tiles, columns XOR-swizzled by the row (CK's LDS preshuffle on one tile).
            pub layout Xor8 {
                memory [ty: dyn, tx: dyn, r: 8, c: 8];
                xor c by r;
                merge [ty, r] -> y;
                merge [tx, c] -> x;
                coords [y, x];
            }
            pub kernel PackXor8 = pack(Xor8);
            pub kernel UnpackXor8 = unpack(Xor8);

            /// A block-linear block of words as one tile: 16 Tegra X1 GOBs of 8 rows × 16 words
            /// stacked (2048 elements), its runs 4 words long.
            pub layout Block16 {
                memory [by: dyn, bx: dyn, gy: 16, xh: 2, yq: 4, xq: 2, y1: 2, x4: 4];
                merge [by, gy, yq, y1] -> y;
                merge [bx, xh, xq, x4] -> x;
                coords [y, x];
            }
            pub kernel PackBlock16 = pack(Block16);
            pub kernel UnpackBlock16 = unpack(Block16);
        }
    };
}
