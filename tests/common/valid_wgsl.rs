//! WGSL modules of the tests through naga's parser and validator, as wgpu takes them; a
//! failure panics with naga's report, which quotes the line.

pub fn validate(module: &str) {
    let parsed = naga::front::wgsl::parse_str(module)
        .unwrap_or_else(|e| panic!("{}", e.emit_to_string(module)));
    naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::all(),
    )
    .validate(&parsed)
    .unwrap_or_else(|e| panic!("{}", e.emit_to_string(module)));
}
