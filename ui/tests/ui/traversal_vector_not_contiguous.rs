swizzle::layout! {
    layout MortonTexture {
        memory [n: 64];
        unmerge n -> [ty: 2, tx: 2, m: 16];
        morton m -> [yi: 4, xi: 4];
        merge [ty, yi] -> y;
        merge [tx, xi] -> x;
        coords [y, x];
    }
    /// Four along x are not one run: Morton keeps pairs only.
    traversal Rows = sfc(over MortonTexture, vector [1, 4]);
}

fn main() {}
