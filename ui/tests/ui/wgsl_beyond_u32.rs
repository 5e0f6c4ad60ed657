// A layout whose element space exceeds u32 has Rust code but no WGSL: asking for it fails.
swizzle::layout! {
    layout Big {
        memory [a: 2, b: 4] strides [4294967296, 1];
        coords [a, b];
    }
}

const SHADER: &str = Big::WGSL;

fn main() {
    assert_eq!(Big::offset(1, 3), 4294967299);
    println!("{SHADER}");
}
