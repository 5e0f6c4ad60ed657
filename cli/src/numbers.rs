//! Integers on the command line, in decimal or `0x` hexadecimal: GX2 headers and the README
//! give swizzle values and offsets in hex (`--swizzle 0x500`), sizes are usually decimal.

/// An integer of 0 or more: `1280`, `0x500`.
pub fn natural(text: &str) -> Result<usize, String> {
    let value = unsigned(text)?;
    usize::try_from(value).map_err(|_| format!("`{text}` is more than {}", usize::MAX))
}

/// An integer of 1 or more.
pub fn positive(text: &str) -> Result<usize, String> {
    match natural(text)? {
        0 => Err("expected a positive integer, not `0`".to_owned()),
        value => Ok(value),
    }
}

/// A 32-bit value (a GX2 header's field).
pub fn word(text: &str) -> Result<u32, String> {
    let value = unsigned(text)?;
    u32::try_from(value).map_err(|_| format!("`{text}` does not fit in 32 bits"))
}

/// Decimal, or hexadecimal after `0x`.
fn unsigned(text: &str) -> Result<u64, String> {
    let trimmed = text.trim();
    let parsed = match trimmed
        .strip_prefix("0x")
        .or_else(|| trimmed.strip_prefix("0X"))
    {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => trimmed.parse(),
    };
    parsed.map_err(|error| match error.kind() {
        std::num::IntErrorKind::PosOverflow => format!("`{text}` is more than {}", u64::MAX),
        _ => format!("expected an integer (decimal, or hexadecimal after 0x), not `{text}`"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimal_and_hex() {
        assert_eq!(natural("1280"), Ok(1280));
        assert_eq!(natural("0x500"), Ok(1280));
        assert_eq!(word("0X20500"), Ok(0x20500));
        assert_eq!(natural("18446744073709551615"), Ok(usize::MAX));
        assert!(positive("0").is_err());
        assert!(word("0x100000000").unwrap_err().contains("32 bits"));
        assert!(natural("-1").unwrap_err().contains("expected an integer"));
        assert!(natural("0x").is_err());
        assert!(
            natural("99999999999999999999")
                .unwrap_err()
                .contains("more than")
        );
    }
}
