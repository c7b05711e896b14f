//! Device time from profiling events (the queue is created with `CL_QUEUE_PROFILING_ENABLE`):
//! what the device itself measured, without host-side launch and wait overheads.

use crate::cl_error::cl_failure;
use dspbench_core::Error;
use opencl3::event::Event;

/// Milliseconds from the start to the end of one command.
pub(crate) fn event_ms(event: &Event) -> Result<f64, Error> {
    span_ms(event, event)
}

/// Milliseconds from the start of `first` to the end of `last`: on an in-order queue, the
/// device time of everything between them, gaps between kernels included.
pub(crate) fn span_ms(first: &Event, last: &Event) -> Result<f64, Error> {
    // Profiling is read from complete events only, and an event's status is what says so: waited
    // on even after a clFinish. NVIDIA's OpenCL answered CL_PROFILING_INFO_NOT_AVAILABLE after a
    // clFinish while other test threads' queues ran (reports/2026-11-26-h100/experiments call-206,
    // call-207); whether this wait is all it needs awaits a run there.
    for event in [first, last] {
        event.wait().map_err(|e| cl_failure(e, "waiting for a command's event before reading its profiling"))?;
    }
    let start = first.profiling_command_start().map_err(|e| cl_failure(e, "reading a profiling start time"))?;
    let end = last.profiling_command_end().map_err(|e| cl_failure(e, "reading a profiling end time"))?;
    // Nanoseconds; a driver that reports end before start (seen with zero-length commands)
    // gives zero rather than a negative time.
    Ok(end.saturating_sub(start) as f64 * 1e-6)
}
