use crate::Summary;
use dspbench_core::{CopyOfBytes, Params, Workload};
use dspbench_stats::{RoundSample, StopReason, StoppingRule};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What became of one cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Measured and verified against the reference.
    Ok,
    /// Measured, but the output disagrees with the reference.
    Mismatch,
    /// The variant refuses this problem (for example a radix-2 FFT of 1000 points).
    Skipped,
    /// A device or compile error; the run went on with the next cell.
    Failed,
    /// The backend is not available on this machine.
    Unavailable,
    /// Planned, but the run ended before it (killed, out of time, a node that failed): the
    /// record comes from the run's `planned.jsonl`, never from a measurement.
    NotRun,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Mismatch => "mismatch",
            Status::Skipped => "skipped",
            Status::Failed => "failed",
            Status::Unavailable => "unavailable",
            Status::NotRun => "not-run",
        }
    }
}

/// Host<->device copy times of one cell, medians in milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TransferMs {
    pub upload: f64,
    pub download: f64,
    pub bytes: u64,
}

/// How the output was checked against the f64 reference.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VerificationInfo {
    /// `full`, or which subset of the output was compared (large cells).
    pub coverage: String,
    pub checked: usize,
    pub total: usize,
    pub atol: f64,
    pub rtol: f64,
    pub first_mismatch: Option<String>,
    /// Where the wrong outputs lie (`... all in the last 3 columns (29-31) of every row (0-23)`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub where_wrong: Option<String>,
}

/// How a cell's samples were taken (schema 2; absent in older records).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SamplingInfo {
    /// Calls per sample: a short kernel runs this many times back to back in one timed sample,
    /// and the sample is recorded per call (its time divided by `batch`).
    pub batch: usize,
    /// The shortest sample calibration aimed for, in milliseconds.
    pub min_sample_ms: f64,
    /// Why sampling stopped: `target` (the interval, over every pass, reached
    /// `rule.target_rel_half_width`), `budget` or `max-samples` (a pass ran out of time or
    /// samples first), `pass-spread` (every pass reached the target, but they disagree).
    pub stop: StopReason,
    /// The whole run's rule; each pass took `rule.per_pass(passes)`.
    pub rule: StoppingRule,
    /// Seconds spent in timed samples (warm-up and calibration excluded).
    pub spent_s: f64,
    /// Index of the problem within its experiment: the records of one group were sampled in
    /// the same rounds, so their times pair by round.
    pub group: usize,
    /// Seed of the per-round shuffled order of the group's contenders.
    pub round_seed: u64,
    /// CPU steal time over the group's sampling in percent (virtual machines; /proc/stat).
    pub steal_pct: Option<f64>,
    /// Milliseconds a fixed reference loop took just before the group was sampled: the
    /// machine's own speed at the time (`dspbench-runner`'s canary).
    #[serde(default)]
    pub canary_ms: Option<f64>,
    /// How many passes the run planned for every problem (1 in records written before passes).
    #[serde(default = "one")]
    pub passes: usize,
    /// The last pass (0-based) whose samples this record holds: a run writes a cell's record
    /// after each pass, each holding every pass so far, and the last one written stands.
    #[serde(default)]
    pub pass: usize,
    /// Why each pass stopped sampling, in pass order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pass_stops: Vec<StopReason>,
    /// The canary before each pass of the group, in pass order (`canary_ms` is the first).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pass_canary_ms: Vec<f64>,
    /// True when each pass ran in a process of its own (`dspbench run` with several passes),
    /// so the passes also sample what differs from one process to the next (where buffers and
    /// code fall, a library's thread pool).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub pass_processes: bool,
    /// Milliseconds spent, untimed, after the samples waiting for the threads the contender left
    /// running to go idle (`Algorithm::settle`), over every pass; absent where nothing was waited.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settle_ms: Option<f64>,
}

fn one() -> usize {
    1
}

/// One measured (or refused) cell: one problem, one variant, one backend, one device.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Record {
    pub schema: u32,
    pub scenario: String,
    pub experiment: usize,
    pub experiment_title: Option<String>,
    pub workload: Workload,
    pub variant: String,
    pub backend: String,
    pub device: Option<String>,
    /// Problem parameters and tunables, as the scenario gave them.
    pub params: Params,
    pub status: Status,
    /// Why a cell was skipped, failed or not run.
    pub reason: Option<String>,
    pub isa: Option<String>,
    pub threads: Option<usize>,
    /// Launch geometry, kernel hashes and other facts of the execution.
    pub exec: BTreeMap<String, String>,
    pub seed: u64,
    pub warmup: usize,
    pub samples: usize,
    /// Kernel time per sample: the device's own timer where it has one, else wall time around `run`.
    pub kernel_ms: Option<Summary>,
    /// `device` or `wall`: which clock `kernel_ms` came from.
    pub kernel_clock: Option<String>,
    /// Wall time around `run` (equals kernel_ms on CPU backends).
    pub wall_ms: Option<Summary>,
    /// `null` where no copy happens (CPU backends).
    pub transfer_ms: Option<TransferMs>,
    /// Planning time (allocation, compilation, FFT plans), once per cell.
    pub plan_ms: Option<f64>,
    pub verified: bool,
    pub verification: Option<VerificationInfo>,
    pub max_abs_err: Option<f64>,
    pub max_rel_err: Option<f64>,
    /// Operation and byte counts of the problem (docs/results.md).
    pub flops: f64,
    pub bytes: f64,
    /// flops / median kernel time.
    pub gflops: Option<f64>,
    /// bytes / median kernel time.
    pub gbps: Option<f64>,
    /// A copy of half of `bytes` on the cell's device (read once and written once: as many bytes
    /// as the cell moves), measured in the same run (`Backend::copy_of_bytes`): the rate a
    /// memory-bound cell of this size could reach where its data sits. Absent for CPU backends,
    /// in older records, and where the copy failed (the reason in `exec.copy_of_bytes_failed`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub copy_of_bytes: Option<CopyOfBytes>,
    /// Every kernel sample, in milliseconds per call, in the order taken.
    pub times_ms: Vec<f64>,
    /// The round of each sample of `times_ms` (same length); empty in older records. Rounds
    /// are numbered on through a problem's passes, so no two passes share one.
    #[serde(default)]
    pub rounds: Vec<u32>,
    /// The pass (0-based) of each sample of `times_ms`; empty for a run of one pass.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub passes: Vec<u32>,
    /// Wall time of every sample, only in a record written after a pass that is not the cell's
    /// last: the next pass, perhaps run by another process, summarises them with its own into
    /// `wall_ms`. Absent from a cell's final record.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pass_wall_ms: Vec<f64>,
    #[serde(default)]
    pub sampling: Option<SamplingInfo>,
    /// UTC time the cell finished, RFC 3339.
    pub finished: String,
}

impl Record {
    /// The parameters as `key=value` pairs, for tables.
    pub fn params_text(&self) -> String {
        self.params.to_string()
    }
}

impl Record {
    /// Every sample with its round and pass, for pairing with another record of the same group.
    pub fn round_times(&self) -> Vec<RoundSample> {
        if self.rounds.len() != self.times_ms.len() {
            return Vec::new();
        }
        self.rounds
            .iter()
            .zip(&self.times_ms)
            .enumerate()
            .map(|(i, (&round, &value))| RoundSample { round, pass: self.pass_of(i), value })
            .collect()
    }

    /// The pass of sample `i` (0 where the record has no passes).
    pub fn pass_of(&self, i: usize) -> u32 {
        if self.passes.len() == self.times_ms.len() {
            self.passes[i]
        } else {
            0
        }
    }

    /// True when `other` was sampled in the same rounds as this record (same run, experiment and group).
    pub fn shares_rounds_with(&self, other: &Record) -> bool {
        match (&self.sampling, &other.sampling) {
            (Some(a), Some(b)) => {
                self.scenario == other.scenario
                    && self.experiment == other.experiment
                    && a.group == b.group
                    && a.round_seed == b.round_seed
                    && !self.rounds.is_empty()
                    && !other.rounds.is_empty()
            }
            _ => false,
        }
    }
}
