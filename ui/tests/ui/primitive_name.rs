swizzle::layout! {
    /// The generated code names `usize`: a layout of that name would shadow it.
    pub layout usize { memory [n: 16]; coords [n]; }
}

fn main() {}
