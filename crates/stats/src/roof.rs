//! The copy bandwidth a device's memory-bound kernels are judged against, measured the way every
//! other figure of the suite is: after a warm-up that lasts until the device's rate has settled,
//! as the median of enough copies to bound it with a 95% interval (docs/results.md).
//!
//! Why the warm-up is timed and watched, not counted: a GPU found idle runs its first
//! milliseconds at a lower clock, and five copies of 256 MiB last under a millisecond on an H100,
//! so the figure a cold device gave moved by 5% between cards and between two backends on one
//! card (2813 against 2949 GB/s, reports/2026-11-26-h100/experiments call-183). After 200 ms of
//! copies an H100's rate had settled in every process watched (call-190); the watch stays for
//! devices that take longer, within a cap, and the record says whether the rate settled.

use crate::{median_of_sorted, median_with_ci, Estimate};
use std::time::{Duration, Instant};

/// How one device's copies are timed: the warm-up's bounds and the samples taken after it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CopyProtocol {
    /// Copies run untimed for at least this much host time (always at least one copy) ..
    pub warmup: Duration,
    /// .. and then until the median rate of the last `settle_window` copies is no more than
    /// [`SETTLED`] above that of the window before, or this much time has passed.
    pub warmup_max: Duration,
    pub settle_window: usize,
    /// Timed copies after the warm-up; the median of their rates is the figure.
    pub samples: usize,
}

/// A copy of a cell's bytes copies a whole number of these (4 KiB), its rate counted on the bytes it
/// copied. Why: on an H100 the driver's copy of a size that is a multiple of 16 bytes but not of a
/// page ran 7% under that of a page multiple (7680 x 4320 f32 conv2d's 132710432 bytes: 2712 GB/s,
/// the copy kernel's, against 2936 for the box filter's 132710400 in the same run;
/// reports/2026-11-26-h100/opencl-cuda-session29, call 292).
pub const COPY_ALIGN: usize = 4096;

/// A timed sample of a cell's copy lasts at least about this long, as a short cell's batch does
/// (crates/runner/src/measure.rs), so that the device's timer times the copies, not the launch.
pub const COPY_SAMPLE_MS: f64 = 0.2;

/// How a copy of a cell's `bytes` is measured on a device whose copy bandwidth is about
/// `roof_gbps`: the bytes each copy moves (rounded up to whole [`COPY_ALIGN`] pages) and the
/// copies a sample takes back to back (enough to last [`COPY_SAMPLE_MS`], at most 1024).
pub fn cell_copy_shape(bytes: usize, roof_gbps: f64) -> (usize, usize) {
    let bytes = bytes.max(1).next_multiple_of(COPY_ALIGN);
    let expected_ms = 2.0 * bytes as f64 / (roof_gbps * 1e6);
    let batch = (COPY_SAMPLE_MS / expected_ms).ceil().clamp(1.0, 1024.0) as usize;
    (bytes, batch)
}

/// How far the last window's median rate may lie above the one before it for the rate to count
/// as settled (0.2%: a tenth of the interval the suite's cells aim at).
pub const SETTLED: f64 = 1.002;

impl CopyProtocol {
    /// For devices whose copy takes well under a millisecond (GPUs): 200 ms to 2 s of warm-up,
    /// settled over windows of 32 copies, then 31 samples.
    pub const DEVICE: CopyProtocol = CopyProtocol {
        warmup: Duration::from_millis(200),
        warmup_max: Duration::from_millis(2000),
        settle_window: 32,
        samples: 31,
    };
    /// For a copy of a cell's own bytes, measured on a device the cell has just kept busy
    /// (`Backend::copy_of_bytes`): 20 ms to 500 ms of warm-up, settled over windows of 16 copies,
    /// then 31 samples.
    pub const WARM_DEVICE: CopyProtocol = CopyProtocol {
        warmup: Duration::from_millis(20),
        warmup_max: Duration::from_millis(500),
        settle_window: 16,
        samples: 31,
    };
    /// For host memory, where a copy of 256 MiB takes tens of milliseconds on a small machine:
    /// one warm-up copy (its page faults) and 9 samples, the fewest that give a 95% interval.
    pub const HOST: CopyProtocol =
        CopyProtocol { warmup: Duration::ZERO, warmup_max: Duration::ZERO, settle_window: 0, samples: 9 };
}

/// How the warm-up ended.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Warmup {
    pub copies: usize,
    pub elapsed: Duration,
    /// Whether the rate had settled (always true for a protocol without a settle window).
    pub settled: bool,
}

impl Warmup {
    fn run<E>(protocol: &CopyProtocol, bytes: usize, copy: &mut impl FnMut() -> Result<f64, E>) -> Result<Warmup, E> {
        let start = Instant::now();
        let window = protocol.settle_window;
        let mut rates = Vec::new();
        loop {
            let ms = copy()?;
            rates.push(if ms > 0.0 { 2.0 * bytes as f64 / (ms * 1e6) } else { 0.0 });
            let elapsed = start.elapsed();
            if elapsed < protocol.warmup {
                continue;
            }
            let settled = window == 0 || settled(&rates, window);
            if settled || elapsed >= protocol.warmup_max {
                return Ok(Warmup { copies: rates.len(), elapsed, settled });
            }
        }
    }
}

/// Whether the median of the last `window` rates is no more than [`SETTLED`] times the median of
/// the `window` before them.
fn settled(rates: &[f64], window: usize) -> bool {
    if rates.len() < 2 * window {
        return false;
    }
    let median = |part: &[f64]| {
        let mut sorted = part.to_vec();
        sorted.sort_by(f64::total_cmp);
        median_of_sorted(&sorted)
    };
    let n = rates.len();
    median(&rates[n - window..]) <= SETTLED * median(&rates[n - 2 * window..n - window])
}

/// A measured copy bandwidth: GB/s counting bytes read plus bytes written.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CopyRoof {
    /// The median rate and its 95% interval, over `protocol.samples` copies.
    pub gbps: Estimate,
    pub warmup: Warmup,
    /// Bytes each copy moves from source to destination (counted twice in the rate).
    pub bytes: usize,
    pub protocol: CopyProtocol,
}

impl CopyRoof {
    /// Runs `protocol` with `copy`, which copies `bytes` once and returns the milliseconds it
    /// took (device events, or a host clock around a synchronous copy). The first error ends the
    /// measurement; a copy reported as taking no time is an error of the timer.
    pub fn measure<E>(
        bytes: usize,
        protocol: CopyProtocol,
        mut copy: impl FnMut() -> Result<f64, E>,
        zero_time: impl Fn() -> E,
    ) -> Result<CopyRoof, E> {
        let warmup = Warmup::run(&protocol, bytes, &mut copy)?;
        let mut rates = Vec::with_capacity(protocol.samples);
        for _ in 0..protocol.samples {
            let ms = copy()?;
            if ms <= 0.0 {
                return Err(zero_time());
            }
            rates.push(2.0 * bytes as f64 / (ms * 1e6));
        }
        let gbps = median_with_ci(&rates).expect("at least one sample");
        Ok(CopyRoof { gbps, warmup, bytes, protocol })
    }

    /// The interval as "low-high" GB/s to three significant figures or more ("2941-2957",
    /// "13.1-13.6"), `None` where too few samples give one.
    pub fn interval(&self) -> Option<String> {
        let (low, high) = (self.gbps.low?, self.gbps.high?);
        let decimals = decimals(high);
        Some(format!("{low:.decimals$}-{high:.decimals$}"))
    }

    /// The median with its interval: "2950 [2941-2957] GB/s".
    pub fn summary(&self) -> String {
        let point = self.gbps.point;
        let decimals = decimals(point);
        match self.interval() {
            Some(interval) => format!("{point:.decimals$} [{interval}] GB/s"),
            None => format!("{point:.decimals$} GB/s"),
        }
    }

    /// How it was measured, for a record: "median of 31 device-to-device copies of 256 MiB after
    /// 243 ms of warm-up (1310 copies, the rate settled), bytes read + written".
    pub fn method(&self, what: &str) -> String {
        let w = &self.warmup;
        let warmup = if self.protocol.settle_window == 0 {
            match w.copies {
                1 => "one warm-up copy".to_string(),
                n => format!("{n} warm-up copies"),
            }
        } else {
            let settled = if w.settled { "the rate settled" } else { "the rate still rising at the cap" };
            format!("{} ms of warm-up ({} copies, {settled})", w.elapsed.as_millis(), w.copies)
        };
        let size = bytes_text(self.bytes);
        format!("median of {} {what} of {size} after {warmup}, bytes read + written", self.protocol.samples)
    }
}

/// `256 MiB`, `7.91 MiB`, `12.0 KiB`: binary units, three significant figures under 100.
fn bytes_text(bytes: usize) -> String {
    let (value, unit) =
        if bytes >= 1 << 20 { (bytes as f64 / f64::from(1 << 20), "MiB") } else { (bytes as f64 / 1024.0, "KiB") };
    let decimals = if value >= 100.0 {
        0
    } else if value >= 10.0 {
        1
    } else {
        2
    };
    format!("{value:.decimals$} {unit}")
}

/// Decimals that show a rate to three significant figures or more.
fn decimals(gbps: f64) -> usize {
    if gbps >= 100.0 {
        0
    } else if gbps >= 10.0 {
        1
    } else {
        2
    }
}

/// A device's copy bandwidth by each way it was copied (the driver's copy, a kernel of our own):
/// the figure is the highest median, the best copy the device was seen to do, and every way is
/// recorded with its interval, or why it could not be measured.
#[derive(Debug, Clone, Default)]
pub struct DeviceCopy {
    /// (how, its measurement), e.g. ("driver copy", ..).
    pub measured: Vec<(&'static str, CopyRoof)>,
    /// (how, why it failed).
    pub failed: Vec<(&'static str, String)>,
}

impl DeviceCopy {
    /// Adds the outcome of measuring one way: its figure, or why it could not be measured.
    pub fn record<E: std::fmt::Display>(&mut self, how: &'static str, outcome: Result<CopyRoof, E>) {
        match outcome {
            Ok(roof) => self.measured.push((how, roof)),
            Err(e) => self.failed.push((how, e.to_string())),
        }
    }

    /// The way with the highest median.
    pub fn best(&self) -> Option<(&'static str, &CopyRoof)> {
        self.measured.iter().max_by(|a, b| a.1.gbps.point.total_cmp(&b.1.gbps.point)).map(|(how, roof)| (*how, roof))
    }

    /// The best way's median, its interval's ends and its method ("the copy kernel: median of
    /// .."), or why no way could be measured.
    pub fn best_figure(&self, unit_of_copy: &str) -> Result<(f64, Option<f64>, Option<f64>, String), String> {
        match self.best() {
            Some((how, roof)) => Ok((
                roof.gbps.point,
                roof.gbps.low,
                roof.gbps.high,
                format!("the {how}: {}", roof.method(unit_of_copy)),
            )),
            None if self.failed.is_empty() => Err("no way of copying was measured".into()),
            None => Err(self.failed.iter().map(|(how, why)| format!("{how}: {why}")).collect::<Vec<_>>().join("; ")),
        }
    }

    /// The record's entries: `copy_gbps` (the best median), `copy_gbps_interval`,
    /// `copy_gbps_method` (the best way and how it was timed), `copy_gbps_by` (every way's figure)
    /// and `copy_failed` (every way that could not be measured, and why); none of the first four
    /// without a measurement.
    pub fn details(&self, unit_of_copy: &str) -> Vec<(String, String)> {
        let mut details = Vec::new();
        if let Some((how, roof)) = self.best() {
            details.push(("copy_gbps".to_string(), format!("{:.*}", decimals(roof.gbps.point), roof.gbps.point)));
            if let Some(interval) = roof.interval() {
                details.push(("copy_gbps_interval".to_string(), interval));
            }
            details.push(("copy_gbps_method".to_string(), format!("the {how}: {}", roof.method(unit_of_copy))));
            let by: Vec<String> = self.measured.iter().map(|(how, roof)| format!("{how} {}", roof.summary())).collect();
            details.push(("copy_gbps_by".to_string(), by.join("; ")));
        }
        if !self.failed.is_empty() {
            let failed: Vec<String> = self.failed.iter().map(|(how, why)| format!("{how}: {why}")).collect();
            details.push(("copy_failed".to_string(), failed.join("; ")));
        }
        details
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GIB: usize = 1 << 30;

    #[test]
    fn the_median_rate_with_its_interval() {
        // Copies of 1 GiB taking 1.0, 1.1, .. ms: the middle one (index 4 of 9, 1.4 ms) is the median.
        let mut ms = [1.4, 1.0, 1.1, 1.2, 1.3, 1.5, 1.6, 1.7, 1.8].into_iter();
        let protocol = CopyProtocol::HOST;
        let mut calls = 0;
        let roof = CopyRoof::measure(
            GIB,
            protocol,
            || {
                calls += 1;
                Ok::<_, ()>(if calls == 1 { 5.0 } else { ms.next().unwrap() })
            },
            || (),
        )
        .unwrap();
        assert_eq!(roof.warmup.copies, 1, "the slow first copy is the warm-up, not a sample");
        let expected = 2.0 * GIB as f64 / 1.4e6;
        assert!((roof.gbps.point - expected).abs() < 1e-9, "{roof:?}");
        assert_eq!(roof.gbps.n, 9);
        let (low, high) = (roof.gbps.low.unwrap(), roof.gbps.high.unwrap());
        assert!(low < roof.gbps.point && roof.gbps.point < high, "{roof:?}");
        assert_eq!(roof.interval(), Some(format!("{:.0}-{:.0}", 2.0 * GIB as f64 / 1.7e6, 2.0 * GIB as f64 / 1.1e6)));
        assert_eq!(
            roof.method("copies"),
            "median of 9 copies of 1024 MiB after one warm-up copy, bytes read + written"
        );
    }

    /// A copy of 1 GiB whose time falls from 2 ms to 1 ms over its first `ramp` calls, as a device
    /// whose clock rises; each call sleeps `sleep` of host time.
    fn ramping_copy(ramp: usize, sleep: Duration) -> impl FnMut() -> Result<f64, ()> {
        let mut calls = 0usize;
        move || {
            std::thread::sleep(sleep);
            calls += 1;
            Ok(if calls >= ramp { 1.0 } else { 2.0 - calls as f64 / ramp as f64 })
        }
    }

    #[test]
    fn the_warmup_lasts_its_minimum_then_until_the_rate_settles() {
        let protocol = CopyProtocol {
            warmup: Duration::from_millis(10),
            warmup_max: Duration::from_secs(10),
            settle_window: 4,
            samples: 7,
        };
        // Rising over 40 copies of 1 ms each: past the 10 ms minimum, the warm-up goes on until two
        // windows of 4 at the top rate, so the samples all see the settled rate.
        let roof = CopyRoof::measure(GIB, protocol, ramping_copy(40, Duration::from_millis(1)), || ()).unwrap();
        assert!(roof.warmup.settled, "{roof:?}");
        assert!((40..=60).contains(&roof.warmup.copies), "{:?}", roof.warmup);
        assert!(roof.warmup.elapsed >= Duration::from_millis(10));
        assert_eq!(roof.gbps.point, 2.0 * GIB as f64 / 1e6);
        assert!(roof.method("copies").contains("copies, the rate settled)"), "{}", roof.method("copies"));
        // Already settled: the minimum alone.
        let steady = CopyRoof::measure(GIB, protocol, ramping_copy(1, Duration::from_millis(1)), || ()).unwrap();
        assert!(steady.warmup.settled && steady.warmup.copies <= 20, "{:?}", steady.warmup);
    }

    #[test]
    fn a_rate_still_rising_at_the_cap_says_so() {
        let protocol = CopyProtocol {
            warmup: Duration::from_millis(5),
            warmup_max: Duration::from_millis(15),
            settle_window: 4,
            samples: 7,
        };
        // 5% faster every window of 4 copies: never settled within 15 copies of 1 ms.
        let roof = CopyRoof::measure(GIB, protocol, ramping_copy(40, Duration::from_millis(1)), || ()).unwrap();
        assert!(!roof.warmup.settled, "{roof:?}");
        assert!(roof.warmup.elapsed >= Duration::from_millis(15) && roof.warmup.copies < 40, "{:?}", roof.warmup);
        assert!(roof.method("copies").contains("still rising at the cap"), "{}", roof.method("copies"));
    }

    #[test]
    fn settling_compares_the_last_two_windows() {
        assert!(!settled(&[1.0, 2.0, 3.0], 2), "too few rates");
        assert!(!settled(&[1.0, 1.0, 2.0, 2.0], 2));
        assert!(settled(&[2.0, 2.0, 2.0, 2.003], 2));
        assert!(settled(&[5.0, 5.0, 2.0, 2.0], 2), "a falling rate is no warm-up's business");
    }

    fn steady(ms: f64) -> CopyRoof {
        CopyRoof::measure(GIB, CopyProtocol::HOST, || Ok::<_, ()>(ms), || ()).unwrap()
    }

    #[test]
    fn a_device_copy_takes_the_best_way_and_records_every_one() {
        let copy = DeviceCopy {
            measured: vec![("driver copy", steady(1.0)), ("copy kernel", steady(0.8))],
            failed: vec![("third way", "no such thing".into())],
        };
        assert_eq!(copy.best().map(|(how, _)| how), Some("copy kernel"));
        let details: std::collections::BTreeMap<_, _> = copy.details("copies").into_iter().collect();
        assert_eq!(details["copy_gbps"], "2684", "2 GiB in 0.8 ms");
        assert_eq!(details["copy_gbps_interval"], "2684-2684");
        assert!(details["copy_gbps_method"].starts_with("the copy kernel: median of 9 copies"), "{details:?}");
        assert_eq!(details["copy_gbps_by"], "driver copy 2147 [2147-2147] GB/s; copy kernel 2684 [2684-2684] GB/s");
        assert_eq!(details["copy_failed"], "third way: no such thing");
    }

    #[test]
    fn a_device_copy_without_a_measurement_records_only_why() {
        let mut copy = DeviceCopy::default();
        copy.record("driver copy", Err::<CopyRoof, _>("out of memory"));
        assert!(copy.best().is_none());
        assert_eq!(copy.details("copies"), vec![("copy_failed".to_string(), "driver copy: out of memory".to_string())]);
    }

    #[test]
    fn the_best_figure_names_its_way_or_says_why_there_is_none() {
        let copy =
            DeviceCopy { measured: vec![("driver copy", steady(1.0)), ("copy kernel", steady(0.8))], failed: vec![] };
        let (point, low, high, method) = copy.best_figure("copies").unwrap();
        assert_eq!((point.round(), low.map(f64::round), high.map(f64::round)), (2684.0, Some(2684.0), Some(2684.0)));
        assert!(method.starts_with("the copy kernel: median of 9 copies of 1024 MiB"), "{method}");
        let mut failed = DeviceCopy::default();
        failed.record("driver copy", Err::<CopyRoof, _>("out of memory"));
        assert_eq!(failed.best_figure("copies").unwrap_err(), "driver copy: out of memory");
        assert!(DeviceCopy::default().best_figure("copies").is_err());
    }

    #[test]
    fn a_cell_copy_takes_whole_pages_and_enough_copies_for_a_sample() {
        // 8.3 MB at 3000 GB/s: 5.5 us a copy, 37 of them for 0.2 ms.
        assert_eq!(cell_copy_shape(8_294_400, 3000.0), (8_294_400, 37));
        assert_eq!(cell_copy_shape(1_000_001, 3000.0).0, 1_003_520, "rounded up to a page");
        assert_eq!(cell_copy_shape(1, 3000.0), (4096, 1024), "tiny copies: at most 1024 a sample");
        assert_eq!(cell_copy_shape(256 << 20, 3000.0).1, 2, "0.18 ms a copy: two a sample");
        assert_eq!(cell_copy_shape(1 << 30, 3000.0).1, 1, "0.72 ms a copy: one a sample");
    }

    #[test]
    fn sizes_read_in_binary_units_to_three_figures() {
        assert_eq!(bytes_text(256 << 20), "256 MiB");
        assert_eq!(bytes_text(8_294_400), "7.91 MiB");
        assert_eq!(bytes_text(23_040_000), "22.0 MiB");
        assert_eq!(bytes_text(12 * 1024), "12.0 KiB");
        assert_eq!(bytes_text(4096), "4.00 KiB");
    }

    #[test]
    fn errors_and_zero_times_end_the_measurement() {
        let failing = CopyRoof::measure(GIB, CopyProtocol::HOST, || Err::<f64, _>("no device"), || "zero");
        assert_eq!(failing.unwrap_err(), "no device");
        let zero = CopyRoof::measure(GIB, CopyProtocol::HOST, || Ok::<_, &str>(0.0), || "zero");
        assert_eq!(zero.unwrap_err(), "zero");
    }
}
