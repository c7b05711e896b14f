//! A run's passes, each in a process of its own (`dspbench run --process-per-pass`).
//!
//! Passes inside one process sample the drift of a machine from minute to minute, not what is
//! fixed for a process's life: where its buffers and code fell, huge pages or not, a library's
//! thread pool. Measured once on the 2-core VM, rustfft's one-thread time sat at 0.067–0.071 ms
//! in every pass of one run and at 0.061–0.064 ms in every pass of the next. With this option
//! `dspbench run` starts itself again for each pass (`--pass K`, hidden): the pass's process
//! opens the results folder, picks the cells' histories up from the records the earlier passes
//! wrote, measures its pass and appends. The first process keeps the run's machine record, noise
//! monitor and report. It is not the default: on that VM it widened the intervals 1.5x without
//! making back-to-back runs agree more often (docs/findings.md, "A process a pass").

use crate::cmd_run::{load, RunArgs};
use crate::error::CliError;
use crate::progress::Progress;
use dspbench_results::ResultsDir;
use dspbench_runner::{check_required, memory_bytes, required_backends, run_scenario, Registry, RunOptions};
use dspbench_scenario::Scenario;
use std::path::Path;
use std::process::Command;

/// Measures `scenario`'s `passes` passes into `dir`, each in a fresh process running this
/// program with the run's own options. Returns a line for each pass whose process ended early
/// (a crash, a signal): the run goes on with the next pass, which measures the cells the lost
/// one did not reach; the report flags the cells that got fewer passes.
pub fn run_passes(args: &RunArgs, scenario: &Scenario, passes: usize, dir: &Path) -> Result<Vec<String>, CliError> {
    let program = std::env::current_exe().map_err(|e| CliError::Io(format!("finding this program to rerun: {e}")))?;
    let mut lost = Vec::new();
    for pass in 1..=passes {
        eprintln!("scenario `{}`: pass {pass} of {passes} in a fresh process", scenario.name);
        let mut command = Command::new(&program);
        command.arg("run").arg(&scenario.path).arg("--out").arg(dir).arg("--pass").arg(pass.to_string());
        for (flag, value) in [("--backends", &args.backends), ("--device", &args.device)] {
            if let Some(value) = value {
                command.arg(flag).arg(value);
            }
        }
        if let Some(shard) = args.shard {
            command.arg("--shard").arg(shard.to_string());
        }
        command.args(args.quick.then_some("--quick")).args(args.precise.then_some("--precise"));
        let status =
            command.status().map_err(|e| CliError::Io(format!("starting pass {pass} of `{}`: {e}", scenario.name)))?;
        if !status.success() {
            let line = format!(
                "pass {pass} of {passes} of scenario `{}`: its process ended early ({status}); the next pass \
                 measures the cells it did not reach",
                scenario.name
            );
            eprintln!("error: {line}");
            lost.push(line);
        }
    }
    Ok(lost)
}

/// The process of one pass (`dspbench run FILE --out DIR --pass K`): measures pass K of the
/// scenario into the run's folder. Cells that mismatch or fail are in its records (the run's
/// first process sums them up), so this exits 0 unless it could not measure at all.
pub fn run_pass(args: &RunArgs, pass: usize) -> Result<(), CliError> {
    let [file] = args.files.as_slice() else {
        return Err(CliError::Input(format!("--pass measures one scenario file, got {}", args.files.len())));
    };
    let dir = args.out.as_deref().expect("clap requires --out with --pass");
    die_with_parent();
    let registry = Registry::compiled();
    let (backends, device) = args.selection(&registry)?;
    let scenario = load(file, &registry.catalog(memory_bytes()))?;
    let sampling = args.preset().map_or(scenario.sampling, |apply| apply(scenario.sampling));
    if pass == 0 || pass > sampling.passes {
        return Err(CliError::Input(format!(
            "--pass {pass}: scenario `{}` has passes 1..{}",
            scenario.name, sampling.passes
        )));
    }
    let probed = registry.probe();
    let availability: Vec<_> = probed.iter().map(|(b, a)| (b.name(), a)).collect();
    check_required(&required_backends(), &availability)?;
    let mut out = ResultsDir::open(dir)?;
    let options =
        RunOptions { backends, device, sampling: Some(sampling), shard: args.shard, only_pass: Some(pass - 1) };
    let mut progress = Progress::new();
    let measured = run_scenario(&scenario, &probed, &options, &mut out, &mut progress);
    progress.finish();
    measured?;
    Ok(())
}

/// Ends this pass's process when the run's first process ends (killed, say): a pass left
/// running alone would go on appending to a run that is over.
fn die_with_parent() {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: prctl(PR_SET_PDEATHSIG) takes a signal number and changes nothing else.
        unsafe {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM);
        }
        // The parent may have ended before the call above: then this process was handed to init.
        if std::os::unix::process::parent_id() == 1 {
            std::process::exit(1);
        }
    }
}
