//! Runs scenarios: picks backends, plans every cell, measures it, verifies it against the
//! f64 reference and appends the record to the results folder as soon as it is done.

mod bandwidth;
mod canary;
mod copy_of_bytes;
mod device_filter;
mod fma_peak;
mod machine;
mod measure;
mod noise;
mod passes;
mod registry;
mod require;
mod rounds;
mod run;

pub use bandwidth::host_copy_roof;
pub use canary::canary_ms;
pub use copy_of_bytes::COPY_FAILED;
pub use device_filter::DeviceFilter;
pub use fma_peak::host_fma_peak;
pub use machine::{collect_machine, memory_bytes, now_rfc3339};
pub use measure::{Contender, HostEvictor, Measurement, SamplingPlan};
pub use noise::{host_state, parse_loadavg, CpuTimes, NoiseMonitor, STEAL_WARN_PCT};
pub use registry::Registry;
pub use require::{check_required, required_backends, service_required, RequireError, REQUIRABLE_SERVICES};
pub use rounds::{pass_seed, round_seed, sample_in_rounds, RoundOrder, Slot};
pub use run::{
    device_name, execute_cell, measure_group, new_record, planned_cells, run_scenario, Cell, Group, Observer, PassCell,
    RunOptions, RunSummary, Shard, SilentObserver,
};
