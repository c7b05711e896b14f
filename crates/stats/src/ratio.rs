//! Ratios between two contenders' times, each with its 95% interval.
//!
//! Within one run the contenders of a problem are sampled in the same rounds, so a ratio is
//! taken round by round (`paired_ratio`): drift that hits both in a round cancels out, and its
//! interval spans the run's passes (`passes.rs`) for drift that does not. Across two runs
//! nothing pairs the samples, so the two medians' intervals are combined instead
//! (`independent_ratio`).

use crate::passes::{median_with_ci_in_passes, RoundSample};
use crate::Estimate;
use serde::{Deserialize, Serialize};

/// The median over shared rounds of `a[round] / b[round]`, with its 95% interval over the
/// run's passes (the order-statistic one with a single pass). A round missing on either side is
/// left out. `None` when no round is shared.
pub fn paired_ratio(a: &[RoundSample], b: &[RoundSample]) -> Option<Estimate> {
    let mut b_sorted: Vec<RoundSample> = b.to_vec();
    b_sorted.sort_by_key(|s| s.round);
    let ratios: Vec<(u32, f64)> = a
        .iter()
        .filter_map(|sa| {
            let i = b_sorted.binary_search_by_key(&sa.round, |s| s.round).ok()?;
            let tb = b_sorted[i].value;
            (tb > 0.0).then(|| (sa.pass, sa.value / tb))
        })
        .collect();
    median_with_ci_in_passes(&ratios)
}

/// `a / b` for two independent estimates (two runs). In log space each median's interval is
/// about ±1.96 standard errors, and the error of a difference of independent estimates adds in
/// quadrature, so each side of the ratio's interval is `√(d_a² + d_b²)` away from `ln(a/b)`,
/// taking for each estimate the side that moves the ratio that way. Without both intervals (or
/// with a non-positive value) the ratio has none.
pub fn independent_ratio(a: &Estimate, b: &Estimate) -> Estimate {
    let point = a.point / b.point;
    let interval = (|| {
        let (a_lo, a_hi, b_lo, b_hi) = (a.low?, a.high?, b.low?, b.high?);
        if a_lo <= 0.0 || b_lo <= 0.0 || a.point <= 0.0 || b.point <= 0.0 {
            return None;
        }
        let down = (a.point / a_lo).ln().hypot((b_hi / b.point).ln());
        let up = (a_hi / a.point).ln().hypot((b.point / b_lo).ln());
        Some((point * (-down).exp(), point * up.exp()))
    })();
    Estimate { point, low: interval.map(|i| i.0), high: interval.map(|i| i.1), n: a.n.min(b.n) }
}

/// What a time ratio (new / base, or contender / baseline) says, at a noise threshold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Significance {
    /// The interval lies wholly above 1 and the ratio exceeds 1 + noise.
    Slower,
    /// The interval lies wholly below 1 and the ratio is under 1 - noise.
    Faster,
    /// The interval excludes 1, but the change is within the noise threshold.
    WithinNoise,
    /// The interval includes 1.
    NotSignificant,
    /// No interval (too few samples or rounds).
    NoInterval,
}

impl Significance {
    /// Classifies a ratio of times (above 1: slower); `noise` is a share, e.g. 0.02.
    pub fn of_time_ratio(ratio: &Estimate, noise: f64) -> Significance {
        if ratio.low.is_none() || ratio.high.is_none() {
            Significance::NoInterval
        } else if ratio.above(1.0) {
            if ratio.point > 1.0 + noise {
                Significance::Slower
            } else {
                Significance::WithinNoise
            }
        } else if ratio.below(1.0) {
            if ratio.point < 1.0 - noise {
                Significance::Faster
            } else {
                Significance::WithinNoise
            }
        } else {
            Significance::NotSignificant
        }
    }

    /// A real change beyond the noise threshold.
    pub fn is_change(self) -> bool {
        matches!(self, Significance::Slower | Significance::Faster)
    }

    pub fn label(self) -> &'static str {
        match self {
            Significance::Slower => "slower",
            Significance::Faster => "faster",
            Significance::WithinNoise => "no significant change (within noise)",
            Significance::NotSignificant => "no significant change",
            Significance::NoInterval => "unknown (no interval)",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::median::median_with_ci;

    fn rounds(times: &[f64]) -> Vec<RoundSample> {
        times.iter().enumerate().map(|(i, &t)| RoundSample { round: i as u32, pass: 0, value: t }).collect()
    }

    fn sample(round: u32, value: f64) -> RoundSample {
        RoundSample { round, pass: 0, value }
    }

    #[test]
    fn paired_ratios_cancel_drift_shared_by_a_round() {
        // Both contenders slow down together in the middle rounds: the times' intervals are wide,
        // the paired ratio is exactly 2 with no width.
        let drift = [1.0, 1.0, 3.0, 3.0, 1.5, 1.0, 2.0, 1.0, 1.0, 4.0, 1.0, 1.2];
        let a: Vec<f64> = drift.iter().map(|d| 2.0 * d).collect();
        let r = paired_ratio(&rounds(&a), &rounds(&drift)).unwrap();
        assert_eq!((r.point, r.low, r.high, r.n), (2.0, Some(2.0), Some(2.0), 12));
        assert!(median_with_ci(&a).unwrap().relative_half_width().unwrap() > 0.2);
    }

    #[test]
    fn paired_ratios_use_only_rounds_both_took() {
        let a = [sample(0, 2.0), sample(1, 2.0), sample(5, 100.0)];
        let b = [sample(1, 1.0), sample(0, 1.0), sample(4, 1.0)];
        let r = paired_ratio(&a, &b).unwrap();
        assert_eq!((r.point, r.n), (2.0, 2));
        assert!(paired_ratio(&[sample(0, 1.0)], &[sample(1, 1.0)]).is_none());
    }

    #[test]
    fn paired_ratios_that_move_between_passes_get_a_wider_interval() {
        // Ratio 2.0 in passes 0 and 2, 2.2 in passes 1 and 3 (8 rounds each): every pass is
        // exact, the passes disagree.
        let mut a = Vec::new();
        let mut b = Vec::new();
        for pass in 0..4u32 {
            let ratio = if pass % 2 == 0 { 2.0 } else { 2.2 };
            for i in 0..8u32 {
                let round = pass * 8 + i;
                let t = 1.0 + 0.01 * f64::from(i);
                a.push(RoundSample { round, pass, value: ratio * t });
                b.push(RoundSample { round, pass, value: t });
            }
        }
        let r = paired_ratio(&a, &b).unwrap();
        assert_eq!(r.n, 32);
        assert!(r.low.unwrap() < 1.95 && r.high.unwrap() > 2.25, "{r:?}");
    }

    #[test]
    fn independent_ratio_of_exact_estimates_is_exact() {
        let a = Estimate { point: 3.0, low: Some(3.0), high: Some(3.0), n: 10 };
        let b = Estimate { point: 1.5, low: Some(1.5), high: Some(1.5), n: 12 };
        let r = independent_ratio(&a, &b);
        assert_eq!((r.point, r.low, r.high, r.n), (2.0, Some(2.0), Some(2.0), 10));
    }

    #[test]
    fn independent_ratio_widths_add_in_quadrature_in_log_space() {
        let e = |point: f64, rel: f64| Estimate { point, low: Some(point / rel), high: Some(point * rel), n: 20 };
        let r = independent_ratio(&e(2.0, 1.03), &e(1.0, 1.04));
        let expected = (1.03f64.ln().powi(2) + 1.04f64.ln().powi(2)).sqrt().exp();
        assert!((r.point - 2.0).abs() < 1e-12);
        assert!((r.high.unwrap() / 2.0 - expected).abs() < 1e-12);
        assert!((2.0 / r.low.unwrap() - expected).abs() < 1e-12);
        let missing = Estimate { point: 1.0, low: None, high: None, n: 3 };
        assert_eq!(independent_ratio(&e(1.0, 1.1), &missing).low, None);
    }

    #[test]
    fn significance_needs_the_interval_off_one_and_the_change_beyond_noise() {
        let r = |point: f64, low: f64, high: f64| Estimate { point, low: Some(low), high: Some(high), n: 30 };
        assert_eq!(Significance::of_time_ratio(&r(1.2, 1.15, 1.25), 0.02), Significance::Slower);
        assert_eq!(Significance::of_time_ratio(&r(0.8, 0.75, 0.85), 0.02), Significance::Faster);
        assert_eq!(Significance::of_time_ratio(&r(1.01, 1.005, 1.015), 0.02), Significance::WithinNoise);
        assert_eq!(Significance::of_time_ratio(&r(1.2, 0.9, 1.5), 0.02), Significance::NotSignificant);
        let none = Estimate { point: 1.2, low: None, high: None, n: 2 };
        assert_eq!(Significance::of_time_ratio(&none, 0.02), Significance::NoInterval);
        assert!(Significance::Slower.is_change() && !Significance::WithinNoise.is_change());
    }
}
