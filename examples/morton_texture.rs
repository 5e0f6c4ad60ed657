swizzle::layout! {
    /// 8×8 texture stored as 4×4 tiles, Morton order inside each tile (seed 000).
    pub layout MortonTexture {
        memory [n: 64];
        unmerge n -> [ty: 2, tx: 2, m: 16];
        morton m -> [yi: 4, xi: 4];
        merge [ty, yi] -> y;
        merge [tx, xi] -> x;
        coords [y, x];
    }

    /// CK Tile universal-GEMM A tile in LDS, fp16, M=128, K=32, KPack=8 (seed 003).
    pub layout LdsA {
        const KPACK = 8; const L = 2; const K0 = 4;
        memory [k0l: K0 * L, mr: 64, k1: KPACK] strides [KPACK, 32 * L, 1];
        xor k0l by mr;
        unmerge k0l -> [l: L, k0: K0];
        merge [mr, l] -> m;
        merge [k0, k1] -> k;
        coords [m, k];
    }
}

fn main() {
    for y in 0..8 {
        let row: Vec<String> = (0..8)
            .map(|x| format!("{:3}", MortonTexture::offset(y, x)))
            .collect();
        println!("{}", row.join(""));
    }
    for (m, k) in [(0, 0), (1, 0), (2, 0), (3, 5), (64, 9), (127, 31)] {
        println!("({m},{k}) -> {}", LdsA::offset(m, k));
    }
    println!("{:?}", MortonTexture::coord(13));
}
