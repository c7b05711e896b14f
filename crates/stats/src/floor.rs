//! The launch floor: the device time a launch of an empty kernel takes, timed as the runner times
//! short cells: a batch of launches back to back between one pair of device events (CUDA replays
//! it as a graph), divided by its launches. No cell of a backend can take less, so a small cell's
//! time is read against it: near it, the cell measures launching, not its work, and a ratio
//! between two backends there compares their launch overheads (docs/findings.md has an H100's).

use crate::{median_with_ci, Estimate};

/// Batches before the timed ones: the first loads the kernel and wakes the device.
pub const FLOOR_WARMUP: usize = 8;
/// Timed batches: enough for the median's 95% interval to lie within a few ranks of it.
pub const FLOOR_SAMPLES: usize = 31;
/// Launches a batch: as many as the runner gives a sample of a few-microsecond cell.
pub const FLOOR_BATCH: usize = 1000;

/// The median device time of an empty launch, in microseconds, with its 95% interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LaunchFloor {
    pub us: Estimate,
}

impl LaunchFloor {
    /// Runs FLOOR_WARMUP untimed and FLOOR_SAMPLES timed batches of `batch`, which launches the
    /// empty kernel FLOOR_BATCH times and returns the milliseconds its events measured. The first
    /// error ends the measurement.
    pub fn measure<E>(mut batch: impl FnMut() -> Result<f64, E>) -> Result<LaunchFloor, E> {
        for _ in 0..FLOOR_WARMUP {
            batch()?;
        }
        let mut us = Vec::with_capacity(FLOOR_SAMPLES);
        for _ in 0..FLOOR_SAMPLES {
            us.push(batch()? * 1e3 / FLOOR_BATCH as f64);
        }
        Ok(LaunchFloor { us: median_with_ci(&us).expect("FLOOR_SAMPLES is not zero") })
    }

    /// The record's details: `launch_floor_us`, `launch_floor_us_interval` ("low-high") and
    /// `launch_floor_method`, which names the kernel launched (`what`) and the timer.
    pub fn details(&self, what: &str, timer: &str) -> Vec<(String, String)> {
        let mut details = vec![("launch_floor_us".to_string(), format!("{:.2}", self.us.point))];
        if let (Some(low), Some(high)) = (self.us.low, self.us.high) {
            details.push(("launch_floor_us_interval".to_string(), format!("{low:.2}-{high:.2}")));
        }
        details.push((
            "launch_floor_method".to_string(),
            format!(
                "median of {FLOOR_SAMPLES} batches of {FLOOR_BATCH} launches of {what} back to back, each batch timed \
                 by {timer}, per launch, after {FLOOR_WARMUP} untimed batches"
            ),
        ));
        details
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_floor_is_the_median_of_the_timed_batches_per_launch_after_the_warm_up() {
        // The warm-up's batches are slow (the first ones load the kernel); the timed ones take
        // 4 us a launch but every tenth 50 us (a neighbour's work).
        let mut batches: usize = 0;
        let floor = LaunchFloor::measure(|| -> Result<f64, ()> {
            batches += 1;
            let timed = batches.saturating_sub(FLOOR_WARMUP);
            let us = if batches <= FLOOR_WARMUP {
                1000.0
            } else if timed % 10 == 0 {
                50.0
            } else {
                4.0
            };
            Ok(us * FLOOR_BATCH as f64 / 1e3)
        })
        .unwrap();
        assert_eq!(batches, FLOOR_WARMUP + FLOOR_SAMPLES);
        assert!((floor.us.point - 4.0).abs() < 1e-9, "{:?}", floor.us);
        assert_eq!(floor.us.n, FLOOR_SAMPLES);
        let details = floor.details("an empty kernel", "events");
        assert_eq!(details[0], ("launch_floor_us".to_string(), "4.00".to_string()));
        assert_eq!(details[1], ("launch_floor_us_interval".to_string(), "4.00-4.00".to_string()));
        assert!(details[2].1.starts_with("median of 31 batches of 1000 launches of an empty kernel back to back"));
    }

    #[test]
    fn an_error_ends_the_measurement() {
        let mut batches = 0;
        let outcome = LaunchFloor::measure(|| {
            batches += 1;
            if batches == 12 {
                Err("launch failed")
            } else {
                Ok(1.0)
            }
        });
        assert_eq!(outcome, Err("launch failed"));
        assert_eq!(batches, 12);
    }
}
