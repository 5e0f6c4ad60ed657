swizzle::layout! {
    layout Morton { memory [m: 64]; morton m -> [y: 8, x: 8]; coords [y, x]; }
    layout Small { memory [y: 4, x: 4]; coords [y, x]; }
    kernel Retile = copy(Morton -> Small);
}

fn main() {}
