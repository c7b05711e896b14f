//! The runner against a fake backend whose variants succeed, compute wrongly, fail on the device,
//! or refuse: every outcome is recorded and the run goes on.

use dspbench_core::{
    Algorithm, AlgorithmId, Availability, Backend, CopyOfBytes, DeviceInfo, Domain, Error, ExecInfo, Input, Output,
    PlanRequest, RunTime, Transfer, VariantInfo, Workload,
};
use dspbench_results::{read_records, ResultsDir, Status};
use dspbench_runner::{run_scenario, DeviceFilter, RunOptions, SilentObserver};
use dspbench_scenario::{parse, Catalog, CatalogBackend};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

const NAMES: [&str; 4] = ["good", "wrong", "broken", "picky"];

fn variant(name: &'static str) -> VariantInfo {
    VariantInfo { workload: Workload::Conv1d, name, summary: "fake", tunables: &[], domain: Domain::Any }
}

struct Fake {
    name: &'static str,
    ready: bool,
}

impl Backend for Fake {
    fn name(&self) -> &'static str {
        self.name
    }
    fn availability(&self) -> Availability {
        if self.ready {
            Availability::Ready {
                devices: vec![DeviceInfo { index: 0, name: "fake0".into(), details: Default::default() }],
            }
        } else {
            Availability::Unavailable { reason: "no fake driver".into() }
        }
    }
    fn variants(&self) -> Vec<VariantInfo> {
        NAMES.map(variant).to_vec()
    }
    fn copy_of_bytes(&self, _device: usize, bytes: usize) -> Option<Result<CopyOfBytes, Error>> {
        Some(Ok(CopyOfBytes { bytes: bytes as u64, gbps: 1.0, gbps_low: None, gbps_high: None, method: "fake".into() }))
    }
    fn plan(&self, request: &PlanRequest<'_>) -> Result<Box<dyn Algorithm>, Error> {
        if request.variant == "picky" {
            return Err(Error::unsupported("picky refuses everything"));
        }
        let id = AlgorithmId {
            workload: Workload::Conv1d,
            variant: request.variant.into(),
            backend: self.name.into(),
            device: "fake0".into(),
        };
        Ok(Box::new(FakeAlgorithm { id, input: None, output: None, evictions: Arc::new(AtomicUsize::new(0)) }))
    }
}

struct FakeAlgorithm {
    id: AlgorithmId,
    input: Option<(Vec<f32>, Vec<f32>)>,
    output: Option<Vec<f32>>,
    evictions: Arc<AtomicUsize>,
}

impl Algorithm for FakeAlgorithm {
    fn id(&self) -> &AlgorithmId {
        &self.id
    }
    fn exec_info(&self) -> ExecInfo {
        ExecInfo::default()
    }
    fn upload(&mut self, input: &Input) -> Result<Transfer, Error> {
        let Input::Conv1d { signal, filter } = input else { return Err(Error::input("conv1d only")) };
        self.input = Some((signal.clone(), filter.clone()));
        Ok(Transfer::default())
    }
    fn run(&mut self) -> Result<RunTime, Error> {
        let (x, h) = self.input.as_ref().expect("uploaded");
        let mut y = vec![0.0f32; x.len() + h.len() - 1];
        match self.id.variant.as_str() {
            "broken" => return Err(Error::device("the fake device fell over")),
            "wrong" => {}
            _ => {
                for (i, xi) in x.iter().enumerate() {
                    for (k, hk) in h.iter().enumerate() {
                        y[i + k] += xi * hk;
                    }
                }
            }
        }
        self.output = Some(y);
        Ok(RunTime { device_ms: None })
    }
    fn download(&mut self) -> Result<(Output, Transfer), Error> {
        Ok((Output::F32(self.output.clone().expect("ran")), Transfer::default()))
    }
    fn evict_device_caches(&mut self) -> Result<(), Error> {
        self.evictions.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }
}

fn catalog(backends: &[&Fake]) -> Catalog {
    Catalog {
        backends: backends
            .iter()
            .map(|b| CatalogBackend { name: b.name.into(), variants: b.variants(), by_default: true })
            .collect(),
        memory_bytes: u64::MAX,
    }
}

#[test]
fn every_outcome_is_recorded_and_the_run_goes_on() {
    let ready = Fake { name: "fake", ready: true };
    let absent = Fake { name: "absent", ready: false };
    let yaml = "name: t\nseed: 3\nwarmup: 1\nrepetitions: 4\nexperiments:\n  - workload: conv1d\n    params: { n: [50, 60], m: 5 }\n";
    let scenario = parse(yaml, Path::new("t.yaml"), &catalog(&[&ready, &absent])).unwrap();
    let probed: Vec<(&dyn Backend, Availability)> =
        vec![(&ready, ready.availability()), (&absent, absent.availability())];
    let dir = tempfile::tempdir().unwrap();
    let mut out = ResultsDir::create(dir.path()).unwrap();
    let summary = run_scenario(&scenario, &probed, &RunOptions::default(), &mut out, &mut SilentObserver).unwrap();

    let records = read_records(&dir.path().join("results.jsonl")).unwrap();
    let status_of = |variant: &str| -> Vec<Status> {
        records.iter().filter(|r| r.variant == variant && r.backend == "fake").map(|r| r.status).collect()
    };
    assert_eq!(status_of("good"), vec![Status::Ok, Status::Ok]);
    assert_eq!(status_of("wrong"), vec![Status::Mismatch, Status::Mismatch]);
    assert_eq!(status_of("broken"), vec![Status::Failed, Status::Failed]);
    assert_eq!(status_of("picky"), vec![Status::Skipped, Status::Skipped]);
    let unavailable: Vec<_> = records.iter().filter(|r| r.backend == "absent").collect();
    assert_eq!(unavailable.len(), 1);
    assert_eq!(unavailable[0].status, Status::Unavailable);
    assert_eq!(unavailable[0].reason.as_deref(), Some("no fake driver"));

    let broken = records.iter().find(|r| r.variant == "broken").unwrap();
    assert!(broken.reason.as_deref().unwrap().contains("fell over"));
    let wrong = records.iter().find(|r| r.variant == "wrong").unwrap();
    assert!(!wrong.verified && wrong.verification.as_ref().unwrap().first_mismatch.is_some());
    let good = records.iter().find(|r| r.variant == "good").unwrap();
    assert_eq!((good.samples, good.warmup, good.rounds.len()), (4, 4, 4), "one warm-up call in each of 4 passes");
    let sampling = good.sampling.clone().expect("sampling recorded");
    assert_eq!(sampling.rule.max_samples, 4);
    let other = records.iter().find(|r| r.variant == "wrong").unwrap();
    assert_eq!(other.sampling.as_ref().unwrap().round_seed, sampling.round_seed, "one problem, one round order");
    assert_eq!(good.kernel_clock.as_deref(), Some("wall"));
    assert!(good.transfer_ms.is_none(), "no device copy on a host backend");
    assert_eq!(summary.problems.len(), 4, "{:?}", summary.problems);
    assert!(!summary.all_verified());
    // Measured cells carry the copy of half their bytes; the others none.
    for r in records.iter().filter(|r| r.backend == "fake") {
        let copied = r.copy_of_bytes.as_ref().map(|c| c.bytes);
        let expected = (r.status == Status::Ok).then(|| (r.bytes / 2.0).round() as u64);
        assert_eq!(copied, expected, "{} {:?}", r.variant, r.status);
    }
}

#[test]
fn cold_cache_cells_carry_no_copy_of_their_bytes() {
    let ready = Fake { name: "fake", ready: true };
    let yaml =
        "name: t\nseed: 3\ncache: cold\nmax_samples: 3\nexperiments:\n  - workload: conv1d\n    variants: [good]\n    \
                params: { n: 50, m: 5 }\n";
    let scenario = parse(yaml, Path::new("t.yaml"), &catalog(&[&ready])).unwrap();
    let probed: Vec<(&dyn Backend, Availability)> = vec![(&ready, ready.availability())];
    let dir = tempfile::tempdir().unwrap();
    let mut out = ResultsDir::create(dir.path()).unwrap();
    run_scenario(&scenario, &probed, &RunOptions::default(), &mut out, &mut SilentObserver).unwrap();
    let records = read_records(&dir.path().join("results.jsonl")).unwrap();
    assert_eq!(records.len(), 1);
    assert_eq!(records[0].status, Status::Ok);
    assert!(records[0].copy_of_bytes.is_none(), "{:?}", records[0].copy_of_bytes);
}

#[test]
fn backends_and_devices_can_be_restricted_from_the_command_line() {
    let ready = Fake { name: "fake", ready: true };
    let yaml =
        "name: t\nseed: 3\nexperiments:\n  - workload: conv1d\n    variants: [good]\n    params: { n: 10, m: 2 }\n";
    let scenario = parse(yaml, Path::new("t.yaml"), &catalog(&[&ready])).unwrap();
    let probed: Vec<(&dyn Backend, Availability)> = vec![(&ready, ready.availability())];
    let device = |spec: &str| DeviceFilter::parse(spec, &["fake", "other"]).unwrap();
    for (options, expected) in [
        (RunOptions { backends: Some(vec!["other".into()]), ..RunOptions::default() }, 0),
        (RunOptions { device: device("nonesuch"), ..RunOptions::default() }, 0),
        (RunOptions { device: device("fake"), ..RunOptions::default() }, 1),
        (RunOptions { device: device("0"), ..RunOptions::default() }, 1),
        (RunOptions { device: device("other=nonesuch"), ..RunOptions::default() }, 1),
        (RunOptions { device: device("fake=nonesuch,0"), ..RunOptions::default() }, 0),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let mut out = ResultsDir::create(dir.path()).unwrap();
        run_scenario(&scenario, &probed, &options, &mut out, &mut SilentObserver).unwrap();
        assert_eq!(read_records(&dir.path().join("results.jsonl")).unwrap().len(), expected, "{options:?}");
    }
}

#[test]
fn shards_together_run_every_cell_exactly_once() {
    let ready = Fake { name: "fake", ready: true };
    let absent = Fake { name: "absent", ready: false };
    let yaml = "name: t\nseed: 3\nwarmup: 0\nmax_samples: 2\nexperiments:\n  - workload: conv1d\n    variants: [good, wrong]\n    \
                params: { n: [50, 60, 70], m: [3, 5] }\n  - workload: conv1d\n    variants: [good]\n    params: { n: 40, m: 2 }\n";
    let scenario = parse(yaml, Path::new("t.yaml"), &catalog(&[&ready, &absent])).unwrap();
    let probed: Vec<(&dyn Backend, Availability)> =
        vec![(&ready, ready.availability()), (&absent, absent.availability())];
    let cells = |shard: Option<dspbench_runner::Shard>| {
        let dir = tempfile::tempdir().unwrap();
        let mut out = ResultsDir::create(dir.path()).unwrap();
        let options = RunOptions { shard, ..RunOptions::default() };
        run_scenario(&scenario, &probed, &options, &mut out, &mut SilentObserver).unwrap();
        let mut keys: Vec<String> = read_records(&dir.path().join("results.jsonl"))
            .unwrap()
            .iter()
            .map(|r| format!("{} {} {} {}", r.experiment, r.backend, r.variant, r.params_text()))
            .collect();
        keys.sort();
        keys
    };
    let whole = cells(None);
    assert_eq!(whole.len(), 6 * 2 + 1 + 2, "12 + 1 cells and one unavailable record per experiment");
    for n in [2, 3, 7] {
        let mut union = Vec::new();
        for k in 1..=n {
            let part = cells(Some(format!("{k}/{n}").parse().unwrap()));
            union.extend(part);
        }
        union.sort();
        assert_eq!(union, whole, "{n} shards");
    }
    for bad in ["0/2", "3/2", "1", "a/b", "1/0"] {
        assert!(bad.parse::<dspbench_runner::Shard>().is_err(), "{bad}");
    }
}

#[test]
fn two_cards_of_one_model_get_names_of_their_own() {
    let card = |index: usize, name: &str| DeviceInfo { index, name: name.into(), details: Default::default() };
    let node = [card(0, "NVIDIA H200"), card(1, "NVIDIA H200"), card(2, "NVIDIA H100")];
    let names: Vec<String> = node.iter().map(|d| dspbench_runner::device_name(d, &node)).collect();
    assert_eq!(names, ["NVIDIA H200 #0", "NVIDIA H200 #1", "NVIDIA H100"]);
}

/// Records the problems' start labels, in order.
#[derive(Default)]
struct Labels(Vec<String>);

impl dspbench_runner::Observer for Labels {
    fn cell_started(&mut self, label: &str) {
        self.0.push(label.to_string());
    }
}

#[test]
fn passes_sweep_the_whole_scenario_in_turn_and_one_record_holds_them_all() {
    let ready = Fake { name: "fake", ready: true };
    let yaml = "name: t\nseed: 3\nwarmup: 0\nmin_samples: 6\nmax_samples: 6\npasses: 3\nexperiments:\n  - workload: conv1d\n    variants: [good]\n    params: { n: [50, 60], m: 5 }\n";
    let scenario = parse(yaml, Path::new("t.yaml"), &catalog(&[&ready])).unwrap();
    let probed: Vec<(&dyn Backend, Availability)> = vec![(&ready, ready.availability())];
    let dir = tempfile::tempdir().unwrap();
    let mut out = ResultsDir::create(dir.path()).unwrap();
    let mut labels = Labels::default();
    let summary = run_scenario(&scenario, &probed, &RunOptions::default(), &mut out, &mut labels).unwrap();

    // Pass 1 of both problems, then pass 2 of both, then pass 3.
    let passes: Vec<&str> = labels.0.iter().map(|l| &l[l.find("pass ").expect("labelled with its pass")..]).collect();
    assert_eq!(passes, ["pass 1 of 3", "pass 1 of 3", "pass 2 of 3", "pass 2 of 3", "pass 3 of 3", "pass 3 of 3"]);
    assert!(labels.0[0].contains("n=50") && labels.0[1].contains("n=60"), "{:?}", labels.0);
    // A record per cell per pass in the file; read back, one per cell with every pass.
    let lines = std::fs::read_to_string(dir.path().join("results.jsonl")).unwrap();
    assert_eq!(lines.lines().count(), 6);
    let csv = std::fs::read_to_string(dir.path().join("results.csv")).unwrap();
    assert_eq!(csv.lines().count(), 3, "one CSV row per cell, after its last pass");
    let records = read_records(&dir.path().join("results.jsonl")).unwrap();
    assert_eq!(records.len(), 2);
    for r in &records {
        assert_eq!((r.status, r.samples, r.kernel_ms.unwrap().n), (Status::Ok, 6, 6));
        assert_eq!(r.passes, vec![0, 0, 1, 1, 2, 2]);
        assert!(r.rounds.windows(2).all(|w| w[0] < w[1]), "rounds go on through the passes: {:?}", r.rounds);
        let s = r.sampling.as_ref().unwrap();
        assert_eq!((s.passes, s.pass, s.pass_stops.len(), s.pass_canary_ms.len()), (3, 2, 3, 3));
        assert_eq!((s.rule.min_samples, s.rule.max_samples), (6, 6), "the record names the whole run's rule");
    }
    assert!(summary.all_verified());
    assert_eq!(summary.counts.get("ok"), Some(&2), "each cell counted once: {:?}", summary.counts);
}

#[test]
fn passes_run_one_at_a_time_go_on_from_the_records_of_the_earlier_ones() {
    // What `dspbench run` does with a process per pass: each pass opens the results folder
    // again, with a backend of its own, and finds the earlier passes only in the records.
    let yaml = "name: t\nseed: 3\nwarmup: 0\nmin_samples: 6\nmax_samples: 6\npasses: 3\nexperiments:\n  - workload: conv1d\n    variants: [good, wrong]\n    params: { n: [50, 60], m: 5 }\n";
    let dir = tempfile::tempdir().unwrap();
    let mut labels = Labels::default();
    for pass in 0..3 {
        let ready = Fake { name: "fake", ready: true };
        let scenario = parse(yaml, Path::new("t.yaml"), &catalog(&[&ready])).unwrap();
        let probed: Vec<(&dyn Backend, Availability)> = vec![(&ready, ready.availability())];
        let mut out = match pass {
            0 => ResultsDir::create(dir.path()).unwrap(),
            _ => ResultsDir::open(dir.path()).unwrap(),
        };
        let options = RunOptions { only_pass: Some(pass), ..RunOptions::default() };
        run_scenario(&scenario, &probed, &options, &mut out, &mut labels).unwrap();
    }
    assert_eq!(labels.0.len(), 6, "each problem once a pass: {:?}", labels.0);
    assert!(labels.0[4].ends_with("pass 3 of 3"), "{:?}", labels.0);
    let csv = std::fs::read_to_string(dir.path().join("results.csv")).unwrap();
    assert_eq!(csv.lines().count(), 5, "one header, one row per cell after its last pass");
    let records = read_records(&dir.path().join("results.jsonl")).unwrap();
    assert_eq!(records.len(), 4);
    for r in &records {
        assert_eq!((r.samples, r.kernel_ms.unwrap().n, r.wall_ms.unwrap().n), (6, 6, 6), "{}", r.variant);
        assert_eq!(r.passes, vec![0, 0, 1, 1, 2, 2]);
        assert!(r.rounds.windows(2).all(|w| w[0] < w[1]), "rounds go on through the passes: {:?}", r.rounds);
        assert!(r.pass_wall_ms.is_empty(), "a cell's final record keeps only the summary of its wall times");
        let s = r.sampling.as_ref().unwrap();
        assert_eq!((s.passes, s.pass, s.pass_stops.len(), s.pass_processes), (3, 2, 3, true));
    }
    let wrong = records.iter().find(|r| r.variant == "wrong").unwrap();
    assert_eq!(wrong.status, Status::Mismatch);
    let summary = dspbench_runner::RunSummary::of(&records);
    assert_eq!((summary.counts.get("ok"), summary.problems.len()), (Some(&2), 2), "{summary:?}");
}

#[test]
fn a_cell_whose_earlier_pass_was_lost_starts_afresh_in_the_next() {
    let yaml = "name: t\nseed: 3\nwarmup: 0\nmin_samples: 4\nmax_samples: 4\npasses: 2\nexperiments:\n  - workload: conv1d\n    variants: [good]\n    params: { n: [50, 60], m: 5 }\n";
    let ready = Fake { name: "fake", ready: true };
    let scenario = parse(yaml, Path::new("t.yaml"), &catalog(&[&ready])).unwrap();
    let probed: Vec<(&dyn Backend, Availability)> = vec![(&ready, ready.availability())];
    let dir = tempfile::tempdir().unwrap();
    let first = RunOptions { only_pass: Some(0), ..RunOptions::default() };
    run_scenario(&scenario, &probed, &first, &mut ResultsDir::create(dir.path()).unwrap(), &mut SilentObserver)
        .unwrap();
    // The first pass's process died after its first problem: its second record is gone.
    let path = dir.path().join("results.jsonl");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.lines().next().unwrap().to_string() + "\n").unwrap();
    let second = RunOptions { only_pass: Some(1), ..RunOptions::default() };
    run_scenario(&scenario, &probed, &second, &mut ResultsDir::open(dir.path()).unwrap(), &mut SilentObserver).unwrap();
    let records = read_records(&path).unwrap();
    let passes: Vec<(String, Vec<u32>)> = records.iter().map(|r| (r.params_text(), r.passes.clone())).collect();
    assert_eq!(passes, [("m=5 n=50".to_string(), vec![0, 0, 1, 1]), ("m=5 n=60".to_string(), vec![1, 1])]);
}

/// A backend whose device goes away after its first plan.
struct Flaky {
    inner: Fake,
    plans: AtomicUsize,
}

impl Backend for Flaky {
    fn name(&self) -> &'static str {
        self.inner.name
    }
    fn availability(&self) -> Availability {
        self.inner.availability()
    }
    fn variants(&self) -> Vec<VariantInfo> {
        vec![variant("good")]
    }
    fn plan(&self, request: &PlanRequest<'_>) -> Result<Box<dyn Algorithm>, Error> {
        if self.plans.fetch_add(1, Ordering::Relaxed) == 0 {
            self.inner.plan(request)
        } else {
            Err(Error::device("lost the device"))
        }
    }
}

#[test]
fn a_cell_that_fails_in_a_later_pass_says_which_and_sits_out_the_rest() {
    let flaky = Flaky { inner: Fake { name: "fake", ready: true }, plans: AtomicUsize::new(0) };
    let yaml = "name: t\nseed: 3\nwarmup: 0\nmin_samples: 6\nmax_samples: 6\npasses: 3\nexperiments:\n  - workload: conv1d\n    params: { n: 50, m: 5 }\n";
    let scenario = parse(yaml, Path::new("t.yaml"), &catalog(&[&flaky.inner])).unwrap();
    let probed: Vec<(&dyn Backend, Availability)> = vec![(&flaky, flaky.availability())];
    let dir = tempfile::tempdir().unwrap();
    let mut out = ResultsDir::create(dir.path()).unwrap();
    let summary = run_scenario(&scenario, &probed, &RunOptions::default(), &mut out, &mut SilentObserver).unwrap();
    let records = read_records(&dir.path().join("results.jsonl")).unwrap();
    assert_eq!(records.len(), 1);
    assert_eq!(records[0].status, Status::Failed);
    assert!(records[0].reason.as_deref().unwrap().starts_with("pass 2 of 3: "), "{:?}", records[0].reason);
    assert_eq!(records[0].samples, 2, "the first pass's samples are kept");
    assert_eq!(flaky.plans.load(Ordering::Relaxed), 2, "not planned again in pass 3");
    assert_eq!(summary.problems.len(), 1);
}
