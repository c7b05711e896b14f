use serde::{Deserialize, Serialize};

/// Order statistics of a set of timings, in milliseconds.
///
/// The median is the headline (robust to the occasional preempted sample); min and max give
/// the full range, and the median absolute deviation (MAD) a spread figure that one outlier
/// does not dominate.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub median: f64,
    pub min: f64,
    pub max: f64,
    pub mad: f64,
    pub mean: f64,
    pub n: usize,
}

impl Summary {
    /// `None` for an empty set.
    pub fn of(samples: &[f64]) -> Option<Summary> {
        if samples.is_empty() {
            return None;
        }
        let mut sorted = samples.to_vec();
        sorted.sort_by(f64::total_cmp);
        let median = median_of_sorted(&sorted);
        let mut deviations: Vec<f64> = sorted.iter().map(|x| (x - median).abs()).collect();
        deviations.sort_by(f64::total_cmp);
        Some(Summary {
            median,
            min: sorted[0],
            max: sorted[sorted.len() - 1],
            mad: median_of_sorted(&deviations),
            mean: sorted.iter().sum::<f64>() / sorted.len() as f64,
            n: sorted.len(),
        })
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

fn median_of_sorted(sorted: &[f64]) -> f64 {
    let n = sorted.len();
    if n % 2 == 1 {
        sorted[n / 2]
    } else {
        0.5 * (sorted[n / 2 - 1] + sorted[n / 2])
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
    fn empty_is_none() {
        assert!(Summary::of(&[]).is_none());
    }
}
