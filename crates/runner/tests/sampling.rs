//! The measurement loop against a kernel whose times are scripted: where the stopping rule
//! stops, how batches are timed and divided, cold caches, and rounds over several contenders.

use dspbench_core::{Algorithm, AlgorithmId, Error, ExecInfo, Input, Output, RunTime, Transfer, Workload};
use dspbench_runner::{sample_in_rounds, Contender, HostEvictor, RoundOrder, SamplingPlan, Slot};
use dspbench_stats::{StopReason, StoppingRule};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Reports the device times of `script` in turn (cycling), sleeping `sleep` per call so that
/// wall time passes too, and `settle` when asked to settle; counts evictions and logs the order
/// in which contenders ran (and settled, with `log_settles`).
struct Scripted {
    id: AlgorithmId,
    script: Vec<f64>,
    next: usize,
    sleep: Duration,
    settle: Duration,
    log_settles: bool,
    evictions: Arc<AtomicUsize>,
    log: Arc<Mutex<Vec<String>>>,
}

impl Scripted {
    fn new(name: &str, script: Vec<f64>) -> Scripted {
        Scripted {
            id: AlgorithmId {
                workload: Workload::Conv1d,
                variant: name.into(),
                backend: "scripted".into(),
                device: "d".into(),
            },
            script,
            next: 0,
            sleep: Duration::ZERO,
            settle: Duration::ZERO,
            log_settles: false,
            evictions: Arc::default(),
            log: Arc::default(),
        }
    }
}

impl Algorithm for Scripted {
    fn id(&self) -> &AlgorithmId {
        &self.id
    }
    fn exec_info(&self) -> ExecInfo {
        ExecInfo::default()
    }
    fn upload(&mut self, _: &Input) -> Result<Transfer, Error> {
        Ok(Transfer::default())
    }
    fn run(&mut self) -> Result<RunTime, Error> {
        let ms = self.script[self.next % self.script.len()];
        self.next += 1;
        self.log.lock().unwrap().push(self.id.variant.clone());
        std::thread::sleep(self.sleep);
        Ok(RunTime { device_ms: Some(ms) })
    }
    fn download(&mut self) -> Result<(Output, Transfer), Error> {
        Ok((Output::F32(vec![]), Transfer::default()))
    }
    fn evict_device_caches(&mut self) -> Result<(), Error> {
        self.evictions.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }
    fn settle(&mut self) -> Result<f64, Error> {
        if self.log_settles {
            self.log.lock().unwrap().push(format!("{} settles", self.id.variant));
        }
        std::thread::sleep(self.settle);
        Ok(self.settle.as_secs_f64() * 1e3)
    }
}

fn input() -> Input {
    Input::conv1d(vec![1.0; 8], vec![1.0; 3]).unwrap()
}

fn plan(min_samples: usize, max_samples: usize, budget_s: f64) -> SamplingPlan {
    SamplingPlan {
        warmup: 0,
        rule: StoppingRule { min_samples, max_samples, time_budget_s: budget_s, target_rel_half_width: 0.01 },
        min_sample_ms: 0.0,
        cold_cache: false,
    }
}

/// Measures the contenders together in rounds and returns each one's measurement.
fn measure(algorithms: Vec<Scripted>, plan: &SamplingPlan) -> Vec<dspbench_runner::Measurement> {
    let mut slots: Vec<Slot> = algorithms
        .into_iter()
        .map(|a| Slot::Measuring(Contender::prepare(Box::new(a), &input(), plan).unwrap()))
        .collect();
    sample_in_rounds(&mut slots, plan, &mut RoundOrder::new(3), &mut HostEvictor::default(), 0, &mut |_, _| {});
    slots
        .into_iter()
        .map(|s| match s {
            Slot::Measuring(c) => c.finish().unwrap(),
            _ => panic!("a scripted contender failed"),
        })
        .collect()
}

#[test]
fn sampling_stops_as_soon_as_the_interval_is_tight() {
    // Five fast and five slow outliers, then steady 1.0s. The 95% interval of the median is the
    // j-th smallest and j-th largest sample; it closes on 1.0 once j > 5, which the binomial
    // tables give first at n = 20 (6th and 15th of 20).
    let mut script = vec![0.5, 1.5, 0.6, 1.4, 0.7, 1.3, 0.8, 1.2, 0.9, 1.1];
    script.extend([1.0; 200]);
    let m = measure(vec![Scripted::new("a", script)], &plan(10, 1000, 100.0)).remove(0);
    assert_eq!((m.kernel_ms.len(), m.stop), (20, StopReason::Target));
    assert!(m.device_clock);
    assert_eq!(m.rounds, (0..20).collect::<Vec<u32>>());
}

#[test]
fn noise_that_never_settles_stops_on_the_budget() {
    let mut noisy = Scripted::new("a", vec![1.0, 2.0]);
    noisy.sleep = Duration::from_millis(2);
    let m = measure(vec![noisy], &plan(10, 100_000, 0.05)).remove(0);
    assert_eq!(m.stop, StopReason::Budget);
    assert!((10..=30).contains(&m.kernel_ms.len()), "{} samples in 50 ms of 2 ms calls", m.kernel_ms.len());
    assert!(m.spent_s >= 0.05);
}

#[test]
fn never_fewer_than_the_minimum_even_past_the_budget_and_never_more_than_the_maximum() {
    let mut slow = Scripted::new("a", vec![1.0, 2.0]);
    slow.sleep = Duration::from_millis(5);
    let m = measure(vec![slow], &plan(8, 1000, 0.001)).remove(0);
    assert_eq!((m.kernel_ms.len(), m.stop), (8, StopReason::Budget));
    let m = measure(vec![Scripted::new("a", vec![1.0, 2.0])], &plan(8, 12, 100.0)).remove(0);
    assert_eq!((m.kernel_ms.len(), m.stop), (12, StopReason::MaxSamples));
}

#[test]
fn short_calls_are_batched_and_recorded_per_call() {
    let plan = SamplingPlan { min_sample_ms: 1.0, ..plan(10, 10, 100.0) };
    let m = measure(vec![Scripted::new("a", vec![0.004])], &plan).remove(0);
    // Calibration: one call gives 0.004 ms; the batch grows until a sample lasts 1 ms.
    assert!(m.batch as f64 * 0.004 >= 1.0, "batch {}", m.batch);
    assert!(m.batch as f64 * 0.004 < 1.0 * 1.25 * 2.0, "batch {} overshoots", m.batch);
    for t in &m.kernel_ms {
        assert!((t - 0.004).abs() < 1e-12, "per-call time {t}");
    }
    // Wall time is per call too: far below the 1 ms of a batch.
    assert!(m.wall_ms.iter().all(|&w| w < 0.5), "{:?}", m.wall_ms);
}

#[test]
fn cold_caches_are_evicted_before_every_sample_of_one_call() {
    let cold = Scripted::new("a", vec![1.0]);
    let evictions = cold.evictions.clone();
    let plan = SamplingPlan { warmup: 2, min_sample_ms: 1.0, cold_cache: true, ..plan(5, 5, 100.0) };
    let m = measure(vec![cold], &plan).remove(0);
    assert_eq!((m.kernel_ms.len(), m.batch), (5, 1));
    assert_eq!(evictions.load(Ordering::Relaxed), 5, "one eviction per timed sample, none for warm-up");
}

#[test]
fn contenders_take_one_sample_per_round_in_a_shuffled_order() {
    let log: Arc<Mutex<Vec<String>>> = Arc::default();
    let contenders: Vec<Scripted> = ["a", "b", "c"]
        .iter()
        .map(|name| {
            let mut s = Scripted::new(name, vec![1.0, 2.0]);
            s.log = log.clone();
            s
        })
        .collect();
    let ms = measure(contenders, &plan(30, 30, 100.0));
    let log = log.lock().unwrap();
    assert_eq!(log.len(), 90);
    let rounds: Vec<&[String]> = log.chunks(3).collect();
    for round in &rounds {
        let mut names: Vec<&str> = round.iter().map(String::as_str).collect();
        names.sort();
        assert_eq!(names, ["a", "b", "c"], "every contender once per round");
    }
    let firsts: std::collections::HashSet<&str> = rounds.iter().map(|r| r[0].as_str()).collect();
    assert_eq!(firsts.len(), 3, "the order changes from round to round");
    for m in &ms {
        assert_eq!(m.rounds, (0..30).collect::<Vec<u32>>());
    }
}

#[test]
fn each_sample_is_followed_by_its_contenders_settle_outside_the_samples_time() {
    let log: Arc<Mutex<Vec<String>>> = Arc::default();
    let contenders: Vec<Scripted> = [("spins", 3), ("quiet", 0)]
        .iter()
        .map(|&(name, settle_ms)| {
            let mut s = Scripted::new(name, vec![1.0]);
            (s.settle, s.log_settles, s.log) = (Duration::from_millis(settle_ms), true, log.clone());
            s
        })
        .collect();
    let ms = measure(contenders, &plan(5, 5, 100.0));
    let log = log.lock().unwrap();
    // Each prepared contender settles before the rounds, then after every sample of its own.
    assert_eq!(log.len(), 2 + 2 * 10);
    for pair in log[2..].chunks(2) {
        assert_eq!(pair[1], format!("{} settles", pair[0]), "{log:?}");
    }
    assert!(ms[0].settle_ms >= 6.0 * 3.0, "the waits are recorded: {}", ms[0].settle_ms);
    assert!(ms[0].spent_s < 0.015, "and are no part of the samples' time: {} s", ms[0].spent_s);
    assert_eq!(ms[1].settle_ms, 0.0);
}

#[test]
fn a_contender_that_stops_early_leaves_the_others_sampling() {
    let steady = Scripted::new("steady", vec![1.0]);
    let noisy = Scripted::new("noisy", vec![1.0, 2.0]);
    let ms = measure(vec![steady, noisy], &plan(10, 40, 100.0));
    assert_eq!((ms[0].kernel_ms.len(), ms[0].stop), (10, StopReason::Target));
    assert_eq!((ms[1].kernel_ms.len(), ms[1].stop), (40, StopReason::MaxSamples));
    assert_eq!(ms[1].rounds.last(), Some(&39));
}

#[test]
fn warm_up_stops_once_it_has_taken_the_time_budget() {
    let mut slow = Scripted::new("a", vec![1.0]);
    slow.sleep = Duration::from_millis(30);
    let plan = SamplingPlan { warmup: 5, ..plan(3, 3, 0.05) };
    let m = measure(vec![slow], &plan).remove(0);
    assert_eq!(m.warmup, 2, "30 ms calls pass the 50 ms budget on the second");
    let m = measure(vec![Scripted::new("a", vec![1.0])], &SamplingPlan { warmup: 5, ..plan }).remove(0);
    assert_eq!(m.warmup, 5, "fast calls warm up as often as asked");
}
