//! The protocol's failure cases, on a worker that misbehaves on purpose (tests/fake_worker.py):
//! each gives a clear device error for its own cell, and every other peer goes on, in a fresh
//! worker where the old one had to go.

use dspbench_conformance::device_ready;
use dspbench_core::{generate_input, Algorithm, Availability, Backend, Error, Params, PlanRequest, Problem};
use dspbench_peers::{PeersBackend, WorkerCommand};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The problem the fake worker misbehaves on, and one it serves correctly.
const AWKWARD: Problem = Problem::Conv1d { n: 13, m: 3 };
const FINE: Problem = Problem::Conv1d { n: 16, m: 3 };

struct Fake {
    backend: PeersBackend,
    starts: PathBuf,
    _dir: tempfile::TempDir,
}

impl Fake {
    /// A backend on the fake worker in `mode`, or `None` (with the reason printed) where no
    /// Python with NumPy is found, unless `DSPBENCH_REQUIRE` names the peers.
    fn new(mode: &str, limit: Duration) -> Option<Fake> {
        if !device_ready(&PeersBackend::default()) {
            return None;
        }
        let dir = tempfile::tempdir().unwrap();
        let starts = dir.path().join("starts");
        let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fake_worker.py");
        let python = std::env::var(dspbench_peers::PYTHON_VAR).unwrap_or_else(|_| "python3".into());
        let command = WorkerCommand {
            program: python.into(),
            args: vec!["-B".into(), script.display().to_string(), mode.into(), starts.display().to_string()],
        };
        Some(Fake { backend: PeersBackend::with_worker(command, limit), starts, _dir: dir })
    }

    fn uploaded(&self, problem: Problem) -> Box<dyn Algorithm> {
        let tunables = Params::new();
        let request = PlanRequest { problem, variant: "numpy-convolve", tunables: &tunables, device: 0 };
        let mut algorithm = self.backend.plan(&request).unwrap();
        algorithm.upload(&generate_input(&problem, 1)).unwrap();
        algorithm
    }

    fn workers_started(&self) -> usize {
        std::fs::read_to_string(&self.starts).map(|s| s.lines().count()).unwrap_or(0)
    }
}

fn assert_verified(algorithm: &mut dyn Algorithm, problem: Problem) {
    algorithm.run_batch(3).expect("the other peer runs on");
    let (output, _) = algorithm.download().unwrap();
    let check = dspbench_reference::verify(&generate_input(&problem, 1), &output);
    assert!(check.passed, "{}", check.summary());
}

fn device_error(result: Result<impl std::fmt::Debug, Error>) -> String {
    match result {
        Err(Error::Device(message)) => message,
        other => panic!("expected a device error, got {other:?}"),
    }
}

#[test]
fn a_crash_fails_its_cell_and_the_others_go_on_in_a_fresh_worker() {
    let Some(fake) = Fake::new("crash", Duration::from_secs(30)) else { return };
    let mut awkward = fake.uploaded(AWKWARD);
    let mut fine = fake.uploaded(FINE);
    fine.run().unwrap();
    let message = device_error(awkward.run());
    assert!(message.contains("peer `numpy-convolve`"), "{message}");
    assert!(message.contains("died") && message.contains("exit status: 3"), "{message}");
    assert!(message.contains("fake worker: boom"), "the worker's last words: {message}");
    // The other peer is rebuilt (plan, upload, one run) in a fresh worker before its next call.
    assert_verified(fine.as_mut(), FINE);
    assert_eq!(fake.workers_started(), 2);
    let mut later = fake.uploaded(FINE);
    assert_verified(later.as_mut(), FINE);
    assert_eq!(fake.workers_started(), 2, "the fresh worker serves later cells");
}

#[test]
fn each_pass_of_a_run_gets_a_fresh_worker() {
    let Some(fake) = Fake::new("wrong-shape", Duration::from_secs(30)) else { return };
    let mut first = fake.uploaded(FINE);
    assert_verified(first.as_mut(), FINE);
    drop(first);
    assert_eq!(fake.workers_started(), 1);
    fake.backend.start_pass(1);
    let mut second = fake.uploaded(FINE);
    assert_verified(second.as_mut(), FINE);
    assert_eq!(fake.workers_started(), 2, "pass 2's plans went to a new worker");
}

#[test]
fn a_hang_past_the_time_limit_is_cut_short() {
    let Some(fake) = Fake::new("hang", Duration::from_millis(1500)) else { return };
    let mut awkward = fake.uploaded(AWKWARD);
    let mut fine = fake.uploaded(FINE);
    let start = Instant::now();
    let message = device_error(awkward.run_batch(2));
    assert!(start.elapsed() < Duration::from_secs(20), "waited {:?}", start.elapsed());
    assert!(message.contains("did not answer within 1.5 s"), "{message}");
    assert_verified(fine.as_mut(), FINE);
    assert_eq!(fake.workers_started(), 2);
}

#[test]
fn a_reply_out_of_protocol_ends_the_worker() {
    let Some(fake) = Fake::new("garbage", Duration::from_secs(30)) else { return };
    let mut awkward = fake.uploaded(AWKWARD);
    let mut fine = fake.uploaded(FINE);
    let message = device_error(awkward.run());
    assert!(message.contains("not a reply") && message.contains("this is not json"), "{message}");
    assert_verified(fine.as_mut(), FINE);
    assert_eq!(fake.workers_started(), 2);
}

#[test]
fn an_output_of_the_wrong_shape_is_refused_and_the_worker_kept() {
    let Some(fake) = Fake::new("wrong-shape", Duration::from_secs(30)) else { return };
    let mut awkward = fake.uploaded(AWKWARD);
    let mut fine = fake.uploaded(FINE);
    awkward.run().unwrap();
    let message = device_error(awkward.download());
    assert!(message.contains("shape [14], expected [15]"), "{message}");
    assert_verified(fine.as_mut(), FINE);
    assert_eq!(fake.workers_started(), 1, "a well-formed reply with a bad array leaves the worker in step");
}

#[test]
fn a_failing_peer_is_one_failed_record_of_its_round_and_the_rest_are_verified() {
    let Some(fake) = Fake::new("crash", Duration::from_secs(30)) else { return };
    let input = generate_input(&AWKWARD, 5);
    let tunables = Params::new();
    let record = |variant: &str| {
        dspbench_runner::new_record("test", AWKWARD.workload(), "peers", variant, None, AWKWARD.to_params())
    };
    let scalar = dspbench_scalar::ScalarBackend;
    let cells = vec![
        dspbench_runner::Cell {
            backend: &fake.backend,
            request: PlanRequest { problem: AWKWARD, variant: "numpy-convolve", tunables: &tunables, device: 0 },
            record: record("numpy-convolve"),
            custom: None,
        },
        dspbench_runner::Cell {
            backend: &scalar,
            request: PlanRequest { problem: AWKWARD, variant: "direct", tunables: &tunables, device: 0 },
            record: record("direct"),
            custom: None,
        },
    ];
    let plan = dspbench_runner::SamplingPlan {
        warmup: 0,
        rule: dspbench_stats::StoppingRule {
            min_samples: 3,
            max_samples: 3,
            time_budget_s: 1.0,
            target_rel_half_width: 0.5,
        },
        min_sample_ms: 0.0,
        cold_cache: false,
    };
    let group = dspbench_runner::Group { index: 0, seed: 1, plan, input: &input, first_round: 0 };
    let records = dspbench_runner::measure_group(
        cells,
        &group,
        &mut dspbench_runner::HostEvictor::default(),
        &mut dspbench_runner::SilentObserver,
    );
    let (peer, _) = &records[0];
    assert_eq!(peer.status.name(), "failed");
    assert!(peer.reason.as_deref().unwrap_or("").contains("fake worker: boom"), "{:?}", peer.reason);
    let (ours, _) = &records[1];
    assert_eq!(ours.status.name(), "ok", "{:?}", ours.reason);
}

#[test]
fn no_interpreter_is_unavailable_with_the_reason() {
    let backend = PeersBackend::with_python("/nonexistent/python3", Duration::from_secs(5));
    match backend.availability() {
        Availability::Unavailable { reason } => assert!(reason.contains("/nonexistent/python3"), "{reason}"),
        ready => panic!("expected unavailable, got {ready:?}"),
    }
    let tunables = Params::new();
    let request = PlanRequest { problem: FINE, variant: "numpy-convolve", tunables: &tunables, device: 0 };
    assert!(matches!(backend.plan(&request), Err(Error::Device(m)) if m.contains("unavailable")));
}
