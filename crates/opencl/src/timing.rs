//! Device time from profiling events (the queue is created with `CL_QUEUE_PROFILING_ENABLE`):
//! what the device itself measured, without host-side launch and wait overheads.

use crate::cl_error::cl_failure;
use dspbench_core::Error;
use opencl3::command_queue::CommandQueue;
use opencl3::event::Event;

/// Milliseconds from the start to the end of one command.
pub(crate) fn event_ms(event: &Event) -> Result<f64, Error> {
    span_ms(event, event)
}

/// Milliseconds of a batch: `count` commands enqueued back to back on the in-order `queue`, command
/// i by `timed(i)` (which returns its event) for the first and the last and by `untimed(i)` for
/// those between, then the span from the first one's start to the last one's end. Only the two
/// carry events: on NVIDIA's OpenCL an event on every command lengthens what the batch times (an
/// H100, 1000 empty kernels: 10.5 us a launch with an event each, 3.4 with two, as with no
/// profiling at all; reports/2026-11-26-h100/experiments call-336). Waits with clFinish rather than
/// on the last event, so that a failed command shows as an error here, with `what` it was doing.
pub(crate) fn batch_span_ms(
    queue: &CommandQueue,
    count: usize,
    what: &str,
    mut timed: impl FnMut(usize) -> Result<Event, Error>,
    mut untimed: impl FnMut(usize) -> Result<(), Error>,
) -> Result<f64, Error> {
    if count == 0 {
        return Err(Error::device(format!("internal: an empty batch ({what})")));
    }
    let first = timed(0)?;
    for i in 1..count - 1 {
        untimed(i)?;
    }
    let last = if count > 1 { Some(timed(count - 1)?) } else { None };
    queue.finish().map_err(|e| cl_failure(e, what))?;
    span_ms(&first, last.as_ref().unwrap_or(&first))
}

/// Milliseconds from the start of `first` to the end of `last`: on an in-order queue, the
/// device time of everything between them, gaps between kernels included.
fn span_ms(first: &Event, last: &Event) -> Result<f64, Error> {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn marker(queue: &CommandQueue) -> Result<Event, Error> {
        // SAFETY: a marker with an empty wait list touches no memory.
        unsafe { queue.enqueue_marker_with_wait_list(&[]) }.map_err(|e| cl_failure(e, "enqueueing a marker"))
    }

    #[test]
    fn a_batch_times_its_first_and_last_command_and_enqueues_the_rest_untimed() {
        let Some(device) = crate::conformance::first_device() else { return };
        let queue = device.queue().unwrap();
        for count in [1, 2, 5] {
            let (mut timed, mut untimed) = (Vec::new(), Vec::new());
            let ms = batch_span_ms(
                &queue,
                count,
                "a test batch",
                |i| {
                    timed.push(i);
                    marker(&queue)
                },
                |i| {
                    untimed.push(i);
                    marker(&queue).map(drop)
                },
            )
            .unwrap();
            assert!(ms >= 0.0);
            let ends = if count == 1 { vec![0] } else { vec![0, count - 1] };
            assert_eq!(timed, ends, "count {count}");
            assert_eq!(untimed, (1..count.saturating_sub(1)).collect::<Vec<_>>(), "count {count}");
        }
        assert!(batch_span_ms(&queue, 0, "an empty batch", |_| marker(&queue), |_| Ok(())).is_err());
    }
}
