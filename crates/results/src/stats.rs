use dspbench_stats::{median_with_ci_in_passes, Estimate};
use serde::{Deserialize, Serialize};

/// Order statistics of a set of timings, in milliseconds.
///
/// The median is the headline (robust to the occasional preempted sample), with its 95%
/// confidence interval (`ci_low`..`ci_high`, distribution-free, from order statistics: see
/// `dspbench-stats`); min and max give the full range, and the median absolute deviation (MAD)
/// a spread figure that one outlier does not dominate.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub median: f64,
    pub min: f64,
    pub max: f64,
    pub mad: f64,
    pub mean: f64,
    pub n: usize,
    /// The 95% interval of the median; absent with fewer than 6 samples (and in schema-1 records).
    #[serde(default)]
    pub ci_low: Option<f64>,
    #[serde(default)]
    pub ci_high: Option<f64>,
    /// Half the interval's width as a share of the median (0.01 = ±1%).
    #[serde(default)]
    pub ci_rel: Option<f64>,
}

impl Summary {
    /// `None` for an empty set.
    pub fn of(samples: &[f64]) -> Option<Summary> {
        Summary::of_passes(samples, &[])
    }

    /// As [`Summary::of`] for samples taken in a run's passes (`passes[i]`: sample i's; empty
    /// for one pass): the interval of the median holds across the passes (`dspbench-stats`).
    pub fn of_passes(samples: &[f64], passes: &[u32]) -> Option<Summary> {
        if samples.is_empty() {
            return None;
        }
        let labelled: Vec<(u32, f64)> = if passes.len() == samples.len() {
            passes.iter().copied().zip(samples.iter().copied()).collect()
        } else {
            samples.iter().map(|&v| (0, v)).collect()
        };
        let estimate = median_with_ci_in_passes(&labelled)?;
        let mut sorted = samples.to_vec();
        sorted.sort_by(f64::total_cmp);
        let median = estimate.point;
        let mut deviations: Vec<f64> = sorted.iter().map(|x| (x - median).abs()).collect();
        deviations.sort_by(f64::total_cmp);
        Some(Summary {
            median,
            min: sorted[0],
            max: sorted[sorted.len() - 1],
            mad: dspbench_stats::median_of_sorted(&deviations),
            mean: sorted.iter().sum::<f64>() / sorted.len() as f64,
            n: sorted.len(),
            ci_low: estimate.low,
            ci_high: estimate.high,
            ci_rel: estimate.relative_half_width(),
        })
    }

    /// The median as an [`Estimate`]; for records written before intervals existed (schema 1),
    /// `samples` (the record's `times_ms`) give the interval where there are enough of them.
    pub fn estimate(&self, samples: &[f64]) -> Estimate {
        match (self.ci_low, self.ci_high) {
            (Some(low), Some(high)) => Estimate { point: self.median, low: Some(low), high: Some(high), n: self.n },
            _ => dspbench_stats::median_with_ci(samples)
                .filter(|e| e.n == self.n)
                .map(|e| Estimate { point: self.median, ..e })
                .unwrap_or(Estimate { point: self.median, low: None, high: None, n: self.n }),
        }
    }

    /// MAD as a share of the median, a unit-free spread figure for tables.
    pub fn relative_mad(&self) -> f64 {
        if self.median > 0.0 {
            self.mad / self.median
        } else {
            0.0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn odd_and_even_counts() {
        let s = Summary::of(&[3.0, 1.0, 2.0]).unwrap();
        assert_eq!((s.median, s.min, s.max, s.n), (2.0, 1.0, 3.0, 3));
        assert_eq!(s.mad, 1.0);
        let s = Summary::of(&[4.0, 1.0, 2.0, 3.0]).unwrap();
        assert_eq!(s.median, 2.5);
    }

    #[test]
    fn one_outlier_moves_max_not_median_or_mad() {
        let s = Summary::of(&[1.0, 1.0, 1.1, 0.9, 100.0]).unwrap();
        assert_eq!(s.median, 1.0);
        assert!(s.mad <= 0.1 + 1e-12);
        assert_eq!(s.max, 100.0);
    }

    #[test]
    fn carries_the_interval_of_the_median() {
        let samples: Vec<f64> = (1..=10).map(f64::from).collect();
        let s = Summary::of(&samples).unwrap();
        // n = 10: the 2nd and 9th smallest bound the median at 95%.
        assert_eq!((s.ci_low, s.ci_high), (Some(2.0), Some(9.0)));
        assert!((s.ci_rel.unwrap() - 3.5 / 5.5).abs() < 1e-12);
        assert!(Summary::of(&[1.0, 2.0]).unwrap().ci_low.is_none());
    }

    #[test]
    fn a_schema_1_summary_loads_and_gets_its_interval_from_the_samples() {
        let old = r#"{"median":5.5,"min":1.0,"max":10.0,"mad":2.5,"mean":5.5,"n":10}"#;
        let s: Summary = serde_json::from_str(old).unwrap();
        assert_eq!(s.ci_low, None);
        let samples: Vec<f64> = (1..=10).map(f64::from).collect();
        let e = s.estimate(&samples);
        assert_eq!((e.point, e.low, e.high), (5.5, Some(2.0), Some(9.0)));
        assert_eq!(s.estimate(&[]).low, None);
    }

    #[test]
    fn passes_that_disagree_widen_the_interval_not_the_median() {
        let samples: Vec<f64> = (0..40).map(|i| if i < 20 { 1.0 } else { 1.2 } + 1e-4 * f64::from(i % 20)).collect();
        let passes: Vec<u32> = (0..40).map(|i| i / 10).collect();
        let pooled = Summary::of(&samples).unwrap();
        let over = Summary::of_passes(&samples, &passes).unwrap();
        assert_eq!((over.median, over.n, over.mad), (pooled.median, pooled.n, pooled.mad));
        assert!(over.ci_low.unwrap() < pooled.ci_low.unwrap() && over.ci_high.unwrap() >= pooled.ci_high.unwrap());
        assert!(over.ci_rel.unwrap() > 0.05, "{over:?}");
    }

    #[test]
    fn empty_is_none() {
        assert!(Summary::of(&[]).is_none());
    }
}
