use crate::copy_of_bytes::CopiesOfBytes;
use crate::measure::{Contender, HostEvictor, Measurement, SamplingPlan};
use crate::noise::CpuTimes;
use crate::now_rfc3339;
use crate::passes::{first_pass, merge_pass, GroupHistory};
use crate::rounds::{pass_seed, round_seed, sample_in_rounds, RoundOrder, Slot};
use crate::DeviceFilter;
use dspbench_core::{generate_input, Availability, Backend, Error, Input, Output, Params, PlanRequest, Problem};
use dspbench_kernels::{with_custom_kernel, CustomKernel};
use dspbench_reference::Verification;
use dspbench_results::{
    read_records, Record, ResultsDir, ResultsError, SamplingInfo, Status, Summary, TransferMs, VerificationInfo,
    RECORDS_FILE, SCHEMA_VERSION,
};
use dspbench_scenario::{CustomVariant, Experiment, Scenario};
use std::collections::btree_map::Entry;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Choices made on the command line rather than in the scenario.
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    /// Restricts every experiment to these backends (`--backends`).
    pub backends: Option<Vec<String>>,
    /// Which devices of which backends are measured (`--device`).
    pub device: DeviceFilter,
    /// Sampling settings that replace the scenario's (`--quick`, `--precise`).
    pub sampling: Option<dspbench_scenario::Sampling>,
    /// Only this share of the scenario's problems (`--shard K/N`).
    pub shard: Option<Shard>,
    /// Only this pass (0-based) of the scenario's passes, going on from what the earlier passes
    /// wrote into the results folder: the work of one pass's process (`dspbench run` gives each
    /// pass a fresh process). `None`: every pass, in this process.
    pub only_pass: Option<usize>,
}

/// One of `count` shares of a scenario (`--shard K/N`, `index` = K - 1). The unit is a problem
/// (every contender of it stays together, so its rounds and paired ratios are whole): the
/// scenario's problems, numbered in file order over all experiments, go round robin, problem
/// `i` to shard `i mod N`. The same scenario file gives the same shares on every machine and in
/// every run, and the N shares together are the whole scenario, each problem once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Default for Shard {
    fn default() -> Shard {
        Shard { index: 0, count: 1 }
    }
}

impl std::str::FromStr for Shard {
    type Err = String;

    /// `K/N` with 1 <= K <= N.
    fn from_str(text: &str) -> Result<Shard, String> {
        let bad = || format!("expected K/N with 1 <= K <= N (e.g. 2/4), got `{text}`");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let (k, n): (usize, usize) = (k.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
        if k == 0 || n == 0 || k > n {
            return Err(bad());
        }
        Ok(Shard { index: k - 1, count: n })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index + 1, self.count)
    }
}

impl Shard {
    /// Whether this shard runs the scenario's problem number `ordinal` (0-based, file order).
    pub fn owns(&self, ordinal: usize) -> bool {
        ordinal % self.count == self.index
    }
}

/// Follows a run as it goes (a progress bar, log lines, a test's counter).
pub trait Observer {
    fn start(&mut self, _total_cells: usize) {}
    /// The contenders of one problem start: `label` names the problem.
    fn cell_started(&mut self, _label: &str) {}
    /// A round of the current problem ended; `still_sampling` contenders go on.
    fn round_finished(&mut self, _round: u32, _still_sampling: usize) {}
    /// A cell's record after a pass (its last, or one more of several).
    fn cell_finished(&mut self, _record: &Record) {}
    /// `count` cells that failed or were refused in an earlier pass sit this pass out: they
    /// count as done for it (the start's total counts every cell once per pass).
    fn cells_done_early(&mut self, _count: usize) {}
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
    /// The summary of a run from its records (one a cell, as [`read_records`] gives them).
    pub fn of(records: &[Record]) -> RunSummary {
        let mut summary = RunSummary::default();
        records.iter().for_each(|r| summary.add(r));
        summary
    }

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
    /// The name in records: a built-in variant's, or a custom one's.
    variant: &'a str,
    /// For a custom variant, its file and the built-in variant it follows.
    custom: Option<&'a CustomVariant>,
}

/// Runs every experiment of `scenario`, appending one record per cell to `out` as soon as its
/// problem is measured, and again after each further pass (`sampling.passes`: pass 1 of every
/// problem, then pass 2, ...; see `passes.rs`). The cells of one problem (every variant, backend,
/// device and tunable set that computes the same output) are measured together in interleaved
/// rounds. Device and compile failures become `failed` records and the run goes on; only a
/// failure to write results stops it.
pub fn run_scenario(
    scenario: &Scenario,
    probed: &[(&dyn Backend, Availability)],
    options: &RunOptions,
    out: &mut ResultsDir,
    observer: &mut dyn Observer,
) -> Result<RunSummary, ResultsError> {
    let mut summary = RunSummary::default();
    let sampling = options.sampling.unwrap_or(scenario.sampling);
    let passes = sampling.passes.max(1);
    let whole = SamplingPlan::from(&sampling);
    let plan = SamplingPlan { rule: whole.rule.per_pass(passes), ..whole };
    let plans = experiment_plans(scenario, probed, options);
    let shard = options.shard.unwrap_or_default();
    let cells_here: usize = plans
        .iter()
        .map(|p| {
            let mine = p.groups.iter().enumerate().filter(|(g, _)| shard.owns(p.first_ordinal + g));
            mine.map(|(_, (_, cells))| cells.len()).sum::<usize>() * p.lanes.len()
        })
        .sum();
    let pass_range = match options.only_pass {
        Some(pass) => pass..(pass + 1).min(passes),
        None => 0..passes,
    };
    observer.start(cells_here * pass_range.len());
    let mut evictor = HostEvictor::default();
    let mut histories: BTreeMap<(usize, usize), GroupHistory> = BTreeMap::new();
    let mut copies = CopiesOfBytes::default();
    let written = match options.only_pass {
        Some(pass) if pass > 0 => read_records(&out.path().join(RECORDS_FILE))?,
        _ => Vec::new(),
    };

    for pass in pass_range {
        if pass > 0 && options.only_pass.is_none() {
            for (backend, _) in probed {
                backend.start_pass(pass);
            }
        }
        for ExperimentPlan { experiment, lanes, unavailable, groups, first_ordinal } in &plans {
            // Said once over all shards: by the shard that owns the experiment's first problem.
            if pass == 0 && shard.owns(*first_ordinal) {
                for (backend, reason) in unavailable {
                    let mut record = blank_record(scenario, experiment, backend, "*", None, Default::default());
                    record.status = Status::Unavailable;
                    record.reason = Some(reason.clone());
                    out.append(&record)?;
                    observer.cell_finished(&record);
                    summary.add(&record);
                }
            }
            if lanes.is_empty() {
                continue;
            }
            for (group, (problem, cells)) in groups.iter().enumerate() {
                if !shard.owns(first_ordinal + group) {
                    continue;
                }
                let blanks: Vec<Record> = cells
                    .iter()
                    .flat_map(|params| {
                        lanes.iter().map(|lane| {
                            let device = Some(lane.device_name.as_str());
                            let params = (*params).clone();
                            blank_record(scenario, experiment, lane.backend.name(), lane.variant, device, params)
                        })
                    })
                    .collect();
                let history = histories
                    .entry((experiment.index, group))
                    .or_insert_with(|| GroupHistory::resume(&blanks, &written));
                let problem = *problem;
                let tunables: Vec<Params> =
                    cells.iter().map(|p| p.without(experiment.workload.param_names())).collect();
                let mut contenders = Vec::new();
                let mut slots = Vec::new();
                let mut places = Vec::new();
                let mut done_early = 0;
                let mut blanks = blanks.into_iter();
                for tunables in &tunables {
                    for (lane, record) in lanes.iter().zip(blanks.by_ref()) {
                        let slot = contenders.len() + done_early;
                        if history.cells.get(&slot).is_some_and(|c| !c.live()) {
                            done_early += 1;
                            continue;
                        }
                        let like = lane.custom.map_or(lane.variant, |c| c.like.as_str());
                        let request = PlanRequest { problem, variant: like, tunables, device: lane.device };
                        let custom = lane.custom.map(|c| c.source.clone());
                        contenders.push(Cell { backend: lane.backend, request, record, custom });
                        slots.push(slot);
                        places.push((lane.backend, lane.device));
                    }
                }
                observer.cells_done_early(done_early);
                if contenders.is_empty() {
                    continue;
                }
                let pass_note = if passes > 1 { format!(", pass {} of {passes}", pass + 1) } else { String::new() };
                observer.cell_started(&format!(
                    "{} [{}]: {} contender(s) in rounds{pass_note}",
                    experiment.workload,
                    problem,
                    contenders.len()
                ));
                // Regenerated (deterministically) each pass rather than kept for the whole run: the
                // inputs of every problem of a GPU scenario together would not fit in memory. Each
                // pass's outputs are verified afresh too, since each pass plans afresh.
                let input = generate_input(&problem, scenario.seed);
                let seed = round_seed(scenario.seed, experiment.index, group);
                let group_info = Group {
                    index: group,
                    seed: pass_seed(seed, pass),
                    plan,
                    input: &input,
                    first_round: history.next_round,
                };
                let (measured, next_round) = measure_pass(contenders, &group_info, &mut evictor, observer);
                history.next_round = next_round;
                for ((slot, (backend, device)), mut cell) in slots.into_iter().zip(places).zip(measured) {
                    if let Some(s) = cell.record.sampling.as_mut() {
                        // Every pass's records name the group's first seed, which pairs them.
                        s.round_seed = seed;
                    }
                    if options.only_pass.is_some() {
                        if let Some(s) = cell.record.sampling.as_mut() {
                            s.pass_processes = true;
                        }
                    }
                    let cell_history = match history.cells.entry(slot) {
                        Entry::Vacant(place) => place.insert(first_pass(cell, pass, passes, &whole.rule)),
                        Entry::Occupied(place) => {
                            let h = place.into_mut();
                            merge_pass(h, cell, pass, passes, &whole.rule);
                            h
                        }
                    };
                    let last = pass + 1 == passes || !cell_history.live();
                    // A cold-cache cell reads from memory, whose roof is the copy bandwidth itself;
                    // a warm copy of its bytes would hold it against the cache.
                    if last && !plan.cold_cache {
                        copies.attach(backend, device, &mut cell_history.record);
                    }
                    let record = &cell_history.record;
                    if last {
                        out.append(record)?;
                        summary.add(record);
                    } else {
                        out.append_pass(&cell_history.record_between_passes())?;
                    }
                    observer.cell_finished(record);
                }
            }
        }
    }
    Ok(summary)
}

/// Every experiment's lanes and problem groups, each experiment numbered from the ordinal of its
/// first problem over the whole scenario (what shards are cut by).
fn experiment_plans<'a>(
    scenario: &'a Scenario,
    probed: &'a [(&'a dyn Backend, Availability)],
    options: &RunOptions,
) -> Vec<ExperimentPlan<'a>> {
    let mut plans: Vec<ExperimentPlan> =
        scenario.experiments.iter().map(|e| lanes(scenario, e, probed, options)).collect();
    let mut ordinal = 0;
    for p in &mut plans {
        p.first_ordinal = ordinal;
        ordinal += p.groups.len();
    }
    plans
}

/// A blank record of every cell that [`run_scenario`] with the same arguments will measure (this
/// shard's share, on the available backends), for the run's `planned.jsonl`.
pub fn planned_cells(
    scenario: &Scenario,
    probed: &[(&dyn Backend, Availability)],
    options: &RunOptions,
) -> Vec<Record> {
    let shard = options.shard.unwrap_or_default();
    let mut planned = Vec::new();
    for p in experiment_plans(scenario, probed, options) {
        for (group, (_, cells)) in p.groups.iter().enumerate() {
            if !shard.owns(p.first_ordinal + group) {
                continue;
            }
            for params in cells {
                for lane in &p.lanes {
                    planned.push(blank_record(
                        scenario,
                        p.experiment,
                        lane.backend.name(),
                        lane.variant,
                        Some(&lane.device_name),
                        (*params).clone(),
                    ));
                }
            }
        }
    }
    planned
}

/// The experiment's cells grouped by the problem they compute, in order of first appearance:
/// cells that differ only in tunables (threads, tiles) are contenders of the same problem.
fn problem_groups(experiment: &Experiment) -> Vec<(Problem, Vec<&Params>)> {
    let mut groups: Vec<(Problem, Vec<&Params>)> = Vec::new();
    for params in &experiment.cells {
        let problem =
            Problem::from_params(experiment.workload, params).expect("scenario validation accepted these parameters");
        match groups.iter_mut().find(|(p, _)| *p == problem) {
            Some((_, cells)) => cells.push(params),
            None => groups.push((problem, vec![params])),
        }
    }
    groups
}

/// One contender before it is planned: where it runs, what to plan, and its record so far.
pub struct Cell<'a> {
    pub backend: &'a dyn Backend,
    pub request: PlanRequest<'a>,
    pub record: Record,
    /// A kernel file of the user's that replaces the kernel of the variant requested.
    pub custom: Option<PathBuf>,
}

/// What the contenders of one problem share.
pub struct Group<'a> {
    /// The problem's place in its experiment.
    pub index: usize,
    /// Seed of the round order.
    pub seed: u64,
    pub plan: SamplingPlan,
    pub input: &'a Input,
    /// The number of the first round (a later pass goes on from the last pass's rounds).
    pub first_round: u32,
}

/// Plans, measures in interleaved rounds, downloads and verifies the contenders of one problem;
/// returns each record (in the order given) with the output of its last run, if it ran. Never
/// fails: an error is the record's status.
pub fn measure_group(
    cells: Vec<Cell<'_>>,
    group: &Group<'_>,
    evictor: &mut HostEvictor,
    observer: &mut dyn Observer,
) -> Vec<(Record, Option<Output>)> {
    measure_pass(cells, group, evictor, observer).0.into_iter().map(|c| (c.record, c.output)).collect()
}

/// One contender's record after one pass, its output and its samples' wall times.
pub struct PassCell {
    pub record: Record,
    pub output: Option<Output>,
    pub wall_ms: Vec<f64>,
}

/// [`measure_group`] for one pass of a run: also returns every sample's wall time and the
/// number of the round after the pass's last.
fn measure_pass(
    cells: Vec<Cell<'_>>,
    group: &Group<'_>,
    evictor: &mut HostEvictor,
    observer: &mut dyn Observer,
) -> (Vec<PassCell>, u32) {
    let mut records = Vec::with_capacity(cells.len());
    let mut slots = Vec::with_capacity(cells.len());
    for Cell { backend, request, mut record, custom } in cells {
        record.flops = request.problem.flops();
        record.bytes = request.problem.bytes();
        if group.plan.cold_cache {
            record.exec.insert("cache".into(), "cold".into());
        }
        slots.push(plan_contender(backend, &request, custom.as_deref(), group, &mut record));
        records.push(record);
    }
    let canary_ms = crate::canary::canary_ms();
    let steal_before = CpuTimes::read();
    let mut order = RoundOrder::new(group.seed);
    let next_round =
        sample_in_rounds(&mut slots, &group.plan, &mut order, evictor, group.first_round, &mut |round, left| {
            observer.round_finished(round - group.first_round, left)
        });
    let steal_pct = CpuTimes::read().zip(steal_before).and_then(|(after, before)| after.steal_pct_since(&before));
    let cells = records
        .into_iter()
        .zip(slots)
        .map(|(mut record, slot)| {
            let (output, wall_ms) = finish_contender(slot, group, (steal_pct, canary_ms), &mut record)
                .map_or((None, Vec::new()), |(output, wall)| (Some(output), wall));
            record.finished = now_rfc3339();
            PassCell { record, output, wall_ms }
        })
        .collect();
    (cells, next_round)
}

/// Plans and prepares (upload, warm-up, batch calibration) one contender; [`Slot::Refused`]
/// with the record's status and reason set when it cannot be planned.
fn plan_contender(
    backend: &dyn Backend,
    request: &PlanRequest<'_>,
    custom: Option<&Path>,
    group: &Group<'_>,
    record: &mut Record,
) -> Slot {
    let planned = Instant::now();
    let algorithm = match custom {
        None => backend.plan(request),
        Some(path) => plan_custom(backend, request, path, record),
    };
    let algorithm = match algorithm {
        Ok(a) => a,
        Err(e) => {
            fail(record, e);
            return Slot::Refused;
        }
    };
    record.plan_ms = Some(planned.elapsed().as_secs_f64() * 1e3);
    let info = algorithm.exec_info();
    record.isa = info.isa;
    record.threads = info.threads;
    record.exec.extend(info.details);
    match Contender::prepare(algorithm, group.input, &group.plan) {
        Ok(contender) => Slot::Measuring(contender),
        Err(e) => Slot::Failed(e),
    }
}

/// Plans `request` with the user's kernel file at `path` in place of the requested variant's
/// kernel, and records which file (and its sha256) ran.
fn plan_custom(
    backend: &dyn Backend,
    request: &PlanRequest<'_>,
    path: &Path,
    record: &mut Record,
) -> Result<Box<dyn dspbench_core::Algorithm>, Error> {
    let kernel = CustomKernel::new(path, request.problem.workload(), request.variant)?;
    if kernel.backend() != backend.name() {
        return Err(Error::input(format!(
            "{}: a {} kernel cannot run on backend {}",
            path.display(),
            kernel.backend(),
            backend.name()
        )));
    }
    record.exec.insert("custom_kernel".into(), path.display().to_string());
    record.exec.insert("custom_kernel_sha256".into(), kernel.sha256()?);
    record.exec.insert("like".into(), request.variant.to_string());
    with_custom_kernel(&kernel, || backend.plan(request))
}

/// Downloads, verifies and records one measured contender: its output and its samples' wall times.
fn finish_contender(
    slot: Slot,
    group: &Group<'_>,
    (steal_pct, canary_ms): (Option<f64>, f64),
    record: &mut Record,
) -> Option<(Output, Vec<f64>)> {
    let contender = match slot {
        Slot::Measuring(c) => c,
        Slot::Failed(e) => {
            fail(record, e);
            return None;
        }
        Slot::Refused => return None,
    };
    match contender.finish() {
        Ok(m) => {
            fill_measurement(record, &m, &dspbench_reference::verify(group.input, &m.output));
            record.sampling = Some(SamplingInfo {
                batch: m.batch,
                min_sample_ms: group.plan.min_sample_ms,
                stop: m.stop,
                rule: group.plan.rule,
                spent_s: m.spent_s,
                group: group.index,
                round_seed: group.seed,
                steal_pct,
                canary_ms: Some(canary_ms),
                passes: 1,
                pass: 0,
                pass_stops: Vec::new(),
                pass_canary_ms: Vec::new(),
                pass_processes: false,
                settle_ms: (m.settle_ms > 0.0).then_some(m.settle_ms),
            });
            Some((m.output, m.wall_ms))
        }
        Err(e) => {
            fail(record, e);
            None
        }
    }
}

fn fail(record: &mut Record, error: Error) {
    record.status = match error {
        Error::Unsupported(_) => Status::Skipped,
        _ => Status::Failed,
    };
    record.reason = Some(error.to_string());
}

/// An experiment's lanes, and the selected backends that cannot run here (name, why).
struct ExperimentPlan<'a> {
    experiment: &'a Experiment,
    lanes: Vec<Lane<'a>>,
    unavailable: Vec<(String, String)>,
    /// The experiment's problems, each with its cells.
    groups: Vec<(Problem, Vec<&'a Params>)>,
    /// The scenario-wide number of its first problem, which decides the shard of each.
    first_ordinal: usize,
}

fn lanes<'a>(
    scenario: &Scenario,
    experiment: &'a Experiment,
    probed: &'a [(&'a dyn Backend, Availability)],
    options: &RunOptions,
) -> ExperimentPlan<'a> {
    // A backend runs if the experiment's or scenario's list names it, or there is no list and it
    // runs by default or `--backends` names it; `--backends` narrows the rest.
    let selected = |backend: &dyn Backend| {
        let name = backend.name();
        let cli = options.backends.as_ref().map(|l| l.iter().any(|b| b == name));
        match experiment.backends.as_ref().or(scenario.backends.as_ref()) {
            Some(listed) => listed.iter().any(|b| b == name) && cli.unwrap_or(true),
            None => cli.unwrap_or(backend.runs_by_default()),
        }
    };
    let mut lanes = Vec::new();
    let mut unavailable = Vec::new();
    for (backend, availability) in probed.iter().filter(|(b, _)| selected(*b)) {
        let custom = experiment.custom.iter().filter(|c| c.backend == backend.name());
        let variants: Vec<(&str, Option<&CustomVariant>)> = backend
            .variants()
            .into_iter()
            .filter(|v| v.workload == experiment.workload)
            .filter(|v| experiment.variants.as_ref().is_none_or(|l| l.iter().any(|n| n == v.name)))
            .map(|v| (v.name, None))
            .chain(custom.map(|c| (c.name.as_str(), Some(c))))
            .collect();
        if variants.is_empty() {
            continue;
        }
        match availability {
            Availability::Unavailable { reason } => unavailable.push((backend.name().to_string(), reason.clone())),
            Availability::Ready { devices } => {
                // Every device kept is measured in the same rounds, one at a time, so no two cards'
                // kernels, copies or host work ever overlap.
                for device in devices.iter().filter(|d| options.device.wants(backend.name(), d)) {
                    // A backend whose variants split over its devices (peers: CPU and GPU) names each one's.
                    for &(variant, custom) in variants.iter().filter(|(v, _)| backend.runs_on(v, device.index)) {
                        lanes.push(Lane {
                            backend: *backend,
                            device: device.index,
                            device_name: device_name(device, devices),
                            variant,
                            custom,
                        });
                    }
                }
            }
        }
    }
    ExperimentPlan { experiment, lanes, unavailable, groups: problem_groups(experiment), first_ordinal: 0 }
}

/// The device's name in records, with ` #<index>` when the backend has another device of the
/// same name (two cards of one model in a node), so each card keeps its own records and column.
pub fn device_name(device: &dspbench_core::DeviceInfo, all: &[dspbench_core::DeviceInfo]) -> String {
    if all.iter().filter(|d| d.name == device.name).count() > 1 {
        format!("{} #{}", device.name, device.index)
    } else {
        device.name.clone()
    }
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
        copy_of_bytes: None,
        times_ms: Vec::new(),
        rounds: Vec::new(),
        passes: Vec::new(),
        pass_wall_ms: Vec::new(),
        sampling: None,
        finished: String::new(),
    }
}

/// Plans, measures and verifies one cell alone into `record` (which names it already), and
/// returns the output of the last sample if there was one. Never fails: an error is the
/// record's status. `dspbench exec` measures this way.
pub fn execute_cell(
    backend: &dyn Backend,
    request: &PlanRequest<'_>,
    custom: Option<&Path>,
    input: &Input,
    sampling: SamplingPlan,
    record: &mut Record,
) -> Option<Output> {
    let cell =
        Cell { backend, request: request.clone(), record: record.clone(), custom: custom.map(Path::to_path_buf) };
    let group = Group { index: 0, seed: 0, plan: sampling, input, first_round: 0 };
    let (done, output) =
        measure_group(vec![cell], &group, &mut HostEvictor::default(), &mut SilentObserver).pop().expect("one cell");
    *record = done;
    output
}

fn fill_measurement(record: &mut Record, m: &Measurement, check: &Verification) {
    record.warmup = m.warmup;
    record.samples = m.kernel_ms.len();
    record.kernel_ms = Summary::of(&m.kernel_ms);
    record.kernel_clock = Some(if m.device_clock { "device" } else { "wall" }.to_string());
    record.wall_ms = Summary::of(&m.wall_ms);
    record.times_ms = m.kernel_ms.clone();
    record.rounds = m.rounds.clone();
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
        where_wrong: check.where_wrong.clone(),
    });
    if check.passed {
        record.status = Status::Ok;
    } else {
        record.status = Status::Mismatch;
        record.reason = Some(check.summary());
    }
}
