//! Shader assembly: layouts' functions and a kernel in one WGSL module, validated by naga
//! before wgpu sees it, so that a bad shader is an error quoting its line.

use super::{GpuError, GpuLayout};

/// One WGSL module: the functions of each layout (each prefix once), then `kernel`.
pub fn assemble(layouts: &[&GpuLayout], kernel: &str) -> String {
    let mut seen = Vec::new();
    let mut text = String::new();
    for layout in layouts {
        if !seen.contains(&layout.prefix()) {
            seen.push(layout.prefix());
            text.push_str(layout.wgsl());
            text.push('\n');
        }
    }
    text.push_str(kernel);
    text
}

/// Parses and validates `text` with naga ([`crate::wgsl::validate_with`]), with the
/// capabilities the device grants beyond the default (16-bit floats where it has
/// `SHADER_F16`); the error is naga's report, which quotes the offending line of `text`.
pub(crate) fn validate_with(
    text: &str,
    capabilities: naga::valid::Capabilities,
) -> Result<(), GpuError> {
    crate::wgsl::validate_with(text, capabilities)
        .map_err(|invalid| GpuError::Shader(invalid.report))
}

/// Fails when two layouts share a prefix but not their functions (two types of one name).
pub(crate) fn distinct(a: &GpuLayout, b: &GpuLayout) -> Result<(), GpuError> {
    if a.prefix() == b.prefix() && a.wgsl() != b.wgsl() {
        return Err(a.unsupported(format!(
            "two different layouts have the WGSL prefix `{}`: rename one",
            a.prefix()
        )));
    }
    Ok(())
}
