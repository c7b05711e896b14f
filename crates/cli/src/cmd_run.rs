use crate::error::CliError;
use crate::progress::Progress;
use crate::{check_backend_names, default_scenario_path, split_list};
use dspbench_core::Availability;
use dspbench_report::{fmt_sig, write_report, Run};
use dspbench_results::{
    machine_id, read_records, write_planned, BackendStatus, CanarySpread, ResultsDir, ScenarioInfo, RECORDS_FILE,
};
use dspbench_runner::{
    check_required, collect_machine, host_copy_roof, host_fma_peak, memory_bytes, now_rfc3339, planned_cells,
    required_backends, run_scenario, DeviceFilter, NoiseMonitor, Registry, RunOptions, RunSummary, Shard,
};
use dspbench_scenario::{Sampling, Scenario};
use std::path::{Path, PathBuf};

/// The default scenario, built in so `dspbench` works from any folder.
const QUICK_YAML: &str = include_str!("../../../scenarios/quick.yaml");

#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// Scenario files (YAML).
    #[arg(required = true)]
    pub(crate) files: Vec<PathBuf>,
    /// Results folder [default: reports/<date>-<machine>, never overwriting an earlier run].
    #[arg(long)]
    pub(crate) out: Option<PathBuf>,
    /// Only these backends, comma-separated (e.g. `scalar,simd`).
    #[arg(long)]
    pub(crate) backends: Option<String>,
    /// A name for this machine in reports [default: the host name].
    #[arg(long)]
    pub(crate) machine: Option<String>,
    /// Only devices with this index or whose name contains this text (e.g. `NVIDIA`, `Portable`);
    /// `BACKEND=TEXT` applies to that backend only (`opencl=NVIDIA`: the CPU backends, CUDA and
    /// OpenCL's NVIDIA platform, without PoCL), comma-separated entries combine; `all` (the default)
    /// measures every device, each card in its own column.
    #[arg(long)]
    pub(crate) device: Option<String>,
    /// A first look: sample each cell to ±3% or a quarter of a second, whatever the scenario says.
    #[arg(long, conflicts_with = "precise")]
    pub(crate) quick: bool,
    /// Sample each cell to ±0.5% or ten seconds, whatever the scenario says.
    #[arg(long)]
    pub(crate) precise: bool,
    /// Run only share K of N of the scenario's problems (round robin in file order, so that N
    /// workers with 1/N .. N/N run every cell once); `dspbench report` merges the shards.
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    pub(crate) shard: Option<Shard>,
    /// Write `machine.json` and the cells the run would measure (`planned.jsonl`) and stop: what a
    /// cluster's merge job does for a task that never started, so its cells show as not run.
    #[arg(long)]
    pub(crate) plan_only: bool,
    /// Run each pass of a run of several passes in a fresh process, so that the passes also sample
    /// what changes from one process to the next (where buffers and code fall, a library's thread
    /// pool), as a second run would; the intervals widen to cover it (docs/results.md, 10).
    #[arg(long)]
    pub(crate) process_per_pass: bool,
    /// Measure only pass K of the scenario into the results folder `--out` of a run under way,
    /// going on from the passes before it: what the process of one pass is started with.
    #[arg(long, value_name = "K", hide = true, requires = "out", conflicts_with = "plan_only")]
    pub(crate) pass: Option<usize>,
}

fn parse_shard(text: &str) -> Result<Shard, String> {
    text.parse()
}

impl RunArgs {
    pub fn default_scenario() -> RunArgs {
        RunArgs {
            files: vec![default_scenario_path()],
            out: None,
            backends: None,
            machine: None,
            device: None,
            quick: false,
            precise: false,
            shard: None,
            plan_only: false,
            process_per_pass: false,
            pass: None,
        }
    }

    /// The backends (`--backends`, checked against this build's) and devices (`--device`) to run.
    pub(crate) fn selection(&self, registry: &Registry) -> Result<(Option<Vec<String>>, DeviceFilter), CliError> {
        let backends = self.backends.as_deref().map(split_list);
        if let Some(names) = &backends {
            check_backend_names(names, registry)?;
        }
        let device = match self.device.as_deref() {
            Some(spec) => DeviceFilter::parse(spec, &registry.names()).map_err(CliError::Input)?,
            None => DeviceFilter::default(),
        };
        Ok((backends, device))
    }

    /// The sampling preset chosen on the command line, applied over a scenario's own settings.
    pub(crate) fn preset(&self) -> Option<fn(Sampling) -> Sampling> {
        match (self.quick, self.precise) {
            (true, _) => Some(Sampling::quick),
            (_, true) => Some(Sampling::precise),
            _ => None,
        }
    }
}

pub fn run(args: RunArgs) -> Result<(), CliError> {
    if let Some(pass) = args.pass {
        return crate::cmd_run_pass::run_pass(&args, pass);
    }
    let preset = args.preset();
    let registry = Registry::compiled();
    let (backends, device) = args.selection(&registry)?;
    let catalog = registry.catalog(memory_bytes());
    let scenarios = args.files.iter().map(|path| load(path, &catalog)).collect::<Result<Vec<_>, _>>()?;

    let probed = registry.probe();
    let availability: Vec<(&str, &Availability)> = probed.iter().map(|(b, a)| (b.name(), a)).collect();
    check_required(&required_backends(), &availability)?;
    for (backend, availability) in &probed {
        if let Availability::Ready { devices } = availability {
            if !devices.iter().any(|d| device.wants(backend.name(), d)) {
                eprintln!(
                    "warning: --device {device} keeps none of backend {}'s devices: its cells are not run",
                    backend.name()
                );
            }
        }
    }
    let statuses: Vec<BackendStatus> = probed.iter().map(|(b, a)| backend_status(b.name(), a)).collect();
    for s in &statuses {
        match &s.reason {
            None => eprintln!("backend {}: ready on {}", s.name, s.devices.join("; ")),
            Some(reason) => eprintln!("backend {}: not available: {reason}", s.name),
        }
    }

    let infos = scenarios
        .iter()
        .map(|s| ScenarioInfo { name: s.name.clone(), path: s.path.display().to_string(), sha256: s.sha256.clone() })
        .collect();
    let command = std::env::args().collect::<Vec<_>>().join(" ");
    let mut machine = collect_machine(args.machine.as_deref(), infos, statuses, command);
    machine.shard = args.shard.map(|s| s.to_string());
    let monitor = NoiseMonitor::start(machine.logical_cores);
    let uuids: Vec<&str> = monitor.start_state().gpus.iter().filter_map(|g| g.uuid.as_deref()).collect();
    machine.id = Some(machine_id(&machine.hostname, &machine.cpu_model, &uuids));
    for warning in monitor.warnings() {
        eprintln!("warning: {warning}");
    }
    let start_warnings = monitor.warnings().len();
    let host_roof = host_copy_roof();
    machine.extra.insert("host.copy_gbps".into(), format!("{:.1}", host_roof.gbps.point));
    if let Some(interval) = host_roof.interval() {
        machine.extra.insert("host.copy_gbps_interval".into(), interval);
    }
    machine.extra.insert("host.copy_gbps_method".into(), host_roof.method("copies"));
    let (start_peak_gflops, peak_threads, peak_method) = host_fma_peak();
    machine.extra.insert("host.peak_gflops".into(), format!("{start_peak_gflops:.1}"));
    machine.extra.insert("host.peak_gflops_threads".into(), peak_threads.to_string());
    machine.extra.insert("host.peak_gflops_method".into(), format!("{peak_method}, at the run's start and end"));
    let dir = match &args.out {
        Some(dir) => dir.clone(),
        None => fresh_folder(&machine.label, &machine.started),
    };
    let mut out = ResultsDir::create(&dir)?;
    out.write_machine(&machine)?;
    // Every cell of every scenario is planned before the first is measured, so that a run cut
    // short anywhere still lists what it did not get to.
    let planned: Vec<_> = scenarios
        .iter()
        .flat_map(|scenario| {
            let options = RunOptions {
                backends: backends.clone(),
                device: device.clone(),
                shard: args.shard,
                ..Default::default()
            };
            planned_cells(scenario, &probed, &options)
        })
        .collect();
    write_planned(&dir, &planned)?;
    if args.plan_only {
        eprintln!("planned {} cell(s) in {} (--plan-only: nothing measured)", planned.len(), dir.display());
        return Ok(());
    }
    eprintln!("writing results to {}", dir.display());

    let mut lost_passes = Vec::new();
    for scenario in &scenarios {
        let sampling = preset.map_or(scenario.sampling, |apply| apply(scenario.sampling));
        eprintln!(
            "scenario `{}` ({}): sampling each cell to ±{}% of its median (95% interval), {}..{} samples, at most {} s, \
             in {} pass(es) over the scenario",
            scenario.name,
            scenario.path.display(),
            fmt_sig(sampling.target_ci * 100.0, 2),
            sampling.min_samples,
            sampling.max_samples,
            fmt_sig(sampling.time_budget_s, 3),
            sampling.passes
        );
        if sampling.passes > 1 && args.process_per_pass {
            drop(out);
            lost_passes.extend(crate::cmd_run_pass::run_passes(&args, scenario, sampling.passes, &dir)?);
            out = ResultsDir::open(&dir)?;
            continue;
        }
        let options = RunOptions {
            backends: backends.clone(),
            device: device.clone(),
            sampling: Some(sampling),
            shard: args.shard,
            ..Default::default()
        };
        let mut progress = Progress::new();
        let summary = run_scenario(scenario, &probed, &options, &mut out, &mut progress);
        progress.finish();
        summary?;
    }

    // Measured again at the end, the higher kept: a few milliseconds at the start on a shared VM
    // once came out at half the cores' rate (172 GFLOP/s against 331 the day before), and a roof
    // set too low puts cells past 100% of it.
    let (end_peak_gflops, _, _) = host_fma_peak();
    machine.extra.insert("host.peak_gflops".into(), format!("{:.1}", start_peak_gflops.max(end_peak_gflops)));
    machine.extra.insert("host.peak_gflops_start_end".into(), format!("{start_peak_gflops:.1}, {end_peak_gflops:.1}"));
    machine.finished = Some(now_rfc3339());
    out.compact()?;
    let records = read_records(&dir.join(RECORDS_FILE))?;
    let mut total = RunSummary::of(&records);
    total.problems.extend(lost_passes);
    let mut noise = monitor.finish();
    noise.canary = CanarySpread::of(&records);
    noise.warnings.extend(noise.canary.and_then(|c| c.warning()));
    for warning in noise.warnings.iter().skip(start_warnings) {
        eprintln!("warning: {warning}");
    }
    machine.noise = Some(noise);
    out.write_machine(&machine)?;
    write_report(&dir, &[Run { machine, records }]).map_err(|e| CliError::Io(format!("{}: {e}", dir.display())))?;

    let counts: Vec<String> = total.counts.iter().map(|(k, v)| format!("{v} {k}")).collect();
    eprintln!("done: {}; report in {}", counts.join(", "), dir.join("report.md").display());
    if total.all_verified() {
        Ok(())
    } else {
        Err(CliError::Failed(format!(
            "{} cell(s) failed or mismatched:\n  {}",
            total.problems.len(),
            total.problems.join("\n  ")
        )))
    }
}

pub(crate) fn load(path: &Path, catalog: &dspbench_scenario::Catalog) -> Result<Scenario, CliError> {
    if path == default_scenario_path() && !path.exists() {
        return Ok(dspbench_scenario::parse(QUICK_YAML, Path::new("scenarios/quick.yaml (built in)"), catalog)?);
    }
    Ok(dspbench_scenario::load(path, catalog)?)
}

fn backend_status(name: &str, availability: &Availability) -> BackendStatus {
    match availability {
        Availability::Ready { devices } => BackendStatus {
            name: name.to_string(),
            available: true,
            reason: None,
            devices: devices.iter().map(|d| d.name.clone()).collect(),
            details: devices
                .iter()
                .flat_map(|d| d.details.iter().map(move |(k, v)| (format!("device{}.{k}", d.index), v.clone())))
                .collect(),
        },
        Availability::Unavailable { reason } => BackendStatus {
            name: name.to_string(),
            available: false,
            reason: Some(reason.clone()),
            devices: vec![],
            details: Default::default(),
        },
    }
}

/// `reports/<date>-<label>`, with `-2`, `-3`, ... if an earlier run is there.
fn fresh_folder(label: &str, started: &str) -> PathBuf {
    let date = started.get(..10).unwrap_or("undated");
    let safe: String =
        label.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '-' }).collect();
    let base = PathBuf::from("reports").join(format!("{date}-{safe}"));
    (1..)
        .map(|i| if i == 1 { base.clone() } else { PathBuf::from(format!("{}-{i}", base.display())) })
        .find(|p| !p.exists())
        .expect("some suffix is free")
}
