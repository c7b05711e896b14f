//! `planned.jsonl`: every cell a run means to measure, written before the first is measured, so
//! that a run that never finishes (killed, out of time, a cluster task whose node failed) still
//! says which cells it did not get to. Readers turn each planned cell without a record into a
//! `not-run` record; nothing in this file is ever a measurement.

use crate::files::ResultsError;
use crate::{Record, Status};
use std::io::Write;
use std::path::Path;

pub const PLANNED_FILE: &str = "planned.jsonl";

/// Why a planned cell has no measurement, as the report shows it.
pub const NOT_RUN_REASON: &str =
    "the run ended before this cell was measured (killed, out of time, or a failed cluster task: see its log)";

impl Record {
    /// Whether `other` is the same cell of the same scenario: what a planned cell and its
    /// measurement share.
    pub fn same_cell(&self, other: &Record) -> bool {
        self.scenario == other.scenario
            && self.experiment == other.experiment
            && self.workload == other.workload
            && self.variant == other.variant
            && self.backend == other.backend
            && self.device == other.device
            && self.params == other.params
    }
}

/// Writes the planned cells of a run (replacing an earlier plan in `dir`).
pub fn write_planned(dir: &Path, planned: &[Record]) -> Result<(), ResultsError> {
    let path = dir.join(PLANNED_FILE);
    let io = |source| ResultsError::Io { path: path.clone(), source };
    let mut text = Vec::new();
    for record in planned {
        let mut record = record.clone();
        record.status = Status::NotRun;
        record.reason = Some(NOT_RUN_REASON.to_string());
        serde_json::to_writer(&mut text, &record).expect("a record serialises");
        text.push(b'\n');
    }
    let mut file = std::fs::File::create(&path).map_err(io)?;
    file.write_all(&text).map_err(io)?;
    file.sync_all().map_err(io)
}

/// The planned cells of the run in `dir` that none of `records` measured, as `not-run`
/// records; empty when the folder has no plan (runs of earlier versions, peer scripts).
pub fn not_run(dir: &Path, records: &[Record]) -> Result<Vec<Record>, ResultsError> {
    let path = dir.join(PLANNED_FILE);
    if !path.exists() {
        return Ok(Vec::new());
    }
    let (planned, _) = crate::read_records_reporting(&path)?;
    Ok(planned
        .into_iter()
        .filter(|p| !records.iter().any(|r| r.same_cell(p)))
        .map(|mut p| {
            p.status = Status::NotRun;
            p.reason.get_or_insert_with(|| NOT_RUN_REASON.to_string());
            p
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::files::tests::record;

    #[test]
    fn planned_cells_without_a_record_come_back_as_not_run() {
        let dir = tempfile::tempdir().unwrap();
        let planned = [record("direct"), record("fft"), record("tiled")];
        write_planned(dir.path(), &planned).unwrap();
        let measured = [record("fft")];
        let missing = not_run(dir.path(), &measured).unwrap();
        let names: Vec<_> = missing.iter().map(|r| r.variant.as_str()).collect();
        assert_eq!(names, ["direct", "tiled"]);
        assert!(missing.iter().all(|r| r.status == Status::NotRun));
        assert_eq!(missing[0].reason.as_deref(), Some(NOT_RUN_REASON));
    }

    #[test]
    fn a_folder_without_a_plan_has_no_not_run_cells() {
        let dir = tempfile::tempdir().unwrap();
        assert!(not_run(dir.path(), &[]).unwrap().is_empty());
    }

    #[test]
    fn cells_differ_by_device_and_parameters() {
        let a = record("direct");
        let mut b = a.clone();
        assert!(a.same_cell(&b));
        b.device = Some("gpu".into());
        assert!(!a.same_cell(&b));
        let mut c = a.clone();
        c.params = c.params.with("m", 5usize);
        assert!(!a.same_cell(&c));
    }
}
