//! The statistics behind every dspbench number, kept apart from measuring and reporting
//! (criterion's split): the distribution-free confidence interval of a median, ratios between
//! two contenders (paired by round within a run, independent across runs), intervals that hold
//! across a run's passes, the rule that decides when a cell has been sampled enough, the
//! protocol of the copy bandwidth that memory-bound cells are judged against, and the launch
//! floor small cells are read against. The formulas are written out in docs/results.md.

mod estimate;
mod floor;
mod median;
mod passes;
mod ratio;
mod roof;
mod stopping;

pub use estimate::Estimate;
pub use floor::{LaunchFloor, FLOOR_BATCH, FLOOR_SAMPLES, FLOOR_WARMUP};
pub use median::{median_ci_ranks, median_of_sorted, median_with_ci, median_with_ci_sorted, CONFIDENCE};
pub use passes::{between_passes_interval, median_with_ci_in_passes, student_t_975, RoundSample};
pub use ratio::{independent_ratio, paired_ratio, Significance};
pub use roof::{cell_copy_shape, CopyProtocol, CopyRoof, DeviceCopy, Warmup, COPY_ALIGN, COPY_SAMPLE_MS, SETTLED};
pub use stopping::{StopReason, StoppingRule};
