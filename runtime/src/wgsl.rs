//! WGSL validation without a device (feature `wgsl`, which `gpu` implies): naga parses and
//! validates a module as the wgpu backend does before a kernel reaches a driver, so a
//! module of one's own — a kernel that pastes layouts' `WGSL` and calls them — is checked
//! the same way, with naga and without wgpu.

/// The naga this validator is built on, for its [`Capabilities`](naga::valid::Capabilities)
/// in the same version.
pub use naga;

/// A WGSL module naga refused: its report, which quotes the offending line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvalidWgsl {
    /// naga's report.
    pub report: String,
}

impl std::fmt::Display for InvalidWgsl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the WGSL does not validate:\n{}", self.report)
    }
}

impl std::error::Error for InvalidWgsl {}

/// Parses and validates `text` with naga's default capabilities.
pub fn validate(text: &str) -> Result<(), InvalidWgsl> {
    validate_with(text, naga::valid::Capabilities::default())
}

/// [`validate`] with `capabilities` beyond the default (`SHADER_FLOAT16` for 16-bit floats,
/// `COOPERATIVE_MATRIX` for cooperative matrices, as a device grants them).
pub fn validate_with(
    text: &str,
    capabilities: naga::valid::Capabilities,
) -> Result<(), InvalidWgsl> {
    let invalid = |report: String| InvalidWgsl { report };
    let module = naga::front::wgsl::parse_str(text).map_err(|e| invalid(e.emit_to_string(text)))?;
    naga::valid::Validator::new(naga::valid::ValidationFlags::all(), capabilities)
        .validate(&module)
        .map_err(|e| invalid(e.emit_to_string(text)))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{validate, validate_with};
    use naga::valid::Capabilities;

    #[test]
    fn a_valid_module_passes_and_an_invalid_one_quotes_its_line() {
        validate("fn f(x: u32) -> u32 { return x * 2u; }").expect("valid");
        let error = validate("fn f(x: u32) -> u32 { return y; }").unwrap_err();
        assert!(error.report.contains("return y;"), "{error}");
        // f16 needs its capability.
        let half = "enable f16;\nfn h(x: f16) -> f16 { return x; }";
        assert!(validate(half).is_err());
        validate_with(half, Capabilities::SHADER_FLOAT16).expect("valid with f16");
    }
}
