/// `x` with `digits` significant digits, no exponent for the range timings live in.
pub fn fmt_sig(x: f64, digits: usize) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    let magnitude = x.abs().log10().floor() as i32;
    if !(-4..9).contains(&magnitude) {
        return format!("{:.*e}", digits.saturating_sub(1), x);
    }
    let decimals = (digits as i32 - 1 - magnitude).max(0) as usize;
    format!("{x:.decimals$}")
}

/// A time in milliseconds with three significant digits.
pub fn fmt_ms(ms: f64) -> String {
    fmt_sig(ms, 3)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn significant_digits() {
        assert_eq!(fmt_sig(1234.5, 3), "1234");
        assert_eq!(fmt_sig(12.345, 3), "12.3");
        assert_eq!(fmt_sig(0.0012345, 3), "0.00123");
        assert_eq!(fmt_sig(0.0, 3), "0");
        assert_eq!(fmt_sig(1.5e-7, 2), "1.5e-7");
    }
}
