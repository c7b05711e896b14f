//! The launch floor (crates/stats/src/floor.rs): an empty kernel (kernels/opencl/launch_floor.cl)
//! launched as the runner launches a short cell's batch (`Planned::execute`): back to back,
//! profiling events on the first and last launch only, the span between them.

use crate::device::Device;
use crate::launch::Launch;
use crate::program::build;
use crate::timing::batch_span_ms;
use dspbench_core::Error;
use dspbench_kernels::Defines;
use dspbench_stats::{LaunchFloor, FLOOR_BATCH};

/// The empty kernel's file and entry.
const FLOOR_FILE: &str = "launch_floor";

/// The floor of `device`: one work-group of 32 work-items a launch (or fewer where the device
/// takes fewer).
pub(crate) fn measure(device: &Device) -> Result<LaunchFloor, Error> {
    let queue = device.queue()?;
    let program = build(device, FLOOR_FILE, &Defines::new())?;
    let items = device.limits.max_work_group.clamp(1, 32);
    let launch = Launch::new(device, &program, FLOOR_FILE, &[], [items, 1], [items, 1])?;
    LaunchFloor::measure(|| {
        let _one_at_a_time = device.launch_guard();
        batch_span_ms(
            &queue,
            FLOOR_BATCH,
            "running the empty kernel",
            |_| launch.enqueue(&queue),
            |_| launch.enqueue_untimed(&queue),
        )
    })
}
