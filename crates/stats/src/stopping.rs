//! When to stop sampling a cell: once the median's interval is tight enough, or a limit is hit.

use crate::median::median_with_ci_sorted;
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
}

impl StopReason {
    pub fn name(self) -> &'static str {
        match self {
            StopReason::Target => "target",
            StopReason::Budget => "budget",
            StopReason::MaxSamples => "max-samples",
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
}
