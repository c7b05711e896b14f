use dspbench_core::{Algorithm, Error, Input, Output, Transfer};
use std::time::Instant;

/// How many samples to take of one cell.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SamplingPlan {
    /// Untimed runs first: caches, page faults, clocks, lazy initialisation.
    pub warmup: usize,
    /// At most this many timed samples.
    pub repetitions: usize,
    /// Stop once the samples took this long in total, if set ...
    pub time_budget_s: Option<f64>,
    /// Evict host and device caches (untimed) before every sample.
    pub cold_cache: bool,
}

impl SamplingPlan {
    /// ... but never with fewer than this many samples (or `repetitions`, if smaller), so a
    /// median and a spread always exist.
    pub const MIN_SAMPLES: usize = 3;
}

/// Larger than the last-level cache of any CPU the suite targets (server parts reach 256+ MiB of
/// L3 only across many chiplets; one core's share is far smaller).
const HOST_EVICTION_BYTES: usize = 256 << 20;

/// Writes every cache line of `buffer`, pushing everything else out of the host's caches.
fn evict_host_caches(buffer: &mut [u64]) {
    for (i, word) in buffer.iter_mut().enumerate().step_by(8) {
        *word = word.wrapping_add(i as u64);
    }
    std::hint::black_box(buffer);
}

/// Raw timings of one cell and its final output.
#[derive(Debug, Clone)]
pub struct Measurement {
    /// Per sample: the device's time if the backend has a device clock, else wall time.
    pub kernel_ms: Vec<f64>,
    /// Per sample: wall time around `run`.
    pub wall_ms: Vec<f64>,
    pub device_clock: bool,
    pub upload: Transfer,
    pub download: Transfer,
    pub output: Output,
}

/// Uploads `input`, warms up, takes samples of `run` and downloads the output of the last run.
pub fn measure(algorithm: &mut dyn Algorithm, input: &Input, plan: SamplingPlan) -> Result<Measurement, Error> {
    let upload = algorithm.upload(input)?;
    for _ in 0..plan.warmup {
        algorithm.run()?;
    }
    let min_samples = SamplingPlan::MIN_SAMPLES.min(plan.repetitions).max(1);
    let mut kernel_ms = Vec::with_capacity(plan.repetitions);
    let mut wall_ms = Vec::with_capacity(plan.repetitions);
    let mut device_clock = true;
    let mut spent_s = 0.0;
    let mut eviction = if plan.cold_cache { vec![0u64; HOST_EVICTION_BYTES / 8] } else { Vec::new() };
    while kernel_ms.len() < plan.repetitions.max(1) {
        if plan.cold_cache {
            evict_host_caches(&mut eviction);
            algorithm.evict_device_caches()?;
        }
        let start = Instant::now();
        let time = algorithm.run()?;
        let wall = start.elapsed().as_secs_f64();
        spent_s += wall;
        wall_ms.push(wall * 1e3);
        device_clock &= time.device_ms.is_some();
        kernel_ms.push(time.device_ms.unwrap_or(wall * 1e3));
        let over_budget = plan.time_budget_s.is_some_and(|b| spent_s >= b);
        if over_budget && kernel_ms.len() >= min_samples {
            break;
        }
    }
    if !device_clock {
        // A backend that gives a device time for some samples only is timed by the wall clock throughout.
        kernel_ms.clone_from(&wall_ms);
    }
    let (output, download) = algorithm.download()?;
    Ok(Measurement { kernel_ms, wall_ms, device_clock, upload, download, output })
}
