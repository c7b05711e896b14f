//! Intervals that hold across a run's passes.
//!
//! A run measures every problem in several passes spread over the run (a scenario's `passes`):
//! pass 1 of every problem, then pass 2 of every problem, and so on, each pass planning and
//! uploading afresh. The order-statistic interval of all samples pooled covers the noise
//! between the rounds of a pass, seconds apart, but not the drift between minutes of a shared
//! machine: a neighbour that takes the memory bus for a minute slows a memory-bound contender
//! more than a compute-bound one, and two runs then disagree on their ratio by more than either
//! interval allows (measured: 11 of 49 peer ratios on the 2-core VM, by 4–70%). Passes sample
//! that drift inside one run. The interval of a median then takes the wider, on each side, of
//!
//! - the pooled samples' order-statistic interval (`median_with_ci`), and
//! - a Student-t interval over the passes: the pass medians in log space (times and ratios are
//!   positive and drift multiplies them), mean ± t(k-1) · sd / √k,
//!
//! so it is at least as wide as the pooled one and widens by what the passes disagree. The
//! point stays the pooled median. With one pass both are the pooled interval.

use crate::median::median_with_ci;
use crate::Estimate;

/// One timed sample with where it was taken: its round (unique within a problem over all passes,
/// so the contenders of one problem pair by it) and its pass.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RoundSample {
    pub round: u32,
    pub pass: u32,
    pub value: f64,
}

/// The 97.5% quantile of Student's t with `df` degrees of freedom: the two-sided 95% factor.
pub fn student_t_975(df: usize) -> f64 {
    // Tabulated to 3 decimals for df 1..=30 (any statistics table); beyond, the series
    // z + (z³ + z) / 4df is within 0.002 of the exact value.
    const TABLE: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
        2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
    ];
    const Z: f64 = 1.959_964;
    match df {
        0 => f64::INFINITY,
        1..=30 => TABLE[df - 1],
        _ => Z + (Z * Z * Z + Z) / (4.0 * df as f64),
    }
}

/// The t interval (95%) of the mean of `pass_medians` in log space, mapped back; `None` with fewer
/// than two passes or a non-positive median.
pub fn between_passes_interval(pass_medians: &[f64]) -> Option<(f64, f64)> {
    let k = pass_medians.len();
    if k < 2 || pass_medians.iter().any(|&m| !(m > 0.0 && m.is_finite())) {
        return None;
    }
    let logs: Vec<f64> = pass_medians.iter().map(|m| m.ln()).collect();
    let mean = logs.iter().sum::<f64>() / k as f64;
    let variance = logs.iter().map(|l| (l - mean).powi(2)).sum::<f64>() / (k - 1) as f64;
    let half = student_t_975(k - 1) * (variance / k as f64).sqrt();
    Some(((mean - half).exp(), (mean + half).exp()))
}

/// The median of `samples` (pass, value) with its 95% interval over the passes (see the module
/// documentation); `None` for no samples. Without an interval of the pooled samples (fewer than
/// 6) there is none.
pub fn median_with_ci_in_passes(samples: &[(u32, f64)]) -> Option<Estimate> {
    let values: Vec<f64> = samples.iter().map(|&(_, v)| v).collect();
    let pooled = median_with_ci(&values)?;
    let (Some(low), Some(high)) = (pooled.low, pooled.high) else {
        return Some(pooled);
    };
    let mut passes: Vec<u32> = samples.iter().map(|&(p, _)| p).collect();
    passes.sort_unstable();
    passes.dedup();
    let pass_medians: Vec<f64> = passes
        .iter()
        .filter_map(|&pass| {
            let of_pass: Vec<f64> = samples.iter().filter(|&&(p, _)| p == pass).map(|&(_, v)| v).collect();
            median_with_ci(&of_pass).map(|e| e.point)
        })
        .collect();
    Some(match between_passes_interval(&pass_medians) {
        Some((b_low, b_high)) => Estimate { low: Some(low.min(b_low)), high: Some(high.max(b_high)), ..pooled },
        None => pooled,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use dspbench_core::SplitMix64;

    fn normal(rng: &mut SplitMix64) -> f64 {
        let u = |rng: &mut SplitMix64| ((rng.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64;
        let (u1, u2) = (u(rng), u(rng));
        (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
    }

    #[test]
    fn t_quantiles_match_the_tables() {
        assert_eq!(student_t_975(1), 12.706);
        assert_eq!(student_t_975(3), 3.182);
        // Exact values: df = 40: 2.021, df = 120: 1.980.
        assert!((student_t_975(40) - 2.021).abs() < 0.002);
        assert!((student_t_975(120) - 1.980).abs() < 0.002);
        assert!(student_t_975(0).is_infinite());
    }

    #[test]
    fn one_pass_is_the_pooled_interval() {
        let samples: Vec<(u32, f64)> = (1..=20).map(|i| (0, f64::from(i))).collect();
        let values: Vec<f64> = samples.iter().map(|s| s.1).collect();
        assert_eq!(median_with_ci_in_passes(&samples), median_with_ci(&values));
        assert_eq!(median_with_ci_in_passes(&[]), None);
    }

    #[test]
    fn passes_that_disagree_widen_the_interval_and_agreeing_ones_do_not() {
        // Four passes of 10 identical samples each: the pooled interval of 40 samples is narrow.
        let passes = |levels: [f64; 4]| -> Vec<(u32, f64)> {
            levels
                .iter()
                .enumerate()
                .flat_map(|(p, &v)| (0..10).map(move |i| (p as u32, v + 1e-4 * i as f64)))
                .collect()
        };
        let agree = median_with_ci_in_passes(&passes([1.0, 1.0, 1.0, 1.0])).unwrap();
        assert!(agree.relative_half_width().unwrap() < 1e-3, "{agree:?}");
        let drift = median_with_ci_in_passes(&passes([1.0, 1.1, 1.0, 1.1])).unwrap();
        // Log medians ±0.0477 around their mean: sd 0.055, t(3) = 3.182, half 0.0876 in log space.
        assert!(drift.low.unwrap() < 0.97 && drift.high.unwrap() > 1.13, "{drift:?}");
        assert!(drift.low.unwrap() <= drift.point && drift.point <= drift.high.unwrap());
    }

    /// Runs of `k` passes of `n` samples each, every pass shifted by its own drift (log-normal,
    /// `drift_sd`) on top of per-sample noise: how often does a run's interval cover the
    /// drift-free median 1.0, pooled alone and over the passes?
    fn coverage(k: usize, n: usize, drift_sd: f64, trials: usize) -> (f64, f64) {
        let mut rng = SplitMix64::new(17);
        let (mut pooled, mut passes) = (0, 0);
        for _ in 0..trials {
            let mut samples = Vec::new();
            for p in 0..k {
                let drift = drift_sd * normal(&mut rng);
                for _ in 0..n {
                    samples.push((p as u32, (drift + 0.01 * normal(&mut rng)).exp()));
                }
            }
            let values: Vec<f64> = samples.iter().map(|s| s.1).collect();
            let covers = |e: Estimate| e.low.unwrap() <= 1.0 && 1.0 <= e.high.unwrap();
            pooled += usize::from(covers(median_with_ci(&values).unwrap()));
            passes += usize::from(covers(median_with_ci_in_passes(&samples).unwrap()));
        }
        (pooled as f64 / trials as f64, passes as f64 / trials as f64)
    }

    #[test]
    fn the_interval_covers_drift_between_passes_that_the_pooled_one_misses() {
        // Drift of 3% between passes, noise of 1% within: the pooled interval of 4 x 30
        // samples covers the run-independent median far less often than 95%; over the passes
        // it does about as often as it claims.
        let (pooled, passes) = coverage(4, 30, 0.03, 2000);
        assert!(pooled < 0.6, "pooled covered {pooled:.3}");
        assert!(passes > 0.93, "over the passes covered {passes:.3}");
        // Without drift the passes' interval still covers (and is not needlessly wide: the
        // pooled one covers too).
        let (pooled, passes) = coverage(4, 30, 0.0, 2000);
        assert!(pooled > 0.93 && passes > 0.95, "no drift: pooled {pooled:.3}, over passes {passes:.3}");
    }
}
