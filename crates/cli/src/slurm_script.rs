//! The sbatch scripts of `dspbench slurm submit`, written into the run's folder for the record
//! (readable, editable, resubmittable by hand). One array job per partition, one task per shard,
//! each task running `dspbench run --shard K/N` into `DIR/<partition>/<K>/`; then one job,
//! after all of them (`afterany`), merging every shard into `DIR/report/`.

use std::path::Path;

/// What the scripts run, and where.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// The dspbench binary the tasks run: it must be reachable from the nodes (a shared file system).
    pub binary: String,
    /// The working folder of the tasks (scenario paths are relative to it).
    pub workdir: String,
    pub scenarios: Vec<String>,
    pub partitions: Vec<String>,
    pub shards: usize,
    pub gpus_per_task: Option<usize>,
    /// Every result lands under this folder.
    pub out: String,
    /// `#SBATCH` lines the user's site needs (account, QoS, time limit), passed through as given.
    pub sbatch_options: Vec<String>,
    /// Shell lines run before dspbench on a node (`module load ...`).
    pub setup: Vec<String>,
}

/// Single quotes for the shell: `it's` becomes `'it'\''s'`.
pub fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

impl Plan {
    /// The array script: submitted once per partition, with the partition as its argument.
    pub fn task_script(&self) -> String {
        let mut s = String::from("#!/usr/bin/env bash\n");
        s.push_str("# dspbench: one shard of the scenarios per array task. Submitted once per partition:\n");
        s.push_str("#   sbatch --partition=P --array=1-N tasks.sh P\n");
        s.push_str("#SBATCH --job-name=dspbench\n");
        s.push_str(&format!("#SBATCH --output={}/logs/%x-%A_%a.out\n", self.out));
        s.push_str("#SBATCH --ntasks=1\n");
        if let Some(gpus) = self.gpus_per_task {
            s.push_str(&format!("#SBATCH --gpus-per-task={gpus}\n"));
        }
        for option in &self.sbatch_options {
            s.push_str(&format!("#SBATCH {option}\n"));
        }
        s.push_str("set -u\n");
        s.push_str("partition=$1\n");
        s.push_str(&format!("shards={}\n", self.shards));
        s.push_str("shard=${SLURM_ARRAY_TASK_ID:?run me with sbatch --array}\n");
        s.push_str(&format!("out={}/\"$partition\"/\"$shard\"\n", quote(&self.out)));
        s.push_str("mkdir -p \"$out\"\n");
        s.push_str("# What the task came to, for `dspbench slurm status`: written before anything else runs and\n");
        s.push_str("# on every exit, so a failed setup line shows its exit code, and a task killed by Slurm\n");
        s.push_str("# (time limit, node failure) is seen as started but never ended.\n");
        s.push_str("echo \"started $(date -u +%FT%TZ) on $(hostname) job ${SLURM_JOB_ID:-?}\" > \"$out.state\"\n");
        s.push_str("trap 'echo \"exit $? $(date -u +%FT%TZ)\" >> \"$out.state\"' EXIT\n");
        s.push_str(&format!("cd {} || exit 2\n", quote(&self.workdir)));
        for line in &self.setup {
            s.push_str(line);
            s.push('\n');
        }
        let scenarios: Vec<String> = self.scenarios.iter().map(|s| quote(s)).collect();
        s.push_str(&format!(
            "{} run {} --shard \"$shard/$shards\" --machine \"$partition\" --out \"$out\"\n",
            quote(&self.binary),
            scenarios.join(" ")
        ));
        s
    }

    /// The merge job: every shard of every partition into one report.
    pub fn report_script(&self) -> String {
        let mut s = String::from("#!/usr/bin/env bash\n");
        s.push_str("# dspbench: merge every shard that wrote results into one report (runs after all tasks).\n");
        s.push_str("#SBATCH --job-name=dspbench-report\n");
        s.push_str(&format!("#SBATCH --output={}/logs/%x-%j.out\n", self.out));
        s.push_str("#SBATCH --ntasks=1\n");
        for option in &self.sbatch_options {
            s.push_str(&format!("#SBATCH {option}\n"));
        }
        s.push_str("set -u\n");
        s.push_str(&format!("cd {} || exit 2\n", quote(&self.workdir)));
        s.push_str("folders=()\n");
        let partitions: Vec<String> = self.partitions.iter().map(|p| quote(p)).collect();
        s.push_str(&format!("for partition in {}; do\n", partitions.join(" ")));
        s.push_str(&format!("  for shard in $(seq 1 {}); do\n", self.shards));
        s.push_str(&format!("    dir={}/\"$partition\"/\"$shard\"\n", quote(&self.out)));
        // A task that ran at all left its plan: cells it did not reach show as not run. One that
        // never started gets its plan made here, so its cells show as not run too, never dropped.
        s.push_str("    if [ ! -s \"$dir/planned.jsonl\" ]; then\n");
        s.push_str("      echo \"shard $shard of $partition never started (see $dir.state and the task's log): its cells are marked not run\" >&2\n");
        s.push_str(&format!(
            "      {} run {} --shard \"$shard/{}\" --machine \"$partition\" --out \"$dir\" --plan-only\n",
            quote(&self.binary),
            self.scenarios.iter().map(|s| quote(s)).collect::<Vec<_>>().join(" "),
            self.shards
        ));
        s.push_str("    fi\n");
        s.push_str("    folders+=(\"$dir\")\n");
        s.push_str("  done\n");
        s.push_str("done\n");
        s.push_str(&format!(
            "exec {} report \"${{folders[@]}}\" --out {}/report\n",
            quote(&self.binary),
            quote(&self.out)
        ));
        s
    }

    /// Writes both scripts into the output folder; returns their paths.
    pub fn write(&self) -> std::io::Result<(std::path::PathBuf, std::path::PathBuf)> {
        let dir = Path::new(&self.out);
        std::fs::create_dir_all(dir.join("logs"))?;
        let (tasks, report) = (dir.join("tasks.sh"), dir.join("report.sh"));
        std::fs::write(&tasks, self.task_script())?;
        std::fs::write(&report, self.report_script())?;
        Ok((tasks, report))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan() -> Plan {
        Plan {
            binary: "/opt/dspbench".into(),
            workdir: "/home/u/bench".into(),
            scenarios: vec!["scenarios/quick.yaml".into(), "it's.yaml".into()],
            partitions: vec!["gpu-a".into(), "gpu-b".into()],
            shards: 3,
            gpus_per_task: Some(1),
            out: "/scratch/run".into(),
            sbatch_options: vec!["--account=lab".into(), "--time=01:00:00".into()],
            setup: vec!["module load cuda".into()],
        }
    }

    #[test]
    fn the_task_script_runs_one_shard_per_array_task() {
        let s = plan().task_script();
        assert!(s.starts_with("#!/usr/bin/env bash\n"));
        for line in [
            "#SBATCH --gpus-per-task=1",
            "#SBATCH --account=lab",
            "#SBATCH --time=01:00:00",
            "#SBATCH --output=/scratch/run/logs/%x-%A_%a.out",
            "module load cuda",
            "shards=3",
            "'/opt/dspbench' run 'scenarios/quick.yaml' 'it'\\''s.yaml' --shard \"$shard/$shards\" --machine \"$partition\" --out \"$out\"",
        ] {
            assert!(s.lines().any(|l| l == line), "missing `{line}` in\n{s}");
        }
        // #SBATCH lines must all precede the first command, or sbatch ignores them.
        let lines: Vec<&str> = s.lines().collect();
        let last_sbatch = lines.iter().rposition(|l| l.starts_with("#SBATCH")).unwrap();
        let first_command = lines.iter().position(|l| !l.starts_with('#')).unwrap();
        assert!(last_sbatch < first_command, "{s}");
    }

    #[test]
    fn the_report_script_merges_every_shard_and_plans_those_that_never_started() {
        let s = plan().report_script();
        assert!(s.contains("for partition in 'gpu-a' 'gpu-b'; do"), "{s}");
        assert!(s.contains("for shard in $(seq 1 3); do"), "{s}");
        assert!(s.contains("exec '/opt/dspbench' report \"${folders[@]}\" --out '/scratch/run'/report"), "{s}");
        // A shard that never started is planned here, so the report lists its cells as not run.
        let plan_line = "'/opt/dspbench' run 'scenarios/quick.yaml' 'it'\\''s.yaml' --shard \"$shard/3\" --machine \"$partition\" --out \"$dir\" --plan-only";
        assert!(s.lines().any(|l| l.trim() == plan_line), "missing `{plan_line}` in\n{s}");
    }

    #[test]
    fn quoting_survives_the_shell() {
        assert_eq!(quote("plain"), "'plain'");
        assert_eq!(quote("it's"), "'it'\\''s'");
        let out = std::process::Command::new("sh").arg("-c").arg(format!("printf %s {}", quote("a 'b' $c"))).output();
        if let Ok(out) = out {
            assert_eq!(String::from_utf8_lossy(&out.stdout), "a 'b' $c");
        }
    }
}
