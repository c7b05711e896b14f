//! When to stop sampling a cell: once the median's interval is tight enough, or a limit is hit.

use crate::median::median_with_ci_sorted;
use crate::passes::student_t_975;
use serde::{Deserialize, Serialize};

/// Why a cell stopped taking samples (recorded with it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StopReason {
    /// The 95% interval of the median reached the target relative half-width.
    Target,
    /// The time budget was spent before the target was reached.
    Budget,
    /// The largest sample count was reached before the target.
    MaxSamples,
    /// Every pass of the run reached its share of the target, but their medians disagree by more
    /// than the run's target allows: the machine drifted between passes, and the interval over
    /// them says by how much.
    PassSpread,
}

impl StopReason {
    pub fn name(self) -> &'static str {
        match self {
            StopReason::Target => "target",
            StopReason::Budget => "budget",
            StopReason::MaxSamples => "max-samples",
            StopReason::PassSpread => "pass-spread",
        }
    }
}

/// Sample until the median's 95% interval is within `target_rel_half_width` of it, taking at
/// least `min_samples` and at most `max_samples`, and stopping at `time_budget_s` of sampling
/// (once `min_samples` are in) when the target is out of reach.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct StoppingRule {
    pub min_samples: usize,
    pub max_samples: usize,
    pub time_budget_s: f64,
    pub target_rel_half_width: f64,
}

impl StoppingRule {
    /// Whether to stop after these samples (sorted ascending) took `spent_s` seconds in all.
    pub fn check(&self, sorted: &[f64], spent_s: f64) -> Option<StopReason> {
        let n = sorted.len();
        if n == 0 || (n < self.min_samples && n < self.max_samples) {
            return None;
        }
        let width = median_with_ci_sorted(sorted).relative_half_width();
        if width.is_some_and(|w| w <= self.target_rel_half_width) {
            Some(StopReason::Target)
        } else if n >= self.max_samples {
            Some(StopReason::MaxSamples)
        } else if spent_s >= self.time_budget_s {
            Some(StopReason::Budget)
        } else {
            None
        }
    }
}

impl StoppingRule {
    /// One pass's share of the rule when a run samples each problem in `passes` passes: the
    /// sample counts and the time budget divided among them (rounded up), so the passes together
    /// take what one would have, and a target such that k passes agreeing within their own
    /// noise give an interval over the passes (`median_with_ci_in_passes`) at the run's target:
    /// a pass meeting half-width w has a median good to about w / 1.96 (one standard error), and
    /// the t interval over k such medians is t(k-1) (w / 1.96) / √k wide, so
    /// w = target · 1.96 √k / t(k-1) (1.23 x the target for 4 passes; never wider than √k x).
    pub fn per_pass(&self, passes: usize) -> StoppingRule {
        let k = passes.max(1);
        let max_samples = self.max_samples.div_ceil(k);
        let widen = if k == 1 {
            1.0
        } else {
            let root = (k as f64).sqrt();
            (1.959_964 * root / student_t_975(k - 1)).min(root)
        };
        StoppingRule {
            min_samples: self.min_samples.div_ceil(k).min(max_samples),
            max_samples,
            time_budget_s: self.time_budget_s / k as f64,
            target_rel_half_width: self.target_rel_half_width * widen,
        }
    }

    /// Why a cell sampled in passes stopped, from each pass's reason and the relative half-width
    /// of its interval over all of them: the target when that interval meets it; else the budget
    /// or the sample limit if a pass ran out of it; else the passes' disagreement.
    pub fn over_passes(&self, pass_stops: &[StopReason], rel_half_width: Option<f64>) -> StopReason {
        if rel_half_width.is_some_and(|w| w <= self.target_rel_half_width) {
            StopReason::Target
        } else if pass_stops.contains(&StopReason::Budget) {
            StopReason::Budget
        } else if pass_stops.contains(&StopReason::MaxSamples) {
            StopReason::MaxSamples
        } else if pass_stops.len() > 1 {
            StopReason::PassSpread
        } else {
            pass_stops.first().copied().unwrap_or(StopReason::MaxSamples)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RULE: StoppingRule =
        StoppingRule { min_samples: 10, max_samples: 100, time_budget_s: 1.0, target_rel_half_width: 0.01 };

    fn sorted(v: &[f64]) -> Vec<f64> {
        let mut v = v.to_vec();
        v.sort_by(f64::total_cmp);
        v
    }

    #[test]
    fn never_stops_before_the_minimum() {
        assert_eq!(RULE.check(&[1.0; 9], 5.0), None);
        assert_eq!(RULE.check(&[1.0; 10], 0.0), Some(StopReason::Target));
    }

    #[test]
    fn stops_on_the_budget_when_the_interval_stays_wide() {
        let noisy = sorted(&[1.0, 2.0, 1.5, 3.0, 1.1, 2.5, 1.7, 2.2, 1.3, 2.9, 1.4, 2.6]);
        assert_eq!(RULE.check(&noisy, 0.5), None);
        assert_eq!(RULE.check(&noisy, 1.0), Some(StopReason::Budget));
    }

    #[test]
    fn stops_at_the_maximum_count() {
        let noisy: Vec<f64> = (0..100).map(|i| 1.0 + (i % 2) as f64).collect();
        assert_eq!(RULE.check(&sorted(&noisy), 0.1), Some(StopReason::MaxSamples));
        let small = StoppingRule { max_samples: 3, min_samples: 10, ..RULE };
        assert_eq!(small.check(&[1.0, 2.0, 3.0], 0.0), Some(StopReason::MaxSamples));
    }

    #[test]
    fn the_target_wins_when_reached_on_the_last_allowed_sample() {
        let tight = StoppingRule { max_samples: 10, ..RULE };
        assert_eq!(tight.check(&[1.0; 10], 9.0), Some(StopReason::Target));
    }

    #[test]
    fn passes_share_the_counts_and_budget_and_keep_the_target() {
        let p = RULE.per_pass(4);
        assert_eq!((p.min_samples, p.max_samples, p.time_budget_s), (3, 25, 0.25));
        // 1.96 · √4 / t(3) = 3.92 / 3.182.
        assert!((p.target_rel_half_width - 0.01 * 3.92 / 3.182).abs() < 1e-4, "{p:?}");
        assert!(RULE.per_pass(2).target_rel_half_width < 0.01, "two passes pay for t(1) = 12.7");
        assert_eq!(RULE.per_pass(1), RULE);
        let tiny = StoppingRule { min_samples: 2, max_samples: 2, ..RULE };
        assert_eq!((tiny.per_pass(3).min_samples, tiny.per_pass(3).max_samples), (1, 1));
    }

    #[test]
    fn over_passes_names_the_reason_the_interval_is_wide() {
        use StopReason::*;
        assert_eq!(RULE.over_passes(&[Target, Budget], Some(0.005)), Target);
        assert_eq!(RULE.over_passes(&[Target, Budget, MaxSamples], Some(0.02)), Budget);
        assert_eq!(RULE.over_passes(&[MaxSamples, Target], Some(0.02)), MaxSamples);
        assert_eq!(RULE.over_passes(&[Target, Target, Target], Some(0.02)), PassSpread);
        assert_eq!(RULE.over_passes(&[Target], None), Target);
    }
}
