use serde::{Deserialize, Serialize};

/// A point estimate with its 95% confidence interval (`low <= point <= high`). The interval is
/// `None` where too few observations exist for one (fewer than 6 for a median).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    pub point: f64,
    pub low: Option<f64>,
    pub high: Option<f64>,
    /// Observations behind the estimate (samples, or paired rounds for a ratio).
    pub n: usize,
}

impl Estimate {
    /// Half the interval's width as a share of the point: the figure the stopping rule targets.
    /// `None` without an interval, infinite for a zero point with a non-zero width.
    pub fn relative_half_width(&self) -> Option<f64> {
        let (low, high) = (self.low?, self.high?);
        let width = high - low;
        if width == 0.0 {
            Some(0.0)
        } else if self.point == 0.0 {
            Some(f64::INFINITY)
        } else {
            Some(width / (2.0 * self.point.abs()))
        }
    }

    /// True when the interval lies wholly above `value` (strictly).
    pub fn above(&self, value: f64) -> bool {
        self.low.is_some_and(|low| low > value)
    }

    /// True when the interval lies wholly below `value` (strictly).
    pub fn below(&self, value: f64) -> bool {
        self.high.is_some_and(|high| high < value)
    }
}
