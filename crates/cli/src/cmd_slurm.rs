//! `dspbench slurm submit|status`: a scenario across a Slurm cluster's partitions, in shards, with
//! the user's own scheduler and nothing of ours running in between (no daemon, no job runner).

use crate::error::CliError;
use crate::slurm_script::Plan;
use crate::split_list;
use dspbench_runner::{memory_bytes, Registry};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::process::Command;

#[derive(Debug, clap::Args)]
pub struct SlurmArgs {
    #[command(subcommand)]
    command: SlurmCommand,
}

#[derive(Debug, clap::Subcommand)]
enum SlurmCommand {
    /// Write the sbatch scripts into --out and submit them: per partition an array of --shards tasks,
    /// then a job that merges them into OUT/report once all have ended.
    Submit(SubmitArgs),
    /// Each task's state: pending, running, finished, failed (with its log).
    Status(StatusArgs),
}

#[derive(Debug, clap::Args)]
struct SubmitArgs {
    /// Scenario files (paths relative to this folder, which the tasks start in).
    #[arg(required = true)]
    scenarios: Vec<PathBuf>,
    /// Partitions to run on, comma-separated: each runs the whole scenario.
    #[arg(long, required = true)]
    partition: String,
    /// Shares of the scenario per partition, one array task each.
    #[arg(long, default_value_t = 1)]
    shards: usize,
    /// GPUs each task asks for (`#SBATCH --gpus-per-task`).
    #[arg(long)]
    gpus_per_task: Option<usize>,
    /// Where the scripts, logs, results (OUT/<partition>/<shard>/) and the merged report go; on a
    /// file system every node sees.
    #[arg(long)]
    out: PathBuf,
    /// An #SBATCH option your site needs, passed through as is (repeat it): `--sbatch=--account=lab`.
    #[arg(long = "sbatch", value_name = "OPTION", allow_hyphen_values = true)]
    sbatch_options: Vec<String>,
    /// A shell line to run on the node before dspbench (repeat it): `--setup 'module load cuda'`.
    #[arg(long = "setup", value_name = "LINE")]
    setup: Vec<String>,
    /// Print the scripts and the sbatch commands; submit nothing.
    #[arg(long)]
    dry_run: bool,
}

#[derive(Debug, clap::Args)]
struct StatusArgs {
    /// The --out folder of a submission.
    dir: PathBuf,
}

/// What was submitted, kept beside the scripts for `status`.
#[derive(Debug, Serialize, Deserialize)]
struct Submitted {
    shards: usize,
    /// (partition, array job id)
    arrays: Vec<(String, String)>,
    report_job: String,
}

const SUBMITTED_FILE: &str = "submitted.json";

pub fn run(args: SlurmArgs) -> Result<(), CliError> {
    match args.command {
        SlurmCommand::Submit(a) => submit(a),
        SlurmCommand::Status(a) => status(a),
    }
}

fn submit(args: SubmitArgs) -> Result<(), CliError> {
    let partitions = split_list(&args.partition);
    if partitions.is_empty() {
        return Err(CliError::Input("--partition: name at least one partition".into()));
    }
    if args.shards == 0 {
        return Err(CliError::Input("--shards must be at least 1".into()));
    }
    // A scenario with a mistake fails here, with its line and field, not in every task.
    let catalog = Registry::compiled().catalog(memory_bytes());
    for path in &args.scenarios {
        dspbench_scenario::load(path, &catalog)?;
    }
    let absolute = |p: &Path| std::path::absolute(p).map_err(|e| CliError::Io(format!("{}: {e}", p.display())));
    let plan = Plan {
        binary: std::env::current_exe()
            .map_err(|e| CliError::Io(format!("finding dspbench itself: {e}")))?
            .display()
            .to_string(),
        workdir: absolute(Path::new("."))?.display().to_string(),
        scenarios: args.scenarios.iter().map(|p| p.display().to_string()).collect(),
        partitions: partitions.clone(),
        shards: args.shards,
        gpus_per_task: args.gpus_per_task,
        out: absolute(&args.out)?.display().to_string(),
        sbatch_options: args.sbatch_options,
        setup: args.setup,
    };
    let array = format!("--array=1-{}", args.shards);
    if args.dry_run {
        println!("# {}/tasks.sh\n{}", plan.out, plan.task_script());
        println!("# {}/report.sh\n{}", plan.out, plan.report_script());
        for p in &partitions {
            println!("sbatch --parsable --partition={p} {array} {}/tasks.sh {p}", plan.out);
        }
        println!(
            "sbatch --parsable --partition={} --dependency=afterany:<the jobs above> {}/report.sh",
            partitions[0], plan.out
        );
        return Ok(());
    }
    let (tasks, report) = plan.write().map_err(|e| CliError::Io(format!("{}: {e}", plan.out)))?;
    let mut arrays = Vec::new();
    for p in &partitions {
        let job = sbatch(&[&format!("--partition={p}"), &array, &tasks.display().to_string(), p])?;
        eprintln!("partition {p}: array job {job} ({} task(s))", args.shards);
        arrays.push((p.clone(), job));
    }
    let after = arrays.iter().map(|(_, j)| j.as_str()).collect::<Vec<_>>().join(":");
    let report_job = sbatch(&[
        &format!("--partition={}", partitions[0]),
        &format!("--dependency=afterany:{after}"),
        &report.display().to_string(),
    ])?;
    eprintln!(
        "report job {report_job} runs once they have all ended; `dspbench slurm status {}` follows them",
        plan.out
    );
    let submitted = Submitted { shards: args.shards, arrays, report_job };
    let path = Path::new(&plan.out).join(SUBMITTED_FILE);
    let text = serde_json::to_string_pretty(&submitted).expect("serialises");
    std::fs::write(&path, text + "\n").map_err(|e| CliError::Io(format!("{}: {e}", path.display())))
}

/// Runs `sbatch --parsable ARGS`; the job id it prints.
fn sbatch(args: &[&str]) -> Result<String, CliError> {
    let out = Command::new("sbatch")
        .arg("--parsable")
        .args(args)
        .output()
        .map_err(|e| CliError::Failed(format!("cannot run sbatch (is Slurm installed here?): {e}")))?;
    if !out.status.success() {
        return Err(CliError::Failed(format!(
            "sbatch {} failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    // `--parsable` prints `jobid` or `jobid;cluster`.
    Ok(text.trim().split(';').next().unwrap_or_default().to_string())
}

/// Slurm's view of the jobs' tasks (`squeue`): task id (`123_4` or `123`) to state. Empty once
/// they have left the queue; the tasks' own state files say how they ended.
fn queued(jobs: &[&str]) -> std::collections::HashMap<String, String> {
    let out = Command::new("squeue").args(["-h", "-r", "-o", "%i %T", "-j", &jobs.join(",")]).output();
    let text = out.map(|o| String::from_utf8_lossy(&o.stdout).to_string()).unwrap_or_default();
    text.lines()
        .filter_map(|l| l.split_once(' '))
        .map(|(id, state)| (id.trim().to_string(), state.trim().to_lowercase()))
        .collect()
}

fn status(args: StatusArgs) -> Result<(), CliError> {
    let path = args.dir.join(SUBMITTED_FILE);
    let text = std::fs::read_to_string(&path).map_err(|e| {
        CliError::Input(format!("{}: {e} (is this the --out folder of `dspbench slurm submit`?)", path.display()))
    })?;
    let submitted: Submitted =
        serde_json::from_str(&text).map_err(|e| CliError::Input(format!("{}: {e}", path.display())))?;
    let mut jobs: Vec<&str> = submitted.arrays.iter().map(|(_, j)| j.as_str()).collect();
    jobs.push(&submitted.report_job);
    let queue = queued(&jobs);
    let mut failed = 0;
    println!("{:<16} {:>5}  {:<28} log", "partition", "shard", "state");
    for (partition, job) in &submitted.arrays {
        for shard in 1..=submitted.shards {
            let task = format!("{job}_{shard}");
            let state_file = args.dir.join(partition).join(format!("{shard}.state"));
            let written = std::fs::read_to_string(&state_file).unwrap_or_default();
            let state = match (queue.get(&task), written.lines().find_map(|l| l.strip_prefix("exit "))) {
                (Some(q), _) => q.clone(),
                (None, Some(end)) if end.starts_with("0 ") => "finished".to_string(),
                (None, Some(end)) => {
                    failed += 1;
                    format!("failed (exit {})", end.split(' ').next().unwrap_or("?"))
                }
                (None, None) if written.starts_with("started") => {
                    failed += 1;
                    "failed (ended without an exit: killed?)".to_string()
                }
                (None, None) => "not started (left the queue?)".to_string(),
            };
            let log = args.dir.join("logs").join(format!("dspbench-{job}_{shard}.out"));
            println!("{partition:<16} {shard:>5}  {state:<28} {}", log.display());
        }
    }
    let report = args.dir.join("report").join("report.md");
    let report_state = match queue.get(&submitted.report_job) {
        Some(q) => q.clone(),
        None if report.exists() => format!("done: {}", report.display()),
        None => format!("ended without a report: see {}", args.dir.join("logs").display()),
    };
    println!("report job {}: {report_state}", submitted.report_job);
    if failed > 0 {
        println!(
            "{failed} task(s) failed: their cells are missing from the report; rerun them with the line in tasks.sh"
        );
    }
    Ok(())
}
