// Where word `w` of the region lies.
fn padded(w: u32) -> u32 {
    return w + w / 32u;
}

// The element at index `at` of the region in workgroup memory.
fn staged(at: u32) -> u32 {
    return (region[padded(at / PER)] >> (at % PER * BITS)) & MASK;
}

// Stores a vec4 of the source into the region at vec4 `index`.
fn stage(index: u32, v: vec4<u32>) {
    region[padded(index * 4u)] = v.x;
    region[padded(index * 4u + 1u)] = v.y;
    region[padded(index * 4u + 2u)] = v.z;
    region[padded(index * 4u + 3u)] = v.w;
}
