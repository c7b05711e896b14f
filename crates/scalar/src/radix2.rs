//! What the two radix-2 FFTs of paper 002 share: the power-of-two rule and the twiddle table.

use dspbench_core::{Complex32, Error};

/// log2(size), or `Unsupported` naming the variant when `size` is not a power of two.
pub(crate) fn log2_size(variant: &str, size: usize) -> Result<u32, Error> {
    if !size.is_power_of_two() {
        return Err(Error::unsupported(format!("radix-2 `{variant}` needs a power-of-two size, got {size}")));
    }
    Ok(size.trailing_zeros())
}

/// W_n^k = exp(-2 pi i k / n) for k in 0..n/2, the twiddles of every stage of an n-point
/// forward transform (a stage of span s uses every (n/s)-th entry). Computed in f64 and
/// rounded once, so each entry is the f32 nearest the true value instead of carrying the
/// error of an f32 sin/cos.
pub(crate) fn twiddles(n: usize) -> Vec<Complex32> {
    (0..n / 2)
        .map(|k| {
            let angle = -2.0 * std::f64::consts::PI * k as f64 / n as f64;
            Complex32::new(angle.cos() as f32, angle.sin() as f32)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_non_powers_of_two_naming_the_size() {
        assert_eq!(log2_size("recursive", 1), Ok(0));
        assert_eq!(log2_size("recursive", 4096), Ok(12));
        let err = log2_size("recursive", 1000).unwrap_err();
        assert_eq!(err, Error::unsupported("radix-2 `recursive` needs a power-of-two size, got 1000"));
    }

    #[test]
    fn twiddles_are_the_roots_of_unity() {
        let w = twiddles(8);
        assert_eq!(w.len(), 4);
        assert_eq!(w[0], Complex32::new(1.0, 0.0));
        assert!((w[2] - Complex32::new(0.0, -1.0)).norm() < 1e-7);
    }
}
