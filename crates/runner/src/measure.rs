//! Measuring one contender: upload, warm-up, batch calibration, timed samples, download.
//! Which contender samples when is the business of `rounds.rs`; this file times one of them.

use dspbench_core::{Algorithm, Error, Input, Output, Transfer};
use dspbench_scenario::{CacheMode, Sampling};
use dspbench_stats::{StopReason, StoppingRule};
use std::time::Instant;

/// How to sample every contender of a run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SamplingPlan {
    /// Untimed runs first: caches, page faults, clocks, lazy initialisation; no more once they
    /// have taken the time budget.
    pub warmup: usize,
    pub rule: StoppingRule,
    /// A sample is a batch of calls lasting at least this long (0: one call per sample).
    pub min_sample_ms: f64,
    /// Evict host and device caches (untimed) before every sample; forces one call per sample.
    pub cold_cache: bool,
}

impl From<&Sampling> for SamplingPlan {
    fn from(s: &Sampling) -> SamplingPlan {
        SamplingPlan {
            warmup: s.warmup,
            rule: StoppingRule {
                min_samples: s.min_samples,
                max_samples: s.max_samples,
                time_budget_s: s.time_budget_s,
                target_rel_half_width: s.target_ci,
            },
            min_sample_ms: s.min_sample_ms,
            cold_cache: s.cache == CacheMode::Cold,
        }
    }
}

/// The most calls one sample may batch: enough for a 1 ms sample of a 1 ns call.
const MAX_BATCH: usize = 1 << 20;

/// Calibration aims this much above `min_sample_ms`, so that a sample a little faster than the
/// calibrating one still lasts long enough.
const CALIBRATION_MARGIN: f64 = 1.25;

/// Larger than the last-level cache of any CPU the suite targets (server parts reach 256+ MiB of
/// L3 only across many chiplets; one core's share is far smaller).
const HOST_EVICTION_BYTES: usize = 256 << 20;

/// Pushes everything out of the host's caches by writing every line of a large buffer. One per
/// run, shared by every contender: it is 256 MiB.
#[derive(Default)]
pub struct HostEvictor {
    buffer: Vec<u64>,
}

impl HostEvictor {
    fn evict(&mut self) {
        if self.buffer.is_empty() {
            self.buffer = vec![0u64; HOST_EVICTION_BYTES / 8];
        }
        for (i, word) in self.buffer.iter_mut().enumerate().step_by(8) {
            *word = word.wrapping_add(i as u64);
        }
        std::hint::black_box(&mut self.buffer);
    }
}

/// One planned kernel being measured, and everything it has measured so far.
pub struct Contender {
    algorithm: Box<dyn Algorithm>,
    /// Untimed calls made before the first sample.
    pub warmup: usize,
    /// Calls per sample.
    pub batch: usize,
    /// Per sample, per call: the device's time while every sample had one, else the wall time.
    kernel_ms: Vec<f64>,
    /// Per sample, per call: wall time around the batch.
    wall_ms: Vec<f64>,
    /// True while every sample has had a device time.
    device_clock: bool,
    /// The round each sample was taken in.
    pub rounds: Vec<u32>,
    /// `kernel_ms` sorted, kept up to date for the stopping rule.
    sorted: Vec<f64>,
    /// Wall seconds spent in timed samples.
    pub spent_s: f64,
    /// Milliseconds waited after the samples for the contender's threads to go idle.
    settle_ms: f64,
    pub stop: Option<StopReason>,
    upload: Transfer,
}

/// What a contender measured, and its final output.
#[derive(Debug, Clone)]
pub struct Measurement {
    /// Untimed calls before the first sample: the plan's warm-up, or fewer where calls are
    /// longer than the time budget.
    pub warmup: usize,
    /// Per sample and call: the device's time if the backend has a device clock, else wall time.
    pub kernel_ms: Vec<f64>,
    /// Per sample and call: wall time around the batch.
    pub wall_ms: Vec<f64>,
    pub device_clock: bool,
    pub rounds: Vec<u32>,
    pub batch: usize,
    pub stop: StopReason,
    pub spent_s: f64,
    /// Milliseconds waited, untimed, after the samples (`Algorithm::settle`).
    pub settle_ms: f64,
    pub upload: Transfer,
    pub download: Transfer,
    pub output: Output,
}

impl Contender {
    /// Uploads `input`, runs the warm-up and calibrates the batch: ready for its first sample.
    pub fn prepare(mut algorithm: Box<dyn Algorithm>, input: &Input, plan: &SamplingPlan) -> Result<Contender, Error> {
        let upload = algorithm.upload(input)?;
        let warming = Instant::now();
        let mut warmup = 0;
        while warmup < plan.warmup {
            algorithm.run()?;
            warmup += 1;
            // A kernel whose calls outlast the time budget is warm after one: more would only
            // spend what sampling gets (a 6 s call on PoCL, warmed twice in each of 4 passes).
            if warming.elapsed().as_secs_f64() >= plan.rule.time_budget_s {
                break;
            }
        }
        let batch = calibrate(algorithm.as_mut(), plan)?;
        let settle_ms = algorithm.settle()?;
        Ok(Contender {
            algorithm,
            warmup,
            batch,
            kernel_ms: Vec::new(),
            wall_ms: Vec::new(),
            device_clock: true,
            rounds: Vec::new(),
            sorted: Vec::new(),
            spent_s: 0.0,
            settle_ms,
            stop: None,
            upload,
        })
    }

    pub fn samples(&self) -> usize {
        self.kernel_ms.len()
    }

    /// Takes one sample (a batch) in `round`, evicting the caches first for cold-cache runs.
    pub fn sample(&mut self, round: u32, plan: &SamplingPlan, evictor: &mut HostEvictor) -> Result<(), Error> {
        if plan.cold_cache {
            evictor.evict();
            self.algorithm.evict_device_caches()?;
        }
        let (device, wall) = timed_batch(self.algorithm.as_mut(), self.batch)?;
        self.spent_s += wall * 1e-3;
        // Before the round's next contender starts, not inside this sample's time.
        self.settle_ms += self.algorithm.settle()?;
        let calls = self.batch as f64;
        self.wall_ms.push(wall / calls);
        if self.device_clock && device.is_none() {
            // A backend that gives a device time for some samples only is timed by the wall
            // clock throughout: the samples so far switch over too.
            self.device_clock = false;
            self.kernel_ms = self.wall_ms[..self.kernel_ms.len()].to_vec();
            self.sorted.clone_from(&self.kernel_ms);
            self.sorted.sort_by(f64::total_cmp);
        }
        let kernel = match device {
            Some(ms) if self.device_clock => ms / calls,
            _ => wall / calls,
        };
        self.kernel_ms.push(kernel);
        let at = self.sorted.partition_point(|&x| x < kernel);
        self.sorted.insert(at, kernel);
        self.rounds.push(round);
        Ok(())
    }

    /// Applies the stopping rule; true once this contender has stopped.
    pub fn check_stop(&mut self, plan: &SamplingPlan) -> bool {
        if self.stop.is_none() {
            self.stop = plan.rule.check(&self.sorted, self.spent_s);
        }
        self.stop.is_some()
    }

    /// Downloads the output of the last run.
    pub fn finish(mut self) -> Result<Measurement, Error> {
        let (output, download) = self.algorithm.download()?;
        Ok(Measurement {
            warmup: self.warmup,
            device_clock: self.device_clock,
            kernel_ms: self.kernel_ms,
            wall_ms: self.wall_ms,
            rounds: self.rounds,
            batch: self.batch,
            stop: self.stop.unwrap_or(StopReason::MaxSamples),
            spent_s: self.spent_s,
            settle_ms: self.settle_ms,
            upload: self.upload,
            download,
            output,
        })
    }
}

/// Runs a batch of `calls`: (the device's milliseconds if it has a clock, wall milliseconds).
fn timed_batch(algorithm: &mut dyn Algorithm, calls: usize) -> Result<(Option<f64>, f64), Error> {
    let start = Instant::now();
    let time = algorithm.run_batch(calls)?;
    let wall = start.elapsed().as_secs_f64() * 1e3;
    Ok((time.device_ms, wall))
}

/// The calls per sample that make one sample last at least `min_sample_ms` on the clock the
/// samples will be taken with: grows the batch until a timed batch is long enough.
fn calibrate(algorithm: &mut dyn Algorithm, plan: &SamplingPlan) -> Result<usize, Error> {
    if plan.cold_cache || plan.min_sample_ms <= 0.0 {
        return Ok(1);
    }
    let mut calls = 1;
    loop {
        let (device, wall) = timed_batch(algorithm, calls)?;
        let ms = device.unwrap_or(wall);
        if ms >= plan.min_sample_ms || calls >= MAX_BATCH {
            return Ok(calls);
        }
        let wanted = if ms > 0.0 { (plan.min_sample_ms * CALIBRATION_MARGIN / ms).ceil() } else { 10.0 };
        // At least double (a first call may have been slow), at most a hundredfold (it may have been fast).
        let factor = wanted.clamp(2.0, 100.0) as usize;
        calls = (calls * factor).min(MAX_BATCH);
    }
}
