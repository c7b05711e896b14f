//! Runs scenarios: picks backends, plans every cell, measures it, verifies it against the
//! f64 reference and appends the record to the results folder as soon as it is done.

mod bandwidth;
mod machine;
mod measure;
mod registry;
mod require;
mod run;

pub use bandwidth::host_copy_gbps;
pub use machine::{collect_machine, gpu_state, memory_bytes, now_rfc3339};
pub use measure::{measure, Measurement, SamplingPlan};
pub use registry::Registry;
pub use require::{check_required, required_backends, RequireError};
pub use run::{execute_cell, new_record, run_scenario, Observer, RunOptions, RunSummary, SilentObserver};
