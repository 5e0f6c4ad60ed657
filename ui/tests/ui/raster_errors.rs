// Every error of a `raster` item, at once, and no cascade at its uses.
swizzle::layout! {
    raster Unknown = hilbert;
    raster NoGroup = grouped;
    raster Extra = row_major(4);
    raster NotPowerOfTwo = morton(6);
    raster Empty = grouped(0);
    raster TooLarge = grouped(1024);
    raster Fine = snake;
}

fn main() {
    // The stubs keep these uses free of further errors.
    let _ = Unknown::tile(0, [1, 1]);
    let _ = NoGroup::WGSL;
    let _ = Fine::tile(0, [2, 2]);
}
