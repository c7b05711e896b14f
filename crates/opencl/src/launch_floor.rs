//! The launch floor (crates/stats/src/floor.rs): an empty kernel (kernels/opencl/launch_floor.cl)
//! launched as the runner launches a short cell's batch (`Planned::run_batch`): one command buffer
//! of the batch where the device records them, else back to back with profiling events on the
//! first and last launch only.

use crate::cl_error::cl_failure;
use crate::command_buffer::CommandBuffer;
use crate::device::Device;
use crate::launch::Launch;
use crate::program::build;
use crate::timing::{event_ms, span_ms};
use dspbench_core::Error;
use dspbench_kernels::Defines;
use dspbench_stats::{LaunchFloor, FLOOR_BATCH};

/// The empty kernel's file and entry.
const FLOOR_FILE: &str = "launch_floor";

/// The floor of `device` (one work-group of 32 work-items a launch, or fewer where the device
/// takes fewer) and how its batches ran, for the record.
pub(crate) fn measure(device: &Device) -> Result<(LaunchFloor, &'static str), Error> {
    let queue = device.queue()?;
    let program = build(device, FLOOR_FILE, &Defines::new())?;
    let items = device.limits.max_work_group.clamp(1, 32);
    let launch = Launch::new(device, &program, FLOOR_FILE, &[], [items, 1], [items, 1])?;
    let finish = || queue.finish().map_err(|e| cl_failure(e, "running the empty kernel"));
    if let Ok(api) = device.command_buffers() {
        let batch = CommandBuffer::record(api, &queue, std::slice::from_ref(&launch), FLOOR_BATCH)
            .map_err(|e| cl_failure(e, "recording the empty kernel's batch as a command buffer"))?;
        let floor = LaunchFloor::measure(|| {
            let _one_at_a_time = device.launch_guard();
            let event = batch.enqueue(&queue, "the empty kernel")?;
            finish()?;
            event_ms(&event)
        })?;
        return Ok((floor, "profiling events, the batch one command buffer"));
    }
    let floor = LaunchFloor::measure(|| {
        let _one_at_a_time = device.launch_guard();
        let first = launch.enqueue(&queue)?;
        for _ in 0..FLOOR_BATCH - 2 {
            launch.enqueue_untimed(&queue)?;
        }
        let last = launch.enqueue(&queue)?;
        finish()?;
        span_ms(&first, &last)
    })?;
    Ok((floor, "profiling events on its first and last launch"))
}
