//! The raw results of a run, as written to disk: one [`Record`] per measured cell in
//! `results.jsonl` (appended and flushed as each cell finishes), the same in `results.csv`,
//! and the [`Machine`] it ran on in `machine.json`. Everything a report shows is derived
//! from these files alone, so reports can be rebuilt and merged on any machine.
//! The format is documented in docs/results.md; bump [`SCHEMA_VERSION`] on any change.

mod files;
mod machine;
mod planned;
mod record;
mod stats;

pub use files::{
    read_machine, read_records, read_records_reporting, write_machine, ResultsDir, ResultsError, CSV_FILE,
    MACHINE_FILE, RECORDS_FILE,
};
pub use machine::{machine_id, BackendStatus, CanarySpread, GpuState, HostState, Machine, RunNoise, ScenarioInfo};
pub use planned::{not_run, write_planned, NOT_RUN_REASON, PLANNED_FILE};
pub use record::{Record, SamplingInfo, Status, TransferMs, VerificationInfo};
pub use stats::Summary;

/// Version of the `results.jsonl` / `machine.json` format.
pub const SCHEMA_VERSION: u32 = 2;
