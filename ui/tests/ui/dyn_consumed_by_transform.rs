swizzle::layout! {
    layout Tiles {
        memory [ty: dyn, m: 64];
        unmerge m -> [y: 8, x: 8];
        xor x by ty;
        merge [ty, y] -> row;
        coords [row, x];
    }
}

fn main() {}
