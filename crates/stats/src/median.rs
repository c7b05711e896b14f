//! The median and its distribution-free confidence interval from order statistics.
//!
//! For n independent samples of a continuous distribution, the number of samples below the
//! true median is Binomial(n, 1/2). So the j-th smallest and the j-th largest sample bound the
//! median with probability `1 - 2·P(B <= j-1)`, whatever the distribution: skewed, heavy-tailed
//! or bimodal timings alike. We take the largest j that keeps that probability at or above 95%.
//! No resampling, so the interval is exact, cheap, and the same on every machine.

use crate::Estimate;

/// The coverage every interval of the suite aims at.
pub const CONFIDENCE: f64 = 0.95;

/// 0-based ranks `(low, high)` into `n` sorted samples whose values bound the median with at
/// least [`CONFIDENCE`]; `None` when `n` is too small for any (n < 6 at 95%).
pub fn median_ci_ranks(n: usize) -> Option<(usize, usize)> {
    let tail = (1.0 - CONFIDENCE) / 2.0;
    // P(B = k) in log space: 2^-n underflows beyond n = 1074, while the tail sum we compare
    // against 2.5% is found long before the terms matter at that scale.
    let mut log_pmf = -(n as f64) * std::f64::consts::LN_2;
    let mut cdf = 0.0;
    let mut j = 0;
    for k in 0..n / 2 {
        cdf += log_pmf.exp();
        if cdf > tail {
            break;
        }
        j = k + 1;
        log_pmf += ((n - k) as f64).ln() - ((k + 1) as f64).ln();
    }
    (j > 0).then(|| (j - 1, n - j))
}

/// The median of sorted values (the mean of the middle two for an even count).
pub fn median_of_sorted(sorted: &[f64]) -> f64 {
    let n = sorted.len();
    if n == 0 {
        return f64::NAN;
    }
    if n % 2 == 1 {
        sorted[n / 2]
    } else {
        0.5 * (sorted[n / 2 - 1] + sorted[n / 2])
    }
}

/// The median of `samples` with its 95% interval; `None` for no samples.
pub fn median_with_ci(samples: &[f64]) -> Option<Estimate> {
    if samples.is_empty() {
        return None;
    }
    let mut sorted = samples.to_vec();
    sorted.sort_by(f64::total_cmp);
    Some(median_with_ci_sorted(&sorted))
}

/// As [`median_with_ci`], for values already sorted ascending and not empty.
pub fn median_with_ci_sorted(sorted: &[f64]) -> Estimate {
    let ranks = median_ci_ranks(sorted.len());
    Estimate {
        point: median_of_sorted(sorted),
        low: ranks.map(|(lo, _)| sorted[lo]),
        high: ranks.map(|(_, hi)| sorted[hi]),
        n: sorted.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dspbench_core::SplitMix64;

    #[test]
    fn ranks_match_the_binomial_tables() {
        assert_eq!(median_ci_ranks(5), None);
        // n = 6: P(B <= 0) = 1/64, so the extremes bound the median with 96.9%.
        assert_eq!(median_ci_ranks(6), Some((0, 5)));
        // Published 95% ranks (1-based): n = 10: 2nd and 9th; n = 20: 6th and 15th; n = 100: 40th and 61st.
        assert_eq!(median_ci_ranks(10), Some((1, 8)));
        assert_eq!(median_ci_ranks(20), Some((5, 14)));
        assert_eq!(median_ci_ranks(100), Some((39, 60)));
    }

    #[test]
    fn large_counts_follow_the_normal_approximation() {
        // j ≈ n/2 - 1.96·√n/2 for large n.
        for n in [2_000usize, 50_000] {
            let (lo, hi) = median_ci_ranks(n).unwrap();
            let expected = n as f64 / 2.0 - 1.96 * (n as f64).sqrt() / 2.0;
            assert!((lo as f64 - expected).abs() <= 2.0, "n = {n}: rank {lo}, normal approximation {expected}");
            assert_eq!(hi, n - 1 - lo);
        }
    }

    #[test]
    fn noiseless_samples_give_a_zero_width_interval() {
        let e = median_with_ci(&[2.5; 40]).unwrap();
        assert_eq!((e.point, e.low, e.high), (2.5, Some(2.5), Some(2.5)));
        assert_eq!(e.relative_half_width(), Some(0.0));
    }

    #[test]
    fn too_few_samples_have_a_median_but_no_interval() {
        let e = median_with_ci(&[3.0, 1.0, 2.0]).unwrap();
        assert_eq!(e.point, 2.0);
        assert_eq!((e.low, e.high, e.relative_half_width()), (None, None, None));
        assert!(median_with_ci(&[]).is_none());
    }

    /// Draws from a distribution with a known median and counts how often the interval covers it.
    fn coverage(n: usize, trials: usize, seed: u64, draw: impl Fn(&mut SplitMix64) -> f64, median: f64) -> f64 {
        let mut rng = SplitMix64::new(seed);
        let covered = (0..trials)
            .filter(|_| {
                let samples: Vec<f64> = (0..n).map(|_| draw(&mut rng)).collect();
                let e = median_with_ci(&samples).unwrap();
                e.low.unwrap() <= median && median <= e.high.unwrap()
            })
            .count();
        covered as f64 / trials as f64
    }

    fn uniform(rng: &mut SplitMix64) -> f64 {
        ((rng.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64
    }

    #[test]
    fn the_interval_covers_the_true_median_about_95_percent_of_the_time() {
        // Exponential (skewed like timings), median ln 2.
        let exponential = |rng: &mut SplitMix64| -uniform(rng).ln();
        // Log-normal with σ = 0.5 (median 1), heavy right tail.
        let lognormal = |rng: &mut SplitMix64| {
            let (u1, u2) = (uniform(rng), uniform(rng));
            (0.5 * (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()).exp()
        };
        for (n, seed) in [(10, 1), (31, 2), (200, 3)] {
            let exact = {
                let (lo, _) = median_ci_ranks(n).unwrap();
                // 1 - 2·P(B <= lo), the interval's exact coverage.
                let mut p = 0.0;
                for k in 0..=lo {
                    let ln_c: f64 = (0..k).map(|i| ((n - i) as f64).ln() - ((i + 1) as f64).ln()).sum();
                    p += (ln_c - n as f64 * std::f64::consts::LN_2).exp();
                }
                1.0 - 2.0 * p
            };
            assert!(exact >= CONFIDENCE, "n = {n}: exact coverage {exact}");
            for (name, c) in [
                ("exponential", coverage(n, 4000, seed, exponential, std::f64::consts::LN_2)),
                ("log-normal", coverage(n, 4000, seed + 10, lognormal, 1.0)),
            ] {
                // 4000 trials: a binomial standard error of about 0.35 percentage points.
                assert!((c - exact).abs() < 0.015, "{name}, n = {n}: covered {c:.3}, exact {exact:.3}");
                assert!(c > 0.93, "{name}, n = {n}: covered {c:.3}");
            }
        }
    }

    #[test]
    fn the_interval_narrows_as_samples_grow() {
        let mut rng = SplitMix64::new(9);
        let samples: Vec<f64> = (0..4000).map(|_| 1.0 + 0.1 * uniform(&mut rng)).collect();
        let w100 = median_with_ci(&samples[..100]).unwrap().relative_half_width().unwrap();
        let w4000 = median_with_ci(&samples).unwrap().relative_half_width().unwrap();
        // Width shrinks as 1/√n: 40x the samples, about a sixth of the width.
        assert!(w4000 < w100 / 3.0, "{w100} -> {w4000}");
    }
}
