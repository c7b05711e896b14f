use crate::{Machine, Record};
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use thiserror::Error;

#[derive(Debug, Error)]
pub enum ResultsError {
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{path}:{line}: not a result record: {message}")]
    Parse { path: PathBuf, line: usize, message: String },
    #[error("{path}: {message}")]
    Csv { path: PathBuf, message: String },
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> ResultsError + '_ {
    move |source| ResultsError::Io { path: path.to_path_buf(), source }
}

/// A results folder being written: `machine.json`, `results.jsonl`, `results.csv`.
///
/// Each record is written to both files and flushed before `append` returns, so a run that is
/// interrupted keeps every cell it finished.
pub struct ResultsDir {
    dir: PathBuf,
    jsonl: File,
    csv: csv::Writer<File>,
}

pub const MACHINE_FILE: &str = "machine.json";
pub const RECORDS_FILE: &str = "results.jsonl";
pub const CSV_FILE: &str = "results.csv";

impl ResultsDir {
    /// Creates the folder (and parents). Existing result files are replaced: a folder holds one run.
    pub fn create(dir: &Path) -> Result<ResultsDir, ResultsError> {
        std::fs::create_dir_all(dir).map_err(io(dir))?;
        let jsonl_path = dir.join(RECORDS_FILE);
        let jsonl =
            OpenOptions::new().create(true).write(true).truncate(true).open(&jsonl_path).map_err(io(&jsonl_path))?;
        let csv_path = dir.join(CSV_FILE);
        let mut csv = csv::Writer::from_writer(File::create(&csv_path).map_err(io(&csv_path))?);
        csv.write_record(CSV_HEADER)
            .map_err(|e| ResultsError::Csv { path: csv_path.clone(), message: e.to_string() })?;
        csv.flush().map_err(io(&csv_path))?;
        Ok(ResultsDir { dir: dir.to_path_buf(), jsonl, csv })
    }

    /// Opens the results folder of a run under way to append to it: what the process measuring
    /// one pass of a run does (`dspbench run` gives each pass a process of its own).
    pub fn open(dir: &Path) -> Result<ResultsDir, ResultsError> {
        let jsonl_path = dir.join(RECORDS_FILE);
        let jsonl = OpenOptions::new().append(true).open(&jsonl_path).map_err(io(&jsonl_path))?;
        let csv_path = dir.join(CSV_FILE);
        let csv_file = OpenOptions::new().append(true).open(&csv_path).map_err(io(&csv_path))?;
        Ok(ResultsDir { dir: dir.to_path_buf(), jsonl, csv: csv::Writer::from_writer(csv_file) })
    }

    pub fn path(&self) -> &Path {
        &self.dir
    }

    pub fn write_machine(&self, machine: &Machine) -> Result<(), ResultsError> {
        write_machine(&self.dir, machine)
    }

    /// Appends one record to `results.jsonl` and `results.csv`, flushed.
    pub fn append(&mut self, record: &Record) -> Result<(), ResultsError> {
        self.append_pass(record)?;
        let csv_path = self.dir.join(CSV_FILE);
        self.csv
            .write_record(csv_row(record))
            .map_err(|e| ResultsError::Csv { path: csv_path.clone(), message: e.to_string() })?;
        self.csv.flush().map_err(io(&csv_path))
    }
}

impl ResultsDir {
    /// Rewrites `results.jsonl` with each cell's last record only (what [`read_records`] reads
    /// anyway): a finished run of several passes keeps one line per cell instead of one per
    /// cell and pass. The new file replaces the old by a rename, so an interruption leaves one
    /// or the other whole.
    pub fn compact(&mut self) -> Result<(), ResultsError> {
        let path = self.dir.join(RECORDS_FILE);
        let records = read_records(&path)?;
        let staging = self.dir.join(format!("{RECORDS_FILE}.compacting"));
        let mut text = String::new();
        for record in &records {
            text.push_str(&serde_json::to_string(record).expect("records always serialise"));
            text.push('\n');
        }
        std::fs::write(&staging, text).map_err(io(&staging))?;
        std::fs::rename(&staging, &path).map_err(io(&path))?;
        self.jsonl = OpenOptions::new().append(true).open(&path).map_err(io(&path))?;
        Ok(())
    }

    /// Appends a cell's record after a pass that is not its last to `results.jsonl` only,
    /// flushed: an interrupted run keeps its passes so far, and the next pass's record replaces
    /// it on reading ([`read_records`]); the CSV gets a cell's row once, after its last pass.
    pub fn append_pass(&mut self, record: &Record) -> Result<(), ResultsError> {
        let jsonl_path = self.dir.join(RECORDS_FILE);
        let line = serde_json::to_string(record).expect("records always serialise");
        writeln!(self.jsonl, "{line}").and_then(|_| self.jsonl.flush()).map_err(io(&jsonl_path))
    }
}

pub fn write_machine(dir: &Path, machine: &Machine) -> Result<(), ResultsError> {
    let path = dir.join(MACHINE_FILE);
    let text = serde_json::to_string_pretty(machine).expect("machine info always serialises");
    std::fs::write(&path, text + "\n").map_err(io(&path))
}

pub fn read_machine(dir: &Path) -> Result<Machine, ResultsError> {
    let path = dir.join(MACHINE_FILE);
    let text = std::fs::read_to_string(&path).map_err(io(&path))?;
    serde_json::from_str(&text).map_err(|e| ResultsError::Parse { path, line: e.line(), message: e.to_string() })
}

/// Reads every record of a `results.jsonl`. A last line cut off mid-write (a run killed while
/// writing) is ignored; a malformed line anywhere else is an error. A cell written after several
/// passes appears once, as its last record (which holds every pass so far).
pub fn read_records(path: &Path) -> Result<Vec<Record>, ResultsError> {
    read_records_reporting(path).map(|(records, _)| records)
}

/// As [`read_records`], with the warning to show when a cut-off last line was skipped (naming
/// the file and the line).
pub fn read_records_reporting(path: &Path) -> Result<(Vec<Record>, Option<String>), ResultsError> {
    let file = File::open(path).map_err(io(path))?;
    let lines: Vec<String> = BufReader::new(file).lines().collect::<Result<_, _>>().map_err(io(path))?;
    let mut records = Vec::with_capacity(lines.len());
    for (i, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Record>(line) {
            Ok(r) => records.push(r),
            Err(_) if i + 1 == lines.len() && !line.ends_with('}') => {
                let warning = format!(
                    "{}:{}: skipped a last line cut off mid-write (a run killed while writing it)",
                    path.display(),
                    i + 1
                );
                return Ok((latest_passes(records), Some(warning)));
            }
            Err(e) => {
                return Err(ResultsError::Parse { path: path.to_path_buf(), line: i + 1, message: e.to_string() })
            }
        }
    }
    Ok((latest_passes(records), None))
}

/// Drops each record that a later pass's record of the same cell ([`Record::same_cell`])
/// replaces, keeping the order of first appearance. A cell's earlier record is at most one pass
/// of the run back, so the search runs backwards.
fn latest_passes(records: Vec<Record>) -> Vec<Record> {
    let mut kept: Vec<Record> = Vec::with_capacity(records.len());
    for record in records {
        let pass = record.sampling.as_ref().map_or(0, |s| s.pass);
        match kept.iter().rposition(|k| pass > 0 && k.same_cell(&record)) {
            Some(i) => kept[i] = record,
            None => kept.push(record),
        }
    }
    kept
}

const CSV_HEADER: [&str; 28] = [
    "scenario",
    "experiment",
    "workload",
    "variant",
    "backend",
    "device",
    "params",
    "status",
    "kernel_ms_median",
    "kernel_ms_min",
    "kernel_ms_max",
    "kernel_ms_mad",
    "kernel_ms_ci_low",
    "kernel_ms_ci_high",
    "kernel_ms_ci_rel",
    "samples",
    "batch",
    "stop",
    "kernel_clock",
    "upload_ms",
    "download_ms",
    "plan_ms",
    "gflops",
    "gbps",
    "copy_of_bytes_gbps",
    "verified",
    "max_abs_err",
    "reason",
];

fn csv_row(r: &Record) -> Vec<String> {
    let num = |v: Option<f64>| v.map(|x| format!("{x}")).unwrap_or_default();
    let k = r.kernel_ms.as_ref();
    vec![
        r.scenario.clone(),
        r.experiment.to_string(),
        r.workload.to_string(),
        r.variant.clone(),
        r.backend.clone(),
        r.device.clone().unwrap_or_default(),
        r.params_text(),
        r.status.name().to_string(),
        num(k.map(|s| s.median)),
        num(k.map(|s| s.min)),
        num(k.map(|s| s.max)),
        num(k.map(|s| s.mad)),
        num(k.and_then(|s| s.ci_low)),
        num(k.and_then(|s| s.ci_high)),
        num(k.and_then(|s| s.ci_rel)),
        r.samples.to_string(),
        r.sampling.as_ref().map(|s| s.batch.to_string()).unwrap_or_default(),
        r.sampling.as_ref().map(|s| s.stop.name().to_string()).unwrap_or_default(),
        r.kernel_clock.clone().unwrap_or_default(),
        num(r.transfer_ms.map(|t| t.upload)),
        num(r.transfer_ms.map(|t| t.download)),
        num(r.plan_ms),
        num(r.gflops),
        num(r.gbps),
        num(r.copy_of_bytes.as_ref().map(|c| c.gbps)),
        r.verified.to_string(),
        num(r.max_abs_err),
        r.reason.clone().unwrap_or_default(),
    ]
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::{Status, Summary, SCHEMA_VERSION};
    use dspbench_core::{Params, Workload};

    pub(crate) fn record(variant: &str) -> Record {
        Record {
            schema: SCHEMA_VERSION,
            scenario: "t".into(),
            experiment: 0,
            experiment_title: None,
            workload: Workload::Conv1d,
            variant: variant.into(),
            backend: "scalar".into(),
            device: Some("cpu".into()),
            params: Params::new().with("n", 10usize).with("m", 3usize),
            status: Status::Ok,
            reason: None,
            isa: Some("scalar".into()),
            threads: Some(1),
            exec: Default::default(),
            seed: 1,
            warmup: 1,
            samples: 2,
            kernel_ms: Summary::of(&[1.0, 2.0]),
            kernel_clock: Some("wall".into()),
            wall_ms: Summary::of(&[1.0, 2.0]),
            transfer_ms: None,
            plan_ms: Some(0.1),
            verified: true,
            verification: None,
            max_abs_err: Some(0.0),
            max_rel_err: Some(0.0),
            flops: 60.0,
            bytes: 100.0,
            gflops: Some(1e-4),
            gbps: Some(1e-4),
            copy_of_bytes: None,
            times_ms: vec![1.0, 2.0],
            rounds: vec![0, 1],
            passes: Vec::new(),
            pass_wall_ms: Vec::new(),
            sampling: None,
            finished: "2026-11-21T00:00:00Z".into(),
        }
    }

    fn after_pass(variant: &str, pass: usize, samples: usize) -> Record {
        let mut r = record(variant);
        r.times_ms = vec![1.0; samples];
        r.rounds = (0..samples as u32).collect();
        r.samples = samples;
        r.sampling = Some(crate::SamplingInfo {
            batch: 1,
            min_sample_ms: 0.0,
            stop: dspbench_stats::StopReason::Target,
            rule: dspbench_stats::StoppingRule {
                min_samples: 1,
                max_samples: 10,
                time_budget_s: 1.0,
                target_rel_half_width: 0.01,
            },
            spent_s: 0.0,
            group: 0,
            round_seed: 1,
            steal_pct: None,
            canary_ms: None,
            passes: 3,
            pass,
            pass_stops: Vec::new(),
            pass_canary_ms: Vec::new(),
            pass_processes: false,
            settle_ms: None,
        });
        r
    }

    #[test]
    fn a_folder_opened_again_is_appended_to_not_replaced() {
        let dir = tempfile::tempdir().unwrap();
        ResultsDir::create(dir.path()).unwrap().append(&record("direct")).unwrap();
        ResultsDir::open(dir.path()).unwrap().append(&record("fft")).unwrap();
        let back = read_records(&dir.path().join(RECORDS_FILE)).unwrap();
        assert_eq!(back.iter().map(|r| r.variant.as_str()).collect::<Vec<_>>(), ["direct", "fft"]);
        let csv = std::fs::read_to_string(dir.path().join(CSV_FILE)).unwrap();
        assert_eq!(csv.lines().count(), 3, "one header, then a row from each process: {csv}");
        let missing = ResultsDir::open(&dir.path().join("none")).err().expect("no run there to go on with");
        assert!(missing.to_string().contains("results.jsonl"), "{missing}");
    }

    #[test]
    fn a_later_pass_replaces_the_cells_record_and_an_interrupted_run_keeps_its_last() {
        let dir = tempfile::tempdir().unwrap();
        let mut out = ResultsDir::create(dir.path()).unwrap();
        // Passes 0 and 1 of two cells, then the run stops: each cell's pass-1 record stands, in
        // the order the cells first appeared, and the CSV has no rows (no cell finished its
        // last pass).
        for (variant, pass, samples) in [("direct", 0, 2), ("fft", 0, 3), ("direct", 1, 4), ("fft", 1, 6)] {
            out.append_pass(&after_pass(variant, pass, samples)).unwrap();
        }
        let back = read_records(&dir.path().join(RECORDS_FILE)).unwrap();
        let seen: Vec<(&str, usize)> = back.iter().map(|r| (r.variant.as_str(), r.samples)).collect();
        assert_eq!(seen, vec![("direct", 4), ("fft", 6)]);
        let csv = std::fs::read_to_string(dir.path().join(CSV_FILE)).unwrap();
        assert_eq!(csv.lines().count(), 1);
        // Two cells alike in every way but written by one pass each are both kept.
        out.append(&after_pass("direct", 0, 5)).unwrap();
        assert_eq!(read_records(&dir.path().join(RECORDS_FILE)).unwrap().len(), 3);
        // Compacted, the file holds those three lines, and appending goes on after them.
        out.compact().unwrap();
        let path = dir.path().join(RECORDS_FILE);
        assert_eq!(std::fs::read_to_string(&path).unwrap().lines().count(), 3);
        out.append(&after_pass("fft", 0, 1)).unwrap();
        let back = read_records(&path).unwrap();
        assert_eq!(back.len(), 4);
        assert_eq!((back[1].variant.as_str(), back[1].samples), ("fft", 6));
    }

    #[test]
    fn appended_records_read_back_and_csv_has_a_row_each() {
        let dir = tempfile::tempdir().unwrap();
        let mut out = ResultsDir::create(dir.path()).unwrap();
        out.append(&record("direct")).unwrap();
        out.append(&record("fft")).unwrap();
        let back = read_records(&dir.path().join(RECORDS_FILE)).unwrap();
        assert_eq!(back, vec![record("direct"), record("fft")]);
        let csv = std::fs::read_to_string(dir.path().join(CSV_FILE)).unwrap();
        assert_eq!(csv.lines().count(), 3);
        assert!(csv.lines().nth(2).unwrap().contains("fft"));
    }

    #[test]
    fn schema_1_records_still_load() {
        let line = r#"{"schema":1,"scenario":"quick","experiment":0,"experiment_title":null,"workload":"conv1d","variant":"direct","backend":"scalar","device":"cpu","params":{"m":3,"n":10},"status":"ok","reason":null,"isa":"scalar","threads":1,"exec":{},"seed":1,"warmup":1,"samples":2,"kernel_ms":{"median":1.5,"min":1.0,"max":2.0,"mad":0.5,"mean":1.5,"n":2},"kernel_clock":"wall","wall_ms":{"median":1.5,"min":1.0,"max":2.0,"mad":0.5,"mean":1.5,"n":2},"transfer_ms":null,"plan_ms":0.1,"verified":true,"verification":null,"max_abs_err":0.0,"max_rel_err":0.0,"flops":60.0,"bytes":100.0,"gflops":0.0001,"gbps":0.0001,"times_ms":[1.0,2.0],"finished":"2026-11-21T00:00:00Z"}"#;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(RECORDS_FILE);
        std::fs::write(&path, format!("{line}\n")).unwrap();
        let r = read_records(&path).unwrap().remove(0);
        assert_eq!((r.schema, r.samples, r.rounds.len(), r.sampling.is_none()), (1, 2, 0, true));
        assert_eq!(r.kernel_ms.unwrap().ci_low, None);
        assert!(r.round_times().is_empty());
    }

    #[test]
    fn a_record_with_an_unknown_field_is_kept_and_one_missing_a_field_is_refused_with_its_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(RECORDS_FILE);
        let mut newer = serde_json::to_value(record("direct")).unwrap();
        newer["written_by_a_later_version"] = serde_json::json!({ "x": 1 });
        let mut broken = serde_json::to_value(record("fft")).unwrap();
        broken.as_object_mut().unwrap().remove("workload");
        std::fs::write(&path, format!("{newer}\n")).unwrap();
        assert_eq!(read_records(&path).unwrap(), vec![record("direct")]);
        std::fs::write(&path, format!("{newer}\n{broken}\n{newer}\n")).unwrap();
        let err = read_records(&path).unwrap_err().to_string();
        assert!(err.contains("results.jsonl:2:") && err.contains("workload"), "{err}");
    }

    #[test]
    fn a_line_cut_off_at_the_end_is_ignored_but_one_in_the_middle_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(RECORDS_FILE);
        let full = serde_json::to_string(&record("direct")).unwrap();
        std::fs::write(&path, format!("{full}\n{}", &full[..full.len() / 2])).unwrap();
        assert_eq!(read_records(&path).unwrap().len(), 1);
        let (records, warning) = read_records_reporting(&path).unwrap();
        assert_eq!(records.len(), 1);
        assert!(warning.unwrap().contains("results.jsonl:2: skipped a last line cut off"));
        std::fs::write(&path, format!("{}\n{full}\n", &full[..full.len() / 2])).unwrap();
        let err = read_records(&path).unwrap_err().to_string();
        assert!(err.contains(":1:"), "{err}");
    }
}
