use crate::measure::{measure, Measurement, SamplingPlan};
use crate::now_rfc3339;
use dspbench_core::{generate_input, Availability, Backend, Error, Input, Output, PlanRequest, Problem};
use dspbench_reference::Verification;
use dspbench_results::{
    Record, ResultsDir, ResultsError, Status, Summary, TransferMs, VerificationInfo, SCHEMA_VERSION,
};
use dspbench_scenario::{CacheMode, Experiment, Scenario};
use std::collections::BTreeMap;
use std::time::Instant;

/// Choices made on the command line rather than in the scenario.
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    /// Restricts every experiment to these backends (`--backends`).
    pub backends: Option<Vec<String>>,
    /// Restricts every backend to devices whose index equals this or whose name contains it (`--device`).
    pub device: Option<String>,
}

impl RunOptions {
    fn wants_device(&self, device: &dspbench_core::DeviceInfo) -> bool {
        self.device.as_deref().is_none_or(|spec| spec == device.index.to_string() || device.name.contains(spec))
    }
}

/// Follows a run as it goes (a progress bar, log lines, a test's counter).
pub trait Observer {
    fn start(&mut self, _total_cells: usize) {}
    fn cell_started(&mut self, _label: &str) {}
    fn cell_finished(&mut self, _record: &Record) {}
}

/// An observer that shows nothing.
pub struct SilentObserver;
impl Observer for SilentObserver {}

/// How a run went, for the closing line and the exit code.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunSummary {
    pub counts: BTreeMap<&'static str, usize>,
    /// One line per mismatched or failed cell.
    pub problems: Vec<String>,
}

impl RunSummary {
    fn add(&mut self, record: &Record) {
        *self.counts.entry(record.status.name()).or_default() += 1;
        if matches!(record.status, Status::Mismatch | Status::Failed) {
            self.problems.push(format!(
                "{} {} {} {} [{}]: {}",
                record.status.name(),
                record.workload,
                record.variant,
                record.backend,
                record.params_text(),
                record.reason.as_deref().unwrap_or("")
            ));
        }
    }

    /// True when every cell that ran was verified.
    pub fn all_verified(&self) -> bool {
        self.problems.is_empty()
    }
}

/// One (backend, device, variant) that will run every cell of an experiment.
struct Lane<'a> {
    backend: &'a dyn Backend,
    device: usize,
    device_name: String,
    variant: &'static str,
}

/// Runs every experiment of `scenario`, appending one record per cell to `out` as it finishes.
/// Device and compile failures become `failed` records and the run goes on; only a failure to
/// write results stops it.
pub fn run_scenario(
    scenario: &Scenario,
    probed: &[(&dyn Backend, Availability)],
    options: &RunOptions,
    out: &mut ResultsDir,
    observer: &mut dyn Observer,
) -> Result<RunSummary, ResultsError> {
    let mut summary = RunSummary::default();
    let sampling = SamplingPlan {
        warmup: scenario.warmup,
        repetitions: scenario.repetitions,
        time_budget_s: scenario.time_budget_s,
        cold_cache: scenario.cache == CacheMode::Cold,
    };
    let plans: Vec<ExperimentPlan> = scenario.experiments.iter().map(|e| lanes(scenario, e, probed, options)).collect();
    observer.start(plans.iter().map(|p| p.experiment.cells.len() * p.lanes.len()).sum());

    for ExperimentPlan { experiment, lanes, unavailable } in &plans {
        for (backend, reason) in unavailable {
            let mut record = blank_record(scenario, experiment, backend, "*", None, Default::default());
            record.status = Status::Unavailable;
            record.reason = Some(reason.clone());
            out.append(&record)?;
            observer.cell_finished(&record);
            summary.add(&record);
        }
        for params in &experiment.cells {
            let problem = Problem::from_params(experiment.workload, params)
                .expect("scenario validation accepted these parameters");
            let input = generate_input(&problem, scenario.seed);
            let tunables = params.without(experiment.workload.param_names());
            for lane in lanes {
                observer.cell_started(&format!(
                    "{} {} {} [{}]",
                    experiment.workload,
                    lane.variant,
                    lane.backend.name(),
                    params
                ));
                let mut record = blank_record(
                    scenario,
                    experiment,
                    lane.backend.name(),
                    lane.variant,
                    Some(&lane.device_name),
                    params.clone(),
                );
                let request = PlanRequest { problem, variant: lane.variant, tunables: &tunables, device: lane.device };
                execute_cell(lane.backend, &request, &input, sampling, &mut record);
                out.append(&record)?;
                observer.cell_finished(&record);
                summary.add(&record);
            }
        }
    }
    Ok(summary)
}

/// An experiment's lanes, and the selected backends that cannot run here (name, why).
struct ExperimentPlan<'a> {
    experiment: &'a Experiment,
    lanes: Vec<Lane<'a>>,
    unavailable: Vec<(String, String)>,
}

fn lanes<'a>(
    scenario: &Scenario,
    experiment: &'a Experiment,
    probed: &'a [(&'a dyn Backend, Availability)],
    options: &RunOptions,
) -> ExperimentPlan<'a> {
    let selected = |name: &str| {
        let listed = experiment.backends.as_ref().or(scenario.backends.as_ref());
        listed.is_none_or(|l| l.iter().any(|b| b == name))
            && options.backends.as_ref().is_none_or(|l| l.iter().any(|b| b == name))
    };
    let mut lanes = Vec::new();
    let mut unavailable = Vec::new();
    for (backend, availability) in probed.iter().filter(|(b, _)| selected(b.name())) {
        let variants: Vec<&'static str> = backend
            .variants()
            .into_iter()
            .filter(|v| v.workload == experiment.workload)
            .filter(|v| experiment.variants.as_ref().is_none_or(|l| l.iter().any(|n| n == v.name)))
            .map(|v| v.name)
            .collect();
        if variants.is_empty() {
            continue;
        }
        match availability {
            Availability::Unavailable { reason } => unavailable.push((backend.name().to_string(), reason.clone())),
            Availability::Ready { devices } => {
                for device in devices.iter().filter(|d| options.wants_device(d)) {
                    for &variant in &variants {
                        lanes.push(Lane {
                            backend: *backend,
                            device: device.index,
                            device_name: device.name.clone(),
                            variant,
                        });
                    }
                }
            }
        }
    }
    ExperimentPlan { experiment, lanes, unavailable }
}

fn blank_record(
    scenario: &Scenario,
    experiment: &Experiment,
    backend: &str,
    variant: &str,
    device: Option<&str>,
    params: dspbench_core::Params,
) -> Record {
    let mut record = new_record(&scenario.name, experiment.workload, backend, variant, device, params);
    record.experiment = experiment.index;
    record.experiment_title = experiment.title.clone();
    record.seed = scenario.seed;
    record.warmup = scenario.warmup;
    record
}

/// A record with its identity filled in and nothing measured yet (status `skipped`).
pub fn new_record(
    scenario: &str,
    workload: dspbench_core::Workload,
    backend: &str,
    variant: &str,
    device: Option<&str>,
    params: dspbench_core::Params,
) -> Record {
    Record {
        schema: SCHEMA_VERSION,
        scenario: scenario.to_string(),
        experiment: 0,
        experiment_title: None,
        workload,
        variant: variant.to_string(),
        backend: backend.to_string(),
        device: device.map(str::to_string),
        params,
        status: Status::Skipped,
        reason: None,
        isa: None,
        threads: None,
        exec: BTreeMap::new(),
        seed: 0,
        warmup: 0,
        samples: 0,
        kernel_ms: None,
        kernel_clock: None,
        wall_ms: None,
        transfer_ms: None,
        plan_ms: None,
        verified: false,
        verification: None,
        max_abs_err: None,
        max_rel_err: None,
        flops: 0.0,
        bytes: 0.0,
        gflops: None,
        gbps: None,
        times_ms: Vec::new(),
        finished: String::new(),
    }
}

/// Plans, measures and verifies one cell into `record` (which names it already), and returns
/// the output of the last sample if there was one. Never fails: an error is the record's status.
pub fn execute_cell(
    backend: &dyn Backend,
    request: &PlanRequest<'_>,
    input: &Input,
    sampling: SamplingPlan,
    record: &mut Record,
) -> Option<Output> {
    record.flops = request.problem.flops();
    if sampling.cold_cache {
        record.exec.insert("cache".into(), "cold".into());
    }
    record.bytes = request.problem.bytes();
    record.warmup = sampling.warmup;
    let output = measure_cell(backend, request, input, sampling, record);
    record.finished = now_rfc3339();
    output
}

fn measure_cell(
    backend: &dyn Backend,
    request: &PlanRequest<'_>,
    input: &Input,
    sampling: SamplingPlan,
    record: &mut Record,
) -> Option<Output> {
    let fail = |record: &mut Record, error: Error| {
        record.status = match error {
            Error::Unsupported(_) => Status::Skipped,
            _ => Status::Failed,
        };
        record.reason = Some(error.to_string());
    };
    let planned = Instant::now();
    let mut algorithm = match backend.plan(request) {
        Ok(a) => a,
        Err(e) => {
            fail(record, e);
            return None;
        }
    };
    record.plan_ms = Some(planned.elapsed().as_secs_f64() * 1e3);
    let info = algorithm.exec_info();
    record.isa = info.isa;
    record.threads = info.threads;
    record.exec = info.details;
    match measure(algorithm.as_mut(), input, sampling) {
        Ok(m) => {
            fill_measurement(record, &m, &dspbench_reference::verify(input, &m.output));
            Some(m.output)
        }
        Err(e) => {
            fail(record, e);
            None
        }
    }
}

fn fill_measurement(record: &mut Record, m: &Measurement, check: &Verification) {
    record.samples = m.kernel_ms.len();
    record.kernel_ms = Summary::of(&m.kernel_ms);
    record.kernel_clock = Some(if m.device_clock { "device" } else { "wall" }.to_string());
    record.wall_ms = Summary::of(&m.wall_ms);
    record.times_ms = m.kernel_ms.clone();
    if let (Some(up), Some(down)) = (m.upload.ms, m.download.ms) {
        record.transfer_ms = Some(TransferMs { upload: up, download: down, bytes: m.upload.bytes + m.download.bytes });
    }
    if let Some(k) = record.kernel_ms {
        if k.median > 0.0 {
            record.gflops = Some(record.flops / (k.median * 1e-3) / 1e9);
            record.gbps = Some(record.bytes / (k.median * 1e-3) / 1e9);
        }
    }
    record.verified = check.passed;
    record.max_abs_err = Some(check.max_abs_err);
    record.max_rel_err = Some(check.max_rel_err);
    record.verification = Some(VerificationInfo {
        coverage: check.coverage.clone(),
        checked: check.checked,
        total: check.total,
        atol: check.atol,
        rtol: check.rtol,
        first_mismatch: check
            .first_mismatch
            .as_ref()
            .map(|m| format!("at {}: expected {}, got {}", m.position, m.expected, m.got)),
    });
    if check.passed {
        record.status = Status::Ok;
    } else {
        record.status = Status::Mismatch;
        record.reason = Some(check.summary());
    }
}
