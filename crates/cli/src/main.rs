//! The `dspbench` command: run scenarios, list backends, run one kernel on your own data,
//! self-test every backend, rebuild reports.

mod cmd_compare;
mod cmd_exec;
mod cmd_list;
mod cmd_report;
mod cmd_run;
mod cmd_run_pass;
mod cmd_selftest;
mod cmd_slurm;
mod error;
mod npy;
mod progress;
mod slurm_script;

use clap::{Parser, Subcommand};
use error::CliError;
use std::path::PathBuf;
use std::process::ExitCode;

/// Compare hardware on classic signal- and image-processing kernels.
///
/// With no command, runs the default scenario `scenarios/quick.yaml` on every available backend.
#[derive(Debug, Parser)]
#[command(name = "dspbench", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run scenario files and write a results folder (machine.json, results.jsonl, results.csv, report.md).
    Run(cmd_run::RunArgs),
    /// List every backend, device, workload and variant, available or not and why.
    List(cmd_list::ListArgs),
    /// Run one kernel on your own data in NumPy .npy files.
    Exec(cmd_exec::ExecArgs),
    /// Check every available backend and variant against the f64 reference on small and awkward sizes.
    Selftest(cmd_selftest::SelftestArgs),
    /// Rebuild report.md from saved results folders.
    Report(cmd_report::ReportArgs),
    /// Compare two results folders cell by cell: the change with its 95% interval and a verdict.
    Compare(cmd_compare::CompareArgs),
    /// Run scenarios across a Slurm cluster's partitions in shards, and follow them.
    Slurm(cmd_slurm::SlurmArgs),
}

fn main() -> ExitCode {
    restore_default_sigpipe();
    let cli = Cli::parse();
    let result = match cli.command {
        None => cmd_run::run(cmd_run::RunArgs::default_scenario()),
        Some(Command::Run(args)) => cmd_run::run(args),
        Some(Command::List(args)) => cmd_list::run(args),
        Some(Command::Exec(args)) => cmd_exec::run(args),
        Some(Command::Selftest(args)) => cmd_selftest::run(args),
        Some(Command::Report(args)) => cmd_report::run(args),
        Some(Command::Compare(args)) => cmd_compare::run(args),
        Some(Command::Slurm(args)) => cmd_slurm::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("dspbench: error: {e}");
            ExitCode::from(e.exit_code() as u8)
        }
    }
}

/// Rust starts with SIGPIPE ignored, so `dspbench list | head` would panic on the closed pipe;
/// a command-line tool should instead end quietly, as Unix tools do.
fn restore_default_sigpipe() {
    #[cfg(unix)]
    // SAFETY: called first in `main`, before any thread exists; SIG_DFL is a valid disposition.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// Splits `--backends a,b` into names.
fn split_list(text: &str) -> Vec<String> {
    text.split(',').map(str::trim).filter(|s| !s.is_empty()).map(str::to_string).collect()
}

/// Refuses backend names this build does not have.
fn check_backend_names(names: &[String], registry: &dspbench_runner::Registry) -> Result<(), CliError> {
    for name in names {
        if registry.get(name).is_none() {
            return Err(CliError::Input(format!(
                "--backends: unknown backend `{name}` (this build has: {})",
                registry.names().join(", ")
            )));
        }
    }
    Ok(())
}

/// The default scenario, and where it is looked for.
const DEFAULT_SCENARIO: &str = "scenarios/quick.yaml";

fn default_scenario_path() -> PathBuf {
    PathBuf::from(DEFAULT_SCENARIO)
}
