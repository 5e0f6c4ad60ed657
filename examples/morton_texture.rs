//! CK Tile's Morton texture example ("Memory Swizzling with Morton Ordering"): an 8×8 texture
//! stored as 4×4 tiles with Morton order inside each tile. Prints its 4×4 Morton index table,
//! the 8×8 offsets, and checks the inverse on every offset.
//!
//! Run: `cargo run --release --example morton_texture`

use swizzle::Bijective;

swizzle::layout! {
    /// One 4×4 Morton tile: `m = y1 x1 y0 x0`.
    pub layout MortonTile {
        memory [m: 16];
        morton m -> [y: 4, x: 4];
        coords [y, x];
    }

    /// 8×8 texture stored as 4×4 tiles, Morton order inside each tile (CK Tile's Morton texture
    /// example).
    pub layout MortonTexture {
        memory [n: 64];
        unmerge n -> [ty: 2, tx: 2, m: 16];
        morton m -> [yi: 4, xi: 4];
        merge [ty, yi] -> y;
        merge [tx, xi] -> x;
        coords [y, x];
        inverse;
    }
}

/// Prints `rows × columns` cells of `cell(row, column)`, right-aligned.
fn print_grid(rows: usize, columns: usize, cell: impl Fn(usize, usize) -> usize) {
    let width = (0..rows)
        .flat_map(|r| (0..columns).map(move |c| (r, c)))
        .map(|(r, c)| cell(r, c).to_string().len())
        .max()
        .unwrap_or(1);
    for row in 0..rows {
        let cells: Vec<String> = (0..columns)
            .map(|column| format!("{:>width$}", cell(row, column)))
            .collect();
        println!("{}", cells.join(" "));
    }
}

fn main() {
    println!("Morton Index Layout (4×4 tile, as CK Tile prints it):");
    print_grid(4, 4, MortonTile::offset);

    println!("\nMortonTexture: offset of (y, x) in the 8×8 texture of 4×4 Morton tiles:");
    print_grid(8, 8, MortonTexture::offset);

    println!("\nInverse: the (y, x) stored at each offset of the first tile:");
    for offset in 0..16 {
        let [y, x] = MortonTexture::coord(offset);
        print!("{offset}→({y},{x}) ");
    }
    println!();

    let roundtrips = (0..MortonTexture::SPACE).filter(|&o| {
        let [y, x] = <MortonTexture as Bijective<2>>::coord(o);
        MortonTexture::offset(y, x) == o
    });
    println!(
        "\ncoord(offset) inverts offset on {}/{} offsets",
        roundtrips.count(),
        MortonTexture::SPACE
    );
}
